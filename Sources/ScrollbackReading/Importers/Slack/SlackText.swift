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
    /// One pass over the bytes: the three never overlap, and what a replacement writes is never
    /// read again, so this is the same as replacing `&lt;`, then `&gt;`, then `&amp;`.
    static func decodeEntities(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "&") {
                if utf8[index...].starts(with: "&lt;".utf8) {
                    bytes.append(UInt8(ascii: "<"))
                    index += 4
                    continue
                } else if utf8[index...].starts(with: "&gt;".utf8) {
                    bytes.append(UInt8(ascii: ">"))
                    index += 4
                    continue
                } else if utf8[index...].starts(with: "&amp;".utf8) {
                    bytes.append(UInt8(ascii: "&"))
                    index += 5
                    continue
                }
            }
            bytes.append(utf8[index])
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
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
                let next = rest.utf8.dropFirst().firstIndex(of: UInt8(ascii: "`")) ?? rest.endIndex
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

    /// mrkdwn that holds no formatting (no emphasis markers, code, line breaks or labelled
    /// links) as the plain text it shows: mentions resolved, `<url>` as the URL (the renderer
    /// links it, as it does in any text message), entities decoded, `:shortcode:` emoji replaced.
    /// `nil` when it does hold formatting: then it goes through `markdown(mrkdwn:)` and cmark-gfm.
    /// Most chat messages are plain, and they need no Markdown parse.
    func plainText(ifSimple mrkdwn: String) -> String? {
        for byte in mrkdwn.utf8 {
            switch byte {
            case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "`"), UInt8(ascii: "\n"),
                UInt8(ascii: "\r"):
                return nil
            default: continue
            }
        }
        var out = ""
        var rest = Substring(mrkdwn)
        while let open = rest.utf8.firstIndex(of: UInt8(ascii: "<")) {
            guard let close = rest.utf8[open...].firstIndex(of: UInt8(ascii: ">")) else { break }
            out += Self.decodeEntities(String(rest[rest.startIndex..<open]))
            let inner = String(rest[rest.index(after: open)..<close])
            let (label, url) = reference(inner)
            if let url {
                // A link shows as its URL only when its label says no more than the URL.
                let bare = url.hasPrefix("mailto:") ? String(url.dropFirst(7)) : url
                guard label == url || label == bare, !bare.contains(" ") else { return nil }
                out += bare
            } else {
                out += label
            }
            rest = rest[rest.index(after: close)...]
        }
        out += Self.decodeEntities(String(rest))
        return Self.replacingShortcodes(out)
    }

    /// `:name:` replaced by its emoji where the name is known; everything else as written.
    static func replacingShortcodes(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: ":")) else { return text }
        var out = ""
        var rest = Substring(text)
        while let colon = rest.firstIndex(of: ":") {
            let after = rest.index(after: colon)
            if let end = rest[after...].firstIndex(of: ":"), end > after,
                rest[after..<end].unicodeScalars.allSatisfy(ChatMarkup.isShortcodeScalar),
                let found = emoji(String(rest[after..<end]))
            {
                out += rest[..<colon] + found
                rest = rest[rest.index(after: end)...]
            } else {
                out += rest[...colon]
                rest = rest[after...]
            }
        }
        return out + rest
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
        // Searched as bytes (`<` and `>` are ASCII): no grapheme breaking on the way.
        while let open = rest.utf8.firstIndex(of: UInt8(ascii: "<")),
            let close = rest.utf8[open...].firstIndex(of: UInt8(ascii: ">"))
        {
            out += emphasis(Self.decodeEntities(String(rest[rest.startIndex..<open])))
            let (label, url) = reference(String(rest[rest.index(after: open)..<close]))
            if let url, url.hasPrefix("http://") || url.hasPrefix("https://") || url.hasPrefix("mailto:") {
                let target = url.utf8.contains(UInt8(ascii: ">")) ? url.replacingOccurrences(of: ">", with: "%3E") : url
                out += "[" + Self.escapeMarkdown(label) + "](<" + target + ">)"
            } else {
                out += Self.escapeMarkdown(label)
            }
            rest = rest[rest.index(after: close)...]
        }
        return out + emphasis(Self.decodeEntities(String(rest)))
    }

    /// Slack emphasis to Markdown (`*b*` → `**b**`, `~s~` → `~~s~~`, `_i_` kept), every other
    /// special character escaped; `:shortcode:` emoji replaced; `>` quotes at line starts kept.
    func emphasis(_ text: String) -> String { ChatMarkup.emphasis(text, emoji: Self.emoji) }

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
