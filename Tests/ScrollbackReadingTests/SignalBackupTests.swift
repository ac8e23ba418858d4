import Foundation
import ScrollbackModel
import ScrollbackTestSupport
import Testing

@testable import ScrollbackReading

/// Signal's own export (issue 43): `main.jsonl`, the frames of `Backup.proto` as JSON, in a
/// fixture written field by field after the proto (no real export has been met yet).
@Suite struct SignalBackupTests {
    /// `Tests/Fixtures/signal-backup/main.jsonl`: the exporter Ana Lima; Bob (profile name), Cara
    /// (nickname Cee) and a group; a chat with Bob, the group's chat and Note to Self; an item of
    /// each kind read, one of a kind not read, one of no chat and a line that is no frame.
    static let backupFile = RepositoryFixtures.folder.appendingPathComponent("signal-backup/main.jsonl")
    static var backup: String { (try? String(contentsOf: backupFile, encoding: .utf8)) ?? "" }

    @Test("a conversation per chat, every item a message or left out with its reason, each kind read")
    func kinds() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = try write(Self.backup, to: "signal-export/main.jsonl", in: root)
        let (conversations, diagnostics) = SignalImporterTests.read([file], root: root)
        #expect(conversations.map { $0.conversation?.id } == ["bob-stone", "hiking-club", "note-to-self"])
        // The item of no chat and the line that is no frame, each said where it is.
        #expect(diagnostics.map(\.location?.line) == [23, 24], "\(diagnostics)")

        let bob = try #require(conversations[0].conversation)
        #expect(conversations[0].messagesIn == 5 && conversations[0].messagesOut == 5)
        #expect(bob.title == "Bob Stone" && bob.me == "Ana Lima" && bob.chatType == .direct)
        #expect(
            bob.messages.map(\.id) == [
                "2-1715000100000", "1-1715000200000", "2-1715000300000", "2-1715000400000", "1-1715000500000",
            ])
        #expect(bob.messages.map(\.sender) == ["Bob Stone", "Ana Lima", "Bob Stone", "Bob Stone", "Ana Lima"])
        #expect(bob.messages[0].date == Date(timeIntervalSince1970: 1_715_000_100))
        #expect(bob.messages[0].reactions.map(\.emoji) == ["👍"] && bob.messages[0].reactions[0].senders == ["Ana Lima"])
        #expect(bob.messages[1].replyTo == "2-1715000100000" && bob.messages[1].kind == .text("Hello Bob"))
        guard case .attributedText(let files) = bob.messages[2].kind else {
            Issue.record("the attachment is not named: \(bob.messages[2].kind)")
            return
        }
        #expect(files.html.contains("trail.jpg, image/jpeg") && files.html.contains("not linked"))
        #expect(bob.messages[3].deleted)
        #expect(bob.messages[4].kind == .text("fixed") && bob.messages[4].edited != nil)

        let group = try #require(conversations[1].conversation)
        #expect(group.chatType == .group && conversations[1].messagesOut == 4)
        #expect(group.messages[0].kind == .text("@Bob Stone see you") && group.messages[0].sender == "Cee")
        #expect(group.messages[1].kind == .system("Bob Stone: a group change"))
        #expect(group.messages[3].kind == .system("Cee sent a gift badge"))

        #expect(conversations[2].messagesIn == 2 && conversations[2].messagesOut == 1 && conversations[2].leftOut == 1)
        #expect(conversations[2].conversation?.title == "Note to Self")
    }

    @Test("a newer export of the same chats keeps every message id")
    func stableIDs() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try write(Self.backup, to: "a/main.jsonl", in: root)
        let later = Self.backup.replacingOccurrences(
            of: #"{"chat": {"id": "12""#,
            with:
                #"{"chatItem": {"chatId": "10", "authorId": "2", "dateSent": "1715000999000", "incoming": {}, "standardMessage": {"text": {"body": "new"}}}}"#
                + "\n" + #"{"chat": {"id": "12""#)
        let second = try write(later, to: "b/main.jsonl", in: root)
        let old = SignalImporterTests.read([first], root: root.appendingPathComponent("a")).conversations
        let new = SignalImporterTests.read([second], root: root.appendingPathComponent("b")).conversations
        let oldIDs = Set(old.flatMap { $0.conversation?.messages.map(\.id) ?? [] })
        let newIDs = Set(new.flatMap { $0.conversation?.messages.map(\.id) ?? [] })
        #expect(oldIDs.isSubset(of: newIDs) && newIDs.count == oldIDs.count + 1)
    }

    @Test("detection: a backup is Signal's; signal-export's data.json and Mattermost's JSONL are not taken for one")
    func detection() {
        func candidate(_ text: String) -> ExportCandidate {
            ExportCandidate(url: URL(fileURLWithPath: "/x/main.jsonl"), isDirectory: false, head: Array(text.utf8))
        }
        #expect(SignalBackup.isBackup(candidate(Self.backup)))
        #expect(SignalImporter.detect(candidate(Self.backup)))
        #expect(!SignalBackup.isBackup(candidate(SignalImporterTests.line("2024-05-01T12:00:05", "Ana", "Hi"))))
        #expect(!SignalBackup.isBackup(candidate(#"{"type": "version", "version": 1}"# + "\n")))
        // A Claude conversation has an `account` too.
        #expect(
            !SignalBackup.isBackup(
                candidate(#"{"uuid": "c1", "name": "Chat", "account": {"uuid": "a1"}, "chat_messages": []}"#)))
    }
}
