import Foundation
import ScrollbackModel

/// Slack's text formats turned into Markdown for cmark-gfm: mrkdwn (`*bold*`, `_italic_`,
/// `~strike~`, code, `&gt;` quotes, `<@U…>` / `<#C…|name>` / `<!here>` mentions, `<url|label>`
/// links) and `blocks` rich text. Everything that is text in Slack is escaped so cmark-gfm
/// keeps it text: `<`, `&`, `[`, `]` and `\` never become HTML, entities or links.
struct SlackText {
    /// User id → display name, for mentions.
    let users: [String: String]
    /// The workspace's custom emoji found in the export: name → image path in the export.
    var customEmoji: [String: String] = [:]
    /// Channel id → name, for `channel` elements of blocks (which carry only the id).
    var channels: [String: String] = [:]

    /// The emoji of a shortcode name (without colons; `name::skin-tone-N` too), if Slack's
    /// table knows it (`SlackEmoji`).
    static func emoji(_ name: String) -> String? { SlackEmoji.emoji(name) }

    /// A shortcode name as Markdown: its emoji, or the workspace's custom emoji as an image
    /// when the export holds it; `nil` (the text stays as written) otherwise.
    func emojiMarkdown(_ name: String) -> String? {
        if let emoji = Self.emoji(name) { return emoji }
        guard let path = customEmoji[name] else { return nil }
        return "![:" + ChatMarkup.escapeMarkdown(name) + ":](<" + path + ">)"
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
        // A workspace's custom emoji is an image: Markdown, not plain text.
        if colonCount >= 2, !customEmoji.isEmpty { return nil }
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
}
