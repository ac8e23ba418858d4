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
        // Every delimiter is ASCII: the text is searched as bytes, without grapheme breaking.
        let backtick = UInt8(ascii: "`")
        var rest = Substring(mrkdwn)
        while !rest.isEmpty {
            let bytes = rest.utf8
            if bytes.starts(with: Self.fence),
                let end = Self.firstIndex(of: Self.fence, in: bytes[bytes.index(bytes.startIndex, offsetBy: 3)...])
            {
                out += ChatMarkup.codeBlock(
                    Self.decodeEntities(String(rest[bytes.index(bytes.startIndex, offsetBy: 3)..<end])))
                rest = rest[bytes.index(end, offsetBy: 3)...]
            } else if bytes.first == backtick, let end = bytes.dropFirst().firstIndex(of: backtick) {
                out += ChatMarkup.codeSpan(
                    Self.decodeEntities(String(rest[bytes.index(after: bytes.startIndex)..<end])))
                rest = rest[bytes.index(after: end)...]
            } else {
                let next = bytes.dropFirst().firstIndex(of: backtick) ?? bytes.endIndex
                out += convertText(rest[..<next])
                rest = rest[next...]
            }
        }
        return out
    }

    /// A code block's fence.
    static let fence = "```".utf8

    /// Where `needle` first starts in `haystack`, if it does.
    static func firstIndex(of needle: String.UTF8View, in haystack: Substring.UTF8View) -> String.Index? {
        guard let first = needle.first else { return haystack.startIndex }
        var from = haystack.startIndex
        while let found = haystack[from...].firstIndex(of: first) {
            if haystack[found...].starts(with: needle) { return found }
            from = haystack.index(after: found)
        }
        return nil
    }

    /// Plain text of mrkdwn (system messages): mentions resolved, markup kept as written.
    func plain(mrkdwn: String) -> String {
        var out = ""
        var rest = Substring(mrkdwn)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            out += Self.decodeEntities(String(rest[rest.startIndex..<open]))
            out += reference(rest[rest.utf8.index(after: open)..<close]).label
            rest = rest[rest.index(after: close)...]
        }
        return out + Self.decodeEntities(String(rest))
    }

    /// mrkdwn that holds no formatting (no emphasis markers, code, quotes or labelled links) as
    /// the plain text it shows: mentions resolved, `<url>` as the URL (the renderer links it, as
    /// it does in any text message), entities decoded, `:shortcode:` emoji replaced, line breaks
    /// kept (a text message shows them, as Slack does; `1.` or `-` at a line start stays text, as
    /// in Slack). `nil` when it does hold formatting: then it goes through `markdown(mrkdwn:)`
    /// and cmark-gfm. Most chat messages are plain, and they need no Markdown parse.
    func plainText(ifSimple mrkdwn: String) -> String? {
        var hasReferenceOrEntity = false
        // Fewer than two colons: no `:shortcode:` to replace.
        var colonCount = 0
        var text = mrkdwn
        let hasFormatting = text.withUTF8 { bytes in
            var index = 0
            var atLineStart = true
            while index < bytes.count {
                let byte = bytes[index]
                // A quote: `>` at a line start, `&gt;` as Slack writes it.
                if atLineStart, byte == UInt8(ascii: ">") || Self.quoteEntity.elementsEqual(bytes[index...].prefix(4)) {
                    return true
                }
                atLineStart = byte == UInt8(ascii: "\n")
                switch byte {
                case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "`"): return true
                case UInt8(ascii: ":"):
                    colonCount += 1
                    // `:open_mouth:`: its underscores are no emphasis.
                    if let end = Self.shortcodeEnd(bytes, colon: index) {
                        colonCount += 1
                        index = end
                        continue
                    }
                case UInt8(ascii: "<"), UInt8(ascii: "&"): hasReferenceOrEntity = true
                default: break
                }
                index += 1
            }
            return false
        }
        if hasFormatting { return nil }
        // Most messages: text as it is.
        guard hasReferenceOrEntity else { return colonCount < 2 ? mrkdwn : Self.replacingShortcodes(mrkdwn) }
        var out = ""
        var rest = Substring(mrkdwn)
        while let open = rest.utf8.firstIndex(of: UInt8(ascii: "<")) {
            guard let close = rest.utf8[open...].firstIndex(of: UInt8(ascii: ">")) else { break }
            out += Self.decodeEntities(String(rest[rest.startIndex..<open]))
            let (label, url) = reference(rest[rest.utf8.index(after: open)..<close])
            if let url {
                // A link shows as its URL only when its label says no more than the URL.
                let bare = url.hasPrefix("mailto:") ? String(url.dropFirst(7)) : url
                guard label == url || label == bare, !bare.utf8.contains(UInt8(ascii: " ")) else { return nil }
                out += bare
            } else {
                out += label
            }
            rest = rest[rest.utf8.index(after: close)...]
        }
        out += Self.decodeEntities(String(rest))
        return Self.replacingShortcodes(out)
    }

    /// The index after the `:name:` whose first colon is at `colon`, when `name` is made of
    /// ASCII letters, digits, `+`, `-` and `_`, each `_` between two letters or digits: such an
    /// underscore is inside a word, never emphasis (`ChatMarkup.emphasis` keeps it as text).
    static func shortcodeEnd(_ bytes: UnsafeBufferPointer<UInt8>, colon: Int) -> Int? {
        var index = colon + 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") { return index > colon + 1 ? index + 1 : nil }
            guard ChatMarkup.isShortcodeByte(byte) else { return nil }
            if byte == UInt8(ascii: "_"),
                !(index + 1 < bytes.count && ChatMarkup.isASCIIAlphanumeric(bytes[index - 1])
                    && ChatMarkup.isASCIIAlphanumeric(bytes[index + 1]))
            {
                return nil
            }
            index += 1
        }
        return nil
    }

    /// How Slack writes `>`: a quote when it starts a line.
    static let quoteEntity = Array("&gt;".utf8)

    /// `:name:` replaced by its emoji where the name is known; everything else as written.
    static func replacingShortcodes(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: ":")) else { return text }
        // Over the bytes: `:` is ASCII, and what lies between two of them is copied or replaced whole.
        var out: [UInt8] = []
        var copied = 0
        var text = text
        text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: ":"),
                    let (found, closingColon) = ChatMarkup.shortcode(atColon: index, in: bytes, emoji: emoji)
                {
                    out.append(contentsOf: bytes[copied..<index])
                    out.append(contentsOf: found.utf8)
                    index = closingColon + 1
                    copied = index
                    continue
                }
                index += 1
            }
            if copied > 0 { out.append(contentsOf: bytes[copied...]) }
        }
        return copied > 0 ? String(decoding: out, as: UTF8.self) : text
    }

    /// What a `<…>` reference shows and, for links, where it goes.
    func reference(_ inner: Substring) -> (label: String, url: String?) {
        let bar = inner.utf8.firstIndex(of: UInt8(ascii: "|"))
        let target = bar.map { inner[..<$0] } ?? inner
        let label = bar.map { Self.decodeEntities(String(inner[inner.utf8.index(after: $0)...])) }
        switch target.utf8.first {
        case UInt8(ascii: "@"):
            let id = String(target.dropFirst())
            return ("@" + (users[id] ?? label ?? id), nil)
        case UInt8(ascii: "#"): return ("#" + (label ?? String(target.dropFirst())), nil)
        case UInt8(ascii: "!"):
            if let label { return (label, nil) }
            let command = target.dropFirst()
            let name = command.utf8.firstIndex(of: UInt8(ascii: "^")).map { command[..<$0] } ?? command
            return ("@" + name, nil)
        default:
            let url = Self.decodeEntities(String(target))
            return (label ?? url, url)
        }
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
            let (label, url) = reference(rest[rest.utf8.index(after: open)..<close])
            if let url, url.hasPrefix("http://") || url.hasPrefix("https://") || url.hasPrefix("mailto:") {
                let target = url.utf8.contains(UInt8(ascii: ">")) ? url.replacingOccurrences(of: ">", with: "%3E") : url
                out += "[" + ChatMarkup.escapeMarkdown(label) + "](<" + target + ">)"
            } else {
                out += ChatMarkup.escapeMarkdown(label)
            }
            rest = rest[rest.utf8.index(after: close)...]
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
            var out = ChatMarkup.escapeMarkdown(text).replacingOccurrences(of: "\n", with: "  \n")
            if style?["bold"]?.bool == true { out = "**" + out + "**" }
            if style?["italic"]?.bool == true { out = "_" + out + "_" }
            if style?["strike"]?.bool == true { out = "~~" + out + "~~" }
            return out
        case "link":
            guard let url = element["url"]?.string else { return "" }
            return "[" + ChatMarkup.escapeMarkdown(element["text"]?.string ?? url) + "](<" + url + ">)"
        case "user":
            let id = element["user_id"]?.string ?? ""
            return ChatMarkup.escapeMarkdown("@" + (users[id] ?? id))
        case "channel": return ChatMarkup.escapeMarkdown("#" + (element["channel_id"]?.string ?? ""))
        case "broadcast": return "@" + (element["range"]?.string ?? "here")
        case "emoji":
            let name = element["name"]?.string ?? ""
            return element["unicode"]?.string.flatMap(Self.unicodeEmoji) ?? Self.emoji(name) ?? ":" + name + ":"
        default: return ChatMarkup.escapeMarkdown(element["text"]?.string ?? "")
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
