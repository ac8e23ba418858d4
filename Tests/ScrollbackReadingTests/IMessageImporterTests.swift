import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading

/// imessage-exporter's TXT output (issue 43): kinds, tapbacks, replies, edits, unsent parts,
/// announcements, files inside the export, who `me` is, and every record counted. No real export
/// has been met: the fixtures follow the writer (`imessage-exporter/src/exporters/txt.rs`) line by line.
@Suite struct IMessageImporterTests {
    /// Writes `files` (path → bytes) under a new folder and reads the `.txt` ones as one export,
    /// after checking that detection gives each to the iMessage importer alone.
    static func read(
        _ files: [(String, Data)], config: SiteConfig = SiteConfig()
    ) throws -> [ImportedConversation] {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        var chats: [URL] = []
        for (path, bytes) in files {
            let url = try write(bytes, to: path, in: root)
            guard path.hasSuffix(".txt") else { continue }
            let claiming = ExportImporters.all.filter { $0.detect(ExportCandidate(url: url)) }.map { $0.format }
            #expect(claiming == [.imessage], "\(path): \(claiming)")
            chats.append(url)
        }
        var conversations: [ImportedConversation] = []
        let diagnostics = IMessageImporter.read(
            DetectedExport(format: .imessage, items: chats, root: root),
            context: ImportContext(root: root, config: config), emit: { conversations.append($0) })
        #expect(diagnostics.isEmpty)
        return conversations
    }

    /// A named group's chat as the writer lays it out: an announcement, a message with tapbacks and
    /// a reply in its thread (written again at its own time), a photo with text, an edited part, an
    /// unsent part, a sticker with an effect, and a member leaving.
    static let family = """
        May 17, 2022  5:29:42 PM You renamed the conversation to Family

        May 17, 2022  5:30:00 PM (Read by them after 1 hour, 49 seconds)
        Me
        Hello world
        second line
        Tapbacks:
        Loved by +15551234567
        Liked by ana@example.com
        ☕️ by Ana Example

            May 17, 2022  5:31:10 PM
            +15551234567
            Replying in the thread


        May 17, 2022  5:31:10 PM (Read by you after 3 seconds)
        +15551234567
        Replying in the thread
        This message responded to an earlier message.

        May 18, 2022 10:02:03 AM
        ana@example.com
        attachments/12/photo.png
        Look at this

        May 18, 2022 10:05:00 AM
        Ana Example
        May 18, 2022 10:05:00 AM First version
        Edited 5 seconds later: Second version
        Edited 1 minute, 2 seconds later: Final version


        May 18, 2022 10:06:00 AM
        Me
        You unsent this message part 3 seconds after sending!

        May 18, 2022 10:07:00 AM
        Me
        Sticker from Me: attachments/12/sticker.png (App: Memoji)
        Sent with Slam

        May 18, 2022 10:08:00 AM Ana Example left the conversation.


        """

    static func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test("a group chat: kinds, tapbacks as reactions, the reply, edits, unsent, announcements, me")
    func groupChat() throws {
        let conversations = try Self.read([
            ("Family - 12.txt", Data(Self.family.utf8)),
            ("attachments/12/photo.png", MetaImporterTests.png),
            ("attachments/12/sticker.png", MetaImporterTests.png),
        ])
        let imported = try #require(conversations.first)
        #expect(imported.diagnostics.isEmpty, "\(imported.diagnostics)")
        let conversation = try #require(imported.conversation)
        #expect(conversation.id == "family" && conversation.title == "Family" && conversation.chatType == .group)
        #expect(conversation.me == "Me" && conversation.timeZone == "UTC")
        // Nine records: the indented copy of the reply is left out, the reply built at its own time.
        #expect(imported.messagesIn == 9 && imported.messagesOut == 8 && imported.leftOut == 1)
        #expect(imported.ledger.leftOut.map(\.location?.line) == [12])
        let messages = conversation.messages
        #expect(messages[0].kind == .system("You renamed the conversation to Family") && messages[0].sender == nil)
        #expect(messages[0].date == Self.utc("2022-05-17T17:29:42Z"))
        #expect(messages[1].kind == .text("Hello world\nsecond line") && messages[1].sender == "Me")
        #expect(messages[1].status == .read && messages[1].source?.line == 3)
        #expect(messages[1].reactions.map(\.emoji) == ["\u{2764}\u{FE0F}", "\u{1F44D}", "☕️"])
        #expect(messages[1].reactions.map(\.senders) == [["+15551234567"], ["ana@example.com"], ["Ana Example"]])
        #expect(messages[2].kind == .text("Replying in the thread") && messages[2].replyTo == messages[1].id)
        #expect(messages[2].sender == "+15551234567" && messages[2].status == nil)
        guard case .photo(let photo) = messages[3].kind else {
            Issue.record("\(messages[3].kind)")
            return
        }
        #expect(photo.caption == "Look at this" && photo.size?.width == 2)
        #expect(messages[4].kind == .text("Final version"))
        #expect(messages[4].edited == Self.utc("2022-05-18T10:06:07Z"))
        #expect(messages[5].deleted && messages[5].sender == "Me")
        guard case .photo(let sticker) = messages[6].kind else {
            Issue.record("\(messages[6].kind)")
            return
        }
        #expect(sticker.alt?.hasPrefix("Sticker from Me") == true)
        #expect(messages[7].kind == .system("Ana Example left the conversation."))
        #expect(Set(messages.map(\.id)).count == messages.count)
    }

    @Test("a newer export of the same chat keeps every id; the reply's copy is built when its own is missing")
    func stableIDsAndLoneCopy() throws {
        let first = try #require(try Self.read([("Family - 12.txt", Data(Self.family.utf8))]).first?.conversation)
        let longer = Self.family + "May 19, 2022  9:00:00 AM\nMe\nOne more\n\n"
        let second = try #require(try Self.read([("Family - 12.txt", Data(longer.utf8))]).first?.conversation)
        #expect(Array(second.messages.map(\.id).prefix(first.messages.count)) == first.messages.map(\.id))

        // The reply's own copy cut off: the indented copy is the message.
        let cut = Self.family.replacingOccurrences(
            of: "May 17, 2022  5:31:10 PM (Read by you after 3 seconds)\n+15551234567\nReplying in the thread\n"
                + "This message responded to an earlier message.\n\n", with: "")
        let imported = try #require(try Self.read([("Family - 12.txt", Data(cut.utf8))]).first)
        let messages = try #require(imported.conversation?.messages)
        #expect(imported.messagesIn == 8 && imported.leftOut == 0 && messages.count == 8)
        let reply = try #require(messages.first { $0.kind == .text("Replying in the thread") })
        #expect(reply.replyTo == messages[1].id && reply.source?.line == 12)
    }

    @Test("a one-to-one chat named by a handle; --custom-name found from the read receipts; files outside the export")
    func customNameAndOutsideFiles() throws {
        let chat = """
            Dec 17, 2024  4:31:51 PM
            Jess
            Ohh ok

            Dec 17, 2024 10:14:08 PM (Read by Jess after 11 seconds)
            +15557654321
            /Users/jess/Library/Messages/Attachments/ab/11/GUID/IMG_0001.HEIC
            Attachment missing!

            """
        let imported = try #require(try Self.read([("+15557654321.txt", Data(chat.utf8))]).first)
        let conversation = try #require(imported.conversation)
        #expect(conversation.me == "Jess" && conversation.chatType == .direct)
        #expect(conversation.id == "15557654321" && conversation.title == "+15557654321")
        guard case .attributedText(let rich) = conversation.messages[1].kind else {
            Issue.record("\(conversation.messages[1].kind)")
            return
        }
        #expect(rich.plainText.contains("IMG_0001.HEIC (file not in this export)"))
        #expect(rich.plainText.contains("Attachment missing!"))
        // The Mac's own file is never read: a located warning says so.
        #expect(
            imported.diagnostics.map(\.description).contains {
                $0.contains(":5:1: warning: the file 'IMG_0001.HEIC' is on the exporting machine, not in the export")
            }, "\(imported.diagnostics)")
    }

    @Test("a reply with tapbacks in its thread, the older `Reactions:`, sticker tapbacks, transcriptions, orphaned.txt")
    func threadTapbacksAndOlderLayout() throws {
        // As the writer lays a reply with tapbacks out under its message: the tapbacks' lines
        // indented twice, a blank line after them and another after the reply.
        let chat = """
            Jan 02, 2021  1:00:00 AM
            Unknown
            This message was deleted from the conversation!
            attachments/orphaned/voice.caf
            Transcription: Call me back
            Reactions:
            Sticker from Ana: attachments/orphaned/s.png (App: Memoji) from Ana
            Sticker from Bo not found!
            Unknown emoji! by Bo

                Jan 02, 2021  1:05:00 AM
                Ana
                In the thread
                Tapbacks:
                    Loved by Me



            Jan 02, 2021  1:05:00 AM
            Ana
            In the thread
            Tapbacks:
            Loved by Me

            This message responded to an earlier message.


            """
        let imported = try #require(
            try Self.read([
                ("orphaned.txt", Data(chat.utf8)), ("attachments/orphaned/s.png", MetaImporterTests.png),
                ("attachments/orphaned/voice.caf", Data("not audio".utf8)),
            ]).first)
        let conversation = try #require(imported.conversation)
        #expect(conversation.title == "Messages of no chat" && conversation.chatType == nil)
        #expect(imported.messagesIn == 3 && imported.leftOut == 1 && conversation.messages.count == 2)
        let first = conversation.messages[0]
        guard case .file(let file) = first.kind else {
            Issue.record("\(first.kind)")
            return
        }
        #expect(file.name == "voice.caf" && file.caption == "Transcription: Call me back")
        #expect(first.reactions.count == 3 && first.reactions[0].customEmoji != nil)
        #expect(first.reactions.map(\.senders) == [["Ana"], ["Bo"], ["Bo"]])
        let reply = conversation.messages[1]
        #expect(reply.kind == .text("In the thread") && reply.replyTo == first.id)
        #expect(reply.reactions.map(\.emoji) == ["\u{2764}\u{FE0F}"] && reply.reactions[0].senders == ["Me"])
        #expect(imported.diagnostics.filter { $0.severity != .note }.isEmpty, "\(imported.diagnostics)")
    }

    @Test("broken records are left out with a located warning each; the rest of the file is built")
    func brokenRecords() throws {
        let chat = """
            May 17, 2022  5:29:42 PM
            Me
            fine

            Feb 30, 2022  5:29:42 PM
            Me
            a day that does not exist

            May 17, 2022  5:31:00 PM
            Me
            also fine

            May 17, 2022  5:32:00 PM

            """
        let imported = try #require(try Self.read([("Ana.txt", Data(chat.utf8))]).first)
        let conversation = try #require(imported.conversation)
        #expect(conversation.messages.map(\.kind) == [.text("fine"), .text("also fine")])
        #expect(imported.messagesIn == 4 && imported.leftOut == 2)
        #expect(imported.ledger.leftOut.map(\.location?.line) == [5, 13])
        let warnings = imported.diagnostics.filter { $0.severity == .warning }
        #expect(warnings.map(\.location?.line) == [5, 13], "\(imported.diagnostics)")
        #expect(warnings.last?.description.contains("expected a time line") == true)
    }

    @Test("a time before the year 1 in the site's zone leaves that record out, not the conversation")
    func timeOutOfRange() throws {
        // Midnight of Jan 1, year 1 in Tokyo is still year 0 in UTC: outside the dates a site shows.
        let chat = "May 17, 2022  5:29:42 PM\nMe\nfine\n\nJan 01, 0001 12:00:00 AM\nMe\ntoo early\n\n"
        var config = SiteConfig()
        config.layout.timeZone = "Asia/Tokyo"
        let imported = try #require(try Self.read([("Ana.txt", Data(chat.utf8))], config: config).first)
        #expect(imported.conversation?.messages.map(\.kind) == [.text("fine")], "\(imported.diagnostics)")
        #expect(imported.messagesIn == 2 && imported.ledger.leftOut.map(\.location?.line) == [5])
    }

    @Test("other apps' text exports are not taken for iMessage")
    func otherTextExports() throws {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let others = [
            "[1/2/24, 9:41:05 PM] Alice: Lunch on the 13th?\n",
            "12/1/2023, 21:42 - Bob: Same to you\n",
            "[2019-12-24, 12:23] Ana: hi\n",
            "[LINE] Chat history with Kaori\n",
            "--- Log opened Sun Jan 15 10:00:00 2023\n10:00 <@ana> hello\n",
            "May 17, 2022  5:29:42 PM\n\nno sender\n",
        ]
        for (index, text) in others.enumerated() {
            let url = try write(text, to: "other-\(index).txt", in: root)
            #expect(!IMessageImporter.detect(ExportCandidate(url: url)), "\(text)")
        }
        let log = try write(Self.family, to: "chat.log", in: root)
        #expect(!IMessageImporter.detect(ExportCandidate(url: log)))
    }
}
