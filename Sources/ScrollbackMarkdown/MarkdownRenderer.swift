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
/// STUB: to be replaced by the real cmark-gfm wrapper.
public struct MarkdownRenderer: Sendable {
    /// Creates a renderer.
    public init() {}

    /// Renders `markdown`. `imageURL` maps each image destination to the URL the page should use,
    /// or `nil` to drop the image (its alt text stays).
    public func render(_ markdown: String, imageURL: (String) -> String? = { $0 }) -> RenderedMarkdown {
        RenderedMarkdown(html: "<p>STUB</p>", plainText: markdown)
    }
}
