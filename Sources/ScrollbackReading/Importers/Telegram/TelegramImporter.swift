import Foundation
import ScrollbackModel

/// Telegram Desktop's JSON export (spec §6): `result.json` of one chat (`name`, `type`, `id`,
/// `messages`) or of a whole account (`chats.list`, `left_chats.list`); one conversation per chat.
///
/// Choices where Telegram's format leaves room:
/// - Dates: `date` (local wall-clock time, read in the site's time zone) is preferred over
///   `date_unixtime`, which some exports fake (`"0000000000"`); the latter is used only when
///   `date` is absent or does not parse, and only when it is not zero.
/// - `me`: a whole-account export names its owner (`personal_information.user_id`); a one-chat
///   export does not, so nobody aligns right.
/// - Conversation id: the chat's name as a slug; the chat's numeric id is added when the name
///   is empty or another chat of the same export has the same name.
public enum TelegramImporter: ExportImporter {
    public static let format = ExportFormat.telegram
    public static let shape = ExportShape.file

    /// One chat (`messages` with `type` and `id`, and no `participants` of a native log), or a
    /// whole account (`chats` with `personal_information` or `about`).
    public static func detect(_ candidate: ExportCandidate) -> Bool {
        guard !candidate.isDirectory else { return false }
        let keys = candidate.topLevelJSONKeys
        if keys.contains("chats"), keys.contains("personal_information") || keys.contains("about") { return true }
        guard keys.contains("messages"), !keys.contains("participants"), !keys.contains("guild") else { return false }
        if keys.contains("type") && keys.contains("id") { return true }
        // Keys written in another order (a tool re-saved it): Telegram's own message fields.
        let head = candidate.head
        return ["\"date_unixtime\"", "\"text_entities\""].contains { marker in
            head.firstRange(of: Array(marker.utf8)) != nil
        }
    }

    public static func read(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic] {
        var exportDiagnostics: [Diagnostic] = []
        for file in export.items {
            let shown = context.displayPath(file)
            guard let root = context.parseJSON(file, shown: shown, report: { exportDiagnostics.append($0) }) else {
                continue
            }
            var chats: [(node: JSONNode, path: String)] = []
            if let list = root["chats"]?["list"]?.elements {
                chats += list.enumerated().map { ($0.element, "$.chats.list[\($0.offset)]") }
                if let left = root["left_chats"]?["list"]?.elements {
                    chats += left.enumerated().map { ($0.element, "$.left_chats.list[\($0.offset)]") }
                }
            } else if root["messages"] != nil {
                chats.append((root, "$"))
            } else {
                exportDiagnostics.append(
                    .error(
                        .missingField("messages"), at: root.location(in: shown)))
                continue
            }
            var me: String?
            if let owner = root["personal_information"]?["user_id"], let id = TelegramChatReader.idText(owner) {
                me = "user" + id
            }
            var nameCounts: [String: Int] = [:]
            for chat in chats {
                nameCounts[ConversationSlug.make(from: chat.node["name"]?.string ?? ""), default: 0] += 1
            }
            for chat in chats {
                let reader = TelegramChatReader(
                    context: context, file: file, shownFile: shown, chat: chat.node, path: chat.path, me: me,
                    sharesName: nameCounts[ConversationSlug.make(from: chat.node["name"]?.string ?? ""), default: 0] > 1
                        || chats.count > 1 && (chat.node["name"]?.string ?? "").isEmpty)
                emit(reader.read())
            }
        }
        return exportDiagnostics
    }
}

/// Reads one chat of a Telegram export into a conversation.
struct TelegramChatReader {
    let context: ImportContext
    /// The export file and how diagnostics name it.
    let file: URL
    let shownFile: String
    /// The chat object and its JSON path (`$` or `$.chats.list[3]`).
    let chat: JSONNode
    let path: String
    /// The account owner's participant id (whole-account exports).
    let me: String?
    /// Whether another chat of the export has the same name (the chat id is then added to the slug).
    let sharesName: Bool

    /// The text Telegram writes in place of a path when it did not export a file.
    static let notIncludedPrefixes = ["(File not included", "(File exceeds maximum size"]

    /// The index section of a chat type, as Telegram's chat folders name them.
    static func section(ofChatType type: String) -> String? {
        switch type {
        case "personal_chat", "bot_chat", "saved_messages": "Personal chats"
        case "private_group", "private_supergroup", "public_supergroup": "Groups"
        case "public_channel", "private_channel": "Channels"
        default: nil
        }
    }

    func read() -> ImportedConversation {
        let name = chat["name"]?.string ?? ""
        let chatID = chat["id"].flatMap(TelegramChatReader.idText) ?? ""
        let slugSource = name.isEmpty || sharesName ? "\(name) \(chatID)" : name
        var assembler = ConversationAssembler(
            format: .telegram, id: slugSource.trimmingCharacters(in: .whitespaces).isEmpty ? "telegram" : slugSource,
            title: name.isEmpty ? nil : name,
            key: path == "$" ? shownFile : "\(shownFile)#\(chatID.isEmpty ? path : chatID)", sourceFiles: [shownFile],
            location: chat.location(in: shownFile))
        assembler.me = me
        assembler.timeZone = nil
        assembler.section = chat["type"]?.string.flatMap(Self.section(ofChatType:))
        guard let messages = chat["messages"]?.elements else {
            assembler.report(
                .error(
                    .wrongType(field: "\(path).messages", expected: "an array of messages"),
                    at: (chat["messages"] ?? chat).location(in: shownFile)))
            return assembler.finish()
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: context.config.layout.timeZone) ?? TimeZone(identifier: "UTC")!

        // Pins are service messages naming their target: known before the targets are read.
        var pinnedIDs = Set<String>()
        for message in messages where message["action"]?.string == "pin_message" {
            if let target = message["message_id"].flatMap(TelegramChatReader.idText) { pinnedIDs.insert(target) }
        }
        var knownIDs = Set<String>()
        for message in messages {
            if let id = message["id"].flatMap(TelegramChatReader.idText) { knownIDs.insert(id) }
        }
        var notIncluded: (count: Int, first: SourceLocation)?
        for (index, node) in messages.enumerated() {
            let messagePath = "\(path == "$" ? "$" : path).messages[\(index)]"
            let location = node.location(in: shownFile)
            var diagnostics: [Diagnostic] = []
            guard node.members != nil else {
                assembler.report(.error(.wrongType(field: messagePath, expected: "a message object"), at: location))
                continue
            }
            let sourceID = node["id"].flatMap(TelegramChatReader.idText)
            if sourceID == nil {
                diagnostics.append(.warning(.missingField("\(messagePath).id"), at: location))
            }
            guard
                let date = date(
                    node, field: "date", calendar: calendar, at: location, path: messagePath, diagnostics: &diagnostics)
            else {
                diagnostics.forEach { assembler.report($0) }
                continue
            }
            let source = ExportSource(
                format: "telegram", file: context.relativePath(file), line: node.line, path: messagePath, id: sourceID)
            var message = Message(
                id: sourceID ?? "message-\(index + 1)", sender: nil, date: date, kind: .text(""), source: source,
                location: location)
            if node["type"]?.string == "service" {
                message.kind = .system(serviceText(node, diagnostics: &diagnostics, at: location))
            } else {
                let senderName = node["from"]?.string
                let senderID =
                    node["from_id"].flatMap(TelegramChatReader.idText) ?? senderName.map(ConversationSlug.make(from:))
                    ?? "deleted-account"
                if !assembler.hasParticipant(senderID) {
                    assembler.addParticipant(Participant(id: senderID, name: senderName ?? "Deleted Account"))
                }
                message.sender = senderID
                message.kind = kind(node, at: location, diagnostics: &diagnostics, notIncluded: &notIncluded)
                if let edited = node["edited"], edited.string != nil {
                    message.edited = self.date(
                        node, field: "edited", calendar: calendar, at: location, path: messagePath,
                        diagnostics: &diagnostics)
                }
                message.forwardedFrom = node["forwarded_from"]?.string ?? node["saved_from"]?.string
                if let target = node["reply_to_message_id"].flatMap(TelegramChatReader.idText) {
                    message.replyTo = target
                    if !knownIDs.contains(target) {
                        diagnostics.append(
                            .warning(
                                .other("reply to message \(target), which is not in this export; the reply is kept"),
                                at: location))
                    }
                }
                message.reactions = reactions(node, assembler: &assembler)
            }
            if let sourceID, pinnedIDs.contains(sourceID) {
                message.pinned = true
                pinnedIDs.remove(sourceID)  // the first message with that id is the pinned one
            }
            diagnostics.forEach { assembler.report($0) }
            assembler.append(message)
        }
        if let notIncluded {
            assembler.report(
                .warning(
                    .other(
                        "\(notIncluded.count) media file(s) were not included in the export (Telegram's export settings); placeholders name each one"
                    ), at: notIncluded.first))
        }
        return assembler.finish()
    }

    // MARK: - Fields

    /// An id written as a number or a string.
    static func idText(_ node: JSONNode) -> String? {
        switch node.value {
        case .number(let text): return text
        case .string(let text): return text.isEmpty ? nil : text
        default: return nil
        }
    }

    /// `field` (`date`, `edited`) as local wall-clock time, else `<field>_unixtime` unless it is zero.
    func date(
        _ node: JSONNode, field: String, calendar: Calendar, at location: SourceLocation, path: String,
        diagnostics: inout [Diagnostic]
    ) -> Date? {
        if let text = node[field]?.string, let date = TelegramChatReader.localDate(text, calendar: calendar) {
            return date
        }
        if let unix = node[field + "_unixtime"], let seconds = Double(TelegramChatReader.idText(unix) ?? ""),
            seconds > 0
        {
            return Date(timeIntervalSince1970: seconds)
        }
        diagnostics.append(
            .error(
                .invalidDate(
                    node[field]?.string ?? "(none)",
                    expected: "'\(field)' as YYYY-MM-DDTHH:MM:SS or a non-zero '\(field)_unixtime' at \(path)"),
                at: (node[field] ?? node).location(in: shownFile)))
        return nil
    }

    /// `2022-03-21T11:11:11` in `calendar`'s zone.
    static func localDate(_ text: String, calendar: Calendar) -> Date? {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == "T" || $0 == ":" || $0 == " " })
        guard parts.count == 6 else { return nil }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == 6 else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (numbers[0], numbers[1], numbers[2])
        (components.hour, components.minute, components.second) = (numbers[3], numbers[4], numbers[5])
        guard components.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: components)
    }

    /// A service action as one sentence (`Joseph created the group “Sample”`).
    func serviceText(_ node: JSONNode, diagnostics: inout [Diagnostic], at location: SourceLocation) -> String {
        let actor = node["actor"]?.string ?? "Someone"
        let action = node["action"]?.string ?? ""
        let title = node["title"]?.string
        let members = (node["members"]?.elements ?? []).compactMap { $0.string ?? "Deleted Account" }
        let memberList = members.isEmpty ? "someone" : members.joined(separator: ", ")
        switch action {
        case "create_group", "create_channel":
            return "\(actor) created the \(action == "create_channel" ? "channel" : "group")"
                + (title.map { " “\($0)”" } ?? "")
        case "invite_members": return "\(actor) added \(memberList)"
        case "remove_members": return "\(actor) removed \(memberList)"
        case "join_group_by_link": return "\(actor) joined the group via invite link"
        case "join_group_by_request": return "\(actor) joined the group"
        case "pin_message": return "\(actor) pinned a message"
        case "edit_group_title": return "\(actor) changed the group name to “\(title ?? "")”"
        case "edit_group_photo": return "\(actor) changed the group photo"
        case "delete_group_photo": return "\(actor) removed the group photo"
        case "migrate_to_supergroup": return "\(actor) converted this group to a supergroup"
        case "migrate_from_group": return "\(actor) converted the group “\(title ?? "")” to this supergroup"
        case "clear_history": return "History was cleared"
        case "phone_call", "group_call":
            var text = "\(actor) \(action == "group_call" ? "started a group call" : "called")"
            if let seconds = node["duration_seconds"]?.number(in: 0...1e9) { text += " (\(Int(seconds)) s)" }
            if let reason = node["discard_reason"]?.string, reason != "hangup" { text += " — \(reason)" }
            return text
        case "topic_created": return "\(actor) created the topic “\(title ?? "")”"
        case "set_messages_ttl": return "\(actor) changed the auto-delete timer"
        case "score_in_game":
            return "\(actor) scored \(node["score"]?.number(in: -9e15...9e15).map { String(Int($0)) } ?? "") in a game"
        default:
            diagnostics.append(
                .warning(.other("Telegram service action '\(action)' is shown as its name"), at: location))
            let readable = action.replacingOccurrences(of: "_", with: " ")
            return "\(actor): \(readable.isEmpty ? "service message" : readable)"
                + (title.map { " “\($0)”" } ?? "")
        }
    }

    /// Telegram's media keys other than `photo` and `file` (older exports and some tools write
    /// `sticker`, `voice_message` … as their own keys), by the `media_type` they mean.
    static let mediaKeys = ["sticker", "voice_message", "video_message", "video_file", "audio_file", "animation"]

    /// The message's kind: media with the text as caption, a poll, a place, a contact, or the text.
    func kind(
        _ node: JSONNode, at location: SourceLocation, diagnostics: inout [Diagnostic],
        notIncluded: inout (count: Int, first: SourceLocation)?
    ) -> MessageKind {
        var pieces = node["text"].flatMap(TelegramText.pieces) ?? []
        if pieces.isEmpty, let entities = node["text_entities"].flatMap(TelegramText.pieces) { pieces = entities }
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
                notIncluded = notIncluded.map { ($0.count + 1, $0.first) } ?? (1, location)
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
                var media = source(mediaKey, describing: "sticker")
                if case .local(let asset) = media, asset.sourcePath.hasSuffix(".tgs"), node["thumbnail"]?.string != nil
                {
                    media = source("thumbnail", describing: "sticker")  // animated stickers: the still
                }
                if case .local(let asset) = media, asset.sourcePath.hasSuffix(".webm") {
                    return .video(MediaItem(source: media, size: size, alt: node["sticker_emoji"]?.string))
                }
                return .photo(
                    MediaItem(
                        source: media, size: size,
                        alt: node["sticker_emoji"].flatMap(\.string).map { "Sticker \($0)" } ?? "Sticker",
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
        let unsupported = [
            "dice", "game_title", "invoice_information", "giveaway_information", "todo_list", "paid_media",
        ]
        if let key = unsupported.first(where: { node[$0] != nil }) {
            diagnostics.append(
                .warning(.other("Telegram '\(key)' messages are not supported; shown as text"), at: location))
            let label = "[\(key.replacingOccurrences(of: "_", with: " "))]"
            return .text(text.isEmpty ? label : "\(label) \(text)")
        }
        return TelegramText.kind(pieces, sanitizer: context.reading.sanitizer)
    }

    /// A Telegram poll as the data of the shipped `poll` renderer: `{ question, options: [{ label, votes }] }`.
    /// Answers are strings (some tools) or `{ text, voters, chosen }` (Telegram Desktop).
    static func pollData(_ poll: JSONNode) -> JSONValue {
        var options: [JSONValue] = []
        for answer in poll["answers"]?.elements ?? [] {
            if let label = answer.string {
                options.append(.object([(key: "label", value: .string(label))]))
            } else if let label = answer["text"]?.string {
                var members: [(key: String, value: JSONValue)] = [(key: "label", value: .string(label))]
                if case .number(let votes)? = answer["voters"]?.value {
                    members.append((key: "votes", value: .number(votes)))
                }
                options.append(.object(members))
            }
        }
        var data: [(key: String, value: JSONValue)] = [
            (key: "question", value: .string(poll["question"]?.string ?? "")), (key: "options", value: .array(options)),
        ]
        if case .number(let total)? = poll["total_voters"]?.value {
            data.append((key: "totalVoters", value: .number(total)))
        }
        if let closed = poll["closed"]?.bool { data.append((key: "closed", value: .bool(closed))) }
        return .object(data)
    }

    /// Reactions with who reacted (`recent`), each reactor a participant.
    func reactions(_ node: JSONNode, assembler: inout ConversationAssembler) -> [Reaction] {
        var result: [Reaction] = []
        for reaction in node["reactions"]?.elements ?? [] {
            guard let emoji = reaction["emoji"]?.string ?? reaction["document_id"].map({ _ in "⭐" }) else { continue }
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
            result.append(Reaction(emoji: emoji, senders: senders, count: count))
        }
        return result
    }
}
