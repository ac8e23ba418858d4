import Foundation

/// The inline markup chat apps share (Slack mrkdwn, WhatsApp): `*bold*`, `_italic_`,
/// `~strike~` as Markdown for cmark-gfm, with every other character Markdown or HTML would
/// interpret escaped, so the text of a log stays text.
///
/// A marker counts when it opens a word (after a space, punctuation or the start, before a
/// non-space) or closes one (the reverse), as both apps do; any other marker is escaped.
/// Line breaks stay line breaks; `>` at a line start stays a quote.
enum ChatMarkup {
    /// `text` with emphasis as Markdown. `emoji` maps a `:shortcode:` name to its emoji (Slack);
    /// names it does not know stay as written.
    static func emphasis(_ text: String, emoji: ((String) -> String?)? = nil) -> String {
        // Over the UTF-8 bytes: every character this looks at is ASCII, so other scalars are
        // copied as they are and decoded only where a marker asks what is next to it.
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        /// The scalar starting at byte `offset` (valid UTF-8: it comes from a `String`), if any.
        func scalar(at offset: Int) -> Unicode.Scalar? {
            guard offset >= 0, offset < bytes.count else { return nil }
            let first = bytes[offset]
            if first < 0x80 { return Unicode.Scalar(first) }
            var value: UInt32
            let continuations: Int
            if first >= 0xF0 {
                (value, continuations) = (UInt32(first & 0x07), 3)
            } else if first >= 0xE0 {
                (value, continuations) = (UInt32(first & 0x0F), 2)
            } else {
                (value, continuations) = (UInt32(first & 0x1F), 1)
            }
            for next in 1...continuations { value = value << 6 | UInt32(bytes[offset + next] & 0x3F) }
            return Unicode.Scalar(value)
        }
        /// The scalar that ends just before byte `offset`, if any.
        func scalar(before offset: Int) -> Unicode.Scalar? {
            guard offset > 0 else { return nil }
            var start = offset - 1
            while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
            return scalar(at: start)
        }
        func isBoundary(_ scalar: Unicode.Scalar?) -> Bool {
            guard let scalar else { return true }
            if scalar.isASCII {
                // Space, controls and the ASCII characters Unicode calls punctuation (not symbols
                // such as `~`, `+`, `<`, `|`).
                return scalar.value <= 0x20 || asciiPunctuation.contains(UInt8(scalar.value))
            }
            if scalar.properties.isWhitespace { return true }
            switch scalar.properties.generalCategory {
            case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                .initialPunctuation, .finalPunctuation, .otherPunctuation:
                return true
            default: return false
            }
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "*"), UInt8(ascii: "~"), UInt8(ascii: "_"):
                let afterBoundary = isBoundary(scalar(before: index))
                let beforeBoundary = isBoundary(scalar(at: index + 1))
                if afterBoundary != beforeBoundary {  // opens a word, or closes one
                    out.append(
                        contentsOf: byte == UInt8(ascii: "*")
                            ? "**".utf8 : byte == UInt8(ascii: "~") ? "~~".utf8 : "_".utf8)
                } else {
                    out.append(UInt8(ascii: "\\"))
                    out.append(byte)
                }
            case UInt8(ascii: ":"):
                if let emoji, let (found, closingColon) = shortcode(atColon: index, in: bytes, emoji: emoji) {
                    out.append(contentsOf: found.utf8)
                    index = closingColon
                } else {
                    out.append(byte)
                }
            case UInt8(ascii: ">") where index == 0 || bytes[index - 1] == UInt8(ascii: "\n"):
                out.append(byte)
            case UInt8(ascii: "\n"):
                out.append(contentsOf: "  \n".utf8)  // chat apps keep line breaks
            case _ where isEscaped(byte):  // (the emphasis markers are taken above)
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            default:
                out.append(byte)
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` with every character Markdown or HTML would interpret escaped (all of them ASCII:
    /// the text is escaped byte by byte, and left as it is when it holds none).
    static func escapeMarkdown(_ text: String) -> String {
        guard text.utf8.contains(where: isEscaped) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            if isEscaped(byte) { out.append(UInt8(ascii: "\\")) }
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `escapeMarkdown` escapes `byte`.
    private static func isEscaped(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\\"), UInt8(ascii: "<"), UInt8(ascii: "&"), UInt8(ascii: "["), UInt8(ascii: "]"),
            UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "`"), UInt8(ascii: "#"),
            UInt8(ascii: "|"):
            true
        default: false
        }
    }

    static let asciiPunctuation = Set("!\"#%&'()*,-./:;?@[\\]_{}".utf8)

    /// The emoji of the `:name:` whose first colon is at `colon` in `bytes`, with the offset of its
    /// closing colon, when `emoji` knows `name`. Names are made of ASCII letters, digits, `_`, `+`
    /// and `-`, so anything else between two colons is passed over without making a `String`.
    static func shortcode<Bytes: RandomAccessCollection<UInt8>>(
        atColon colon: Int, in bytes: Bytes, emoji: (String) -> String?
    ) -> (emoji: String, closingColon: Int)? where Bytes.Index == Int {
        guard let end = bytes[(colon + 1)...].firstIndex(of: UInt8(ascii: ":")), end > colon + 1,
            bytes[(colon + 1)..<end].allSatisfy(isShortcodeByte),
            let found = emoji(String(decoding: bytes[(colon + 1)..<end], as: UTF8.self))
        else { return nil }
        return (found, end)
    }

    /// A byte a shortcode name may hold.
    static func isShortcodeByte(_ byte: UInt8) -> Bool {
        isASCIIAlphanumeric(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }

    /// An ASCII letter or digit.
    static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// A code span holding `code` as it is, with a fence longer than any run of backticks in it.
    static func codeSpan(_ code: String) -> String {
        var longest = 0
        var run = 0
        for byte in code.utf8 {
            run = byte == UInt8(ascii: "`") ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = code.hasPrefix("`") || code.hasSuffix("`") || longest > 0 ? " " : ""
        let oneLine =
            code.utf8.contains(UInt8(ascii: "\n")) ? code.replacingOccurrences(of: "\n", with: " ") : code
        return fence + pad + oneLine + pad + fence
    }

    /// `text.trimmingCharacters(in: set)` (the scalars of `set` taken off both ends), without
    /// Foundation's bridging: `text` itself when there is nothing to trim, as for most messages.
    static func trimming(_ text: String, in set: CharacterSet) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !set.contains($0) }),
            let last = scalars.lastIndex(where: { !set.contains($0) })
        else { return "" }
        if first == scalars.startIndex, last == scalars.index(before: scalars.endIndex) { return text }
        return String(scalars[first...last])
    }

    /// A fenced code block holding `code` as it is.
    static func codeBlock(_ code: String) -> String {
        var longest = 2
        var run = 0
        for byte in code.utf8 {
            run = byte == UInt8(ascii: "`") ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        return "\n" + fence + "\n" + trimming(code, in: .newlines) + "\n" + fence + "\n"
    }
}
