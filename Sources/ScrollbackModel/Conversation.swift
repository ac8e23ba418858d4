import Foundation

/// One conversation: the unit a log file describes and the site gives a folder.
public struct Conversation: Hashable, Sendable {
    /// URL slug; the conversation lives at `<id>/index.html`.
    public var id: String
    /// Title as written in the log; `displayTitle` falls back to participant names.
    public var title: String?
    /// Shown on the index and in `<meta name=description>`.
    public var description: String?
    /// The part of the index it is listed under ("Channels", "Direct messages"), when its source
    /// sorts conversations that way (a Slack workspace, a Telegram account); `nil` for none.
    public var section: String?
    /// What kind of chat the source says it is (a one-to-one chat, a group, a channel); `nil`
    /// when it does not say (a log without `chatType`, a ChatGPT conversation). Who may be asked
    /// for `me` depends on it (`MeSetting.choices`).
    public var chatType: ChatType?
    /// Participant id whose messages align right (MessageKit's `currentSender`).
    public var me: String?
    /// IANA time zone id the log asked for; `nil` means the site default.
    public var timeZone: String?
    /// Everyone who can send or react, in the order the log lists them.
    public var participants: [Participant]
    /// Messages ordered by date; ties keep the order of the file.
    public var messages: [Message]
    /// Layout options this conversation sets over the site's.
    public var layout: LayoutOverrides
    /// The file it was read from.
    public var source: SourceLocation

    /// Creates a conversation.
    public init(
        id: String, title: String? = nil, description: String? = nil, section: String? = nil,
        chatType: ChatType? = nil, me: String? = nil, timeZone: String? = nil, participants: [Participant],
        messages: [Message], layout: LayoutOverrides = LayoutOverrides(), source: SourceLocation
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.section = section
        self.chatType = chatType
        self.me = me
        self.timeZone = timeZone
        self.participants = participants
        self.messages = messages
        self.layout = layout
        self.source = source
    }

    /// The title, or the participants' names joined, as spec §1 says (past
    /// `ParticipantNames.maximumNamed`, the rest counted: "Ana, Ben, … and 199,990 others").
    public var displayTitle: String {
        if let title, !title.isEmpty { return title }
        return ParticipantNames.text(participants.lazy.map(\.name))
    }

    /// The participant with `id`, if any.
    public func participant(_ id: String) -> Participant? {
        participants.first { $0.id == id }
    }
}

/// What kind of chat a conversation is, as its source says (issue 42.4): the raw values are the
/// JSON log's `chatType`.
public enum ChatType: String, Hashable, Sendable, CaseIterable {
    /// Two people, one to one (a Telegram personal or bot chat, a Discord or Slack DM, a WhatsApp
    /// chat with no group lines): the one chat where the exporter is one of the two.
    case direct
    /// Several people who all write (a Telegram group, a Discord or Slack group DM, a WhatsApp group).
    case group
    /// A channel: a Slack or Discord server channel, a Telegram broadcast channel.
    case channel
}

/// Someone who takes part in a conversation.
public struct Participant: Hashable, Sendable {
    /// The id messages name as `sender`.
    public var id: String
    /// The display name.
    public var name: String
    /// Avatar image; `nil` shows initials.
    public var avatar: MediaSource?
    /// A CSS colour, already validated as `#rgb` or `#rrggbb`; `nil` derives one from the id.
    public var color: String?

    /// Creates a participant.
    public init(id: String, name: String, avatar: MediaSource? = nil, color: String? = nil) {
        self.id = id
        self.name = name
        self.avatar = avatar
        self.color = color
    }
}

/// One message (MessageKit's `MessageType`): who, when, what kind, and its decorations.
public struct Message: Hashable, Sendable {
    /// Unique in the conversation; also the permalink anchor.
    public var id: String
    /// Participant id; `nil` only for `system` messages.
    public var sender: String?
    /// When it was sent.
    public var date: Date
    /// What it is and what it carries.
    public var kind: MessageKind
    /// Id of the message this one answers.
    public var replyTo: String?
    /// Reactions, in the order the log lists them.
    public var reactions: [Reaction]
    /// Date of the last edit, if it was edited.
    public var edited: Date?
    /// Delivery status, shown on right-aligned messages.
    public var status: DeliveryStatus?
    /// Id of the thread's root message when this message is a reply inside a thread (spec §1.1).
    public var thread: String?
    /// A thread reply that is also shown in the main timeline (Slack "also send to channel").
    public var broadcast: Bool
    /// The original author of a forwarded message.
    public var forwardedFrom: String?
    /// The message was deleted: "This message was deleted" in place of its body.
    public var deleted: Bool
    /// The message is pinned.
    public var pinned: Bool
    /// Where an importer read the message (never shown). Boxed: most messages have none, and a
    /// `Message` should stay small (a million of them are held one conversation at a time).
    private var sourceBox: ExportSourceBox?
    /// Where the message was written.
    public var location: SourceLocation

    /// Where an importer read the message (spec §1.1 `source`): diagnostics and re-import.
    public var source: ExportSource? {
        get { sourceBox?.value }
        set { sourceBox = newValue.map(ExportSourceBox.init) }
    }

    /// Creates a message.
    public init(
        id: String, sender: String?, date: Date, kind: MessageKind, replyTo: String? = nil,
        reactions: [Reaction] = [], edited: Date? = nil, status: DeliveryStatus? = nil,
        thread: String? = nil, broadcast: Bool = false, forwardedFrom: String? = nil, deleted: Bool = false,
        pinned: Bool = false, source: ExportSource? = nil, location: SourceLocation
    ) {
        self.id = id
        self.sender = sender
        self.date = date
        self.kind = kind
        self.replyTo = replyTo
        self.reactions = reactions
        self.edited = edited
        self.status = status
        self.thread = thread
        self.broadcast = broadcast
        self.forwardedFrom = forwardedFrom
        self.deleted = deleted
        self.pinned = pinned
        self.sourceBox = source.map(ExportSourceBox.init)
        self.location = location
    }
}

/// Where an importer read a message (spec §1.1 `source`): `{ format, file, line?, path?, id? }`.
public struct ExportSource: Hashable, Sendable {
    /// The export format's name (`slack`, `discord`, `chatgpt`, …).
    public var format: String
    /// The export file, relative to the export's root.
    public var file: String
    /// 1-based line in `file`, for line-based formats.
    public var line: Int?
    /// JSON path inside `file` (`$.messages[3]`), for JSON formats.
    public var path: String?
    /// The message's id in the export, before any derived id.
    public var id: String?

    /// Creates a source reference.
    public init(format: String, file: String, line: Int? = nil, path: String? = nil, id: String? = nil) {
        self.format = format
        self.file = file
        self.line = line
        self.path = path
        self.id = id
    }
}

/// `ExportSource` behind a reference, compared by value; immutable, so sharing it is safe.
final class ExportSourceBox: Hashable, Sendable {
    let value: ExportSource

    init(_ value: ExportSource) { self.value = value }

    static func == (lhs: ExportSourceBox, rhs: ExportSourceBox) -> Bool { lhs.value == rhs.value }

    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// One emoji and who reacted with it.
public struct Reaction: Hashable, Sendable {
    /// The emoji (any short text; it is escaped on output). For a custom emoji, the text that
    /// stands for it where its image cannot be shown (`:name:`, or the emoji the app gives as
    /// its fallback).
    public var emoji: String
    /// The image of a custom emoji (Discord's server emoji, Telegram's custom emoji), when the
    /// export names one; `nil` for a Unicode emoji.
    public var customEmoji: CustomEmoji?
    /// Participant ids, in log order.
    public var senders: [String]
    /// How many more reacted than `senders` names: an export that keeps only a count
    /// (DiscordChatExporter without user lists) says how many, not who. Never an invented person.
    public var unnamedCount: Int

    /// How many reacted in all.
    public var count: Int { senders.count + unnamedCount }

    /// Creates a reaction; `count` (the export's total) above the number of `senders` leaves the
    /// rest unnamed.
    public init(emoji: String, senders: [String], count: Int? = nil, customEmoji: CustomEmoji? = nil) {
        self.emoji = emoji
        self.customEmoji = customEmoji
        self.senders = senders
        self.unnamedCount = max(0, (count ?? 0) - senders.count)
    }
}

/// A custom emoji of a reaction: its name and its image, as the export gives them.
public struct CustomEmoji: Hashable, Sendable {
    /// The emoji's name without colons (`blobwave`): the image's alternative text is `:name:`.
    public var name: String
    /// The image: a file of the export (resolved like any media), a remote URL (shown only when
    /// remote media is on), or unavailable (the reaction then shows its `emoji` text).
    public var image: MediaSource
    /// Whether the image is animated (Discord's `isAnimated`); kept so `import` writes it again.
    public var isAnimated: Bool

    /// Creates a custom emoji.
    public init(name: String, image: MediaSource, isAnimated: Bool = false) {
        self.name = name
        self.image = image
        self.isAnimated = isAnimated
    }
}

/// Delivery mark of a sent message.
public enum DeliveryStatus: String, Hashable, Sendable, CaseIterable {
    case sent, delivered, read
}
