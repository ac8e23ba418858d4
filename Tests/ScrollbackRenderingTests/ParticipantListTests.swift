import Foundation
import ScrollbackLayout
import ScrollbackModel
import Testing

@testable import ScrollbackRendering

/// Issue 40.10: a conversation of many participants names only the first of them in its default
/// title, page header, description and index entry, and counts the rest; a log of 200,000
/// participants made an 813 MB site by listing them all on every page.
@Suite struct ParticipantListTests {
    /// `count` participants, `p0`…, named "Person 0"…
    static func people(_ count: Int) -> [Participant] {
        (0..<count).map { Participant(id: "p\($0)", name: "Person \($0)") }
    }

    /// The text between the first `open` and the `close` after it.
    static func element(_ html: String, from open: String, to close: String) -> Substring? {
        guard let start = html.range(of: open), let end = html.range(of: close, range: start.upperBound..<html.endIndex)
        else { return nil }
        return html[start.lowerBound..<end.upperBound]
    }

    @Test("a conversation of 10,000 participants gets a page header, title and description of bounded size")
    func manyParticipantsGiveABoundedHeader() throws {
        let rows: [LayoutItem] = [
            Fixture.day("Friday, May 3, 2024", "2024-05-03"),
            .message(Fixture.row("m1", .text("hello"), sender: Participant(id: "p1", name: "Person 1"))),
        ]
        let plan = Fixture.layout(title: nil, participants: Self.people(10_000), pages: [rows])
        let (pages, _) = Inspect.render(plan)
        let page = try #require(pages["trip/index.html"])
        let header = try #require(Self.element(page, from: "<header class=\"top\">", to: "</header>"))
        // Ten names with their avatars, and the count of the rest; 10,000 names were over 1 MB.
        #expect(header.utf8.count < 8_192, "header of \(header.utf8.count) bytes")
        #expect(header.contains("Person 9</span> and 9,990 others"))
        #expect(!header.contains("Person 10<"))
        let title = try #require(Self.element(page, from: "<title>", to: "</title>"))
        #expect(title.utf8.count < 512, "title of \(title.utf8.count) bytes")
        #expect(title.contains("Person 0, Person 1, ") && title.contains("Person 9 and 9,990 others"))
        let description = try #require(Self.element(page, from: "<meta name=\"description\"", to: ">"))
        #expect(description.utf8.count < 512, "description of \(description.utf8.count) bytes")
        #expect(description.contains("and 9,990 others"))
        // The whole page: the message and a bounded frame, not a list of everyone.
        #expect(page.utf8.count < 64 * 1024, "page of \(page.utf8.count) bytes")
    }

    @Test("the index entry of a conversation of 10,000 participants names ten of them")
    func manyParticipantsGiveABoundedIndexEntry() {
        let names = Self.people(10_000).map(\.name)
        let summary = ConversationSummary(
            id: "crowd", title: "Crowd", description: nil, participantNames: names, messageCount: 1, firstDate: nil,
            lastDate: nil, lastMessagePreview: nil, section: nil)
        let index = Inspect.text(SiteRenderer(config: SiteConfig()).renderIndex([summary]))
        #expect(index.contains("Person 8, Person 9 and 9,990 others"))
        #expect(!index.contains("Person 10,"))
        #expect(index.utf8.count < 16 * 1024, "index of \(index.utf8.count) bytes")
    }

    @Test("a few participants are all named, as before")
    func fewParticipantsAreAllNamed() throws {
        let rows: [LayoutItem] = [
            Fixture.day("Friday, May 3, 2024", "2024-05-03"), .message(Fixture.row("m1", .text("hello"))),
        ]
        let plan = Fixture.layout(title: nil, participants: Self.people(10), pages: [rows])
        let page = try #require(Inspect.render(plan).pages["trip/index.html"])
        let header = try #require(Self.element(page, from: "<header class=\"top\">", to: "</header>"))
        #expect(header.contains("Person 9</span>"))
        #expect(!header.contains("other"))
        #expect(plan.conversation.displayTitle == (0..<10).map { "Person \($0)" }.joined(separator: ", "))
    }

    @Test("the rule: at most ten names, the rest counted with grouped digits")
    func theRuleNamesTenAndCountsTheRest() {
        #expect(ParticipantNames.text(["Ana", "Ben", "Cy"]) == "Ana, Ben, Cy")
        #expect(ParticipantNames.text([String]()) == "")
        let many = ["Ana", "Ben"] + (2..<200_000).map { "P\($0)" }
        #expect(ParticipantNames.text(many) == "Ana, Ben, P2, P3, P4, P5, P6, P7, P8, P9 and 199,990 others")
        #expect(ParticipantNames.text((0..<11).map { "P\($0)" }).hasSuffix("P9 and 1 other"))
        #expect(DecimalText.grouped(199_998) == "199,998")
        #expect(DecimalText.grouped(1_000_000) == "1,000,000")
        #expect(DecimalText.grouped(999) == "999")
        #expect(DecimalText.grouped(-1_234) == "-1,234")
    }
}
