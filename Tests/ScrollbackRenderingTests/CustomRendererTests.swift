import Foundation
import ScrollbackLayout
import ScrollbackModel
import Testing

@testable import ScrollbackRendering

/// A Swift renderer as a library user would register it.
struct DiceRenderer: CustomMessageRenderer {
    let id = "dice"
    func render(item: CustomItem, info: CustomRendererInfo) -> String {
        let roll: String
        if case .number(let text)? = item.data["roll"] { roll = text } else { roll = "?" }
        return
            "<span class=\"die\" data-width=\"\(info.bubbleMaxWidth)\" data-radius=\"\(info.cornerRadius)\">\(roll)</span>"
    }
}

@Suite struct CustomRendererTests {
    /// The repository's sample site templates (`sample-logs/templates`).
    static let sampleTemplates = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("sample-logs/templates").path

    func pollLayout(_ id: String, data: JSONValue) -> ConversationPlan {
        Fixture.layout(pages: [[.message(Fixture.row("c1", .custom(CustomItem(id: id, data: data)), line: 42))]])
    }

    let poll: JSONValue = .object([
        (key: "question", value: .string("Dinner <tonight>?")),
        (
            key: "options",
            value: .array([
                .object([(key: "label", value: .string("Pizza")), (key: "votes", value: .number("3"))]),
                .object([(key: "label", value: .string("Ramen")), (key: "votes", value: .number("1"))]),
            ])
        ),
    ])

    @Test func shippedPollTemplateRendersTheData() throws {
        let (pages, diagnostics) = Inspect.render(pollLayout("poll", data: poll))
        let html = try #require(pages["trip/index.html"])
        #expect(diagnostics.isEmpty)
        #expect(html.contains("<div class=\"cu\" data-part=\"bubble\" data-custom=\"poll\"><div class=\"poll\">"))
        #expect(html.contains("Dinner &lt;tonight&gt;?"))
        // Counts, a bar of each option's share, and the winner named for screen readers too.
        #expect(
            html.contains(
                "<li class=\"win\"><span class=\"pl\" dir=\"auto\">Pizza<span class=\"vh\"> (most votes)</span> <span aria-hidden=\"true\">🏆</span></span><b>3</b><span class=\"bar\" style=\"--pct:75%\" aria-hidden=\"true\"></span></li>"
            ))
        #expect(
            html.contains(
                "<li><span class=\"pl\" dir=\"auto\">Ramen</span><b>1</b><span class=\"bar\" style=\"--pct:25%\" aria-hidden=\"true\"></span></li>"
            ))
        #expect(html.contains("<small>4 votes</small>"))
    }

    @Test func pollAcceptsPlainStringOptions() throws {
        let data: JSONValue = .object([
            (key: "question", value: .string("Dinner?")),
            (key: "options", value: .array([.string("Pizza"), .string("Ramen")])),
        ])
        let (pages, _) = Inspect.render(pollLayout("poll", data: data))
        let html = try #require(pages["trip/index.html"])
        #expect(html.contains("<li><span class=\"pl\" dir=\"auto\">Pizza</span></li>"))
        #expect(!html.contains("class=\"win\""), "no votes, no winner")
        #expect(!html.contains("class=\"bar\""))
    }

    @Test func pollVoteCountsFromTheLogCannotOverflow() throws {
        let data: JSONValue = .object([
            (key: "question", value: .string("Dinner?")),
            (
                key: "options",
                value: .array([
                    .object([
                        (key: "label", value: .string("Pizza")), (key: "votes", value: .number("9223372036854775807")),
                    ]),
                    .object([
                        (key: "label", value: .string("Ramen")), (key: "votes", value: .number("9223372036854775807")),
                    ]),
                ])
            ),
        ])
        let (pages, _) = Inspect.render(pollLayout("poll", data: data))
        let html = try #require(pages["trip/index.html"])
        #expect(html.contains("style=\"--pct:50%\""))
    }

    @Test func siteTemplateOfTheSampleIsFound() throws {
        let library = TemplateLibrary(siteTemplatesDirectory: Self.sampleTemplates)
        #expect(library.contains("custom/dice"))
        let data: JSONValue = .object([
            (key: "rolls", value: .array([.number("6"), .number("5")])), (key: "total", value: .number("11")),
        ])
        let (pages, diagnostics) = Inspect.render(pollLayout("dice", data: data), templates: library)
        #expect(diagnostics.isEmpty)
        #expect(pages["trip/index.html"]!.contains("<span class=\"die\">6</span><span class=\"die\">5</span>"))
        #expect(pages["trip/index.html"]!.contains("Total <b>11</b>"))
        #expect(pages["trip/index.html"]!.contains("data-custom=\"dice\""))
    }

    @Test func siteTemplateOverridesTheShippedOne() throws {
        let directory = try Inspect.siteTemplates([
            "custom/poll.mustache": "<p class=\"mypoll\">{{data.question}} ({{bubbleMaxWidth}}, {{cornerRadius}})</p>"
        ])
        let (pages, _) = Inspect.render(
            pollLayout("poll", data: poll), templates: TemplateLibrary(siteTemplatesDirectory: directory))
        #expect(pages["trip/index.html"]!.contains("<p class=\"mypoll\">Dinner &lt;tonight&gt;? (75%, 8px)</p>"))
    }

    @Test func swiftRendererTakesPrecedence() throws {
        let library = TemplateLibrary(siteTemplatesDirectory: Self.sampleTemplates)
        var options = LayoutOptions()
        options.messageMaxWidth = .px(320)
        let layout = Fixture.layout(
            pages: [
                [
                    .message(
                        Fixture.row(
                            "c1", .custom(CustomItem(id: "dice", data: .object([(key: "roll", value: .number("4"))])))))
                ]
            ],
            options: options)
        let (pages, diagnostics) = Inspect.render(layout, templates: library, customRenderers: [DiceRenderer()])
        #expect(diagnostics.isEmpty)
        #expect(
            pages["trip/index.html"]!.contains("<span class=\"die\" data-width=\"320px\" data-radius=\"8px\">4</span>"))
        #expect(!pages["trip/index.html"]!.contains("class=\"dice\""))
    }

    @Test func unknownIdRendersAnEscapedFallbackAndWarns() throws {
        let data: JSONValue = .object([(key: "x", value: .string("<script>alert(1)</script>"))])
        let (pages, diagnostics) = Inspect.render(pollLayout("mystery<b>", data: data))
        let html = try #require(pages["trip/index.html"])
        #expect(html.contains("Unsupported message “mystery&lt;b&gt;”"))
        #expect(html.contains("<pre>{\n  &quot;x&quot;: &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;\n}</pre>"))
        #expect(!Inspect.withoutOwnScripts(html).contains("<script"))
        #expect(diagnostics.count == 1)
        let warning = try #require(diagnostics.first)
        #expect(warning.severity == .warning)
        #expect(warning.problem == .unknownCustomRenderer("mystery<b>"))
        #expect(warning.location == ScrollbackModel.SourceLocation(file: "chat.json", line: 42, column: 5))
    }

    @Test func customIdCannotReachOtherTemplates() throws {
        // "../message" or "kinds/text" are not custom renderers.
        let (_, diagnostics) = Inspect.render(pollLayout("../kinds/text", data: .null))
        #expect(diagnostics.count == 1)
    }
}
