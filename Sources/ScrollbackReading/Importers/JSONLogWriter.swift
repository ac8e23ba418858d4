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
        var out = "{\n  \"version\": 1,\n  \"id\": " + Self.quote(conversation.id)
        if let title = conversation.title { out += ",\n  \"title\": " + Self.quote(title) }
        if let description = conversation.description { out += ",\n  \"description\": " + Self.quote(description) }
        if let section = conversation.section { out += ",\n  \"section\": " + Self.quote(section) }
        if let me = conversation.me { out += ",\n  \"me\": " + Self.quote(me) }
        if let zone = conversation.timeZone { out += ",\n  \"timezone\": " + Self.quote(zone) }
        out += ",\n  \"participants\": ["
        for (index, participant) in conversation.participants.enumerated() {
            out += index == 0 ? "\n    " : ",\n    "
            var fields = ["\"id\": " + Self.quote(participant.id), "\"name\": " + Self.quote(participant.name)]
            if let avatar = participant.avatar { fields.append("\"avatar\": " + Self.quote(reference(avatar))) }
            if let color = participant.color { fields.append("\"color\": " + Self.quote(color)) }
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
        var fields: [String] = ["\"id\": " + Self.quote(message.id)]
        if let sender = message.sender { fields.append("\"sender\": " + Self.quote(sender)) }
        fields.append("\"date\": " + Self.quote(Self.iso(message.date)))
        fields.append("\"kind\": " + Self.quote(message.kind.name.rawValue))
        fields += payload(message.kind)
        if let replyTo = message.replyTo { fields.append("\"replyTo\": " + Self.quote(replyTo)) }
        if !message.reactions.isEmpty {
            let reactions = message.reactions.map { reaction in
                "{\"emoji\": " + Self.quote(reaction.emoji) + ", \"senders\": ["
                    + reaction.senders.map(Self.quote).joined(separator: ", ") + "]}"
            }
            fields.append("\"reactions\": [" + reactions.joined(separator: ", ") + "]")
        }
        if let edited = message.edited { fields.append("\"edited\": " + Self.quote(Self.iso(edited))) }
        if let status = message.status { fields.append("\"status\": " + Self.quote(status.rawValue)) }
        if let thread = message.thread { fields.append("\"thread\": " + Self.quote(thread)) }
        if message.broadcast { fields.append("\"broadcast\": true") }
        if let forwardedFrom = message.forwardedFrom {
            fields.append("\"forwardedFrom\": " + Self.quote(forwardedFrom))
        }
        if message.deleted { fields.append("\"deleted\": true") }
        if message.pinned { fields.append("\"pinned\": true") }
        if let source = message.source {
            var parts = ["\"format\": " + Self.quote(source.format), "\"file\": " + Self.quote(source.file)]
            if let line = source.line { parts.append("\"line\": \(line)") }
            if let path = source.path { parts.append("\"path\": " + Self.quote(path)) }
            if let id = source.id { parts.append("\"id\": " + Self.quote(id)) }
            fields.append("\"source\": {" + parts.joined(separator: ", ") + "}")
        }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    func payload(_ kind: MessageKind) -> [String] {
        switch kind {
        case .text(let text), .emoji(let text), .system(let text): return ["\"text\": " + Self.quote(text)]
        case .attributedText(let rich):
            if let markdown = rich.markdownSource { return ["\"markdown\": " + Self.quote(markdown)] }
            return ["\"html\": " + Self.quote(rich.html)]
        case .photo(let media), .video(let media), .audio(let media):
            var parts = ["\"url\": " + Self.quote(reference(media.source))]
            if let size = media.size { parts += ["\"width\": \(size.width)", "\"height\": \(size.height)"] }
            if let alt = media.alt { parts.append("\"alt\": " + Self.quote(alt)) }
            if let caption = media.caption { parts.append("\"caption\": " + Self.quote(caption)) }
            if let poster = media.poster { parts.append("\"poster\": " + Self.quote(reference(poster))) }
            if let duration = media.duration { parts.append("\"duration\": \(Self.number(duration))") }
            if let title = media.title { parts.append("\"title\": " + Self.quote(title)) }
            return ["\"media\": {" + parts.joined(separator: ", ") + "}"]
        case .file(let file):
            var parts = ["\"url\": " + Self.quote(reference(file.source))]
            if let name = file.name { parts.append("\"name\": " + Self.quote(name)) }
            if let size = file.size { parts.append("\"size\": \(size)") }
            if let mimeType = file.mimeType { parts.append("\"mimeType\": " + Self.quote(mimeType)) }
            if let caption = file.caption { parts.append("\"caption\": " + Self.quote(caption)) }
            return ["\"media\": {" + parts.joined(separator: ", ") + "}"]
        case .location(let location):
            var parts = [
                "\"latitude\": \(Self.number(location.latitude))", "\"longitude\": \(Self.number(location.longitude))",
            ]
            if let name = location.name { parts.append("\"name\": " + Self.quote(name)) }
            if let address = location.address { parts.append("\"address\": " + Self.quote(address)) }
            return ["\"location\": {" + parts.joined(separator: ", ") + "}"]
        case .contact(let contact):
            return [
                "\"contact\": {\"name\": " + Self.quote(contact.name) + ", \"phones\": ["
                    + contact.phones.map(Self.quote).joined(separator: ", ") + "], \"emails\": ["
                    + contact.emails.map(Self.quote).joined(separator: ", ") + "]}"
            ]
        case .linkPreview(let text, let link):
            var parts = ["\"url\": " + Self.quote(link.url)]
            if let title = link.title { parts.append("\"title\": " + Self.quote(title)) }
            if let teaser = link.teaser { parts.append("\"teaser\": " + Self.quote(teaser)) }
            if let thumbnail = link.thumbnail { parts.append("\"thumbnail\": " + Self.quote(reference(thumbnail))) }
            if let siteName = link.siteName { parts.append("\"siteName\": " + Self.quote(siteName)) }
            return ["\"text\": " + Self.quote(text), "\"link\": {" + parts.joined(separator: ", ") + "}"]
        case .custom(let custom):
            return ["\"custom\": {\"id\": " + Self.quote(custom.id) + ", \"data\": " + Self.json(custom.data) + "}"]
        }
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
        case .string(let text): return quote(text)
        case .array(let values): return "[" + values.map(json).joined(separator: ", ") + "]"
        case .object(let members):
            return "{" + members.map { quote($0.key) + ": " + json($0.value) }.joined(separator: ", ") + "}"
        }
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// A JSON string literal (RFC 8259 escaping; `/` and non-ASCII kept as they are).
    public static func quote(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
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
        // Civil date from days since 1970 (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
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
