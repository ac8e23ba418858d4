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
    /// Serializes every cmark-gfm parse in the process.
    static let parseLock = NSLock()

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

    /// Parses `markdown` into a tree. Returns the parser (which owns the extension list the
    /// HTML renderer needs) and the document root; the caller frees both.
    static func parse(_ markdown: String) -> (parser: OpaquePointer, root: OpaquePointer) {
        parseLock.lock()
        defer { parseLock.unlock() }
        let parser = makeParser()
        var text = markdown
        text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress { cmark_parser_feed(parser, base, chars.count) }
            }
        }
        guard let root = cmark_parser_finish(parser) else {
            fatalError("cmark-gfm could not finish a parse")
        }
        return (parser, root)
    }

    /// Takes ownership of a C string cmark-gfm allocated, frees it, and returns its text.
    static func consume(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
