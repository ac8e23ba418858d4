import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading

/// Google Chat from Google Takeout (issue 43): no public Takeout has been met yet, so the
/// fixture follows the documented shape field by field (`Groups/<DM or Space>/messages.json`
/// and `group_info.json`, `Users/<you>/user_info.json`, both date orders, U+202F before AM/PM).
@Suite struct GoogleChatImporterTests {
    static let ana = #"{"name": "Ana", "email": "ana@example.com", "user_type": "Human"}"#
    static let bo = #"{"name": "Bo", "email": "bo@example.com", "user_type": "Human"}"#
    static let cy = #"{"name": "Cy", "email": "cy@example.com", "user_type": "Human"}"#

    /// One message of Space `AAAA`: `creator`, `created_date`, its id (topic `topic`) and the rest.
    static func message(_ creator: String, _ date: String, topic: String, id: String, _ rest: String = "") -> String {
        #"{"creator": \#(creator), "created_date": "\#(date)", "topic_id": "\#(topic)", "#
            + #""message_id": "AAAA/\#(topic)/\#(id)""# + (rest.isEmpty ? "" : ", " + rest) + "}"
    }

    /// A Takeout `Google Chat` folder under `root`: a Space of nine records and a DM of one.
    static func takeout(in root: URL, spaceMessages: String? = nil) throws -> URL {
        let chat = root.appendingPathComponent("Google Chat")
        let space = [
            message(
                ana, "Tuesday, March 14, 2023 at 10:05:11\u{202F}AM UTC", topic: "T1", id: "T1",
                #""text": "Where to?", "reactions": [{"emoji": {"unicode": "👍"}, "reactor_emails": ["bo@example.com"]}]"#
            ),
            message(
                bo, "Tuesday, March 14, 2023 at 10:06:00\u{202F}AM UTC", topic: "T1", id: "R1",
                #""text": "Lisbon", "updated_date": "Tuesday, March 14, 2023 at 10:07:00\#u{202F}AM UTC""#),
            message(
                cy, "Tuesday, March 14, 2023 at 10:08:00\u{202F}AM UTC", topic: "T2", id: "T2",
                #""text": "look", "attached_files": [{"original_name": "beach.png", "export_name": "File-beach.png"}]"#),
            message(
                ana, "Tuesday, March 14, 2023 at 10:09:00\u{202F}AM UTC", topic: "T3", id: "T3",
                #""deleted_date": "Tuesday, March 14, 2023 at 10:10:00\#u{202F}AM UTC", "message_state": "DELETED""#),
            message(
                bo, "Tuesday, 14 March 2023 at 11:00:00 UTC", topic: "T4", id: "T4",
                #""text": "https://example.org/lisbon", "annotations": [{"start_index": 0, "length": 26, "#
                    + #""url_metadata": {"title": "Lisbon guide", "snippet": "Trams", "image_url": "", "#
                    + #""url": {"private_do_not_access_or_else_safe_url_wrapped_value": "https://example.org/lisbon"}}}]"#
            ),
            message(ana, "yesterday", topic: "T5", id: "T5", #""text": "when?""#),
            "42",
            message(
                cy, "Tuesday, March 14, 2023 at 1:00:00\u{202F}PM UTC", topic: "T6", id: "T6",
                #""text": "Yes!", "quoted_message_metadata": {"creator": \#(ana), "text": "Where to?"}"#),
            message(
                cy, "Tuesday, March 14, 2023 at 1:01:00\u{202F}PM UTC", topic: "T7", id: "T7",
                #""attached_files": [{"original_name": "plan.pdf", "export_name": "File-plan.pdf"}]"#),
        ]
        try write(
            spaceMessages ?? #"{"messages": ["# + space.joined(separator: ",\n") + "]}",
            to: "Groups/Space AAAA/messages.json", in: chat)
        try write(
            #"{"name": "Trip Planning", "members": [\#(ana), \#(bo), \#(cy)]}"#,
            to: "Groups/Space AAAA/group_info.json", in: chat)
        try write(MetaImporterTests.png, to: "Groups/Space AAAA/File-beach.png", in: chat)
        try write(
            #"{"messages": [{"creator": \#(bo), "created_date": "Wednesday, March 15, 2023 at 9:00:00\#u{202F}AM UTC", "#
                + #""text": "hi", "topic_id": "D1", "message_id": "BBBB/D1/D1"}]}"#,
            to: "Groups/DM BBBB/messages.json", in: chat)
        try write(#"{"members": [\#(ana), \#(bo)]}"#, to: "Groups/DM BBBB/group_info.json", in: chat)
        try write(
            #"{"user": \#(ana), "membership_info": [{"group_id": "DM BBBB", "membership_state": "MEMBER_JOINED"}]}"#,
            to: "Users/User 1/user_info.json", in: chat)
        return chat
    }

    /// Reads the folder export `folder`, after checking that only the Google Chat importer claims it.
    static func read(_ folder: URL) -> (conversations: [ImportedConversation], diagnostics: [Diagnostic]) {
        let claiming = ExportImporters.all.filter { $0.detect(ExportCandidate(url: folder)) }.map { $0.format }
        #expect(claiming == [.googlechat], "\(claiming)")
        var conversations: [ImportedConversation] = []
        let diagnostics = GoogleChatImporter.read(
            DetectedExport(format: .googlechat, items: [folder], root: folder),
            context: ImportContext(root: folder, config: SiteConfig()), emit: { conversations.append($0) })
        return (conversations, diagnostics)
    }

    static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test("a Takeout: one conversation per group, titled and typed; the owner is me; every record counted")
    func takeout() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let (conversations, diagnostics) = Self.read(try Self.takeout(in: root))
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(conversations.map { $0.conversation?.id } == ["bo", "trip-planning"])
        let dm = try #require(conversations.first?.conversation)
        #expect(dm.title == "Bo" && dm.chatType == .direct && dm.me == "ana@example.com")
        let imported = try #require(conversations.last)
        let space = try #require(imported.conversation, "\(imported.diagnostics)")
        #expect(space.title == "Trip Planning" && space.chatType == .group && space.me == "ana@example.com")
        #expect(imported.messagesIn == 9 && imported.messagesOut == 7)
        #expect(
            imported.ledger.leftOut.map(\.reason) == [
                "a message without a readable created_date", "an entry of 'messages' that is not a message object",
            ])
        #expect(space.participants.map(\.name) == ["Ana", "Bo", "Cy"])
        #expect(space.messages.allSatisfy { $0.source?.format == "googlechat" })
    }

    @Test("dates in both orders, U+202F before AM/PM; edits, deletions, threads, reactions")
    func fields() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let space = try #require(Self.read(try Self.takeout(in: root)).conversations.last?.conversation)
        func message(_ id: String) throws -> Message { try #require(space.messages.first { $0.id == id }) }
        #expect(try message("T1").date == Self.date("2023-03-14T10:05:11Z"))
        #expect(try message("T4").date == Self.date("2023-03-14T11:00:00Z"))
        #expect(try message("T6").date == Self.date("2023-03-14T13:00:00Z"))
        #expect(try message("T1").reactions == [Reaction(emoji: "👍", senders: ["bo@example.com"])])
        #expect(try message("R1").thread == "T1" && message("T1").thread == nil)
        #expect(try message("R1").edited == Self.date("2023-03-14T10:07:00Z"))
        #expect(try message("T3").deleted)
        #expect(try message("T1").sender == "ana@example.com")
    }

    @Test("attachments from the folder, placeholders for the rest; link cards; quotes")
    func kinds() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let imported = try #require(Self.read(try Self.takeout(in: root)).conversations.last)
        let space = try #require(imported.conversation)
        func kind(_ id: String) throws -> MessageKind { try #require(space.messages.first { $0.id == id }).kind }
        guard case .photo(let photo) = try kind("T2"), case .local = photo.source else {
            Issue.record("the attached image is no local photo: \(try kind("T2"))")
            return
        }
        #expect(photo.caption == "look" && photo.alt == "beach.png")
        guard case .file(let file) = try kind("T7") else {
            Issue.record("the missing file is no file card")
            return
        }
        #expect(file.name == "plan.pdf")
        if case .local = file.source { Issue.record("a file not in the export is no local file") }
        #expect(imported.diagnostics.contains { $0.description.contains("File-plan.pdf") })
        guard case .linkPreview(let text, let link) = try kind("T4") else {
            Issue.record("the link is no card")
            return
        }
        #expect(text == "https://example.org/lisbon" && link.title == "Lisbon guide" && link.teaser == "Trams")
        guard case .attributedText(let quote) = try kind("T6") else {
            Issue.record("the quote is no rich text")
            return
        }
        #expect(quote.html.contains("<blockquote>") && quote.html.contains("Ana: Where to?"))
        #expect(quote.plainText.contains("Yes!"))
    }

    @Test("a broken messages.json is a located error of its conversation; the other one is built")
    func broken() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let chat = try Self.takeout(in: root, spaceMessages: "{\"messages\": [{\"creator\": {\"name\": \"A\"},\n")
        let (conversations, diagnostics) = Self.read(chat)
        #expect(diagnostics.isEmpty)
        #expect(conversations.count == 2)
        #expect(conversations.first?.conversation?.messages.count == 1)
        let broken = try #require(conversations.last)
        #expect(broken.conversation == nil)
        let error = try #require(broken.diagnostics.first { $0.severity == .error })
        #expect(error.location?.file.hasSuffix("Space AAAA/messages.json") == true && error.location?.line == 2)
    }

    @Test("one conversation's folder alone is an export too; its members name a DM without me")
    func loneGroup() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let chat = try Self.takeout(in: root)
        let (conversations, _) = Self.read(chat.appendingPathComponent("Groups/DM BBBB"))
        let dm = try #require(conversations.first?.conversation)
        #expect(dm.title == "Ana, Bo" && dm.me == nil && dm.messages.count == 1)
        let plain = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: plain) }
        try write(#"{"messages": [{"sender_name": "A", "timestamp_ms": 1}]}"#, to: "messages.json", in: plain)
        #expect(!GoogleChatImporter.detect(ExportCandidate(url: plain)))
    }
}
