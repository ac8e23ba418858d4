/// A place in the Markdown source, as cmark-gfm reports it: 1-based line, 1-based column in
/// UTF-8 bytes. Zero means cmark-gfm did not record a position for that node.
public struct MarkdownPosition: Hashable, Sendable, CustomStringConvertible {
    /// 1-based line.
    public var line: Int
    /// 1-based column, counting UTF-8 bytes.
    public var column: Int

    /// Creates a position.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}

/// One block of a Markdown document (a paragraph, heading, code block, list, …) as a Swift value.
public struct MarkdownBlock: Hashable, Sendable {
    /// What kind of block this is.
    public enum Kind: Hashable, Sendable {
        /// A paragraph; its content is in `inlines`.
        case paragraph
        /// An ATX or setext heading; `headingLevel` and `inlines` describe it.
        case heading
        /// A fenced or indented code block; `literal` is the code, `fenceInfo` the info string.
        case codeBlock
        /// Raw HTML (omitted when rendered in safe mode); `literal` is the HTML.
        case htmlBlock
        /// A block quote; its blocks are in `children`.
        case blockQuote
        /// A bullet or ordered list; its items are in `children`.
        case list
        /// One list item (task list items included); its blocks are in `children`.
        case listItem
        /// A thematic break (`---`).
        case thematicBreak
        /// A GFM table.
        case table
        /// Anything else (extension blocks such as table rows); `typeName` says which.
        case other
    }

    /// What kind of block this is.
    public var kind: Kind
    /// cmark-gfm's name for the node type (`paragraph`, `code_block`, `table`, …).
    public var typeName: String
    /// Where the block starts.
    public var start: MarkdownPosition
    /// Where the block ends (inclusive).
    public var end: MarkdownPosition
    /// Heading level 1–6; 0 for other blocks.
    public var headingLevel: Int
    /// Text of a code or HTML block; empty for other blocks.
    public var literal: String
    /// Info string of a fenced code block (`custom poll`, `vcard`, `swift`); `nil` when not fenced.
    public var fenceInfo: String?
    /// Inline content of paragraphs and headings; empty for other blocks.
    public var inlines: [MarkdownInline]
    /// Child blocks of block quotes, lists and list items; empty for other blocks.
    public var children: [MarkdownBlock]

    /// The inline content as plain text (soft and hard breaks become `\n`).
    public var plainText: String { inlines.plainText }
}

/// One inline element of a paragraph or heading as a Swift value.
public struct MarkdownInline: Hashable, Sendable {
    /// What kind of inline this is.
    public enum Kind: Hashable, Sendable {
        /// Plain text; `literal` holds it.
        case text
        /// A line break in the source that is not a hard break.
        case softBreak
        /// A hard line break (two trailing spaces or a backslash).
        case lineBreak
        /// A code span; `literal` holds the code.
        case code
        /// Raw inline HTML (omitted when rendered in safe mode); `literal` holds it.
        case html
        /// `*emphasis*`; content in `children`.
        case emphasis
        /// `**strong**`; content in `children`.
        case strong
        /// `~~strikethrough~~` (GFM); content in `children`.
        case strikethrough
        /// A link (also an autolink); `url`, `title`, text in `children`.
        case link
        /// An image; `url`, `title`, alt text in `children`.
        case image
        /// Anything else; `typeName` says which.
        case other
    }

    /// What kind of inline this is.
    public var kind: Kind
    /// cmark-gfm's name for the node type.
    public var typeName: String
    /// Where the inline starts (may be 0:0 when cmark-gfm recorded no position).
    public var start: MarkdownPosition
    /// Text of text, code and HTML inlines; empty for containers.
    public var literal: String
    /// Destination of links and images.
    public var url: String?
    /// Title of links and images (`![alt](src "title")`).
    public var title: String?
    /// Children of emphasis, strong, strikethrough, links and images (an image's children are its alt text).
    public var children: [MarkdownInline]

    /// This inline as plain text: literals, children's text, breaks as `\n`.
    public var plainText: String { [self].plainText }
}

extension Array where Element == MarkdownInline {
    /// The inlines' plain text, concatenated.
    ///
    /// Written into one string by an explicit walk: building each level's text from its
    /// children's took time proportional to length × depth (quadratic for nested emphasis such
    /// as `*a **a *a …`), and recursion as deep as the nesting.
    public var plainText: String {
        var text = ""
        var pending: [ArraySlice<MarkdownInline>] = [self[...]]
        while var inlines = pending.popLast() {
            guard let inline = inlines.popFirst() else { continue }
            pending.append(inlines)
            switch inline.kind {
            case .text, .code: text += inline.literal
            case .softBreak, .lineBreak: text += "\n"
            case .html: break
            default: pending.append(inline.children[...])
            }
        }
        return text
    }
}
