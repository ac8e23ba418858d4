import Foundation

/// WhatsApp's message formatting (`*bold*`, `_italic_`, `~strike~`, ```` ```mono``` ````,
/// `` `code` ``) as Markdown for cmark-gfm's safe renderer, so it shows as formatting and never
/// as raw markers; everything else in the text is escaped (`ChatMarkup`) and stays text.
///
/// WhatsApp's rule, not Markdown's: a marker opens after the start, a space or punctuation and
/// before a character that is not a space; it closes at the next same marker of that line that
/// follows a character that is not a space and comes before the end, a space or punctuation.
/// So `*Bold!*`, `~gone.~` and `(_see_)` are formatted, `2*3*4` and `snake_case` are not.
enum WhatsAppFormatting {
    /// The body as Markdown, or `nil` when it holds no formatting marker (then it stays plain text).
    static func markdown(_ body: String) -> String? {
        guard
            body.utf8.contains(where: {
                $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "`")
            })
        else { return nil }
        var out = ""
        var rest = Substring(body)
        while !rest.isEmpty {
            if rest.hasPrefix("```"), let end = rest.dropFirst(3).range(of: "```"),
                end.lowerBound > rest.index(rest.startIndex, offsetBy: 3)
            {
                let code = String(rest[rest.index(rest.startIndex, offsetBy: 3)..<end.lowerBound])
                out += code.contains("\n") ? ChatMarkup.codeBlock(code) : ChatMarkup.codeSpan(code)
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("`"), !rest.hasPrefix("```"), let end = rest.dropFirst().firstIndex(of: "`"),
                end > rest.index(after: rest.startIndex), !rest[rest.index(after: rest.startIndex)..<end].contains("\n")
            {
                out += ChatMarkup.codeSpan(String(rest[rest.index(after: rest.startIndex)..<end]))
                rest = rest[rest.index(after: end)...]
            } else {
                // Up to the next backtick that may open code (at least one character of text).
                let next = rest.dropFirst().firstIndex(of: "`") ?? rest.endIndex
                out += emphasis(String(rest[rest.startIndex..<next]))
                rest = rest[next...]
            }
        }
        return out
    }

    /// `text` (no code in it) with WhatsApp's paired markers as Markdown emphasis and every
    /// other character Markdown or HTML would read escaped; line breaks stay line breaks and
    /// `>` at a line start stays a quote.
    static func emphasis(_ text: String) -> String {
        var steps = 0
        return emphasis(text, steps: &steps)
    }

    /// `emphasis(_:)`, adding to `steps` one for each byte looked at and each cursor moved: the
    /// work the tests bound by the text's length (linear on any input), not by the time it takes.
    static func emphasis(_ text: String, steps: inout Int) -> String {
        let bytes = Array(text.utf8)
        // Where each kind of marker may close, and where lines end, in order: openers are taken
        // left to right, so one forward pointer per list finds each opener's closer (linear time
        // on any input, however many markers never close).
        let kinds: [UInt8] = [UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~")]
        var closers: [[Int]] = [[], [], []]
        var lineEnds: [Int] = []
        for (offset, byte) in bytes.enumerated() {
            steps += 1
            if byte == UInt8(ascii: "\n") { lineEnds.append(offset) }
            if let kind = kinds.firstIndex(of: byte), closes(at: offset, in: bytes) { closers[kind].append(offset) }
        }
        lineEnds.append(bytes.count)
        var closerCursor = [0, 0, 0]
        var lineCursor = 0
        var pairedUntil = [-1, -1, -1]  // a kind's markers inside its own pair stay text
        var markdown: [Int: String] = [:]  // byte offset of a paired marker → its Markdown
        for (offset, byte) in bytes.enumerated() {
            steps += 1
            guard let kind = kinds.firstIndex(of: byte), offset > pairedUntil[kind], markdown[offset] == nil,
                opens(at: offset, in: bytes)
            else { continue }
            while lineEnds[lineCursor] < offset {
                lineCursor += 1
                steps += 1
            }
            while closerCursor[kind] < closers[kind].count, closers[kind][closerCursor[kind]] < offset + 2 {
                closerCursor[kind] += 1
                steps += 1
            }
            guard closerCursor[kind] < closers[kind].count else { continue }
            let close = closers[kind][closerCursor[kind]]
            guard close < lineEnds[lineCursor] else { continue }
            let mark = byte == UInt8(ascii: "*") ? "**" : byte == UInt8(ascii: "~") ? "~~" : "_"
            markdown[offset] = mark
            markdown[close] = mark
            pairedUntil[kind] = close
        }
        var out = ""
        out.reserveCapacity(bytes.count + 16)
        var runStart = 0
        var atLineStart = true
        func flush(_ end: Int) {
            guard runStart < end else { return }
            let run = String(decoding: bytes[runStart..<end], as: UTF8.self)
            var first = true
            for line in run.split(separator: "\n", omittingEmptySubsequences: false) {
                if !first {
                    out += "  \n"  // chat apps keep line breaks
                    atLineStart = true
                }
                first = false
                if atLineStart, line.hasPrefix(">") {
                    out += ">" + ChatMarkup.escapeMarkdown(String(line.dropFirst()))
                } else {
                    out += ChatMarkup.escapeMarkdown(String(line))
                }
                if !line.isEmpty { atLineStart = false }
            }
        }
        for offset in markdown.keys.sorted() {
            flush(offset)
            out += markdown[offset]!
            atLineStart = false
            runStart = offset + 1
        }
        flush(bytes.count)
        return out
    }

    private static func isMarker(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "*") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    /// A marker at `index` may open: after the start, a space or punctuation; before a
    /// character that is not a space (nor the same marker: `**` is no emphasis).
    private static func opens(at index: Int, in bytes: [UInt8]) -> Bool {
        guard isBoundary(scalar(before: index, in: bytes)), let next = scalar(at: index + 1, in: bytes) else {
            return false
        }
        return !next.properties.isWhitespace && next.value != UInt32(bytes[index])
    }

    /// A marker at `index` may close: after a character that is not a space; before the end, a
    /// space or punctuation.
    private static func closes(at index: Int, in bytes: [UInt8]) -> Bool {
        guard let before = scalar(before: index, in: bytes), !before.properties.isWhitespace else { return false }
        return isBoundary(scalar(at: index + 1, in: bytes))
    }

    /// The end of the text, a space, or a character that is neither a letter nor a digit.
    private static func isBoundary(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return true }
        let properties = scalar.properties
        if properties.isWhitespace { return true }
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark:
            return false
        default: return true
        }
    }

    /// The scalar starting at byte `offset` of valid UTF-8, if any.
    private static func scalar(at offset: Int, in bytes: [UInt8]) -> Unicode.Scalar? {
        guard offset >= 0, offset < bytes.count else { return nil }
        if bytes[offset] < 0x80 { return Unicode.Scalar(bytes[offset]) }
        var end = offset + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return String(decoding: bytes[offset..<end], as: UTF8.self).unicodeScalars.first
    }

    /// The scalar that ends just before byte `offset`, if any.
    private static func scalar(before offset: Int, in bytes: [UInt8]) -> Unicode.Scalar? {
        guard offset > 0, offset <= bytes.count else { return nil }
        var start = offset - 1
        while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return scalar(at: start, in: bytes)
    }
}
