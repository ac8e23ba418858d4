import Foundation
import ScrollbackModel
import ScrollbackTestSupport
import Testing

@testable import ScrollbackReading

/// The Claude.ai importer (issue 43): the older text-only and the newer block shapes, every block
/// type read as the app shows it, branches, and every record counted.
@Suite struct ClaudeImporterTests {
    /// Reads `text` as the export file `conversations.json` (from memory); every conversation and
    /// the file's own diagnostics.
    static func read(_ text: String) -> (conversations: [ImportedConversation], diagnostics: [Diagnostic]) {
        let root = URL(fileURLWithPath: "/nonexistent-claude-export")
        let file = root.appendingPathComponent("conversations.json")
        let bytes = Array(text.utf8)
        let context = ImportContext(root: root, config: SiteConfig(), readFile: { $0.path == file.path ? bytes : nil })
        var conversations: [ImportedConversation] = []
        let diagnostics = ClaudeImporter.read(
            DetectedExport(format: .claude, items: [file], root: root), context: context,
            emit: { conversations.append($0) })
        return (conversations, diagnostics)
    }

    /// The one conversation of `messages` (JSON objects), read with no file-level diagnostic.
    static func conversation(_ messages: [String], extra: String = "") throws -> ImportedConversation {
        let result = read(
            #"[{"uuid": "c-1", "name": "Tides", "created_at": "2025-03-01T08:00:00Z", "account": {"uuid": "a"}, "#
                + extra + #""chat_messages": ["# + messages.joined(separator: ", ") + "]}]")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        return try #require(result.conversations.first)
    }

    /// One message: `sender`, `body` (its `text` or `content` members), `uuid` and extra members.
    static func message(_ uuid: String, _ sender: String, _ body: String, second: Int, extra: String = "") -> String {
        "{\"uuid\": \"\(uuid)\", \"sender\": \"\(sender)\", \"created_at\": \"2025-03-01T08:00:\(second < 10 ? "0" : "")\(second)Z\", "
            + body + extra + "}"
    }

    static func html(_ message: Message) -> String {
        guard case .attributedText(let rich) = message.kind else { return "" }
        return rich.html
    }

    static func sample(_ name: String) throws -> (conversation: ImportedConversation, diagnostics: [Diagnostic]) {
        let folder = try SharedSamples.folder().appendingPathComponent("claude/sinity-polylogue")
        let file = folder.appendingPathComponent(name)
        let context = ImportContext(root: folder, config: SiteConfig())
        var conversations: [ImportedConversation] = []
        let diagnostics = ClaudeImporter.read(
            DetectedExport(format: .claude, items: [file], root: folder), context: context,
            emit: { conversations.append($0) })
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(conversations.count == 1)
        return (try #require(conversations.first), diagnostics)
    }

    /// Messages the raw file holds, counted with Foundation's parser (not the importer's).
    static func rawCount(_ name: String) throws -> Int {
        let url = try SharedSamples.folder().appendingPathComponent("claude/sinity-polylogue/" + name)
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        return (root?["chat_messages"] as? [Any])?.count ?? -1
    }

    // MARK: the shared samples

    @Test func theOlderTextShapeSampleKeepsEveryMessageAndShowsTheAttachedFilesText() throws {
        let (imported, _) = try Self.sample("with-attachments.json")
        let conversation = try #require(imported.conversation)
        #expect(imported.ledger.recordsRead == (try Self.rawCount("with-attachments.json")))
        #expect(imported.ledger.unexplained == 0 && imported.leftOut == 0)
        #expect(conversation.messages.count == 4)
        #expect(conversation.id == "conv-02j9k0l1m2n3o4p5q6r7s8t9")
        #expect(conversation.title == "Code Review with File Attachment")
        #expect(conversation.description == "Code review discussion about Python utility functions")
        #expect(conversation.me == "human")
        #expect(conversation.participants.map(\.name) == ["You", "Claude"])
        #expect(conversation.layout.presentation == .document)
        #expect(conversation.messages.map(\.id).first == "msg-05O6P7Q8R9S0T1U2V3W4X5")
        #expect(conversation.messages.map(\.sender) == ["human", "assistant", "human", "assistant"])
        #expect(conversation.messages[0].date == ISO8601DateParser.parse("2024-02-20T14:00:00Z"))
        let prompt = Self.html(conversation.messages[0])
        #expect(prompt.contains("<details><summary>📄 utils.py</summary>"), "\(prompt)")
        #expect(prompt.contains("def parse_config(path):"))
        // The same file in `files` is not named a second time as missing.
        #expect(!prompt.contains("not in this export"))
        #expect(imported.diagnostics.isEmpty, "\(imported.diagnostics)")
        #expect(Self.html(conversation.messages[1]).contains("<code class=\"language-python\">"))
    }

    @Test func theRichBlocksSampleShowsEveryBlockTypeAsTheAppDoes() throws {
        let (imported, _) = try Self.sample("native-rich-blocks-v1.json")
        let conversation = try #require(imported.conversation)
        #expect(imported.ledger.recordsRead == (try Self.rawCount("native-rich-blocks-v1.json")))
        #expect(conversation.messages.count == 4 && imported.leftOut == 0)
        let pages = conversation.messages.map(Self.html)
        // Results sent back in a human turn are the tool's, not the person's.
        #expect(conversation.messages.map(\.sender) == ["assistant", "tool", "tool", "assistant"])
        #expect(conversation.participants.map(\.name) == ["You", "Claude", "Tool"])
        // text, then thinking (closed, no signature), then a search as one line.
        #expect(pages[0].hasPrefix("<p>Let me search.</p>"), "\(pages[0])")
        #expect(pages[0].contains("<details><summary>Thinking</summary><p>considering options</p>\n</details>"))
        #expect(!pages[0].contains("synthetic-signature"))
        #expect(pages[0].contains("Searched the web:</em> synthetic"), "\(pages[0])")
        // A failed result names its tool; nested text kept, the base64 image a placeholder.
        #expect(pages[1].hasPrefix("<details><summary>Error from web_search</summary>"), "\(pages[1])")
        #expect(pages[1].contains("first line") && pages[1].contains("second line"))
        #expect(pages[1].contains("📎 Photo (embedded in the export, not carried over)"))
        #expect(!pages[1].contains("aW1hZ2U="))
        #expect(pages[2].hasPrefix("<details><summary>Result of a tool</summary>"), "\(pages[2])")
        // The unknown block is a note and a warning, never its JSON.
        #expect(pages[3].contains("Complete."))
        #expect(pages[3].contains("Not shown: a “token_budget” block"), "\(pages[3])")
        #expect(!pages.joined().contains("remaining"))
        #expect(imported.diagnostics.contains { $0.problem.message.contains("'token_budget' is not understood") })
        #expect(imported.diagnostics.allSatisfy { $0.severity == .warning && $0.location?.line ?? 0 > 1 })
    }

    // MARK: blocks

    @Test func newerMessagesReadTheirBlocksNotTheTextThatRepeatsThem() throws {
        let imported = try Self.conversation([
            Self.message(
                "a", "assistant",
                #""text": "pondering Answer", "content": [{"type": "thinking", "thinking": "pondering", "summaries": [{"summary": "First"}, {"summary": "Weighed the tides"}], "cut_off": false}, {"type": "text", "text": "Answer <b>bold</b> `<i>`", "citations": []}]"#,
                second: 1)
        ])
        let html = Self.html(try #require(imported.conversation?.messages.first))
        #expect(html.hasPrefix("<details><summary>Thinking: Weighed the tides</summary><p>pondering</p>\n</details>"))
        #expect(html.contains("<p>Answer &lt;b&gt;bold&lt;/b&gt; <code>&lt;i&gt;</code></p>"), "\(html)")
        #expect(!html.contains("pondering Answer"))
    }

    @Test func toolCallsAreArtifactsOrTheirInputNeverAParagraphOfJSON() throws {
        let imported = try Self.conversation([
            Self.message(
                "a", "assistant",
                #""content": [{"type": "tool_use", "id": "t1", "name": "artifacts", "input": {"command": "create", "id": "x", "title": "Tide chart", "language": "python", "content": "print(1)"}}, {"type": "tool_use", "id": "t2", "name": "artifacts", "input": {"command": "update", "id": "x", "old_str": "1", "new_str": "2"}}, {"type": "tool_use", "id": "t3", "name": "repl", "input": {"n": 2, "flags": [true, null]}}, {"type": "tool_use", "id": "t4", "name": "clock", "input": {}}, {"type": "tool_result", "tool_use_id": "t3", "content": "42"}, {"type": "tool_result", "tool_use_id": "t4", "content": []}]"#,
                second: 1)
        ])
        let html = Self.html(try #require(imported.conversation?.messages.first))
        #expect(html.contains("<details><summary>Artifact: Tide chart</summary>"), "\(html)")
        #expect(html.contains("<code class=\"language-python\">print(1)"))
        #expect(html.contains("<details><summary>Edited the artifact: x</summary><p>Replaced:</p>"), "\(html)")
        #expect(html.contains("<details><summary>Used repl</summary>"))
        #expect(
            html.contains(
                "<code class=\"language-json\">{\n  &quot;n&quot;: 2,\n  &quot;flags&quot;: [\n    true,\n    null\n  ]\n}"
            ), "\(html)")
        #expect(html.contains("🔧 <em>Used clock</em>"), "\(html)")
        #expect(html.contains("<details><summary>Result of repl</summary><pre><code>42"), "\(html)")
        #expect(html.contains("🔧 <em>Result of clock: no output</em>"), "\(html)")
    }

    @Test func searchResultsAreLinksWithTheirText() throws {
        let imported = try Self.conversation([
            Self.message(
                "a", "assistant",
                #""content": [{"type": "tool_result", "name": "web_search", "content": [{"type": "knowledge", "title": "Tide [tables]", "url": "https://example.com/t?a=1", "text": "High at 06:12\n<script>"}, {"type": "knowledge", "title": "No link", "url": "javascript:alert(1)"}, {"type": "mystery"}]}]"#,
                second: 1)
        ])
        let html = Self.html(try #require(imported.conversation?.messages.first))
        #expect(
            html.contains(
                "<a href=\"https://example.com/t?a=1\" rel=\"nofollow noopener noreferrer\">Tide [tables]</a>"))
        #expect(html.contains("<blockquote>") && html.contains("&lt;script&gt;"))
        #expect(!html.contains("javascript:"))
        #expect(html.contains("Not shown: a “mystery” part"))
        #expect(imported.diagnostics.contains { $0.problem.message.contains("'mystery' is not understood") })
    }

    @Test func attachmentsWithoutTextAndUploadsAreChipsWithAWarning() throws {
        let imported = try Self.conversation([
            Self.message(
                "a", "human",
                #""text": "See these", "attachments": [{"file_name": "", "file_type": "txt", "extracted_content": ""}], "files": [{"file_name": "harbour.jpg"}], "files_v2": [{"file_name": "harbour.jpg"}]"#,
                second: 1)
        ])
        let html = Self.html(try #require(imported.conversation?.messages.first))
        #expect(html.contains("📎 Pasted text (not in this export)"), "\(html)")
        #expect(html.components(separatedBy: "📎 harbour.jpg (not in this export)").count == 2, "\(html)")
        #expect(html.contains("See these"))
        let missing = imported.diagnostics.filter {
            if case .missingMediaFile = $0.problem { return true } else { return false }
        }
        #expect(missing.count == 2)
    }

    // MARK: branches and the ledger

    /// m1 → m2 → (m3 → m4 | m3b → m5): the prompt m3 was edited into m3b.
    static let branched = [
        message(
            "m1", "human", #""text": "Tide?""#, second: 1,
            extra: #", "parent_message_uuid": "00000000-0000-4000-8000-000000000000""#),
        message("m2", "assistant", #""text": "Which day?""#, second: 2, extra: #", "parent_message_uuid": "m1""#),
        message("m3", "human", #""text": "Monday""#, second: 3, extra: #", "parent_message_uuid": "m2""#),
        message("m4", "assistant", #""text": "06:12""#, second: 4, extra: #", "parent_message_uuid": "m3""#),
        message("m3b", "human", #""text": "Tuesday""#, second: 5, extra: #", "parent_message_uuid": "m2""#),
        message("m5", "assistant", #""text": "07:01""#, second: 6, extra: #", "parent_message_uuid": "m3b""#),
    ]

    @Test func theNewestBranchIsShownAndTheOthersAreLeftOutWithTheirReason() throws {
        let imported = try Self.conversation(Self.branched)
        let conversation = try #require(imported.conversation)
        #expect(conversation.messages.map(\.id) == ["m1", "m2", "m3b", "m5"])
        #expect(imported.ledger.recordsRead == 6 && imported.leftOut == 2 && imported.ledger.unexplained == 0)
        #expect(
            imported.ledger.leftOut.allSatisfy { $0.reason.contains("another branch") && $0.reason.contains("newest") })
        #expect(imported.ledger.leftOut.map { $0.location?.line } == [1, 1])
    }

    @Test func theCurrentLeafWhenNamedChoosesTheBranch() throws {
        let imported = try Self.conversation(Self.branched, extra: #""current_leaf_message_uuid": "m4", "#)
        #expect(imported.conversation?.messages.map(\.id) == ["m1", "m2", "m3", "m4"])
        #expect(imported.ledger.leftOut.allSatisfy { $0.reason.contains("the current branch is shown") })
    }

    @Test func messagesWithoutParentsFollowTheOneBeforeThem() {
        let messages = [#"{"uuid": "a"}"#, #"{"uuid": "b"}"#, #"{"uuid": "c", "parent_message_uuid": "a"}"#, "{}"]
        let nodes = messages.map { try! JSONParser.parse($0, file: "x") }
        // c forks from a after b: the newest branch is a, c, then the message after c.
        #expect(ClaudeBranch(nodes, currentLeaf: nil).shown == [true, false, true, true])
        // A loop of parents never hangs and shows what the walk reached.
        let loop = [#"{"uuid": "a", "parent_message_uuid": "b"}"#, #"{"uuid": "b", "parent_message_uuid": "a"}"#]
        #expect(
            ClaudeBranch(loop.map { try! JSONParser.parse($0, file: "x") }, currentLeaf: "a").shown == [true, true])
    }

    @Test func onlyAOneLineSummaryIsTheDescription() throws {
        let long = try Self.conversation(
            [Self.message("a", "human", #""text": "hi""#, second: 1)],
            extra: #""summary": "**Conversation overview**\n\nThe user asked about tides.", "#)
        #expect(long.conversation?.description == nil)
        let short = try Self.conversation(
            [Self.message("a", "human", #""text": "hi""#, second: 1)], extra: #""summary": " Tides in March ", "#)
        #expect(short.conversation?.description == "Tides in March")
    }

    @Test func emptyMessagesAreLeftOutAndAnEmptyConversationIsNotBuilt() throws {
        let imported = try Self.conversation([
            Self.message("a", "human", #""text": "  ", "content": [{"type": "text", "text": ""}]"#, second: 1)
        ])
        #expect(imported.conversation == nil)
        #expect(imported.ledger.leftOut.map(\.reason) == ["an empty human message (no text, no attachment)"])
        #expect(imported.diagnostics.contains { $0.problem.message.contains("'Tides' has no message to show") })
    }

    // MARK: broken input

    @Test func aBrokenFileIsALocatedError() {
        let result = Self.read("[{\"uuid\": \"c\", \"chat_messages\": [\n  {\"uuid\": \"a\",, }]}]")
        #expect(result.conversations.isEmpty)
        let error = result.diagnostics.first
        #expect(error?.severity == .error)
        #expect(error?.location?.file.hasSuffix("/conversations.json") == true)
        #expect(error?.location?.line == 2 && error?.location?.column ?? 0 > 1, "\(result.diagnostics)")
    }

    @Test func aBrokenConversationOrRecordLeavesTheRestBuilt() throws {
        let result = Self.read(
            """
            [{"uuid": "bad", "name": "No messages"},
             {"uuid": "good", "chat_messages": [
               {"uuid": "a", "sender": "human", "text": "first", "created_at": "2025-03-01T08:00:00Z"},
               42,
               {"uuid": "b", "sender": "assistant", "text": "second", "created_at": "yesterday"}]}]
            """)
        #expect(result.conversations.count == 2)
        let bad = result.conversations[0]
        #expect(bad.conversation == nil)
        #expect(bad.diagnostics.contains { $0.severity == .error && $0.location?.line == 1 })
        let good = result.conversations[1]
        let conversation = try #require(good.conversation)
        #expect(conversation.messages.map(\.id) == ["a", "b"])
        // The second message takes the time of the one before it, with a warning at it.
        #expect(conversation.messages[1].date == conversation.messages[0].date)
        #expect(good.diagnostics.contains { $0.location?.line == 5 && $0.severity == .warning })
        #expect(good.diagnostics.contains { $0.location?.line == 4 && $0.severity == .warning })
        #expect(good.ledger.leftOut.map(\.reason) == ["an entry of chat_messages that is not a message object"])
        #expect(good.ledger.recordsRead == 3 && good.ledger.unexplained == 0)
    }

    // MARK: detection

    @Test func detectionTellsClaudeFromChatGPTsFileOfTheSameName() {
        func candidate(_ text: String, _ name: String = "conversations.json") -> ExportCandidate {
            ExportCandidate(url: URL(fileURLWithPath: "/in/" + name), isDirectory: false, head: Array(text.utf8))
        }
        let claude = candidate(
            #"[{"uuid": "c", "name": "", "created_at": "2025-01-01T00:00:00Z", "chat_messages": []}]"#)
        let one = candidate(#"{"uuid": "c", "name": "x", "chat_messages": [{"uuid": "a"}]}"#, "chat.json")
        let chatgpt = candidate(#"[{"title": "T", "create_time": 1.0, "mapping": {}, "current_node": "n"}]"#)
        #expect(ClaudeImporter.detect(claude) && ClaudeImporter.detect(one))
        #expect(!ClaudeImporter.detect(chatgpt))
        #expect(ChatGPTImporter.detect(chatgpt) && !ChatGPTImporter.detect(claude))
        // The export's other files hold no chat.
        #expect(!ClaudeImporter.detect(candidate(#"[{"uuid": "u", "full_name": "A", "email_address": "a@x"}]"#)))
        #expect(!ClaudeImporter.detect(candidate(#"[{"uuid": "p", "name": "P", "docs": [], "prompt_template": ""}]"#)))
        #expect(UnsupportedFormat.recognise(claude) == nil)
    }
}
