import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackSite

/// Reproductions of issue 40 (hostile and broken exports) at the level of a whole build: each
/// failed before its fix.
@Suite("Hostile exports: builds")
struct HostileExportTests {
    // MARK: Point 1: a one-character id

    @Test("a log whose id is one character builds instead of trapping", arguments: ["x", "Я", "7"])
    func oneCharacterConversationID(id: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Logs.conversation(id: id, title: "One", count: 2), to: "in/\(id).json")
        let report = try build(folder.url.appendingPathComponent("in"), folder.url.appendingPathComponent("out"))
        #expect(report.conversations == 1)
        let site = try snapshot(folder.url.appendingPathComponent("out"))
        #expect(site.keys.contains { $0.hasSuffix("/index.html") && $0 != "index.html" })
    }

    @Test("the Telegram export of saved messages with id 1 (shared sample) builds")
    func telegramSavedMessagesWithOneCharacterID() throws {
        let sample = try ImportTests.sharedSamples()
            .appendingPathComponent("telegram/innerdvations-telegram-chat-parser/users_test.json")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: sample, to: input.appendingPathComponent("users_test.json"))
        let report = try build(input, folder.url.appendingPathComponent("out"))
        #expect(report.conversations == 1)
    }

    @Test("path pieces of one character have a parent, a last component and an extension")
    func pathTextIsTotal() {
        #expect(PathText.parent("x") == "")
        #expect(PathText.parent("Я/") == "")
        #expect(PathText.parent("a/x") == "a")
        #expect(PathText.parent("/x") == "/")
        #expect(PathText.parent("/") == "/")
        #expect(PathText.parent("a//b/") == "a")
        #expect(PathText.lastComponent("a/b.json") == "b.json")
        #expect(PathText.lastComponent("x") == "x")
        #expect(PathText.pathExtension("a/b.tar.gz") == "gz")
        #expect(PathText.pathExtension(".env") == "")
        #expect(PathText.baseName("a/b.json") == "b")
        #expect(PathText.deletingExtension("a/b.json") == "a/b")
        #expect(PathText.appending("c", to: "/") == "/c")
    }
}
