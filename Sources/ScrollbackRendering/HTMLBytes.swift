// Writing HTML straight into a page's byte buffer (`[UInt8]`).
//
// Pages end up as bytes; building rows as `String`s first cost a conversion per page and, on
// every `+=`, String's capacity, ASCII-flag and breadcrumb bookkeeping (about a tenth of a
// build). Rows are now appended as UTF-8 bytes to one buffer per page, reused from page to page.

/// Appends the UTF-8 bytes of a literal (markup written by the renderer, never log text).
@inline(__always)
func += (output: inout [UInt8], literal: StaticString) {
    literal.withUTF8Buffer { output.append(contentsOf: $0) }
}

/// Appends `html`, markup that is already safe (rendered rows, linkified or sanitized text), as it is.
@inline(__always)
func raw(_ html: String, _ output: inout [UInt8]) {
    var html = html
    html.withUTF8 { output.append(contentsOf: $0) }
}

/// Appends `text` escaped as Mustache's `{{ }}` does (`HTMLText.escape`).
@inline(__always)
func esc(_ text: String, _ output: inout [UInt8]) {
    HTMLText.appendEscaped(text, to: &output)
}

/// Appends `value` in decimal, as `String(value)` writes it.
func appendDecimal(_ value: Int, _ output: inout [UInt8]) {
    if value >= 0 && value < 10 {
        output.append(UInt8(ascii: "0") + UInt8(value))
        return
    }
    raw(String(value), &output)
}

extension String {
    /// A string of `bytes`, which are valid UTF-8 (the renderer wrote them).
    init(htmlBytes bytes: [UInt8]) {
        self = String(decoding: bytes, as: UTF8.self)
    }
}
