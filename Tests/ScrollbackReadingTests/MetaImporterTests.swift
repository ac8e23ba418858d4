import Foundation
import ScrollbackModel
import ScrollbackTestSupport
import Testing

@testable import ScrollbackReading

/// Meta's "Download your information" JSON (Facebook Messenger and Instagram, issue 43): the
/// mojibake, the kinds, multi-part threads, stable ids, and every record counted.
@Suite struct MetaImporterTests {
    /// A 2×1 PNG: an image whose size the media reader reads from its bytes.
    static let png = Data(
        base64Encoded:
            "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAE/wEHAAH/4iOeWQAAAABJRU5ErkJggg==")!

    /// Reads `files` (relative paths under `root`) as one export of the files' folder, after
    /// checking that detection gives each of them to the Meta importer alone.
    static func read(
        _ files: [URL], root: URL
    ) -> (conversations: [ImportedConversation], diagnostics: [Diagnostic]) {
        for file in files {
            let claiming = ExportImporters.all.filter { $0.detect(ExportCandidate(url: file)) }.map { $0.format }
            #expect(claiming == [.meta], "\(file.lastPathComponent): \(claiming)")
        }
        var conversations: [ImportedConversation] = []
        let diagnostics = MetaImporter.read(
            DetectedExport(format: .meta, items: files, root: root),
            context: ImportContext(root: root, config: SiteConfig()),
            emit: { conversations.append($0) })
        return (conversations, diagnostics)
    }

    /// A DYI thread file: `messages` (JSON objects, newest first as Meta writes them).
    static func thread(_ messages: [String], title: String = "Ana", path: String = "inbox/ana_42") -> String {
        #"{"participants": [{"name": "Ana"}, {"name": "Bo"}], "messages": ["# + messages.joined(separator: ", ")
            + #"], "title": "\#(title)", "is_still_participant": true, "thread_path": "\#(path)", "magic_words": []}"#
    }

    @Test("mojibake is undone only when the whole string is UTF-8 bytes, one a scalar")
    func mojibake() {
        #expect(MetaText.decoded("J\u{e2}\u{9d}\u{a4}\u{ef}\u{b8}\u{8f}hn") == "J❤️hn")
        #expect(MetaText.decoded("caf\u{c3}\u{a9} \u{f0}\u{9f}\u{92}\u{96}") == "café 💖")
        // Not mojibake: real Latin-1 text, text past U+00FF, ASCII.
        #expect(MetaText.decoded("café") == "café")
        #expect(MetaText.decoded("caf\u{c3}\u{a9} 日本") == "caf\u{c3}\u{a9} 日本")
        #expect(MetaText.decoded("plain") == "plain")
    }

    @Test("every shared Messenger and Instagram sample: records in = messages out + left out, names decoded")
    func sharedSamples() throws {
        let samples = try SharedSamples.folder()
        var checked = 0
        for format in ["messenger", "instagram"] {
            let folder = samples.appendingPathComponent(format)
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
            for file in files {
                let (conversations, diagnostics) = Self.read([file], root: file.deletingLastPathComponent())
                #expect(!diagnostics.contains { $0.severity == .error }, "\(diagnostics)")
                #expect(conversations.count == 1)
                guard let imported = conversations.first, let conversation = imported.conversation else {
                    Issue.record("\(file.lastPathComponent) built nothing: \(conversations.first?.diagnostics ?? [])")
                    continue
                }
                // Counted with Foundation's parser, not the importer's.
                var data = try Data(contentsOf: file)
                if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = data.dropFirst(3) }
                let raw = try JSONSerialization.jsonObject(with: data) as? [String: Any]
                let count = (raw?["messages"] as? [Any])?.count
                #expect(imported.messagesIn == count)
                #expect(imported.messagesOut + imported.leftOut == imported.messagesIn)
                #expect(Set(conversation.messages.map(\.id)).count == conversation.messages.count)
                #expect(conversation.messages.allSatisfy { $0.source?.format == format })
                #expect(zip(conversation.messages, conversation.messages.dropFirst()).allSatisfy { $0.date <= $1.date })
                checked += 1
            }
        }
        #expect(checked == 4)
    }

    @Test("the Instagram sample: decoded names and reactions, the join notice, the share card")
    func instagramSample() throws {
        let file = try SharedSamples.folder().appendingPathComponent(
            "instagram/joweich-chat-miner/testlog.json")
        let conversation = try #require(
            Self.read([file], root: file.deletingLastPathComponent()).conversations.first?.conversation)
        #expect(conversation.id == "testlog-2765720812686121")
        #expect(conversation.chatType == .group)
        #expect(conversation.participants.map(\.name).contains("J❤️hn Doe"))
        let reacted = try #require(conversation.messages.first { $0.kind == .text("Testing message with reactions.") })
        #expect(reacted.reactions.map(\.emoji) == ["❤️", "💖"])
        #expect(reacted.reactions.first?.senders == ["J❤️hn Doe"])
        #expect(
            conversation.messages.contains { $0.sender == "❤️" && $0.kind == .text("Testing username only emoji: ❤️") })
        #expect(conversation.messages.contains { $0.kind == .system("Jane Doe joined the group.") && $0.sender == nil })
        let share = try #require(conversation.messages.first { $0.sender == "Lionel Messi" })
        guard case .linkPreview(let text, let link) = share.kind else {
            Issue.record("the share is \(share.kind)")
            return
        }
        #expect(text == "John Doe sent an attachment.")
        #expect(link.url == "https://www.instagram.com/p/CmUv48DLvxd/?feed_type=reshare_chaining")
        // Meta writes the newest first; the conversation reads oldest first, ids are the times.
        #expect(conversation.messages.first?.id == "1419440880000")
    }

    @Test("a Messenger one-to-one chat: the exporter is the one the title does not name; stickers are photos")
    func messengerSample() throws {
        let file = try SharedSamples.folder().appendingPathComponent(
            "messenger/mlomb-chat-analytics/2A_7M.json")
        let (conversations, _) = Self.read([file], root: file.deletingLastPathComponent())
        let imported = try #require(conversations.first)
        let conversation = try #require(imported.conversation)
        #expect(conversation.id == "alice-aaaaaaaaaa")
        #expect(conversation.me == "Bob")
        #expect(conversation.chatType == .direct)
        let sticker = try #require(conversation.messages.first { $0.id == "1415147254275" })
        // The sticker lies outside the thread's folder: a placeholder, with a warning.
        #expect(
            sticker.kind
                == .photo(
                    MediaItem(
                        source: .unavailable(original: "messages/stickers_used/123123123123123.png"), alt: "Sticker")))
        #expect(imported.diagnostics.contains { $0.severity == .warning && $0.location?.line == 56 })
    }

    @Test("a thread in two parts is one conversation, oldest first; media resolve inside the thread's folder")
    func multiPartThread() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = "your_activity_across_facebook/messages/inbox/ana_42"
        let uri = folder + "/photos/1.png"
        let newer = try write(
            Self.thread([
                #"{"sender_name": "Bo", "timestamp_ms": 3000, "photos": [{"uri": "\#(uri)", "creation_timestamp": 3}]}"#,
                #"{"sender_name": "Ana", "timestamp_ms": 2000, "content": "two"}"#,
            ]), to: folder + "/message_1.json", in: root)
        let older = try write(
            Self.thread([#"{"sender_name": "Ana", "timestamp_ms": 1000, "content": "one"}"#]),
            to: folder + "/message_2.json", in: root)
        try write(Self.png, to: folder + "/photos/1.png", in: root)
        let threadFolder = newer.deletingLastPathComponent()
        let (conversations, diagnostics) = Self.read([newer, older], root: threadFolder)
        #expect(diagnostics.isEmpty)
        #expect(conversations.count == 1)
        let conversation = try #require(conversations.first?.conversation)
        #expect(conversation.id == "ana-42")
        #expect(conversation.messages.map(\.id) == ["1000", "2000", "3000"])
        #expect(conversation.me == "Bo")
        guard case .photo(let photo) = conversation.messages[2].kind, case .local(let asset) = photo.source else {
            Issue.record("\(conversation.messages[2].kind)")
            return
        }
        #expect(asset.pixelSize == PixelSize(width: 2, height: 1))
        #expect(conversations[0].sourceFiles.count == 2)
    }

    @Test("calls, unsent messages, members, renames, media, shares and stubs each read as their kind")
    func kinds() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let messages = [
            #"{"sender_name": "Ana", "timestamp_ms": 12000, "reactions": [{"reaction": "\u00f0\u009f\u0091\u008d", "actor": "Bo"}]}"#,
            #"{"sender_name": "Ana", "timestamp_ms": 11000, "share": {"share_text": "Live location"}}"#,
            #"{"sender_name": "Ana", "timestamp_ms": 10000, "content": "look", "share": {"link": "javascript:alert(1)"}}"#,
            #"{"sender_name": "Bo", "timestamp_ms": 9000, "sticker": {"uri": "messages/stickers_used/s.png"}}"#,
            #"{"sender_name": "Bo", "timestamp_ms": 8000, "files": [{"uri": "inbox/ana_42/files/a.pdf"}], "audio_files": [{"uri": "inbox/ana_42/audio/b.mp4"}]}"#,
            #"{"sender_name": "Bo", "timestamp_ms": 7000, "content": "Bo named the group Trip."}"#,
            #"{"sender_name": "Bo", "timestamp_ms": 6000, "type": "Unsubscribe", "users": [{"name": "Bo"}]}"#,
            #"{"sender_name": "Ana", "timestamp_ms": 5000, "type": "Subscribe", "users": [{"name": "Cy"}, {"name": "Di"}]}"#,
            #"{"sender_name": "Ana", "timestamp_ms": 4000, "is_unsent": true, "reactions": [{"reaction": "x", "actor": "Bo"}]}"#,
            #"{"sender_name": "Ana", "timestamp_ms": 3000, "content": "Ana started a call.", "call_duration": 125}"#,
            #"{"sender_name": "Bo", "timestamp_ms": 2000, "content": "again"}"#,
            #"{"sender_name": "Ana", "timestamp_ms": 2000, "content": "same millisecond"}"#,
        ]
        let file = try write(
            Self.thread(messages, title: "Trip", path: "inbox/ana_42"), to: "inbox/ana_42/message_1.json", in: root)
        let (conversations, _) = Self.read([file], root: file.deletingLastPathComponent())
        let imported = try #require(conversations.first)
        let conversation = try #require(imported.conversation)
        #expect(imported.messagesIn == messages.count && imported.messagesOut == messages.count)
        let byID = Dictionary(uniqueKeysWithValues: conversation.messages.map { ($0.id, $0) })
        #expect(byID["2000"]?.kind == .text("same millisecond"))
        #expect(byID["2000-2"]?.kind == .text("again"))
        #expect(byID["3000"]?.kind == .system("Ana started a call. (2:05)"))
        #expect(byID["3000"]?.sender == nil)
        #expect(byID["4000"]?.deleted == true)
        #expect(byID["4000"]?.reactions.first?.senders == ["Bo"])
        #expect(byID["5000"]?.kind == .system("Ana added Cy, Di."))
        #expect(byID["6000"]?.kind == .system("Bo left the group."))
        #expect(byID["7000"]?.kind == .system("Bo named the group Trip."))
        guard case .attributedText(let rich) = byID["8000"]?.kind else {
            Issue.record("\(String(describing: byID["8000"]?.kind))")
            return
        }
        #expect(rich.plainText.contains("a.pdf (file not in this export)"))
        #expect(rich.plainText.contains("b.mp4 (file not in this export)"))
        #expect(
            byID["9000"]?.kind
                == .photo(MediaItem(source: .unavailable(original: "messages/stickers_used/s.png"), alt: "Sticker")))
        // A link that is not a web address is no card: its text stays.
        #expect(byID["10000"]?.kind == .text("look"))
        #expect(byID["11000"]?.kind == .text("Live location"))
        #expect(byID["12000"]?.kind.plainText == "No content in this export")
        #expect(byID["12000"]?.kind.name == .attributedText)
        #expect(byID["12000"]?.reactions.first?.emoji == "👍")
    }

    @Test("entries that are no message, or have no time, are left out with a located reason; the rest is built")
    func brokenRecords() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let text = Self.thread([
            #"{"sender_name": "Ana", "timestamp_ms": 2000, "content": "kept"}"#, "42",
            #"{"sender_name": "Ana", "timestamp_ms": "soon", "content": "no time"}"#,
            #"{"timestamp_ms": 1000, "content": "no sender"}"#,
        ])
        let file = try write(text, to: "message_1.json", in: root)
        let imported = try #require(Self.read([file], root: root).conversations.first)
        #expect(imported.messagesIn == 4)
        #expect(imported.messagesOut == 2)
        #expect(
            imported.ledger.leftOut.map(\.reason) == [
                "a message without a readable timestamp_ms", "an entry of 'messages' that is not a message object",
            ])
        #expect(imported.ledger.leftOut.allSatisfy { $0.location?.line == 1 && ($0.location?.column ?? 0) > 1 })
        #expect(imported.conversation?.messages.first?.sender == "Unknown")
    }

    @Test("a thread file that is not JSON is a located error; the other threads are built")
    func brokenFile() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let good = try write(
            Self.thread([#"{"sender_name": "Ana", "timestamp_ms": 1000, "content": "hi"}"#]), to: "a.json", in: root)
        let broken = try write(
            "{\"participants\": [], \"thread_path\": \"inbox/b_1\",\n \"messages\": [{\"sender_name\": \"Ana\", \"timestamp_ms\": 1 ,]}",
            to: "b.json", in: root)
        let (conversations, diagnostics) = Self.read([good, broken], root: root)
        #expect(conversations.compactMap(\.conversation).map(\.id) == ["ana-42"])
        let error = try #require(diagnostics.first)
        #expect(error.severity == .error)
        #expect(error.location?.file.hasSuffix("b.json") == true)
        #expect(error.location?.line == 2)
    }

    @Test("the end-to-end encrypted download: camelCase, a shared media folder, the title without its number")
    func endToEndEncrypted() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try write(Self.png, to: "media/0b6e.png", in: root)
        let file = try write(
            #"{"participants": ["Ana Silva", "Bo"], "threadName": "Ana Silva_40", "messages": ["#
                + #"{"senderName": "Bo", "timestamp": 1000, "text": "olá ❤️", "type": "text", "media": [], "reactions": [], "isUnsent": false},"#
                + #"{"senderName": "Ana Silva", "timestamp": 2000, "text": "", "type": "media", "media": [{"uri": "./media/0b6e.png"}], "reactions": [{"actor": "Bo", "reaction": "❤"}], "isUnsent": false},"#
                + #"{"senderName": "Bo", "timestamp": 3000, "text": "", "type": "text", "media": [], "reactions": [], "isUnsent": true}]}"#,
            to: "Ana Silva_40.json", in: root)
        let conversation = try #require(Self.read([file], root: root).conversations.first?.conversation)
        #expect(conversation.id == "ana-silva-40")
        #expect(conversation.title == "Ana Silva")
        #expect(conversation.me == "Bo")
        #expect(conversation.messages.map(\.id) == ["1000", "2000", "3000"])
        #expect(conversation.messages[0].kind == .text("olá ❤️"))
        guard case .photo(let photo) = conversation.messages[1].kind, case .local = photo.source else {
            Issue.record("\(conversation.messages[1].kind)")
            return
        }
        #expect(conversation.messages[2].deleted)
        #expect(conversation.messages.allSatisfy { $0.source?.format == "messenger" })
    }

    @Test("a newer download of the same chat, split into other parts, keeps every message's id")
    func idsStableAcrossDownloads() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        func message(_ time: Int, _ sender: String = "Ana") -> String {
            #"{"sender_name": "\#(sender)", "timestamp_ms": \#(time), "content": "m\#(time)"}"#
        }
        let first = try write(
            Self.thread([message(3000), message(2000, "Bo"), message(2000), message(1000)]), to: "old/message_1.json",
            in: root)
        let newer1 = try write(Self.thread([message(4000), message(3000)]), to: "new/message_1.json", in: root)
        let newer2 = try write(
            Self.thread([message(2000, "Bo"), message(2000), message(1000)]), to: "new/message_2.json", in: root)
        func ids(_ files: [URL]) throws -> [String: String] {
            let conversation = try #require(
                Self.read(files, root: files[0].deletingLastPathComponent()).conversations.first?.conversation)
            #expect(conversation.id == "ana-42")
            return Dictionary(
                uniqueKeysWithValues: conversation.messages.map { ($0.id, $0.kind.plainText + ($0.sender ?? "")) })
        }
        let before = try ids([first])
        let after = try ids([newer1, newer2])
        #expect(before.count == 4 && after.count == 5)
        for (id, body) in before { #expect(after[id] == body, "\(id)") }
    }

    @Test("Scrollback's own logs and other apps' JSON are not taken for Meta threads")
    func detection() {
        func claims(_ text: String) -> Bool {
            MetaImporter.detect(
                ExportCandidate(url: URL(fileURLWithPath: "/in/x.json"), isDirectory: false, head: Array(text.utf8)))
        }
        #expect(claims(#"{"participants": [], "messages": [], "thread_path": "inbox/a_1"}"#))
        #expect(claims(#"{"messages": [{"sender_name": "A", "timestamp_ms": 1}]}"#))
        #expect(claims(#"{"participants": ["A"], "threadName": "A_1", "messages": []}"#))
        #expect(
            !claims(#"{"version": "1.1", "participants": [], "messages": [{"sender_name": "x", "timestamp_ms": 1}]}"#))
        #expect(!claims(#"{"messages": [{"creator": {"name": "A"}, "created_date": "x", "text": "hi"}]}"#))
        #expect(!claims(#"{"name": "C", "type": "personal_chat", "id": 1, "messages": []}"#))
    }
}
