import Foundation
import ScrollbackLayout
import ScrollbackModel
import Testing

@testable import ScrollbackRendering

/// Accessibility and validity details of the rendered pages.
@Suite struct AccessibleAndValidOutputTests {
    @Test func collapsedSenderAndTimeAreReadAloud() throws {
        let rows: [LayoutItem] = [
            .message(Fixture.row("a", .text("first"), position: .first, header: true, timestamp: .hidden)),
            .message(Fixture.row("b", .text("middle"), position: .middle, header: false, timestamp: .hidden)),
            .message(Fixture.row("c", .text("last"), position: .last, header: false, timestamp: .bottom)),
            .message(Fixture.row("s", .system("Bob left"))),
            .message(Fixture.row("d", .text("shown"), position: .single, header: true, timestamp: .bottom)),
        ]
        let (pages, _) = Inspect.render(Fixture.layout(pages: [rows]))
        let html = try #require(pages["trip/index.html"])
        #expect(html.contains("data-message-id=\"a\""))
        #expect(html.contains("data-part=\"header\">Bob Stone</div><span class=\"vh\">9:41\u{202F}AM:</span>"))
        #expect(
            html.contains(
                "<span class=\"vh\">Bob Stone, 9:41\u{202F}AM:</span><div data-part=\"bubble\" dir=\"auto\">middle"
            ))
        #expect(
            html.contains("<span class=\"vh\">Bob Stone:</span><div data-part=\"bubble\" dir=\"auto\">last")
        )
        let shown = try #require(Inspect.messages(html).first { $0.attributes["data-message-id"] == "d" })
        #expect(!shown.html.contains("class=\"vh\">Bob"), "nothing hidden repeats what is drawn")
    }

    @Test func firstMessageOfAPageNamesTheSenderOfAContinuedGroup() throws {
        let layout = Fixture.layout(pages: [
            [.message(Fixture.row("a", .text("one"), position: .first))],
            [.message(Fixture.row("b", .text("two"), position: .last, header: false))],
        ])
        let (pages, _) = Inspect.render(layout)
        let second = try #require(pages["trip/page-2.html"])
        #expect(second.contains("<div class=\"hd cont\" aria-hidden=\"true\">Bob Stone</div>"))
        #expect(!second.contains("data-part=\"header\""), "the group's header stays on the page where it begins")
        #expect(!(pages["trip/index.html"] ?? "").contains("hd cont"))
    }

    @Test func paginationLandmarksHaveDistinctNames() throws {
        let layout = Fixture.layout(pages: [
            [.message(Fixture.row("a", .text("one")))], [.message(Fixture.row("b", .text("two")))],
        ])
        let html = try #require(Inspect.render(layout).pages["trip/index.html"])
        #expect(html.contains("<nav class=\"pg\" aria-label=\"Pages, top\">"))
        #expect(html.contains("<nav class=\"pg\" aria-label=\"Pages, bottom\">"))
    }

    /// Older and Newer say which days their pages hold; every number link names them in its title.
    @Test func pageLinksNameTheirDates() throws {
        let days = ["2024-05-03", "2024-05-04", "2024-05-06"]
        let messages = days.enumerated().map { index, day in
            Message(
                id: "m\(index)", sender: "alice", date: ISO8601DateFormatter().date(from: day + "T09:00:00Z")!,
                kind: .text("on \(day)"), location: Fixture.location)
        }
        let plan = ConversationLayouter(options: LayoutOptions(), pageSize: 1).plan(
            Conversation(id: "trip", participants: [Fixture.alice], messages: messages, source: Fixture.location))
        let middle = try #require(Inspect.render(plan).pages["trip/page-2.html"])
        #expect(middle.contains("<a rel=\"prev\" href=\"index.html\">← Older<small>May 3, 2024</small></a>"))
        // The last page is named by its first day: appending messages leaves the links to it as they are.
        #expect(middle.contains("<a rel=\"next\" href=\"page-3.html\">Newer →<small>from May 6, 2024</small></a>"))
        #expect(middle.contains("<a href=\"page-2.html\" aria-current=\"page\" title=\"May 4, 2024\">2</a>"))
    }

    /// A workspace's channels and direct messages are listed under their own headings; one
    /// section only (or none) gives the plain list.
    @Test func indexListsConversationsInSections() {
        func summary(_ id: String, _ section: String?) -> ConversationSummary {
            ConversationSummary(
                id: id, title: id, description: nil, participantNames: [], messageCount: 1, firstDate: nil,
                lastDate: nil, lastMessagePreview: nil, section: section)
        }
        let renderer = SiteRenderer(config: SiteConfig())
        let sectioned = Inspect.text(
            renderer.renderIndex([
                summary("dm", "Direct messages"), summary("random", "Channels"), summary("notes", nil),
                summary("general", "Channels"),
            ]))
        let headings = sectioned.components(separatedBy: "<h2 class=\"sech\"").dropFirst().map {
            String($0.prefix { $0 != "<" }.drop { $0 != ">" }.dropFirst())
        }
        #expect(headings == ["Direct messages ", "Channels ", "Other conversations "])
        #expect(sectioned.contains("<h3>general</h3>"))
        #expect(!sectioned.contains("<h2>general</h2>"))
        let order = ["dm", "random", "general", "notes"].map { sectioned.range(of: "<h3>\($0)</h3>")!.lowerBound }
        #expect(order == order.sorted(), "channels together, the conversations of no section last")
        let plain = Inspect.text(renderer.renderIndex([summary("a", "Channels"), summary("b", "Channels")]))
        #expect(!plain.contains("class=\"sech\""))
        #expect(plain.contains("<h2>a</h2>"))
    }

    @Test func taskListCheckboxesAreLabelled() {
        let cmark =
            "<ul>\n<li><input type=\"checkbox\" checked=\"\" disabled=\"\" /> a</li>\n<li><input type=\"checkbox\" disabled=\"\" /> b</li>\n</ul>"
        #expect(
            MessageRenderer.labelTaskCheckboxes(cmark)
                == "<ul>\n<li><input type=\"checkbox\" checked=\"\" disabled=\"\" aria-label=\"done\" /> a</li>\n<li><input type=\"checkbox\" disabled=\"\" aria-label=\"not done\" /> b</li>\n</ul>"
        )
        let sanitized = "<input type=\"checkbox\" disabled=\"\"> b"
        #expect(
            MessageRenderer.labelTaskCheckboxes(sanitized)
                == "<input type=\"checkbox\" disabled=\"\" aria-label=\"not done\"> b")
        #expect(MessageRenderer.labelTaskCheckboxes("<p>no input</p>") == "<p>no input</p>")
    }

    @Test func codePointsHTMLForbidsBecomeReplacementCharacters() {
        func scalar(_ value: UInt32) -> String { String(Character(Unicode.Scalar(value)!)) }
        let text =
            "a\u{1}b\u{7F}c\u{85}d" + scalar(0xFFFE) + "e" + scalar(0xFDD0) + "f" + scalar(0x10FFFF) + "g"
            + scalar(0x1FFFF) + "h\t\n\u{C}\r ✓ é 🎉 \u{A0}"
        let expected = "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e\u{FFFD}f\u{FFFD}g\u{FFFD}h\t\n\u{C}\r ✓ é 🎉 \u{A0}"
        #expect(HTMLText.escape(text) == expected)
        #expect(HTMLText.escape("<\u{0}>") == "&lt;\u{FFFD}&gt;")
        let linkifier = TextLinkifier(participants: [])
        #expect(
            linkifier.html(text)
                == expected.replacingOccurrences(of: "\n", with: "<br>").replacingOccurrences(of: "\r", with: "<br>"))
    }

    @Test func linkedURLsAreValid() {
        let linkifier = TextLinkifier(participants: [])
        #expect(
            linkifier.html("http://a/%%30%30 ok")
                == "<a href=\"http://a/%25%30%30\" rel=\"nofollow noopener\">http://a/%%30%30</a> ok")
        #expect(
            linkifier.html("https://e.com/%2Fx%")
                == "<a href=\"https://e.com/%2Fx%25\" rel=\"nofollow noopener\">https://e.com/%2Fx%</a>")
    }

    @Test func percentMaxWidthIsAShareOfTheList() {
        #expect(SiteRenderer.bubbleWidthStyle(.percent(60)) == "--bubble-share:60")
        #expect(SiteRenderer.bubbleWidthStyle(.percent(62.5)) == "--bubble-share:62.5")
        #expect(SiteRenderer.bubbleWidthStyle(.px(480)) == "--bubble-max:480px")
        #expect(SiteRenderer.bubbleWidthStyle(.rem(30)) == "--bubble-max:30rem")
    }
}
