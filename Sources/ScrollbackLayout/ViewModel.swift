import Foundation
import ScrollbackModel

// The view model: everything a template shows, decided here so templates never compute layout.

/// Which side a message sits on (`data-align`).
public enum MessageAlignment: String, Hashable, Sendable {
    case left, right, center
}

/// A message's place in its group (`data-group-position`).
public enum GroupPosition: String, Hashable, Sendable {
    case single, first, middle, last
}

/// What the index lists about one conversation.
public struct ConversationSummary: Hashable, Sendable {
    public var id: String
    public var title: String
    public var description: String?
    /// The index section it is listed under (`Conversation.section`).
    public var section: String?
    /// Participant display names in log order.
    public var participantNames: [String]
    public var messageCount: Int
    /// First and last message dates, formatted for people, and as ISO 8601 for `<time>`.
    public var firstDate: FormattedDate?
    public var lastDate: FormattedDate?
    /// "Sender: text" of the last message, cut to a sensible length.
    public var lastMessagePreview: String?
    /// How many pages the timeline has: the index opens a conversation at its last page.
    public var pageCount = 1
    /// The export format its messages were imported from (`ExportSource.format`: `slack`,
    /// `discord`, …), which the index shows as the card's app; `nil` for a log whose messages
    /// name no source.
    public var app: String?

    /// Creates a summary.
    public init(
        id: String, title: String, description: String?, participantNames: [String], messageCount: Int,
        firstDate: FormattedDate?, lastDate: FormattedDate?, lastMessagePreview: String?, section: String? = nil
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.section = section
        self.participantNames = participantNames
        self.messageCount = messageCount
        self.firstDate = firstDate
        self.lastDate = lastDate
        self.lastMessagePreview = lastMessagePreview
    }
}

/// A date both ways: for people and for machines.
public struct FormattedDate: Hashable, Sendable {
    /// Formatted with the configured locale, zone and pattern.
    public var text: String
    /// ISO 8601 with the zone's offset, for `<time datetime>`.
    public var iso: String

    /// Creates a formatted date.
    public init(text: String, iso: String) {
        self.text = text
        self.iso = iso
    }
}

/// A page's own message count and date range, shown in its header.
///
/// Per page rather than for the whole conversation, so appending a message changes only the
/// last pages (the index page keeps the conversation's totals).
public struct PageHeader: Sendable, Equatable {
    /// Messages on the page.
    public var messageCount: Int
    /// The first and last message's dates, with their day.
    public var firstDate: FormattedDate
    public var lastDate: FormattedDate

    /// Creates a header.
    public init(messageCount: Int, firstDate: FormattedDate, lastDate: FormattedDate) {
        self.messageCount = messageCount
        self.firstDate = firstDate
        self.lastDate = lastDate
    }
}

/// The first and last day a page holds ("Mar 3, 2024"), as the links to it name them. Kept in
/// the build cache, so a rebuild of the last pages names the earlier ones without reading them.
public struct PageDays: Sendable, Equatable, Codable {
    public var first: String
    public var last: String

    /// Creates a page's days.
    public init(first: String, last: String) {
        self.first = first
        self.last = last
    }
}

/// A day separator (`[data-part=day-separator]`).
public struct DaySeparator: Hashable, Sendable {
    /// The day, e.g. text "Friday, May 3, 2024" and iso "2024-05-03".
    public var day: FormattedDate
    /// Whether this separator repeats, at the top of a page, the day that the previous page
    /// already opened (the day did not change here; the page did).
    public var repeatsPreviousPage: Bool

    /// Creates a separator.
    public init(day: FormattedDate, repeatsPreviousPage: Bool = false) {
        self.day = day
        self.repeatsPreviousPage = repeatsPreviousPage
    }
}

/// One message with its layout: what a custom renderer (`CustomRendererInfo`) is told about the
/// message it draws (`ConversationPlan.messageLayout(_:)`).
public struct MessageLayout: Sendable {
    /// The message as read.
    public var message: Message
    /// Its sender, `nil` for system messages.
    public var sender: Participant?
    /// Alignment, group position, and which parts are drawn.
    public var decisions: RowDecisions
    /// The send time, formatted.
    public var time: FormattedDate
    /// Formatted edit time, when edited.
    public var edited: FormattedDate?
    /// The quoted message, when this one replies.
    public var reply: ReplyPreview?
    /// Reactions with the display names of who reacted.
    public var reactions: [ReactionSummary]

    /// Creates a message layout.
    public init(
        message: Message, sender: Participant?, decisions: RowDecisions, time: FormattedDate, edited: FormattedDate?,
        reply: ReplyPreview?, reactions: [ReactionSummary]
    ) {
        self.message = message
        self.sender = sender
        self.decisions = decisions
        self.time = time
        self.edited = edited
        self.reply = reply
        self.reactions = reactions
    }
}

/// Where a message's timestamp is drawn.
public enum TimestampPlacement: String, Hashable, Sendable {
    /// Above the bubble, beside the header.
    case top
    /// Below the bubble.
    case bottom
    /// Not drawn (collapsed into the group's one timestamp).
    case hidden
}

/// The quote a reply shows of the message it answers.
public struct ReplyPreview: Hashable, Sendable {
    /// Id of the quoted message (link target; never a `data-message-id`).
    public var messageID: String
    /// Page index of the quoted message, so the link resolves across pages.
    public var pageIndex: Int
    /// The page file (inside the conversation's folder) that holds the quoted message: one of
    /// the conversation's pages, or a thread's.
    public var fileName: String
    /// Display name of the quoted message's sender, `nil` for system messages.
    public var senderName: String?
    /// A plain-text excerpt of the quoted message.
    public var excerpt: String

    /// Creates a reply preview; `fileName` defaults to the conversation's page `pageIndex`.
    public init(messageID: String, pageIndex: Int, fileName: String? = nil, senderName: String?, excerpt: String) {
        self.messageID = messageID
        self.pageIndex = pageIndex
        self.fileName = fileName ?? PageFiles.conversation.name(ofPage: pageIndex)
        self.senderName = senderName
        self.excerpt = excerpt
    }
}

/// One reaction with a count and the names of those who reacted.
public struct ReactionSummary: Hashable, Sendable {
    public var emoji: String
    /// How many reacted; more than `senderNames` when the log names only some of them.
    public var count: Int
    /// Display names (falling back to ids), in log order.
    public var senderNames: [String]
    /// The custom emoji's image and name, when the reaction is one.
    public var customEmoji: CustomEmoji?

    /// Creates a reaction summary.
    public init(emoji: String, count: Int, senderNames: [String], customEmoji: CustomEmoji? = nil) {
        self.emoji = emoji
        self.count = count
        self.senderNames = senderNames
        self.customEmoji = customEmoji
    }
}
