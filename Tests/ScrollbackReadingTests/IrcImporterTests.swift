import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading

/// IRC clients' logs (issue 43): each dialect detected and read, events as system lines, `/me`
/// as an action, Latin-1 lines kept, and a folder of day files as one conversation. The
/// fixtures follow the clients' default log formats field by field; no real log has been met.
@Suite struct IrcImporterTests {
    /// Writes `files` (path → bytes) under a new folder and reads them as one export of `folder`,
    /// after checking that detection gives each to the IRC importer alone.
    static func read(
        _ files: [(String, [UInt8])], folder: String
    ) throws -> (conversations: [ImportedConversation], diagnostics: [Diagnostic]) {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        var urls: [URL] = []
        for (path, bytes) in files {
            let url = try write(Data(bytes), to: path, in: root)
            let claiming = ExportImporters.all.filter { $0.detect(ExportCandidate(url: url)) }.map { $0.format }
            #expect(claiming == [.irc], "\(path): \(claiming)")
            urls.append(url)
        }
        var conversations: [ImportedConversation] = []
        let diagnostics = IrcImporter.read(
            DetectedExport(format: .irc, items: urls, root: root.appendingPathComponent(folder)),
            context: ImportContext(root: root, config: SiteConfig()),
            emit: { conversations.append($0) })
        return (conversations, diagnostics)
    }

    static func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    static let irssi = Array(
        """
        --- Log opened Sun Jan 15 10:00:00 2023
        10:00 -!- ana [~ana@example.org] has joined #chan
        10:01 <@ana> hello *world*
        10:02  * bo waves
        10:03 -!- bo is now known as bob
        10:04 -NickServ(NickServ@services.)- This nickname is registered
        10:05 -!- mode/#chan [+o bob] by ChanServ
        something else
        --- Day changed Mon Jan 16 2023
        00:01 < bob> 🎉
        --- Log closed Mon Jan 16 12:00:00 2023

        """.utf8)

    @Test("irssi: messages, actions, events and notices; the day from `Log opened` and `Day changed`")
    func irssiLog() throws {
        let (conversations, diagnostics) = try Self.read([("libera/#chan.log", Self.irssi)], folder: "libera")
        #expect(diagnostics.isEmpty)
        let imported = try #require(conversations.first)
        let conversation = try #require(imported.conversation)
        #expect(conversation.id == "libera-chan" && conversation.title == "#chan")
        #expect(conversation.section == "libera" && conversation.chatType == .channel && conversation.me == nil)
        #expect(imported.messagesIn == 8 && conversation.messages.count == 7)
        #expect(imported.ledger.leftOut.map(\.location?.line) == [8])
        let messages = conversation.messages
        #expect(messages[0].kind == .system("ana [~ana@example.org] has joined #chan") && messages[0].sender == nil)
        #expect(messages[0].date == Self.utc("2023-01-15T10:00:00Z"))
        #expect(messages[1].kind == .text("hello *world*") && messages[1].sender == "ana")
        guard case .attributedText(let action) = messages[2].kind else {
            Issue.record("\(messages[2].kind)")
            return
        }
        #expect(messages[2].sender == "bo" && action.html.contains("<em>waves</em>"))
        #expect(messages[3].kind == .system("bo is now known as bob"))
        #expect(messages[4].kind == .text("This nickname is registered") && messages[4].sender == "NickServ")
        #expect(messages[5].kind == .system("mode/#chan [+o bob] by ChanServ"))
        #expect(messages[6].kind == .emoji("🎉") && messages[6].sender == "bob")
        #expect(messages[6].date == Self.utc("2023-01-16T00:01:00Z"))
        #expect(messages[6].source?.line == 10 && messages[6].source?.format == "irc")
        #expect(imported.diagnostics.map(\.description).contains { $0.contains(":8:1: warning: 1 line not in irssi") })
    }

    @Test("WeeChat and HexChat: prefixes as events, actions, the HexChat year from BEGIN LOGGING")
    func weechatAndHexChat() throws {
        let weechat = Array(
            """
            2023-01-15 10:00:00\t-->\tana (~ana@example.org) has joined #chan
            2023-01-15 10:01:00\t@ana\thi
            2023-01-15 10:02:00\t *\tana waves
            2023-01-15 10:03:00\t--\tana has changed topic for #chan to "plans"
            2023-01-15 10:04:00\t<--\tbo (~bo@example.org) has quit (Quit: bye)
            """.utf8)
        let (weechatRead, _) = try Self.read([("logs/irc.oftc.#chan.weechatlog", weechat)], folder: "logs")
        let chat = try #require(weechatRead.first?.conversation)
        #expect(chat.id == "oftc-chan" && chat.section == "oftc")
        #expect(chat.messages.map(\.sender) == [nil, "ana", "ana", nil, nil])
        #expect(chat.messages[3].kind == .system(#"ana has changed topic for #chan to "plans""#))

        let hexchat = Array(
            """
            **** BEGIN LOGGING AT Sat Dec 31 23:00:00 2022

            Dec 31 23:59:00 <ana>\thi
            Jan 01 00:00:01 *\tana is now known as anna
            Jan 01 00:00:02 *\tanna dances
            Jan 01 00:00:03 -->\tbo (~bo@example.org) has joined #chan
            **** ENDING LOGGING AT Sun Jan  1 00:10:00 2023
            """.utf8)
        let (hexRead, _) = try Self.read([("Libera.Chat/#chan.log", hexchat)], folder: "Libera.Chat")
        let hex = try #require(hexRead.first?.conversation)
        #expect(hexRead.first?.messagesIn == 4)
        #expect(
            hex.messages.map(\.date) == [
                Self.utc("2022-12-31T23:59:00Z"), Self.utc("2023-01-01T00:00:01Z"), Self.utc("2023-01-01T00:00:02Z"),
                Self.utc("2023-01-01T00:00:03Z"),
            ])
        #expect(hex.messages[1].kind == .system("ana is now known as anna") && hex.messages[1].sender == nil)
        #expect(hex.messages[2].sender == "anna" && hex.messages[2].kind.name == .attributedText)
    }

    @Test("a ZNC folder of day files is one conversation, each line dated by its file's name")
    func zncDayFiles() throws {
        let (conversations, diagnostics) = try Self.read(
            [
                ("libera/#chan/2023-01-16.log", Array("[09:00:00] <bo> second day\n".utf8)),
                (
                    "libera/#chan/2023-01-15.log",
                    Array("[10:00:00] *** Joins: ana (~ana@host)\n[10:01:00] <ana> hi\n[10:02:00] * ana waves\n".utf8)
                ),
            ], folder: "libera/#chan")
        #expect(diagnostics.isEmpty)
        #expect(conversations.count == 1)
        let imported = try #require(conversations.first)
        let conversation = try #require(imported.conversation)
        #expect(conversation.id == "libera-chan" && imported.sourceFiles.count == 2)
        #expect(
            conversation.messages.map(\.date) == [
                Self.utc("2023-01-15T10:00:00Z"), Self.utc("2023-01-15T10:01:00Z"), Self.utc("2023-01-15T10:02:00Z"),
                Self.utc("2023-01-16T09:00:00Z"),
            ])
        #expect(conversation.messages[0].kind == .system("Joins: ana (~ana@host)"))
    }

    @Test("a line that is not UTF-8 is read as Latin-1, with one warning for the file; none is dropped")
    func mixedEncodings() throws {
        var bytes = Array("[10:00:00] <ana> d".utf8) + [0xE9] + Array("j\u{E0}\n".utf8)
        bytes += Array("[10:01:00] <bo> caf".utf8) + [0xE9] + Array("\n[10:02:00] <bo> caf".utf8) + [0xE9, 0x0A]
        let (conversations, _) = try Self.read([("libera/#chan/2023-01-15.log", bytes)], folder: "libera/#chan")
        let imported = try #require(conversations.first)
        let conversation = try #require(imported.conversation)
        #expect(conversation.messages.map(\.kind) == [.text("déj\u{C3}\u{A0}"), .text("café"), .text("café")])
        let warnings = imported.diagnostics.filter { $0.severity == .warning }.map(\.description)
        #expect(warnings.count == 1 && warnings[0].contains(":1:1: warning: 3 lines are not UTF-8"), "\(warnings)")
    }

    @Test("IRC's bold, colour and reset codes are taken out of the text")
    func formattingCodes() throws {
        let line = "[10:00:00] <ana> \u{02}bold\u{02} \u{03}4,12red\u{03} \u{04}FF0000hex\u{0F} 5\u{03},x\n"
        let (conversations, _) = try Self.read(
            [("libera/#chan/2023-01-15.log", Array(line.utf8))], folder: "libera/#chan")
        let conversation = try #require(conversations.first?.conversation)
        #expect(conversation.messages.map(\.kind) == [.text("bold red hex 5,x")])
    }

    @Test("a longer log of the same channel keeps every message's id")
    func stableIDs() throws {
        let (older, _) = try Self.read([("libera/#chan.log", Self.irssi)], folder: "libera")
        let (newer, _) = try Self.read(
            [
                (
                    "libera/#chan.log",
                    Self.irssi + Array("--- Log opened Tue Jan 17 09:00:00 2023\n09:00 <ana> more\n".utf8)
                )
            ],
            folder: "libera")
        let old = try #require(older.first?.conversation).messages.map(\.id)
        let new = try #require(newer.first?.conversation).messages.map(\.id)
        #expect(new.count == old.count + 1 && Array(new.prefix(old.count)) == old)
    }

    @Test("LINE chats, WhatsApp chats, program logs and JSON are not taken for IRC logs")
    func detection() {
        func claims(_ text: String) -> Bool {
            IrcImporter.detect(
                ExportCandidate(url: URL(fileURLWithPath: "/x/a.log"), isDirectory: false, head: Array(text.utf8)))
        }
        #expect(claims(String(decoding: Self.irssi, as: UTF8.self)))
        #expect(!claims("[LINE] Chat history with Kaori\n\n2024/01/15(Mon)\n09:00\tKaori\thi\n09:01\tErik\tho\n"))
        #expect(!claims("1/29/18, 23:46 - Ana: hi\n1/29/18, 23:47 - Bo: ho\n"))
        #expect(!claims("2024-01-15 10:00:00 INFO starting\n2024-01-15 10:00:01 INFO ready\n"))
        #expect(!claims(#"{"version": "1.1", "messages": []}"#))
    }
}
