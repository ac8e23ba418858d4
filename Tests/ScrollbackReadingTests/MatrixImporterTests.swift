import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading

/// Element's "Export chat" JSON of a Matrix room (issue 43): no public export has been met yet,
/// so the fixture follows the exporter's writer field by field (the header, then the room's
/// events as the client holds them). Kinds, relations, media of Element's zip, `me`, and every
/// record counted.
@Suite struct MatrixImporterTests {
    /// 2024-05-01 10:00:00 UTC, in milliseconds.
    static let base: Int64 = 1_714_557_600_000

    /// One event: `type`, `sender` (a local part of example.org), `id`, seconds after `base`, and
    /// the rest of its members (`content`, `state_key`, `unsigned`).
    static func event(_ type: String, _ sender: String, _ id: String, second: Int, _ rest: String) -> String {
        #"{"type": "\#(type)", "room_id": "!room:example.org", "sender": "@\#(sender):example.org", "#
            + #""origin_server_ts": \#(base + Int64(second) * 1000), "event_id": "$\#(id)", "#
            + (rest.contains(#""unsigned""#) ? "" : #""unsigned": {"age": 1000}, "#) + rest + "}"
    }

    /// Element's export object holding `events`.
    static func export(_ events: [String], exportedBy: String = "Bo") -> String {
        #"{"room_name": "Crab Club", "room_creator": "Ana", "topic": "All about crabs", "#
            + #""export_date": "2024/05/02", "exported_by": "\#(exportedBy)", "messages": ["#
            + events.joined(separator: ",\n") + "]}"
    }

    /// A room with one event of each kind the importer reads.
    static let room: [String] = [
        event("m.room.create", "ana", "create", second: 0, #""state_key": "", "content": {"room_version": "10"}"#),
        event(
            "m.room.member", "ana", "ana-join", second: 1,
            #""state_key": "@ana:example.org", "content": {"membership": "join", "displayname": "Ana"}"#),
        event(
            "m.room.member", "bo", "bo-join", second: 2,
            #""state_key": "@bo:example.org", "content": {"membership": "join", "displayname": "Bo"}"#),
        event(
            "m.room.message", "ana", "m1", second: 10,
            #""content": {"msgtype": "m.text", "body": "Hello **all**", "format": "org.matrix.custom.html", "#
                + #""formatted_body": "Hello <strong>all</strong><script>alert(1)</script>"#
                + #"<img src=\"mxc://example.org/party\" alt=\"party\">"}"#),
        event(
            "m.room.message", "bo", "m2", second: 20,
            #""content": {"msgtype": "m.text", "body": "> <@ana:example.org> Hello all\n\nHi Ana", "#
                + #""format": "org.matrix.custom.html", "formatted_body": "<mx-reply><blockquote>Hello all</blockquote>"#
                + #"</mx-reply>Hi <em>Ana</em>", "m.relates_to": {"m.in_reply_to": {"event_id": "$m1"}}}"#),
        event(
            "m.room.message", "ana", "m1-edit", second: 30,
            #""content": {"msgtype": "m.text", "body": " * Hello everyone", "m.new_content": {"msgtype": "m.text", "#
                + #""body": "Hello everyone"}, "m.relates_to": {"rel_type": "m.replace", "event_id": "$m1"}}"#),
        event(
            "m.reaction", "bo", "r1", second: 31,
            #""content": {"m.relates_to": {"rel_type": "m.annotation", "event_id": "$m1", "key": "👍"}}"#),
        event(
            "m.reaction", "ana", "r2", second: 32,
            #""content": {"m.relates_to": {"rel_type": "m.annotation", "event_id": "$m1", "key": "👍"}}"#),
        event(
            "m.room.message", "ana", "t1", second: 40,
            #""content": {"msgtype": "m.text", "body": "in a thread", "m.relates_to": {"rel_type": "m.thread", "#
                + #""event_id": "$m1", "is_falling_back": true, "m.in_reply_to": {"event_id": "$m1"}}}"#),
        event(
            "m.room.message", "bo", "img", second: 50,
            #""content": {"msgtype": "m.image", "body": "cat.png", "url": "mxc://example.org/cat", "#
                + #""info": {"w": 2, "h": 1, "mimetype": "image/png", "size": 70}}"#),
        event(
            "m.room.message", "bo", "gone", second: 60,
            #""content": {}, "unsigned": {"redacted_because": {"type": "m.room.redaction"}}"#),
        event("m.room.message", "ana", "emote", second: 70, #""content": {"msgtype": "m.emote", "body": "waves"}"#),
        event("m.room.topic", "ana", "topic", second: 80, #""state_key": "", "content": {"topic": "All about crabs"}"#),
        event(
            "m.room.member", "bo", "bo-rename", second: 90,
            #""state_key": "@bo:example.org", "content": {"membership": "join", "displayname": "Bo Grün"}, "#
                + #""unsigned": {"prev_content": {"membership": "join", "displayname": "Bo"}}"#),
        event(
            "m.room.message", "bo", "file", second: 100,
            #""content": {"msgtype": "m.file", "body": "notes.pdf", "url": "mxc://example.org/notes", "#
                + #""info": {"size": 1234, "mimetype": "application/pdf"}}"#),
        event(
            "m.room.message", "ana", "place", second: 110,
            #""content": {"msgtype": "m.location", "body": "Lisbon", "geo_uri": "geo:38.72,-9.14;u=20"}"#),
        event(
            "m.room.encrypted", "bo", "secret", second: 120,
            #""content": {"algorithm": "m.megolm.v1.aes-sha2", "ciphertext": "AwgA"}"#),
        event("org.example.custom", "bo", "custom", second: 130, #""content": {"x": 1}"#),
        "7",
        event(
            "m.room.redaction", "ana", "redact-emote", second: 140,
            #""redacts": "$emote", "content": {"redacts": "$emote"}"#),
        event(
            "m.room.member", "bo", "bo-leave", second: 150,
            #""state_key": "@bo:example.org", "content": {"membership": "leave"}, "#
                + #""unsigned": {"prev_content": {"membership": "join", "displayname": "Bo Grün"}}"#),
    ]

    /// Reads `text` as `file` of the export folder `root` (from memory when `root` does not
    /// exist), after checking that the Matrix importer alone claims it.
    static func read(
        _ text: String, root: URL = URL(fileURLWithPath: "/nonexistent-matrix-export")
    )
        -> (conversations: [ImportedConversation], diagnostics: [Diagnostic])
    {
        let file = root.appendingPathComponent("export.json")
        let bytes = Array(text.utf8)
        let candidate = ExportCandidate(url: file, isDirectory: false, head: bytes)
        let claiming = ExportImporters.all.filter { $0.detect(candidate) }.map { $0.format }
        #expect(claiming == [.matrix], "\(claiming)")
        let onDisk = FileManager.default.fileExists(atPath: root.path)
        let fromMemory: @Sendable (URL) -> [UInt8]? = { $0.path == file.path ? bytes : nil }
        let context = ImportContext(root: root, config: SiteConfig(), readFile: onDisk ? nil : fromMemory)
        var conversations: [ImportedConversation] = []
        let diagnostics = MatrixImporter.read(
            DetectedExport(format: .matrix, items: [file], root: root), context: context,
            emit: { conversations.append($0) })
        return (conversations, diagnostics)
    }

    static func message(_ conversation: Conversation, _ id: String) throws -> Message {
        try #require(conversation.messages.first { $0.id == id }, "no message \(id)")
    }

    static func html(_ message: Message) -> String {
        guard case .attributedText(let rich) = message.kind else { return "" }
        return rich.html
    }

    @Test("every record: a message or a ledger entry with its reason; ids are the event ids")
    func ledger() throws {
        let (conversations, diagnostics) = Self.read(Self.export(Self.room))
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let imported = try #require(conversations.first)
        let conversation = try #require(imported.conversation, "\(imported.diagnostics)")
        #expect(imported.messagesIn == Self.room.count)
        #expect(imported.messagesOut + imported.leftOut == imported.messagesIn)
        #expect(
            imported.ledger.leftOut.map(\.reason).sorted() == [
                "a Matrix event of type org.example.custom, which Scrollback does not show",
                "a reaction (m.annotation), counted on the message it reacts to",
                "a reaction (m.annotation), counted on the message it reacts to",
                "a redaction, shown as the event it removed marked deleted",
                "an edit (m.replace), shown as the text of the message it edits",
                "an entry of 'messages' that is not an event object",
            ])
        #expect(conversation.id == "crab-club" && conversation.title == "Crab Club")
        #expect(conversation.description == "All about crabs")
        #expect(conversation.messages.first?.id == "$create")
        #expect(conversation.messages.allSatisfy { $0.source?.format == "matrix" })
        // Bo's newest display name names him; `exported_by` names him by an older one.
        #expect(conversation.participants.first { $0.id == "@bo:example.org" }?.name == "Bo Grün")
        #expect(conversation.me == "@bo:example.org")
    }

    @Test("edits replace the text, reactions are counted, replies and threads keep their targets")
    func relations() throws {
        let conversation = try #require(Self.read(Self.export(Self.room)).conversations.first?.conversation)
        let first = try Self.message(conversation, "$m1")
        #expect(first.kind == .text("Hello everyone"))
        #expect(first.edited == Date(timeIntervalSince1970: Double(Self.base) / 1000 + 30))
        #expect(first.reactions.map(\.emoji) == ["👍"])
        #expect(first.reactions.first?.senders == ["@bo:example.org", "@ana:example.org"])
        let reply = try Self.message(conversation, "$m2")
        #expect(reply.replyTo == "$m1")
        #expect(Self.html(reply).contains("Hi <em>Ana</em>"))
        #expect(!Self.html(reply).contains("Hello all"), "the reply's fallback quote is dropped")
        let threaded = try Self.message(conversation, "$t1")
        #expect(threaded.thread == "$m1" && threaded.replyTo == nil)
        #expect(try Self.message(conversation, "$gone").deleted)
        #expect(try Self.message(conversation, "$emote").deleted, "a redaction deletes the event it names")
    }

    @Test("HTML is sanitized (no script, no mxc image); system lines; media placeholders; places")
    func kinds() throws {
        let (conversations, _) = Self.read(Self.export(Self.room))
        let imported = try #require(conversations.first)
        let conversation = try #require(imported.conversation)
        // Before the edit replaced it, the HTML body went through the sanitizer.
        let unedited = Self.room.filter { !$0.contains("m1-edit") }
        let original = try #require(Self.read(Self.export(unedited)).conversations.first?.conversation)
        let html = Self.html(try Self.message(original, "$m1"))
        #expect(html.contains("<strong>all</strong>"))
        #expect(!html.contains("script") && !html.contains("mxc:") && !html.contains("<img"))
        #expect(try Self.message(conversation, "$create").kind == .system("Ana created the room"))
        #expect(try Self.message(conversation, "$bo-join").kind == .system("Bo joined the room"))
        #expect(try Self.message(conversation, "$topic").kind == .system("Ana changed the topic to All about crabs"))
        #expect(
            try Self.message(conversation, "$bo-rename").kind == .system("Bo changed their display name to Bo Grün"))
        #expect(try Self.message(conversation, "$bo-leave").kind == .system("Bo Grün left the room"))
        #expect(try Self.message(conversation, "$bo-leave").sender == nil)
        guard case .photo(let photo) = try Self.message(conversation, "$img").kind else {
            Issue.record("the image is no photo")
            return
        }
        #expect(photo.source == .unavailable(original: "remote only: mxc://example.org/cat"))
        #expect(photo.size == PixelSize(width: 2, height: 1))
        guard case .file(let file) = try Self.message(conversation, "$file").kind else {
            Issue.record("the file is no file")
            return
        }
        #expect(file.name == "notes.pdf" && file.size == 1234 && file.mimeType == "application/pdf")
        guard case .location(let place) = try Self.message(conversation, "$place").kind else {
            Issue.record("the location is no place")
            return
        }
        #expect(place.latitude == 38.72 && place.longitude == -9.14 && place.name == "Lisbon")
        #expect(Self.html(try Self.message(conversation, "$secret")).contains("could not be decrypted"))
        #expect(imported.diagnostics.contains { $0.description.contains("mxc://example.org/cat") })
    }

    @Test("an emote reads as '* Name text'")
    func emote() throws {
        let events = Self.room.filter { !$0.contains("redact-emote") }
        let conversation = try #require(Self.read(Self.export(events)).conversations.first?.conversation)
        #expect(try Self.message(conversation, "$emote").kind == .text("* Ana waves"))
    }

    @Test("the files of Element's zip are found by name, photos of one name told apart by their time")
    func zipMedia() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // As a browser in Berlin (UTC+2 in May) writes the dates: 10:00:50 UTC is 12-00-50.
        try write(MetaImporterTests.png, to: "images/cat-1.5.2024 at 12-00-50.png", in: folder)
        try write(MetaImporterTests.png, to: "images/cat-1.5.2024 at 12-03-07.png", in: folder)
        try write("%PDF-1.4\n", to: "files/notes-1.5.2024 at 12-01-40.pdf", in: folder)
        let second = Self.event(
            "m.room.message", "ana", "img2", second: 187,
            #""content": {"msgtype": "m.image", "body": "cat.png", "url": "mxc://example.org/cat2"}"#)
        let text = Self.export(Self.room + [second])
        try write(text, to: "export.json", in: folder)
        let (conversations, diagnostics) = Self.read(text, root: folder)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let conversation = try #require(conversations.first?.conversation)
        var sources: [String: String] = [:]
        for id in ["$img", "$img2", "$file"] {
            switch try Self.message(conversation, id).kind {
            case .photo(let item): if case .local(let asset) = item.source { sources[id] = asset.sourcePath }
            case .file(let item): if case .local(let asset) = item.source { sources[id] = asset.sourcePath }
            default: break
            }
        }
        #expect(sources["$img"]?.hasSuffix("images/cat-1.5.2024 at 12-00-50.png") == true, "\(sources)")
        #expect(sources["$img2"]?.hasSuffix("images/cat-1.5.2024 at 12-03-07.png") == true, "\(sources)")
        #expect(sources["$file"]?.hasSuffix("files/notes-1.5.2024 at 12-01-40.pdf") == true, "\(sources)")
    }

    @Test("a broken file is a located error; a missing messages array is an error at the object")
    func broken() throws {
        let truncated = Self.read(#"{"room_name": "Crab Club", "exported_by": "Bo", "messages": [{"type": "#)
        #expect(truncated.conversations.isEmpty)
        let error = try #require(truncated.diagnostics.first { $0.severity == .error })
        #expect(error.location?.file.hasSuffix("export.json") == true && error.location?.line == 1)
        let noMessages = Self.read(#"{"room_name": "Crab Club", "exported_by": "Bo", "messages": 3}"#)
        let imported = try #require(noMessages.conversations.first)
        #expect(imported.conversation == nil)
        #expect(imported.diagnostics.contains { $0.severity == .error && $0.location?.column == 61 })
    }

    @Test("an edit of a message not exported shows its new text; a reaction to an edit is left out, said why")
    func orphans() throws {
        let events = [
            Self.event(
                "m.room.message", "ana", "e1", second: 1,
                #""content": {"msgtype": "m.text", "body": " * fixed", "m.new_content": {"msgtype": "m.text", "#
                    + #""body": "fixed"}, "m.relates_to": {"rel_type": "m.replace", "event_id": "$older"}}"#),
            Self.event("m.room.message", "ana", "m1", second: 2, #""content": {"msgtype": "m.text", "body": "a"}"#),
            Self.event(
                "m.room.message", "ana", "e2", second: 3,
                #""content": {"msgtype": "m.text", "body": " * b", "m.new_content": {"msgtype": "m.text", "#
                    + #""body": "b"}, "m.relates_to": {"rel_type": "m.replace", "event_id": "$m1"}}"#),
            Self.event(
                "m.reaction", "bo", "r1", second: 4,
                #""content": {"m.relates_to": {"rel_type": "m.annotation", "event_id": "$e2", "key": "👀"}}"#),
        ]
        let imported = try #require(Self.read(Self.export(events)).conversations.first)
        let conversation = try #require(imported.conversation)
        #expect(conversation.messages.map(\.kind) == [.text("fixed"), .text("b")])
        #expect(conversation.messages.allSatisfy { $0.edited != nil && $0.reactions.isEmpty })
        #expect(
            imported.ledger.leftOut.map(\.reason) == [
                "an edit (m.replace), shown as the text of the message it edits",
                "a reaction to an event not in this export (or to an edit or a reaction)",
            ])
    }

    @Test("an event without a time is left out with a warning at it; the rest is built")
    func undated() throws {
        let events = [
            #"{"type": "m.room.message", "sender": "@ana:example.org", "event_id": "$x", "content": {"body": "?"}}"#,
            Self.event("m.room.message", "ana", "ok", second: 1, #""content": {"msgtype": "m.text", "body": "ok"}"#),
        ]
        let imported = try #require(Self.read(Self.export(events)).conversations.first)
        #expect(imported.conversation?.messages.map(\.id) == ["$ok"])
        #expect(imported.ledger.leftOut.map(\.reason) == ["an event without a readable origin_server_ts"])
        #expect(imported.diagnostics.contains { $0.severity == .warning && $0.location?.line == 1 })
    }
}
