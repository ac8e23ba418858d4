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

    /// Which bound `markdown` exceeds, said for a warning; `nil` when it is within all of them.
    public static func exceededLimit(inMarkdown markdown: String) -> String? {
        if let size = exceededSize(markdown) { return size }
        var markdown = markdown
        return markdown.withUTF8 { bytes -> String? in
            var openers = 0
            var delimiters = 0
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
                    continue
                }
                switch bytes[index] {
                case UInt8(ascii: "["): openers += 1
                case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"): delimiters += 1
                case UInt8(ascii: "\n"), UInt8(ascii: "\r"): atLineStart = true
                default: break
                }
                index += 1
            }
            if openers > maximumLinkOpeners { return "it holds more than \(maximumLinkOpeners) '[' (links)" }
            if delimiters > maximumDelimiters {
                return "it holds more than \(maximumDelimiters) emphasis marks ('*', '_', '~')"
            }
            return nil
        }
    }

    /// Which bound `html` exceeds; `nil` when within them (the sanitizer bounds the rest).
    public static func exceededLimit(inHTML html: String) -> String? {
        exceededSize(html)
    }

    private static func exceededSize(_ text: String) -> String? {
        text.utf8.count > maximumBytes ? "it is over \(maximumBytes >> 20) MiB" : nil
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
