import ScrollbackLayout
import ScrollbackModel

// The view models of the templates in `Templates/`: one class per context a template sees, with
// the names it offers (`Templates/README.md` lists them for template authors). The hot ones
// (a message row, its timestamps, its bubble) are made once per conversation and refilled for
// every row; rendering reads them through the compiled accessors, so a row allocates nothing for
// its parts.

/// Shorthand for a class's schema builder (every view file of the templates uses it).
func schema<Object: TemplateObject>(_ type: Object.Type) -> TemplateSchemaBuilder<Object> {
    TemplateSchemaBuilder<Object>()
}

// MARK: - Pages

/// `base`: the page shell.
final class ShellView: TemplateObject {
    var lang = "en", title = "", description = "", root = ""
    var body: TemplateValue = .absent
    var publishing: PublishingView?
    /// Whether the page carries the search box (`search` in the config).
    var search = false
    /// The stylesheet to carry inline instead of linking `assets/` (`404.html` without a base URL,
    /// which is served at any depth, so no relative link reaches `assets/`).
    var inlineStyle: String?
    static let templateSchema = schema(ShellView.self)
        .text("inlineStyle") { $0.inlineStyle }
        .text("lang") { $0.lang }.text("title") { $0.title }.text("description") { $0.description }
        .text("root") { $0.root }.value("body") { $0.body }.flag("search") { $0.search }
        .object("publishing", { PublishingView.templateSchema }) { $0.publishing }.schema
}

/// `publishing` (with a base URL): the page's absolute address and the site's name.
final class PublishingView: TemplateObject {
    let url: String, siteName: String
    init(url: String, siteName: String) {
        self.url = url
        self.siteName = siteName
    }
    static let templateSchema = schema(PublishingView.self)
        .text("url") { $0.url }.text("siteName") { $0.siteName }.schema
}

/// `not-found`: the body of `404.html`.
final class NotFoundView: TemplateObject {
    let home: String
    /// Without a base URL: the site's top-level folder names as a JSON array, from which the page's
    /// script finds the site's root in the address it is served at; `nil` with one.
    let topLevelNames: String?
    init(home: String, topLevelNames: String? = nil) {
        self.home = home
        self.topLevelNames = topLevelNames
    }
    static let templateSchema = schema(NotFoundView.self).text("home") { $0.home }
        .text("topLevelNames") { $0.topLevelNames }.schema
}

/// A date for people and for `<time datetime>`.
final class DateView: TemplateObject {
    let text: String, iso: String
    init(_ date: FormattedDate) {
        text = date.text
        iso = date.iso
    }
    static let templateSchema = schema(DateView.self).text("text") { $0.text }.text("iso") { $0.iso }.schema
}

/// `range`: the first date, and the last when its text differs.
final class DateRangeView: TemplateObject {
    let first: DateView, last: DateView?
    init(first: FormattedDate, last: FormattedDate?) {
        self.first = DateView(first)
        self.last = last.flatMap { $0.text == first.text ? nil : DateView($0) }
    }
    static let templateSchema = schema(DateRangeView.self)
        .object("first", { DateView.templateSchema }) { $0.first }
        .object("last", { DateView.templateSchema }) { $0.last }.schema
}

/// `conversation`: a conversation page's body.
final class ConversationPageView: TemplateObject {
    var title = "", description: String?, listStyle = "", back = "../index.html", noAvatars = false
    /// Whether the conversation has several pages: the header's count is then this page's.
    var paged = false
    var participants: [ParticipantView] = []
    /// "9,990 others": the participants past `ParticipantNames.maximumNamed`, after the list.
    var otherParticipants: String?
    /// "3 participants": on pages without the list.
    var participantCount = ""
    var count = "", range: DateRangeView?
    var messages: TemplateValue = .absent, pagination: TemplateValue = .absent,
        paginationBottom: TemplateValue = .absent
    /// "2 pinned messages" and the links to them (`href`, `author`, `excerpt`), on every page.
    var pinnedCount: String?, pinned: [ReplyView] = []
    /// On a thread's own pages: the link back to its root, with the root's quote.
    var threadOf: ReplyView?
    /// Whether this is the list's last page: it ends with the `latest` anchor.
    var isLast = true
    /// The bar's links: the end of the list's last page (`#latest` on it) and its first page.
    var latest = "#latest", fromStart = "#main"
    /// The rows' renderer: after the rows are written, whether the page had a code block in a
    /// document (`hasCode`), so only such pages load `assets/code.js`.
    var codeRows: MessageRenderer?
    /// Whether the site ships the highlighter (`HighlightAssets`): `code.js` then loads it.
    var highlight = false
    static let templateSchema = schema(ConversationPageView.self)
        .flag("hasCode") { $0.codeRows?.sawCode ?? false }.flag("highlight") { $0.highlight }
        .flag("isLast") { $0.isLast }.text("latest") { $0.latest }.text("fromStart") { $0.fromStart }
        .text("pinnedCount") { $0.pinnedCount }.list("pinned", { ReplyView.templateSchema }) { $0.pinned }
        .object("threadOf", { ReplyView.templateSchema }) { $0.threadOf }
        .text("title") { $0.title }.text("description") { $0.description }.text("listStyle") { $0.listStyle }
        .text("back") { $0.back }.flag("noAvatars") { $0.noAvatars }.flag("paged") { $0.paged }
        .list("participants", { ParticipantView.templateSchema }) { $0.participants }
        .text("otherParticipants") { $0.otherParticipants }.text("participantCount") { $0.participantCount }
        .text("count") { $0.count }.object("range", { DateRangeView.templateSchema }) { $0.range }
        .value("messages") { $0.messages }.value("pagination") { $0.pagination }
        .value("paginationBottom") { $0.paginationBottom }.schema
}

/// One participant in a conversation page's header.
final class ParticipantView: TemplateObject {
    let name: String, anchor: String, avatar: AvatarView?
    /// The avatar partial marks `data-part=avatar` only inside message elements (spec §5).
    let inHeader = true
    init(name: String, anchor: String, avatar: AvatarView?) {
        self.name = name
        self.anchor = anchor
        self.avatar = avatar
    }
    static let templateSchema = schema(ParticipantView.self)
        .text("name") { $0.name }.text("anchor") { $0.anchor }.flag("inHeader") { $0.inHeader }
        .object("avatar", { AvatarView.templateSchema }) { $0.avatar }.schema
}

/// `index`: the conversation list, in sections when the sources sort conversations that way.
final class IndexView: TemplateObject {
    let title: String, description: String?, conversations: [IndexEntryView], sections: [IndexSectionView]
    init(title: String, description: String?, conversations: [IndexEntryView], sections: [IndexSectionView]) {
        self.title = title
        self.description = description
        self.conversations = conversations
        self.sections = sections
    }
    /// Whether the page carries the site's search box, whose field then filters the cards too
    /// (one box on the index, not two).
    var search = false
    static let templateSchema = schema(IndexView.self)
        .text("title") { $0.title }.text("description") { $0.description }.flag("search") { $0.search }
        .flag("sectioned") { $0.sections.count > 1 }
        .list("conversations", { IndexEntryView.templateSchema }) { $0.conversations }
        .list("sections", { IndexSectionView.templateSchema }) { $0.sections }
        .number("count") { $0.conversations.count }
        .text("total") { SiteRenderer.countText($0.conversations.count, noun: "conversation") }
        .flag("filterable") { $0.conversations.count > 1 }.schema
}

/// One section of the index ("Channels", "Direct messages"); the one unnamed section when the
/// conversations are not sorted into sections.
final class IndexSectionView: TemplateObject {
    let name: String?, anchor: String, conversations: [IndexEntryView]
    init(name: String?, anchor: String, conversations: [IndexEntryView]) {
        self.name = name
        self.anchor = anchor
        self.conversations = conversations
    }
    static let templateSchema = schema(IndexSectionView.self)
        .text("name") { $0.name }.text("anchor") { $0.anchor }
        .text("count") { SiteRenderer.countText($0.conversations.count, noun: "conversation") }
        .list("conversations", { IndexEntryView.templateSchema }) { $0.conversations }.schema
}

/// One conversation in the index.
final class IndexEntryView: TemplateObject {
    var href = "", title = "", participants = "", count = "", description: String?, preview: String?
    /// The app an imported conversation came from (`nil` for a native log).
    var app: SourceApp?
    var range: DateRangeView?
    /// Initials of the conversation's title on a colour (an index is a list of faces, like a messenger's).
    var avatar: AvatarView?
    /// The avatar partial marks `data-part=avatar` only inside message elements (spec §5).
    let inHeader = true
    /// The title's heading level: 3 under a section's heading, else 2.
    var level = 2
    static let templateSchema = schema(IndexEntryView.self)
        .object("avatar", { AvatarView.templateSchema }) { $0.avatar }.flag("inHeader") { $0.inHeader }
        .number("level") { $0.level }
        .text("href") { $0.href }.text("title") { $0.title }.text("participants") { $0.participants }
        .text("count") { $0.count }.text("preview") { $0.preview }
        // A card without a description is falsy here rather than absent: an absent name climbs to
        // the index's own `description` (the site's), which every such card then repeated.
        .value("description") { $0.description.map(TemplateValue.text) ?? .flag(false) }
        .text("app") { $0.app?.name }.text("appKey") { $0.app?.key }
        .object("range", { DateRangeView.templateSchema }) { $0.range }.schema
}

/// `pagination`: previous/next links and a window of page numbers, each naming the dates its
/// page holds.
final class PaginationView: TemplateObject {
    let place: String, prev: String?, next: String?, pages: [PageLinkView], pageNumber: Int, pageCount: Int
    /// The last page (the newest messages), from any other page.
    let newest: String?
    /// The dates of the previous and next pages ("Mar 3, 2024 – Mar 9, 2024").
    let prevDates: String?, nextDates: String?
    init(place: String, current: Int, count: Int, files: PageFiles = .conversation, days: [PageDays?] = []) {
        self.place = place
        let dates = { (index: Int) in Self.dates(ofPage: index, count: count, days: days) }
        prev = current > 0 ? files.name(ofPage: current - 1) : nil
        next = current < count - 1 ? files.name(ofPage: current + 1) : nil
        prevDates = current > 0 ? dates(current - 1) : nil
        nextDates = current < count - 1 ? dates(current + 1) : nil
        newest = current < count - 1 ? files.name(ofPage: count - 1) + "#" + SiteRenderer.latestAnchor : nil
        pages = SiteRenderer.paginationEntries(current: current, count: count).map { entry in
            if case .page(let index, _) = entry { return PageLinkView(entry, files: files, dates: dates(index)) }
            return PageLinkView(entry, files: files, dates: nil)
        }
        pageNumber = current + 1
        pageCount = count
    }

    /// What page `index` holds: its first and last day; the last page, which grows as messages
    /// are added, by its first day only, so the links to it stay as they are.
    static func dates(ofPage index: Int, count: Int, days: [PageDays?]) -> String? {
        guard index < days.count, let day = days[index] else { return nil }
        if index == count - 1 { return "from " + day.first }
        return day.first == day.last ? day.first : day.first + " – " + day.last
    }

    static let templateSchema = schema(PaginationView.self)
        .text("where") { $0.place }.text("prev") { $0.prev }.text("next") { $0.next }.text("newest") { $0.newest }
        .text("prevDates") { $0.prevDates }.text("nextDates") { $0.nextDates }
        .list("pages", { PageLinkView.templateSchema }) { $0.pages }
        .number("pageNumber") { $0.pageNumber }.number("pageCount") { $0.pageCount }.schema
}

/// One entry of the pagination: a page link (with the dates its page holds) or a gap.
final class PageLinkView: TemplateObject {
    let entry: SiteRenderer.PaginationEntry, files: PageFiles, dates: String?
    init(_ entry: SiteRenderer.PaginationEntry, files: PageFiles, dates: String?) {
        self.entry = entry
        self.files = files
        self.dates = dates
    }
    static let templateSchema = schema(PageLinkView.self)
        .flag("gap") { if case .gap = $0.entry { true } else { false } }
        .flag("current") { if case .page(_, let current) = $0.entry { current } else { false } }
        .number("number") { if case .page(let index, _) = $0.entry { index + 1 } else { nil } }
        .text("href") { if case .page(let index, _) = $0.entry { $0.files.name(ofPage: index) } else { nil } }
        .text("dates") { $0.dates }.schema
}
