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
                "<span class=\"vh\">Bob Stone, 9:41\u{202F}AM:</span><div class=\"b\" data-part=\"bubble\" dir=\"auto\">middle"
            ))
        #expect(
            html.contains("<span class=\"vh\">Bob Stone:</span><div class=\"b\" data-part=\"bubble\" dir=\"auto\">last")
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
