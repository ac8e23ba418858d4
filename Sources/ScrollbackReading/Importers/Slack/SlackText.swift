import Foundation
import ScrollbackModel

/// Slack's text formats turned into Markdown for cmark-gfm: mrkdwn (`*bold*`, `_italic_`,
/// `~strike~`, code, `&gt;` quotes, `<@U…>` / `<#C…|name>` / `<!here>` mentions, `<url|label>`
/// links) and `blocks` rich text. Everything that is text in Slack is escaped so cmark-gfm
/// keeps it text: `<`, `&`, `[`, `]` and `\` never become HTML, entities or links.
struct SlackText {
    /// User id → display name, for mentions.
    let users: [String: String]

    /// `:shortcode:` names of the most common emoji; unknown shortcodes stay as text.
    static let shortcodes: [String: String] = [
        "+1": "👍", "thumbsup": "👍", "-1": "👎", "thumbsdown": "👎", "smile": "😄", "smiley": "😃",
        "grinning": "😀", "joy": "😂", "laughing": "😆", "wink": "😉", "blush": "😊", "heart": "❤️",
        "heart_eyes": "😍", "tada": "🎉", "fire": "🔥", "eyes": "👀", "pray": "🙏", "clap": "👏",
        "raised_hands": "🙌", "ok_hand": "👌", "wave": "👋", "rocket": "🚀", "white_check_mark": "✅",
        "heavy_check_mark": "✔️", "x": "❌", "warning": "⚠️", "100": "💯", "thinking_face": "🤔",
        "sob": "😭", "cry": "😢", "slightly_smiling_face": "🙂", "upside_down_face": "🙃", "sweat_smile": "😅",
        "rolling_on_the_floor_laughing": "🤣", "star": "⭐", "sparkles": "✨", "muscle": "💪", "coffee": "☕",
        "bug": "🐛", "memo": "📝", "point_up": "☝️", "point_right": "👉", "see_no_evil": "🙈", "zap": "⚡",
        "party_popper": "🎉", "sunglasses": "😎", "thumbs_up": "👍", "confused": "😕", "scream": "😱",
        "rage": "😡", "kissing_heart": "😘", "hugging_face": "🤗", "partying_face": "🥳", "question": "❓",
        "exclamation": "❗", "bulb": "💡", "calendar": "📆", "link": "🔗", "lock": "🔒", "pushpin": "📌",
    ]

    /// The emoji of a shortcode name (without colons; skin-tone suffixes dropped), if known.
    static func emoji(_ name: String) -> String? {
        let base = name.split(separator: ":").first.map(String.init) ?? name
        return shortcodes[base]
    }

    /// `text` with every character Markdown or HTML would interpret escaped.
    static func escapeMarkdown(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "\\", "<", "&", "[", "]", "*", "_", "~", "`", "#", "|": out += "\\" + String(character)
            default: out.append(character)
            }
        }
        return out
    }

    /// Decodes the three entities Slack escapes in text.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    // MARK: mrkdwn

    /// mrkdwn as Markdown.
    func markdown(mrkdwn: String) -> String {
        var out = ""
        // Code blocks and spans are copied as they are (entities decoded); the rest is converted.
        var rest = Substring(mrkdwn)
        while !rest.isEmpty {
            if rest.hasPrefix("```"), let end = rest.dropFirst(3).range(of: "```") {
                let code = Self.decodeEntities(String(rest[rest.index(rest.startIndex, offsetBy: 3)..<end.lowerBound]))
                out += "\n```\n" + code.trimmingCharacters(in: .newlines) + "\n```\n"
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("`"), let end = rest.dropFirst().firstIndex(of: "`") {
                let code = Self.decodeEntities(String(rest[rest.index(after: rest.startIndex)..<end]))
                out += "`" + code + "`"
                rest = rest[rest.index(after: end)...]
            } else {
                let next = rest.dropFirst().firstIndex(of: "`") ?? rest.endIndex
                out += convertText(rest[rest.startIndex..<next])
                rest = rest[next...]
            }
        }
        return out
    }

    /// Plain text of mrkdwn (system messages): mentions resolved, markup kept as written.
    func plain(mrkdwn: String) -> String {
        var out = ""
        var rest = Substring(mrkdwn)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            out += Self.decodeEntities(String(rest[rest.startIndex..<open]))
            out += reference(String(rest[rest.index(after: open)..<close])).label
            rest = rest[rest.index(after: close)...]
        }
        return out + Self.decodeEntities(String(rest))
    }

    /// What a `<…>` reference shows and, for links, where it goes.
    func reference(_ inner: String) -> (label: String, url: String?) {
        let parts = inner.split(separator: "|", maxSplits: 1).map(String.init)
        let target = parts.first ?? ""
        let label = parts.count > 1 ? Self.decodeEntities(parts[1]) : nil
        if target.hasPrefix("@") {
            let id = String(target.dropFirst())
            return ("@" + (users[id] ?? label ?? id), nil)
        }
        if target.hasPrefix("#") { return ("#" + (label ?? String(target.dropFirst())), nil) }
        if target.hasPrefix("!") {
            let command = String(target.dropFirst())
            if let label { return (label.hasPrefix("@") ? label : label, nil) }
            let name = command.split(separator: "^").first.map(String.init) ?? command
            return ("@" + name, nil)
        }
        let url = Self.decodeEntities(target)
        return (label ?? url, url)
    }

    /// mrkdwn text outside code: references, emphasis markers and escapes.
    func convertText(_ text: Substring) -> String {
        var out = ""
        var rest = text
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            out += emphasis(Self.decodeEntities(String(rest[rest.startIndex..<open])))
            let (label, url) = reference(String(rest[rest.index(after: open)..<close]))
            if let url, url.hasPrefix("http://") || url.hasPrefix("https://") || url.hasPrefix("mailto:") {
                out += "[" + Self.escapeMarkdown(label) + "](<" + url.replacingOccurrences(of: ">", with: "%3E") + ">)"
            } else {
                out += Self.escapeMarkdown(label)
            }
            rest = rest[rest.index(after: close)...]
        }
        return out + emphasis(Self.decodeEntities(String(rest)))
    }

    /// Slack emphasis to Markdown (`*b*` → `**b**`, `~s~` → `~~s~~`, `_i_` kept), every other
    /// special character escaped; `:shortcode:` emoji replaced; `>` quotes at line starts kept.
    func emphasis(_ text: String) -> String {
        let characters = Array(text)
        var out = ""
        var index = 0
        func isSpace(_ offset: Int) -> Bool {
            offset < 0 || offset >= characters.count || characters[offset].isWhitespace
                || characters[offset].isPunctuation
        }
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "*", "~", "_":
                let opens = isSpace(index - 1) && !isSpace(index + 1)
                let closes = !isSpace(index - 1) && isSpace(index + 1)
                if opens || closes {
                    out += character == "*" ? "**" : character == "~" ? "~~" : "_"
                } else {
                    out += "\\" + String(character)
                }
            case ":":
                if let end = characters[(index + 1)...].firstIndex(of: ":"), end > index + 1,
                    let emoji = Self.emoji(String(characters[(index + 1)..<end])),
                    characters[(index + 1)..<end].allSatisfy({ $0.isLetter || $0.isNumber || "_+-".contains($0) })
                {
                    out += emoji
                    index = end
                } else {
                    out += ":"
                }
            case ">" where index == 0 || characters[index - 1] == "\n":
                out += ">"
            case "\n":
                out += "  \n"  // Slack keeps line breaks
            default:
                out += Self.escapeMarkdown(String(character))
            }
            index += 1
        }
        return out
    }

    // MARK: blocks

    /// `blocks` rich text (and section text) as Markdown.
    func markdown(blocks: [JSONNode]) -> String {
        var paragraphs: [String] = []
        for block in blocks {
            switch block["type"]?.string {
            case "rich_text":
                for element in block["elements"]?.elements ?? [] { paragraphs.append(richElement(element)) }
            case "section", "header", "context":
                if let text = block["text"]?["text"]?.string { paragraphs.append(markdown(mrkdwn: text)) }
                for element in block["elements"]?.elements ?? [] {
                    if let text = element["text"]?.string { paragraphs.append(markdown(mrkdwn: text)) }
                }
            default: continue
            }
        }
        return paragraphs.filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    func richElement(_ element: JSONNode) -> String {
        let children = element["elements"]?.elements ?? []
        switch element["type"]?.string {
        case "rich_text_section": return children.map(inline).joined()
        case "rich_text_preformatted":
            return "```\n" + children.map { $0["text"]?.string ?? $0["url"]?.string ?? "" }.joined() + "\n```"
        case "rich_text_quote": return "> " + children.map(inline).joined().replacingOccurrences(of: "\n", with: "\n> ")
        case "rich_text_list":
            let ordered = element["style"]?.string == "ordered"
            return children.enumerated().map { offset, item in
                (ordered ? "\(offset + 1). " : "- ") + richElement(item)
            }.joined(separator: "\n")
        default: return children.map(inline).joined()
        }
    }

    func inline(_ element: JSONNode) -> String {
        switch element["type"]?.string {
        case "text":
            let text = element["text"]?.string ?? ""
            let style = element["style"]
            if style?["code"]?.bool == true { return "`" + text + "`" }
            var out = Self.escapeMarkdown(text).replacingOccurrences(of: "\n", with: "  \n")
            if style?["bold"]?.bool == true { out = "**" + out + "**" }
            if style?["italic"]?.bool == true { out = "_" + out + "_" }
            if style?["strike"]?.bool == true { out = "~~" + out + "~~" }
            return out
        case "link":
            guard let url = element["url"]?.string else { return "" }
            return "[" + Self.escapeMarkdown(element["text"]?.string ?? url) + "](<" + url + ">)"
        case "user":
            let id = element["user_id"]?.string ?? ""
            return Self.escapeMarkdown("@" + (users[id] ?? id))
        case "channel": return Self.escapeMarkdown("#" + (element["channel_id"]?.string ?? ""))
        case "broadcast": return "@" + (element["range"]?.string ?? "here")
        case "emoji":
            let name = element["name"]?.string ?? ""
            return element["unicode"]?.string.flatMap(Self.unicodeEmoji) ?? Self.emoji(name) ?? ":" + name + ":"
        default: return Self.escapeMarkdown(element["text"]?.string ?? "")
        }
    }

    /// `1f44d` or `1f468-200d-1f4bb` as the emoji.
    static func unicodeEmoji(_ hex: String) -> String? {
        var out = ""
        for part in hex.split(separator: "-") {
            guard let value = UInt32(part, radix: 16), let scalar = Unicode.Scalar(value) else { return nil }
            out.unicodeScalars.append(scalar)
        }
        return out.isEmpty ? nil : out
    }
}
