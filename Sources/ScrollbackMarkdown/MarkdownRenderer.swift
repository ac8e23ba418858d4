/// The HTML and plain text cmark-gfm made of a piece of Markdown.
public struct RenderedMarkdown: Hashable, Sendable {
    /// Safe HTML: raw HTML omitted, unsafe URLs dropped, tag filter applied.
    public var html: String
    /// The same text without markup, for excerpts.
    public var plainText: String

    /// Creates a result.
    public init(html: String, plainText: String) {
        self.html = html
        self.plainText = plainText
    }
}

/// Renders GitHub-flavoured Markdown (tables, strikethrough, autolinks, task lists) to safe HTML
/// through cmark-gfm.
///
/// Safe mode: raw HTML is omitted, `javascript:`, `vbscript:`, `file:` and `data:` (except
/// images) links are dropped, and the GFM tag filter is on. Soft line breaks render as `<br />`
/// because chat messages keep their line breaks. Parsing is serialized process-wide (cmark-gfm
/// keeps a global table), so the renderer is safe to call from any number of tasks.
public struct MarkdownRenderer: Sendable {
    /// Creates a renderer.
    public init() {}

    /// Renders `markdown`. `imageURL` maps each image destination to the URL the page should use,
    /// or `nil` to drop the image (its alt text stays).
    public func render(_ markdown: String, imageURL: (String) -> String? = { $0 }) -> RenderedMarkdown {
        MarkdownDocument(markdown).render(imageURL: imageURL)
    }
}
