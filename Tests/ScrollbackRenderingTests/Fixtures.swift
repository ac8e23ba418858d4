import Foundation
import ScrollbackLayout
import ScrollbackModel

@testable import ScrollbackRendering

/// Hand-built layouts (the layout pass is written in parallel, so tests do not depend on it).
enum Fixture {
    static let alice = Participant(id: "alice", name: "Alice Nguyen")
    static let bob = Participant(id: "bob", name: "Bob Stone", color: "#2e7d32")
    static let carol = Participant(id: "carol", name: "Carol Díaz")
    static let location = SourceLocation(file: "chat.json", line: 1, column: 1)

    /// A message layout with sensible defaults for everything a test does not care about.
    static func row(
        _ id: String, _ kind: MessageKind, sender: Participant? = bob, align: MessageAlignment? = nil,
        position: GroupPosition = .single, avatar: Bool = true, header: Bool = true, footer: Bool = true,
        timestamp: TimestampPlacement = .bottom, time: String = "9:41 AM", iso: String = "2024-05-03T09:41:00Z",
        edited: FormattedDate? = nil, status: DeliveryStatus? = nil, reply: ReplyPreview? = nil,
        reactions: [ReactionSummary] = [], line: Int = 1
    ) -> MessageLayout {
        let isSystem = kind.name == .system
        let message = Message(
            id: id, sender: isSystem ? nil : sender?.id, date: Date(timeIntervalSince1970: 1_714_729_260), kind: kind,
            replyTo: reply?.messageID, edited: edited == nil ? nil : Date(timeIntervalSince1970: 1_714_729_300),
            status: status, location: SourceLocation(file: "chat.json", line: line, column: 5))
        return MessageLayout(
            message: message, sender: isSystem ? nil : sender,
            alignment: align ?? (isSystem ? .center : (sender?.id == "alice" ? .right : .left)),
            groupPosition: position, showsAvatar: avatar, showsHeader: header, showsFooter: footer,
            timestamp: timestamp, time: FormattedDate(text: time, iso: iso), edited: edited, reply: reply,
            reactions: reactions)
    }

    static func day(_ text: String, _ iso: String) -> LayoutItem {
        .daySeparator(DaySeparator(day: FormattedDate(text: text, iso: iso)))
    }

    /// A conversation layout of `pages` (rows per page), with `pageOfMessage` filled in.
    static func layout(
        id: String = "trip", title: String? = "Weekend trip", participants: [Participant] = [alice, bob, carol],
        pages: [[LayoutItem]], options: LayoutOptions = LayoutOptions(), description: String? = nil
    ) -> ConversationLayout {
        var pageOfMessage: [String: Int] = [:]
        var messages: [Message] = []
        for (index, items) in pages.enumerated() {
            for case .message(let row) in items {
                pageOfMessage[row.message.id] = index
                messages.append(row.message)
            }
        }
        let conversation = Conversation(
            id: id, title: title, description: description, me: "alice", participants: participants,
            messages: messages, source: location)
        let summary = ConversationSummary(
            id: id, title: conversation.displayTitle, description: description,
            participantNames: participants.map(\.name), messageCount: messages.count,
            firstDate: FormattedDate(text: "May 3, 2024", iso: "2024-05-03T09:41:00Z"),
            lastDate: FormattedDate(text: "May 4, 2024", iso: "2024-05-04T08:00:00Z"),
            lastMessagePreview: "Bob Stone: See you!")
        return ConversationLayout(
            conversation: conversation, options: options,
            pages: pages.enumerated().map { PageLayout(index: $0.offset, items: $0.element) },
            pageOfMessage: pageOfMessage, summary: summary)
    }

    /// One message of every kind, with replies, reactions, edits and statuses: what the preview shows.
    static func showcase(mediaRoot: Bool = true) -> ConversationLayout {
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
        ]
        return layout(pages: [rows], description: "Planning the Berlin weekend")
    }
}
