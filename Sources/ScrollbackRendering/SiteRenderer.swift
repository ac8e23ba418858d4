import Foundation
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
/// Pages: `<id>/index.html` (page 1), `<id>/page-2.html`, …; every link is relative.
/// Message rows, day separators and per-kind bubbles come from the templates in `Templates/`
/// (overridable by the site); message bodies (linkified text, media URLs, cards) are computed
/// here in Swift and handed to the templates as ready values. Contact cards get a `.vcf` file
/// next to the page (`<id>/m-<anchor>.vcf`), linked with `download`.
public struct SiteRenderer: Sendable {
    /// The site configuration (title, remote media switch).
    public let config: SiteConfig
    /// The templates in use.
    public let templates: TemplateLibrary
    /// Swift renderers for `custom` messages, by id; they win over templates.
    let customRenderers: [String: any CustomMessageRenderer]
    /// The row templates, with their checked compiled copies.
    let rows: RowTemplates

    /// Creates a renderer.
    ///
    /// - Parameters:
    ///   - config: the site configuration.
    ///   - templates: the template library (default: the shipped templates alone).
    ///   - customRenderers: Swift renderers for `custom` messages; on duplicate ids the last wins.
    public init(
        config: SiteConfig, templates: TemplateLibrary = .shipped, customRenderers: [any CustomMessageRenderer] = []
    ) {
        self.config = config
        self.templates = templates
        var renderers: [String: any CustomMessageRenderer] = [:]
        for renderer in customRenderers { renderers[renderer.id] = renderer }
        self.customRenderers = renderers
        self.rows = RowTemplates(library: templates)
    }

    /// Whether message `id`'s permalink anchor is `m-<id>` whatever other ids the conversation
    /// has (it is its own slug); an incremental build that renders only some messages needs this.
    public static func hasOwnAnchor(_ id: String) -> Bool {
        HTMLText.isSlug(id)
    }

    /// The file name of page `index` (0-based) inside its conversation folder.
    public static func pageFileName(_ index: Int) -> String {
        index == 0 ? "index.html" : "page-\(index + 1).html"
    }

    /// The site's own static files (`assets/scrollback.css`, `assets/favicon.svg`), sorted by path.
    public func assetFiles() -> [RenderedFile] {
        templates.assetFiles
    }

    /// The pages of one conversation (plus `.vcf` files of contact cards), and warnings
    /// (unknown custom renderers, …).
    public func renderConversation(_ layout: ConversationLayout) -> (files: [RenderedFile], diagnostics: [Diagnostic]) {
        var files: [RenderedFile] = []
        files.reserveCapacity(layout.pages.count)
        let diagnostics = renderPages(
            of: layout, count: layout.pages.count, rendering: 0..<layout.pages.count, page: { layout.pages[$0] }
        ) { path, bytes in
            files.append(RenderedFile(path: path, contents: Array(bytes)))
        }
        return (files, diagnostics)
    }

    /// The same files as `renderConversation(layout(plan))`, in the same order, but made page by
    /// page from `plan` and handed to `write` one at a time, so a conversation of a hundred
    /// thousand messages never has all its rows and pages in memory at once. Returns the warnings.
    public func renderConversation(
        _ plan: ConversationPlan, write: (RenderedFile) throws -> Void
    ) rethrows
        -> [Diagnostic]
    {
        try renderConversation(plan, pages: 0..<plan.pageCount, write: write)
    }

    /// Only pages `pages` of `plan` (and the extra files of their messages), for an incremental
    /// build that keeps the other pages; each is the same bytes as in a whole rendering. The plan
    /// may hold only some of the messages (`ConversationLayouter.plan(_:globalIndexes:
    /// totalMessageCount:)`), as long as it holds what those pages need.
    public func renderConversation(
        _ plan: ConversationPlan, pages: Range<Int>, write: (RenderedFile) throws -> Void
    ) rethrows -> [Diagnostic] {
        try renderConversation(plan, pages: pages) { path, bytes in
            try write(RenderedFile(path: path, contents: Array(bytes)))
        }
    }

    /// `renderConversation(_:pages:write:)` handing each file's path and bytes to `writeBytes`
    /// without copying them into a `RenderedFile`: the bytes are the renderer's page buffer,
    /// valid only during the call (a large site's pages are over half a gigabyte to copy).
    public func renderConversation(
        _ plan: ConversationPlan, pages: Range<Int>,
        writeBytes write: (String, UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows -> [Diagnostic] {
        // Rows read the conversation, options and summary; rows come from the plan one at a time.
        let layout = ConversationLayout(
            conversation: plan.conversation, options: plan.options, pages: [], pageOfMessage: [:],
            summary: plan.summary)
        return try renderPages(
            of: layout, count: plan.pageCount, rendering: pages,
            page: { (index: $0, header: plan.pageHeader($0)) },
            rows: { index, body in plan.forEachRow(ofPage: index, body) }, plan: plan, write: write)
    }

    /// Renders pages `pages` (from `page`) of `layout`'s conversation of `count` pages, then the
    /// extra files of their messages.
    private func renderPages(
        of layout: ConversationLayout, count: Int, rendering pages: Range<Int>, page pageAt: (Int) -> PageLayout,
        write: (String, UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows -> [Diagnostic] {
        try renderPages(
            of: layout, count: count, rendering: pages,
            page: {
                let page = pageAt($0)
                return (index: page.index, header: page.header)
            },
            rows: { index, body in pageAt(index).items.forEach(body) }, plan: nil, write: write)
    }

    /// Renders pages `pages` of `layout`'s conversation of `count` pages, then the extra files of
    /// their messages. `page` tells a page's number and header; `rows` hands the rows of page
    /// `index` to its second argument one at a time, each written into the page at once. With a
    /// `plan` (which `rows` reads), pages with a header take their rows from the plan in place.
    private func renderPages(
        of layout: ConversationLayout, count: Int, rendering pages: Range<Int>,
        page pageAt: (Int) -> (index: Int, header: PageHeader?),
        rows rowsOfPage: (Int, (LayoutItem) -> Void) -> Void, plan: ConversationPlan?,
        write: (String, UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows -> [Diagnostic] {
        let conversation = layout.conversation
        var rows = MessageRenderer(
            layout: layout, rows: self.rows, customRenderers: customRenderers, remoteMedia: config.remoteMedia)
        let listStyle =
            "\(Self.bubbleWidthStyle(layout.options.messageMaxWidth));"
            + "--bubble-radius:\(layout.options.messageCornerRadius)"
        let participants: [[String: Any]] = conversation.participants.map { participant in
            // `inHeader`: the avatar partial marks `data-part=avatar` only inside message elements
            // (spec §5), not in this participant list.
            var context: [String: Any] = [
                "name": participant.name, "anchor": HTMLText.participantAnchor(participant.id), "inHeader": true,
            ]
            if let avatar = rows.avatars[participant.id], !templates.isEmpty("avatar") {
                context["avatar"] = avatar.context
            }
            return context
        }
        let description = conversation.description ?? defaultDescription(layout.summary)
        let pageCount = max(count, 1)
        // The participants are listed on the first page only (a log with 200,000 participants
        // repeated them on every page: gigabytes); later pages show their number, linked there.
        let participantCount =
            conversation.participants.count == 1 ? "1 participant" : "\(conversation.participants.count) participants"
        var conversationContext: [String: Any] = [
            "title": conversation.displayTitle, "participants": participants, "listStyle": listStyle,
            "participantCount": participantCount,
            "back": "../index.html", "noAvatars": templates.isEmpty("avatar"),
        ]
        if let text = conversation.description, !text.isEmpty { conversationContext["description"] = text }
        let usesSkeleton = !templates.overridden.contains("conversation") && !templates.overridden.contains("base")
        // The conversation template once per shape of header, with markers for its values.
        var headerSkeletons = HeaderSkeletons()
        // The first page's header differs from the others' (the participant list), so it has its own.
        var firstPageHeaderSkeletons = HeaderSkeletons()
        // The page's bytes: shell, skeleton and rows written into one buffer, reused from page to page.
        var contents = HTMLBuffer(capacity: 1 << 16)
        for pageIndex in pages {
            let (index, header) = pageAt(pageIndex)
            // A page without a header (a layout made by hand) counts its messages: its rows are
            // collected first. Otherwise they are written as they come.
            var collectedRows: [LayoutItem]?
            // The header describes this page (its count and date range), so appending messages
            // leaves earlier pages as they are.
            var context = conversationContext
            if index > 0 { context["participants"] = nil }
            if let header {
                context["count"] = Self.countText(header.messageCount)
                context["range"] = dateRange(first: header.firstDate, last: header.lastDate)
            } else {
                var items: [LayoutItem] = []
                rowsOfPage(pageIndex) { items.append($0) }
                context["count"] = Self.countText(items.filter { if case .message = $0 { true } else { false } }.count)
                collectedRows = items
            }
            func renderRows(into buffer: inout HTMLBuffer) {
                if let collectedRows {
                    for item in collectedRows { rows.render(item, pageIndex: index, into: &buffer) }
                } else if let plan {
                    plan.forEachPlannedRow(ofPage: pageIndex) {
                        rows.render($0, of: plan, pageIndex: index, into: &buffer)
                    }
                } else {
                    rowsOfPage(pageIndex) { rows.render($0, pageIndex: index, into: &buffer) }
                }
            }
            // The shipped page templates print the message list and the pagination as they are, so
            // the page is rendered with markers in their place and the rows written between.
            var skeleton: PageSkeleton?
            if usesSkeleton {
                var markedContext = context
                markedContext["messages"] = PageSkeleton.messagesMarker
                if pageCount > 1 {
                    markedContext["pagination"] = PageSkeleton.paginationMarker
                    markedContext["paginationBottom"] = PageSkeleton.paginationBottomMarker
                }
                let values = HeaderValues(header)
                let body =
                    index == 0
                    ? firstPageHeaderSkeletons.body(for: values, rendering: markedContext, with: templates)
                    : headerSkeletons.body(for: values, rendering: markedContext, with: templates)
                if let body {
                    skeleton = PageSkeleton(body)
                } else {
                    skeleton = PageSkeleton(templates.render("conversation", markedContext))
                }
            }
            // Above and below the list: two landmarks, so each gets its own name ("Pages, top").
            var pagination: String?
            var paginationBottom: String?
            if pageCount > 1, self.rows.compiledPagination {
                pagination = CompiledPaginationTemplate.render(current: index, count: pageCount, place: "top")
                paginationBottom = CompiledPaginationTemplate.render(current: index, count: pageCount, place: "bottom")
            } else if pageCount > 1 {
                var links = self.pagination(current: index, count: pageCount)
                if !templates.overridden.contains("pagination") {
                    // The shipped template prints `where` once, as text: render once with a
                    // marker there and fill in both landmarks' names.
                    links["where"] = Self.paginationWhereMarker
                    let marked = templates.render("pagination", links)
                    let parts = marked.split(separator: Self.paginationWhereMarker, omittingEmptySubsequences: false)
                    if parts.count == 2 {
                        pagination = parts[0] + "top" + parts[1]
                        paginationBottom = parts[0] + "bottom" + parts[1]
                    }
                }
                if pagination == nil || paginationBottom == nil {
                    links["where"] = "top"
                    pagination = templates.render("pagination", links)
                    links["where"] = "bottom"
                    paginationBottom = templates.render("pagination", links)
                }
            }
            let title = index == 0 ? conversation.displayTitle : "\(conversation.displayTitle) (page \(index + 1))"
            let fullTitle = "\(title) · \(config.title)"
            contents.removeAll()
            let frame = skeleton?.frame(
                shell: shell(
                    title: fullTitle, description: description, root: "../", body: PageSkeleton.bodyMarker,
                    locale: layout.options.locale))
            if let frame {
                // The rows go straight into the page, between the skeleton's opening and closing.
                frame.writeOpening(
                    into: &contents, pagination: pagination ?? "", paginationBottom: paginationBottom ?? "")
                renderRows(into: &contents)
                frame.writeClosing(
                    into: &contents, pagination: pagination ?? "", paginationBottom: paginationBottom ?? "")
            } else {
                // A site's own templates may use the values in other ways (or log text held a marker):
                // render them in full.
                var messages = HTMLBuffer(capacity: 1 << 16)
                renderRows(into: &messages)
                var pageContext = context
                pageContext["messages"] = messages.string
                if let pagination { pageContext["pagination"] = pagination }
                if let paginationBottom { pageContext["paginationBottom"] = paginationBottom }
                let body = templates.render("conversation", pageContext)
                let html = shell(
                    title: fullTitle, description: description, root: "../", body: body, locale: layout.options.locale)
                raw(html, &contents)
            }
            try contents.withBytes { try write(conversation.id + "/" + Self.pageFileName(index), $0) }
        }
        for file in rows.extraFiles { try file.contents.withUnsafeBufferPointer { try write(file.path, $0) } }
        return rows.diagnostics
    }

    /// The index page.
    public func renderIndex(_ summaries: [ConversationSummary]) -> RenderedFile {
        let conversations: [[String: Any]] = summaries.map { summary in
            var context: [String: Any] = [
                // Non-ASCII slugs (`家族`) percent-encoded, as every server and browser expects in a URL.
                "href": (summary.id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? summary.id)
                    + "/index.html", "title": summary.title,
                "participants": summary.participantNames.joined(separator: ", "),
                "count": Self.countText(summary.messageCount),
            ]
            if let description = summary.description, !description.isEmpty { context["description"] = description }
            if let range = dateRange(summary) { context["range"] = range }
            if let preview = summary.lastMessagePreview, !preview.isEmpty { context["preview"] = preview }
            return context
        }
        var context: [String: Any] = [
            "title": config.title, "conversations": conversations, "count": conversations.count,
        ]
        if let description = config.description, !description.isEmpty { context["description"] = description }
        let body = templates.render("index", context)
        let description = config.description ?? "\(Self.countText(summaries.count, noun: "conversation"))"
        let html = shell(
            title: config.title, description: description, root: "", body: body, locale: config.layout.locale)
        return RenderedFile(path: "index.html", contents: Array(html.utf8))
    }

    // MARK: - Helpers

    /// The page shell (`base`) around `body`.
    func shell(title: String, description: String, root: String, body: String, locale: String) -> String {
        templates.render(
            "base",
            [
                // `{{title}}` and `{{description}}` are escaped by `PageEscaping`, which also
                // replaces the code points HTML forbids.
                "lang": Self.languageTag(locale), "title": title, "description": description, "root": root,
                "body": body,
            ] as [String: Any])
    }

    /// `en_US` → `en-US`; anything that is not letters, digits and separators → `en`.
    static func languageTag(_ locale: String) -> String {
        let tag = locale.replacingOccurrences(of: "_", with: "-")
        let valid =
            !tag.isEmpty && tag.utf8.count <= 35
            && tag.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
            }
        return valid ? tag : "en"
    }

    /// `messageMaxWidth` as the list's custom property: `--bubble-max:480px` for a length, and
    /// `--bubble-share:75` for a percentage, which the stylesheet turns into `75cqw` of the list (a
    /// size container): a bubble's own percentage would resolve against its grid column, which
    /// leaves out the avatar column. (A plain number, since HTML checkers do not know `cqw` yet.)
    static func bubbleWidthStyle(_ length: CSSLength) -> String {
        guard case .percent = length else { return "--bubble-max:" + length.description }
        return "--bubble-share:" + String(length.description.dropLast())
    }

    /// "1 message", "12,345 messages": grouping done here so it does not depend on the process locale.
    static func countText(_ count: Int, noun: String = "message") -> String {
        var digits = String(count)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return "\(digits)\(grouped) \(noun)\(count == 1 ? "" : "s")"
    }

    /// A conversation page's `<meta name=description>` when the log has none: the same on every
    /// page and free of counts, so appending messages does not change it.
    func defaultDescription(_ summary: ConversationSummary) -> String {
        let names = summary.participantNames
        switch names.count {
        case 0: return "A conversation"
        case 1: return "A conversation with \(names[0])"
        default: return "A conversation between \(names.dropLast().joined(separator: ", ")) and \(names.last!)"
        }
    }

    func dateRange(_ summary: ConversationSummary) -> [String: Any]? {
        guard let first = summary.firstDate else { return nil }
        return dateRange(first: first, last: summary.lastDate)
    }

    /// The `range` value of the templates: `first`, and `last` when its text differs.
    func dateRange(first: FormattedDate, last: FormattedDate?) -> [String: Any] {
        var range: [String: Any] = ["first": ["text": first.text, "iso": first.iso]]
        if let last, last.text != first.text { range["last"] = ["text": last.text, "iso": last.iso] }
        return range
    }

    /// Previous/next links and a window of page numbers (first, last, and three either side).
    /// Stands for the pagination's `where` ("top" or "bottom") in the one rendering both share;
    /// letters and digits only, so escaping leaves it as it is.
    static let paginationWhereMarker = "ScrollbackPaginationWhere7c1e"

    func pagination(current: Int, count: Int) -> [String: Any] {
        Self.paginationContext(current: current, count: count)
    }

    /// What the `pagination` template is rendered with (its `where` aside).
    static func paginationContext(current: Int, count: Int) -> [String: Any] {
        var context: [String: Any] = [:]
        if current > 0 { context["prev"] = Self.pageFileName(current - 1) }
        if current < count - 1 { context["next"] = Self.pageFileName(current + 1) }
        // Every key is set on every entry so lookups stop here instead of climbing the context stack.
        context["pages"] = paginationEntries(current: current, count: count).map { entry -> [String: Any] in
            switch entry {
            case .gap: return ["gap": true, "current": false]
            case .page(let index, let isCurrent):
                return ["number": index + 1, "href": Self.pageFileName(index), "current": isCurrent, "gap": false]
            }
        }
        context["pageNumber"] = current + 1
        context["pageCount"] = count
        return context
    }

    /// The page links of page `current` of `count`: the first, the last and three either side,
    /// with a gap where pages are left out.
    static func paginationEntries(current: Int, count: Int) -> [CompiledPaginationTemplate.Entry] {
        var entries: [CompiledPaginationTemplate.Entry] = []
        var previous = -1
        for index in 0..<count where index == 0 || index == count - 1 || abs(index - current) <= 3 {
            if previous >= 0, index > previous + 1 { entries.append(.gap) }
            entries.append(.page(index: index, current: index == current))
            previous = index
        }
        return entries
    }
}

/// The values of a page's header (`PageHeader`) as the conversation template sees them.
struct HeaderValues {
    /// Which values there are: no range, a first date only, or both dates.
    enum Shape: Hashable { case countOnly, first, firstAndLast }
    var shape: Shape
    /// Count text, then first text and ISO, then last text and ISO, as far as the shape goes.
    var texts: [String]

    /// The values of `header`, in the order of `HeaderSkeletons.markers`; `nil` without a header.
    init?(_ header: PageHeader?) {
        guard let header else { return nil }
        texts = [
            SiteRenderer.countText(header.messageCount), header.firstDate.text, header.firstDate.iso,
        ]
        if header.lastDate.text != header.firstDate.text {
            shape = .firstAndLast
            texts += [header.lastDate.text, header.lastDate.iso]
        } else {
            shape = .first
        }
    }
}

/// The body of a conversation page for each shape of header, rendered once per conversation with
/// markers for the count and dates, which each page fills in with its own values escaped.
///
/// Each page used to render the conversation template in full for its header values: through
/// swift-mustache's dynamic casts, that is about half a millisecond a page. The markers are
/// letters and digits, so `{{value}}` escaping prints them as they are; a shape is only used when
/// each marker shows up exactly once and, for the first page of that shape, the filled-in body is
/// the bytes of the full rendering (else the pages of the conversation are rendered in full).
struct HeaderSkeletons {
    /// Markers of the count, first text, first ISO, last text, last ISO.
    static let markers = [
        "ScrollbackCountQ7c1e", "ScrollbackFirstTextQ7c1e", "ScrollbackFirstIsoQ7c1e", "ScrollbackLastTextQ7c1e",
        "ScrollbackLastIsoQ7c1e",
    ]

    /// The marked rendering of each shape split at its markers (text, marker index, text, …), or
    /// `nil` for a shape that cannot be used.
    private var pieces: [HeaderValues.Shape: [Piece]?] = [:]
    /// Whether a mismatch turned this off for the conversation.
    private var disabled = false

    private enum Piece {
        case text(String)
        case value(Int)
    }

    /// The body of a page with `values`, rendered from `context` (the page's context without the
    /// header values); `nil` when the page must render the template itself.
    mutating func body(
        for values: HeaderValues?, rendering context: [String: Any], with templates: TemplateLibrary
    )
        -> String?
    {
        guard let values, !disabled else { return nil }
        func full() -> String {
            var context = context
            context["count"] = values.texts[0]
            var range: [String: Any] = ["first": ["text": values.texts[1], "iso": values.texts[2]]]
            if values.shape == .firstAndLast { range["last"] = ["text": values.texts[3], "iso": values.texts[4]] }
            context["range"] = range
            return templates.render("conversation", context)
        }
        if let known = pieces[values.shape] {
            guard let known else { return nil }
            return Self.fill(known, values.texts)
        }
        var marked = context
        marked["count"] = Self.markers[0]
        var range: [String: Any] = ["first": ["text": Self.markers[1], "iso": Self.markers[2]]]
        if values.shape == .firstAndLast { range["last"] = ["text": Self.markers[3], "iso": Self.markers[4]] }
        marked["range"] = range
        let split = Self.split(templates.render("conversation", marked), markerCount: values.texts.count)
        let body = full()
        // Bytes, not `==`: strings compare equal when only their normalization differs.
        guard let split, Self.fill(split, values.texts).utf8.elementsEqual(body.utf8) else {
            pieces[values.shape] = .some(nil)
            disabled = true
            return body
        }
        pieces[values.shape] = split
        return body
    }

    private static func fill(_ pieces: [Piece], _ texts: [String]) -> String {
        var output = ""
        for piece in pieces {
            switch piece {
            case .text(let text): output += text
            case .value(let index): output += HTMLText.escape(texts[index])
            }
        }
        return output
    }

    /// `body` cut at the first `markerCount` markers, each found exactly once (and no other
    /// marker at all); `nil` otherwise.
    private static func split(_ body: String, markerCount: Int) -> [Piece]? {
        var found: [(range: Range<String.Index>, index: Int)] = []
        for (index, marker) in markers.enumerated() {
            let ranges = body.ranges(of: marker)
            if index < markerCount ? ranges.count != 1 : !ranges.isEmpty { return nil }
            if let range = ranges.first { found.append((range, index)) }
        }
        found.sort { $0.range.lowerBound < $1.range.lowerBound }
        var pieces: [Piece] = []
        var start = body.startIndex
        for (range, index) in found {
            pieces.append(.text(String(body[start..<range.lowerBound])))
            pieces.append(.value(index))
            start = range.upperBound
        }
        pieces.append(.text(String(body[start...])))
        return pieces
    }
}

/// A conversation page as the shipped templates print it, with markers where the message list,
/// the pagination and (in the shell) the body go: the values themselves, often a megabyte of
/// rows, are then copied once into each page instead of through every template.
///
/// A marker has `<`, `&` and both letter cases, so escaping or any transform would change it:
/// finding it as it is means the template printed the value raw. Any other trace of a marker
/// (escaped, or written in a log) makes `page` answer `nil`, and the page is rendered in full.
struct PageSkeleton {
    static let messagesMarker = "<Scrollback-Pasted&Messages-7c1e>"
    static let paginationMarker = "<Scrollback-Pasted&Pagination-7c1e>"
    static let paginationBottomMarker = "<Scrollback-Pasted&PaginationBottom-7c1e>"
    static let bodyMarker = "<Scrollback-Pasted&Body-7c1e>"
    /// What every marker contains, to find leftovers.
    private static let markerCore = Array("Scrollback-Pasted".utf8)

    fileprivate enum Piece {
        case bytes([UInt8])
        case messages
        case pagination
        case paginationBottom
    }

    /// The body's pieces; `nil` when the messages marker is not there exactly once, or a marker
    /// shows up in another form.
    private let pieces: [Piece]?

    /// The skeleton of `body`, the conversation template rendered with the markers as values.
    init(_ body: String) {
        var pieces: [Piece] = []
        var messageCount = 0
        for piece in Self.split(
            Array(body.utf8), [Self.messagesMarker, Self.paginationMarker, Self.paginationBottomMarker])
        {
            switch piece {
            case .text(let bytes):
                if Self.contains(bytes, Self.markerCore) {
                    self.pieces = nil
                    return
                }
                pieces.append(.bytes(bytes))
            case .marker(0):
                messageCount += 1
                pieces.append(.messages)
            case .marker(1):
                pieces.append(.pagination)
            case .marker:
                pieces.append(.paginationBottom)
            }
        }
        self.pieces = messageCount == 1 ? pieces : nil
    }

    /// A page's bytes around its rows: `shell` (the base template rendered with `bodyMarker` as
    /// the body) with the body pieces in place of its one marker.
    struct Frame {
        fileprivate let pieces: [Piece]
        fileprivate let messagesIndex: Int
        let before: [UInt8]
        let after: [UInt8]

        /// Everything before the rows.
        func writeOpening(into page: inout HTMLBuffer, pagination: String, paginationBottom: String) {
            page.append(contentsOf: before)
            write(pieces[..<messagesIndex], into: &page, pagination: pagination, paginationBottom: paginationBottom)
        }

        /// Everything after the rows.
        func writeClosing(into page: inout HTMLBuffer, pagination: String, paginationBottom: String) {
            write(
                pieces[(messagesIndex + 1)...], into: &page, pagination: pagination, paginationBottom: paginationBottom)
            page.append(contentsOf: after)
        }

        private func write(
            _ pieces: ArraySlice<Piece>, into page: inout HTMLBuffer, pagination: String, paginationBottom: String
        ) {
            for piece in pieces {
                switch piece {
                case .bytes(let bytes): page.append(contentsOf: bytes)
                case .messages: break  // only at `messagesIndex`
                case .pagination: raw(pagination, &page)
                case .paginationBottom: raw(paginationBottom, &page)
                }
            }
        }
    }

    /// The frame of a page whose shell is `shell`; `nil` when this skeleton or `shell` cannot be used.
    func frame(shell: String) -> Frame? {
        guard let pieces,
            let messagesIndex = pieces.firstIndex(where: { if case .messages = $0 { true } else { false } })
        else { return nil }
        let shellPieces = Self.split(Array(shell.utf8), [Self.bodyMarker])
        guard shellPieces.count == 3, case .text(let before) = shellPieces[0], case .marker = shellPieces[1],
            case .text(let after) = shellPieces[2], !Self.contains(before, Self.markerCore),
            !Self.contains(after, Self.markerCore)
        else { return nil }
        return Frame(pieces: pieces, messagesIndex: messagesIndex, before: before, after: after)
    }

    private enum Split {
        case text([UInt8])
        /// The index of the marker found.
        case marker(Int)
    }

    /// `bytes` cut at every occurrence of the markers: text, marker, text, …, text (text may be empty).
    private static func split(_ bytes: [UInt8], _ markers: [String]) -> [Split] {
        let needles = markers.map { Array($0.utf8) }
        var result: [Split] = []
        var textStart = 0
        var index = 0
        scan: while index < bytes.count {
            if bytes[index] == UInt8(ascii: "<") {
                for (number, needle) in needles.enumerated()
                where index + needle.count <= bytes.count && bytes[index..<(index + needle.count)].elementsEqual(needle)
                {
                    result.append(.text(Array(bytes[textStart..<index])))
                    result.append(.marker(number))
                    index += needle.count
                    textStart = index
                    continue scan
                }
            }
            index += 1
        }
        result.append(.text(Array(bytes[textStart...])))
        return result
    }

    private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= bytes.count else { return false }
        for start in 0...(bytes.count - needle.count)
        where bytes[start] == needle[0] && bytes[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }
}
