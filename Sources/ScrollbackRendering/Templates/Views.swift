import ScrollbackLayout
import ScrollbackModel

// The view models of the templates in `Templates/`: one class per context a template sees, with
// the names it offers (`Templates/README.md` lists them for template authors). The hot ones
// (a message row, its timestamps, its bubble) are made once per conversation and refilled for
// every row; rendering reads them through the compiled accessors, so a row allocates nothing for
// its parts.

/// Shorthand for a class's schema builder.
private func schema<Object: TemplateObject>(_ type: Object.Type) -> TemplateSchemaBuilder<Object> {
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

// MARK: - Rows

/// `day-separator`.
final class DayView: TemplateObject {
    var text = "", iso = "", repeats = false
    static let templateSchema = schema(DayView.self)
        .text("text") { $0.text }.text("iso") { $0.iso }.flag("repeats") { $0.repeats }.schema
}

/// `avatar`: an image, or initials on a colour. Made once per participant.
final class AvatarView: TemplateObject {
    let name: String, initials: String, colorClass: String, colorStyle: String?, src: String?
    init(name: String, initials: String, colorClass: String, colorStyle: String?, src: String?) {
        self.name = name
        self.initials = initials
        self.colorClass = colorClass
        self.colorStyle = colorStyle
        self.src = src
    }
    static let templateSchema = schema(AvatarView.self)
        .text("name") { $0.name }.text("initials") { $0.initials }.text("colorClass") { $0.colorClass }
        .text("colorStyle") { $0.colorStyle }.text("src") { $0.src }.schema
}

/// `header`: the sender's name. Made once per participant.
final class HeaderView: TemplateObject {
    let name: String, anchor: String, colorClass: String, colorStyle: String?
    init(name: String, anchor: String, colorClass: String, colorStyle: String?) {
        self.name = name
        self.anchor = anchor
        self.colorClass = colorClass
        self.colorStyle = colorStyle
    }
    static let templateSchema = schema(HeaderView.self)
        .text("name") { $0.name }.text("anchor") { $0.anchor }.text("colorClass") { $0.colorClass }
        .text("colorStyle") { $0.colorStyle }.schema
}

/// `timestamp`.
final class TimeView: TemplateObject {
    var anchor = "", text = "", iso = InlineISOTime(text: "")
    /// The time with seconds, for the tooltip (`text` may leave them out).
    var title = ""
    /// Above the bubble (`top`, `where` = `tt`) or below it (`tb`). The shipped template marks only
    /// the top place with a class: the default (below) is on most messages, and its link is
    /// styled by the `<time>` it holds.
    let isTop: Bool
    init(isTop: Bool) { self.isTop = isTop }
    static let templateSchema = schema(TimeView.self)
        .text("where") { $0.isTop ? "tt" : "tb" }.flag("top") { $0.isTop }.text("anchor") { $0.anchor }
        .value("iso") { .isoTime($0) }
        .text("text") { $0.text }.text("title") { $0.title }.schema
}

/// `reply`: the quote of the message this one answers.
final class ReplyView: TemplateObject {
    let href: String, author: String?, excerpt: String
    init(href: String, author: String?, excerpt: String) {
        self.href = href
        self.author = author
        self.excerpt = excerpt
    }
    static let templateSchema = schema(ReplyView.self)
        .text("href") { $0.href }.text("author") { $0.author }.text("excerpt") { $0.excerpt }.schema
}

/// One reaction: emoji (or a custom emoji's image), count, and who.
final class ReactionView: TemplateObject {
    let emoji: String, count: Int, names: String
    /// The custom emoji's image, when it is one the page can load.
    let image: ReactionImageView?
    /// `resolve` applies the site's media rules to a custom emoji's image; one that cannot be
    /// shown (missing, remote media off) leaves the reaction as its text (`:name:`).
    init(_ reaction: ReactionSummary, resolve: (MediaSource) -> ResolvedMedia) {
        emoji = reaction.emoji
        count = reaction.count
        names = Self.who(reaction.senderNames, count: reaction.count)
        if let custom = reaction.customEmoji, case .url(let src) = resolve(custom.image) {
            image = ReactionImageView(src: src, alt: ":" + custom.name + ":")
        } else {
            image = nil
        }
    }

    /// Who reacted, as the tooltip and screen readers say it: the names the log gives, and those
    /// it only counts as a number ("Ann, Bo and 3 others", or "42 people" when it names nobody).
    static func who(_ names: [String], count: Int) -> String {
        let unnamed = count - names.count
        guard unnamed > 0 else { return names.joined(separator: ", ") }
        if names.isEmpty { return unnamed == 1 ? "1 person" : "\(unnamed) people" }
        return names.joined(separator: ", ") + " and \(unnamed) " + (unnamed == 1 ? "other" : "others")
    }
    static let templateSchema = schema(ReactionView.self)
        .text("emoji") { $0.emoji }.number("count") { $0.count }.text("names") { $0.names }
        .object("image", { ReactionImageView.templateSchema }) { $0.image }.schema
}

/// A custom emoji's image in a reaction pill: its URL and `:name:` as alternative text.
final class ReactionImageView: TemplateObject {
    let src: String, alt: String
    init(src: String, alt: String) {
        self.src = src
        self.alt = alt
    }
    static let templateSchema = schema(ReactionImageView.self).text("src") { $0.src }.text("alt") { $0.alt }.schema
}

/// `footer`: edited mark and delivery status.
final class FooterView: TemplateObject {
    let edited: DateView?, status: StatusView?
    init(edited: DateView?, status: StatusView?) {
        self.edited = edited
        self.status = status
    }
    static let templateSchema = schema(FooterView.self)
        .object("edited", { DateView.templateSchema }) { $0.edited }
        .object("status", { StatusView.templateSchema }) { $0.status }.schema
}

/// A delivery status: mark, label and class.
final class StatusView: TemplateObject, @unchecked Sendable {
    let mark: String, label: String, cls: String
    init(mark: String, label: String, cls: String) {
        self.mark = mark
        self.label = label
        self.cls = cls
    }
    static let sent = StatusView(mark: "✓", label: "Sent", cls: "sent")
    static let delivered = StatusView(mark: "✓✓", label: "Delivered", cls: "dlv")
    static let read = StatusView(mark: "✓✓", label: "Read", cls: "read")
    static let templateSchema = schema(StatusView.self)
        .text("mark") { $0.mark }.text("label") { $0.label }.text("cls") { $0.cls }.schema
}

/// `message`: one message element with its parts. One per conversation, refilled for every row.
final class MessageRowView: TemplateObject {
    var anchor = "", id = "", kind = "", sender: String?, align = "", position = ""
    /// Drawn as a full-width document, not a bubble (`RowDecisions.isDocument`).
    var document = false
    var avatar: AvatarView?, header: HeaderView?
    var timestampTop: TimeView?, timestampBottom: TimeView?
    var reply: ReplyView?
    /// The bubble, rendered by its kind's template.
    var body = HTMLBuffer(capacity: 1024)
    var reactions: [ReactionView] = []
    var footer: FooterView?
    /// Visually hidden text for screen readers when the header or the timestamp is not drawn
    /// (collapsed in a group), e.g. "Mia Hoffmann, 9:02 AM:": written into `spokenText` (as
    /// text, escaped when printed), so a row makes no string for it.
    var spoken = false
    let spokenText = HTMLBuffer(capacity: 128)
    /// The sender's name over the first message of a page that continues a group from the page
    /// before: not the group's header, a reminder of who is speaking.
    var continuedName: String?
    /// Spec §1.1: a pin mark, the original author of a forward, a thread reply whose root is not
    /// in the log, and a root's thread (`ThreadBlock`).
    var pinned = false, forwardedFrom: String?, orphan = false
    /// The edit time of a message whose footer is collapsed (inside a group, spec §3): shown under
    /// the bubble where the timestamp and footer go (not between name and bubble), so an edit in
    /// the middle of a group is not lost.
    var editedNote: DateView?
    var thread: TemplateValue = .absent
    static let templateSchema = schema(MessageRowView.self)
        .flag("pinned") { $0.pinned }.text("forwardedFrom") { $0.forwardedFrom }.flag("orphan") { $0.orphan }
        .object("editedNote", { DateView.templateSchema }) { $0.editedNote }
        .flag("hasNote") { $0.pinned || $0.forwardedFrom != nil || $0.orphan }
        .value("thread") { $0.thread }
        .text("anchor") { $0.anchor }.text("id") { $0.id }.text("kind") { $0.kind }.text("sender") { $0.sender }
        .text("align") { $0.align }.text("position") { $0.position }.flag("document") { $0.document }
        .object("avatar", { AvatarView.templateSchema }) { $0.avatar }
        .object("header", { HeaderView.templateSchema }) { $0.header }
        .object("timestampTop", { TimeView.templateSchema }) { $0.timestampTop }
        .object("timestampBottom", { TimeView.templateSchema }) { $0.timestampBottom }
        .object("reply", { ReplyView.templateSchema }) { $0.reply }
        .value("body") { .bytes($0.body) }
        .flag("hasReactions") { !$0.reactions.isEmpty }
        .list("reactions", { ReactionView.templateSchema }) { $0.reactions }
        .object("footer", { FooterView.templateSchema }) { $0.footer }
        .value("spoken") { $0.spoken ? .bytes($0.spokenText) : .absent }.text("continuedName") { $0.continuedName }
        .schema
}

/// `thread`: a root's thread summary, and its replies when they open in place.
final class ThreadView: TemplateObject {
    var count = "", names = "", last: DateView?, inline = false, href: String?
    var replies: TemplateValue = .absent
    static let templateSchema = schema(ThreadView.self)
        .text("count") { $0.count }.text("names") { $0.names }.object("last", { DateView.templateSchema }) { $0.last }
        .flag("inline") { $0.inline }.text("href") { $0.href }.value("replies") { $0.replies }.schema
}

/// `thread-reference`: a broadcast reply's place in the timeline, linking to its message element.
final class ThreadReferenceView: TemplateObject {
    let href: String, author: String?, excerpt: String, time: String, iso: String
    init(href: String, author: String?, excerpt: String, time: String, iso: String) {
        self.href = href
        self.author = author
        self.excerpt = excerpt
        self.time = time
        self.iso = iso
    }
    static let templateSchema = schema(ThreadReferenceView.self)
        .text("href") { $0.href }.text("author") { $0.author }.text("excerpt") { $0.excerpt }.text("time") { $0.time }
        .text("iso") { $0.iso }.schema
}

// MARK: - Bubbles (`kinds/…`)

/// `kinds/text` and `kinds/attributedText`: markup made in Swift (linkified text, sanitized rich text).
final class HTMLBodyView: TemplateObject {
    var html: TemplateValue = .absent
    static let templateSchema = schema(HTMLBodyView.self).value("html") { $0.html }.schema
}

/// `kinds/emoji` and `kinds/system`: text.
final class TextBodyView: TemplateObject {
    var text = ""
    static let templateSchema = schema(TextBodyView.self).text("text") { $0.text }.schema
}

/// `image-placeholder`: the one-line chip of media that cannot be shown: its kind (`label`:
/// Photo, Sticker, Video, Audio, Voice message, File, Media), its file name when known, and a
/// link to open it when it is remote media that is turned off; `original` is the log's reference.
final class PlaceholderView: TemplateObject {
    let original: String, link: String?, label: String, name: String?
    init(original: String, link: String?, label: String, name: String?) {
        self.original = original
        self.link = link
        self.label = label
        self.name = name
    }
    static let templateSchema = schema(PlaceholderView.self)
        .text("original") { $0.original }.text("link") { $0.link }.text("label") { $0.label }
        .text("name") { $0.name }.schema
}

/// A pixel size.
final class SizeView: TemplateObject {
    let w: Int, h: Int
    init?(_ size: PixelSize?) {
        guard let size, size.width > 0, size.height > 0 else { return nil }
        w = size.width
        h = size.height
    }
    static let templateSchema = schema(SizeView.self).number("w") { $0.w }.number("h") { $0.h }.schema
}

/// The image of `kinds/photo`.
final class ImageView: TemplateObject {
    let src: String, alt: String, size: SizeView?
    init(src: String, alt: String, size: SizeView?) {
        self.src = src
        self.alt = alt
        self.size = size
    }
    static let templateSchema = schema(ImageView.self)
        .text("src") { $0.src }.text("alt") { $0.alt }.object("size", { SizeView.templateSchema }) { $0.size }.schema
}

/// `kinds/photo`.
final class PhotoView: TemplateObject {
    var image: ImageView?, placeholder: String?, caption: String?
    static let templateSchema = schema(PhotoView.self)
        .object("image", { ImageView.templateSchema }) { $0.image }.text("placeholder") { $0.placeholder }
        .text("caption") { $0.caption }.schema
}

/// The video of `kinds/video`.
final class VideoSourceView: TemplateObject {
    var src = "", poster: String?, size: SizeView?, title: String?
    static let templateSchema = schema(VideoSourceView.self)
        .text("src") { $0.src }.text("poster") { $0.poster }.object("size", { SizeView.templateSchema }) { $0.size }
        .text("title") { $0.title }.schema
}

/// `kinds/video`.
final class VideoView: TemplateObject {
    var video: VideoSourceView?, placeholder: String?, caption: String?, duration: String?
    static let templateSchema = schema(VideoView.self)
        .object("video", { VideoSourceView.templateSchema }) { $0.video }.text("placeholder") { $0.placeholder }
        .text("caption") { $0.caption }.text("duration") { $0.duration }.schema
}

/// One `<source>` of `kinds/audio`: a file and its MIME type.
final class AudioSourceView: TemplateObject {
    let src: String, type: String
    init(src: String, type: String) {
        self.src = src
        self.type = type
    }
    static let templateSchema = schema(AudioSourceView.self).text("src") { $0.src }.text("type") { $0.type }.schema
}

/// `kinds/audio`: `src` is the file; `sources`, when not empty, lists it and its transcoded copy.
final class AudioView: TemplateObject {
    var title: String?, src: String?, placeholder: String?, duration: String?
    var sources: [AudioSourceView] = []
    static let templateSchema = schema(AudioView.self)
        .text("title") { $0.title }.text("src") { $0.src }.text("placeholder") { $0.placeholder }
        .text("duration") { $0.duration }.list("sources", { AudioSourceView.templateSchema }) { $0.sources }.schema
}

/// `kinds/location`: a card linking to OpenStreetMap.
final class LocationView: TemplateObject {
    var name: String?, address: String?, coords: String?, href: String?
    static let templateSchema = schema(LocationView.self)
        .text("name") { $0.name }.text("address") { $0.address }.text("coords") { $0.coords }
        .text("href") { $0.href }.schema
}

/// A phone number or e-mail address of a contact card, with its link when it has a safe one.
final class ContactLinkView: TemplateObject {
    let text: String, href: String?
    init(text: String, href: String?) {
        self.text = text
        self.href = href
    }
    static let templateSchema = schema(ContactLinkView.self).text("text") { $0.text }.text("href") { $0.href }.schema
}

/// `kinds/contact`: a card with `tel:`/`mailto:` links and the `.vcf` download.
final class ContactView: TemplateObject {
    var name = "", initials = "", phones: [ContactLinkView] = [], emails: [ContactLinkView] = []
    var vcf = "", vcfName = ""
    static let templateSchema = schema(ContactView.self)
        .text("name") { $0.name }.text("initials") { $0.initials }
        .list("phones", { ContactLinkView.templateSchema }) { $0.phones }
        .list("emails", { ContactLinkView.templateSchema }) { $0.emails }
        .text("vcf") { $0.vcf }.text("vcfName") { $0.vcfName }.schema
}

/// The card of `kinds/linkPreview`.
final class LinkCardView: TemplateObject {
    var href: String?, title: String?, teaser: String?, site: String?, domain: String?, thumb: String?
    static let templateSchema = schema(LinkCardView.self)
        .text("href") { $0.href }.text("title") { $0.title }.text("teaser") { $0.teaser }.text("site") { $0.site }
        .text("domain") { $0.domain }.text("thumb") { $0.thumb }.schema
}

/// `kinds/linkPreview`: the text, then the preview card.
final class LinkPreviewView: TemplateObject {
    var html: String?, card = LinkCardView()
    static let templateSchema = schema(LinkPreviewView.self)
        .text("html") { $0.html }.object("card", { LinkCardView.templateSchema }) { $0.card }.schema
}

/// `kinds/file`: a file card (type icon, name, human size) that downloads the file.
final class FileView: TemplateObject {
    var name = "", icon = "", size: String?, href: String?, placeholder: String?, caption: String?
    static let templateSchema = schema(FileView.self)
        .text("name") { $0.name }.text("icon") { $0.icon }.text("size") { $0.size }.text("href") { $0.href }
        .text("placeholder") { $0.placeholder }.text("caption") { $0.caption }.schema
}

/// `kinds/custom`: the bubble around what a custom renderer or `custom/<id>` template drew.
final class CustomBodyView: TemplateObject {
    let id: String, html: String
    init(id: String, html: String) {
        self.id = id
        self.html = html
    }
    static let templateSchema = schema(CustomBodyView.self).text("id") { $0.id }.text("html") { $0.html }.schema
}

/// `kinds/custom-fallback`: a visible card for a custom id nobody renders.
final class CustomFallbackView: TemplateObject {
    let id: String, json: String
    init(id: String, json: String) {
        self.id = id
        self.json = json
    }
    static let templateSchema = schema(CustomFallbackView.self).text("id") { $0.id }.text("json") { $0.json }.schema
}

/// `custom/<id>`: a custom message's data and where it sits.
final class CustomTemplateView: TemplateObject {
    let id: String, message: CustomMessageView, bubbleMaxWidth: String, cornerRadius: String, data: JSONValue
    init(id: String, message: CustomMessageView, bubbleMaxWidth: String, cornerRadius: String, data: JSONValue) {
        self.id = id
        self.message = message
        self.bubbleMaxWidth = bubbleMaxWidth
        self.cornerRadius = cornerRadius
        self.data = data
    }
    static let templateSchema = schema(CustomTemplateView.self)
        .text("id") { $0.id }.object("message", { CustomMessageView.templateSchema }) { $0.message }
        .text("bubbleMaxWidth") { $0.bubbleMaxWidth }.text("cornerRadius") { $0.cornerRadius }
        .json("data") { $0.data }.object("poll", { PollView.templateSchema }) { PollView($0.data) }.schema
}

/// `poll` of a `custom/<id>` template: the data's `question` and `options` (`{label, votes}` or
/// plain strings) with each option's share of the votes and the winner, or `nil` when the data
/// has no options.
final class PollView: TemplateObject {
    let question: String?, options: [PollOptionView], total: Int
    init?(_ data: JSONValue) {
        guard case .object(let fields) = data,
            let options = fields.first(where: { $0.key == "options" }), case .array(let items) = options.value
        else { return nil }
        if case .string(let text)? = fields.first(where: { $0.key == "question" })?.value {
            question = text
        } else {
            question = nil
        }
        let parsed: [(label: String, votes: Int?)] = items.compactMap { item in
            switch item {
            case .string(let label): return (label, nil)
            case .object(let members):
                guard case .string(let label)? = members.first(where: { $0.key == "label" })?.value else { return nil }
                if case .number(let text)? = members.first(where: { $0.key == "votes" })?.value, let votes = Int(text),
                    votes >= 0
                {
                    return (label, votes)
                }
                return (label, nil)
            default: return nil
            }
        }
        // Counts come from the log: the sum saturates and shares are taken in floating point, so
        // no vote count, however large, can overflow.
        let total = parsed.reduce(0) { sum, option in
            let (added, overflow) = sum.addingReportingOverflow(option.votes ?? 0)
            return overflow ? Int.max : added
        }
        let share = parsed.reduce(0.0) { $0 + Double($1.votes ?? 0) }
        let most = parsed.compactMap(\.votes).max() ?? 0
        self.total = total
        self.options = parsed.map { option in
            PollOptionView(
                label: option.label, votes: option.votes,
                percent: total > 0 ? Int((Double(option.votes ?? 0) * 100 / share).rounded()) : 0,
                wins: most > 0 && option.votes == most)
        }
    }
    static let templateSchema = schema(PollView.self)
        .text("question") { $0.question }.list("options", { PollOptionView.templateSchema }) { $0.options }
        .number("total") { $0.total }.flag("hasVotes") { $0.total > 0 }.schema
}

/// One option of a `PollView`: its votes, its rounded share in percent, and whether it leads.
final class PollOptionView: TemplateObject {
    let label: String, votes: Int?, percent: Int, wins: Bool
    init(label: String, votes: Int?, percent: Int, wins: Bool) {
        self.label = label
        self.votes = votes
        self.percent = percent
        self.wins = wins
    }
    static let templateSchema = schema(PollOptionView.self)
        .text("label") { $0.label }.number("votes") { $0.votes }.number("percent") { $0.percent }
        .flag("wins") { $0.wins }.schema
}

/// The message of a `custom/<id>` template.
final class CustomMessageView: TemplateObject {
    let id: String, date: String, iso: String, sender: String?, senderName: String?
    init(id: String, date: String, iso: String, sender: String?, senderName: String?) {
        self.id = id
        self.date = date
        self.iso = iso
        self.sender = sender
        self.senderName = senderName
    }
    static let templateSchema = schema(CustomMessageView.self)
        .text("id") { $0.id }.text("date") { $0.date }.text("iso") { $0.iso }.text("sender") { $0.sender }
        .text("senderName") { $0.senderName }.schema
}

/// `dates`: a conversation's date list page.
final class DateListView: TemplateObject {
    var title = "", back = "../index.html", first = "index.html", count = ""
    var newest: String?
    var months: [DateListMonthView] = []
    static let templateSchema = schema(DateListView.self)
        .text("title") { $0.title }.text("back") { $0.back }.text("first") { $0.first }.text("count") { $0.count }
        .text("newest") { $0.newest }.list("months", { DateListMonthView.templateSchema }) { $0.months }.schema
}

/// One month of the date list.
final class DateListMonthView: TemplateObject {
    let label: String, iso: String
    let days: [DateListDayView]
    init(label: String, iso: String, days: [DateListDayView]) {
        self.label = label
        self.iso = iso
        self.days = days
    }
    static let templateSchema = schema(DateListMonthView.self)
        .text("label") { $0.label }.text("iso") { $0.iso }
        .list("days", { DateListDayView.templateSchema }) { $0.days }.schema
}

/// One day of the date list: its link to the day's first message.
final class DateListDayView: TemplateObject {
    let href: String, iso: String, text: String, number: String
    init(href: String, iso: String, text: String, number: String) {
        self.href = href
        self.iso = iso
        self.text = text
        self.number = number
    }
    static let templateSchema = schema(DateListDayView.self)
        .text("href") { $0.href }.text("iso") { $0.iso }.text("text") { $0.text }.text("number") { $0.number }
        .schema
}
