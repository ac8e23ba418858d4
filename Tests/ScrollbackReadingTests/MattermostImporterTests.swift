import Foundation
import ScrollbackModel
import ScrollbackTestSupport
import Testing

@testable import ScrollbackReading

/// Mattermost's bulk export (issue 43): one conversation per channel and direct channel, replies
/// as threads, reactions with their users, system posts, attachments, stable ids, and every post
/// counted.
@Suite struct MattermostImporterTests {
    /// Reads `file` (inside `root`) as one export, after checking that detection gives it to the
    /// Mattermost importer alone.
    static func read(_ file: URL, root: URL) -> (conversations: [ImportedConversation], diagnostics: [Diagnostic]) {
        let claiming = ExportImporters.all.filter { $0.detect(ExportCandidate(url: file)) }.map { $0.format }
        #expect(claiming == [.mattermost], "\(file.lastPathComponent): \(claiming)")
        var conversations: [ImportedConversation] = []
        let diagnostics = MattermostImporter.read(
            DetectedExport(format: .mattermost, items: [file], root: root),
            context: ImportContext(root: root, config: SiteConfig()),
            emit: { conversations.append($0) })
        return (conversations, diagnostics)
    }

    /// Posts and replies of a bulk export, counted with Foundation's parser, not the importer's.
    static func countPosts(_ file: URL) throws -> Int {
        let text = try String(contentsOf: file, encoding: .utf8)
        var count = 0
        for line in text.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            guard let type = object?["type"] as? String, type == "post" || type == "direct_post",
                let post = object?[type] as? [String: Any]
            else { continue }
            count += 1 + ((post["replies"] as? [Any])?.count ?? 0)
        }
        return count
    }

    /// A bulk export as `mattermost export bulk` writes it, with every kind of record.
    static let fixture = [
        #"{"type":"version","version":1,"info":{"generator":"mattermost-server","version":"9.11.0","created":"2024-05-01T10:00:00Z"}}"#,
        #"{"type":"team","team":{"name":"crew","display_name":"The Crew","type":"O"}}"#,
        #"{"type":"channel","channel":{"team":"crew","name":"ops","display_name":"Operations","type":"P","header":"","purpose":"Keeping the lights on"}}"#,
        #"{"type":"user","user":{"username":"ana","first_name":"Ana","last_name":"Lima","nickname":"","teams":null}}"#,
        #"{"type":"user","user":{"username":"bo","first_name":"","last_name":"","nickname":"Bobo","teams":[]}}"#,
        #"{"type":"emoji","emoji":{"name":"partyparrot","image":"exported_emoji/abc/image.png"}}"#,
        #"{"type":"emoji","emoji":{"name":"ghost_emoji","image":"exported_emoji/def/image.png"}}"#,
        #"{"type":"post","post":{"team":"crew","channel":"ops","user":"bo","message":"Deploy at **noon** :rocket:","create_at":1714557700000,"edit_at":1714557760000,"is_pinned":true,"reactions":[{"user":"ana","emoji_name":"+1","create_at":1714557701000},{"user":"bo","emoji_name":"+1","create_at":1714557702000},{"user":"ana","emoji_name":"partyparrot","create_at":1714557703000},{"user":"bo","emoji_name":"ghost_emoji","create_at":1714557704000}],"replies":[{"user":"ana","message":"ok","create_at":1714557800000},{"user":"bo","message":"see log","create_at":1714557900000,"attachments":[{"path":"20240501/teams/t/channels/c/users/u/f/deploy.log"}]},7]}}"#,
        #"{"type":"post","post":{"team":"crew","channel":"ops","user":"ana","type":"system_join_channel","message":"ana joined the channel.","create_at":1714557600000}}"#,
        #"{"type":"post","post":{"team":"crew","channel":"ops","user":"ana","message":"same *ms* :chart_with_upwards_trend:","create_at":1714557700000,"attachments":[{"path":"20240501/teams/t/channels/c/users/u/g/chart.png"}]}}"#,
        #"{"type":"post","post":{"team":"crew","channel":"ops","user":"ana","message":"no time","create_at":"soon"}}"#,
        "this line is not JSON",
        #"{"type":"post","post":{"user":"ana","message":"where?","create_at":1714557700000}}"#,
        #"{"type":"direct_channel","direct_channel":{"members":["bo","ana"],"header":""}}"#,
        #"{"type":"direct_post","direct_post":{"channel_members":["bo","ana"],"user":"bo","message":"hi Ana","create_at":1714558000000}}"#,
        #"{"type":"direct_post","direct_post":{"channel_members":["cy","ana","bo"],"user":"cy","message":"group hi","create_at":1714558100000}}"#,
    ]

    /// Writes the fixture (with the chart image and the party parrot beside it) into `folder`.
    static func writeFixture(in folder: URL, name: String = "export.jsonl") throws -> URL {
        try write(fixture.joined(separator: "\n") + "\n", to: name, in: folder)
        try write(MetaImporterTests.png, to: "data/20240501/teams/t/channels/c/users/u/g/chart.png", in: folder)
        try write(MetaImporterTests.png, to: "exported_emoji/abc/image.png", in: folder)
        return folder.appendingPathComponent(name)
    }

    @Test("channels, threads, reactions, system posts, attachments and the ledger of a documented export")
    func kinds() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try Self.writeFixture(in: folder)
        let (conversations, diagnostics) = Self.read(file, root: folder)
        // The broken line and the post naming no channel: located errors of the export.
        #expect(diagnostics.filter { $0.severity == .error }.map { $0.location?.line } == [12, 13], "\(diagnostics)")
        #expect(conversations.map { $0.conversation?.id } == ["crew-ops", "dm-ana-bo", "group-ana-bo-cy"])
        let ops = try #require(conversations[0].conversation)
        #expect(ops.title == "Operations" && ops.description == "Keeping the lights on")
        #expect(ops.section == "Private channels" && ops.chatType == .channel && ops.me == nil)
        // 3 posts + 3 replies + the post with no time: 7 records, 2 left out with reasons.
        #expect(conversations[0].messagesIn == 7 && conversations[0].leftOut == 2 && ops.messages.count == 5)
        let byID = Dictionary(uniqueKeysWithValues: ops.messages.map { ($0.id, $0) })
        #expect(
            ops.messages.map(\.id) == [
                "1714557600000", "1714557700000", "1714557700000-2", "1714557800000", "1714557900000",
            ])
        #expect(
            byID["1714557600000"]?.kind == .system("ana joined the channel.") && byID["1714557600000"]?.sender == nil)
        let root = try #require(byID["1714557700000-2"])
        #expect(root.sender == "bo" && root.pinned && root.edited == Date(timeIntervalSince1970: 1_714_557_760))
        guard case .attributedText(let rich) = root.kind else { throw Failure("not rich text: \(root.kind)") }
        #expect(rich.html.contains("<strong>noon</strong>") && rich.plainText.contains("🚀"))
        #expect(root.reactions.map(\.emoji) == ["👍", ":partyparrot:", ":ghost_emoji:"])
        #expect(root.reactions[0].senders == ["ana", "bo"])
        // The export holds the parrot's image, not the ghost's: only the parrot shows as an image.
        guard case .local? = root.reactions[1].customEmoji?.image else { throw Failure("no parrot image") }
        #expect(root.reactions[2].customEmoji == nil)
        #expect(
            byID["1714557800000"]?.thread == "1714557700000-2" && byID["1714557900000"]?.thread == "1714557700000-2")
        guard case .photo(let chart)? = byID["1714557700000"]?.kind, case .local = chart.source else {
            throw Failure("the chart is not a photo of the export: \(String(describing: byID["1714557700000"]?.kind))")
        }
        #expect(chart.caption == "same ms 📈", "a caption is the text, not its markup")
        guard case .file(let log)? = byID["1714557900000"]?.kind, case .unavailable = log.source else {
            throw Failure("the missing log is not a placeholder")
        }
        #expect(log.name == "deploy.log" && log.caption == "see log")
        #expect(ops.participant("ana")?.name == "Ana Lima" && ops.participant("bo")?.name == "Bobo")
        #expect(Set(conversations[0].ledger.leftOut.map(\.reason)).count == 2)
        let dm = try #require(conversations[1].conversation)
        #expect(dm.chatType == .direct && dm.section == "Direct messages" && dm.title == "Ana Lima, Bobo")
        let group = try #require(conversations[2].conversation)
        #expect(group.chatType == .group && group.participants.map(\.id) == ["ana", "bo", "cy"])
        #expect(ops.messages.allSatisfy { $0.source?.format == "mattermost" })
    }

    @Test("every shared Mattermost sample: records in = messages out + left out, one conversation per channel")
    func sharedSamples() throws {
        let folder = try SharedSamples.folder().appendingPathComponent("mattermost")
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
        #expect(files.count == 3)
        for file in files {
            let (conversations, diagnostics) = Self.read(file, root: file.deletingLastPathComponent())
            #expect(!diagnostics.contains { $0.severity == .error }, "\(diagnostics)")
            #expect(conversations.allSatisfy { !$0.diagnostics.contains { $0.severity == .error } })
            #expect(conversations.reduce(0) { $0 + $1.messagesIn } == (try Self.countPosts(file)))
            for imported in conversations {
                let conversation = try #require(imported.conversation)
                #expect(imported.messagesOut + imported.leftOut == imported.messagesIn)
                #expect(Set(conversation.messages.map(\.id)).count == conversation.messages.count)
                #expect(zip(conversation.messages, conversation.messages.dropFirst()).allSatisfy { $0.date <= $1.date })
            }
            let ids = conversations.compactMap { $0.conversation?.id }
            #expect(Set(ids).count == ids.count)
        }
        // The direct-channel sample: two channels, a one-to-one DM without its direct_channel
        // line, a group DM; the attachments are not in the sample, so placeholders.
        let direct = folder.appendingPathComponent("zulip-mattermost_fixtures/direct_channel/export.json")
        let (conversations, _) = Self.read(direct, root: direct.deletingLastPathComponent())
        #expect(
            conversations.compactMap { $0.conversation?.id }.sorted() == [
                "dm-harry-ron", "dm-harry-voldemort", "group-ginny-harry-ron", "gryffindor-gryffindor-common-room",
                "gryffindor-gryffindor-quidditch-team",
            ])
        let common = try #require(conversations.first { $0.conversation?.id == "gryffindor-gryffindor-common-room" })
        #expect(common.conversation?.messages.contains { $0.kind.name == .file } == true)
        #expect(common.diagnostics.contains { $0.severity == .warning && $0.description.contains("this is a file") })
    }

    @Test("a re-export in another line order keeps every conversation and message id")
    func idsSurviveReExport() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try Self.writeFixture(in: folder)
        let first = Self.read(file, root: folder).conversations
        // The exporter promises no order: the same records, the lines after the version reversed.
        try write(
            ([Self.fixture[0]] + Self.fixture.dropFirst().reversed()).joined(separator: "\n"), to: "again/export.jsonl",
            in: folder)
        try write(MetaImporterTests.png, to: "again/data/20240501/teams/t/channels/c/users/u/g/chart.png", in: folder)
        let again = Self.read(folder.appendingPathComponent("again/export.jsonl"), root: folder).conversations
        func ids(_ list: [ImportedConversation]) -> [String: [String]] {
            Dictionary(uniqueKeysWithValues: list.compactMap { $0.conversation }.map { ($0.id, $0.messages.map(\.id)) })
        }
        #expect(ids(first) == ids(again))
        #expect(ids(first)["crew-ops"]?.count == 5)
    }

    @Test("detected by its first line, under any name; a log, a JSON array or other JSON Lines are not")
    func detection() {
        func detects(_ text: String, _ name: String = "import.jsonl") -> Bool {
            MattermostImporter.detect(
                ExportCandidate(url: URL(fileURLWithPath: "/in/" + name), isDirectory: false, head: Array(text.utf8)))
        }
        #expect(detects(Self.fixture.joined(separator: "\n")))
        #expect(
            detects("\u{FEFF}{\"type\":\"version\",\"version\":1}\r\n{\"type\":\"team\",\"team\":{}}\n", "export.json"))
        #expect(!detects(#"{"version": 1, "type": "personal_chat", "messages": []}"#, "result.json"))
        #expect(!detects("{\"type\":\"message\",\"version\":1}\n{\"type\":\"team\"}\n"))
        #expect(!detects("{\"type\":\"version\",\"version\":1}\nnot json\n"))
        #expect(!detects(#"[{"type":"version","version":1}]"#))
    }

    @Test("a post needs Markdown for an ordered list item on any of its lines, and not for plain lines")
    func orderedListItemsNeedMarkdown() {
        // The item pattern is compiled once (`orderedItem`); these are the lines it tells apart.
        let post = Array(repeating: "plain line of a post", count: 1_000).joined(separator: "\n")
        #expect(!MattermostPost.needsMarkdown(post))
        #expect(MattermostPost.needsMarkdown(post + "\n12) item") && MattermostPost.needsMarkdown("1. one"))
        #expect(!MattermostPost.needsMarkdown("1234567890. ten digits") && !MattermostPost.needsMarkdown("1.no space"))
    }
}

/// A test failure with a message (for `guard … else { throw }`).
private struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
