import Foundation
import ScrollbackModel

@testable import ScrollbackLayout

// Small builders so each test reads as the conversation it lays out.

/// Parses an ISO 8601 date with offset, as logs write them.
func date(_ iso: String) -> Date {
    let parser = ISO8601DateFormatter()
    parser.formatOptions = [.withInternetDateTime]
    guard let parsed = parser.date(from: iso) else { fatalError("bad test date \(iso)") }
    return parsed
}

let testSource = SourceLocation(file: "test.json", line: 1, column: 1)

/// A text message (or a system message when `sender` is nil).
func message(
    _ id: String, _ sender: String?, _ iso: String, text: String? = nil, replyTo: String? = nil,
    reactions: [Reaction] = [], edited: String? = nil, status: DeliveryStatus? = nil
) -> Message {
    let body = text ?? "message \(id)"
    return Message(
        id: id, sender: sender, date: date(iso), kind: sender == nil ? .system(body) : .text(body),
        replyTo: replyTo, reactions: reactions, edited: edited.map(date), status: status, location: testSource)
}

let alice = Participant(id: "alice", name: "Alice Nguyen")
let bob = Participant(id: "bob", name: "Bob Stone")
let carol = Participant(id: "carol", name: "Carol Diaz")

func conversation(
    _ messages: [Message], me: String? = nil, timeZone: String? = nil, layout: LayoutOverrides = LayoutOverrides()
) -> Conversation {
    Conversation(
        id: "test", me: me, timeZone: timeZone, participants: [alice, bob, carol], messages: messages,
        layout: layout, source: testSource)
}

/// Lays out with the given site options (spec defaults unless changed) and page size.
func layOut(
    _ conversation: Conversation, options: LayoutOptions = LayoutOptions(), pageSize: Int = 1000
) -> ConversationPlan {
    ConversationLayouter(options: options, pageSize: pageSize).plan(conversation)
}

/// One page of a plan, as its rows come out of `forEachPlannedRow`.
struct PlannedPage {
    var index: Int
    var items: [PlannedRow]
    var header: PageHeader?
    /// The messages of `items`, with their layout.
    var rows: [MessageLayout]

    /// A compact picture of the page: "day:2024-05-03", "day+:2024-05-03" (repeated) or a message id.
    var outline: [String]
}

extension ConversationPlan {
    /// Every page, rows collected.
    var pages: [PlannedPage] {
        (0..<pageCount).map { index in
            var items: [PlannedRow] = []
            var rows: [MessageLayout] = []
            var outline: [String] = []
            forEachPlannedRow(ofPage: index) { row in
                items.append(row)
                switch row {
                case .daySeparator(let separator):
                    outline.append((separator.repeatsPreviousPage ? "day+:" : "day:") + separator.day.iso)
                case .message(let messageIndex, _):
                    rows.append(messageLayout(messageIndex))
                    outline.append(conversation.messages[messageIndex].id)
                }
            }
            return PlannedPage(index: index, items: items, header: pageHeader(index), rows: rows, outline: outline)
        }
    }

    /// Every message row of every page, in order.
    var messageRows: [MessageLayout] { pages.flatMap(\.rows) }

    /// The message row with `id`.
    func row(_ id: String) -> MessageLayout {
        guard let row = messageRows.first(where: { $0.message.id == id }) else { fatalError("no row \(id)") }
        return row
    }

    /// Group positions in message order.
    var positions: [GroupPosition] { messageRows.map(\.decisions.groupPosition) }
}

extension MessageLayout {
    // The decisions, by name, so tests read as the rules they check.
    var alignment: MessageAlignment { decisions.alignment }
    var groupPosition: GroupPosition { decisions.groupPosition }
    var showsAvatar: Bool { decisions.showsAvatar }
    var showsHeader: Bool { decisions.showsHeader }
    var showsFooter: Bool { decisions.showsFooter }
    var timestamp: TimestampPlacement { decisions.timestamp }
}
