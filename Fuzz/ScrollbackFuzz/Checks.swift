// What every fuzz target checks besides "no crash": a time bound per input byte, and for HTML
// output, the sanitizer's safety property.
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// A generous bound on the work per input: `base` plus `perByte` for each input byte. A
/// quadratic path shows up as inputs a few kilobytes long that cross it (the fuzzers run with
/// AddressSanitizer in debug builds, hence the loose constants).
public enum FuzzBound {
    public static let baseNanoseconds: UInt64 = 2_000_000_000
    public static let perByteNanoseconds: UInt64 = 200_000

    /// Stops the run (a crash libFuzzer saves as a reproducer) when the work since `start` took
    /// longer than the bound for `bytes` input bytes.
    public static func check(start: UInt64, bytes: Int, what: String) {
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        let bound = baseNanoseconds + UInt64(bytes) * perByteNanoseconds
        if elapsed > bound {
            var message = "\(what) took \(elapsed / 1_000_000) ms for \(bytes) bytes (bound \(bound / 1_000_000) ms)\n"
            message.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
            abort()
        }
    }
}

/// Checks that sanitized HTML holds no script, no event handler and no `javascript:` (or other
/// non-allowed) URL: every tag is an allowed one, every attribute an allowed one, every URL of an
/// allowed scheme. The sanitizer escapes `& < > " '` in text and attribute values, so tags can
/// be read by scanning from `<` to `>`.
public enum SanitizedHTMLCheck {
    static let allowedTags: Set<String> = [
        "p", "br", "strong", "b", "em", "i", "u", "s", "del", "ins", "mark", "small", "sub", "sup", "code",
        "pre", "kbd", "blockquote", "ul", "ol", "li", "dl", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6",
        "hr", "a", "img", "span", "div", "table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td",
        "details", "summary", "input",
    ]
    static let allowedAttributes: Set<String> = [
        "href", "rel", "src", "alt", "width", "height", "start", "colspan", "rowspan", "align", "type", "checked",
        "disabled",
    ]

    /// The first violation in `html`, or `nil`.
    public static func violation(in html: String) -> String? {
        let bytes = Array(html.utf8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                if bytes[index] == UInt8(ascii: ">") { return "a raw '>' in text" }
                index += 1
                continue
            }
            guard let end = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else { return "an unclosed tag" }
            let tag = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
            index = end + 1
            if tag.hasPrefix("/") {
                guard allowedTags.contains(String(tag.dropFirst())) else { return "end tag \(tag)" }
                continue
            }
            if let problem = check(tag) { return problem }
        }
        return nil
    }

    /// The scheme a browser reads in an attribute value (WHATWG URL: leading and trailing C0
    /// controls and spaces trimmed, tabs and line breaks removed, then `alpha *(alnum / + - .) :`),
    /// lowercased; `nil` for a relative reference.
    static func browserScheme(of value: Substring) -> String? {
        let isTrimmed: (Unicode.Scalar) -> Bool = { $0.value <= 0x20 }
        let scalars = value.unicodeScalars.drop(while: isTrimmed).filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
        var scheme = ""
        for scalar in scalars {
            if scalar == ":" { return scheme.isEmpty ? nil : scheme.lowercased() }
            guard scalar.isASCII else { return nil }
            let isLetter = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
            let isOther = ("0"..."9").contains(scalar) || scalar == "+" || scalar == "-" || scalar == "."
            guard isLetter || (!scheme.isEmpty && isOther) else { return nil }
            scheme.unicodeScalars.append(scalar)
        }
        return nil
    }

    /// The first way `html` could run script, or `nil`: a `<script` tag, an `on…=` event
    /// handler attribute, or an `href`/`src` whose scheme is `javascript:`, `vbscript:` or
    /// `data:`. For HTML from cmark-gfm (rich text of the readers), whose tags and attributes
    /// are cmark's own and not the sanitizer's allow-list.
    public static func scriptViolation(in html: String) -> String? {
        let bytes = Array(html.lowercased().utf8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            let end = bytes[index...].firstIndex(of: UInt8(ascii: ">")) ?? bytes.count
            let tag = String(decoding: bytes[index..<end], as: UTF8.self)
            index = end
            if tag.hasPrefix("<script") { return "a script tag" }
            // Attribute values are quoted and escaped: split outside quotes.
            var inQuote = false
            var previous: Character = " "
            var attributeStart = tag.startIndex
            for position in tag.indices {
                let character = tag[position]
                if character == "\"" { inQuote.toggle() }
                if !inQuote, previous.isWhitespace || previous == "/", !character.isWhitespace {
                    attributeStart = position
                    let rest = tag[attributeStart...]
                    if rest.hasPrefix("on"), let equals = rest.firstIndex(of: "="),
                        rest[..<equals].allSatisfy({ $0.isLetter })
                    {
                        return "event handler in \(tag)"
                    }
                    for name in ["href=\"", "src=\""] where rest.hasPrefix(name) {
                        let value = rest.dropFirst(name.count).prefix { $0 != "\"" }
                            .filter { !$0.isWhitespace && !($0.asciiValue.map { $0 < 0x20 } ?? false) }
                        for scheme in ["javascript:", "vbscript:", "data:"] where value.hasPrefix(scheme) {
                            return "\(scheme) URL in \(tag)"
                        }
                    }
                }
                previous = character
            }
        }
        return nil
    }

    /// Checks one start tag's text (between `<` and `>`): `name attr="value" …`.
    private static func check(_ tag: String) -> String? {
        var rest = Substring(tag)
        let name = rest.prefix { $0 != " " }
        guard allowedTags.contains(String(name)) else { return "tag <\(name)>" }
        rest = rest.dropFirst(name.count)
        while !rest.isEmpty {
            guard rest.first == " " else { return "junk in <\(tag)>" }
            rest = rest.dropFirst()
            let attribute = rest.prefix { $0 != "=" }
            guard allowedAttributes.contains(String(attribute)) else { return "attribute \(attribute) in <\(name)>" }
            rest = rest.dropFirst(attribute.count)
            guard rest.hasPrefix("=\"") else { return "unquoted value in <\(tag)>" }
            rest = rest.dropFirst(2)
            guard let close = rest.firstIndex(of: "\"") else { return "unterminated value in <\(tag)>" }
            let value = rest[..<close]
            rest = rest[rest.index(after: close)...]
            if attribute == "href" || attribute == "src", let scheme = browserScheme(of: value) {
                guard ["http", "https", "mailto"].contains(scheme) else { return "URL \(value)" }
            }
        }
        return nil
    }
}
