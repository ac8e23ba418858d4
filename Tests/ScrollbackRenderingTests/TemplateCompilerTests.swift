import Foundation
import Mustache
import ScrollbackLayout
import ScrollbackModel
import Testing

@testable import ScrollbackRendering

/// The one rendering path: templates compiled into byte-writing steps (`CompiledTemplate`) print
/// what swift-mustache prints for the same view models.
@Suite struct TemplateCompilerTests {
    /// The shipped templates, every one rendered through swift-mustache's own renderer.
    static let mustacheOnly = TemplateLibrary(siteTemplatesDirectory: nil, renderingEverythingWithMustache: true)

    /// Conversations that use every shipped template: every kind, a poll and an unknown custom id,
    /// hostile text, several pages (pagination, repeated days, continued groups).
    static func conversations() -> [ConversationPlan] {
        let showcase = Fixture.showcase()
        var paged = showcase.conversation
        paged.id = "paged"
        let base = paged.messages
        paged.messages = (0..<40).map { index in
            var message = base[index % base.count]
            message.id = "x\(index)"
            message.replyTo = index % 7 == 3 ? "x\(index - 2)" : nil
            message.date = Date(timeIntervalSince1970: 1_714_700_000 + Double(index) * 9_000)
            return message
        }
        return [showcase, EscapingTests().hostileLayout(), syntheticLayout(count: 450, pageSize: 60)]
            + [1, 6, 25].map { ConversationLayouter(options: LayoutOptions(), pageSize: $0).plan(paged) }
    }

    @Test func everyShippedTemplateIsCompiled() throws {
        let library = TemplateLibrary.shipped
        #expect(library.diagnostics.isEmpty)
        let files = FileManager.default.subpaths(atPath: TemplateLibrary.defaultTemplatesDirectory) ?? []
        let names = files.filter { $0.hasSuffix(".mustache") }.map { String($0.dropLast(".mustache".count)) }
        #expect(names.count >= 20)
        for name in names {
            #expect(library.contains(name))
            // A page-level template has a view model; the rest are partials of one of them.
            if TemplateLibrary.viewModel(ofTemplate: name) != nil {
                #expect(library.compiledTemplate(name).fallbackReason == nil, "\(name) is not compiled")
            } else {
                #expect(
                    [
                        "avatar", "header", "footer", "timestamp", "reply", "thread-summary", "jump-link",
                        "head-publishing",
                        "last-active", "search-box", "edited", "code-assets",
                    ].contains(name), "\(name) is never rendered")
            }
        }
    }

    @Test func compiledTemplatesPrintWhatSwiftMustachePrints() throws {
        let compiled = SiteRenderer(config: SiteConfig())
        let reference = SiteRenderer(config: SiteConfig(), templates: Self.mustacheOnly)
        var summaries: [ConversationSummary] = []
        var kinds: Set<String> = []
        for plan in Self.conversations() {
            let fast = compiled.renderFiles(plan)
            let slow = reference.renderFiles(plan)
            #expect(fast.files.map(\.path) == slow.files.map(\.path))
            for (a, b) in zip(fast.files, slow.files) {
                #expect(a.contents == b.contents, "\(a.path) differs")
            }
            #expect(fast.diagnostics == slow.diagnostics)
            for file in fast.files where file.path.hasSuffix(".html") {
                for element in Inspect.messages(Inspect.text(file)) {
                    if let kind = element.attributes["data-kind"] { kinds.insert(kind) }
                }
            }
            summaries.append(plan.summary)
        }
        // Every kind (so every `kinds/…` template) was drawn.
        #expect(kinds.isSuperset(of: MessageKind.Name.allCases.map(\.rawValue)), "\(kinds)")
        #expect(compiled.renderIndex(summaries).contents == reference.renderIndex(summaries).contents)
        #expect(compiled.renderIndex([]).contents == reference.renderIndex([]).contents)
    }

    /// A site's copies of the shipped templates take the same compiled path and print the same bytes.
    @Test func siteOverridesAreCompiledToo() throws {
        let shipped = TemplateLibrary.defaultTemplatesDirectory
        var overrides: [String: String] = [:]
        for name in ["message", "conversation", "base", "pagination", "kinds/text", "avatar"] {
            overrides[name + ".mustache"] = try String(
                contentsOfFile: shipped + "/" + name + ".mustache", encoding: .utf8)
        }
        let library = TemplateLibrary(siteTemplatesDirectory: try Inspect.siteTemplates(overrides))
        #expect(library.overridden.contains("message"))
        #expect(library.compiledTemplate("message").fallbackReason == nil)
        let plan = Fixture.showcase()
        #expect(
            SiteRenderer(config: SiteConfig(), templates: library).renderFiles(plan).files.map(\.contents)
                == SiteRenderer(config: SiteConfig()).renderFiles(plan).files.map(\.contents))
    }

    /// What the compiler does not do still renders, through swift-mustache; a partial that
    /// includes itself forever is a located error instead of a crash.
    @Test func unsupportedConstructsFallBackToSwiftMustache() throws {
        let directory = try Inspect.siteTemplates([
            "kinds/emoji.mustache": "<div class=\"b em\">{{uppercased(text)}}</div>",
            "day-separator.mustache": "{{<parent}}{{$x}}{{text}}{{/x}}{{/parent}}",
            "parent.mustache": "<h2>{{$x}}{{/x}}</h2>",
            "kinds/system.mustache": "<p>{{>loop}}</p>",
            "loop.mustache": "{{>loop}}",
        ])
        let library = TemplateLibrary(siteTemplatesDirectory: directory)
        #expect(library.compiledTemplate("kinds/emoji").fallbackReason != nil)
        #expect(library.compiledTemplate("day-separator").fallbackReason != nil)
        let loop = try #require(library.diagnostics.first { $0.location?.file == "templates/kinds/system.mustache" })
        #expect(loop.severity == .error)
        let plan = Fixture.layout(pages: [
            [Fixture.day("Friday", "2024-05-03"), .message(Fixture.row("e", .emoji("hi")))]
        ])
        let html = try #require(Inspect.render(plan, templates: library).pages["trip/index.html"])
        #expect(html.contains("<div class=\"b em\">HI</div>"))
        #expect(html.contains("<h2>Friday, May 3, 2024</h2>"))
    }

    /// The compiler reads swift-mustache's parsed templates through reflection: this pins the
    /// layout of every token it reads (swift-mustache 2.1.1).
    @Test func swiftMustacheTokenLayoutIsTheOneTheCompilerReads() throws {
        let template = try MustacheTemplate(
            string: PageEscaping.pragma
                + "a{{b}}{{{c}}}{{#d}}e{{/d}}{{^f}}g{{/f}}{{>h}}{{>*i}}{{<j}}{{$k}}l{{/k}}{{/j}}{{m.n}}{{lower(o)}}")
        let tokens = try #require(MustacheToken.tokens(of: template))
        let described = tokens.map { token -> String in
            switch token {
            case .text(let text): return "text(\(text))"
            case .variable(let name, let escaped, let transforms):
                return "\(escaped ? "var" : "raw")(\(name)\(transforms.isEmpty ? "" : "|" + transforms.joined()))"
            case .section(let name, let inverted, _, let body):
                return "\(inverted ? "inverted" : "section")(\(name),\(MustacheToken.tokens(of: body)?.count ?? -1))"
            case .partial(let name, let indentation, let inherits):
                return "partial(\(name),\(indentation ?? "nil"),\(inherits))"
            case .contentType(let isPageEscaping): return "contentType(\(isPageEscaping))"
            case .unsupported(let construct): return construct
            }
        }
        #expect(
            described == [
                "contentType(true)", "text(a)", "var(b)", "raw(c)", "section(d,1)", "inverted(f,1)",
                "partial(h,nil,false)", "dynamicNamePartial", "partial(j,,true)", "var(m.n)", "var(o|lower)",
            ])
    }
}
