import Foundation
import ScrollbackModel
import ScrollbackTestSupport
import Testing

@testable import ScrollbackReading

/// Microsoft Teams tenant exports (issue 43): the real sample from Zulip's test tenant, and
/// fixtures of Graph's documented shapes for what it lacks (events with details, deleted
/// messages, files, quotes, apps).
@Suite struct TeamsImporterTests {
    /// The shared sample's export folder.
    static func sample() throws -> URL {
        try SharedSamples.folder().appendingPathComponent(
            "teams/zulip-microsoft_teams_fixtures/TeamsData_ZulipChat")
    }

    /// Reads the export `items` (folders or files) with the Teams importer.
    static func read(_ items: [URL], root: URL) -> (conversations: [ImportedConversation], diagnostics: [Diagnostic]) {
        var conversations: [ImportedConversation] = []
        let diagnostics = TeamsImporter.read(
            DetectedExport(format: .teams, items: items, root: root),
            context: ImportContext(root: root, config: SiteConfig()),
            emit: { conversations.append($0) })
        return (conversations, diagnostics)
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed), as: UTF8.self)
    }

    /// A Graph chat message as the export writes it (PascalCase, every member present), its
    /// seconds the last two digits of `id`; `set` replaces members (or adds them), as JSON.
    static func message(
        _ id: String, from user: String? = "u1", name: String = "Ana", html: String = "<p>hi</p>",
        chat: String = "19:u1_u2@unq.gbl.spaces", set overrides: [(String, String)] = []
    ) -> String {
        let from = user.map {
            #"{"Application": null, "Device": null, "User": {"Id": "\#($0)", "DisplayName": "\#(name)"}}"#
        }
        var fields: [(String, String)] = [
            ("Id", quoted(id)), ("Body", #"{"ContentType": "html", "Content": "# + quoted(html) + "}"),
            ("CreatedDateTime", quoted("2025-08-12T05:29:\(id.suffix(2)).179+00:00")), ("LastEditedDateTime", "null"),
            ("DeletedDateTime", "null"), ("Subject", #""""#), ("ReplyToId", "null"), ("From", from ?? "null"),
            ("Attachments", "[]"), ("Reactions", "[]"), ("MessageType", #""message""#), ("ChannelIdentity", "null"),
            ("ChatId", quoted(chat)), ("EventDetail", "null"),
        ]
        for (key, value) in overrides {
            if let index = fields.firstIndex(where: { $0.0 == key }) {
                fields[index].1 = value
            } else {
                fields.append((key, value))
            }
        }
        return "{" + fields.map { quoted($0.0) + ": " + $0.1 }.joined(separator: ", ") + "}"
    }

    @Test("the shared sample: every record in the ledger, one conversation per channel and chat")
    func sharedSample() throws {
        let folder = try Self.sample()
        #expect(TeamsImporter.detect(ExportCandidate(url: folder)))
        let (conversations, diagnostics) = Self.read([folder], root: folder)
        #expect(!diagnostics.contains { $0.severity == .error }, "\(diagnostics)")
        // Counted with Foundation's parser: every element of every messages file.
        var records = 0
        for file in try FileManager.default.subpathsOfDirectory(atPath: folder.path)
        where PathText.lastComponent(file).hasPrefix("messages_") {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            records += (try JSONSerialization.jsonObject(with: data) as? [Any])?.count ?? 0
        }
        #expect(records == 16)
        #expect(conversations.reduce(0) { $0 + $1.messagesIn } == records)
        for imported in conversations {
            #expect(imported.messagesOut + imported.leftOut == imported.messagesIn, "\(imported.countLine)")
        }
        let built = conversations.compactMap(\.conversation)
        #expect(built.map(\.id) == ["core-team-general", "dm-alya-abbott", "dm-will-begon", "group-9738fef4"])
        #expect(built.map(\.title) == ["Core team › General", "Alya Abbott", "Will Begon", "Will Begon"])
        #expect(built.map(\.chatType) == [.channel, .direct, .direct, .group])
        // The user folder's owner is `me` in the chats read from it; a channel has none.
        #expect(built.map(\.me) == [nil] + Array(repeating: "88cbf3c2-0810-4d32-aa19-863c12bf7be9", count: 3))
        #expect(built.allSatisfy { $0.messages.allSatisfy { $0.source?.format == "teams" } })
    }

    @Test("the sample's channel: HTML through the sanitizer, replies as a thread, a reaction, events as lines")
    func sampleChannel() throws {
        let folder = try Self.sample()
        let channel = try #require(Self.read([folder], root: folder).conversations.first?.conversation)
        func message(_ id: String) throws -> Message { try #require(channel.messages.first { $0.id == id }) }
        let root = try message("1755167284801")
        guard case .attributedText(let quote) = root.kind else {
            Issue.record("\(root.kind)")
            return
        }
        #expect(quote.html.hasPrefix("<p><strong>private channel message</strong></p><blockquote>"))
        for id in ["1755192369203", "1755192395975", "1760014782392"] { #expect(try message(id).thread == root.id) }
        guard case .attributedText(let colours) = try message("1755192369203").kind else { return }
        #expect(!colours.html.contains("style") && colours.plainText == "Good question! I dunno")
        guard case .attributedText(let code) = try message("1755192395975").kind else { return }
        #expect(code.html.contains("<pre><code><span>print</span>("), "\(code.html)")
        #expect(code.plainText == #"print("hi")"#)
        // Teams' `<p>&nbsp;</p>` padding draws no empty lines.
        let codeHTML = code.html.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(codeHTML.hasPrefix("<pre>") && !quote.html.contains("\u{A0}</p>"), "\(code.html)")
        // `<emoji alt="👻">` is its emoji; the deactivated user is named by the name the message carries.
        let ghost = try message("1760014782392")
        #expect(ghost.kind == .text("Message from a deactivated user!👻"))
        #expect(ghost.sender == "9bd4aca7-99cf-4b1b-a16d-e25717dc9414")
        #expect(ghost.reactions == [Reaction(emoji: "👍", senders: ["88cbf3c2-0810-4d32-aa19-863c12bf7be9"])])
        #expect(channel.participants.contains { $0.name == "Will Begon" })
        let events = channel.messages.filter { $0.kind.name == .system }
        #expect(
            events.map(\.kind.plainText) == [
                "Pieter K made a change (the export does not say which)",
                "Pieter K made a change (the export does not say which)",
                "An app made a change (the export does not say which)",
            ])
        #expect(events.allSatisfy { $0.sender == nil })
    }

    @Test("the sample's chats: the edit mark, the hosted image as a chip never loaded, plain text")
    func sampleChats() throws {
        let folder = try Self.sample()
        let (conversations, diagnostics) = Self.read([folder], root: folder)
        let chat = try #require(conversations.compactMap(\.conversation).first { $0.id == "dm-alya-abbott" })
        #expect(chat.messages.map(\.id).first == "1754976554448")
        #expect(chat.messages.first { $0.id == "1754976555179" }?.kind == .text("I'm in!"))
        let edited = try #require(chat.messages.first { $0.id == "1755004986602" })
        #expect(edited.edited == ISO8601DateParser.parse("2025-08-12T13:23:40.93+00:00"))
        let pasted = try #require(chat.messages.first { $0.id == "1755005011115" })
        guard case .attributedText(let rich) = pasted.kind else {
            Issue.record("\(pasted.kind)")
            return
        }
        #expect(!rich.html.contains("<img") && !rich.html.contains("graph.microsoft.com"))
        #expect(rich.html.contains("📎 image (not in this export)"))
        // The text (search, excerpts) says what the page shows, as the log `import` writes reads back.
        #expect(rich.plainText.hasSuffix("📎 image (not in this export)"), "\(rich.plainText)")
        #expect(rich.html.contains(#"<a href="http://localhost:9991/#narrow"#))
        #expect(
            diagnostics.isEmpty
                && conversations.flatMap(\.diagnostics).contains {
                    $0.severity == .warning && $0.problem.message.contains("hostedContents")
                })
    }

    @Test("events with details, deleted messages, files, quotes, apps and text bodies each read as their kind")
    func kinds() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let added =
            #"{"MembersAdded": {"Members": [{"Id": "u3", "DisplayName": null}], "#
            + #""VisibleHistoryStartDateTime": null}, "Initiator": {"User": {"Id": "u1"}}}"#
        let renamed =
            ##"{"@odata.type": "#microsoft.graph.chatRenamedEventMessageDetail", "chatDisplayName": "Plans", "##
            + #""initiator": {"user": {"id": "u2"}}}"#
        let event = #""systemEventMessage""#
        let file =
            #"[{"Id": "f1", "ContentType": "reference", "ContentUrl": "https://x.sharepoint.com/a/plan.docx", "#
            + #""Name": "plan.docx"}]"#
        let records = [
            Self.message("1000000000010", html: "<p>hello <at id=\"0\">Bo</at></p>"),
            Self.message("1000000000011", from: nil, set: [("MessageType", event), ("EventDetail", added)]),
            Self.message("1000000000012", from: nil, set: [("MessageType", event), ("EventDetail", renamed)]),
            Self.message("1000000000013", set: [("DeletedDateTime", #""2025-08-12T06:00:00Z""#)]),
            Self.message(
                "1000000000014", from: "u2", name: "Bo", html: "<p>see <attachment id=\"f1\"></attachment></p>",
                set: [("Subject", #""Plan""#), ("Attachments", file)]),
            Self.message(
                "1000000000015", html: "<p>yes</p>",
                set: [("Attachments", #"[{"Id": "1000000000014", "ContentType": "messageReference"}]"#)]),
            Self.message(
                "1000000000016", from: nil,
                set: [("From", #"{"Application": {"Id": "app1", "DisplayName": "Polly"}, "User": null}"#)]),
        ]
        let messages = try write(
            "[" + records.joined(separator: ",\n") + "]", to: "users/u1/messages_u1.json", in: root)
        try write(#"[{"Id": "u1", "DisplayName": "Ana", "Mail": "ana@x"}]"#, to: "users/usersList.json", in: root)
        #expect(TeamsImporter.detect(ExportCandidate(url: root)))
        let (conversations, diagnostics) = Self.read([root], root: root)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let chat = try #require(conversations.first?.conversation)
        #expect(conversations.count == 1 && chat.id == "dm-bo" && chat.me == "u1")
        let kinds = chat.messages.map(\.kind.plainText)
        #expect(kinds[0] == "hello Bo")
        #expect(kinds[1] == "Ana added u3")
        #expect(kinds[2] == "Bo renamed the chat to Plans")
        #expect(chat.messages[3].deleted && chat.messages[3].sender == "u1")
        #expect(kinds[4] == "Plan see 📎 plan.docx (file not in this export)")
        #expect(chat.messages[5].replyTo == "1000000000014")
        #expect(chat.messages[6].sender == "app1" && chat.participants.contains { $0.name == "Polly" })
        #expect(conversations[0].diagnostics.contains { $0.problem.message.contains("plan.docx") })
        #expect(chat.messages.allSatisfy { $0.location.file.hasSuffix(messages.lastPathComponent) })
    }

    @Test("a record without a date, a non-object and a message naming no chat are left out; the rest is built")
    func brokenRecords() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let undated = Self.message("1000000000021", set: [("CreatedDateTime", #""yesterday""#)])
        let nowhere = Self.message("1000000000022", set: [("ChatId", "null")])
        try write(
            "[" + [Self.message("1000000000020"), undated, "7", nowhere].joined(separator: ",\n") + "]",
            to: "messages_u1.json", in: root)
        let (conversations, diagnostics) = Self.read([root], root: root)
        #expect(diagnostics.isEmpty)
        let imported = try #require(conversations.first)
        #expect(imported.messagesIn == 4 && imported.messagesOut == 1 && imported.leftOut == 3)
        #expect(imported.ledger.leftOut.allSatisfy { ($0.location?.line ?? 0) > 1 })
        #expect(imported.diagnostics.filter { $0.severity == .warning }.count == 3)
    }

    @Test("a messages file that is not JSON is a located error; the other files are built")
    func brokenFile() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try write("[" + Self.message("1000000000030") + "]", to: "users/u1/messages_u1.json", in: root)
        try write("[\n {\"Id\": \"1\",, }]", to: "users/u2/messages_u2.json", in: root)
        let (conversations, diagnostics) = Self.read([root], root: root)
        #expect(conversations.compactMap(\.conversation).count == 1)
        let error = try #require(diagnostics.first)
        #expect(error.severity == .error && diagnostics.count == 1)
        #expect(error.location?.file.hasSuffix("users/u2/messages_u2.json") == true)
        #expect(error.location?.line == 2)
    }

    @Test("a chat in two users' folders is one conversation; the second copy of a message is left out")
    func chatInTwoFolders() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try write("[" + Self.message("1000000000040") + "]", to: "users/u1/messages_u1.json", in: root)
        try write(
            "["
                + [Self.message("1000000000040"), Self.message("1000000000041", from: "u2", name: "Bo")].joined(
                    separator: ",") + "]", to: "users/u2/messages_u2.json", in: root)
        let (conversations, _) = Self.read([root], root: root)
        #expect(conversations.count == 1)
        let imported = try #require(conversations.first)
        #expect(imported.messagesIn == 3 && imported.messagesOut == 2 && imported.leftOut == 1)
        #expect(imported.ledger.leftOut.first?.reason.contains("another user's copy") == true)
        #expect(imported.conversation?.me == "u1")
    }

    @Test("a newer export of a chat with more messages keeps every message's id and the chat's id")
    func idsStableAcrossExports() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let group = "19:abcdef0123456789@thread.v2"
        let first = [Self.message("1000000000050", chat: group), Self.message("1000000000051", chat: group)]
        try write("[" + first.joined(separator: ",") + "]", to: "old/messages_u1.json", in: root)
        let newer = [Self.message("1000000000052", from: "u9", name: "Cy", chat: group)] + first.reversed()
        try write("[" + newer.joined(separator: ",") + "]", to: "new/messages_u1.json", in: root)
        let old = try #require(Self.read([root.appendingPathComponent("old")], root: root).conversations.first)
        let new = try #require(Self.read([root.appendingPathComponent("new")], root: root).conversations.first)
        #expect(old.conversation?.id == "group-abcdef01" && new.conversation?.id == old.conversation?.id)
        let oldIDs = Set(old.conversation?.messages.map(\.id) ?? [])
        let newIDs = Set(new.conversation?.messages.map(\.id) ?? [])
        #expect(oldIDs.count == 2 && oldIDs.isSubset(of: newIDs) && newIDs.count == 3)
    }

    @Test("detection: the export's root, `teams/` or `users/` alone, one user's folder, a lone messages file")
    func detection() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = try write(
            "[" + Self.message("1000000000059") + "]", to: "export/users/u1/messages_u1.json", in: root)
        try write(
            #"[{"Id": "u1", "DisplayName": "Ana", "UserPrincipalName": "a@x"}]"#, to: "export/users/usersList.json",
            in: root)
        let export = root.appendingPathComponent("export")
        for folder in [export, export.appendingPathComponent("users"), file.deletingLastPathComponent()] {
            #expect(TeamsImporter.detect(ExportCandidate(url: folder)), "\(folder.lastPathComponent)")
        }
        #expect(!TeamsImporter.detect(ExportCandidate(url: root)))
        let claiming = ExportImporters.all.filter { $0.detect(ExportCandidate(url: file)) }.map { $0.format }
        #expect(claiming == [.teams])
        #expect(UnsupportedFormat.recognise(ExportCandidate(url: file)) == nil)
        // Scrollback's own logs and other apps' arrays are not Teams messages.
        func claims(_ text: String) -> Bool {
            TeamsFileImporter.detect(
                ExportCandidate(url: URL(fileURLWithPath: "/in/x.json"), isDirectory: false, head: Array(text.utf8)))
        }
        #expect(!claims(#"{"version": "1.1", "messages": []}"#))
        #expect(!claims(#"[{"uuid": "a", "chat_messages": []}]"#))
        #expect(!claims(#"[{"id": "1", "createdDateTime": "2025-01-01T00:00:00Z"}]"#))
        #expect(claims("[" + Self.message("1") + "]"))
    }
}
