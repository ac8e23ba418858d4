import Foundation
import ScrollbackModel

extension TelegramChatReader {
    /// Telegram's media keys other than `photo` and `file` (older exports and some tools write
    /// `sticker`, `voice_message` … as their own keys), by the `media_type` they mean.
    static let mediaKeys = ["sticker", "voice_message", "video_message", "video_file", "audio_file", "animation"]

    /// The message's kind: media with the text as caption, a poll, a to-do list, a giveaway, an
    /// invoice, a game, a place, a contact, or the text.
    func kind(
        _ node: JSONNode, index: TelegramChatIndex, position: Int, at location: SourceLocation, tally: inout Tally,
        diagnostics: inout [Diagnostic]
    ) -> MessageKind {
        let readable = readText(node, diagnostics: &diagnostics)
        let pieces = readable ?? []
        let text = pieces.map(\.text).joined()
        let caption = text.isEmpty ? nil : text
        let size: PixelSize? = {
            guard let width = node["width"]?.number(in: 1...1_000_000),
                let height = node["height"]?.number(in: 1...1_000_000)
            else {
                return nil
            }
            return PixelSize(width: Int(width), height: Int(height))
        }()

        func source(_ key: String, describing what: String) -> MediaSource {
            let value = node[key]?.string ?? ""
            if value.isEmpty || TelegramChatReader.notIncludedPrefixes.contains(where: value.hasPrefix) {
                tally.countNotIncluded(at: location)
                let name = node["file_name"]?.string ?? what
                return .unavailable(original: "\(name) (not included in the export)")
            }
            return context.media(localPath: value, relativeTo: file, at: location, diagnostics: &diagnostics)
        }
        func number(_ keys: String...) -> Double? {
            keys.lazy.compactMap { node[$0]?.number(in: 0...9e15) }.first
        }

        if node["photo"] != nil {
            return .photo(MediaItem(source: source("photo", describing: "photo"), size: size, caption: caption))
        }
        var mediaKey: String?
        var mediaType = node["media_type"]?.string
        if node["file"] != nil {
            mediaKey = "file"
        } else if let key = TelegramChatReader.mediaKeys.first(where: { node[$0] != nil }) {
            mediaKey = key
            mediaType = key
        }
        if let mediaKey {
            let duration = number("duration_seconds", "\(mediaType ?? "")_duration")
            switch mediaType {
            case "sticker":
                let emoji = node["sticker_emoji"]?.string.flatMap { $0.isEmpty ? nil : $0 }
                var media = source(mediaKey, describing: emoji.map { "sticker \($0)" } ?? "sticker")
                // A sticker whose image is not in the export is its emoji, as Telegram shows it
                // where the image cannot load.
                if case .unavailable = media, let emoji { return .emoji(emoji) }
                if case .local(let asset) = media, asset.sourcePath.hasSuffix(".tgs"), node["thumbnail"]?.string != nil
                {
                    media = source("thumbnail", describing: "sticker")  // animated stickers: the still
                }
                if case .local(let asset) = media, asset.sourcePath.hasSuffix(".webm") {
                    return .video(MediaItem(source: media, size: size, alt: emoji.map { "Sticker \($0)" } ?? "Sticker"))
                }
                return .photo(
                    MediaItem(
                        source: media, size: size,
                        alt: emoji.map { "Sticker \($0)" } ?? "Sticker",
                        caption: caption))
            case "animation", "video_file", "video_message":
                var poster: MediaSource?
                if let thumbnail = node["thumbnail"]?.string,
                    !TelegramChatReader.notIncludedPrefixes.contains(where: thumbnail.hasPrefix)
                {
                    poster = context.media(
                        localPath: thumbnail, relativeTo: file, at: location, diagnostics: &diagnostics)
                }
                let what = mediaType == "video_message" ? "video message" : mediaType == "animation" ? "GIF" : "video"
                return .video(
                    MediaItem(
                        source: source(mediaKey, describing: what), size: size, caption: caption, poster: poster,
                        duration: duration))
            case "voice_message", "audio_file":
                let title =
                    [node["performer"]?.string, node["title"]?.string].compactMap { $0 }.joined(separator: " – ")
                return .audio(
                    MediaItem(
                        source: source(mediaKey, describing: mediaType == "voice_message" ? "voice message" : "audio"),
                        caption: caption, duration: duration,
                        title: title.isEmpty ? (mediaType == "voice_message" ? "Voice message" : nil) : title))
            default:
                if mediaType != nil {
                    diagnostics.append(
                        .warning(.other("Telegram media type '\(mediaType!)' is shown as a file"), at: location))
                }
                let fileSize = number("file_size", "\(mediaKey)_file_size").map { Int64($0) }
                return .file(
                    FileItem(
                        source: source(mediaKey, describing: "file"), name: node["file_name"]?.string, size: fileSize,
                        mimeType: node["mime_type"]?.string, caption: caption))
            }
        }
        if let poll = node["poll"], poll.members != nil {
            return .custom(CustomItem(id: "poll", data: TelegramChatReader.pollData(poll)))
        }
        if let extra = extraKind(node, index: index, position: position, caption: caption, at: location) {
            return extra
        }
        if let place = node["location_information"], let latitude = place["latitude"]?.number,
            let longitude = place["longitude"]?.number
        {
            var name = node["place_name"]?.string
            if name == nil, node["live_location_period_seconds"] != nil { name = "Live location" }
            return .location(
                LocationItem(
                    latitude: latitude, longitude: longitude, name: name ?? caption, address: node["address"]?.string))
        }
        if let contact = node["contact_information"] {
            let fullName = [contact["first_name"]?.string, contact["last_name"]?.string].compactMap { $0 }
                .filter { !$0.isEmpty }.joined(separator: " ")
            let phone = contact["phone_number"]?.string
            return .contact(
                ContactItem(name: fullName.isEmpty ? (phone ?? "Contact") : fullName, phones: phone.map { [$0] } ?? []))
        }
        if let key = ["rich_message", "dice"].first(where: { node[$0] != nil }) {
            diagnostics.append(
                .warning(.other("Telegram '\(key)' content is not shown; the message's text is"), at: location))
            if text.isEmpty { return .text("[\(key.replacingOccurrences(of: "_", with: " ")): not shown]") }
        }
        if readable == nil {
            // The text could not be read (reported): say so rather than show an empty bubble.
            return .text("[the text of this message could not be read from the export]")
        }
        return TelegramText.kind(pieces, sanitizer: context.reading.sanitizer)
    }

    /// The runs of the message's `text` (or `text_entities` when `text` is not readable); `nil`,
    /// with a located warning, when neither is a string or an array.
    func readText(_ node: JSONNode, diagnostics: inout [Diagnostic]) -> [TelegramText.Piece]? {
        let text = node["text"].flatMap(TelegramText.pieces)
        if let text, !text.isEmpty { return text }
        if let entities = node["text_entities"].flatMap(TelegramText.pieces), !entities.isEmpty { return entities }
        if let text { return text }
        if let field = node["text"] {
            diagnostics.append(
                .warning(
                    .wrongType(field: "text", expected: "a string or an array of text parts, not \(field.typeName)"),
                    at: field.location(in: shownFile)))
        } else {
            diagnostics.append(.warning(.missingField("text"), at: node.location(in: shownFile)))
        }
        return nil
    }

    /// To-do lists, giveaways and their results, invoices, games and paid media: their content
    /// as text, in the shapes `export_output_json.cpp` writes them.
    func extraKind(
        _ node: JSONNode, index: TelegramChatIndex, position: Int, caption: String?, at location: SourceLocation
    ) -> MessageKind? {
        func plain(_ value: JSONNode?) -> String {
            value.flatMap(TelegramText.pieces)?.map(\.text).joined() ?? ""
        }
        func number(_ value: JSONNode?) -> Int? { value?.number(in: -9e15...9e15).map { Int($0) } }
        var lines: [String] = []
        if let todo = node["todo_list"], todo.members != nil {
            // Formatting of the title and items is kept: the list is rich text.
            let done = index.todoDone[position] ?? []
            var html =
                "<p><strong>☑️ " + TelegramText.html(todo["title"].flatMap(TelegramText.pieces) ?? [])
                + "</strong></p><ul>"
            var plainText = "☑️ " + plain(todo["title"])
            for item in todo["answers"]?.elements ?? [] {
                let mark = item["id"].flatMap(TelegramChatReader.idText).map { done.contains($0) } == true ? "✅" : "⬜"
                html += "<li>\(mark) " + TelegramText.html(item["text"].flatMap(TelegramText.pieces) ?? []) + "</li>"
                plainText += "\n\(mark) " + plain(item["text"])
            }
            html += "</ul>"
            if let caption {
                html += "<p>" + TelegramText.html([TelegramText.Piece(type: "plain", text: caption)]) + "</p>"
            }
            let sanitized = context.reading.sanitizer.sanitize(html)
            return .attributedText(RichText(sanitizedHTML: sanitized.html, plainText: plainText))
        }
        if let giveaway = node["giveaway_information"], giveaway.members != nil {
            let quantity = number(giveaway["quantity"]) ?? 0
            let stars = number(giveaway["stars"]) ?? 0
            let months = number(giveaway["months"]) ?? 0
            lines.append(
                stars > 0
                    ? "🎁 Giveaway: \(stars) Stars for \(quantity) winner(s)"
                    : "🎁 Giveaway: \(quantity) Telegram Premium subscription(s) for \(months) month(s)")
            if let prize = giveaway["additional_prize"]?.string, !prize.isEmpty { lines.append("Also: \(prize)") }
            if let until = giveaway["until_date"]?.string { lines.append("Winners drawn on \(until)") }
            let countries = (giveaway["countries"]?.elements ?? []).compactMap(\.string)
            if !countries.isEmpty { lines.append("Countries: \(countries.joined(separator: ", "))") }
            if giveaway["is_only_new_subscribers"]?.bool == true { lines.append("New subscribers only") }
        } else if let results = node["giveaway_results"], results.members != nil {
            let winners = number(results["winners_count"]) ?? (results["winners"]?.elements?.count ?? 0)
            lines.append("🏆 Giveaway results: \(winners) winner(s)")
            if let unclaimed = number(results["unclaimed_count"]), unclaimed > 0 {
                lines.append("\(unclaimed) prize(s) unclaimed")
            }
            if let prize = results["additional_prize"]?.string, !prize.isEmpty { lines.append("Also: \(prize)") }
            if results["is_refunded"]?.bool == true { lines.append("Refunded") }
        } else if let invoice = invoiceNode(node["invoice_information"]) {
            lines.append("🧾 Invoice: " + (invoice["title"]?.string ?? ""))
            if let description = invoice["description"]?.string, !description.isEmpty { lines.append(description) }
            if let amount = number(invoice["amount"]) {
                lines.append(
                    "Amount: " + TelegramChatReader.money(minorUnits: amount, currency: invoice["currency"]?.string))
            }
            if invoice["receipt_message_id"] != nil { lines.append("Paid") }
        } else if let title = node["game_title"]?.string {
            lines.append("🎮 Game: \(title)")
            if let description = node["game_description"]?.string, !description.isEmpty { lines.append(description) }
            if let link = node["game_link"]?.string, !link.isEmpty { lines.append(link) }
        } else if let stars = number(node["paid_stars_amount"]) {
            lines.append("⭐ Paid media (\(stars) Stars): not included in this export")
        } else {
            return nil
        }
        if let caption { lines.append(caption) }
        return .text(lines.joined(separator: "\n"))
    }

    /// `invoice_information`: Telegram Desktop writes the object's JSON text as a string (its
    /// `push` quotes any byte string); other tools write the object itself.
    func invoiceNode(_ value: JSONNode?) -> JSONNode? {
        guard let value else { return nil }
        if value.members != nil { return value }
        guard let text = value.string, let parsed = try? JSONParser.parse(text, file: shownFile, firstLine: value.line),
            parsed.members != nil
        else { return nil }
        return parsed
    }

    /// A Telegram poll as the data of the shipped `poll` renderer: `{ question, options: [{ label, votes }] }`.
    /// Answers are strings (some tools) or `{ text, voters, chosen }` (Telegram Desktop); the
    /// question and answer texts are strings or arrays of text parts.
    static func pollData(_ poll: JSONNode) -> JSONValue {
        func plain(_ value: JSONNode?) -> String? {
            value.flatMap(TelegramText.pieces)?.map(\.text).joined()
        }
        var options: [JSONValue] = []
        for answer in poll["answers"]?.elements ?? [] {
            if let label = answer.string {
                options.append(.object([(key: "label", value: .string(label))]))
            } else if let label = plain(answer["text"]) {
                var members: [(key: String, value: JSONValue)] = [(key: "label", value: .string(label))]
                if case .number(let votes)? = answer["voters"]?.value {
                    members.append((key: "votes", value: .number(votes)))
                }
                options.append(.object(members))
            }
        }
        var data: [(key: String, value: JSONValue)] = [
            (key: "question", value: .string(plain(poll["question"]) ?? "")), (key: "options", value: .array(options)),
        ]
        if case .number(let total)? = poll["total_voters"]?.value {
            data.append((key: "totalVoters", value: .number(total)))
        }
        if let closed = poll["closed"]?.bool { data.append((key: "closed", value: .bool(closed))) }
        return .object(data)
    }

    /// Reactions with who reacted (`recent`), each reactor a participant. A custom emoji is shown
    /// by the emoji Telegram gives as its fallback where the chat's text has it, else as
    /// "custom emoji"; a paid reaction as ⭐ (Telegram Stars), as Telegram shows it.
    func reactions(
        _ node: JSONNode, index: TelegramChatIndex, assembler: inout ConversationAssembler,
        diagnostics: inout [Diagnostic]
    ) -> [Reaction] {
        var result: [Reaction] = []
        for reaction in node["reactions"]?.elements ?? [] {
            let emoji: String
            var customEmoji: CustomEmoji?
            switch reaction["type"]?.string {
            case "custom_emoji":
                let document = reaction["document_id"].flatMap(TelegramChatReader.idText)
                emoji = document.flatMap { index.customEmoji[$0] } ?? "custom emoji"
                customEmoji = customEmojiImage(reaction, name: emoji, diagnostics: &diagnostics)
            case "paid": emoji = "⭐"
            default:
                guard let text = reaction["emoji"]?.string, !text.isEmpty else {
                    let type = reaction["type"]?.string ?? "(none)"
                    diagnostics.append(
                        .warning(
                            .other("Telegram reaction of type '\(type)' has no emoji; shown as its type"),
                            at: reaction.location(in: shownFile)))
                    emoji = type
                    break
                }
                emoji = text
            }
            var senders: [String] = []
            for recent in reaction["recent"]?.elements ?? [] {
                let name = recent["from"]?.string
                guard
                    let id = recent["from_id"].flatMap(TelegramChatReader.idText)
                        ?? name.map(ConversationSlug.make(from:))
                else { continue }
                if !assembler.hasParticipant(id) {
                    assembler.addParticipant(Participant(id: id, name: name ?? "Deleted Account"))
                }
                senders.append(id)
            }
            // `recent` names only the last few; `count` is how many reacted, as Telegram shows it.
            let count = reaction["count"]?.number(in: 0...1e9).map { Int($0) }
            result.append(Reaction(emoji: emoji, senders: senders, count: count, customEmoji: customEmoji))
        }
        return result
    }

    /// The image of a custom-emoji reaction when the export holds one: a `file`, or a
    /// `document_id` that is a path (Telegram Desktop writes the file's path there when it saved
    /// the emoji, else only the number); resolved inside the export as any media. A bare number
    /// names no file: `nil`, and the reaction shows its fallback emoji.
    func customEmojiImage(_ reaction: JSONNode, name: String, diagnostics: inout [Diagnostic]) -> CustomEmoji? {
        let candidates = [reaction["file"]?.string, reaction["document_id"]?.string].compactMap { $0 }
        guard
            let path = candidates.first(where: { path in
                !path.isEmpty && !path.allSatisfy(\.isNumber)
                    && !TelegramChatReader.notIncludedPrefixes.contains(where: path.hasPrefix)
            })
        else { return nil }
        let image = context.media(
            localPath: path, relativeTo: file, at: reaction.location(in: shownFile), diagnostics: &diagnostics)
        return CustomEmoji(name: name, image: image)
    }
}
