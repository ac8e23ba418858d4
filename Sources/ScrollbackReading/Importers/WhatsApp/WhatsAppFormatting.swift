import Foundation

/// WhatsApp's message formatting (`*bold*`, `_italic_`, `~strike~`, ```` ```mono``` ````,
/// `` `code` ``) as Markdown for cmark-gfm's safe renderer, so it shows as formatting and never
/// as raw markers; everything else in the text is escaped (`ChatMarkup`) and stays text.
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
                out += ChatMarkup.emphasis(String(rest[rest.startIndex..<next]))
                rest = rest[next...]
            }
        }
        return out
    }
}
