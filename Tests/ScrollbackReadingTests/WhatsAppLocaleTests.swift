import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading

/// WhatsApp chats as the apps write them in every language and calendar (issue 41, points 1, 2,
/// 4, 5; issue 40, points 3 and 10): iOS's `_chat.txt`, a bad line that no longer costs the
/// chat, the layouts of Arabic, Indonesian, Vietnamese, Finnish, Buddhist and Japanese phones,
/// every CLDR locale's short date and time, a format not recognised said out loud, the size
/// limit, UTF-16, and WhatsApp's emphasis rules.
@Suite struct WhatsAppLocaleTests {
    /// Writes `text` as `name` in a fresh folder and imports it through detection.
    static func importChat(
        _ text: String, name: String = "chat.txt", config: SiteConfig = SiteConfig()
    ) throws -> (detected: Bool, result: ImportedConversation?, exportDiagnostics: [Diagnostic]) {
        try importChat(Data(text.utf8), name: name, config: config)
    }

    static func importChat(
        _ data: Data, name: String, config: SiteConfig = SiteConfig()
    ) throws -> (detected: Bool, result: ImportedConversation?, exportDiagnostics: [Diagnostic]) {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try write(data, to: name, in: folder)
        let detected = WhatsAppImporter.detect(ExportCandidate(url: file))
        var conversations: [ImportedConversation] = []
        let diagnostics = WhatsAppImporter.read(
            DetectedExport(format: .whatsapp, items: [file], root: folder),
            context: ImportContext(root: folder, config: config), emit: { conversations.append($0) })
        return (detected, conversations.first, diagnostics)
    }

    /// The UTC wall-clock components of each message's date.
    static func stamps(_ conversation: Conversation?) -> [String] {
        let calendar = Calendar.gregorianUTC
        return (conversation?.messages ?? []).map {
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: $0.date)
            return String(
                format: "%04d-%02d-%02d %02d:%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
        }
    }

    // MARK: - 1. iOS `_chat.txt`

    @Test func iOSChatTxtIsReadAndNamedAfterItsFolder() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try write(
            "[18/03/2022, 14:56:01] Ana Lima: Olá\n[18/03/2022, 14:57:12] Bruno: Oi!\n",
            to: "WhatsApp Chat - Ana Lima/_chat.txt", in: folder)
        #expect(WhatsAppImporter.detect(ExportCandidate(url: file)))
        let imported = WhatsAppImporter.readChat(file, context: ImportContext(root: folder, config: SiteConfig()))
        let conversation = try #require(imported.conversation)
        #expect(conversation.title == "Ana Lima")
        #expect(conversation.id == "whatsapp-chat-ana-lima")
        #expect(conversation.messages.count == 2)
        // In the zip the share sheet makes, the zip names the chat.
        let shown = "input/WhatsApp Chat - Ana Lima.zip/_chat.txt"
        let name = WhatsAppImporter.chatName(of: URL(fileURLWithPath: "/tmp/unpacked/_chat.txt"), shown: shown)
        #expect(name == "WhatsApp Chat - Ana Lima")
        #expect(WhatsAppChatReader.title(fromFileName: name + ".txt") == "Ana Lima")
    }

    // MARK: - 2. One bad line

    @Test func aLineInTheOtherDateOrderKeepsTheWholeChat() throws {
        let text = """
            25/12/2023, 10:00 - Ann: one
            26/12/2023, 10:01 - Bob: two
            12/27/2023, 10:02 - Ann: three, written month first
            31/02/2024, 10:03 - Bob: four, no such day either way
            28/12/2023, 10:04 - Ann: five

            """
        let result = try #require(try Self.importChat(text).result)
        let conversation = try #require(result.conversation, "\(result.diagnostics)")
        #expect(
            conversation.messages.map(\.kind.plainText) == [
                "one", "two", "three, written month first", "four, no such day either way", "five",
            ])
        #expect(result.messagesIn == 5)
        #expect(
            Self.stamps(conversation) == [
                "2023-12-25 10:00:00", "2023-12-26 10:01:00", "2023-12-27 10:02:00", "2023-12-27 10:02:00",
                "2023-12-28 10:04:00",
            ])
        let warnings = result.diagnostics.filter { $0.severity == .warning }.map(\.description)
        #expect(warnings.contains { $0.contains("chat.txt:3:1:") && $0.contains("12/27/2023") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("chat.txt:4:1:") && $0.contains("31/02/2024") }, "\(warnings)")
        #expect(!result.diagnostics.contains { $0.severity == .error })
    }

    /// The shared langchain sample ends with `1/23/23, 3:22_AM - User 1: …`: a message of its own
    /// by User 1, dated like the one before it, never text added to User 2's "Bye!".
    @Test func aDamagedTimeStartsItsOwnMessageWithAWarning() throws {
        let text = """
            1/23/23, 3:19 AM - User 2: Bye!
            1/23/23, 3:22_AM - User 1: And let me know if anything changes
            1/23/23, 5 people - came, a line that only starts with the date

            """
        let result = try #require(try Self.importChat(text).result)
        let conversation = try #require(result.conversation, "\(result.diagnostics)")
        #expect(conversation.messages.count == 2)
        #expect(conversation.messages.map(\.sender) == ["user-2", "user-1"])
        #expect(conversation.messages[1].kind.plainText.hasPrefix("And let me know if anything changes\n1/23/23, 5"))
        #expect(Self.stamps(conversation) == ["2023-01-23 03:19:00", "2023-01-23 03:19:00"])
        let warnings = result.diagnostics.filter { $0.severity == .warning }.map(\.description)
        #expect(warnings.contains { $0.contains("chat.txt:2:1:") && $0.contains("3:22_AM") }, "\(warnings)")
    }

    @Test func anOrderLeftOpenByTheWholeFileIsTheLocalesWithAWarning() throws {
        let text = "05/03/2024, 10:00 - Ann: one\n05/03/2024, 10:01 - Bob: two\n"
        var config = SiteConfig()
        config.layout.locale = "en_US"
        let american = try #require(try Self.importChat(text, config: config).result)
        #expect(Self.stamps(american.conversation).first == "2024-05-03 10:00:00")
        #expect(american.diagnostics.contains { $0.description.contains("reads both as day/month and as month/day") })
        config.layout.locale = "pt_BR"
        let brazilian = try #require(try Self.importChat(text, config: config).result)
        #expect(Self.stamps(brazilian.conversation).first == "2024-03-05 10:00:00")
        // A day above 12 anywhere settles it: no warning.
        let settled = try #require(try Self.importChat(text + "13/03/2024, 09:00 - Ann: three\n").result)
        #expect(Self.stamps(settled.conversation).first == "2024-03-05 10:00:00")
        #expect(!settled.diagnostics.contains { $0.description.contains("reads both") })
    }

    // MARK: - 3. The layouts of other languages and calendars

    @Test(arguments: [
        // Arabic Android (Eastern Arabic digits, RLM after each date field, Arabic comma, `م`):
        // the shape of mtln/chat-export's Arabic test.
        (
            "٢٤\u{200F}/٣\u{200F}/٢٠٢٢، ٢:٠٧ م - عمار: السلام\n٢٤\u{200F}/٣\u{200F}/٢٠٢٢، ٢:٠٨ م - سارة: اهلين\n",
            ["2022-03-24 14:07:00", "2022-03-24 14:08:00"]
        ),
        // Indonesian: dotted times.
        (
            "18/03/22 14.56 - Budi: halo\n18/03/22 14.57 - Sari: hai\n",
            ["2022-03-18 14:56:00", "2022-03-18 14:57:00"]
        ),
        (
            "[18/03/22 14.56.01] Budi: halo\n[18/03/22 14.57.02] Sari: hai\n",
            ["2022-03-18 14:56:01", "2022-03-18 14:57:02"]
        ),
        // Vietnamese: the time first.
        (
            "14:56 18/3/22 - Lan: chào\n14:57 18/3/22 - Minh: chào bạn\n",
            ["2022-03-18 14:56:00", "2022-03-18 14:57:00"]
        ),
        (
            "[14:56:01, 18/3/2022] Lan: chào\n[14:57:02, 18/3/2022] Minh: chào bạn\n",
            ["2022-03-18 14:56:01", "2022-03-18 14:57:02"]
        ),
        // Buddhist calendar, with and without its era, and the Thai two-digit year.
        (
            "[3/18/2565 BE, 14:56:01] Somchai: สวัสดี\n[3/18/2565 BE, 14:57:02] Malee: ครับ\n",
            ["2022-03-18 14:56:01", "2022-03-18 14:57:02"]
        ),
        (
            "18/3/65 14:56 - Somchai: สวัสดี\n18/3/65 14:57 - Malee: ครับ\n",
            ["2022-03-18 14:56:00", "2022-03-18 14:57:00"]
        ),
        // Japanese calendar: Reiwa 4.
        (
            "[R4/03/18 14:56:01] 佐藤: こんにちは\n[R4/03/18 14:57:02] 鈴木: どうも\n",
            ["2022-03-18 14:56:01", "2022-03-18 14:57:02"]
        ),
        // Finnish `klo` with a dotted time (the layout in Pustur/whatsapp-chat-parser's tests).
        (
            "18.3.2022 klo 14.56.01 - Aino: moi\n18.3.2022 klo 14.57.02 - Eero: hei\n",
            ["2022-03-18 14:56:01", "2022-03-18 14:57:02"]
        ),
        // Korean and Chinese: the day period before the time.
        (
            "2022. 3. 18. 오후 2:56 - 민준: 안녕\n2022. 3. 18. 오후 2:57 - 서연: 네\n",
            ["2022-03-18 14:56:00", "2022-03-18 14:57:00"]
        ),
        (
            "[2022/3/18 下午2:56:01] 王: 你好\n[2022/3/18 下午2:57:02] 李: 好\n",
            ["2022-03-18 14:56:01", "2022-03-18 14:57:02"]
        ),
        // Persian (Solar Hijri year, Persian digits).
        (
            "۱۴۰۰/۱۲/۲۷, ۱۴:۵۶ - علی: سلام\n۱۴۰۰/۱۲/۲۷, ۱۴:۵۷ - مریم: سلام\n",
            ["2022-03-18 14:56:00", "2022-03-18 14:57:00"]
        ),
    ])
    func everyLayoutIsRead(_ text: String, _ expected: [String]) throws {
        let chat = try Self.importChat(text)
        #expect(chat.detected)
        let result = try #require(chat.result)
        let conversation = try #require(result.conversation, "\(result.diagnostics)")
        #expect(Self.stamps(conversation) == expected)
        #expect(conversation.participants.count == 2)
        #expect(conversation.messages.allSatisfy { $0.sender != nil })
    }

    @Test func aChatInAFormatNotRecognisedIsNamedNotPassedOver() throws {
        let chat = try Self.importChat("[18 March 2022, 14:56:01] Ann: hi\n[18 March 2022, 14:57:02] Bob: yo\n")
        #expect(chat.detected)
        #expect(chat.result == nil, "no empty page")
        let warning = try #require(chat.exportDiagnostics.first)
        #expect(warning.severity == .warning)
        #expect(warning.description.contains("chat.txt:1:1:"))
        #expect(
            warning.description.contains("a WhatsApp chat in a date format not recognised: `[18 March 2022, 14:56:01]`")
        )
        // A text file that is no chat stays unclaimed.
        let notes = try Self.importChat("Shopping list\n- milk\n")
        #expect(!notes.detected)
    }

    // MARK: - 4. Every locale CLDR knows

    @Test func frenchMediaMarkersAndRussianFileNamesAreUnderstood() throws {
        let text = "[12/03/2024, 14:23:11] Claire : sticker omis\n[12/03/2024, 14:24:11] Paul : vidéo absente\n"
        let result = try #require(try Self.importChat(text, name: "Чат WhatsApp с Claire.txt").result)
        let conversation = try #require(result.conversation)
        #expect(conversation.title == "Claire")
        #expect(conversation.messages.map(\.kind.name) == [.photo, .video])
        #expect(conversation.participants.map(\.name) == ["Claire", "Paul"])
    }

    /// Every language of CLDR (Foundation's available locales without a region), its short date
    /// with the medium and the short time, in the Android and the iOS layout: each message
    /// reads back to the instant it was written for. Morning and afternoon, a day above 12.
    @Test func everyLanguagesShortDateAndTimeReadsBack() throws {
        let languages = Locale.availableIdentifiers.filter { !$0.contains("_") && !$0.contains("@") }.sorted()
        #expect(languages.count > 100)
        let calendar = Calendar.gregorianUTC
        let instants = [
            calendar.date(from: DateComponents(year: 2022, month: 3, day: 18, hour: 9, minute: 5, second: 7))!,
            calendar.date(from: DateComponents(year: 2022, month: 3, day: 18, hour: 14, minute: 56, second: 1))!,
            calendar.date(from: DateComponents(year: 2022, month: 3, day: 19, hour: 23, minute: 7, second: 9))!,
        ]
        var failures: [String] = []
        for language in languages {
            for timeStyle in [DateFormatter.Style.medium, .short] {
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: language)
                formatter.timeZone = TimeZone(identifier: "UTC")
                formatter.dateStyle = .short
                formatter.timeStyle = timeStyle
                for bracketed in [false, true] {
                    let text = instants.enumerated().map { index, date in
                        let stamp = formatter.string(from: date)
                        return (bracketed ? "[\(stamp)] " : "\(stamp) - ") + "P\(index): m\(index)"
                    }.joined(separator: "\n")
                    let chat = WhatsAppChatText(text)
                    let read = chat.map { chat in
                        chat.entries.map {
                            WhatsAppChatText.date(of: $0.header, order: chat.order, calendars: .utc)
                        }
                    }
                    let expected = instants.map {
                        timeStyle == .medium
                            ? $0 : Date(timeIntervalSince1970: ($0.timeIntervalSince1970 / 60).rounded(.down) * 60)
                    }
                    if read != expected {
                        failures.append(
                            "\(language) \(bracketed ? "[…]" : "… -"): \(formatter.string(from: instants[1]))")
                    }
                }
            }
        }
        let checked = languages.count * 4
        print("WhatsApp layouts of \(languages.count) CLDR languages: \(checked - failures.count) of \(checked) read")
        for failure in failures { print("  not read: \(failure)") }
        #expect(failures.count * 20 <= checked, "more than 5% not read: \(failures)")
    }

    // MARK: - 6. Size limit and streaming

    @Test func aFileOverMaxLogBytesIsRefusedBeforeItIsRead() throws {
        var config = SiteConfig()
        config.maxLogBytes = 64
        let text = "18/03/22, 14:56 - Ann: " + String(repeating: "0", count: 200) + "\n"
        let result = try #require(try Self.importChat(text, config: config).result)
        #expect(result.conversation == nil)
        let error = try #require(result.diagnostics.first { $0.severity == .error })
        #expect(error.description.contains("chat.txt:1:1:"))
        #expect(error.description.contains("over the limit of 64 bytes"))

        // A sparse file (a few bytes on disk) is refused at once with the default limit.
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sparse = try write("18/03/22, 14:56 - Ann: hi\n", to: "sparse.txt", in: folder)
        // 1 TiB that no build could read whole (its bytes would not fit in memory): the size is
        // refused before a byte is read, or the test does not finish.
        let handle = try FileHandle(forWritingTo: sparse)
        try handle.truncate(atOffset: 1 << 40)
        try handle.close()
        let refused = WhatsAppImporter.readChat(sparse, context: ImportContext(root: folder, config: SiteConfig()))
        #expect(refused.conversation == nil)
        #expect(refused.diagnostics.contains { $0.description.contains("over the limit") })
    }

    @Test func linesAreReadAcrossChunkEdgesWhateverTheLineEnds() {
        let text = "18/03/22, 14:56 - Ann: é€😀\r\nnext\rlast\n\nend"
        let bytes = Array(text.utf8)
        for chunkSize in 1...7 {
            var offset = 0
            var reader = WhatsAppLineReader(nextChunk: {
                guard offset < bytes.count else { return nil }
                defer { offset += chunkSize }
                return Array(bytes[offset..<min(offset + chunkSize, bytes.count)])
            })
            var lines: [String] = []
            while let (line, valid) = reader.nextLine() {
                #expect(valid)
                lines.append(line)
            }
            #expect(lines == ["18/03/22, 14:56 - Ann: é€😀", "next", "last", "", "end"], "chunks of \(chunkSize)")
        }
    }

    @Test func aWholeFileInMemoryIsReadInLinearTime() {
        // 8 MB of 80-byte lines, the whole file one chunk (Signal's data.json, a chat from a zip):
        // moving the rest of the file at each line would take minutes.
        let line = Array((String(repeating: "x", count: 79) + "\n").utf8)
        let bytes = Array([[UInt8]](repeating: line, count: 100_000).joined())
        var reader = WhatsAppLineReader(bytes: bytes)
        var count = 0
        while reader.nextLine() != nil { count += 1 }
        #expect(count == 100_000)
        // Each move at most halves what is held: the bytes moved stay under the file's size.
        // (Moving the rest at each line moved about 400 GB here, 92 s in a debug build.)
        #expect(reader.bytesMoved <= bytes.count, "\(reader.bytesMoved) bytes moved for \(bytes.count)")
    }

    // MARK: - 7. UTF-16

    @Test(arguments: [String.Encoding.utf16LittleEndian, .utf16BigEndian])
    func aUTF16ChatWithItsByteOrderMarkIsRead(_ encoding: String.Encoding) throws {
        let text = "[18/03/2022, 14:56:01] Ann: grüß 😀\r\n[18/03/2022, 14:57:02] Bob: ok\r\n"
        var data = Data(encoding == .utf16LittleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF])
        data.append(try #require(text.data(using: encoding)))
        let chat = try Self.importChat(data, name: "chat.txt")
        #expect(chat.detected)
        let conversation = try #require(chat.result?.conversation)
        #expect(conversation.messages.map(\.kind.plainText) == ["grüß 😀", "ok"])
    }

    // MARK: - 5. Emphasis that ends in punctuation

    @Test(arguments: [
        ("*Bold!*", "<strong>Bold!</strong>"),
        ("~gone.~", "<del>gone.</del>"),
        ("_really?_ yes", "<em>really?</em> yes"),
        ("(*see*), ok", "(<strong>see</strong>), ok"),
        ("*bold _and italic_*", "<strong>bold <em>and italic</em></strong>"),
        ("2*3*4 and snake_case_name", "2*3*4 and snake_case_name"),
        ("* not bold *", "* not bold *"),
        ("*one\nline*", "*one<br />\nline*"),
    ])
    func whatsAppEmphasisFollowsWhatsAppsRules(_ body: String, _ html: String) throws {
        let markdown = try #require(WhatsAppFormatting.markdown(body))
        let root = URL(fileURLWithPath: "/nonexistent-whatsapp-test")
        var diagnostics: [Diagnostic] = []
        let rendered = ImportContext(root: root, config: SiteConfig()).richText(
            markdown: markdown, relativeTo: root.appendingPathComponent("chat.txt"),
            at: SourceLocation(file: "chat.txt", line: 1, column: 1), diagnostics: &diagnostics
        ).html
        #expect(rendered.contains(html), "\(markdown) → \(rendered)")
    }

    @Test func markersThatNeverCloseCostLinearTime() throws {
        // 90,000 openers that never close: quadratic work would take minutes.
        let body = String(repeating: " *x _y ~z", count: 30_000)
        var steps = 0
        let markdown = WhatsAppFormatting.emphasis(body, steps: &steps)
        // Two passes over the bytes plus each cursor's moves: a few steps a byte, never a scan
        // from each opener (quadratic: about 10⁹ here).
        #expect(steps <= 4 * body.utf8.count, "\(steps) steps for \(body.utf8.count) bytes")
        #expect(markdown == WhatsAppFormatting.markdown(body))
        #expect(!markdown.contains("**"))
    }
}
