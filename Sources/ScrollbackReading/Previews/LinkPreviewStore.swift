import Foundation
import ScrollbackHTML
import ScrollbackModel

/// What a saved page says about the link it was saved from: text only, never markup.
public struct LinkPreview: Hashable, Sendable {
    /// The URL the page names for itself (`og:url`, else `<link rel=canonical>`), as written.
    public var url: String
    /// `og:title`, `twitter:title` or `<title>`.
    public var title: String?
    /// `og:description`, `twitter:description` or `<meta name=description>`.
    public var teaser: String?
    /// `og:image` or `twitter:image`: an absolute URL when the page wrote one, or a path
    /// starting with `/` or `//` made absolute against `url`; a relative path (such as a
    /// browser's `page_files/cover.jpg`) is left as written, relative to `pageFile`.
    public var imageURL: String?
    /// `og:site_name`.
    public var siteName: String?
    /// The saved page the preview was read from.
    public var pageFile: URL

    /// Creates a preview.
    public init(
        url: String, title: String? = nil, teaser: String? = nil, imageURL: String? = nil, siteName: String? = nil,
        pageFile: URL
    ) {
        self.url = url
        self.title = title
        self.teaser = teaser
        self.imageURL = imageURL
        self.siteName = siteName
        self.pageFile = pageFile
    }
}

/// Preview data for links, from saved HTML pages in the input's `previews/` folder.
///
/// Each saved page (`*.html`, `*.htm`, directly in the folder) is read once with libxml2
/// (`PageMetadata`), on the first question, and matched to a URL by its `og:url` and its
/// `<link rel=canonical>`. URLs match after normalization (scheme and host lowercased,
/// fragment and trailing slash dropped). When two pages claim one URL, the first by file
/// name wins, so the result does not depend on directory order. No network access.
public final class LinkPreviewStore: @unchecked Sendable {
    /// The folder of saved pages.
    public let folder: URL
    /// Guards `loadedIndex`: log files are read on several threads and all share one store.
    private let lock = NSLock()
    /// Previews by normalized URL; `nil` until the first question.
    private var loadedIndex: [String: LinkPreview]?

    /// Saved pages larger than this are skipped: no real page needs more for its `<head>`.
    static let maximumPageSize = 16 << 20

    /// Creates a store reading the pages in `folder` (which may not exist).
    public init(folder: URL) {
        self.folder = folder
    }

    /// The preview for `url`, if a saved page describes it.
    public func linkPreview(for url: String) -> LinkPreview? {
        let index = self.index
        // Most inputs have no saved pages: then there is nothing to normalize the URL for.
        if index.isEmpty { return nil }
        return index[Self.normalizedURL(url)]
    }

    /// The preview for `url`, if a saved page describes it. `thumbnail` is left as the page's
    /// image URL text for the caller to resolve.
    public func preview(for url: String) -> (title: String?, teaser: String?, imageURL: String?, siteName: String?)? {
        linkPreview(for: url).map { ($0.title, $0.teaser, $0.imageURL, $0.siteName) }
    }

    private var index: [String: LinkPreview] {
        lock.lock()
        defer { lock.unlock() }
        if let loadedIndex { return loadedIndex }
        let built = Self.readPages(in: folder)
        loadedIndex = built
        return built
    }

    /// Reads every saved page of `folder` into an index by normalized URL.
    static func readPages(in folder: URL) -> [String: LinkPreview] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var index: [String: LinkPreview] = [:]
        for name in names.sorted() {
            let pathExtension = PathText.pathExtension(name).lowercased()
            guard pathExtension == "html" || pathExtension == "htm", !name.hasPrefix(".") else { continue }
            let file = folder.appendingPathComponent(name)
            // The page (and the `previews` folder) must resolve inside the input folder.
            guard InputContainment.resolves(file.path, inside: folder.deletingLastPathComponent().path),
                let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
                attributes[.type] as? FileAttributeType == .typeRegular,
                let size = attributes[.size] as? Int, size <= maximumPageSize,
                let data = FileManager.default.contents(atPath: file.path)
            else { continue }
            let metadata = PageMetadata(parsingPageBytes: [UInt8](data))
            guard let pageURL = metadata.url ?? metadata.canonicalURL else { continue }
            let preview = LinkPreview(
                url: pageURL, title: metadata.title, teaser: metadata.description,
                imageURL: metadata.imageURL.map { absoluteImageURL($0, pageURL: pageURL) },
                siteName: metadata.siteName, pageFile: file)
            for key in [metadata.url, metadata.canonicalURL].compactMap({ $0 }).map(normalizedURL)
            where index[key] == nil {
                index[key] = preview
            }
        }
        return index
    }

    /// `image` made absolute against `pageURL` when it starts with `//` or `/` (it names the
    /// page's host); anything else as written.
    static func absoluteImageURL(_ image: String, pageURL: String) -> String {
        guard image.hasPrefix("/"), let separator = pageURL.range(of: "://") else { return image }
        let scheme = pageURL[..<separator.lowerBound]
        if image.hasPrefix("//") { return scheme + ":" + image }
        let afterScheme = pageURL[separator.upperBound...]
        let host = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return scheme + "://" + host + image
    }

    /// The form URLs are compared in: trimmed, fragment dropped, scheme and host lowercased,
    /// trailing slashes of the path dropped (`HTTPS://Example.org/a/#x` → `https://example.org/a`).
    static func normalizedURL(_ url: String) -> String {
        var text = Substring(url.trimmingCharacters(in: .whitespacesAndNewlines))
        if let hash = text.firstIndex(of: "#") { text = text[..<hash] }
        var prefix = ""
        if let separator = text.range(of: "://") {
            let authorityEnd = text[separator.upperBound...].firstIndex { $0 == "/" || $0 == "?" } ?? text.endIndex
            prefix = text[..<authorityEnd].lowercased()
            text = text[authorityEnd...]
        }
        var path = text
        var query: Substring = ""
        if let questionMark = text.firstIndex(of: "?") {
            path = text[..<questionMark]
            query = text[questionMark...]
        }
        while path.hasSuffix("/") { path = path.dropLast() }
        return prefix + path + query
    }
}
