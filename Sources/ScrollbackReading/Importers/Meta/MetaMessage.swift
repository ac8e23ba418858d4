import Foundation
import ScrollbackModel

/// One record of a Meta thread's `messages` (Messenger or Instagram, `MetaImporter`) onto the
/// model: its sender, date, id, reactions and kind.
///
/// - Media (`photos`, `gifs`, `videos`, `audio_files`, `files`, `sticker`, the E2EE download's
///   `media`): one is its photo, video, audio or file card, the text its caption; several are
///   shown in rich text, images inline and other files linked to their copy in the site; a file
///   the export does not hold is named with "(file not in this export)", with a warning. An E2EE
///   file's kind is read from its bytes (an image with a size is a photo).
/// - `share`: a link card (its `link`, titled by `share_text`); a share with no web link (a live
///   location) is its text.
/// - `is_unsent`/`isUnsent`: a deleted message (its reactions stay).
/// - `call_duration`/`type: Call`, `type: Subscribe`/`Unsubscribe` and `users`: system lines; so
///   is a text written in the third person about its own sender ("Ana named the group Trip.",
///   "Ana's poll …") with nothing else in the record: Meta's notices of renames, joins and polls
///   have no other mark, in any language the account uses.
/// - A record with nothing to show (a reaction-only stub) keeps its place and reactions, with a
///   text in italics saying the export holds no content for it.
enum MetaMessage {
    /// What reading a record needs to know of the file it is in.
    struct Place {
        let file: URL
        let shown: String
        let context: ImportContext
        /// The app key for `ExportSource.format` (`messenger`, `instagram`).
        let product: String
        /// The components of the file's folder, for `MetaText.localPath`.
        let folderComponents: [String]
    }

    /// The ids given so far: a second message of one millisecond gets `-2`, and so on.
    struct IDs {
        private var counts: [String: Int] = [:]

        /// The id of the next message stamped `base`.
        mutating func next(_ base: String) -> String {
            let count = counts[base, default: 0] + 1
            counts[base] = count
            return count == 1 ? base : base + "-\(count)"
        }
    }

    /// The record's time in milliseconds since 1970 (`timestamp_ms`, or the E2EE `timestamp`).
    static func timestamp(_ node: JSONNode) -> Double? {
        (node["timestamp_ms"] ?? node["timestamp"])?.number(in: -9e15...9e15)
    }

    /// Reads record `index` of `place`'s file into `assembler`: one message, or one record left out.
    static func read(
        _ node: JSONNode, index: Int, in place: Place, ids: inout IDs, into assembler: inout ConversationAssembler
    ) {
        let location = node.location(in: place.shown)
        guard node.members != nil else {
            assembler.report(
                .warning(
                    .other(
                        "entry \(index + 1) of 'messages' is a \(node.typeName), not a message; expected an object "
                            + "with sender_name and timestamp_ms; it is left out"), at: location))
            assembler.leaveOut(reason: "an entry of 'messages' that is not a message object", at: location)
            return
        }
        guard let milliseconds = timestamp(node) else {
            let stamp = node["timestamp_ms"] ?? node["timestamp"]
            assembler.report(
                .warning(
                    .invalidDate(
                        stamp.map { $0.string ?? $0.typeName } ?? "(none)",
                        expected: "timestamp_ms, milliseconds since 1970 as a number"),
                    at: stamp?.location(in: place.shown) ?? location))
            assembler.leaveOut(reason: "a message without a readable timestamp_ms", at: location)
            return
        }
        let stamp = String(Int64(milliseconds.rounded(.down)))
        var diagnostics: [Diagnostic] = []
        var sender = (node["sender_name"] ?? node["senderName"])?.string.map(MetaText.decoded) ?? ""
        if sender.isEmpty {
            sender = "Unknown"
            diagnostics.append(
                .warning(.other("the message names no sender_name; it is kept as sent by 'Unknown'"), at: location))
        }
        var message = Message(
            id: ids.next(stamp), sender: sender, date: Date(timeIntervalSince1970: milliseconds / 1000),
            kind: .text(""),
            source: ExportSource(
                format: place.product, file: place.context.relativePath(place.file), path: "$.messages[\(index)]",
                id: stamp),
            location: location)
        message.reactions = reactions(node)
        let body = Body(node: node, place: place, location: location)
        if let notice = body.systemText(sender: sender) {
            message.kind = .system(notice)
            message.sender = nil
        } else if body.isUnsent {
            message.deleted = true
        } else {
            message.kind = body.kind(diagnostics: &diagnostics)
        }
        for diagnostic in diagnostics { assembler.report(diagnostic) }
        assembler.append(message)
    }

    /// The reactions, one per emoji in the order first given, each `actor` a sender (decoded as
    /// names are, so a reactor is the participant of that name); a reaction naming no actor is
    /// counted, not invented.
    static func reactions(_ node: JSONNode) -> [Reaction] {
        var reactions: [Reaction] = []
        for item in node["reactions"]?.elements ?? [] {
            guard let emoji = item["reaction"]?.string.map(MetaText.decoded), !emoji.isEmpty else { continue }
            let actor = item["actor"]?.string.map(MetaText.decoded).flatMap { $0.isEmpty ? nil : $0 }
            if let index = reactions.firstIndex(where: { $0.emoji == emoji }) {
                if let actor { reactions[index].senders.append(actor) } else { reactions[index].unnamedCount += 1 }
            } else {
                reactions.append(
                    Reaction(emoji: emoji, senders: actor.map { [$0] } ?? [], count: actor == nil ? 1 : nil))
            }
        }
        return reactions
    }

    /// A media file a record names.
    struct Attachment {
        enum Role { case photo, video, audio, file, sticker, unknown }
        let role: Role
        let uri: String
    }

    /// The body of one record.
    struct Body {
        let node: JSONNode
        let place: Place
        let location: SourceLocation

        var content: String { (node["content"] ?? node["text"])?.string.map(MetaText.decoded) ?? "" }
        var type: String { node["type"]?.string ?? "" }
        var isUnsent: Bool { node["is_unsent"]?.bool == true || node["isUnsent"]?.bool == true }

        /// The files the record names, in the order Meta lists its kinds.
        var attachments: [Attachment] {
            var found: [Attachment] = []
            let lists: [(String, Attachment.Role)] = [
                ("photos", .photo), ("gifs", .photo), ("videos", .video), ("audio_files", .audio), ("files", .file),
                ("media", .unknown),
            ]
            for (key, role) in lists {
                for item in node[key]?.elements ?? [] {
                    if let uri = item["uri"]?.string { found.append(Attachment(role: role, uri: uri)) }
                }
            }
            if let uri = node["sticker"]?["uri"]?.string { found.append(Attachment(role: .sticker, uri: uri)) }
            return found
        }

        /// The text of a system line, when the record is a call, a change of members or a notice.
        func systemText(sender: String) -> String? {
            let content = self.content
            if type == "Call" || node["call_duration"] != nil {
                var text =
                    content.isEmpty ? sender + ": " + (node["missed"]?.bool == true ? "Missed call" : "Call") : content
                if let seconds = node["call_duration"]?.number(in: 1...1e9) {
                    text += " (" + MetaText.duration(Int(seconds)) + ")"
                }
                return text
            }
            let users = (node["users"]?.elements ?? []).compactMap { $0["name"]?.string.map(MetaText.decoded) }
            if type == "Subscribe" || type == "Unsubscribe" || node["users"] != nil {
                guard content.isEmpty else { return content }
                let names = users.isEmpty ? "a member" : users.joined(separator: ", ")
                return type == "Unsubscribe"
                    ? (users == [sender] ? sender + " left the group." : sender + " removed " + names + ".")
                    : sender + " added " + names + "."
            }
            // A third-person notice about its own sender, with nothing else in the record.
            guard !content.isEmpty, !isUnsent, node["share"] == nil, attachments.isEmpty, content.count <= 300,
                content.hasPrefix(sender), let next = content.dropFirst(sender.count).first,
                next == " " || next == "'" || next == "\u{2019}", content.hasSuffix(".")
            else { return nil }
            return content
        }

        /// The message's kind: media, a link card, or its text.
        func kind(diagnostics: inout [Diagnostic]) -> MessageKind {
            let content = self.content
            let attachments = self.attachments
            let share = node["share"]
            let link = share?["link"]?.string.flatMap(Self.webLink)
            let shareText = share?["share_text"]?.string.map(MetaText.decoded) ?? ""
            if attachments.isEmpty {
                if let link {
                    return .linkPreview(
                        text: content, link: LinkItem(url: link, title: shareText.isEmpty ? nil : shareText))
                }
                let text = [content, shareText].filter { !$0.isEmpty }.joined(separator: "\n")
                guard text.isEmpty else { return .text(text) }
                // In italics, so it does not read as something the sender wrote.
                return .attributedText(
                    place.context.richText(
                        markdown: "*No content in this export*", relativeTo: place.file, at: location,
                        diagnostics: &diagnostics))
            }
            let resolved = attachments.map { ($0, source($0, diagnostics: &diagnostics)) }
            if resolved.count == 1, link == nil {
                let single = kind(of: resolved[0].0, source: resolved[0].1)
                if content.isEmpty { return single }
                if let captioned = single.withCaption(content) { return captioned }
            }
            var markdown = ChatMarkup.escapeMarkdown(content)
            var linked: [LocalAsset] = []
            for (attachment, source) in resolved {
                let name = PathText.lastComponent(attachment.uri)
                let path = MetaText.localPath(attachment.uri, folderComponents: place.folderComponents)
                if !markdown.isEmpty { markdown += "\n\n" }
                switch source {
                case .local(let asset):
                    if asset.pixelSize != nil, !path.contains(where: { $0 == "<" || $0 == ">" || $0.isNewline }) {
                        markdown += "![" + ChatMarkup.escapeMarkdown(name) + "](<" + path + ">)"
                    } else {
                        markdown += "📎 [" + ChatMarkup.escapeMarkdown(name) + "](@root/" + asset.sitePath + ")"
                        linked.append(asset)
                    }
                default: markdown += "📎 " + ChatMarkup.escapeMarkdown(name) + " (file not in this export)"
                }
            }
            if let link { markdown += "\n\n<" + link + ">" }
            let rich = place.context.richText(
                markdown: markdown, relativeTo: place.file, at: location, linked: linked, diagnostics: &diagnostics)
            return .attributedText(rich)
        }

        /// The file of `attachment`: its copy inside the thread's folder, or a placeholder naming it.
        func source(_ attachment: Attachment, diagnostics: inout [Diagnostic]) -> MediaSource {
            place.context.media(
                localPath: MetaText.localPath(attachment.uri, folderComponents: place.folderComponents),
                relativeTo: place.file, at: location, diagnostics: &diagnostics)
        }

        /// The kind of a message that is only `attachment`. A sticker or E2EE file is a photo
        /// when its bytes are an image; an E2EE file is a video or audio by the type its bytes gave it.
        func kind(of attachment: Attachment, source: MediaSource) -> MessageKind {
            let name = PathText.lastComponent(attachment.uri)
            var role = attachment.role
            var size: PixelSize?
            if case .local(let asset) = source {
                size = asset.pixelSize
                if role == .unknown {
                    let type = PathText.pathExtension(asset.sitePath).lowercased()
                    role =
                        size != nil
                        ? .photo
                        : MarkdownKindInference.videoExtensions.contains(type)
                            ? .video : MarkdownKindInference.audioExtensions.contains(type) ? .audio : .file
                }
            } else if role == .unknown {
                role = .file
            }
            switch role {
            case .photo: return .photo(MediaItem(source: source, size: size, alt: name))
            case .sticker: return .photo(MediaItem(source: source, size: size, alt: "Sticker"))
            case .video: return .video(MediaItem(source: source, size: size, title: name))
            case .audio: return .audio(MediaItem(source: source, title: name))
            case .file, .unknown: return .file(FileItem(source: source, name: name))
            }
        }

        /// `url` when it is a web link a card may point to (http or https, no spaces).
        static func webLink(_ url: String) -> String? {
            let lower = url.lowercased()
            guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), !url.contains(where: \.isWhitespace) else {
                return nil
            }
            return url
        }
    }
}
