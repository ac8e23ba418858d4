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
    }

    /// Whether message `id`'s permalink anchor is `m-<id>` whatever other ids the conversation
    /// has (it is its own slug); an incremental build that renders only some messages needs this.
    public static func hasOwnAnchor(_ id: String) -> Bool {
        Slug.isSlug(id)
    }

    /// The file name of page `index` (0-based) inside its conversation folder.
    public static func pageFileName(_ index: Int) -> String {
        PageFiles.conversation.name(ofPage: index)
    }

    /// The site's own static files (`assets/scrollback.css`, `assets/favicon.svg`), sorted by path.
    public func assetFiles() -> [RenderedFile] {
        templates.assetFiles
    }

    /// What rendering a conversation's pages found out besides the pages themselves.
    public struct ConversationRendering: Sendable {
        /// Warnings (unknown custom renderers, …) and the note that code is not highlighted.
        public var diagnostics: [Diagnostic] = []
        /// Whether a page rendered has a code block, so it loads `assets/code.js`, and the
        /// highlighter when the site ships one: the site ships `HighlightAssets`' files only
        /// when a page of it does (the build manifest keeps this for conversations it reuses).
        public var hasCode = false
    }

    /// Renders pages `pages` of `plan` (every page when `nil`), then the extra files of their
    /// messages (contact cards' `.vcf`), handing each file's path and bytes to `write` one at a
    /// time; returns the warnings (unknown custom renderers, …) and whether a page has code.
    ///
    /// The bytes are the renderer's page buffer, valid only during the call: a large site's pages
    /// are over half a gigabyte to copy, and a conversation of a hundred thousand messages never
    /// has all its rows or pages in memory at once. The plan may hold only some of the messages
    /// (`ConversationLayouter.plan(_:globalIndexes:totalMessageCount:)`), as long as it holds what
    /// the pages rendered need; each page is the same bytes as in a whole rendering.
    ///
    /// `audioAlternatives`: the voice notes that have a second, transcoded file in the site, by
    /// the original's site path; their player lists both files.
    public func renderConversation(
        _ plan: ConversationPlan, pages: Range<Int>? = nil, audioAlternatives: [String: AudioAlternative] = [:],
        write: (String, UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows -> ConversationRendering {
        let conversation = plan.conversation
        let rows = MessageRenderer(
            plan: plan, templates: templates, customRenderers: customRenderers, remoteMedia: config.remoteMedia)
        rows.audioAlternatives = audioAlternatives
        let noAvatars = templates.isEmpty("avatar")
        let body = ConversationPageView()
        body.title = conversation.displayTitle
        if let text = conversation.description, !text.isEmpty { body.description = text }
        body.listStyle =
            "\(Self.bubbleWidthStyle(plan.options.messageMaxWidth));"
            + "--bubble-radius:\(plan.options.messageCornerRadius)"
        body.noAvatars = noAvatars
        body.paged = plan.pageCount > 1
        body.codeRows = rows
        body.highlight = templates.assets[HighlightAssets.scriptPath] != nil
        // The first page names the first participants and counts the rest, by the rule the
        // default title follows (`ParticipantNames`); later pages show their number, linked there.
        let (named, others) = ParticipantNames.capped(conversation.participants)
        let participants = named.map { participant in
            ParticipantView(
                name: participant.name, anchor: HTMLText.participantAnchor(participant.id),
                avatar: noAvatars ? nil : rows.participantViews.senders[participant.id]?.avatar)
        }
        let otherParticipants = others > 0 ? ParticipantNames.othersText(others) : nil
        body.participantCount = Self.countText(conversation.participants.count, noun: "participant")
        let description = conversation.description ?? defaultDescription(plan.summary)
        let pageCount = plan.pageCount
        body.pinnedCount = plan.pinned.isEmpty ? nil : Self.countText(plan.pinned.count, noun: "pinned message")
        let conversationTemplate = templates.compiledTemplate("conversation")
        let paginationTemplate = templates.compiledTemplate("pagination")
        let shell = ShellView()
        shell.search = config.search
        shell.lang = Self.languageTag(plan.options.locale)
        shell.description = description
        shell.root = "../"
        shell.body = .writer(TemplateInvocation(conversationTemplate, body))
        // The page's bytes, reused from page to page.
        let contents = HTMLBuffer(capacity: 1 << 16)
        var pagesHadCode = false
        for index in pages ?? 0..<pageCount {
            // The header describes this page (its count and date range), so appending messages
            // leaves earlier pages as they are.
            let header = plan.pageHeader(index)
            body.count = Self.countText(header?.messageCount ?? 0)
            body.participants = index == 0 ? participants : []
            body.otherParticipants = index == 0 ? otherParticipants : nil
            body.pinned = pinnedLinks(plan, from: plan.pageFileName(index), rows: rows)
            body.range = header.map { DateRangeView(first: $0.firstDate, last: $0.lastDate) }
            // The rows go straight into the page where the template prints `{{{messages}}}`.
            body.messages = .writer(PageRows(rows: rows, plan: plan, page: index))
            Self.paginate(body, page: index, of: plan, with: paginationTemplate)
            let title = index == 0 ? conversation.displayTitle : "\(conversation.displayTitle) (page \(index + 1))"
            shell.title = "\(title) · \(config.title)"
            shell.publishing = publishingView(path: conversation.id + "/" + Self.pageFileName(index))
            contents.removeAll()
            templates.compiledTemplate("base").render(shell, into: contents)
            try contents.withBytes { try write(conversation.id + "/" + Self.pageFileName(index), $0) }
            pagesHadCode = pagesHadCode || rows.sawCode
        }
        // Long threads: their own pages, after the timeline's (whose rendering drew the roots).
        if pages == nil || pages?.lowerBound == 0 {
            for thread in plan.threadsWithOwnPages {
                let replies = thread.replies
                let threadRows = rows.renderer(of: thread)
                let threadPageCount = replies.pageCount
                let rootFile = plan.fileName(ofMessage: thread.rootID) ?? Self.pageFileName(0)
                let root = plan.messageIndex(ofMessage: thread.rootID).map { plan.conversation.messages[$0] }
                body.threadOf = ReplyView(
                    href: rootFile + "#" + plan.anchors.anchor(thread.rootID),
                    author: root.flatMap {
                        $0.kind.name == .system ? nil : $0.sender.map { rows.participantViews.senders[$0]?.name ?? $0 }
                    },
                    excerpt: root.map(MessageNotices.excerpt) ?? "")
                for index in 0..<threadPageCount {
                    let header = replies.pageHeader(index)
                    body.count = Self.countText(header?.messageCount ?? 0, noun: "reply", plural: "replies")
                    body.range = header.map { DateRangeView(first: $0.firstDate, last: $0.lastDate) }
                    body.pinned = pinnedLinks(plan, from: replies.pageFileName(index), rows: rows)
                    body.messages = .writer(PageRows(rows: threadRows, plan: replies, page: index))
                    body.codeRows = threadRows
                    Self.paginate(body, page: index, of: replies, with: paginationTemplate)
                    let title = "Thread · \(conversation.displayTitle)" + (index == 0 ? "" : " (page \(index + 1))")
                    shell.title = "\(title) · \(config.title)"
                    contents.removeAll()
                    templates.compiledTemplate("base").render(shell, into: contents)
                    try contents.withBytes { try write(conversation.id + "/" + replies.pageFileName(index), $0) }
                    pagesHadCode = pagesHadCode || threadRows.sawCode
                }
            }
        }
        for file in rows.allExtraFiles { try file.contents.withUnsafeBufferPointer { try write(file.path, $0) } }
        var rendering = ConversationRendering(diagnostics: rows.allDiagnostics, hasCode: pagesHadCode)
        if pagesHadCode, !body.highlight {
            // Issue 42.5: the code is readable without it; the build says why it is not coloured.
            rendering.diagnostics.append(
                Diagnostic(.note, .other(HighlightAssets.missingNote), at: conversation.source))
        }
        return rendering
    }

    /// The id of the element after the last message of a list's last page: the index cards and the
    /// "Latest" links land there, so the newest message is on screen.
    public static let latestAnchor = "latest"

    /// Page `index` of `plan`'s pagination, above and below the list (two landmarks, so each
    /// gets its own name: "Pages, top"); none for a list of one page. Also the bar's links:
    /// to the list's first page and to the end of its last page.
    private static func paginate(
        _ body: ConversationPageView, page index: Int, of plan: ConversationPlan, with template: CompiledTemplate
    ) {
        let last = plan.pageCount - 1
        body.isLast = index >= last
        body.latest = (index >= last ? "" : plan.pageFileName(last)) + "#" + latestAnchor
        body.fromStart = index == 0 ? "#main" : plan.pageFileName(0)
        guard plan.pageCount > 1 else {
            body.pagination = .absent
            body.paginationBottom = .absent
            return
        }
        func pagination(_ place: String) -> TemplateValue {
            .writer(
                TemplateInvocation(
                    template,
                    PaginationView(
                        place: place, current: index, count: plan.pageCount, files: plan.pageFiles,
                        days: plan.pageDays)))
        }
        body.pagination = pagination("top")
        body.paginationBottom = pagination("bottom")
    }

    /// The header's links to the pinned messages, from page file `file`.
    private func pinnedLinks(_ plan: ConversationPlan, from file: String, rows: MessageRenderer) -> [ReplyView] {
        plan.pinned.map { pin in
            let anchor = plan.anchors.anchor(pin.messageID)
            return ReplyView(
                href: pin.fileName == file ? "#" + anchor : pin.fileName + "#" + anchor, author: pin.senderName,
                excerpt: pin.excerpt)
        }
    }

    /// The index page.
    public func renderIndex(_ summaries: [ConversationSummary]) -> RenderedFile {
        let entries = summaries.map { summary in
            let entry = IndexEntryView()
            entry.avatar = AvatarView(
                name: summary.title, initials: HTMLText.initials(summary.title),
                colorClass: "c\(Int(StableHash.fnv1a32(summary.id.utf8)) % MessageRenderer.paletteSize)",
                colorStyle: nil,
                src: nil)
            // Non-ASCII slugs (`家族`) percent-encoded, as every server and browser expects in a URL.
            // The card opens the conversation at its newest message, as a messenger does: the last
            // page, scrolled to its end; "From the beginning" is in that page's bar.
            entry.href =
                (summary.id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? summary.id) + "/"
                + PageFiles.conversation.name(ofPage: max(summary.pageCount, 1) - 1) + "#" + Self.latestAnchor
            entry.title = summary.title
            entry.participants = ParticipantNames.text(summary.participantNames)
            entry.count = Self.countText(summary.messageCount)
            if let description = summary.description, !description.isEmpty { entry.description = description }
            if let first = summary.firstDate { entry.range = DateRangeView(first: first, last: summary.lastDate) }
            if let preview = summary.lastMessagePreview, !preview.isEmpty { entry.preview = preview }
            entry.app = SourceApp(format: summary.app)
            return entry
        }
        var description = config.description
        if description?.isEmpty ?? true { description = nil }
        let index = IndexView(
            title: config.title, description: description, conversations: entries,
            sections: Self.indexSections(entries, names: summaries.map(\.section)))
        index.search = config.search
        let shell = ShellView()
        shell.search = config.search
        shell.lang = Self.languageTag(config.layout.locale)
        shell.title = config.title
        shell.description = config.description ?? Self.countText(summaries.count, noun: "conversation")
        shell.root = ""
        shell.publishing = publishingView(path: "index.html")
        shell.body = .writer(TemplateInvocation(templates.compiledTemplate("index"), index))
        let contents = HTMLBuffer(capacity: 1 << 14)
        templates.compiledTemplate("base").render(shell, into: contents)
        return RenderedFile(path: "index.html", contents: contents.bytes)
    }

    // MARK: - Helpers

    /// The index's sections: with two or more (a Slack workspace's channels and direct messages),
    /// one per section name in the order its most recent conversation comes, and the
    /// conversations of no section last, as "Other conversations"; otherwise one unnamed section.
    static func indexSections(_ entries: [IndexEntryView], names: [String?]) -> [IndexSectionView] {
        var order: [String?] = []
        var members: [String?: [IndexEntryView]] = [:]
        for (entry, name) in zip(entries, names) {
            let name = name.flatMap { $0.isEmpty ? nil : $0 }
            if members[name] == nil { order.append(name) }
            members[name, default: []].append(entry)
        }
        if order.isEmpty { return [] }
        guard order.count > 1 else { return [IndexSectionView(name: nil, anchor: "", conversations: entries)] }
        if let unnamed = order.firstIndex(where: { $0 == nil }) { order.append(order.remove(at: unnamed)) }
        return order.enumerated().map { number, name in
            let conversations = members[name] ?? []
            for entry in conversations { entry.level = 3 }
            return IndexSectionView(
                name: name ?? "Other conversations", anchor: "section-\(number + 1)", conversations: conversations)
        }
    }

    /// With a base URL (publishing): the page's absolute address, for the canonical link and the
    /// Open Graph and Twitter card tags (`head-publishing.mustache`); `nil` without one.
    func publishingView(path: String) -> PublishingView? {
        guard let baseURL = config.baseURL else { return nil }
        return PublishingView(url: Self.absoluteURL(baseURL: baseURL, sitePath: path), siteName: config.title)
    }

    /// The address of the site file at `sitePath` under `baseURL`: `a/index.html` is `a/`.
    public static func absoluteURL(baseURL: String, sitePath: String) -> String {
        var path = sitePath
        if path == "index.html" {
            path = ""
        } else if path.hasSuffix("/index.html") {
            path.removeLast("index.html".count)
        }
        let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        return baseURL + encoded
    }

    /// `404.html`: the page a static host shows for a missing address, at any depth. With a base
    /// URL its links are absolute. Without one no relative link can reach `assets/`, so the page
    /// carries the stylesheet's page base inline (`notFoundStyle`), no icon and no search box, and
    /// "All conversations" is `index.html` (right from `file://` and at the site's top level),
    /// which the page's script corrects from the address: the site's root is the part before the
    /// deepest folder named like one of the site's top-level folders (`folders`: the
    /// conversations' ids), else the address's folder.
    public func renderNotFound(folders: [String] = []) -> RenderedFile {
        let shell = ShellView()
        shell.lang = Self.languageTag(config.layout.locale)
        shell.title = "Not found · \(config.title)"
        shell.description = "This page does not exist."
        let view: NotFoundView
        if let root = config.baseURL {
            shell.search = config.search
            shell.root = root
            view = NotFoundView(home: root + "index.html")
        } else {
            shell.inlineStyle = notFoundStyle
            let names = Set(folders.map { String($0.prefix { $0 != "/" }) } + ["assets", "media", "search"]).sorted()
            view = NotFoundView(
                home: "index.html",
                // `<\/` for `</`: the same string in JSON, and no name can end the `<script>`.
                topLevelNames: ("[" + names.map(JSONText.quoted).joined(separator: ",") + "]")
                    .replacingOccurrences(of: "</", with: "<\\/"))
        }
        shell.body = .writer(TemplateInvocation(templates.compiledTemplate("not-found"), view))
        let contents = HTMLBuffer(capacity: 4096)
        templates.compiledTemplate("base").render(shell, into: contents)
        return RenderedFile(path: "404.html", contents: contents.withBytes { Array($0) })
    }

    /// The marker in `assets/scrollback.css` that ends the page base (colours, fonts, links).
    static let pageBaseEnd = "/* End of the page base"

    /// The CSS `404.html` carries inline: `assets/scrollback.css` up to `pageBaseEnd` (all of it
    /// when a site's stylesheet has no marker), read from the one stylesheet at build time; empty
    /// if it holds `</`, which would end the `<style>` element.
    var notFoundStyle: String {
        let css = String(decoding: templates.assets["assets/scrollback.css"] ?? [], as: UTF8.self)
        let base = css.range(of: Self.pageBaseEnd).map { String(css[..<$0.lowerBound]) } ?? css
        return base.contains("</") ? "" : base
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
    static func countText(_ count: Int, noun: String = "message", plural: String? = nil) -> String {
        DecimalText.grouped(count) + " " + (count == 1 ? noun : plural ?? noun + "s")
    }

    /// A conversation page's `<meta name=description>` when the log has none: the same on every
    /// page and free of counts, so appending messages does not change it.
    func defaultDescription(_ summary: ConversationSummary) -> String {
        let names = summary.participantNames
        switch names.count {
        case 0: return "A conversation"
        case 1: return "A conversation with \(names[0])"
        case ...ParticipantNames.maximumNamed:
            return "A conversation between \(names.dropLast().joined(separator: ", ")) and \(names.last!)"
        default: return "A conversation between " + ParticipantNames.text(names)
        }
    }

    /// One entry of a page's pagination (`paginationEntries`).
    enum PaginationEntry: Equatable {
        /// Pages left out between two links.
        case gap
        /// A link to page `index` (0-based); `current` for the page it is on.
        case page(index: Int, current: Bool)
    }

    /// The page links of page `current` of `count`: the first, the last and three either side,
    /// with a gap where pages are left out.
    static func paginationEntries(current: Int, count: Int) -> [PaginationEntry] {
        var entries: [PaginationEntry] = []
        var previous = -1
        for index in 0..<count where index == 0 || index == count - 1 || abs(index - current) <= 3 {
            if previous >= 0, index > previous + 1 { entries.append(.gap) }
            entries.append(.page(index: index, current: index == current))
            previous = index
        }
        return entries
    }
}

/// `TemplateValue.writer` of the rows of one page: rendered straight into the page.
final class PageRows: TemplateWriter {
    let rows: MessageRenderer
    let plan: ConversationPlan
    let page: Int
    /// The local day already shown above these rows (a short thread's root), if any.
    let continuedDay: Int64?

    init(rows: MessageRenderer, plan: ConversationPlan, page: Int, continuing continuedDay: Int64? = nil) {
        self.rows = rows
        self.plan = plan
        self.page = page
        self.continuedDay = continuedDay
    }

    func write(into output: HTMLBuffer) {
        rows.resetCode()
        plan.forEachPlannedRow(ofPage: page, continuing: continuedDay) {
            rows.render($0, pageIndex: page, into: output)
        }
    }
}
