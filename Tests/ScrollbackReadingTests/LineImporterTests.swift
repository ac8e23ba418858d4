import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading

/// LINE's "Export chat history" text (issue 43): the header, localised day lines and clocks,
/// tab-separated rows, quoted messages of several lines, media markers, and every row counted.
/// The fixtures follow the shape public LINE parsers' fixtures show, field by field; no real
/// export has been met yet.
@Suite struct LineImporterTests {
    /// Reads `text` saved as `name`, after checking that detection gives it to LINE alone.
    static func read(_ text: String, name: String = "[LINE] Chat with Kaori.txt") throws -> ImportedConversation {
        let root = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = try write(text, to: name, in: root)
        let claiming = ExportImporters.all.filter { $0.detect(ExportCandidate(url: file)) }.map { $0.format }
        #expect(claiming == [.line], "\(claiming)")
        var conversations: [ImportedConversation] = []
        let diagnostics = LineImporter.read(
            DetectedExport(format: .line, items: [file], root: root),
            context: ImportContext(root: root, config: SiteConfig()),
            emit: { conversations.append($0) })
        #expect(diagnostics.isEmpty)
        #expect(conversations.count == 1)
        return try #require(conversations.first)
    }

    /// A one-to-one chat as an English phone writes it.
    static let english = """
        [LINE] Chat history with Kaori Date
        Saved on: 2018/03/25 19:57

        2015/12/25(Fri)
        07:33\tErik\tMerry Christmas!
        07:34\tKaori Date\t"Merry Christmas!
        See you "soon" then
        bye"
        07:35\tKaori Date\t[Photo]
        07:35\tErik\t[Sticker]
        07:36\tKaori Date unsent a message.
        07:37\tErik\t🎄🎅

        2015/12/26(Sat)
        08:35\tKaori Date\t"quoted" on one line
        """

    static func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test("an English one-to-one chat: rows, quoted lines, markers, notices, emoji; the exporter is `me`")
    func englishChat() throws {
        let imported = try Self.read(Self.english)
        let conversation = try #require(imported.conversation)
        #expect(conversation.title == "Kaori Date")
        #expect(conversation.id == "kaori-date")
        #expect(conversation.me == "Erik")
        #expect(conversation.chatType == .direct)
        #expect(imported.messagesIn == 7 && conversation.messages.count == 7 && imported.leftOut == 0)
        let messages = conversation.messages
        #expect(messages[0].kind == .text("Merry Christmas!") && messages[0].sender == "Erik")
        #expect(messages[0].date == Self.utc("2015-12-25T07:33:00Z"))
        #expect(messages[1].kind == .text("Merry Christmas!\nSee you \"soon\" then\nbye"))
        #expect(messages[1].location.line == 6)
        guard case .file(let photo) = messages[2].kind, case .unavailable("[Photo]") = photo.source else {
            Issue.record("\(messages[2].kind)")
            return
        }
        #expect(messages[4].kind == .system("Kaori Date unsent a message.") && messages[4].sender == nil)
        #expect(messages[5].kind == .emoji("🎄🎅"))
        #expect(messages[6].kind == .text("\"quoted\" on one line"))
        #expect(messages[6].source?.line == 15 && messages[6].source?.format == "line")
        // One warning names the markers, located at the first.
        let warnings = imported.diagnostics.map(\.description)
        #expect(
            warnings.count == 1 && warnings[0].contains(":9:1: warning: 2 media markers such as '[Photo]'"),
            "\(warnings)")
    }

    @Test(
        "day lines and clocks in each language: weekdays and 12-hour marks from CLDR, a Buddhist-era year",
        arguments: [
            // Japanese: 午前/午後 before the time.
            (
                "[LINE] Kaoriとのトーク履歴\n保存日時：2021/04/30 午後1:16\n\n2021/01/01(金)\n午後05:38\tKaori\tこんにちは",
                "2021-01-01T17:38:00Z"
            ),
            // Traditional Chinese: a full-width bracket and 下午.
            ("[LINE] 與Kaori的聊天記錄\n\n2024/01/15（週一）\n下午2:05\tKaori\t你好", "2024-01-15T14:05:00Z"),
            ("[LINE] Kaori的聊天记录\n\n2026/1/30周五\n上午9:05\tKaori\t你好", "2026-01-30T09:05:00Z"),
            // A notice of two tabs and no sender.
            (
                "[LINE] Chat history with Kaori\n\n2024/01/15(Mon)\n09:00\tKaori\thi\n09:01\t\tKaori unsent a message.",
                "2024-01-15T09:00:00Z"
            ),
            // Thai: the Buddhist era, told by its weekday (15 January 2024 was a Monday).
            ("[LINE] ประวัติการแชทกับ Kaori\n\n2567/01/15(จ.)\n09:00\tKaori\tสวัสดี", "2024-01-15T09:00:00Z"),
            // Indonesian: day first, settled by the weekday (2 January 2024 was a Tuesday).
            ("[LINE] Riwayat chat dengan Kaori\n\nSel, 02/01/2024\n09:00\tKaori\thalo", "2024-01-02T09:00:00Z"),
            // US English: month first (1 February 2024 was a Thursday), a 12-hour clock.
            ("[LINE] Chat history with Kaori\n\nThu, 02/01/2024\n8:15AM\tKaori\thi", "2024-02-01T08:15:00Z"),
            ("[LINE] Chat history with Kaori\n\n2024.02.01 Thursday\n12:30 PM\tKaori\thi", "2024-02-01T12:30:00Z"),
        ])
    func localisedDays(text: String, date: String) throws {
        let imported = try Self.read(text)
        let conversation = try #require(imported.conversation)
        #expect(conversation.messages.first?.date == Self.utc(date))
        #expect(imported.messagesIn == text.split(separator: "\n").filter { $0.contains("\t") }.count)
        #expect(conversation.title == "Kaori")
    }

    @Test("a group: its title is the header's name, no `me`; rows before any day or on no day are left out")
    func groupAndBrokenRows() throws {
        let text = """
            [LINE] Chat history with Pizza Tonight
            10:00\tAna\ttoo early
            2024/02/30(Fri)
            10:01\tAna\tno such day
            2024/03/01(Fri)
            some stray words
            10:02\tAna\thello
            10:03\tBo\t"never closed
            still open
            10:04\tCy\thi
            10:05\tBo\tAna joined the group
            """
        let imported = try Self.read(text, name: "[LINE] Chat with Pizza Tonight.txt")
        let conversation = try #require(imported.conversation)
        #expect(conversation.title == "Chat history with Pizza Tonight")
        #expect(conversation.chatType == .group && conversation.me == nil)
        #expect(imported.messagesIn == 7)
        #expect(imported.ledger.leftOut.map(\.location?.line) == [2, 4, 6])
        #expect(
            conversation.messages.map(\.kind) == [
                .text("hello"), .text("\"never closed\nstill open"), .text("hi"), .text("Ana joined the group"),
            ])
        let lines = imported.diagnostics.compactMap(\.location?.line)
        #expect(lines == [2, 4, 6, 8], "\(imported.diagnostics)")
    }

    @Test("a newer export of the same chat keeps every message's id")
    func stableIDs() throws {
        let older = try #require(try Self.read(Self.english).conversation)
        let newer = try #require(
            try Self.read(
                Self.english.replacingOccurrences(of: "Saved on: 2018/03/25 19:57", with: "Saved on: 2019/01/01 10:00")
                    + "\n09:00\tErik\tmore"
            ).conversation)
        #expect(newer.messages.count == older.messages.count + 1)
        #expect(Array(newer.messages.map(\.id).prefix(older.messages.count)) == older.messages.map(\.id))
        #expect(Set(older.messages.map(\.id)).count == older.messages.count)
    }

    @Test("WhatsApp chats, tab-separated tables and Scrollback logs are not taken for LINE")
    func detection() throws {
        func claims(_ text: String) -> Bool {
            LineImporter.detect(
                ExportCandidate(url: URL(fileURLWithPath: "/x/chat.txt"), isDirectory: false, head: Array(text.utf8)))
        }
        #expect(claims(Self.english))
        #expect(!claims("1/29/18, 23:46 - Ana: hi\n1/29/18, 23:47 - Bo: ho\n"))
        #expect(!claims("name\tage\tcity\nAna\t30\tLisbon\n"))
        #expect(!claims(#"{"version": "1.1", "messages": []}"#))
        #expect(!claims("[LINE] Chat history with Kaori\nSaved on: 2018/03/25 19:57\n"))
    }
}
