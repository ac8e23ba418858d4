import Mustache

/// Makes swift-mustache escape `{{value}}` with `HTMLText.escape`, the one escaping function of
/// the renderer.
///
/// swift-mustache's own HTML escaping compares whole `Character`s, so a quote followed by a
/// combining mark (`"\u{301}`) is one character that matches no entry and goes out raw: a log could
/// close an attribute. `HTMLText.escape` works on bytes, and also replaces the code points HTML
/// forbids. Every template the library compiles, shipped or the site's, starts with `pragma`.
enum PageEscaping: MustacheContentType {
    case html

    /// The content-type name templates select with the pragma.
    static let name = "SCROLLBACK_HTML"

    /// Put in front of every template; registering the content type happens on first use.
    static var pragma: String {
        _ = registration
        return "{{% CONTENT_TYPE: \(name)}}"
    }

    private static let registration: Void = MustacheContentTypes.register(PageEscaping.html, named: name)

    func escapeText(_ text: String) -> String { HTMLText.escape(text) }
}
