import Foundation
import ScrollbackLayout
import ScrollbackModel

@testable import ScrollbackRendering

/// A row of a hand-written conversation: a day (which dates the messages after it) or a message.
enum LayoutItem {
    case daySeparator(DaySeparator)
    case message(FixtureRow)
}

/// A message of a hand-written conversation.
struct FixtureRow {
    var message: Message
}

/// Hand-written conversations, laid out by the layout pass (`ConversationLayouter.plan`), so a test
/// renders what a build renders.
enum Fixture {
    static let alice = Participant(id: "alice", name: "Alice Nguyen")
    static let bob = Participant(id: "bob", name: "Bob Stone", color: "#2e7d32")
    static let carol = Participant(id: "carol", name: "Carol Díaz")
    static let location = SourceLocation(file: "chat.json", line: 1, column: 1)
    /// 2024-05-03T09:41:00Z: when fixture messages are sent (on the day of the `day` row before them).
    static let sendTime: TimeInterval = 1_714_729_260

    /// A message. The layout arguments (`position`, `avatar`, `header`, `footer`, `timestamp`,
    /// `align`, `time`, `iso`) only say what the test expects; the layout pass decides.
    static func row(
        _ id: String, _ kind: MessageKind, sender: Participant? = bob, align: MessageAlignment? = nil,
        position: GroupPosition = .single, avatar: Bool = true, header: Bool = true, footer: Bool = true,
        timestamp: TimestampPlacement = .bottom, time: String = "9:41 AM", iso: String = "2024-05-03T09:41:00Z",
        edited: FormattedDate? = nil, status: DeliveryStatus? = nil, reply: ReplyPreview? = nil,
        reactions: [ReactionSummary] = [], line: Int = 1
    ) -> FixtureRow {
        let isSystem = kind.name == .system
        let people = [alice, bob, carol]
        let message = Message(
            id: id, sender: isSystem ? nil : sender?.id, date: Date(timeIntervalSince1970: sendTime), kind: kind,
            replyTo: reply?.messageID,
            reactions: reactions.map { reaction in
                Reaction(
                    emoji: reaction.emoji,
                    senders: reaction.senderNames.map { name in people.first { $0.name == name }?.id ?? name },
                    count: reaction.count, customEmoji: reaction.customEmoji)
            },
            edited: edited == nil ? nil : Date(timeIntervalSince1970: sendTime + 40), status: status,
            location: SourceLocation(file: "chat.json", line: line, column: 5))
        return FixtureRow(message: message)
    }

    static func day(_ text: String, _ iso: String) -> LayoutItem {
        .daySeparator(DaySeparator(day: FormattedDate(text: text, iso: iso)))
    }

    /// The plan of a conversation of `pages` (rows per page): messages dated on the day of the
    /// `day` row before them, pages of as many messages as the first one has.
    static func layout(
        id: String = "trip", title: String? = "Weekend trip", participants: [Participant] = [alice, bob, carol],
        pages: [[LayoutItem]], options: LayoutOptions = LayoutOptions(), description: String? = nil
    ) -> ConversationPlan {
        var messages: [Message] = []
        var dayOffset: TimeInterval = 0
        for items in pages {
            for item in items {
                switch item {
                case .daySeparator(let separator):
                    let parser = ISO8601DateFormatter()
                    parser.formatOptions = [.withFullDate]
                    if let day = parser.date(from: separator.day.iso) {
                        dayOffset = day.timeIntervalSince1970 + 9 * 3600 + 41 * 60 - sendTime
                    }
                case .message(let row):
                    var message = row.message
                    message.date = message.date.addingTimeInterval(dayOffset)
                    if let edited = message.edited { message.edited = edited.addingTimeInterval(dayOffset) }
                    messages.append(message)
                }
            }
        }
        let conversation = Conversation(
            id: id, title: title, description: description, me: "alice", participants: participants,
            messages: messages, source: location)
        let firstPageSize = pages.first.map { $0.filter { if case .message = $0 { true } else { false } }.count } ?? 0
        return ConversationLayouter(options: options, pageSize: pages.count > 1 ? max(firstPageSize, 1) : 0)
            .plan(conversation)
    }

    /// One message of every kind, with replies, reactions, edits and statuses: what the preview shows.
    static func showcase(mediaRoot: Bool = true) -> ConversationPlan {
        let photo = MediaItem(
            source: .local(LocalAsset(sourcePath: "/tmp/x.svg", sitePath: "media/photo.svg")),
            size: PixelSize(width: 800, height: 600), alt: "A lake at dusk", caption: "Sunset at the lake 🌅")
        let rows: [LayoutItem] = [
            day("Friday, May 3, 2024", "2024-05-03"),
            .message(row("s1", .system("Alice created the group “Weekend trip”"))),
            .message(
                row(
                    "m1", .text("Did you book the flights? Check www.example.com/flights or mail ops@example.com"),
                    sender: alice, position: .first, avatar: false, header: false, footer: false, timestamp: .hidden)),
            .message(
                row(
                    "m2", .text("@Bob Stone can you confirm?\nI need it today 🙏"), sender: alice, position: .last,
                    avatar: false, header: false, status: .read)),
            .message(
                row(
                    "m3", .text("Yes! Here is the confirmation: https://example.com/booking/123"),
                    position: .first, avatar: false, timestamp: .hidden,
                    reply: ReplyPreview(
                        messageID: "m2", pageIndex: 0, senderName: "Alice Nguyen",
                        excerpt: "@Bob Stone can you confirm? I need it today 🙏"))),
            .message(
                row(
                    "m4", .photo(photo), position: .middle, avatar: false, header: false, footer: false,
                    timestamp: .hidden)),
            .message(
                row(
                    "m5", .emoji("🎉🥳"), position: .last, header: false,
                    reactions: [ReactionSummary(emoji: "❤️", count: 2, senderNames: ["Alice Nguyen", "Carol Díaz"])])),
            .message(
                row(
                    "m6",
                    .attributedText(
                        RichText(
                            sanitizedHTML:
                                "<p>Packing list:</p><ul><li><strong>passport</strong></li><li><del>umbrella</del> sunscreen</li></ul><p>Use <code>gate B12</code>.</p>",
                            plainText: "Packing list")), sender: carol, position: .single,
                    edited: FormattedDate(text: "May 3, 2024 at 10:02 AM", iso: "2024-05-03T10:02:00Z"))),
            day("Saturday, May 4, 2024", "2024-05-04"),
            .message(
                row(
                    "m7",
                    .location(
                        LocationItem(
                            latitude: 52.520008, longitude: 13.404954, name: "Alexanderplatz",
                            address: "10178 Berlin")), sender: alice, avatar: false, header: false,
                    status: .delivered)),
            .message(
                row(
                    "m8",
                    .contact(
                        ContactItem(
                            name: "Hotel Adlon", phones: ["+49 30 2261 0"],
                            emails: ["reception@example.com"])), position: .first, avatar: false,
                    footer: false, timestamp: .hidden)),
            .message(
                row(
                    "m9",
                    .linkPreview(
                        text: "Menu for tonight https://example.org/menu",
                        link: LinkItem(
                            url: "https://example.org/menu", title: "Ristorante Roma — Menu",
                            teaser: "Fresh pasta, wood-fired pizza and a long list of Italian wines.",
                            siteName: "Roma")),
                    position: .last, header: false)),
            .message(
                row(
                    "m10",
                    .audio(
                        MediaItem(
                            source: .remote("https://example.com/voice.ogg"), duration: 83,
                            title: "Voice memo")), sender: carol)),
            .message(
                row(
                    "m10v",
                    .video(
                        MediaItem(
                            source: .local(LocalAsset(sourcePath: "/tmp/v.mp4", sitePath: "media/clip.mp4")),
                            size: PixelSize(width: 640, height: 360), caption: "Boat tour",
                            poster: .local(LocalAsset(sourcePath: "/tmp/x.svg", sitePath: "media/photo.svg")),
                            duration: 12)), sender: alice, avatar: false, header: false)),
            .message(
                row(
                    "m11", .photo(MediaItem(source: .unavailable(original: "../../etc/passwd"))), sender: carol,
                    header: false, timestamp: .bottom)),
            .message(
                row(
                    "m12",
                    .custom(
                        CustomItem(
                            id: "poll",
                            data: .object([
                                (key: "question", value: .string("Dinner?")),
                                (
                                    key: "options",
                                    value: .array([
                                        .object([
                                            (key: "label", value: .string("Pizza")),
                                            (key: "votes", value: .number("2")),
                                        ]),
                                        .object([
                                            (key: "label", value: .string("Ramen")),
                                            (key: "votes", value: .number("1")),
                                        ]),
                                    ])
                                ),
                            ]))), sender: alice, avatar: false, header: false, status: .sent)),
            .message(
                row(
                    "m13", .custom(CustomItem(id: "dice", data: .object([(key: "roll", value: .number("6"))]))),
                    sender: bob)),
            .message(
                row(
                    "m14",
                    .file(
                        FileItem(
                            source: .local(LocalAsset(sourcePath: "/tmp/plan.pdf", sitePath: "media/plan.pdf")),
                            name: "Berlin plan.pdf", size: 1_234_567, mimeType: "application/pdf")), sender: bob)),
        ]
        return layout(pages: [rows], description: "Planning the Berlin weekend")
    }
}
