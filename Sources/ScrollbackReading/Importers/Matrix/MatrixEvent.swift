import Foundation
import ScrollbackHTML
import ScrollbackMarkdown
import ScrollbackModel

/// One Matrix event of an Element export onto the model (`MatrixImporter`).
///
/// - `m.room.message`: by `msgtype`, text (`m.text`, `m.notice`; `m.emote` as "* Name text"),
///   `formatted_body` HTML through the libxml2 sanitizer (its images dropped: they are `mxc://`
///   URLs no page may load), media (`m.image`, `m.video`, `m.audio`, `m.file`; `MatrixMedia`)
///   or a place (`m.location`'s `geo:` URI); the newest edit's `m.new_content` replaces what is
///   shown. A reply's fallback (the quoted lines of `body`, `<mx-reply>` of the HTML) is
///   dropped: the reply shows its target itself.
/// - `m.sticker`: its image; `m.room.encrypted` (not decrypted when exported): a note in italics.
/// - State events (`state_key`): a system line, membership and the room's name and topic in
///   words, other state by its type.
/// - Calls (`m.call.invite`, `m.call.hangup`): system lines; polls: their question.
/// - Anything else: left out, its type the reason.
struct MatrixEvent {
    let event: MatrixRoom.Event
    let room: MatrixRoom
    /// User id → display name, as of this event.
    let names: [String: String]
    let location: SourceLocation
    private(set) var diagnostics: [Diagnostic] = []
    /// Why `message` gave none.
    private(set) var leftOutReason = ""

    init(event: MatrixRoom.Event, room: MatrixRoom, names: [String: String], location: SourceLocation) {
        self.event = event
        self.room = room
        self.names = names
        self.location = location
    }

    /// The name `user` goes by.
    func name(_ user: String) -> String { names[user] ?? (user.isEmpty ? "Someone" : user) }

    /// The event's message, or `nil` (with `leftOutReason`) for an event no message shows.
    mutating func message(milliseconds: Double) -> Message? {
        var id = event.id
        if id.isEmpty {
            id = "event-\(event.index + 1)"
            diagnostics.append(
                .warning(.other("the event has no event_id; it is kept as '\(id)', which may change"), at: location))
        }
        var sender = event.sender
        if sender.isEmpty {
            sender = "Unknown"
            diagnostics.append(
                .warning(.other("the event names no sender; it is kept as sent by 'Unknown'"), at: location))
        }
        var message = Message(
            id: id, sender: sender, date: Date(timeIntervalSince1970: milliseconds / 1000), kind: .text(""),
            source: ExportSource(
                format: "matrix", file: room.context.relativePath(room.file), path: "$.messages[\(event.index)]",
                id: event.id.isEmpty ? nil : event.id),
            location: location)
        message.reactions = room.reactions[event.id] ?? []
        if event.isRedacted || room.redacted.contains(event.id) {
            message.deleted = true
            return message
        }
        if event.isState {
            message.kind = .system(stateText())
            message.sender = nil
            return message
        }
        let original = event.content
        switch event.type {
        case "m.room.message":
            let relation = original?["m.relates_to"]
            if relation?["rel_type"]?.string == "m.thread", let root = relation?["event_id"]?.string, !root.isEmpty {
                message.thread = root
            }
            // In a thread, `m.in_reply_to` marked `is_falling_back` only serves clients without threads.
            if relation?["is_falling_back"]?.bool != true || message.thread == nil,
                let target = relation?["m.in_reply_to"]?["event_id"]?.string, !target.isEmpty
            {
                message.replyTo = target
            }
            var content = original
            if let edit = room.edits[event.id] {
                content = edit.content
                message.edited = Date(timeIntervalSince1970: edit.milliseconds / 1000)
            } else if relation?["rel_type"]?.string == "m.replace", let new = original?["m.new_content"],
                new.members != nil
            {
                // An edit of a message the export does not hold: its new text is all there is.
                content = new
                message.edited = message.date
            }
            message.kind = kind(content, milliseconds: milliseconds, isReply: message.replyTo != nil)
        case "m.sticker":
            let source = media(original, folder: "stickers", forcedExtension: ".png", milliseconds: milliseconds)
            message.kind = .photo(MediaItem(source: source, size: pixelSize(original), alt: "Sticker"))
        case "m.room.encrypted":
            message.kind = italic("Encrypted; it could not be decrypted when the room was exported")
        case "m.call.invite":
            message.kind = .system(name(event.sender) + " started a call")
            message.sender = nil
        case "m.call.hangup":
            message.kind = .system(name(event.sender) + " ended the call")
            message.sender = nil
        case "m.poll.start", "org.matrix.msc3381.poll.start":
            let question = (original?["body"] ?? original?["org.matrix.msc1767.text"])?.string ?? ""
            message.kind = question.isEmpty ? italic("A poll") : .text("📊 " + question)
        default:
            leftOutReason = "a Matrix event of type \(event.type), which Scrollback does not show"
            return nil
        }
        return message
    }

    /// A note in italics, so it does not read as something the sender wrote.
    mutating func italic(_ text: String) -> MessageKind {
        .attributedText(
            room.context.richText(
                markdown: "*" + ChatMarkup.escapeMarkdown(text) + "*", relativeTo: room.file, at: location,
                diagnostics: &diagnostics))
    }

    /// The kind of an `m.room.message` of `content`.
    mutating func kind(_ content: JSONNode?, milliseconds: Double, isReply: Bool) -> MessageKind {
        let body = content?["body"]?.string ?? ""
        let fileName = content?["filename"]?.string.flatMap { $0.isEmpty ? nil : $0 } ?? body
        // A `filename` apart from `body` makes `body` a caption.
        let caption = fileName != body && !body.isEmpty ? body : nil
        let info = content?["info"]
        switch content?["msgtype"]?.string ?? "" {
        case "m.emote": return text(content, isReply: isReply, prefix: "* " + name(event.sender))
        case "m.image":
            let source = media(content, folder: "images", milliseconds: milliseconds)
            return .photo(MediaItem(source: source, size: pixelSize(content), alt: fileName, caption: caption))
        case "m.video":
            let source = media(content, folder: "videos", milliseconds: milliseconds)
            return .video(
                MediaItem(
                    source: source, size: pixelSize(content), caption: caption, duration: seconds(info), title: fileName
                ))
        case "m.audio":
            let voice = content?["org.matrix.msc3245.voice"] != nil || content?["org.matrix.msc2516.voice"] != nil
            let source = media(
                content, folder: "audio", forcedExtension: voice ? ".ogg" : nil, milliseconds: milliseconds)
            return .audio(MediaItem(source: source, caption: caption, duration: seconds(info), title: fileName))
        case "m.file":
            let source = media(content, folder: "files", milliseconds: milliseconds)
            let size = info?["size"]?.number(in: 0...9e15).map { Int64($0) }
            return .file(
                FileItem(
                    source: source, name: fileName, size: size, mimeType: info?["mimetype"]?.string, caption: caption))
        case "m.location":
            if let place = Self.geo(content?["geo_uri"]?.string ?? "") {
                return .location(LocationItem(latitude: place.0, longitude: place.1, name: body.isEmpty ? nil : body))
            }
            return text(content, isReply: isReply, prefix: nil)
        default:
            guard !body.isEmpty || content?["formatted_body"]?.string?.isEmpty == false else {
                return italic("No content in this export")
            }
            return text(content, isReply: isReply, prefix: nil)
        }
    }

    /// Text: `formatted_body` sanitized when the format is Matrix's HTML, else `body`.
    mutating func text(_ content: JSONNode?, isReply: Bool, prefix: String?) -> MessageKind {
        var body = content?["body"]?.string ?? ""
        if isReply { body = Self.withoutReplyFallback(body) }
        let plain = prefix.map { $0 + " " + body } ?? body
        if content?["format"]?.string == "org.matrix.custom.html",
            var html = content?["formatted_body"]?.string, !html.isEmpty
        {
            html = Self.withoutReplyElement(html)
            if let prefix { html = "<em>" + HTMLSanitizer.escape(prefix) + "</em> " + html }
            if let exceeded = MarkdownLimits.exceededLimit(inHTML: html) {
                diagnostics.append(
                    .warning(
                        .other("the formatted_body exceeds a limit (\(exceeded)); its plain body is shown"),
                        at: location))
                return .text(plain)
            }
            // No image of a message's HTML is loaded: its `mxc://` source names another host.
            let result = room.context.reading.sanitizer.sanitize(html, imageURL: { _ in nil })
            if !result.html.isEmpty {
                return .attributedText(RichText(sanitizedHTML: result.html, plainText: result.plainText))
            }
        }
        return .text(plain)
    }

    /// `body` without the quoted lines a reply starts with (`> <@ana:x.org> hi`, then a blank line).
    static func withoutReplyFallback(_ body: String) -> String {
        guard body.hasPrefix(">") else { return body }
        var lines = body.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let first = lines.first, first.hasPrefix(">") { lines = lines.dropFirst() }
        if lines.first?.isEmpty == true { lines = lines.dropFirst() }
        return lines.joined(separator: "\n")
    }

    /// `html` without its `<mx-reply>…</mx-reply>` quote of the replied-to message, as the Matrix
    /// specification asks clients to drop it before showing the rest.
    static func withoutReplyElement(_ html: String) -> String {
        guard let start = html.range(of: "<mx-reply>", options: .caseInsensitive),
            let end = html.range(of: "</mx-reply>", options: .caseInsensitive, range: start.upperBound..<html.endIndex)
        else { return html }
        return String(html[..<start.lowerBound] + html[end.upperBound...])
    }

    /// Latitude and longitude of a `geo:` URI (`geo:51.5,-0.12;u=35`).
    static func geo(_ uri: String) -> (Double, Double)? {
        guard uri.lowercased().hasPrefix("geo:") else { return nil }
        let coordinates = uri.dropFirst(4).split(separator: ";").first ?? ""
        let parts = coordinates.split(separator: ",")
        guard parts.count >= 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
            (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        return (latitude, longitude)
    }

    /// `info.w` × `info.h`, when both are positive.
    func pixelSize(_ content: JSONNode?) -> PixelSize? {
        guard let width = content?["info"]?["w"]?.number(in: 1...1e6),
            let height = content?["info"]?["h"]?.number(in: 1...1e6)
        else { return nil }
        return PixelSize(width: Int(width), height: Int(height))
    }

    /// `info.duration` (milliseconds) in seconds.
    func seconds(_ info: JSONNode?) -> Double? {
        info?["duration"]?.number(in: 0...1e12).map { $0 / 1000 }
    }

    /// The media of `content`: the export's file (Element's zip), else a placeholder naming its
    /// `mxc://` URL, which is never loaded.
    mutating func media(
        _ content: JSONNode?, folder: String, forcedExtension: String? = nil, milliseconds: Double
    ) -> MediaSource {
        let body = content?["body"]?.string ?? ""
        let url = (content?["url"] ?? content?["file"]?["url"])?.string
        let found = room.media.find(
            folder: folder, body: body, forcedExtension: forcedExtension, milliseconds: milliseconds)
        if found.candidates > 1, found.path == nil {
            diagnostics.append(
                .warning(
                    .other(
                        "\(found.candidates) files in '\(folder)/' could be the one of '\(body)'; a placeholder is shown"
                    ), at: location))
        }
        return room.context.media(
            localPath: found.path, remoteURL: url, relativeTo: room.file, at: location, diagnostics: &diagnostics)
    }

    /// The system line of a state event.
    func stateText() -> String {
        let content = event.content
        let actor = name(event.sender)
        func field(_ key: String) -> String { content?[key]?.string ?? "" }
        switch event.type {
        case "m.room.create": return actor + " created the room"
        case "m.room.member": return memberText()
        case "m.room.name":
            return field("name").isEmpty
                ? actor + " removed the room name"
                : actor + " changed the room name to "
                    + field("name")
        case "m.room.topic":
            return field("topic").isEmpty
                ? actor + " removed the topic"
                : actor + " changed the topic to "
                    + field("topic")
        case "m.room.avatar": return actor + " changed the room avatar"
        case "m.room.encryption": return actor + " turned on end-to-end encryption"
        case "m.room.join_rules": return actor + " changed who can join the room (" + field("join_rule") + ")"
        case "m.room.history_visibility":
            return actor + " changed who can read the history (" + field("history_visibility") + ")"
        case "m.room.guest_access": return actor + " changed guest access (" + field("guest_access") + ")"
        case "m.room.power_levels": return actor + " changed the power levels"
        case "m.room.pinned_events": return actor + " changed the pinned messages"
        case "m.room.canonical_alias":
            return field("alias").isEmpty
                ? actor + " removed the main address"
                : actor
                    + " set the main address to " + field("alias")
        case "m.room.tombstone": return actor + " upgraded the room"
        default: return actor + " changed the room's state (" + event.type + ")"
        }
    }

    /// The system line of an `m.room.member` event.
    func memberText() -> String {
        let content = event.content
        let actor = name(event.sender)
        let user = event.node["state_key"]?.string ?? ""
        let previous = event.node["unsigned"]?["prev_content"]
        let newName = content?["displayname"]?.string ?? ""
        let oldName = previous?["displayname"]?.string ?? ""
        let target = !newName.isEmpty ? newName : !oldName.isEmpty ? oldName : name(user)
        let before = previous?["membership"]?.string
        let reason = content?["reason"]?.string.flatMap { $0.isEmpty ? nil : ": " + $0 } ?? ""
        switch content?["membership"]?.string ?? "" {
        case "join":
            guard before == "join" else { return target + " joined the room" }
            if newName != oldName {
                if newName.isEmpty { return oldName + " removed their display name" }
                return (oldName.isEmpty ? name(user) : oldName) + " changed their display name to " + newName
            }
            if content?["avatar_url"]?.string != previous?["avatar_url"]?.string {
                return target + " changed their profile picture"
            }
            return target + " updated their profile"
        case "invite": return actor + " invited " + target + reason
        case "leave":
            if user == event.sender {
                return before == "invite" ? target + " rejected the invitation" : target + " left the room" + reason
            }
            if before == "ban" { return actor + " unbanned " + target }
            if before == "invite" { return actor + " withdrew the invitation of " + target + reason }
            return actor + " removed " + target + reason
        case "ban": return actor + " banned " + target + reason
        case "knock": return target + " asked to join" + reason
        default: return target + "'s membership changed"
        }
    }
}
