import Foundation
import ScrollbackLayout
import ScrollbackModel
import Testing

@testable import ScrollbackRendering

/// A synthetic conversation of `count` messages: mostly text (some with links and mentions),
/// with groups, day separators, replies and reactions, like a busy real chat.
func syntheticLayout(count: Int, pageSize: Int = 1000) -> ConversationLayout {
    let people = [Fixture.alice, Fixture.bob, Fixture.carol]
    var pages: [[LayoutItem]] = []
    var current: [LayoutItem] = []
    for index in 0..<count {
        if index % pageSize == 0, !current.isEmpty {
            pages.append(current)
            current = []
        }
        if index % 200 == 0 { current.append(Fixture.day("Day \(index / 200)", "2024-05-03")) }
        let sender = people[(index / 3) % 3]
        let position: GroupPosition = [.first, .middle, .last][index % 3]
        let text =
            index % 10 == 0
            ? "Look at https://example.com/item/\(index) and tell @bob what you think, or mail me@example.com"
            : "Message number \(index): the quick brown fox jumps over the lazy dog, again & again."
        let reply =
            index % 25 == 5
            ? ReplyPreview(
                messageID: "m\(index - 4)", pageIndex: (index - 4) / pageSize, senderName: "Bob Stone",
                excerpt: "An earlier message")
            : nil
        let reactions = index % 17 == 0 ? [ReactionSummary(emoji: "👍", count: 2, senderNames: ["Alice", "Bob"])] : []
        current.append(
            .message(
                Fixture.row(
                    "m\(index)", .text(text), sender: sender, position: position, avatar: position == .last,
                    header: position == .first, footer: position == .last,
                    timestamp: position == .last ? .bottom : .hidden, status: sender.id == "alice" ? .read : nil,
                    reply: reply, reactions: reactions)))
    }
    pages.append(current)
    return Fixture.layout(pages: pages)
}

/// Per-message render cost on 20k messages; prints µs/message and HTML bytes/message.
/// The bound is loose (debug builds are slow); the printed figure from a release build is the one to report.
@Test func perMessageRenderCost() {
    let pageSize = Int(ProcessInfo.processInfo.environment["SCROLLBACK_BENCH_PAGE_SIZE"] ?? "") ?? 1000
    let layout = syntheticLayout(count: 20_000, pageSize: pageSize)
    let renderer = SiteRenderer(config: SiteConfig())
    _ = renderer.renderConversation(syntheticLayout(count: 500))  // warm up
    // Thread CPU time as well as wall time: the build machine is shared, so wall time overstates.
    func cpuSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
    let start = ContinuousClock.now
    let cpuStart = cpuSeconds()
    let (files, diagnostics) = renderer.renderConversation(layout)
    let cpu = cpuSeconds() - cpuStart
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let bytes = files.reduce(0) { $0 + $1.contents.count }
    let microseconds = seconds * 1e6 / 20_000
    print(
        "render: \(String(format: "%.2f", microseconds)) µs/message wall, \(String(format: "%.2f", cpu * 1e6 / 20_000)) µs/message CPU, \(bytes / 20_000) bytes/message, \(files.count) pages"
    )
    #expect(diagnostics.isEmpty)
    #expect(files.count == (20_000 + pageSize - 1) / pageSize)
    #expect(microseconds < 2_000)
}

/// Every shipped row template has a compiled copy that prints the same bytes.
@Test func shippedRowTemplatesAreCompiled() {
    let rows = RowTemplates(library: .shipped)
    let names = Set(RowTemplates.probes.map(\.templateName))
    #expect(
        rows.compiled == names, "templates whose compiled copy differs: \(names.subtracting(rows.compiled).sorted())")
}

/// The shipped poll template has a compiled copy; it prints what swift-mustache prints for the
/// shapes it covers and leaves every other shape to the template.
@Test func shippedPollTemplateIsCompiledAndMatchesTheTemplate() {
    let library = TemplateLibrary.shipped
    #expect(RowTemplates(library: library).compiledPoll)
    #expect(!RowTemplates(library: library, allowCompiled: false).compiledPoll)
    let message: [String: Any] = ["id": "m9", "date": "1:02 PM", "iso": "2024-05-03T13:02:00Z"]
    var covered = 0
    let extra: [JSONValue] = [
        .object([
            ("question", .string("Lunch?")),
            ("options", .array([.string("Pizza & pasta"), .string("Ça va \u{1F355}")])),
        ]),
        .object([("question", .string("x\"\u{301}<")), ("options", .array([.string("'\u{327}")]))]),
    ]
    for data in CompiledPollTemplate.probes + extra {
        let context = MessageRenderer.customTemplateContext(
            id: "poll", message: message, bubbleMaxWidth: "60%", cornerRadius: "4px", data: data)
        let templated = library.render("custom/poll", context)
        if let native = CompiledPollTemplate.render(data) {
            covered += 1
            #expect(native == templated)
        }
    }
    #expect(covered >= 6)
    // Object options, a `label` in the data, or other value types go to the template.
    #expect(CompiledPollTemplate.render(.object([("options", .array([.object([("label", .string("A"))])]))])) == nil)
    #expect(CompiledPollTemplate.render(.object([("label", .string("L"))])) == nil)
    #expect(CompiledPollTemplate.render(.string("x")) == nil)
}

/// A site's own poll template is never replaced by the compiled copy.
@Test func anOverriddenPollTemplateIsNotCompiled() throws {
    let directory = try Inspect.siteTemplates(["custom/poll.mustache": "<p>{{data.question}}</p>"])
    #expect(!RowTemplates(library: TemplateLibrary(siteTemplatesDirectory: directory)).compiledPoll)
}

/// Pages pasted into the shared page skeleton are the bytes the templates print in full (the
/// same templates as a site override take the full path), one page or many, and when log text
/// holds a marker.
@Test func pastedPagesMatchFullyRenderedPages() throws {
    let shipped = TemplateLibrary.defaultTemplatesDirectory
    var overrides: [String: String] = [:]
    for name in ["conversation", "base"] {
        overrides[name + ".mustache"] = try String(contentsOfFile: shipped + "/" + name + ".mustache", encoding: .utf8)
    }
    let fullyRendered = TemplateLibrary(siteTemplatesDirectory: try Inspect.siteTemplates(overrides))
    let marked = Fixture.layout(
        title: "Trip " + PageSkeleton.messagesMarker, pages: [[Fixture.day("Friday", "2024-05-03")]],
        description: PageSkeleton.bodyMarker)
    for layout in [Fixture.showcase(), syntheticLayout(count: 2_500), marked] {
        let (pasted, _) = Inspect.render(layout)
        let (full, _) = Inspect.render(layout, templates: fullyRendered)
        #expect(pasted.count == full.count)
        for (path, page) in full { #expect(pasted[path] == page, "\(path) differs") }
    }
    let (markedPages, _) = Inspect.render(marked)
    #expect(markedPages["trip/index.html"]?.contains("Trip &lt;Scrollback-Pasted&amp;Messages-7c1e&gt;") == true)
}

/// Rendering page by page from a plan writes the files `renderConversation(layout)` returns,
/// byte for byte and in the same order, with the same warnings.
@Test func renderingFromAPlanMatchesRenderingTheLayout() {
    let conversation = Fixture.showcase().conversation
    #expect(conversation.messages.count > 6)
    let renderer = SiteRenderer(config: SiteConfig())
    for pageSize in [0, 2, 5] {
        let layouter = ConversationLayouter(options: LayoutOptions(), pageSize: pageSize)
        let whole = renderer.renderConversation(layouter.layout(conversation))
        var written: [RenderedFile] = []
        let diagnostics = renderer.renderConversation(layouter.plan(conversation)) { written.append($0) }
        #expect(written.map(\.path) == whole.files.map(\.path))
        #expect(written.map(\.contents) == whole.files.map(\.contents))
        #expect(diagnostics == whole.diagnostics)
    }
}

/// The byte scan of `rebaseRoot` replaces what Foundation's search replaces, next to non-ASCII text too.
@Test func rebasingTheRootMatchesFoundationsReplacement() {
    func reference(_ html: String) -> String {
        html.replacingOccurrences(of: "=\"@root/", with: "=\"../").replacingOccurrences(of: "='@root/", with: "='../")
    }
    let samples = [
        "<p>no marker</p>", "<img src=\"@root/media/a.png\"><img src='@root/media/b.png'>",
        "text @root/ not in an attribute", "<a href=\"@root/x\">=\"@root/=\"@root/</a>", "=\"@root",
        "<img src=\"@root/\u{301}a.png\">", "\u{600}=\"@root/x", "é<img alt=\"é\" src=\"@root/m.png\">",
    ]
    for sample in samples {
        #expect(MessageRenderer.rebaseRoot(sample, root: "../") == reference(sample), "\(sample.debugDescription)")
    }
}

/// The shipped pagination has a compiled copy that prints what the template prints; a site's own
/// pagination template, or no compiled copies at all, keeps swift-mustache.
@Test func shippedPaginationIsCompiledAndMatchesTheTemplate() throws {
    let library = TemplateLibrary.shipped
    #expect(RowTemplates(library: library).compiledPagination)
    #expect(!RowTemplates(library: library, allowCompiled: false).compiledPagination)
    for count in [2, 3, 8, 9, 30] {
        for current in 0..<count {
            var context = SiteRenderer.paginationContext(current: current, count: count)
            context["where"] = "top"
            #expect(
                Array(CompiledPaginationTemplate.render(current: current, count: count, place: "top").utf8)
                    == Array(library.render("pagination", context).utf8))
        }
    }
    let directory = try Inspect.siteTemplates(["pagination.mustache": "<nav>{{pageNumber}}/{{pageCount}}</nav>"])
    #expect(!RowTemplates(library: TemplateLibrary(siteTemplatesDirectory: directory)).compiledPagination)
}

/// Pages of a conversation with many pages (each with its own header: count and date range),
/// rendered through the shipped templates, with the header filled into a shared marked rendering
/// and the compiled pagination, are the bytes of rendering every template in full.
@Test func markedPageHeadersAndCompiledPaginationMatchFullRendering() throws {
    let shipped = TemplateLibrary.defaultTemplatesDirectory
    var overrides: [String: String] = [:]
    for name in ["conversation", "base", "pagination"] {
        overrides[name + ".mustache"] = try String(contentsOfFile: shipped + "/" + name + ".mustache", encoding: .utf8)
    }
    let fullyRendered = SiteRenderer(
        config: SiteConfig(), templates: TemplateLibrary(siteTemplatesDirectory: try Inspect.siteTemplates(overrides)))
    let renderer = SiteRenderer(config: SiteConfig())
    var conversation = Fixture.showcase().conversation
    // Messages a day apart and a title and names with text that must be escaped.
    let base = conversation.messages
    conversation.messages = (0..<60).map { index in
        var message = base[index % base.count]
        message.id = "x\(index)"
        message.replyTo = nil
        message.date = Date(timeIntervalSince1970: 1_714_700_000 + Double(index) * 3_000)
        return message
    }
    // A title holding a marker makes the conversation render its headers in full.
    for (title, pageSize) in [("Trip <&> é", 1), ("Trip <&> é", 7), ("Trip <&> é", 25), ("A ScrollbackCountQ7c1e", 7)] {
        conversation.title = title
        let plan = ConversationLayouter(options: LayoutOptions(), pageSize: pageSize).plan(conversation)
        var fast: [RenderedFile] = []
        var full: [RenderedFile] = []
        _ = renderer.renderConversation(plan) { fast.append($0) }
        _ = fullyRendered.renderConversation(plan) { full.append($0) }
        #expect(fast.map(\.path) == full.map(\.path))
        #expect(fast.map(\.contents) == full.map(\.contents))
    }
}
