import CCMarkGFM
import Foundation

/// A parsed Markdown document: cmark-gfm's tree, seen from Swift as top-level `blocks`, and
/// renderable block range by block range to safe HTML.
///
/// The class owns the C tree and frees it in `deinit`; no C pointer leaves it. It is not
/// `Sendable`: use one document from one task at a time (parsing itself is serialized
/// process-wide, see `CMarkEnvironment`).
public final class MarkdownDocument {
    /// The top-level blocks, in source order (built on first use: rendering a whole document
    /// does not need them).
    public private(set) lazy var blocks: [MarkdownBlock] = blockNodes.map(Self.block)

    /// Whether the source holds `![`, without which cmark-gfm makes no image node (an image
    /// always opens with those two bytes); when it is false renders skip the image walk.
    private let mayHaveImages: Bool
    /// The extension list the HTML renderer needs (owned by the shared parser, never freed).
    private let extensions: UnsafeMutablePointer<cmark_llist>?
    /// The document node; owns the whole tree.
    private let root: OpaquePointer
    /// The C node of each entry of `blocks`.
    private lazy var blockNodes: [OpaquePointer] = Self.childNodes(of: root)

    /// Parses `markdown` (GFM: tables, strikethrough, autolinks, tag filter, task lists).
    public init(_ markdown: String) {
        self.root = CMarkEnvironment.parse(markdown)
        self.mayHaveImages = Self.containsImageOpener(markdown)
        self.extensions = CMarkEnvironment.sharedExtensions
    }

    deinit {
        cmark_node_free(root)
    }

    /// Renders the whole document.
    ///
    /// `imageURL` maps each image destination to the URL the page should use, or `nil` to
    /// replace the image by its alt text.
    public func render(imageURL: (String) -> String? = { $0 }) -> RenderedMarkdown {
        render(nodes: [root], imageURL: imageURL)
    }

    /// Renders the top-level blocks in `range` to safe HTML and collapsed plain text.
    ///
    /// With `droppingFirstLine`, when the first block of the range is a paragraph, its first
    /// line (the inlines up to and including the first soft or hard line break; all of them when
    /// there is none) is left out; a paragraph left empty is not rendered at all. This is how a
    /// chat log's message header line is cut from the message body.
    ///
    /// Rendering does not change the document: images and dropped lines are restored afterwards,
    /// so a range can be rendered again with other options.
    public func render(
        blocks range: Range<Int>, droppingFirstLine: Bool = false, imageURL: (String) -> String? = { $0 }
    ) -> RenderedMarkdown {
        precondition(range.lowerBound >= 0 && range.upperBound <= blockNodes.count, "block range out of bounds")
        guard !range.isEmpty else { return RenderedMarkdown(html: "", plainText: "") }
        var nodes = Array(blockNodes[range])
        var removed: [OpaquePointer] = []
        if droppingFirstLine, let first = nodes.first, cmark_node_get_type(first) == CMARK_NODE_PARAGRAPH {
            removed = Self.unlinkFirstLine(of: first)
            if cmark_node_first_child(first) == nil { nodes.removeFirst() }
        }
        defer {
            if let first = blockNodes[range].first {
                // Put the header line back, in its original order.
                for node in removed.reversed() { cmark_node_prepend_child(first, node) }
            }
        }
        return render(nodes: nodes, imageURL: imageURL)
    }

    /// How many syntax extensions the renderer gets (for tests: the tag filter only works when
    /// the parser's extension list reaches `cmark_render_html`).
    var attachedExtensionCount: Int {
        var count = 0
        var entry = extensions
        while let current = entry {
            count += 1
            entry = current.pointee.next
        }
        return count
    }

    // MARK: - Rendering

    /// Renders `nodes` one after the other, rewriting images for the duration of the render.
    private func render(nodes: [OpaquePointer], imageURL: (String) -> String?) -> RenderedMarkdown {
        var restorations: [ImageRestoration] = []
        if mayHaveImages {
            for node in nodes { rewriteImages(in: node, imageURL: imageURL, restorations: &restorations) }
        }
        for node in nodes { refuseDataLinks(in: node, restorations: &restorations) }
        defer { restore(restorations) }

        var html = ""
        var plain: [String] = []
        for node in nodes {
            html += CMarkEnvironment.consume(cmark_render_html(node, CMarkEnvironment.renderOptions, extensions))
            plain.append(Self.readableText(of: node))
        }
        let plainText = plain.count == 1 ? plain[0] : plain.joined(separator: "\n")
        return RenderedMarkdown(html: html, plainText: Self.collapsingWhitespace(plainText))
    }

    /// The text a reader sees in the rendered `node`, without Markdown syntax: literals of text
    /// and code, a space for every line break and between blocks (list items, table cells); no list
    /// markers, task boxes, emphasis marks or raw HTML (`cmark_render_plaintext` keeps the first two).
    private static func readableText(of node: OpaquePointer) -> String {
        var text = ""
        guard let iterator = cmark_iter_new(node) else { return text }
        defer { cmark_iter_free(iterator) }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard let current = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(current)
            if event == CMARK_EVENT_ENTER {
                switch type {
                case CMARK_NODE_TEXT, CMARK_NODE_CODE, CMARK_NODE_CODE_BLOCK:
                    text += string(cmark_node_get_literal(current))
                case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                    text += " "
                default: break
                }
            }
            // Blocks (extension blocks such as table cells included) end with a space, so words
            // of neighbouring blocks never run together.
            if event == CMARK_EVENT_EXIT || type == CMARK_NODE_CODE_BLOCK,
                type.rawValue & UInt32(CMARK_NODE_TYPE_MASK) == UInt32(CMARK_NODE_TYPE_BLOCK)
            {
                text += " "
            }
        }
        return text
    }

    /// What to undo after a render: an image's original URL, or the text node that stood in for it.
    private enum ImageRestoration {
        case url(image: OpaquePointer, original: String)
        case replaced(image: OpaquePointer, by: OpaquePointer)
    }

    /// Points every image under `node` at `imageURL(destination)`, or swaps it for a text node
    /// holding its alt text when that is `nil`.
    private func rewriteImages(
        in node: OpaquePointer, imageURL: (String) -> String?, restorations: inout [ImageRestoration]
    ) {
        var images: [OpaquePointer] = []
        guard let iterator = cmark_iter_new(node) else { return }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            if event == CMARK_EVENT_ENTER, let current = cmark_iter_get_node(iterator),
                cmark_node_get_type(current) == CMARK_NODE_IMAGE
            {
                images.append(current)
            }
        }
        cmark_iter_free(iterator)

        for image in images {
            let original = cmark_node_get_url(image).map { String(cString: $0) } ?? ""
            if let url = imageURL(original) {
                cmark_node_set_url(image, url)
                restorations.append(.url(image: image, original: original))
            } else if let text = cmark_node_new(CMARK_NODE_TEXT) {
                cmark_node_set_literal(text, Self.inlines(under: image).plainText)
                if cmark_node_replace(image, text) != 0 {
                    restorations.append(.replaced(image: image, by: text))
                } else {
                    cmark_node_free(text)
                }
            }
        }
    }

    /// Empties the destination of every link to a `data:` URL, as cmark-gfm's safe mode does for
    /// `javascript:`: its safe mode keeps `data:image/…` links, but no `data:` URL is allowed
    /// anywhere else in a page (media refuse them too), so none is here either.
    private func refuseDataLinks(in node: OpaquePointer, restorations: inout [ImageRestoration]) {
        guard let iterator = cmark_iter_new(node) else { return }
        var links: [OpaquePointer] = []
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            if event == CMARK_EVENT_ENTER, let current = cmark_iter_get_node(iterator),
                cmark_node_get_type(current) == CMARK_NODE_LINK
            {
                links.append(current)
            }
        }
        cmark_iter_free(iterator)
        for link in links {
            guard let url = cmark_node_get_url(link), Self.isDataURL(url) else { continue }
            let original = String(cString: url)
            cmark_node_set_url(link, "")
            restorations.append(.url(image: link, original: original))
        }
    }

    /// Whether the URL `url` (UTF-8, NUL-terminated) has the scheme `data:`, as a browser reads
    /// it: browsers skip leading controls and spaces, and tabs and line breaks anywhere. Byte by
    /// byte, so the common link costs no string: a byte of a non-ASCII character never matches.
    private static func isDataURL(_ url: UnsafePointer<CChar>) -> Bool {
        let scheme: StaticString = "data:"
        var matched = 0
        var index = 0
        while matched < scheme.utf8CodeUnitCount {
            let byte = UInt8(bitPattern: url[index])
            if byte == 0 { return false }
            index += 1
            if byte <= 0x20 { continue }
            let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            guard lowered == scheme.utf8Start[matched] else { return false }
            matched += 1
        }
        return true
    }

    /// Undoes `rewriteImages`, last change first.
    private func restore(_ restorations: [ImageRestoration]) {
        for restoration in restorations.reversed() {
            switch restoration {
            case .url(let image, let original):
                cmark_node_set_url(image, original)
            case .replaced(let image, let text):
                _ = cmark_node_replace(text, image)
                cmark_node_free(text)
            }
        }
    }

    /// Whether `markdown` contains the bytes `![`.
    private static func containsImageOpener(_ markdown: String) -> Bool {
        var markdown = markdown
        return markdown.withUTF8 { bytes in
            // `!` is rare: look for it, then at the byte after it.
            var index = 0
            while index + 1 < bytes.count {
                if bytes[index] == UInt8(ascii: "!"), bytes[index + 1] == UInt8(ascii: "[") { return true }
                index += 1
            }
            return false
        }
    }

    /// Unlinks the inlines of `paragraph` up to and including its first line break; returns them in order.
    private static func unlinkFirstLine(of paragraph: OpaquePointer) -> [OpaquePointer] {
        var removed: [OpaquePointer] = []
        while let child = cmark_node_first_child(paragraph) {
            let type = cmark_node_get_type(child)
            cmark_node_unlink(child)
            removed.append(child)
            if type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK { break }
        }
        return removed
    }

    /// Turns runs of whitespace into one space and trims the ends.
    ///
    /// ASCII text (the common case) is scanned byte by byte; its whitespace is exactly
    /// `Character.isWhitespace` there (tab, line feed, vertical tab, form feed, carriage return,
    /// space; CR LF is one `Character` but two whitespace bytes, which collapse alike). Other text
    /// goes by `Character`, as whitespace followed by a combining mark is one whitespace `Character`.
    static func collapsingWhitespace(_ text: String) -> String {
        var text = text
        let collapsedASCII: String? = text.withUTF8 { bytes in
            for byte in bytes where byte >= 0x80 { return nil }
            var pendingSpace = false
            var hasOutput = false
            return String(unsafeUninitializedCapacity: bytes.count) { output in
                var count = 0
                for byte in bytes {
                    if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                        pendingSpace = hasOutput
                    } else {
                        if pendingSpace {
                            output[count] = 0x20
                            count += 1
                        }
                        pendingSpace = false
                        output[count] = byte
                        count += 1
                        hasOutput = true
                    }
                }
                return count
            }
        }
        if let collapsedASCII { return collapsedASCII }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for character in text {
            if character.isWhitespace {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                result.append(character)
            }
        }
        return result
    }

    // MARK: - Swift values of the tree

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    private static func typeName(_ node: OpaquePointer) -> String {
        string(cmark_node_get_type_string(node))
    }

    private static func block(_ node: OpaquePointer) -> MarkdownBlock {
        let type = cmark_node_get_type(node)
        let kind: MarkdownBlock.Kind
        switch type {
        case CMARK_NODE_PARAGRAPH: kind = .paragraph
        case CMARK_NODE_HEADING: kind = .heading
        case CMARK_NODE_CODE_BLOCK: kind = .codeBlock
        case CMARK_NODE_HTML_BLOCK: kind = .htmlBlock
        case CMARK_NODE_BLOCK_QUOTE: kind = .blockQuote
        case CMARK_NODE_LIST: kind = .list
        case CMARK_NODE_ITEM: kind = .listItem
        case CMARK_NODE_THEMATIC_BREAK: kind = .thematicBreak
        default: kind = typeName(node) == "table" ? .table : .other
        }
        var literal = ""
        var fenceInfo: String?
        if kind == .codeBlock || kind == .htmlBlock { literal = string(cmark_node_get_literal(node)) }
        if kind == .codeBlock {
            var length: Int32 = 0
            var offset: Int32 = 0
            var character: CChar = 0
            if cmark_node_get_fenced(node, &length, &offset, &character) != 0 {
                fenceInfo = string(cmark_node_get_fence_info(node))
            }
        }
        let children =
            kind == .blockQuote || kind == .list || kind == .listItem ? childNodes(of: node).map(block) : []
        return MarkdownBlock(
            kind: kind, typeName: typeName(node),
            start: MarkdownPosition(
                line: Int(cmark_node_get_start_line(node)), column: Int(cmark_node_get_start_column(node))),
            end: MarkdownPosition(
                line: Int(cmark_node_get_end_line(node)), column: Int(cmark_node_get_end_column(node))),
            headingLevel: kind == .heading ? Int(cmark_node_get_heading_level(node)) : 0,
            literal: literal, fenceInfo: fenceInfo,
            inlines: kind == .paragraph || kind == .heading ? inlines(under: node) : [],
            children: children)
    }

    private static func inlines(under node: OpaquePointer) -> [MarkdownInline] {
        childNodes(of: node).map(inline)
    }

    /// The direct children of `node`, in order.
    private static func childNodes(of node: OpaquePointer) -> [OpaquePointer] {
        var nodes: [OpaquePointer] = []
        var child = cmark_node_first_child(node)
        while let current = child {
            nodes.append(current)
            child = cmark_node_next(current)
        }
        return nodes
    }

    private static func inline(_ node: OpaquePointer) -> MarkdownInline {
        let type = cmark_node_get_type(node)
        let kind: MarkdownInline.Kind
        switch type {
        case CMARK_NODE_TEXT: kind = .text
        case CMARK_NODE_SOFTBREAK: kind = .softBreak
        case CMARK_NODE_LINEBREAK: kind = .lineBreak
        case CMARK_NODE_CODE: kind = .code
        case CMARK_NODE_HTML_INLINE: kind = .html
        case CMARK_NODE_EMPH: kind = .emphasis
        case CMARK_NODE_STRONG: kind = .strong
        case CMARK_NODE_LINK: kind = .link
        case CMARK_NODE_IMAGE: kind = .image
        default: kind = typeName(node) == "strikethrough" ? .strikethrough : .other
        }
        let hasLiteral = kind == .text || kind == .code || kind == .html
        let hasURL = kind == .link || kind == .image
        return MarkdownInline(
            kind: kind, typeName: typeName(node),
            start: MarkdownPosition(
                line: Int(cmark_node_get_start_line(node)), column: Int(cmark_node_get_start_column(node))),
            literal: hasLiteral ? string(cmark_node_get_literal(node)) : "",
            url: hasURL ? string(cmark_node_get_url(node)) : nil,
            title: hasURL
                ? cmark_node_get_title(node).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } : nil,
            children: hasLiteral ? [] : inlines(under: node))
    }
}
