import Foundation
import ScrollbackModel

/// mrkdwn as Markdown, by Slack's own emphasis rules (issue 41, point 6).
///
/// Slack reads `*bold*`, `_italic_` and `~strike~` as pairs on one line: an opening marker
/// follows the start, a space, punctuation or another marker and comes before a non-space; a
/// closing one follows a non-space and comes before the end, a space, punctuation or another
/// marker. So `*Bold!*` is bold (the `!` before the closing marker is no obstacle) and
/// `*files <@U1>*` is bold around the mention: a mention, a link, an emoji or a code span is one
/// unit of the line, never two halves of text. A marker that pairs with no other stays text.
///
/// The text is first cut into units (`Unit`): scalars of text, and atoms whose Markdown is made
/// already (references, code, emoji); markers are paired over the units, and each pair is written
/// as Markdown's (`**`, `_`, `~~`) while every other character is escaped.
extension SlackText {
    /// One unit of a line of mrkdwn.
    enum Unit {
        /// A character of text (entities decoded).
        case scalar(Unicode.Scalar)
        /// Markdown made already: a reference, a code span, an emoji. Counts as a letter.
        case atom(String)
        /// A code block: Markdown made already, and a line break for emphasis.
        case block(String)
    }

    /// mrkdwn as Markdown.
    func markdown(mrkdwn: String) -> String {
        Self.render(units(of: mrkdwn))
    }

    /// The units of `mrkdwn`: code blocks and spans copied as they are (entities decoded),
    /// references resolved, `:shortcode:` emoji replaced, the rest scalars of text.
    func units(of mrkdwn: String) -> [Unit] {
        var units: [Unit] = []
        units.reserveCapacity(mrkdwn.utf8.count)
        let backtick = UInt8(ascii: "`")
        var rest = Substring(mrkdwn)
        while !rest.isEmpty {
            let bytes = rest.utf8
            if bytes.starts(with: Self.fence),
                let end = Self.firstIndex(of: Self.fence, in: bytes[bytes.index(bytes.startIndex, offsetBy: 3)...])
            {
                units.append(
                    .block(
                        ChatMarkup.codeBlock(
                            Self.decodeEntities(String(rest[bytes.index(bytes.startIndex, offsetBy: 3)..<end])))))
                rest = rest[bytes.index(end, offsetBy: 3)...]
            } else if bytes.first == backtick, let end = bytes.dropFirst().firstIndex(of: backtick) {
                units.append(
                    .atom(
                        ChatMarkup.codeSpan(
                            Self.decodeEntities(String(rest[bytes.index(after: bytes.startIndex)..<end])))))
                rest = rest[bytes.index(after: end)...]
            } else {
                let next = bytes.dropFirst().firstIndex(of: backtick) ?? bytes.endIndex
                appendText(rest[..<next], to: &units)
                rest = rest[next...]
            }
        }
        return units
    }

    /// Text outside code: `<…>` references as atoms, the rest as scalars and emoji.
    func appendText(_ text: Substring, to units: inout [Unit]) {
        var rest = text
        // Searched as bytes (`<` and `>` are ASCII): no grapheme breaking on the way.
        while let open = rest.utf8.firstIndex(of: UInt8(ascii: "<")),
            let close = rest.utf8[open...].firstIndex(of: UInt8(ascii: ">"))
        {
            appendScalars(Self.decodeEntities(String(rest[rest.startIndex..<open])), to: &units)
            units.append(.atom(referenceMarkdown(rest[rest.utf8.index(after: open)..<close])))
            rest = rest[rest.utf8.index(after: close)...]
        }
        appendScalars(Self.decodeEntities(String(rest)), to: &units)
    }

    /// A `<…>` reference as Markdown: a link for web and mail addresses, text for the rest.
    func referenceMarkdown(_ inner: Substring) -> String {
        let (label, url) = reference(inner)
        if let url, url.hasPrefix("http://") || url.hasPrefix("https://") || url.hasPrefix("mailto:") {
            let target = url.utf8.contains(UInt8(ascii: ">")) ? url.replacingOccurrences(of: ">", with: "%3E") : url
            return "[" + ChatMarkup.escapeMarkdown(label) + "](<" + target + ">)"
        }
        return ChatMarkup.escapeMarkdown(label)
    }

    /// Decoded text as scalars, a known `:shortcode:` as its emoji (an atom).
    func appendScalars(_ text: String, to units: inout [Unit]) {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            if scalars[index] == ":", let (emoji, end) = shortcode(in: scalars, colon: index) {
                units.append(.atom(emoji))
                index = end + 1
                continue
            }
            units.append(.scalar(scalars[index]))
            index += 1
        }
    }

    /// The Markdown of the `:name:` whose first colon is at `colon`, with its closing colon's
    /// index, when the name is a known emoji (or a custom emoji of the export).
    func shortcode(in scalars: [Unicode.Scalar], colon: Int) -> (String, Int)? {
        var end = colon + 1
        while end < scalars.count, scalars[end] != ":" {
            guard scalars[end].isASCII, ChatMarkup.isShortcodeByte(UInt8(scalars[end].value)) else { return nil }
            end += 1
        }
        guard end < scalars.count, end > colon + 1 else { return nil }
        var name = String(String.UnicodeScalarView(scalars[(colon + 1)..<end]))
        var closing = end
        // `:thumbsup::skin-tone-2:` is one emoji.
        if closing + 1 < scalars.count, scalars[closing + 1] == ":",
            let (tone, toneEnd) = skinTone(in: scalars, colon: closing + 1)
        {
            name += "::" + tone
            closing = toneEnd
        }
        guard let markdown = emojiMarkdown(name) else { return nil }
        return (markdown, closing)
    }

    /// `skin-tone-N` between the colon at `colon` and the next one, with that colon's index.
    func skinTone(in scalars: [Unicode.Scalar], colon: Int) -> (String, Int)? {
        let prefix = Array("skin-tone-".unicodeScalars)
        guard scalars.count > colon + prefix.count + 2,
            Array(scalars[(colon + 1)...(colon + prefix.count)]) == prefix
        else { return nil }
        var end = colon + prefix.count + 1
        while end < scalars.count, scalars[end] != ":" {
            guard scalars[end].isASCII, ChatMarkup.isShortcodeByte(UInt8(scalars[end].value)) else { return nil }
            end += 1
        }
        guard end < scalars.count else { return nil }
        return (String(String.UnicodeScalarView(scalars[(colon + 1)..<end])), end)
    }

    /// Units as Markdown: paired markers as Markdown's emphasis, everything else as text.
    static func render(_ units: [Unit]) -> String {
        let pairs = pairedMarkers(units)
        var out = ""
        var text = ""
        func flush() {
            guard !text.isEmpty else { return }
            out += ChatMarkup.escapeMarkdown(text)
            text = ""
        }
        var atLineStart = true
        for (index, unit) in units.enumerated() {
            switch unit {
            case .atom(let markdown):
                flush()
                out += markdown
                atLineStart = false
            case .block(let markdown):
                flush()
                out += markdown
                atLineStart = true
            case .scalar(let scalar):
                if pairs[index] {
                    flush()
                    out += scalar == "*" ? "**" : scalar == "~" ? "~~" : "_"
                } else if scalar == "\n" {
                    flush()
                    out += "  \n"  // chat apps keep line breaks
                } else if scalar == ">", atLineStart {
                    flush()
                    out += ">"  // a quote
                } else {
                    text.unicodeScalars.append(scalar)
                }
                atLineStart = scalar == "\n"
            }
        }
        flush()
        return out
    }

    /// Which units are emphasis markers that pair, by Slack's rules (see the type's comment).
    static func pairedMarkers(_ units: [Unit]) -> [Bool] {
        var paired = [Bool](repeating: false, count: units.count)
        // The open marker of each kind on this line: `*`, `_`, `~`.
        var open: [Unicode.Scalar: Int] = [:]
        func scalar(_ index: Int) -> Unicode.Scalar? {
            guard index >= 0, index < units.count, case .scalar(let scalar) = units[index] else { return nil }
            return scalar
        }
        /// Nothing, a space or a line break (a block counts as one).
        func isSpace(_ index: Int) -> Bool {
            guard index >= 0, index < units.count else { return true }
            switch units[index] {
            case .block: return true
            case .atom: return false
            case .scalar(let scalar): return scalar.properties.isWhitespace
            }
        }
        /// Nothing, a space, punctuation or a marker: where a marker may open or close.
        func isBoundary(_ index: Int) -> Bool {
            if isSpace(index) { return true }
            guard let scalar = scalar(index) else { return false }
            if scalar == "*" || scalar == "_" || scalar == "~" { return true }
            if scalar.isASCII { return ChatMarkup.asciiPunctuation.contains(UInt8(scalar.value)) }
            switch scalar.properties.generalCategory {
            case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                .initialPunctuation, .finalPunctuation, .otherPunctuation:
                return true
            default: return false
            }
        }
        for index in units.indices {
            switch units[index] {
            case .block:
                open = [:]
                continue
            case .atom: continue
            case .scalar(let marker):
                if marker == "\n" {
                    open = [:]
                    continue
                }
                guard marker == "*" || marker == "_" || marker == "~" else { continue }
                if let start = open[marker], index > start + 1, !isSpace(index - 1), isBoundary(index + 1) {
                    paired[start] = true
                    paired[index] = true
                    open[marker] = nil
                } else if open[marker] == nil, isBoundary(index - 1), !isSpace(index + 1), scalar(index + 1) != marker {
                    open[marker] = index
                }
            }
        }
        return paired
    }
}
