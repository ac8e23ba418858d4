import ScrollbackLayout
import ScrollbackModel

/// A file the renderer produced, with its path relative to the site root.
public struct RenderedFile: Sendable {
    /// Path inside the site, with `/` separators, e.g. `weekend-trip/index.html`.
    public var path: String
    /// The file's bytes.
    public var contents: [UInt8]

    /// Creates a file.
    public init(path: String, contents: [UInt8]) {
        self.path = path
        self.contents = contents
    }
}

/// Renders laid-out conversations and the index into pages through the templates.
///
/// STUB: to be replaced by the real renderer.
public struct SiteRenderer: Sendable {
    /// Creates a renderer.
    public init(config: SiteConfig) {}

    /// The pages of one conversation, and warnings (unknown custom renderers, …).
    public func renderConversation(_ layout: ConversationLayout) -> (files: [RenderedFile], diagnostics: [Diagnostic]) {
        ([], [])
    }

    /// The index page.
    public func renderIndex(_ summaries: [ConversationSummary]) -> RenderedFile {
        RenderedFile(path: "index.html", contents: [])
    }
}
