import Foundation
import ScrollbackLayout
import ScrollbackModel
import Testing

@testable import ScrollbackRendering

@Suite struct EscapingTests {
    static let script = "<script>alert(1)</script>"
    static let handler = "\" onmouseover=\"alert(1)"
    static let hostile = script + handler + "' onfocus='x"

    /// A conversation where every field a log controls holds hostile text.
    func hostileLayout() -> ConversationPlan {
        let evil = Participant(
            id: "evil\" onclick=\"x", name: Self.hostile, avatar: .remote("javascript:alert(1)"),
            color: "red;background:url(x)")
        let evil2 = Participant(id: "e2", name: "E2", avatar: .remote("https://ok.example/a.png\" onerror=\"x"))
        let h = Self.hostile
        let rows: [LayoutItem] = [
            Fixture.day(h, h),
            .message(
                Fixture.row(
                    h, .text(h), sender: evil, time: h, iso: h,
                    edited: FormattedDate(text: h, iso: h),
                    reply: ReplyPreview(messageID: h, pageIndex: 0, senderName: h, excerpt: h),
                    reactions: [ReactionSummary(emoji: h, count: 1, senderNames: [h])])),
            .message(Fixture.row("2", .emoji(h), sender: evil)),
            .message(Fixture.row("3", .system(h))),
            .message(
                Fixture.row(
                    "4", .photo(MediaItem(source: .remote("javascript:alert(1)"), alt: h, caption: h)), sender: evil2)),
            .message(Fixture.row("5", .photo(MediaItem(source: .unavailable(original: h), alt: h)), sender: evil2)),
            .message(
                Fixture.row(
                    "6",
                    .video(
                        MediaItem(
                            source: .remote("https://v.example/v.mp4"), caption: h,
                            poster: .remote("javascript:x"), title: h)), sender: evil2)),
            .message(Fixture.row("7", .audio(MediaItem(source: .remote("vbscript:x"), title: h)), sender: evil2)),
            .message(
                Fixture.row(
                    "8", .location(LocationItem(latitude: .nan, longitude: 1, name: h, address: h)), sender: evil2)),
            .message(
                Fixture.row(
                    "9", .contact(ContactItem(name: h, phones: [h], emails: [h, "a@b.example?subject=x"])),
                    sender: evil2)),
            .message(
                Fixture.row(
                    "10",
                    .linkPreview(
                        text: h,
                        link: LinkItem(
                            url: "javascript:alert(1)", title: h, teaser: h,
                            thumbnail: .remote("javascript:alert(2)"), siteName: h)),
                    sender: evil2)),
            .message(
                Fixture.row(
                    "11", .linkPreview(text: "", link: LinkItem(url: "  javascript:alert(1)", title: h)), sender: evil2)
            ),
            .message(Fixture.row("12", .custom(CustomItem(id: h, data: .string(h))), sender: evil2)),
            .message(
                Fixture.row(
                    "13",
                    .custom(
                        CustomItem(
                            id: "poll",
                            data: .object([
                                (key: "question", value: .string(h)), (key: "options", value: .array([.string(h)])),
                            ]))), sender: evil2)),
            .message(Fixture.row("14", .location(LocationItem(latitude: 1, longitude: 2, name: h)), sender: evil2)),
        ]
        return Fixture.layout(id: "evil", title: h, participants: [evil, evil2], pages: [rows], description: h)
    }

    /// The index entry of `hostileLayout()`, with hostile text in the preview and names too.
    func hostileSummary() -> ConversationSummary {
        var summary = hostileLayout().summary
        summary.lastMessagePreview = Self.hostile
        summary.participantNames = [Self.hostile]
        return summary
    }

    /// Checks that nothing in `html` came through unescaped.
    func expectInert(_ page: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        // The one script a page may hold is the site's own search client (issue 13).
        let html = Inspect.withoutOwnScripts(page)
        #expect(!html.contains("<script"), sourceLocation: sourceLocation)
        #expect(!html.contains("\" onmouseover=\""), sourceLocation: sourceLocation)
        #expect(!html.contains(" onmouseover=\"alert"), sourceLocation: sourceLocation)
        #expect(!html.contains("' onfocus='"), sourceLocation: sourceLocation)
        #expect(!html.contains("\" onclick=\""), sourceLocation: sourceLocation)
        #expect(!html.contains("\" onerror=\""), sourceLocation: sourceLocation)
        let lowered = html.lowercased()
        for attribute in ["href=\"", "src=\"", "poster=\""] {
            for scheme in ["javascript:", "vbscript:", " javascript:", "data:"] {
                #expect(!lowered.contains(attribute + scheme), "\(attribute)\(scheme)", sourceLocation: sourceLocation)
            }
        }
        #expect(!lowered.contains("background:url"), sourceLocation: sourceLocation)
    }

    @Test func hostileTextIsEscapedInEveryField() throws {
        let layout = hostileLayout()
        let (pages, _) = Inspect.render(layout)
        let html = try #require(pages["evil/index.html"])
        expectInert(html)
        // The text is still shown, escaped.
        #expect(
            html.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot; onmouseover=&quot;alert(1)&#39; onfocus=&#39;x"))
        // Refused URLs leave placeholders or plain text, and the message still renders.
        #expect(Inspect.messages(html).count == layout.conversation.messages.count)
        #expect(html.contains("<span class=\"ph0\" data-part=\"missing-media\">"))
        // An invalid colour never reaches a style attribute.
        #expect(!html.contains("style=\"--pc:red"))
        // Two entries, so the index carries its filter box and script too.
        let index = Inspect.text(SiteRenderer(config: SiteConfig()).renderIndex([hostileSummary(), hostileSummary()]))
        #expect(index.contains("index-filter.js"))
        expectInert(index)
    }

    @Test func aQuoteFollowedByACombiningMarkCannotCloseAnAttribute() throws {
        // swift-mustache's own escaping compares whole Characters, and `"` + U+0301 is one
        // Character: it would reach `<meta name="description" content="…">` raw.
        var summary = hostileSummary()
        summary.description = "x\"\u{301} onmouseover=\"alert(1)"
        summary.title = "t'\u{301}<\u{301}script>"
        let index = Inspect.text(SiteRenderer(config: SiteConfig()).renderIndex([summary]))
        let rawPairs = ["\"\u{301}", "'\u{301}", "<\u{301}"]
        for raw in rawPairs {
            #expect(!index.contains(raw))
        }
        let escaped = "&quot;\u{301} onmouseover=&quot;alert(1)"
        #expect(index.contains(escaped))
    }

    @Test func pageTextsNeverCarryCodePointsHTMLForbids() throws {
        // Titles, descriptions and names reach the page shells through `{{…}}`, whose escaping
        // (PageEscaping) replaces control characters and noncharacters with U+FFFD.
        let forbidden = "\u{1}" + String(Character(Unicode.Scalar(0xFFFE)!))
        var conversation = hostileLayout().conversation
        conversation.title = "Title" + forbidden
        conversation.description = "About" + forbidden
        conversation.participants[0].name = "Name" + forbidden
        var summary = hostileSummary()
        summary.title = "Title" + forbidden
        summary.description = "About" + forbidden
        let (pages, _) = Inspect.render(ConversationLayouter(options: LayoutOptions(), pageSize: 0).plan(conversation))
        let page = try #require(pages["evil/index.html"])
        let index = Inspect.text(SiteRenderer(config: SiteConfig()).renderIndex([summary]))
        for html in [page, index] {
            #expect(!html.unicodeScalars.contains { $0.value == 1 || $0.value == 0xFFFE })
            #expect(html.contains("Title\u{FFFD}\u{FFFD}"))
        }
        #expect(page.contains("Name\u{FFFD}\u{FFFD}"))
    }

    @Test func hostileTextIsEscapedThroughSwiftMustacheToo() throws {
        // Same input through swift-mustache's own renderer (what a template the compiler leaves
        // to it gets).
        let (pages, _) = Inspect.render(hostileLayout(), templates: TemplateCompilerTests.mustacheOnly)
        expectInert(try #require(pages["evil/index.html"]))
    }

    @Test func remoteMediaOffShowsPlaceholdersWithLinks() throws {
        var config = SiteConfig()
        config.remoteMedia = false
        let avatar = Participant(id: "r", name: "Remote Person", avatar: .remote("https://cdn.example/r.png"))
        let rows: [LayoutItem] = [
            .message(
                Fixture.row(
                    "p", .photo(MediaItem(source: .remote("https://cdn.example/p.jpg?a=1&b=2"))), sender: avatar)),
            .message(Fixture.row("v", .video(MediaItem(source: .remote("https://cdn.example/v.mp4"))), sender: avatar)),
            .message(
                Fixture.row(
                    "l",
                    .linkPreview(
                        text: "x",
                        link: LinkItem(
                            url: "https://example.org",
                            thumbnail: .remote("https://cdn.example/t.png"))),
                    sender: avatar)),
        ]
        let (pages, _) = Inspect.render(Fixture.layout(participants: [avatar], pages: [rows]), config: config)
        let html = try #require(pages["trip/index.html"])
        #expect(!html.contains("src=\"http"))
        #expect(!html.contains("poster=\"http"))
        #expect(
            html.contains(
                "<a href=\"https://cdn.example/p.jpg?a=1&amp;b=2\" rel=\"nofollow noopener noreferrer\">Open Photo</a>")
        )
        #expect(html.contains("Open Video</a>"))
        #expect(html.contains("aria-hidden=\"true\">RP</span>"))  // initials instead of the remote avatar
        // With remote media on, they load.
        let (onPages, _) = Inspect.render(Fixture.layout(participants: [avatar], pages: [rows]))
        #expect(onPages["trip/index.html"]!.contains("<img src=\"https://cdn.example/p.jpg?a=1&amp;b=2\""))
    }
}

@Suite struct DecimalTextTests {
    @Test func numbersAreWrittenAsStringWritesThem() {
        for value in [0, 7, 10, -1, -10, 1_714_567_890, -86_399, Int.max, Int.min] {
            var bytes: [UInt8] = []
            appendDecimal(value, &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == String(value))
        }
    }
}
