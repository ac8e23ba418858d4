import Foundation
import ScrollbackLayout
import ScrollbackModel
import Testing

@testable import ScrollbackRendering

@Suite struct OutputContractTests {
    let layout = Fixture.showcase()

    @Test func everyMessageCarriesTheSection5Attributes() throws {
        let (pages, _) = Inspect.render(layout)
        let html = try #require(pages["trip/index.html"])
        let messages = Inspect.messages(html)
        let expected = layout.conversation.messages
        #expect(messages.count == expected.count)
        for (element, message) in zip(messages, expected) {
            let attributes = element.attributes
            #expect(attributes["id"] == "m-" + message.id)
            #expect(attributes["data-message-id"] == message.id)
            #expect(attributes["data-kind"] == message.kind.name.rawValue)
            if message.kind.name == MessageKind.Name.system {
                #expect(attributes["data-sender"] == nil)
                #expect(attributes["data-align"] == "center")
                #expect(!element.has(part: "bubble"))
                #expect(!element.has(part: "avatar"))
            } else {
                #expect(attributes["data-sender"] == message.sender)
                #expect(element.has(part: "bubble"))
            }
            #expect(["left", "right", "center"].contains(attributes["data-align"] ?? ""))
            #expect(["single", "first", "middle", "last"].contains(attributes["data-group-position"] ?? ""))
            // Appears once as a message element.
            #expect(html.components(separatedBy: "data-message-id=\"\(message.id)\"").count == 2)
        }
        // Every kind of spec §1 is in the showcase.
        #expect(
            Set(messages.compactMap { $0.attributes["data-kind"] }) == Set(MessageKind.Name.allCases.map(\.rawValue)))
    }

    @Test func partsAppearOnlyInsideMessageElements() throws {
        // The participant list in the page header shows avatars too, but a test (or a stylesheet)
        // that counts `[data-part=avatar]` must find only the messages' own.
        let (pages, _) = Inspect.render(layout)
        let html = try #require(pages["trip/index.html"])
        let header = try #require(html.components(separatedBy: "</header>").first)
        #expect(header.contains("class=\"av"))
        #expect(!header.contains("data-part="))
        let partsInMessages = Inspect.messages(html).filter { $0.has(part: "avatar") }.count
        #expect(html.components(separatedBy: "data-part=\"avatar\"").count - 1 == partsInMessages)
    }

    @Test func timestampIsATimeElementLinkingToThePermalink() throws {
        let (pages, _) = Inspect.render(layout)
        let message = try #require(Inspect.messages(pages["trip/index.html"]!).first { $0.attributes["id"] == "m-m2" })
        #expect(
            message.html.contains(
                "<a href=\"#m-m2\" title=\"9:41:00\u{202F}AM\"><time datetime=\"2024-05-03T09:41:00Z\" data-part=\"timestamp\">9:41\u{202F}AM</time></a>"
            ))
    }

    @Test func daySeparatorsHoldATimeElement() throws {
        let (pages, _) = Inspect.render(layout)
        let html = try #require(pages["trip/index.html"])
        #expect(
            html.contains(
                "<h2 class=\"day\" data-part=\"day-separator\"><time datetime=\"2024-05-03\">Friday, May 3, 2024</time></h2>"
            ))
        #expect(html.components(separatedBy: "data-part=\"day-separator\"").count == 3)
    }

    @Test func partsFollowTheLayoutDecisions() throws {
        // Groups collapsed every way the options allow, so every part is shown and left out.
        var options = LayoutOptions()
        options.collapseProfilePicture = true
        options.collapseEnclosingViews = true
        for placement in [TimestampCollapsing.top, .bottom] {
            options.collapseTimestamps = placement
            let later = FormattedDate(text: "later", iso: "2024-05-03T10:00:00Z")
            let rows: [LayoutItem] = [
                .message(Fixture.row("a", .text("a"), edited: later)),
                .message(Fixture.row("b", .text("b"), edited: later)),
                .message(Fixture.row("c", .text("c"), edited: later)),
                // A footer with nothing to show (no edit, no status on a left message) is left out.
                .message(Fixture.row("empty-footer", .text("c"), sender: Fixture.carol, status: .read)),
                .message(Fixture.row("mine", .text("d"), sender: Fixture.alice, status: .delivered)),
            ]
            let plan = Fixture.layout(pages: [rows], options: options)
            let (pages, _) = Inspect.render(plan)
            let messages = Inspect.messages(pages["trip/index.html"]!)
            #expect(messages.count == 5)
            for (index, message) in messages.enumerated() {
                let decisions = plan.decisions(index)
                #expect(message.has(part: "avatar") == decisions.showsAvatar, "\(index)")
                #expect(message.has(part: "header") == decisions.showsHeader, "\(index)")
                #expect(message.has(part: "timestamp") == (decisions.timestamp != .hidden), "\(index)")
                #expect(message.html.contains("<a class=\"tt\" href=") == (decisions.timestamp == .top), "\(index)")
                #expect(message.has(part: "bubble"))
            }
            #expect(messages[0].has(part: "header") && !messages[1].has(part: "header"))
            #expect(messages[2].has(part: "avatar") && !messages[0].has(part: "avatar"))
            #expect(messages[0].has(part: "footer") != messages[2].has(part: "footer") || placement == .top)
            #expect(!messages[3].has(part: "footer"))
            #expect(messages[4].has(part: "footer"))
        }
    }

    @Test func emptySiteTemplatesRemoveTheirParts() throws {
        let directory = try Inspect.siteTemplates([
            "header.mustache": "", "footer.mustache": "  \n", "avatar.mustache": "\n",
        ])
        let library = TemplateLibrary(siteTemplatesDirectory: directory)
        #expect(library.diagnostics.isEmpty)
        let (pages, _) = Inspect.render(layout, templates: library)
        let html = try #require(pages["trip/index.html"])
        for part in ["header", "footer", "avatar"] {
            #expect(!html.contains("data-part=\"\(part)\""), "\(part) still drawn")
        }
        #expect(html.contains("class=\"ml noav\""))
        #expect(html.contains("data-part=\"bubble\""))
        #expect(html.contains("data-part=\"timestamp\""))
    }

    @Test func siteOverrideOfARowTemplateIsUsed() throws {
        let directory = try Inspect.siteTemplates([
            // `kind` is not the header's own value: Mustache finds it up the stack, on the message.
            "header.mustache": "<div class=\"who\" data-part=\"header\">~{{name}}~{{kind}}</div>"
        ])
        let (pages, _) = Inspect.render(layout, templates: TemplateLibrary(siteTemplatesDirectory: directory))
        let html = try #require(pages["trip/index.html"])
        #expect(html.contains("<div class=\"who\" data-part=\"header\">~Bob Stone~text</div>"))
        #expect(html.contains("<div class=\"who\" data-part=\"header\">~Bob Stone~contact</div>"))
        #expect(!html.contains("data-part=\"header\">Bob Stone</div>"))
    }

    @Test func templateParseErrorsNameFileAndLine() throws {
        let directory = try Inspect.siteTemplates(["message.mustache": "<div>\n{{#open}}never closed\n"])
        let library = TemplateLibrary(siteTemplatesDirectory: directory)
        let diagnostic = try #require(library.diagnostics.first)
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.location?.file == "templates/message.mustache")
        #expect((diagnostic.location?.line ?? 0) >= 2)
        guard case .templateError = diagnostic.problem else {
            Issue.record("expected templateError, got \(diagnostic.problem)")
            return
        }
        // The shipped template is used instead.
        let (pages, _) = Inspect.render(layout, templates: library)
        #expect(Inspect.messages(pages["trip/index.html"]!).count == layout.conversation.messages.count)
    }

    @Test func renderingIsDeterministic() {
        let first = Inspect.render(layout).pages
        let second = Inspect.render(Fixture.showcase()).pages
        #expect(first == second)
        let renderer = SiteRenderer(config: SiteConfig())
        #expect(renderer.renderIndex([layout.summary]).contents == renderer.renderIndex([layout.summary]).contents)
    }

    @Test func pageShellUsesRelativeLinks() throws {
        let (pages, _) = Inspect.render(layout)
        let html = try #require(pages["trip/index.html"])
        #expect(html.hasPrefix("<!doctype html>\n<html lang=\"en-US\">"))
        #expect(html.contains("<link rel=\"icon\" href=\"../assets/favicon.svg\""))
        #expect(html.contains("<link rel=\"stylesheet\" href=\"../assets/scrollback.css\">"))
        #expect(html.contains("<meta name=\"description\" content=\"Planning the Berlin weekend\">"))
        #expect(html.contains("<a class=\"back\" href=\"../index.html\">"))
        #expect(html.contains("style=\"--bubble-share:75;--bubble-radius:8px\""))
        #expect(!html.contains("src=\"/"))
        #expect(!html.contains("href=\"/"))
        let index = Inspect.text(SiteRenderer(config: SiteConfig()).renderIndex([layout.summary]))
        #expect(index.contains("<a class=\"conv\" href=\"trip/index.html#latest\">"))
        #expect(index.contains("href=\"assets/scrollback.css\""))
        // The index names each conversation's last activity.
        #expect(index.contains("<p class=\"la\">Last active <time datetime=\"2024-05-04T09:41:00Z\">"))
        #expect(index.contains("<p class=\"last\" dir=\"auto\">Bob Stone: "))
        #expect(index.contains("Alice Nguyen, Bob Stone, Carol Díaz"))
    }

    @Test func assetsAreShippedAndSmall() throws {
        let assets = SiteRenderer(config: SiteConfig()).assetFiles()
        // highlight.js comes from its Debian package when installed (`HighlightAssets`).
        let highlight = HighlightAssets.load().isEmpty ? [] : [HighlightAssets.stylePath, HighlightAssets.scriptPath]
        #expect(
            assets.map(\.path)
                == ([
                    "assets/code.js", "assets/conversation.js", "assets/favicon.svg", "assets/index-filter.js",
                    "assets/play.svg", "assets/scrollback.css", "assets/search.css", "assets/search.js",
                ] + highlight).sorted())
        let css = try #require(assets.first { $0.path == "assets/scrollback.css" })
        // 23 kB: the conversation bar, "Latest" and the photo viewer (issue 42) took it past 20;
        // the AI answers' document layout, code and table boxes (42.5) add 3 kB, the phone's
        // compact header and the index's app pills and order (42.7, 42.8) 2 kB more.
        #expect(css.contents.count <= 30_000)
        let text = Inspect.text(css)
        #expect(text.contains("prefers-color-scheme: dark"))
        #expect(!text.contains("http"))
        #expect(!text.contains("@import"))
        // The index's filter script (and its newest-first order) loads nothing and stays small.
        let filter = try #require(assets.first { $0.path == "assets/index-filter.js" })
        #expect(filter.contents.count <= 4_000)
        #expect(!Inspect.text(filter).contains("http"))
        // So does the conversation page's (floating date, "Latest", the photo viewer).
        // The code blocks' script (copy buttons, loading the highlighter) is small too.
        let code = try #require(assets.first { $0.path == "assets/code.js" })
        #expect(code.contents.count <= 3_000)
        #expect(!Inspect.text(code).contains("http"))
        let reading = try #require(assets.first { $0.path == "assets/conversation.js" })
        #expect(reading.contents.count <= 6_000)
        #expect(!Inspect.text(reading).contains("http"))
    }

    @Test func markupStaysUnderOneKilobytePerMessage() throws {
        let (pages, _) = Inspect.render(layout)
        for message in Inspect.messages(pages["trip/index.html"]!) {
            #expect(
                message.html.utf8.count <= 1024,
                "\(message.attributes["id"] ?? "?") is \(message.html.utf8.count) bytes")
        }
    }
}
