/// The fields a saved web page offers for a link preview (Open Graph, Twitter cards, `<title>`).
///
/// Every field is plain text (trimmed, whitespace collapsed) taken from an attribute value or
/// a `<title>`'s text: never markup, never script. Callers still escape it like any other text.
public struct PageMetadata: Hashable, Sendable {
    /// `og:url`.
    public var url: String?
    /// `<link rel=canonical href>`.
    public var canonicalURL: String?
    /// `og:title`, else `twitter:title`, else `<title>`.
    public var title: String?
    /// `og:description`, else `twitter:description`, else `<meta name=description>`.
    public var description: String?
    /// `og:image`, else `twitter:image`, as written in the page (possibly relative).
    public var imageURL: String?
    /// `og:site_name`.
    public var siteName: String?

    /// Creates metadata.
    public init(
        url: String? = nil, canonicalURL: String? = nil, title: String? = nil, description: String? = nil,
        imageURL: String? = nil, siteName: String? = nil
    ) {
        self.url = url
        self.canonicalURL = canonicalURL
        self.title = title
        self.description = description
        self.imageURL = imageURL
        self.siteName = siteName
    }

    /// Reads the metadata of a saved HTML page given as text.
    public init(parsingPage html: String) {
        self.init(document: LibXML2Document(text: html))
    }

    /// Reads the metadata of a saved HTML page given as bytes of unknown encoding: libxml2
    /// follows a byte-order mark or `<meta charset>`; use this for files as saved by a browser.
    public init(parsingPageBytes bytes: [UInt8]) {
        // Valid UTF-8 is read as UTF-8 whatever the page claims; libxml2 would otherwise
        // default an undeclared page to Latin-1.
        if let text = String(validatingUTF8Bytes: bytes) {
            self.init(parsingPage: text)
        } else {
            self.init(document: bytes.withUnsafeBufferPointer { LibXML2Document(bytes: $0, forcingUTF8: false) })
        }
    }

    private init(document: LibXML2Document?) {
        self.init()
        guard let document else { return }
        var properties = MetaProperties()
        document.walk(
            enter: { node in
                guard node.kind == .element else { return false }
                properties.read(node)
                // Nothing we read can be inside these, and their text must never reach a field.
                return !["script", "style", "template", "noscript", "svg", "math", "title"].contains(node.name)
            }, leave: { _ in })
        url = properties.first(of: ["og:url"])
        canonicalURL = properties.canonicalURL
        title = properties.first(of: ["og:title", "twitter:title"]) ?? properties.documentTitle
        description = properties.first(of: ["og:description", "twitter:description", "description"])
        imageURL = properties.first(of: [
            "og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src",
        ])
        siteName = properties.first(of: ["og:site_name"])
    }
}

/// The `<meta>`, `<link rel=canonical>` and `<title>` values of a page, first one of each name.
private struct MetaProperties {
    /// Values by lowercased `property` or `name`, first occurrence only.
    private var values: [String: String] = [:]
    /// The first canonical link's `href`.
    private(set) var canonicalURL: String?
    /// The first `<title>` outside SVG and MathML, as text.
    private(set) var documentTitle: String?

    /// The first non-empty value among `names`, in that order of preference.
    func first(of names: [String]) -> String? {
        for name in names { if let value = values[name] { return value } }
        return nil
    }

    /// Takes what `element` offers.
    mutating func read(_ element: HTMLNode) {
        switch element.name {
        case "meta":
            let attributes = element.attributes
            func value(_ name: String) -> String? { attributes.first { $0.name == name }?.value }
            guard let key = value("property") ?? value("name"),
                let content = value("content").map(collapsingWhitespace), !content.isEmpty
            else { return }
            let normalizedKey = collapsingWhitespace(key).lowercased()
            if values[normalizedKey] == nil { values[normalizedKey] = content }
        case "link":
            guard canonicalURL == nil,
                let rel = element.attribute("rel"),
                rel.lowercased().split(whereSeparator: { $0.isWhitespace }).contains("canonical"),
                let href = element.attribute("href").map(collapsingWhitespace), !href.isEmpty
            else { return }
            canonicalURL = href
        case "title":
            guard documentTitle == nil, !element.ancestorNames.contains(where: { $0 == "svg" || $0 == "math" }) else {
                return
            }
            let text = collapsingWhitespace(element.textContent)
            if !text.isEmpty { documentTitle = text }
        default:
            break
        }
    }
}

extension String {
    /// The string these bytes spell, if they are valid UTF-8.
    fileprivate init?(validatingUTF8Bytes bytes: [UInt8]) {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: break loop
            case .error: return nil
            }
        }
        self.init(decoding: bytes, as: UTF8.self)
    }
}
