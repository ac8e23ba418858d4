import Foundation
import ScrollbackLayout
import ScrollbackModel
import Testing

@testable import ScrollbackRendering

/// Reading a conversation as a person does (issue 42): it opens at its newest message, the bar
/// keeps the title (and, with script, the day) in view, "Latest" is one tap away, and `404.html`
/// works at any depth without a base URL.
@Suite struct ReadingTests {
    /// Three pages of two messages, on three days.
    func threePages() -> ConversationPlan {
        Fixture.layout(pages: [
            [
                Fixture.day("May 3, 2024", "2024-05-03"), .message(Fixture.row("a1", .text("one"))),
                .message(Fixture.row("a2", .text("two"))),
            ],
            [
                Fixture.day("May 4, 2024", "2024-05-04"), .message(Fixture.row("b1", .text("three"))),
                .message(Fixture.row("b2", .text("four"))),
            ],
            [
                Fixture.day("May 5, 2024", "2024-05-05"), .message(Fixture.row("c1", .text("five"))),
                .message(Fixture.row("c2", .text("six"))),
            ],
        ])
    }

    @Test func indexCardOpensTheLastPageAtItsEnd() throws {
        var summary = threePages().summary
        summary.pageCount = 7
        let paged = Inspect.text(SiteRenderer(config: SiteConfig()).renderIndex([summary]))
        #expect(paged.contains("<a class=\"conv\" href=\"trip/page-7.html#latest\">"))
        summary.pageCount = 1
        let single = Inspect.text(SiteRenderer(config: SiteConfig()).renderIndex([summary]))
        #expect(single.contains("<a class=\"conv\" href=\"trip/index.html#latest\">"))
    }

    @Test func onlyTheLastPageEndsWithTheLatestAnchor() throws {
        let (pages, _) = Inspect.render(threePages())
        let first = try #require(pages["trip/index.html"])
        let middle = try #require(pages["trip/page-2.html"])
        let last = try #require(pages["trip/page-3.html"])
        #expect(!first.contains("id=\"latest\"") && !middle.contains("id=\"latest\""))
        #expect(last.components(separatedBy: "id=\"latest\"").count == 2)
        // The anchor comes after the last message, so landing on it shows the newest one.
        let anchor = try #require(last.range(of: "id=\"latest\""))
        let newest = try #require(last.range(of: "data-message-id=\"c2\""))
        #expect(newest.upperBound < anchor.lowerBound)
        // "Newest messages" in the pagination lands there too.
        #expect(first.contains("<a class=\"nw\" href=\"page-3.html#latest\">"))
    }

    @Test func everyPageHasTheBarAndTheLatestLink() throws {
        let (pages, _) = Inspect.render(threePages())
        for (path, latest, fromStart) in [
            ("trip/index.html", "page-3.html#latest", "#main"),
            ("trip/page-2.html", "page-3.html#latest", "index.html"),
            ("trip/page-3.html", "#latest", "index.html"),
        ] {
            let html = try #require(pages[path])
            #expect(html.contains("<a class=\"cb-l\" href=\"\(latest)\" data-part=\"jump-latest\">"), "\(path)")
            #expect(html.contains("<a class=\"cb-s\" href=\"\(fromStart)\">From the beginning</a>"), "\(path)")
            #expect(html.contains("<span class=\"cb-t\" dir=\"auto\">Weekend trip</span>"), "\(path)")
            #expect(html.contains("<script src=\"../assets/conversation.js\" defer></script>"), "\(path)")
        }
        // One page: the link and the anchor are on it.
        let single = try #require(Inspect.render(Fixture.showcase()).pages["trip/index.html"])
        #expect(single.contains("<a class=\"cb-l\" href=\"#latest\"") && single.contains("id=\"latest\""))
    }

    @Test func editedInsideAGroupSitsUnderTheBubbleNotBetweenNameAndBubble() throws {
        var options = LayoutOptions()
        options.collapseEnclosingViews = true
        let later = FormattedDate(text: "later", iso: "2024-05-03T10:00:00Z")
        let rows: [LayoutItem] = ["a", "b", "c"].map { .message(Fixture.row($0, .text($0), edited: later)) }
        let plan = Fixture.layout(pages: [rows], options: options)
        let page = try #require(Inspect.render(plan).pages["trip/index.html"])
        let messages = Inspect.messages(page)
        // The first message's footer is collapsed: its "edited" has no footer to go in.
        #expect(!plan.decisions(0).showsFooter)
        let first = messages[0].html
        #expect(!first.contains("class=\"nt\""))
        let bubble = try #require(first.range(of: "data-part=\"bubble\""))
        let edited = try #require(first.range(of: "<div class=\"ft\"><span class=\"ed\""))
        #expect(bubble.upperBound < edited.lowerBound)
    }

    @Test func aPhotoIsALinkToItsFullSizeFile() throws {
        let photo = Fixture.row(
            "x",
            .photo(
                MediaItem(
                    source: .local(LocalAsset(sourcePath: "/a", sitePath: "media/ab.jpg")),
                    size: PixelSize(width: 1200, height: 800), alt: "")))
        let (pages, _) = Inspect.render(Fixture.layout(pages: [[.message(photo)]]))
        let page = try #require(pages["trip/index.html"])
        let html = try #require(Inspect.messages(page).first?.html)
        #expect(html.contains("<a class=\"pht\" href=\"../media/ab.jpg\"><img src=\"../media/ab.jpg\" alt=\"\""))
        // An image without alt text still gives the link a name.
        #expect(html.contains("<span class=\"vh\">Open the photo full size</span></a>"))
        // A photo that is not there is no link.
        let missing = Fixture.row("y", .photo(MediaItem(source: .unavailable(original: "a.jpg"))))
        let (others, _) = Inspect.render(Fixture.layout(pages: [[.message(missing)]]))
        #expect(!(others["trip/index.html"] ?? "").contains("class=\"pht\""))
    }

    @Test func notFoundWithoutBaseURLCarriesItsStyleAndFindsTheRoot() throws {
        let html = Inspect.text(
            SiteRenderer(config: SiteConfig()).renderNotFound(folders: ["trip", "slack/general", "x</script>"]))
        // A folder's first part only: nothing after a `/`, so nothing can close the `<script>`.
        // Nothing under `/assets/`: no address reaches it from every depth.
        #expect(!html.contains("assets/scrollback.css") && !html.contains("favicon.svg"))
        #expect(!html.contains("search.js"))
        let style = try #require(
            html.components(separatedBy: "<style>").dropFirst().first?.components(
                separatedBy: "</style>"
            ).first)
        // The page base of the one stylesheet, dark mode included, and not the rest of it.
        let css = Inspect.text(
            try #require(
                SiteRenderer(config: SiteConfig()).assetFiles().first {
                    $0.path == "assets/scrollback.css"
                }))
        #expect(css.hasPrefix(style))
        #expect(style.contains("--bg:") && style.contains("prefers-color-scheme: dark"))
        #expect(!style.contains(".pg"))
        #expect(html.contains("<a id=\"home\" href=\"index.html\">All conversations</a>"))
        #expect(
            html.contains(
                "<script id=\"site-folders\" type=\"application/json\">"
                    + "[\"assets\",\"media\",\"search\",\"slack\",\"trip\",\"x<\"]</script>"))
    }

    @Test func notFoundWithBaseURLLinksItsAssets() throws {
        var config = SiteConfig()
        config.baseURL = "https://example.org/archive/"
        let html = Inspect.text(SiteRenderer(config: config).renderNotFound(folders: ["trip"]))
        #expect(html.contains("<link rel=\"stylesheet\" href=\"https://example.org/archive/assets/scrollback.css\">"))
        #expect(html.contains("<a id=\"home\" href=\"https://example.org/archive/index.html\">"))
        #expect(!html.contains("<style>") && !html.contains("site-folders"))
    }
}
