import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackRendering
@testable import ScrollbackSite

/// AI conversations read like documents (issue 42.5): the prompt a bubble, the answer the
/// width of the page, its code blocks and tables in boxes of their own.
@Suite struct AIDocumentTests {
    /// A log whose assistant answers with a heading, a code block and a table; `presentation`
    /// is written into its `layout` object when given.
    static func log(presentation: String?) -> String {
        let answer =
            "## Steps\\n\\n```swift\\nlet total = values.reduce(0, +) // a long line that would not fit a phone\\n```\\n\\n"
            + "| a | b |\\n|---|---|\\n| 1 | 2 |"
        return """
            {"title": "Ask", "me": "u", \(presentation.map { "\"layout\": {\"presentation\": \"\($0)\"}, " } ?? "")
             "participants": [{"id": "u", "name": "You"}, {"id": "ai", "name": "Assistant"}],
             "messages": [
              {"id": "q", "sender": "u", "date": "2024-05-03T09:00:00Z", "kind": "attributedText", "markdown": "Sum in Swift?\\n\\n```swift\\nvalues\\n```"},
              {"id": "a", "sender": "ai", "date": "2024-05-03T09:00:05Z", "kind": "attributedText", "markdown": "\(answer)"}
             ]}
            """
    }

    static func page(presentation: String?) throws -> (page: String, site: URL) {
        let folder = try TemporaryFolder()
        try folder.write(log(presentation: presentation), to: "in/ask.json")
        let site = folder.url.appendingPathComponent("site")
        let report = try build(folder.url.appendingPathComponent("in"), site)
        #expect(!report.hasErrors, "\(report.diagnostics)")
        let page = try String(contentsOf: site.appendingPathComponent("ask/index.html"), encoding: .utf8)
        return (page, site)
    }

    static func element(_ id: String, in page: String) -> String {
        ImportLookTests.element(id, in: [page]) ?? ""
    }

    @Test func answersAreDocumentsAndPromptsStayBubbles() throws {
        let (page, _) = try Self.page(presentation: "document")
        let answer = Self.element("a", in: page)
        let prompt = Self.element("q", in: page)
        #expect(answer.contains("data-layout=\"document\""))
        #expect(!answer.contains("data-part=\"avatar\""))
        #expect(!prompt.contains("data-layout"))
        #expect(prompt.contains("data-align=\"right\""))
        // The answer's code block: language bar, copy button hidden until the script shows it,
        // and a box the keyboard can scroll.
        // (A row's rich text spans several lines: its code and table are looked for in the page.)
        #expect(
            page.contains(
                "<div class=\"code\" data-part=\"code\"><div class=\"code-h\"><span class=\"code-l\">swift</span>"
                    + "<button type=\"button\" class=\"copy\" hidden>Copy</button></div><pre tabindex=\"0\">"
                    + "<code class=\"language-swift\">let total"), "\(page)")
        #expect(page.contains("<div class=\"tbl\" role=\"region\" tabindex=\"0\" aria-label=\"Table\"><table>"))
        #expect(page.contains("</table></div>") && page.contains("</pre></div>"))
        #expect(Self.occurrences("class=\"code\"", in: page) == 1)
        // A prompt's code stays as the chat draws it.
        #expect(page.contains("<pre><code class=\"language-swift\">values"))
        #expect(page.contains("<script src=\"../assets/code.js\" defer"))
    }

    static func occurrences(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test func aChatLogIsUnchanged() throws {
        let (page, _) = try Self.page(presentation: nil)
        #expect(!page.contains("data-layout"))
        #expect(!page.contains("class=\"code\"") && !page.contains("class=\"tbl\""))
        #expect(!page.contains("assets/code.js"))
    }

    @Test func aDocumentWithoutCodeLoadsNoCodeScript() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            """
            {"me": "u", "layout": {"presentation": "document"}, "participants": [{"id": "u", "name": "You"}, {"id": "ai", "name": "AI"}],
             "messages": [{"id": "a", "sender": "ai", "date": "2024-05-03T09:00:05Z", "text": "plain"}]}
            """, to: "in/plain.json")
        let site = folder.url.appendingPathComponent("site")
        try build(folder.url.appendingPathComponent("in"), site)
        let page = try String(contentsOf: site.appendingPathComponent("plain/index.html"), encoding: .utf8)
        #expect(page.contains("data-layout=\"document\""))
        #expect(!page.contains("code.js"))
    }

    @Test func theHighlighterComesFromItsInstalledFolderOrNotAtAll() throws {
        #expect(HighlightAssets.load(from: "/nonexistent-highlight").isEmpty)
        #expect(HighlightAssets.load(from: "").isEmpty)
        let folder = try TemporaryFolder()
        try folder.write("var hljs = {};", to: "highlight.min.js")
        try folder.write(".hljs { color: #000; }", to: "styles/a11y-light.css")
        try folder.write(".hljs { color: #fff; }", to: "styles/a11y-dark.css")
        let assets = HighlightAssets.load(from: folder.path)
        #expect(assets[HighlightAssets.scriptPath] == Array("var hljs = {};".utf8))
        let style = String(decoding: assets[HighlightAssets.stylePath] ?? [], as: UTF8.self)
        #expect(style.contains(".hljs { color: #000; }\n@media (prefers-color-scheme: dark) {\n.hljs { color: #fff; }"))
        // Where Debian's package is installed, a site with code ships it and says so on the page.
        guard FileManager.default.fileExists(atPath: HighlightAssets.debianFolder + "/highlight.min.js") else { return }
        let (page, site) = try Self.page(presentation: "document")
        #expect(page.contains("<script src=\"../assets/code.js\" defer data-highlight></script>"))
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("assets/highlight.min.js").path))
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("assets/highlight.css").path))
    }

    /// The real 2025 export: thoughts, a search, a tool result and a recap read as the app shows
    /// them, in the document layout.
    @Test func aChatGPTExportReadsLikeTheApp() throws {
        let pages = try ImportLookTests.site("chatgpt", "sinity-polylogue")
        let html = pages.joined()
        #expect(!html.contains("Unsupported content"))
        #expect(!html.contains("&quot;query&quot;") && !html.contains("\"query\""))
        let thoughts = try #require(ImportLookTests.element("thought-active", in: pages))
        #expect(thoughts.contains("<details><summary>Privacy-safe reasoning summary.</summary>"), "\(thoughts)")
        #expect(thoughts.contains("data-layout=\"document\""))
        let search = try #require(ImportLookTests.element("tool-call", in: pages))
        #expect(search.contains("Searched the web:") && search.contains("fixture evidence"), "\(search)")
        let result = try #require(ImportLookTests.element("tool-result", in: pages))
        #expect(result.contains("<summary>Output of browser.search</summary>"), "\(result)")
        #expect(ImportLookTests.element("recap-active", in: pages) == nil)
        let prompt = try #require(ImportLookTests.element("user", in: pages))
        #expect(!prompt.contains("data-layout") && prompt.contains("data-align=\"right\""))
    }
}
