/// A sanitized HTML fragment and its text.
public struct SanitizedHTML: Hashable, Sendable {
    /// HTML holding only allow-listed elements and attributes.
    public var html: String
    /// The text content, for excerpts.
    public var plainText: String

    /// Creates a result.
    public init(html: String, plainText: String) {
        self.html = html
        self.plainText = plainText
    }
}

/// An allow-list HTML sanitizer built on libxml2's HTML parser.
///
/// The fragment is parsed into a tree by libxml2 (which decodes entities and repairs broken
/// markup the way a browser would, closely enough) and the output is written from that tree
/// by this type, never copied from the input: every text and attribute value is escaped here,
/// and only the elements and attributes below can appear.
///
/// - Kept: `p br strong b em i u s del ins mark small sub sup code pre kbd blockquote ul ol li
///   dl dt dd h1…h6 hr a img span div table caption thead tbody tfoot tr th td details summary`,
///   and `input type=checkbox` (task lists, always `disabled`). A `summary` is kept only as the
///   first child of a `details`; a `details` without one gets `<summary>Details</summary>`.
/// - Renamed to `div`: block containers such as `section`, `article`, `figure`, so their text
///   does not run together.
/// - Dropped with their content: scripts, styles, embedded documents and plugins, templates,
///   SVG and MathML, forms and their controls, media players, and everything of `<head>`.
/// - Microsoft Teams' `<emoji alt="👻">` is written as its `alt` text (the emoji itself), its
///   children left out: the element has no text of its own, so unwrapping it would lose the emoji.
/// - Anything else is unwrapped: its children are kept.
/// - Attributes: `a[href]` (http, https, mailto or `#fragment`; gets
///   `rel="nofollow noopener noreferrer"` unless it is a fragment), `img[src]` (http, https or
///   a relative path, passed through `imageURL`), `img[alt]`, numeric `img[width,height]`,
///   `ol[start]`, `td/th[colspan,rowspan]`, `td/th[align]` of left, center or right, and
///   `code[class]` when it is a language (`language-python`). Nothing else: no `on*`, `style`,
///   other `class`, `id` or `srcset`.
public struct HTMLSanitizer: Sendable {
    /// Creates a sanitizer with the default allow-list.
    public init() {}

    /// The element names its output may hold: the kept ones (the blocks it renames become `div`,
    /// one of them). For checks of the output, such as the fuzz target's.
    public static var outputElements: Set<String> { ElementPolicy.keptElements }

    /// Sanitizes `fragment`. `imageURL` maps each `<img src>` to the URL the page should use,
    /// or `nil` to drop the image (its `alt` text is kept as text). It is only called with an
    /// http(s) URL or a relative path, trimmed; other schemes are dropped before it.
    /// `droppedImageText`, given the source and `alt` of an image `imageURL` dropped, says what
    /// text stands in its place instead of the `alt` (an importer's "not in this export" chip).
    public func sanitize(
        _ fragment: String, imageURL: (String) -> String? = { $0 },
        droppedImageText: ((_ source: String, _ alt: String?) -> String?)? = nil
    ) -> SanitizedHTML {
        // An explicit <body> puts leading text in the body; without it libxml2 wraps it in an implied <p>.
        // Attributes past the limit never reach libxml2, whose parser is quadratic in them.
        guard let document = LibXML2Document(text: "<html><body>" + AttributeBound.limitingAttributes(in: fragment))
        else {
            return SanitizedHTML(html: "", plainText: "")
        }
        return withoutActuallyEscaping(imageURL) { imageURL in
            var writer = SanitizingWriter(imageURL: imageURL, droppedImageText: droppedImageText)
            document.walk(enter: { writer.enter($0) }, leave: { writer.leave($0) })
            return SanitizedHTML(
                html: String(decoding: writer.html, as: UTF8.self),
                plainText: collapsingWhitespace(String(decoding: writer.text, as: UTF8.self)))
        }
    }
}

/// What the sanitizer does with an element.
enum ElementPolicy: Equatable {
    /// Write it (under this name) with its allowed attributes, then its children.
    case keep(String)
    /// Leave the tag out and keep the children.
    case unwrap
    /// Leave it out with everything inside.
    case drop

    /// Elements written as they are.
    static let keptElements: Set<String> = [
        "p", "br", "strong", "b", "em", "i", "u", "s", "del", "ins", "mark", "small", "sub", "sup", "code",
        "pre", "kbd", "blockquote", "ul", "ol", "li", "dl", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6",
        "hr", "a", "img", "span", "div", "table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td",
        "details", "summary", "input",
    ]

    /// Block containers written as `div`, so that `<section>a</section><section>b</section>`
    /// does not read "ab".
    static let elementsRenamedToDiv: Set<String> = [
        "section", "article", "aside", "header", "footer", "main", "nav", "figure", "figcaption",
        "address", "center", "hgroup", "fieldset", "legend",
    ]

    /// Elements whose content is code, styling, an embedded document, a form or not text at all.
    static let droppedElements: Set<String> = [
        "script", "style", "iframe", "frame", "frameset", "noframes", "object", "embed", "applet", "param",
        "template", "noscript", "noembed", "svg", "math", "head", "title", "meta", "link", "base", "basefont",
        "bgsound", "form", "button", "select", "option", "optgroup", "datalist", "textarea", "keygen",
        "output", "audio", "video", "source", "track", "canvas", "map", "area", "portal", "slot", "xml",
    ]

    /// Elements that never have content.
    static let voidElements: Set<String> = ["br", "hr", "img", "input"]

    /// The policy for the element `name` (lowercase).
    static func forElement(_ name: String) -> ElementPolicy {
        if keptElements.contains(name) { return .keep(name) }
        if elementsRenamedToDiv.contains(name) { return .keep("div") }
        if droppedElements.contains(name) { return .drop }
        return .unwrap
    }

    /// Elements after which plain text needs a space, so words of separate blocks stay apart.
    static let textSeparatingElements: Set<String> = [
        "p", "br", "div", "li", "dt", "dd", "tr", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "hr",
        "pre", "blockquote", "ul", "ol", "dl", "table", "caption", "details", "summary", "body",
    ]
}

/// URL checks for `href` and `src`, matching how browsers find a URL's scheme.
enum URLPolicy {
    /// `value` as a browser reads it before parsing: leading and trailing C0 controls and
    /// spaces trimmed, tabs and line breaks removed (WHATWG URL standard).
    static func cleaned(_ value: String) -> String {
        let scalars = value.unicodeScalars
        let isTrimmed: (Unicode.Scalar) -> Bool = { $0.value <= 0x20 }
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
            let last = scalars.lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        var result = String.UnicodeScalarView()
        for scalar in scalars[first...last] where scalar != "\t" && scalar != "\n" && scalar != "\r" {
            result.append(scalar)
        }
        return String(result)
    }

    /// The lowercased scheme of `value`, or `nil` when it has none (a relative reference).
    ///
    /// Every control character and space is skipped, wherever it is: that removes more than
    /// browsers do, so whenever a browser sees a scheme this sees the same one
    /// ("java\tscript:" and "\u{1}javascript:" are both `javascript`).
    static func scheme(of value: String) -> String? {
        var scheme = ""
        for scalar in value.unicodeScalars {
            if scalar.value <= 0x20 || scalar.value == 0x7F { continue }
            if scalar == ":" { return scheme.isEmpty ? nil : scheme }
            let isLetter = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
            let isSchemeCharacter =
                isLetter || (!scheme.isEmpty && (("0"..."9").contains(scalar) || "+-.".unicodeScalars.contains(scalar)))
            guard isSchemeCharacter else { return nil }
            scheme.unicodeScalars.append(isLetter ? Unicode.Scalar(UInt8(scalar.value) | 0x20) : scalar)
        }
        return nil
    }

    /// The `href` to write for a link, or `nil` to drop it: http, https, mailto or `#fragment`.
    static func linkTarget(_ value: String) -> String? {
        let target = cleaned(value)
        switch scheme(of: target) {
        case "http", "https", "mailto": return target
        case nil: return target.hasPrefix("#") ? target : nil
        default: return nil
        }
    }

    /// The image reference to hand to the `imageURL` callback, or `nil` to drop it: an http(s)
    /// URL or a relative path. Scheme-relative `//host/…` is dropped: it would load from
    /// another host under whatever scheme the page has.
    static func imageSource(_ value: String) -> String? {
        let source = cleaned(value)
        if source.isEmpty { return nil }
        switch scheme(of: source) {
        case "http", "https": return source
        case nil:
            let start = source.unicodeScalars.prefix(2)
            if start.count == 2 && start.allSatisfy({ $0 == "/" || $0 == "\\" }) { return nil }
            // A colon in the first segment makes a relative reference ambiguous (RFC 3986 §4.2):
            // "`javascript:…" is no path a log means.
            let firstSegment = source.unicodeScalars.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            return firstSegment.contains(":") ? nil : source
        default: return nil
        }
    }

    /// `url` with the characters a URL cannot hold literally and that could be mistaken for
    /// markup (space, quotes, angle brackets, backtick) percent-encoded, as browsers do anyway.
    static func percentEncodingUnsafeCharacters(_ url: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in url.unicodeScalars {
            switch scalar {
            case " ": result.append(contentsOf: "%20".unicodeScalars)
            case "\"": result.append(contentsOf: "%22".unicodeScalars)
            case "'": result.append(contentsOf: "%27".unicodeScalars)
            case "<": result.append(contentsOf: "%3C".unicodeScalars)
            case ">": result.append(contentsOf: "%3E".unicodeScalars)
            case "`": result.append(contentsOf: "%60".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// `value` trimmed, if it is 1 to `maxDigits` ASCII digits.
    static func number(_ value: String, maxDigits: Int) -> String? {
        let trimmed = cleaned(value)
        guard !trimmed.isEmpty, trimmed.utf8.count <= maxDigits,
            trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return trimmed
    }
}

/// Writes the sanitized HTML and the plain text while `LibXML2Document.walk` visits the tree.
private struct SanitizingWriter {
    /// Sanitized HTML, as UTF-8.
    var html: [UInt8] = []
    /// Text content, as UTF-8, whitespace not yet collapsed.
    var text: [UInt8] = []
    /// For every element entered and not yet left: its end tag, or `nil` when it was unwrapped.
    private var endTags: [String?] = []
    /// How many of `endTags` are written elements.
    private var openElementCount = 0
    /// Written elements nest at most this deep; deeper ones are unwrapped (their text kept),
    /// so pathological input cannot make a page that browsers or later stages choke on.
    static let maximumDepth = 64
    private let imageURL: (String) -> String?
    /// What stands in for an image `imageURL` dropped (`nil`: its `alt`).
    private let droppedImageText: ((String, String?) -> String?)?
    /// Whether a `<details>` was just written and nothing inside it yet: HTML wants its
    /// `<summary>` first, so a log's summary is kept only there and one is written otherwise.
    private var summaryPending = false

    init(imageURL: @escaping (String) -> String?, droppedImageText: ((String, String?) -> String?)?) {
        self.imageURL = imageURL
        self.droppedImageText = droppedImageText
        html.reserveCapacity(256)
    }

    /// Writes what comes before `node`'s children; returns whether to visit them.
    mutating func enter(_ node: HTMLNode) -> Bool {
        switch node.kind {
        case .other:
            return false  // comments, processing instructions, doctype
        case .text:
            node.withTextBytes { bytes in
                if summaryPending, bytes.contains(where: { !Self.isHTMLWhitespace($0) }) { writeSummaryIfPending() }
                appendEscaped(bytes)
                text.append(contentsOf: bytes)
            }
            return false
        case .element:
            let name = node.name
            if name == "emoji", let alt = node.attribute("alt") {
                writeSummaryIfPending()
                appendEscaped(alt)
                text.append(contentsOf: alt.utf8)
                return false
            }
            if ElementPolicy.textSeparatingElements.contains(name) { text.append(UInt8(ascii: " ")) }
            let policy = ElementPolicy.forElement(name)
            if policy == .keep("summary") {
                guard summaryPending else {
                    endTags.append(nil)  // a summary anywhere but first in its details is just its text
                    return true
                }
                summaryPending = false
            } else if policy != .drop {
                writeSummaryIfPending()
            }
            switch policy {
            case .drop:
                return false
            case .unwrap:
                endTags.append(nil)
                return true
            case .keep(let tag):
                return writeKeptElement(tag, node)
            }
        }
    }

    /// Writes what comes after the children of an element `enter` descended into.
    mutating func leave(_ node: HTMLNode) {
        guard node.kind == .element, let endTag = endTags.popLast() else { return }
        if let endTag {
            if endTag == "details" { writeSummaryIfPending() }
            append("</\(endTag)>")
            openElementCount -= 1
        }
        if ElementPolicy.textSeparatingElements.contains(node.name) { text.append(UInt8(ascii: " ")) }
    }

    /// A code block's language as cmark-gfm writes it, `language-python`: kept so a rich text
    /// written back by `import` keeps its language label (issue 42.5); anything else in `class`
    /// is dropped, so no log can borrow the site's own classes.
    static func codeLanguageClass(_ value: String) -> String? {
        let prefix = "language-"
        guard value.hasPrefix(prefix) else { return nil }
        let name = value.utf8.dropFirst(prefix.utf8.count)
        guard (1...40).contains(name.count),
            name.allSatisfy({ byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || [UInt8(ascii: "+"), UInt8(ascii: "#"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-")]
                        .contains(byte)
            })
        else { return nil }
        return value
    }

    /// Writes an allowed element's start tag with its allowed attributes.
    private mutating func writeKeptElement(_ tag: String, _ node: HTMLNode) -> Bool {
        if openElementCount >= Self.maximumDepth && !ElementPolicy.voidElements.contains(tag) {
            endTags.append(nil)
            return true
        }
        var attributes: [(String, String)] = []
        switch tag {
        case "a":
            guard let href = node.attribute("href").flatMap(URLPolicy.linkTarget) else {
                endTags.append(nil)  // an anchor without a safe target is just its text
                return true
            }
            attributes.append(("href", URLPolicy.percentEncodingUnsafeCharacters(href)))
            if !href.hasPrefix("#") { attributes.append(("rel", "nofollow noopener noreferrer")) }
        case "img":
            writeImage(node)
            return false
        case "input":
            guard let type = node.attribute("type"), URLPolicy.cleaned(type).lowercased() == "checkbox" else {
                return false
            }
            attributes.append(("type", "checkbox"))
            if node.attribute("checked") != nil { attributes.append(("checked", "")) }
            attributes.append(("disabled", ""))
        case "code":
            if let language = node.attribute("class").flatMap(Self.codeLanguageClass) {
                attributes.append(("class", language))
            }
        case "ol":
            if let start = node.attribute("start").flatMap({ URLPolicy.number($0, maxDigits: 9) }) {
                attributes.append(("start", start))
            }
        case "td", "th":
            if let align = node.attribute("align").map({ URLPolicy.cleaned($0).lowercased() }),
                ["left", "center", "right"].contains(align)
            {
                attributes.append(("align", align))
            }
            for span in ["colspan", "rowspan"] {
                if let value = node.attribute(span).flatMap({ URLPolicy.number($0, maxDigits: 3) }) {
                    attributes.append((span, value))
                }
            }
        default:
            break
        }
        writeStartTag(tag, attributes)
        if tag == "details" { summaryPending = true }
        if ElementPolicy.voidElements.contains(tag) { return false }
        endTags.append(tag)
        openElementCount += 1
        return true
    }

    /// Writes the summary a `<details>` lacks, when one was just opened.
    private mutating func writeSummaryIfPending() {
        guard summaryPending else { return }
        summaryPending = false
        append("<summary>Details</summary>")
    }

    @inline(__always) private static func isHTMLWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    /// Writes `<img>` if its source is allowed and `imageURL` keeps it, else its alt text as text.
    private mutating func writeImage(_ node: HTMLNode) {
        let alt = node.attribute("alt")
        let source = node.attribute("src").flatMap(URLPolicy.imageSource)
        let url = source.flatMap(imageURL)
        // The text is what the page shows: the alt, or what stands in for a dropped image.
        let shown = url == nil ? source.flatMap({ droppedImageText?($0, alt) }) ?? alt : alt
        if let shown {
            text.append(UInt8(ascii: " "))
            text.append(contentsOf: shown.utf8)
            text.append(UInt8(ascii: " "))
        }
        guard let url else {
            if let shown { appendEscaped(shown) }
            return
        }
        var attributes = [("src", URLPolicy.percentEncodingUnsafeCharacters(url))]
        if let alt { attributes.append(("alt", alt)) }
        for dimension in ["width", "height"] {
            if let value = node.attribute(dimension).flatMap({ URLPolicy.number($0, maxDigits: 5) }) {
                attributes.append((dimension, value))
            }
        }
        writeStartTag("img", attributes)
    }

    private mutating func writeStartTag(_ tag: String, _ attributes: [(String, String)]) {
        append("<" + tag)
        for (name, value) in attributes {
            append(" \(name)=\"")
            appendEscaped(value)
            append("\"")
        }
        append(">")
    }

    private mutating func append(_ markup: String) {
        html.append(contentsOf: markup.utf8)
    }

    private mutating func appendEscaped(_ value: String) {
        var value = value
        value.withUTF8 { appendEscaped($0) }
    }

    /// Appends text or an attribute value with `& < > " '` escaped, valid in both places.
    private mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        HTMLSanitizer.appendEscaped(bytes, to: &html)
    }
}

extension HTMLSanitizer {
    /// `text` with `& < > " '` escaped: safe as HTML text and as a quoted attribute value.
    /// For readers that build a fragment from an export's formatted text before sanitizing it.
    public static func escape(_ text: String) -> String {
        var text = text
        var html: [UInt8] = []
        text.withUTF8 { appendEscaped($0, to: &html) }
        return String(decoding: html, as: UTF8.self)
    }

    /// Appends `bytes` with `& < > " '` escaped: the one escaping loop of this module.
    static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to html: inout [UInt8]) {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "&"): html.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): html.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): html.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): html.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): html.append(contentsOf: "&#39;".utf8)
            default: html.append(byte)
            }
        }
    }
}

/// `text` with every run of whitespace turned into one space, and trimmed.
func collapsingWhitespace(_ text: String) -> String {
    var result = String.UnicodeScalarView()
    var pendingSpace = false
    for scalar in text.unicodeScalars {
        if scalar.properties.isWhitespace {
            pendingSpace = !result.isEmpty
        } else {
            if pendingSpace { result.append(" ") }
            pendingSpace = false
            result.append(scalar)
        }
    }
    return String(result)
}
