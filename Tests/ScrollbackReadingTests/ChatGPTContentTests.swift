import Foundation
import ScrollbackHTML
import ScrollbackModel
import Testing

@testable import ScrollbackReading

/// ChatGPT's thoughts, tool calls and tool results read as the app shows them (issue 41,
/// acceptance 4), in the shapes real exports have, and every record is counted.
@Suite struct ChatGPTContentTests {
    /// One conversation whose branch is `nodes` in order (each the `message` object of a node).
    static func export(_ nodes: [String]) -> String {
        var mapping: [String] = []
        for (index, message) in nodes.enumerated() {
            let parent = index == 0 ? "null" : "\"n\(index - 1)\""
            let children = index == nodes.count - 1 ? "[]" : "[\"n\(index + 1)\"]"
            mapping.append(
                "\"n\(index)\": {\"id\": \"n\(index)\", \"parent\": \(parent), \"children\": \(children), \"message\": \(message)}"
            )
        }
        return "[{\"title\": \"AI\", \"conversation_id\": \"c1\", \"current_node\": \"n\(nodes.count - 1)\", "
            + "\"mapping\": {" + mapping.joined(separator: ", ") + "}}]"
    }

    static func message(
        _ role: String, _ content: String, recipient: String = "all", name: String? = nil, time: Int
    ) -> String {
        "{\"author\": {\"role\": \"\(role)\"" + (name.map { ", \"name\": \"\($0)\"" } ?? "") + "}, "
            + "\"create_time\": \(1_700_000_000 + time), \"content\": \(content), \"recipient\": \"\(recipient)\"}"
    }

    static func read(_ nodes: [String]) throws -> ImportedConversation {
        let root = URL(fileURLWithPath: "/nonexistent-chatgpt-export")
        let file = root.appendingPathComponent("conversations.json")
        let bytes = Array(export(nodes).utf8)
        let context = ImportContext(root: root, config: SiteConfig(), readFile: { $0.path == file.path ? bytes : nil })
        var conversations: [ImportedConversation] = []
        let diagnostics = ChatGPTImporter.read(
            DetectedExport(format: .chatgpt, items: [file], root: root), context: context,
            emit: { conversations.append($0) })
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        return try #require(conversations.first)
    }

    static func html(_ message: Message) -> String {
        guard case .attributedText(let rich) = message.kind else { return "" }
        return rich.html
    }

    /// An attached image is named by its kind, never by ChatGPT's internal `file-service://`
    /// pointer or its content type (issue 41, acceptance 4: no raw markup).
    @Test func anAttachedImageIsNamedByItsKindNotItsPointer() throws {
        let imported = try Self.read([
            Self.message(
                "user",
                #"{"content_type": "multimodal_text", "parts": [{"content_type": "image_asset_pointer", "asset_pointer": "file-service://file-abc123", "width": 10, "height": 10}, "What is this?"]}"#,
                time: 0)
        ])
        let html = Self.html(try #require(imported.conversation?.messages.first))
        #expect(html.contains("Photo (not in this export)"))
        #expect(html.contains("What is this?"))
        #expect(!html.contains("file-service"))
        #expect(!html.contains("image_asset_pointer"))
    }

    @Test func thoughtsAreAClosedBlockHeadedByTheRecap() throws {
        let imported = try Self.read([
            Self.message("user", #"{"content_type": "text", "parts": ["Why is the sky blue?"]}"#, time: 0),
            Self.message(
                "assistant",
                #"{"content_type": "thoughts", "thoughts": [{"summary": "Recalling Rayleigh scattering", "content": "Short wavelengths scatter more.", "chunks": [], "finished": true}], "source_analysis_msg_id": "x"}"#,
                time: 1),
            Self.message("assistant", #"{"content_type": "reasoning_recap", "content": "Thought for 1m 1s"}"#, time: 2),
            Self.message(
                "assistant", #"{"content_type": "text", "parts": ["Because of **Rayleigh** scattering."]}"#, time: 3),
        ])
        let conversation = try #require(imported.conversation)
        #expect(conversation.messages.count == 3)
        let thoughts = Self.html(conversation.messages[1])
        #expect(thoughts.hasPrefix("<details><summary>Thought for 1m 1s</summary>"), "\(thoughts)")
        #expect(thoughts.contains("<strong>Recalling Rayleigh scattering</strong>"))
        #expect(thoughts.contains("Short wavelengths scatter more."))
        #expect(!thoughts.contains("content_type") && !thoughts.contains("Unsupported"))
        // The recap is the heading, not a message of its own: counted as left out, with why.
        #expect(imported.ledger.recordsRead == 4)
        #expect(imported.ledger.unexplained == 0)
        #expect(
            imported.ledger.leftOut.map(\.reason) == [
                "a reasoning recap, shown as the heading of the thoughts above it"
            ])
        #expect(conversation.layout.presentation == .document)
        // `scrollback import` keeps it: the log it writes says so, and reads back the same.
        let log = JSONLogWriter(mediaPath: { $0.sitePath }).write(conversation)
        #expect(log.contains("\n  \"layout\": {\"presentation\": \"document\"},\n"))
    }

    @Test func emptyThoughtsAreLeftOutAndTheirRecapIsANote() throws {
        let imported = try Self.read([
            Self.message("user", #"{"content_type": "text", "parts": ["Hi"]}"#, time: 0),
            Self.message(
                "assistant", #"{"content_type": "thoughts", "thoughts": [], "source_analysis_msg_id": "x"}"#, time: 1),
            Self.message("assistant", #"{"content_type": "reasoning_recap", "content": "Thought for 5s"}"#, time: 2),
            Self.message("assistant", #"{"content_type": "text", "parts": ["Hello"]}"#, time: 3),
        ])
        let conversation = try #require(imported.conversation)
        #expect(conversation.messages.map(\.id) == ["n0", "n2", "n3"])
        #expect(Self.html(conversation.messages[1]) == "<p><em>Thought for 5s</em></p>\n")
        #expect(imported.ledger.leftOut.map(\.reason) == ["reasoning with no text (empty thoughts)"])
        #expect(imported.ledger.unexplained == 0)
    }

    @Test func toolCallsAreOneLineNotesAndResultsAreClosed() throws {
        let imported = try Self.read([
            Self.message("user", #"{"content_type": "text", "parts": ["Weather in Oslo?"]}"#, time: 0),
            Self.message(
                "assistant",
                #"{"content_type": "text", "parts": ["{\"search_query\": [{\"q\": \"Oslo weather\"}, {\"q\": \"Oslo forecast <today>\"}]}"]}"#,
                recipient: "web.run", time: 1),
            Self.message(
                "tool",
                #"{"content_type": "tether_quote", "url": "https://yr.no/oslo", "domain": "yr.no", "title": "Oslo forecast", "text": "Rain, 8 °C"}"#,
                name: "web.run", time: 2),
            Self.message(
                "tool",
                #"{"content_type": "sonic_webpage", "url": "javascript:alert(1)", "domain": "x", "title": "Bad link", "text": "", "snippet": "kept"}"#,
                name: "web.run", time: 3),
            Self.message(
                "tool", #"{"content_type": "tether_browsing_display", "result": "", "summary": ""}"#, name: "web.run",
                time: 4),
            Self.message(
                "assistant", #"{"content_type": "code", "language": "python", "text": "print(1 + 1)"}"#,
                recipient: "python", time: 5),
            Self.message("tool", #"{"content_type": "execution_output", "text": "2"}"#, name: "python", time: 6),
            Self.message("assistant", #"{"content_type": "text", "parts": ["Rainy; and 1 + 1 is 2."]}"#, time: 7),
        ])
        let conversation = try #require(imported.conversation)
        let bodies = Dictionary(uniqueKeysWithValues: conversation.messages.map { ($0.id, Self.html($0)) })
        let search = try #require(bodies["n1"])
        #expect(
            search.contains("Searched the web:") && search.contains("Oslo weather · Oslo forecast &lt;today&gt;"),
            "\(search)")
        #expect(!search.contains("search_query"))
        let quote = try #require(bodies["n2"])
        #expect(quote.hasPrefix("<details><summary>Quoted Oslo forecast</summary>"), "\(quote)")
        #expect(quote.contains("href=\"https://yr.no/oslo\"") && quote.contains("<blockquote>"))
        let page = try #require(bodies["n3"])
        #expect(!page.contains("javascript") && page.contains("kept"), "\(page)")
        #expect(bodies["n4"] == nil)
        let code = try #require(bodies["n5"])
        #expect(
            code.contains("<summary>Ran code (python)</summary>") && code.contains("class=\"language-python\""),
            "\(code)")
        let output = try #require(bodies["n6"])
        #expect(output.hasPrefix("<details><summary>Output of python</summary><pre><code>2"), "\(output)")
        #expect(imported.ledger.leftOut.map(\.reason) == ["a browsing display with no result"])
        #expect(imported.ledger.unexplained == 0)
        #expect(!bodies.values.contains { $0.contains("Unsupported") })
    }

    @Test func anUnknownTypeIsAClosedFallbackWithAWarning() throws {
        let imported = try Self.read([
            Self.message("user", #"{"content_type": "text", "parts": ["Hi"]}"#, time: 0),
            Self.message("assistant", #"{"content_type": "future_widget", "text": "{\"a\": 1}"}"#, time: 1),
        ])
        let conversation = try #require(imported.conversation)
        #expect(
            Self.html(conversation.messages[1]).hasPrefix(
                "<details><summary>Unsupported content (future_widget)</summary>"))
        #expect(
            imported.diagnostics.contains { $0.severity == .warning && $0.problem.message.contains("future_widget") })
    }

    @Test func theSanitizerKeepsACodeBlocksLanguageAndNoOtherClass() {
        let sanitizer = HTMLSanitizer()
        #expect(
            sanitizer.sanitize("<pre><code class=\"language-c++\">x</code></pre>").html.contains(
                "<code class=\"language-c++\">x</code>"))
        #expect(!sanitizer.sanitize("<code class=\"skip\">x</code>").html.contains("class"))
        #expect(!sanitizer.sanitize("<code class=\"language-a b\">x</code>").html.contains("class"))
        #expect(!sanitizer.sanitize("<p class=\"language-x\">x</p>").html.contains("class"))
    }

    @Test func presentationIsALayoutOption() {
        var overrides = LayoutOverrides()
        #expect(LayoutOptionParsing.apply("presentation", .string("document"), to: &overrides) == nil)
        #expect(overrides.presentation == .document)
        #expect(LayoutOptionParsing.apply("presentation", .string("bubbles"), to: &overrides) != nil)
        #expect(LayoutOptions().presentation == .chat)
        #expect(LayoutOptions().applying(overrides).presentation == .document)
    }
}
