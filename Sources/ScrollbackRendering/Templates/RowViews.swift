import ScrollbackLayout
import ScrollbackModel

// The view models of a message row and its parts (`Templates/message.mustache` and its partials).

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
