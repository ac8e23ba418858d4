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
/// STUB: to be replaced by the real libxml2 wrapper.
public struct HTMLSanitizer: Sendable {
    /// Creates a sanitizer with the default allow-list.
    public init() {}

    /// Sanitizes `fragment`. `imageURL` maps each `<img src>` to the URL the page should use,
    /// or `nil` to drop the image.
    public func sanitize(_ fragment: String, imageURL: (String) -> String? = { $0 }) -> SanitizedHTML {
        SanitizedHTML(html: "", plainText: fragment)
    }
}

/// The fields a saved web page offers for a link preview (Open Graph, Twitter cards, `<title>`).
public struct PageMetadata: Hashable, Sendable {
    /// `og:url`.
    public var url: String?
    /// `<link rel=canonical href>`.
    public var canonicalURL: String?
    /// `og:title`, else `twitter:title`, else `<title>`.
    public var title: String?
    /// `og:description`, else `twitter:description`, else `<meta name=description>`.
    public var description: String?
    /// `og:image`, else `twitter:image`.
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

    /// Reads the metadata of a saved HTML page. STUB.
    public init(parsingPage html: String) {
        self.init()
    }
}
