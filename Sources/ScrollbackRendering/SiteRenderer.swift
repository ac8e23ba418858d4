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
        let conversation = layout.conversation
        var rows = MessageRenderer(
            layout: layout, rows: self.rows, customRenderers: customRenderers, remoteMedia: config.remoteMedia)
        let listStyle = "\(Self.bubbleWidthStyle(layout.options.messageMaxWidth));"
            + "--bubble-radius:\(layout.options.messageCornerRadius)"
        let participants: [[String: Any]] = conversation.participants.map { participant in
            var context: [String: Any] = ["name": participant.name, "anchor": "p-" + HTMLText.slug(participant.id)]
            if let avatar = rows.avatars[participant.id], !templates.isEmpty("avatar") { context["avatar"] = avatar.context }
            return context
        }
        let description = conversation.description ?? defaultDescription(layout.summary)
        // swift-mustache's escaping keeps the code points HTML forbids (control characters); the
        // messages are already clean, so the page around them is only cleaned when its own texts need it.
        let headerTexts = [conversation.displayTitle, description] + conversation.participants.map(\.name)
        let pageNeedsCleaning = headerTexts.contains { HTMLText.replacingForbiddenCodePoints($0) != $0 }
        var files: [RenderedFile] = []
        files.reserveCapacity(layout.pages.count)
        let pageCount = max(layout.pages.count, 1)
        for page in layout.pages {
            var messages = ""
            messages.reserveCapacity(page.items.count * 900)
            for item in page.items {
                rows.render(item, pageIndex: page.index, into: &messages)
            }
            var context: [String: Any] = [
                "title": conversation.displayTitle, "participants": participants, "messages": messages,
                "listStyle": listStyle, "back": "../index.html", "count": Self.countText(layout.summary.messageCount),
                "noAvatars": templates.isEmpty("avatar"),
            ]
            if let text = conversation.description, !text.isEmpty { context["description"] = text }
            if let range = dateRange(layout.summary) { context["range"] = range }
            if pageCount > 1 {
                // Above and below the list: two landmarks, so each gets its own name ("Pages, top").
                var links = pagination(current: page.index, count: pageCount)
                links["where"] = "top"
                context["pagination"] = templates.render("pagination", links)
                links["where"] = "bottom"
                context["paginationBottom"] = templates.render("pagination", links)
            }
            var body = templates.render("conversation", context)
            if pageNeedsCleaning { body = HTMLText.replacingForbiddenCodePoints(body) }
            let title = page.index == 0 ? conversation.displayTitle : "\(conversation.displayTitle) (page \(page.index + 1))"
            let html = shell(title: "\(title) · \(config.title)", description: description, root: "../", body: body,
                             locale: layout.options.locale)
            files.append(
                RenderedFile(path: conversation.id + "/" + Self.pageFileName(page.index), contents: Array(html.utf8)))
        }
        files.append(contentsOf: rows.extraFiles)
        return (files, rows.diagnostics)
    }

    /// The index page.
    public func renderIndex(_ summaries: [ConversationSummary]) -> RenderedFile {
        let conversations: [[String: Any]] = summaries.map { summary in
            var context: [String: Any] = [
                "href": summary.id + "/index.html", "title": summary.title,
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
        let body = HTMLText.replacingForbiddenCodePoints(templates.render("index", context))
        let description = config.description ?? "\(Self.countText(summaries.count, noun: "conversation"))"
        let html = shell(title: config.title, description: description, root: "", body: body, locale: config.layout.locale)
        return RenderedFile(path: "index.html", contents: Array(html.utf8))
    }

    // MARK: - Helpers

    /// The page shell (`base`) around `body`.
    func shell(title: String, description: String, root: String, body: String, locale: String) -> String {
        templates.render(
            "base",
            [
                "lang": Self.languageTag(locale), "title": HTMLText.replacingForbiddenCodePoints(title),
                "description": HTMLText.replacingForbiddenCodePoints(description), "root": root, "body": body,
            ] as [String: Any])
    }

    /// `en_US` → `en-US`; anything that is not letters, digits and separators → `en`.
    static func languageTag(_ locale: String) -> String {
        let tag = locale.replacingOccurrences(of: "_", with: "-")
        let valid = !tag.isEmpty && tag.utf8.count <= 35
            && tag.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
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

    func defaultDescription(_ summary: ConversationSummary) -> String {
        let names = summary.participantNames.joined(separator: ", ")
        return "\(Self.countText(summary.messageCount)) between \(names)"
    }

    func dateRange(_ summary: ConversationSummary) -> [String: Any]? {
        guard let first = summary.firstDate else { return nil }
        var range: [String: Any] = ["first": ["text": first.text, "iso": first.iso]]
        if let last = summary.lastDate, last.text != first.text { range["last"] = ["text": last.text, "iso": last.iso] }
        return range
    }

    /// Previous/next links and a window of page numbers (first, last, and three either side).
    func pagination(current: Int, count: Int) -> [String: Any] {
        var context: [String: Any] = [:]
        if current > 0 { context["prev"] = Self.pageFileName(current - 1) }
        if current < count - 1 { context["next"] = Self.pageFileName(current + 1) }
        var pages: [[String: Any]] = []
        var previous = -1
        for index in 0..<count where index == 0 || index == count - 1 || abs(index - current) <= 3 {
            // Every key is set on every entry so lookups stop here instead of climbing the context stack.
            if previous >= 0, index > previous + 1 { pages.append(["gap": true, "current": false]) }
            pages.append(["number": index + 1, "href": Self.pageFileName(index), "current": index == current, "gap": false])
            previous = index
        }
        context["pages"] = pages
        context["pageNumber"] = current + 1
        context["pageCount"] = count
        return context
    }
}
