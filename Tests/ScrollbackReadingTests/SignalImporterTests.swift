import Foundation
import ScrollbackModel
import ScrollbackTestSupport
import Testing

@testable import ScrollbackReading

/// Signal chats (issue 43): signal-export's `data.json` (a fixture written field by field after
/// its writer, `sigexport/models.py`) and the text layout of chat-miner's real sample; kinds,
/// every record counted, stable ids, and detection apart from WhatsApp.
@Suite struct SignalImporterTests {
    /// Reads `files` as one export of `root`, after checking that detection gives each of them to
    /// the Signal importer alone.
    static func read(_ files: [URL], root: URL) -> (conversations: [ImportedConversation], diagnostics: [Diagnostic]) {
        for file in files {
            let claiming = ExportImporters.all.filter { $0.detect(ExportCandidate(url: file)) }.map { $0.format }
            #expect(claiming.first == .signal, "\(file.lastPathComponent): \(claiming)")
        }
        var conversations: [ImportedConversation] = []
        let diagnostics = SignalImporter.read(
            DetectedExport(format: .signal, items: files, root: root),
            context: ImportContext(root: root, config: SiteConfig()),
            emit: { conversations.append($0) })
        return (conversations, diagnostics)
    }

    /// One line of `data.json` as signal-export writes it (`json.dumps` of its `Message`).
    static func line(
        _ date: String, _ sender: String, _ body: String, quote: String = "", sticker: String = "null",
        reactions: String = "[]", attachments: String = "[]", deleted: Bool = false, call: Bool = false
    ) -> String {
        #"{"date": "\#(date)", "sender": "\#(sender)", "body": "\#(body)", "quote": "\#(quote)", "sticker": \#(sticker), "#
            + #""reactions": \#(reactions), "attachments": \#(attachments), "deleted": \#(deleted), "call": \#(call), "#
            + #""missed": false}"#
    }

    @Test("the shared text sample: two messages, the second continued on the next line, in the site's zone")
    func sharedSample() throws {
        let file = try SharedSamples.folder().appendingPathComponent(
            "signal/joweich-chat-miner/test_export.txt")
        let (conversations, diagnostics) = Self.read([file], root: file.deletingLastPathComponent())
        #expect(diagnostics.isEmpty)
        let imported = try #require(conversations.first)
        let conversation = try #require(imported.conversation, "\(imported.diagnostics)")
        #expect(imported.messagesIn == 2 && imported.messagesOut == 2 && imported.leftOut == 0)
        #expect(conversation.messages.map(\.sender) == ["Jane Doe", "John Doe"])
        #expect(conversation.messages.map(\.kind) == [.text("Hello John!"), .text("Hello\nJane!")])
        #expect(conversation.messages[0].date == ISO8601DateFormatter().date(from: "2019-12-24T12:23:00Z"))
        #expect(conversation.messages.allSatisfy { $0.source?.format == "signal" && $0.id.count == 12 })
        #expect(conversation.id == "test-export")
    }

    @Test("data.json: replies, reactions, files, stickers, deleted messages, calls and notices each read as their kind")
    func kinds() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let lines = [
            Self.line("2024-05-01T12:00:05", "Ana", "Hi there  ", reactions: #"[["Me", "👍"], ["Bo", "👍"]]"#),
            Self.line(
                "2024-05-01T12:01:00.250000", "Me", "look  ", quote: #"\n\n> Hi there\n\n"#,
                attachments: #"[{"name": "photo 1.png", "path": "media/photo%201.png", "missing_kind": null}]"#),
            Self.line(
                "2024-05-01T12:02:00", "Ana", "  ",
                sticker: #"{"id": "3", "packId": "abc", "packKey": "k", "emoji": "🐱", "extension": null}"#),
            Self.line("2024-05-01T12:03:00", "Me", "  ", deleted: true),
            Self.line("2024-05-01T12:04:00", "Me", "Outgoing voice call (accepted, 1m 2s)  ", call: true),
            Self.line("2024-05-01T12:05:00", "Bo", "  "),
            Self.line(
                "2024-05-01T12:06:00", "No-Sender", "later  ", quote: #"\n\n> Photo\n\n"#,
                attachments: #"[{"name": "", "path": "", "missing_kind": "media"}]"#),
        ]
        let file = try write(lines.joined(separator: "\n") + "\n", to: "Ana/data.json", in: root)
        try write(MetaImporterTests.png, to: "Ana/media/photo 1.png", in: root)
        let (conversations, _) = Self.read([file], root: file.deletingLastPathComponent())
        let imported = try #require(conversations.first)
        let conversation = try #require(imported.conversation, "\(imported.diagnostics)")
        #expect(conversation.id == "ana" && conversation.title == "Ana")
        #expect(conversation.me == "Me")
        #expect(conversation.chatType == .group, "three senders")
        let messages = conversation.messages
        #expect(messages.count == 7 && imported.messagesIn == 7)
        #expect(messages[0].reactions == [Reaction(emoji: "👍", senders: ["Me", "Bo"])])
        #expect(messages[0].kind == .text("Hi there"))
        #expect(messages[1].replyTo == messages[0].id, "the quote names the earlier message's text")
        guard case .photo(let photo) = messages[1].kind, case .local(let asset) = photo.source else {
            Issue.record("\(messages[1].kind)")
            return
        }
        #expect(photo.caption == "look" && asset.pixelSize == PixelSize(width: 2, height: 1))
        #expect(messages[2].kind.plainText.contains("Sticker") && messages[2].kind.plainText.contains("🐱"))
        #expect(messages[3].deleted && messages[3].sender == "Me")
        #expect(messages[4].kind == .system("Me: Outgoing voice call (accepted, 1m 2s)") && messages[4].sender == nil)
        #expect(messages[5].kind == .system("Bo: a notice this export keeps no text of"))
        // A quote no message of the export has is shown above the text; the left-out file is named.
        #expect(messages[6].replyTo == nil && messages[6].sender == "Unknown")
        guard case .attributedText(let rich) = messages[6].kind else {
            Issue.record("\(messages[6].kind)")
            return
        }
        #expect(rich.html.contains("<blockquote>") && rich.plainText.contains("later"))
        #expect(rich.plainText.contains("left out"))
    }

    @Test("the text layout's marks: a quote, reactions, a file, a deleted message, a sticker and a notice")
    func textMarks() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let text = """
            [2024-05-01, 12:00] Ana: Hi there
            [2024-05-01, 12:01] Me:\n\n> Hi there\n\nlook  ![photo.png](./media/photo.png)
            [2024-05-01, 12:02] Ana: nice
            (- Me: 👍, Bo: 👍 -)
            [2024-05-01, 12:03] Me: (This message was deleted)
            [2024-05-01, 12:04] Ana:
            (( 🐱 ))
            [2024-05-01, 12:05] Bo joined the group
            [2024-13-01, 12:06] Ana: not a date
            """
        let file = try write(text, to: "signal-ana.txt", in: root)
        try write(MetaImporterTests.png, to: "media/photo.png", in: root)
        let (conversations, _) = Self.read([file], root: root)
        let imported = try #require(conversations.first)
        let conversation = try #require(imported.conversation, "\(imported.diagnostics)")
        let messages = conversation.messages
        #expect(imported.messagesIn == 7 && messages.count == 6 && imported.leftOut == 1)
        #expect(imported.ledger.leftOut.first?.location?.line == 13)
        #expect(imported.diagnostics.contains { $0.severity == .warning && $0.location?.line == 13 })
        #expect(messages[1].replyTo == messages[0].id)
        guard case .photo(let photo) = messages[1].kind else {
            Issue.record("\(messages[1].kind)")
            return
        }
        #expect(photo.caption == "look")
        #expect(messages[2].kind == .text("nice") && messages[2].reactions.first?.senders == ["Me", "Bo"])
        #expect(messages[3].deleted)
        #expect(messages[4].kind.plainText.contains("🐱"))
        #expect(messages[5].kind == .system("Bo joined the group"))
        #expect(conversation.me == "Me")
    }

    @Test("broken lines of data.json are left out with a located warning each; the rest is built")
    func brokenLines() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let lines = [
            Self.line("2024-05-01T12:00:00", "Ana", "one"), "{\"date\": ", "[1, 2]",
            Self.line("yesterday", "Ana", "two"), "", Self.line("2024-05-01T12:01:00", "Ana", "three"),
        ]
        let file = try write(lines.joined(separator: "\n"), to: "Ana/data.json", in: root)
        let (conversations, _) = Self.read([file], root: file.deletingLastPathComponent())
        let imported = try #require(conversations.first)
        let conversation = try #require(imported.conversation)
        #expect(conversation.messages.map(\.kind) == [.text("one"), .text("three")])
        #expect(imported.messagesIn == 5 && imported.leftOut == 3)
        #expect(imported.ledger.leftOut.compactMap { $0.location?.line } == [2, 3, 4])
        let warned = imported.diagnostics.filter { $0.severity == .warning }.compactMap { $0.location?.line }
        #expect(warned == [2, 3, 4], "\(imported.diagnostics)")
        #expect(imported.diagnostics.allSatisfy { $0.location?.file.hasSuffix("Ana/data.json") == true })
    }

    @Test("a newer export of the same chat keeps every message's id")
    func idsStableAcrossExports() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let old = [Self.line("2024-05-01T12:00:00", "Ana", "one"), Self.line("2024-05-01T12:01:00", "Me", "two")]
        let new =
            [Self.line("2024-04-30T08:00:00", "Bo", "zero")] + old + [Self.line("2024-05-02T09:00:00", "Ana", "three")]
        func ids(_ lines: [String], _ folder: String) throws -> [String: String] {
            let file = try write(lines.joined(separator: "\n"), to: folder + "/Ana/data.json", in: root)
            let (conversations, _) = Self.read([file], root: file.deletingLastPathComponent())
            let messages = try #require(conversations.first?.conversation).messages
            return Dictionary(uniqueKeysWithValues: messages.map { ($0.kind.plainText, $0.id) })
        }
        let before = try ids(old, "old")
        let after = try ids(new, "new")
        #expect(before.count == 2)
        for (text, id) in before { #expect(after[text] == id) }
    }

    @Test("Signal's layout and WhatsApp's are told apart by the date: every shared WhatsApp chat stays WhatsApp's")
    func detectionApartFromWhatsApp() throws {
        func claims(_ text: String, name: String = "chat.txt") -> [ExportFormat] {
            let candidate = ExportCandidate(
                url: URL(fileURLWithPath: "/x/" + name), isDirectory: false, head: Array(text.utf8))
            return ExportImporters.all.filter { $0.detect(candidate) }.map { $0.format }
        }
        #expect(claims("[2019-12-24, 12:23] Jane Doe: Hello\n").first == .signal)
        // WhatsApp: seconds in brackets (iOS), ISO with no comma (whatstk), Android's dash.
        #expect(claims("[24.12.19, 12:23:05] Jane: Hello\n").first == .whatsapp)
        #expect(claims("[2019-12-24 12:23] Jane: Hello\n").first == .whatsapp)
        #expect(claims("2019-12-24, 12:23 - Jane: Hello\n").first == .whatsapp)
        #expect(claims(Self.line("2024-05-01T12:00:00", "Ana", "one"), name: "data.json") == [.signal])
        // A Scrollback log is not taken for signal-export's lines.
        #expect(
            !claims(#"{"version": "1.1", "date": 1, "sender": "a", "body": "", "reactions": [], "attachments": []}"#)
                .contains(.signal))
        let samples = try SharedSamples.folder().appendingPathComponent("whatsapp")
        let chats = FileManager.default.enumerator(at: samples, includingPropertiesForKeys: nil)!.compactMap {
            $0 as? URL
        }
        .filter { $0.pathExtension == "txt" }
        #expect(!chats.isEmpty)
        for chat in chats {
            let claiming = ExportImporters.all.filter { $0.detect(ExportCandidate(url: chat)) }.map { $0.format }
            #expect(!claiming.contains(.signal), "\(chat.lastPathComponent)")
        }
    }
}
