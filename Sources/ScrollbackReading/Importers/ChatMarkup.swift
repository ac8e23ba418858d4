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
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        out.reserveCapacity(scalars.count + 16)
        func isBoundary(_ offset: Int) -> Bool {
            guard offset >= 0, offset < scalars.count else { return true }
            let scalar = scalars[offset]
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
        func append(_ string: String) { out.append(contentsOf: string.unicodeScalars) }
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "*", "~", "_":
                let opens = isBoundary(index - 1) && !isBoundary(index + 1)
                let closes = !isBoundary(index - 1) && isBoundary(index + 1)
                if opens || closes {
                    append(scalar == "*" ? "**" : scalar == "~" ? "~~" : "_")
                } else {
                    out.append("\\")
                    out.append(scalar)
                }
            case ":" where emoji != nil:
                var end = index + 1
                while end < scalars.count, scalars[end] != ":", isShortcodeScalar(scalars[end]) { end += 1 }
                if end < scalars.count, end > index + 1, scalars[end] == ":",
                    let found = emoji?(String(String.UnicodeScalarView(scalars[(index + 1)..<end])))
                {
                    append(found)
                    index = end
                } else {
                    out.append(":")
                }
            case ">" where index == 0 || scalars[index - 1] == "\n":
                out.append(">")
            case "\n":
                append("  \n")  // chat apps keep line breaks
            case "\\", "<", "&", "[", "]", "`", "#", "|":
                out.append("\\")
                out.append(scalar)
            default:
                out.append(scalar)
            }
            index += 1
        }
        return String(out)
    }

    static let asciiPunctuation = Set("!\"#%&'()*,-./:;?@[\\]_{}".utf8)

    static func isShortcodeScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == "_" || scalar == "+"
            || scalar == "-"
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
        return fence + pad + code.replacingOccurrences(of: "\n", with: " ") + pad + fence
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
        return "\n" + fence + "\n" + code.trimmingCharacters(in: .newlines) + "\n" + fence + "\n"
    }
}
