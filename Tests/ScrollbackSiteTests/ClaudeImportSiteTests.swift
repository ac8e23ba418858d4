import Foundation
import ScrollbackModel
import ScrollbackReading
import Testing

@testable import ScrollbackSite

/// A Claude.ai export builds as it is (issue 43): from a folder, a zip and the single
/// `conversations.json`; every message of the source is one element or a ledger entry;
/// `import claude` + `build` gives the same site; the answers read as documents.
@Suite struct ClaudeImportSiteTests {
    static func samples() throws -> URL {
        try SharedSamples.folder().appendingPathComponent("claude/sinity-polylogue")
    }

    /// A branched conversation (the prompt m3 edited into m3b), beside the two samples.
    static let branched = """
        {"uuid": "5e1d2c3b-0000-4000-8000-00000000b0b0", "name": "Tides", "summary": "", "created_at": "2025-03-01T08:00:00Z",
         "account": {"uuid": "acc"}, "chat_messages": [
          {"uuid": "m1", "sender": "human", "text": "Tide?", "created_at": "2025-03-01T08:00:01Z", "parent_message_uuid": "00000000-0000-4000-8000-000000000000"},
          {"uuid": "m2", "sender": "assistant", "text": "Which day?", "created_at": "2025-03-01T08:00:02Z", "parent_message_uuid": "m1"},
          {"uuid": "m3", "sender": "human", "text": "Monday", "created_at": "2025-03-01T08:00:03Z", "parent_message_uuid": "m2"},
          {"uuid": "m4", "sender": "assistant", "text": "06:12", "created_at": "2025-03-01T08:00:04Z", "parent_message_uuid": "m3"},
          {"uuid": "m3b", "sender": "human", "text": "Tuesday", "created_at": "2025-03-01T08:00:05Z", "parent_message_uuid": "m2"},
          {"uuid": "m5", "sender": "assistant", "text": "07:01", "created_at": "2025-03-01T08:00:06Z", "parent_message_uuid": "m3b"}]}
        """

    /// The files of a Claude.ai export zip: `conversations.json` (an array: both samples and the
    /// branched conversation) and the side files, made from the shared samples at test time.
    static func exportFiles() throws -> [(String, Data)] {
        let folder = try samples()
        let parts = try ["with-attachments.json", "native-rich-blocks-v1.json"].map {
            try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)
        }
        let conversations = "[" + (parts + [branched]).joined(separator: ",\n") + "]"
        return [
            ("conversations.json", Data(conversations.utf8)),
            ("users.json", Data(#"[{"uuid": "acc", "full_name": "Ana", "email_address": "ana@example.com"}]"#.utf8)),
            ("projects.json", Data(#"[{"uuid": "p", "name": "Notes", "docs": [], "prompt_template": ""}]"#.utf8)),
            ("memories.json", Data(#"[{"conversations_memory": "", "account_uuid": "acc"}]"#.utf8)),
        ]
    }

    /// Messages the export holds (every `chat_messages` entry), and the two the branch leaves out,
    /// counted with Foundation's parser.
    static func rawCount(_ data: Data) throws -> Int {
        let root = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return root.reduce(0) { $0 + (($1["chat_messages"] as? [Any])?.count ?? 0) }
    }

    /// `data-message-id` attributes on the site's conversation pages.
    static func elements(_ site: URL) throws -> [String] {
        try ImportTests.pages(site).flatMap { page in
            page.components(separatedBy: "data-message-id=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        }
    }

    /// Checks a build of the export: no error, a ledger per conversation whose records are the
    /// source's, and one element per message built.
    static func checkCounts(_ report: BuildReport, site: URL, expectedRecords: Int) throws {
        #expect(!report.hasErrors, "\(report.diagnostics)")
        let sources = report.sources.filter { $0.format == "claude" }
        #expect(sources.count == 3, "\(report.sources)")
        #expect(sources.reduce(0) { $0 + $1.ledger.recordsRead } == expectedRecords)
        #expect(sources.allSatisfy { $0.ledger.unexplained == 0 })
        let built = sources.reduce(0) { $0 + $1.ledger.messagesBuilt }
        #expect(sources.reduce(0) { $0 + $1.ledger.leftOut.count } == 2)
        let ids = try elements(site)
        #expect(ids.count == built && Set(ids).count == built, "\(ids)")
        // The side files are named in notes only, never read as logs or warned about.
        #expect(
            !report.diagnostics.contains {
                ["users.json", "projects.json", "memories.json"].contains(
                    $0.location?.file.split(separator: "/").last.map(String.init) ?? "") && $0.severity != .note
            })
    }

    @Test func aFolderAZipAndTheSingleFileEachBuildEveryMessage() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        let files = try Self.exportFiles()
        for (name, data) in files { try base.write(data, to: "folder/" + name) }
        try ExportDiscoveryTests.zip(base.url.appendingPathComponent("zip/data-2025-03-01.zip"), files)
        let records = try Self.rawCount(files[0].1)
        #expect(records == 14)
        var pages: [[String: Data]] = []
        for input in ["folder", "zip", "folder/conversations.json"] {
            let site = base.url.appendingPathComponent("site-" + input.replacingOccurrences(of: "/", with: "-"))
            let report = try build(base.url.appendingPathComponent(input), site)
            try Self.checkCounts(report, site: site, expectedRecords: records)
            pages.append(try snapshot(site).filter { !$0.key.hasPrefix(".scrollback") })
        }
        // The same conversations and pages, whatever the export came in.
        #expect(pages[0].keys.sorted() == pages[1].keys.sorted() && pages[0].keys.sorted() == pages[2].keys.sorted())
        #expect(pages[0].keys.contains("conv-02j9k0l1m2n3o4p5q6r7s8t9/index.html"))
        for (path, bytes) in pages[0] where path.hasSuffix(".html") && path != "index.html" {
            #expect(pages[1][path] == bytes && pages[2][path] == bytes, "\(path)")
        }
    }

    @Test func theSharedSampleFolderBuildsEveryMessage() throws {
        let folder = try Self.samples()
        let base = try TemporaryFolder()
        defer { base.remove() }
        let site = base.url.appendingPathComponent("site")
        let report = try build(folder, site)
        #expect(!report.hasErrors, "\(report.diagnostics)")
        var expected = 0
        for name in ["with-attachments.json", "native-rich-blocks-v1.json"] {
            let root = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(name)))
            expected += ((root as? [String: Any])?["chat_messages"] as? [Any])?.count ?? 0
        }
        let sources = report.sources.filter { $0.format == "claude" }
        #expect(sources.reduce(0) { $0 + $1.ledger.recordsRead } == expected)
        #expect(try Self.elements(site).count == expected)
    }

    @Test func importThenBuildGivesTheSameSite() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        for (name, data) in try Self.exportFiles() { try base.write(data, to: "export/" + name) }
        let export = base.url.appendingPathComponent("export")
        try ExportFixtures.expectImportThenBuildIsBuild(export, format: .claude, in: base)
    }

    @Test func theAnswerReadsAsADocumentAndThePromptAsABubble() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        for (name, data) in try Self.exportFiles() { try base.write(data, to: "export/" + name) }
        let site = base.url.appendingPathComponent("site")
        try build(base.url.appendingPathComponent("export"), site)
        let page = try String(
            contentsOf: site.appendingPathComponent("conv-02j9k0l1m2n3o4p5q6r7s8t9/index.html"), encoding: .utf8)
        let prompt = ImportLookTests.element("msg-05O6P7Q8R9S0T1U2V3W4X5", in: [page]) ?? ""
        let answer = ImportLookTests.element("msg-06Y7Z8A9B0C1D2E3F4G5H6", in: [page]) ?? ""
        #expect(answer.contains("data-layout=\"document\""), "\(answer)")
        #expect(prompt.contains("data-align=\"right\"") && !prompt.contains("data-layout"), "\(prompt)")
        // The answer's code block gets the document's box (language bar and copy button).
        #expect(page.contains("<span class=\"code-l\">python</span>"))
        let index = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains("<span class=\"app app-claude\">Claude</span>"))
        #expect(index.contains("Code review discussion about Python utility functions"))
    }

    @Test func claudeAndChatGPTConversationFilesBesideEachOtherAreEachReadByTheirImporter() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        try base.write(Data(try Self.exportFiles()[0].1), to: "in/claude/conversations.json")
        let chatgpt = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Seeds/ChatGPTImporter/conversations.json")
        try base.write(try Data(contentsOf: chatgpt), to: "in/chatgpt/conversations.json")
        let report = try build(base.url.appendingPathComponent("in"), base.url.appendingPathComponent("site"))
        #expect(!report.hasErrors, "\(report.diagnostics)")
        #expect(Set(report.sources.map(\.format)) == ["claude", "chatgpt"], "\(report.sources)")
        #expect(report.sources.filter { $0.format == "claude" }.count == 3)
    }
}
