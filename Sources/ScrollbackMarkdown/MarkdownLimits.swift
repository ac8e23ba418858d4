import Foundation

/// Bounds on the Markdown and HTML of one message, checked before it reaches cmark-gfm or
/// libxml2, so no single message can stall a build.
///
/// cmark-gfm 0.29.0.gfm.6 (Debian's) has inputs that cost quadratic time: every closed link walks
/// back over all earlier `[` of its paragraph, and deeply nested containers are re-checked on
/// every line. libxml2 builds a tree of tens of bytes per input byte. A message over a bound is
/// not rendered: the reader warns (with the message's location) and shows its raw text, escaped.
public enum MarkdownLimits {
    /// The largest rich-text message (Markdown or HTML), in UTF-8 bytes.
    public static let maximumBytes = 1 << 20
    /// The deepest nesting of block containers (lists, block quotes) one line may open.
    public static let maximumNesting = 32
    /// The most link and image openers (`[`) a message may hold.
    public static let maximumLinkOpeners = 2_000
    /// The most emphasis and strikethrough delimiter characters (`*`, `_`, `~`) a message may hold.
    public static let maximumDelimiters = 20_000
    /// The most columns a table's delimiter row (`|---|:--:|`) may open. cmark-gfm's HTML renderer
    /// finds each cell's column by walking its row from the first cell, so a row costs the square
    /// of its columns (50,000 columns: 31 s). A table a person reads in a chat has a handful.
    public static let maximumTableColumns = 100
    /// The most autolink candidates (an `@` between address characters, `://`, `www.`) a message
    /// may hold. The autolink extension splits its text node at every link it makes and scans
    /// the rest again (1 MB of `a@`: 10.7 s). A message of links is tens, a pasted list hundreds.
    public static let maximumAutolinkCandidates = 5_000
    /// The most autolink candidates times the message's bytes: each candidate costs a pass over
    /// the text after it, so 500 of them before a megabyte of text took 2.3 s, 5,000 in 100 KB
    /// 0.3 s. Under this bound a 1 MB message may hold 128 of them, a 20 KB one all 5,000.
    public static let maximumAutolinkWork = 1 << 27

    /// Which bound `markdown` exceeds, said for a warning; `nil` when it is within all of them.
    public static func exceededLimit(inMarkdown markdown: String) -> String? {
        if let size = exceededSize(markdown) { return size }
        var markdown = markdown
        return markdown.withUTF8 { bytes -> String? in
            var openers = 0
            var delimiters = 0
            var autolinks = 0
            var atLineStart = true
            var index = 0
            let count = bytes.count
            while index < count {
                if atLineStart {
                    atLineStart = false
                    let depth = containerDepth(bytes, from: &index)
                    if depth > maximumNesting {
                        return "it nests more than \(maximumNesting) lists or quotes"
                    }
                    if delimiterRowColumns(bytes, from: index) > maximumTableColumns {
                        return "its table has more than \(maximumTableColumns) columns"
                    }
                    continue
                }
                switch bytes[index] {
                case UInt8(ascii: "["): openers += 1
                case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"): delimiters += 1
                case UInt8(ascii: "\n"), UInt8(ascii: "\r"): atLineStart = true
                default: if isAutolinkCandidate(bytes, at: index) { autolinks += 1 }
                }
                index += 1
            }
            if openers > maximumLinkOpeners { return "it holds more than \(maximumLinkOpeners) '[' (links)" }
            if delimiters > maximumDelimiters {
                return "it holds more than \(maximumDelimiters) emphasis marks ('*', '_', '~')"
            }
            if autolinks > maximumAutolinkCandidates {
                return "it holds more than \(maximumAutolinkCandidates) addresses or links to autolink"
            }
            if autolinks * count > maximumAutolinkWork {
                return "it holds \(autolinks) addresses or links to autolink in \(count >> 10) KiB"
            }
            return nil
        }
    }

    /// A whole Markdown document (a Markdown log) with its pathological blocks made plain: a line
    /// nesting more than `maximumNesting` containers, or a table delimiter row of more than
    /// `maximumTableColumns` columns, gets its first character escaped (`\-`, `\|`), and a
    /// paragraph (lines up to a blank one) with more than `maximumLinkOpeners` `[` gets each
    /// escaped (`\[`), so cmark-gfm reads them as text in linear time. Line numbers stay
    /// the same. Returns the text and, for each change, its 1-based line and why.
    public static func neutralisingPathologicalBlocks(
        _ markdown: String
    ) -> (
        text: String, changes: [(line: Int, reason: String)]
    ) {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        var changes: [(line: Int, reason: String)] = []
        var output: [Substring] = []
        output.reserveCapacity(lines.count)
        var paragraphStart = 0
        var openers = 0
        func closeParagraph(before end: Int) {
            defer {
                paragraphStart = end + 1
                openers = 0
            }
            guard openers > maximumLinkOpeners else { return }
            for index in paragraphStart..<end {
                output[index] = Substring(output[index].replacingOccurrences(of: "[", with: "\\["))
            }
            changes.append((paragraphStart + 1, "a paragraph holds more than \(maximumLinkOpeners) '[' (links)"))
        }
        for (index, line) in lines.enumerated() {
            if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {
                output.append(line)
                closeParagraph(before: index)
                continue
            }
            openers += line.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "[") ? 1 : 0) }
            var text = String(line)
            let (depth, columns) = text.withUTF8 { bytes -> (Int, Int) in
                var position = 0
                let depth = containerDepth(bytes, from: &position)
                return (depth, delimiterRowColumns(bytes, from: position))
            }
            let reason =
                depth > maximumNesting
                ? "it nests more than \(maximumNesting) lists or quotes"
                : columns > maximumTableColumns ? "its table has more than \(maximumTableColumns) columns" : nil
            if let reason, let first = text.firstIndex(where: { $0 != " " && $0 != "\t" }) {
                // An escaped first character: no longer a list or quote marker, nor a delimiter row.
                text.insert("\\", at: first)
                changes.append((index + 1, reason))
            }
            output.append(Substring(text))
        }
        closeParagraph(before: lines.count)
        guard !changes.isEmpty else { return (markdown, []) }
        return (output.joined(separator: "\n"), changes.sorted { $0.line < $1.line })
    }

    /// Which bound `html` exceeds; `nil` when within them (the sanitizer bounds the rest).
    public static func exceededLimit(inHTML html: String) -> String? {
        exceededSize(html)
    }

    private static func exceededSize(_ text: String) -> String? {
        text.utf8.count > maximumBytes ? "it is over \(maximumBytes >> 20) MiB" : nil
    }

    /// How many columns the line from `index` opens when it is a GFM table delimiter row (only
    /// `|`, `-`, `:`, spaces and tabs, with a `-` and a `|`): its cells between pipes, the empty
    /// ones at either end not counted. 0 for any other line.
    static func delimiterRowColumns(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
        var pipes = 0
        var hasDash = false
        var cellOpen = false
        var cells = 0
        var position = index
        while position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D {
            switch bytes[position] {
            case UInt8(ascii: "|"):
                pipes += 1
                if cellOpen { cells += 1 }
                cellOpen = false
            case UInt8(ascii: "-"), UInt8(ascii: ":"):
                hasDash = hasDash || bytes[position] == UInt8(ascii: "-")
                cellOpen = true
            case 0x20, 0x09: break
            default: return 0
            }
            position += 1
        }
        if cellOpen { cells += 1 }
        return pipes > 0 && hasDash ? cells : 0
    }

    /// Whether the byte at `index` starts something the GFM autolink extension tries to make a
    /// link of: an `@` with an address character on each side, the `:` of `://`, or `www.`.
    static func isAutolinkCandidate(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let count = bytes.count
        func isAddressByte(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) || byte == 0x2E
                || byte == 0x2D || byte == 0x5F || byte == 0x2B
        }
        switch bytes[index] {
        case UInt8(ascii: "@"):
            return index > 0 && index + 1 < count && isAddressByte(bytes[index - 1]) && isAddressByte(bytes[index + 1])
        case UInt8(ascii: ":"):
            return index + 2 < count && bytes[index + 1] == UInt8(ascii: "/") && bytes[index + 2] == UInt8(ascii: "/")
        case UInt8(ascii: "w"):
            return index + 3 < count && bytes[index + 1] == UInt8(ascii: "w") && bytes[index + 2] == UInt8(ascii: "w")
                && bytes[index + 3] == UInt8(ascii: ".")
        default:
            return false
        }
    }

    /// How many block containers (`>`, `-`/`+`/`*` and `1.`/`1)` list markers, with the spaces
    /// around them) the line at `index` opens; moves `index` past them.
    private static func containerDepth(_ bytes: UnsafeBufferPointer<UInt8>, from index: inout Int) -> Int {
        var depth = 0
        let count = bytes.count
        while index < count {
            var spaces = 0
            while index < count, bytes[index] == 0x20 || bytes[index] == 0x09 {
                spaces += 1
                index += 1
            }
            guard index < count else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") {
                depth += 1
                index += 1
                continue
            }
            if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "*") {
                guard
                    index + 1 >= count || bytes[index + 1] == 0x20 || bytes[index + 1] == 0x09
                        || bytes[index + 1] == 0x0A
                else { break }
                depth += 1 + spaces / 2
                index += 1
                continue
            }
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                var end = index
                while end < count, end - index < 9, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9") {
                    end += 1
                }
                guard end < count, bytes[end] == UInt8(ascii: ".") || bytes[end] == UInt8(ascii: ")"),
                    end + 1 >= count || bytes[end + 1] == 0x20 || bytes[end + 1] == 0x09
                else { break }
                depth += 1 + spaces / 2
                index = end + 1
                continue
            }
            break
        }
        return depth
    }
}
