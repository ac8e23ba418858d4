import CCMarkGFM
import Foundation

/// The process-wide state every use of cmark-gfm shares: extension registration and the parse lock.
///
/// cmark-gfm's inline parser switches entries of a process-global table of special characters
/// on and off around each parse (`cmark_manage_extensions_special_characters`), so two parses
/// running at the same time corrupt each other's view of `~`, `|`, `:` and `w`. Every parse in
/// this module therefore runs under `parseLock`. Rendering a finished tree touches no global
/// state and runs without it.
enum CMarkEnvironment {
    /// Serializes every cmark-gfm parse in the process (take it with `lockParse`).
    static let parseLock = NSLock()

    /// Takes `parseLock`, trying it for a while before sleeping on it: one message's parse is
    /// shorter than a thread's sleep and wake-up, so with every core parsing, waiting in the
    /// kernel costs more than the wait itself.
    static func lockParse() {
        for _ in 0..<1_000 where parseLock.try() { return }
        parseLock.lock()
    }

    /// The GFM extensions every parser gets, in the order they are attached.
    static let extensionNames = ["table", "strikethrough", "autolink", "tagfilter", "tasklist"]

    /// Parse options: none besides the defaults. Safe mode is cmark-gfm's default (no
    /// `CMARK_OPT_UNSAFE`), footnotes stay off.
    static let parseOptions: Int32 = CMARK_OPT_DEFAULT

    /// Render options: safe mode (raw HTML omitted, `javascript:`/`vbscript:`/`file:`/`data:`
    /// links dropped) and hard breaks, because a chat message keeps the line breaks its author typed.
    static let renderOptions: Int32 = CMARK_OPT_DEFAULT | CMARK_OPT_HARDBREAKS

    /// Registers the core extensions exactly once (Swift runs a global's initializer once, thread-safely).
    private static let registration: Void = {
        cmark_gfm_core_extensions_ensure_registered()
    }()

    /// Creates a parser with every GFM extension attached. Call with `parseLock` held.
    static func makeParser() -> OpaquePointer {
        _ = registration
        guard let parser = cmark_parser_new(parseOptions) else {
            fatalError("cmark-gfm could not allocate a parser")
        }
        for name in extensionNames {
            guard let syntaxExtension = cmark_find_syntax_extension(name) else {
                fatalError("cmark-gfm extension '\(name)' is not registered")
            }
            cmark_parser_attach_syntax_extension(parser, syntaxExtension)
        }
        return parser
    }

    /// The one parser every parse reuses (guarded by `parseLock`). `cmark_parser_finish` resets
    /// a parser to a fresh state that keeps only its options and attached extensions, so reusing
    /// it parses exactly as a new parser would, without rebuilding the extension list each time.
    /// Never freed: its extension list is shared by every document's renderer.
    nonisolated(unsafe) private static let sharedParser: OpaquePointer = makeParser()

    /// The extension list of `sharedParser`, which `cmark_render_html` needs (the tag filter only
    /// runs when it is passed). Read once; the list itself is never changed after set-up.
    nonisolated(unsafe) static let sharedExtensions: UnsafeMutablePointer<cmark_llist>? = {
        parseLock.lock()
        defer { parseLock.unlock() }
        return cmark_parser_get_syntax_extensions(sharedParser)
    }()

    /// Parses `markdown` into a tree and returns the document root; the caller frees it.
    /// Render it with `sharedExtensions`.
    static func parse(_ markdown: String) -> OpaquePointer {
        _ = sharedExtensions
        lockParse()
        defer { parseLock.unlock() }
        let parser = sharedParser
        var text = markdown
        text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress { cmark_parser_feed(parser, base, chars.count) }
            }
        }
        guard let root = cmark_parser_finish(parser) else {
            fatalError("cmark-gfm could not finish a parse")
        }
        return root
    }

    /// Takes ownership of a C string cmark-gfm allocated, frees it, and returns its text.
    static func consume(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
