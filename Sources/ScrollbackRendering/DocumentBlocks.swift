import Foundation

/// The code blocks and tables of a document-style message (an AI answer, issue 42.5), made
/// readable on a phone: each code block gets a bar with its language and a copy button (shown
/// by `assets/code.js`; hidden without script) and scrolls sideways in its own box that the
/// keyboard can reach (`tabindex=0`, axe `scrollable-region-focusable`); each table scrolls in
/// a focusable region of its own, so nothing widens the page.
///
/// It works on the reader's sanitized HTML (cmark-gfm's or the libxml2 sanitizer's output),
/// which writes these elements' start tags in exactly one form: `<pre>` with no attribute,
/// `<code class="language-…">` (the only class the sanitizer keeps) and `<table>`; text never
/// holds a raw `<`. So the tags are found by their exact bytes, not parsed.
enum DocumentBlocks {
    /// `html` with its code blocks and tables wrapped; `hasCode` when it has a code block.
    static func decorate(_ html: String) -> (html: String, hasCode: Bool) {
        guard html.contains("<pre>") || html.contains("<table>") else { return (html, false) }
        var out = ""
        out.reserveCapacity(html.utf8.count + 256)
        var hasCode = false
        var rest = html[...]
        while let open = rest.firstRange(of: "<") {
            out += rest[..<open.lowerBound]
            let tail = rest[open.lowerBound...]
            if tail.hasPrefix("<pre>") {
                hasCode = true
                let afterPre = tail.dropFirst("<pre>".count)
                let language = Self.language(atStartOf: afterPre)
                out += "<div class=\"code\" data-part=\"code\"><div class=\"code-h\"><span class=\"code-l\">"
                out += language ?? "Code"
                out += "</span><button type=\"button\" class=\"copy\" hidden>Copy</button></div><pre tabindex=\"0\">"
                rest = afterPre
            } else if tail.hasPrefix("</pre>") {
                out += "</pre></div>"
                rest = tail.dropFirst("</pre>".count)
            } else if tail.hasPrefix("<table>") {
                out += "<div class=\"tbl\" role=\"region\" tabindex=\"0\" aria-label=\"Table\"><table>"
                rest = tail.dropFirst("<table>".count)
            } else if tail.hasPrefix("</table>") {
                out += "</table></div>"
                rest = tail.dropFirst("</table>".count)
            } else {
                out += "<"
                rest = tail.dropFirst()
            }
        }
        out += rest
        return (out, hasCode)
    }

    /// The language of a `<code class="language-x">` that starts `html`, if any: letters,
    /// digits and `+#._-` only (the sanitizer's rule), so it is safe to print as it is.
    static func language(atStartOf html: Substring) -> String? {
        let prefix = "<code class=\"language-"
        guard html.hasPrefix(prefix) else { return nil }
        let name = html.dropFirst(prefix.count).prefix { $0 != "\"" }
        guard !name.isEmpty, name.count <= 40,
            name.unicodeScalars.allSatisfy({
                ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || "+#._-".unicodeScalars.contains($0)
            })
        else { return nil }
        return String(name)
    }
}
