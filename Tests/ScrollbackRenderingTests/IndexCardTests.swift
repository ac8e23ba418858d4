import Foundation
import ScrollbackLayout
import ScrollbackModel
import Testing

@testable import ScrollbackRendering

/// The index's cards help you choose (issue 42, point 8): each names the app it came from and
/// only its own description.
@Suite struct IndexCardTests {
    private static let location = SourceLocation(file: "x.json", line: 1, column: 1)

    private static func summary(_ id: String, description: String? = nil, app: String? = nil) -> ConversationSummary {
        var summary = ConversationSummary(
            id: id, title: id, description: description, participantNames: ["Ana"], messageCount: 1,
            firstDate: nil, lastDate: nil, lastMessagePreview: nil)
        summary.app = app
        return summary
    }

    /// The site's description heads the index once; a card without its own shows none (an
    /// absent name used to climb to the index's, so every such card repeated the site's).
    @Test func aCardShowsOnlyItsOwnDescription() {
        var config = SiteConfig()
        config.description = "Our family archive"
        let html = Inspect.text(
            SiteRenderer(config: config).renderIndex([
                Self.summary("plain"), Self.summary("trip", description: "Lisbon, May 2024"),
            ]))
        #expect(html.components(separatedBy: "Our family archive").count - 1 == 2, "the header and <meta> only")
        #expect(!html.contains("<p class=\"desc\">Our family archive</p>"))
        #expect(html.contains("<p class=\"desc\">Lisbon, May 2024</p>"))
        #expect(html.components(separatedBy: "class=\"desc\"").count - 1 == 1)
    }

    /// An imported conversation's card names its app; a native log's, or a format no importer
    /// writes, names none.
    @Test func aCardNamesTheAppItWasImportedFrom() {
        let html = Inspect.text(
            SiteRenderer(config: SiteConfig()).renderIndex([
                Self.summary("team", app: "slack"), Self.summary("family", app: "whatsapp"),
                Self.summary("notes"), Self.summary("odd", app: "<b>myapp</b>"),
            ]))
        #expect(html.contains("<p class=\"meta\"><span class=\"app app-slack\">Slack</span> Ana · 1 message</p>"))
        #expect(html.contains("<span class=\"app app-whatsapp\">WhatsApp</span>"))
        #expect(html.components(separatedBy: "class=\"app ").count - 1 == 2)
        #expect(!html.contains("myapp"))
    }

    /// The summary takes the app from the messages' export source, which every importer writes.
    @Test func theSummaryKnowsTheFormatOfImportedMessages() {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let alice = Participant(id: "a", name: "Ana")
        func plan(_ source: ExportSource?) -> ConversationPlan {
            ConversationLayouter(options: LayoutOptions(), pageSize: 100).plan(
                Conversation(
                    id: "c", participants: [alice],
                    messages: [
                        Message(
                            id: "1", sender: "a", date: date, kind: .text("hi"), source: source,
                            location: Self.location)
                    ], source: Self.location))
        }
        #expect(plan(ExportSource(format: "telegram", file: "result.json")).summary.app == "telegram")
        #expect(plan(nil).summary.app == nil)
    }
}
