import Foundation
import ScrollbackModel

/// Writes a conversation of the model as a v1.1 JSON log (spec §1, §1.1): what
/// `scrollback import` produces, so that reading it back gives the same site.
///
/// Local media are named by `mediaPath(asset)` (the caller copies the files there); media that
/// is unavailable keeps its original text, which reads back as a missing file (placeholder).
/// Rich text is written as its sanitized `html`, which the sanitizer reads back unchanged.
/// Keys come in a fixed order and dates in UTC with microseconds, so output is deterministic.
public struct JSONLogWriter {
    /// The path a log should use for a local asset, relative to the log file.
    public var mediaPath: (LocalAsset) -> String

    /// Creates a writer.
    public init(mediaPath: @escaping (LocalAsset) -> String) {
        self.mediaPath = mediaPath
    }

    /// The log's text.
    public func write(_ conversation: Conversation) -> String {
        var out = "{\n  \"version\": 1,\n  \"id\": " + JSONText.quoted(conversation.id)
        if let title = conversation.title { out += ",\n  \"title\": " + JSONText.quoted(title) }
        if let description = conversation.description { out += ",\n  \"description\": " + JSONText.quoted(description) }
        if let section = conversation.section { out += ",\n  \"section\": " + JSONText.quoted(section) }
        if let chatType = conversation.chatType { out += ",\n  \"chatType\": " + JSONText.quoted(chatType.rawValue) }
        // `me` names a participant in a log (spec §1); an exporter who never wrote in this chat
        // (a group the account owner only read) is no one here, as the direct build shows it.
        if let me = conversation.me, conversation.participants.contains(where: { $0.id == me || $0.name == me }) {
            out += ",\n  \"me\": " + JSONText.quoted(me)
        }
        if let zone = conversation.timeZone { out += ",\n  \"timezone\": " + JSONText.quoted(zone) }
        // An importer's AI conversation (ChatGPT) keeps its document layout through `import`.
        if let presentation = conversation.layout.presentation {
            out += ",\n  \"layout\": {\"presentation\": " + JSONText.quoted(presentation.rawValue) + "}"
        }
        out += ",\n  \"participants\": ["
        for (index, participant) in conversation.participants.enumerated() {
            out += index == 0 ? "\n    " : ",\n    "
            var fields = [
                "\"id\": " + JSONText.quoted(participant.id), "\"name\": " + JSONText.quoted(participant.name),
            ]
            if let avatar = participant.avatar { fields.append("\"avatar\": " + JSONText.quoted(reference(avatar))) }
            if let color = participant.color { fields.append("\"color\": " + JSONText.quoted(color)) }
            out += "{" + fields.joined(separator: ", ") + "}"
        }
        out += "\n  ],\n  \"messages\": ["
        for (index, message) in conversation.messages.enumerated() {
            out += index == 0 ? "\n    " : ",\n    "
            out += write(message)
        }
        return out + "\n  ]\n}\n"
    }

    func write(_ message: Message) -> String {
        var fields: [String] = ["\"id\": " + JSONText.quoted(message.id)]
        if let sender = message.sender { fields.append("\"sender\": " + JSONText.quoted(sender)) }
        fields.append("\"date\": " + JSONText.quoted(Self.iso(message.date)))
        fields.append("\"kind\": " + JSONText.quoted(message.kind.name.rawValue))
        fields += payload(message.kind)
        if let replyTo = message.replyTo { fields.append("\"replyTo\": " + JSONText.quoted(replyTo)) }
        if !message.reactions.isEmpty {
            let reactions = message.reactions.map { reaction in
                "{\"emoji\": " + JSONText.quoted(reaction.emoji) + customEmoji(reaction.customEmoji)
                    + ", \"senders\": ["
                    + reaction.senders.map(JSONText.quoted).joined(separator: ", ") + "]"
                    + (reaction.unnamedCount > 0 ? ", \"count\": \(reaction.count)}" : "}")
            }
            fields.append("\"reactions\": [" + reactions.joined(separator: ", ") + "]")
        }
        if let edited = message.edited { fields.append("\"edited\": " + JSONText.quoted(Self.iso(edited))) }
        if let status = message.status { fields.append("\"status\": " + JSONText.quoted(status.rawValue)) }
        if let thread = message.thread { fields.append("\"thread\": " + JSONText.quoted(thread)) }
        if message.broadcast { fields.append("\"broadcast\": true") }
        if let forwardedFrom = message.forwardedFrom {
            fields.append("\"forwardedFrom\": " + JSONText.quoted(forwardedFrom))
        }
        if message.deleted { fields.append("\"deleted\": true") }
        if message.pinned { fields.append("\"pinned\": true") }
        if let source = message.source {
            var parts = ["\"format\": " + JSONText.quoted(source.format), "\"file\": " + JSONText.quoted(source.file)]
            if let line = source.line { parts.append("\"line\": \(line)") }
            if let path = source.path { parts.append("\"path\": " + JSONText.quoted(path)) }
            if let id = source.id { parts.append("\"id\": " + JSONText.quoted(id)) }
            fields.append("\"source\": {" + parts.joined(separator: ", ") + "}")
        }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    func payload(_ kind: MessageKind) -> [String] {
        switch kind {
        case .text(let text), .emoji(let text), .system(let text): return ["\"text\": " + JSONText.quoted(text)]
        case .attributedText(let rich):
            if let markdown = rich.markdownSource, rich.assets.isEmpty {
                return ["\"markdown\": " + JSONText.quoted(markdown)]
            }
            // The Markdown names the export's files where the log has none: the HTML with each
            // copied file at its place beside the log reads back to the same page.
            var html = rich.html
            for asset in rich.assets {
                html = html.replacingOccurrences(
                    of: "=\"@root/" + asset.sitePath + "\"", with: "=\"" + mediaPath(asset) + "\"")
            }
            return ["\"html\": " + JSONText.quoted(html)]
        case .photo(let media), .video(let media), .audio(let media):
            var parts = ["\"url\": " + JSONText.quoted(reference(media.source))]
            if let size = media.size { parts += ["\"width\": \(size.width)", "\"height\": \(size.height)"] }
            if let alt = media.alt { parts.append("\"alt\": " + JSONText.quoted(alt)) }
            if let caption = media.caption { parts.append("\"caption\": " + JSONText.quoted(caption)) }
            if let poster = media.poster { parts.append("\"poster\": " + JSONText.quoted(reference(poster))) }
            if let duration = media.duration { parts.append("\"duration\": \(Self.number(duration))") }
            if let title = media.title { parts.append("\"title\": " + JSONText.quoted(title)) }
            return ["\"media\": {" + parts.joined(separator: ", ") + "}"]
        case .file(let file):
            var parts = ["\"url\": " + JSONText.quoted(reference(file.source))]
            if let name = file.name { parts.append("\"name\": " + JSONText.quoted(name)) }
            if let size = file.size { parts.append("\"size\": \(size)") }
            if let mimeType = file.mimeType { parts.append("\"mimeType\": " + JSONText.quoted(mimeType)) }
            if let caption = file.caption { parts.append("\"caption\": " + JSONText.quoted(caption)) }
            return ["\"media\": {" + parts.joined(separator: ", ") + "}"]
        case .location(let location):
            var parts = [
                "\"latitude\": \(Self.number(location.latitude))", "\"longitude\": \(Self.number(location.longitude))",
            ]
            if let name = location.name { parts.append("\"name\": " + JSONText.quoted(name)) }
            if let address = location.address { parts.append("\"address\": " + JSONText.quoted(address)) }
            return ["\"location\": {" + parts.joined(separator: ", ") + "}"]
        case .contact(let contact):
            return [
                "\"contact\": {\"name\": " + JSONText.quoted(contact.name) + ", \"phones\": ["
                    + contact.phones.map(JSONText.quoted).joined(separator: ", ") + "], \"emails\": ["
                    + contact.emails.map(JSONText.quoted).joined(separator: ", ") + "]}"
            ]
        case .linkPreview(let text, let link):
            var parts = ["\"url\": " + JSONText.quoted(link.url)]
            if let title = link.title { parts.append("\"title\": " + JSONText.quoted(title)) }
            if let teaser = link.teaser { parts.append("\"teaser\": " + JSONText.quoted(teaser)) }
            if let thumbnail = link.thumbnail {
                parts.append("\"thumbnail\": " + JSONText.quoted(reference(thumbnail)))
            }
            if let siteName = link.siteName { parts.append("\"siteName\": " + JSONText.quoted(siteName)) }
            return ["\"text\": " + JSONText.quoted(text), "\"link\": {" + parts.joined(separator: ", ") + "}"]
        case .custom(let custom):
            return [
                "\"custom\": {\"id\": " + JSONText.quoted(custom.id) + ", \"data\": " + Self.json(custom.data) + "}"
            ]
        }
    }

    /// A reaction's `customEmoji` member (with its leading comma), or nothing for a Unicode emoji.
    func customEmoji(_ emoji: CustomEmoji?) -> String {
        guard let emoji else { return "" }
        return ", \"customEmoji\": {\"name\": " + JSONText.quoted(emoji.name) + ", \"url\": "
            + JSONText.quoted(reference(emoji.image)) + (emoji.isAnimated ? ", \"animated\": true}" : "}")
    }

    func reference(_ source: MediaSource) -> String {
        switch source {
        case .local(let asset): return mediaPath(asset)
        case .remote(let url): return url
        case .unavailable(let original): return original
        }
    }

    static func json(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let text): return text
        case .string(let text): return JSONText.quoted(text)
        case .array(let values): return "[" + values.map(json).joined(separator: ", ") + "]"
        case .object(let members):
            return "{" + members.map { JSONText.quoted($0.key) + ": " + json($0.value) }.joined(separator: ", ") + "}"
        }
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// `2024-05-03T09:41:00.123456Z`: UTC with microseconds, as the reader parses it.
    static func iso(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = Int64(interval.rounded(.down))
        var micros = Int64(((interval - Double(seconds)) * 1_000_000).rounded())
        if micros >= 1_000_000 {
            seconds += 1
            micros -= 1_000_000
        }
        let days = Int(seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400)
        let secondOfDay = Int(seconds - Int64(days) * 86400)
        let (year, month, day) = CivilCalendar.civilDate(daysSince1970: Int64(days))
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(secondOfDay / 3600, 2) + ":"
        text += pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if micros > 0 { text += "." + pad(Int(micros), 6) }
        return text + "Z"
    }
}
