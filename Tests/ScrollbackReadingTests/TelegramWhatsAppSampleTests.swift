import Foundation
import ScrollbackModel
import ScrollbackTestSupport
import Testing

@testable import ScrollbackReading

/// Every Telegram and WhatsApp sample of `../shared/samples` through detection and its importer:
/// messages in the export (counted here from the raw files, independently of the importers) =
/// messages out, media resolved or named by a placeholder, ids unique and stable.
struct TelegramWhatsAppSampleTests {
    /// `../shared/samples` (`SharedSamples`); the tests fail where it is missing.
    static func samples() throws -> URL { try SharedSamples.folder() }

    static func files(in format: String) throws -> [URL] {
        let folder = try samples().appendingPathComponent(format)
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
        return enumerator.compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath && $0.pathExtension != "" }
            .sorted { $0.path < $1.path }
    }

    /// Runs detection over `file` and reads it with the importer that claims it.
    static func importFile(
        _ file: URL, root: URL? = nil
    ) -> (format: ExportFormat?, conversations: [ImportedConversation], diagnostics: [Diagnostic]) {
        let candidate = ExportCandidate(url: file)
        let claiming = ExportImporters.all.filter { $0.detect(candidate) }
        guard claiming.count == 1, let importer = claiming.first else { return (nil, [], []) }
        let root = root ?? file.deletingLastPathComponent()
        let context = ImportContext(root: root, config: SiteConfig())
        var conversations: [ImportedConversation] = []
        let diagnostics = importer.read(
            DetectedExport(format: importer.format, items: [file], root: root), context: context,
            emit: { conversations.append($0) })
        return (importer.format, conversations, diagnostics)
    }

    // MARK: - Independent counters

    /// Telegram: the entries of every chat's `messages` array, read with Foundation's JSON parser.
    static func telegramMessageCount(_ file: URL) throws -> Int {
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
        if let chats = root["chats"] as? [String: Any], let list = chats["list"] as? [[String: Any]] {
            return list.reduce(0) { $0 + (($1["messages"] as? [Any])?.count ?? 0) }
        }
        return (root["messages"] as! [Any]).count
    }

    /// WhatsApp: lines that start (after byte order and direction marks) with the timestamp
    /// pattern the file uses: a date of three numbers and a time, then `] ` or ` - `; the
    /// langchain sample's damaged `3:22_AM` counts (its line is a message of its own).
    static func whatsAppMessageCount(_ file: URL) throws -> Int {
        let text = try String(contentsOf: file, encoding: .utf8)
        let pattern = try NSRegularExpression(
            pattern:
                #"^\[?\d{1,4}[./-]\d{1,2}[./-]\d{2,4},?[ \u00A0\u202F]\d{1,2}:\d{2}(:\d{2})?([ \u00A0\u202F_]?[AaPp]\.?[ \u00A0\u202F]?[Mm]\.?)?\.?(\] | - )"#
        )
        var count = 0
        for line in text.components(separatedBy: "\n") {
            let cleaned = line.unicodeScalars.filter { $0 != "\u{FEFF}" && $0 != "\u{200E}" }
            let string = String(String.UnicodeScalarView(cleaned))
            let range = NSRange(string.startIndex..., in: string)
            if pattern.firstMatch(in: string, range: range) != nil { count += 1 }
        }
        return count
    }

    // MARK: - Every sample

    @Test func everyTelegramSampleKeepsEveryMessage() throws {
        let files = try Self.files(in: "telegram")
        #expect(files.count >= 13)
        var total = 0
        for file in files {
            let expected = try Self.telegramMessageCount(file)
            total += expected
            let result = Self.importFile(file)
            #expect(result.format == .telegram, Comment(rawValue: file.lastPathComponent))
            #expect(result.diagnostics == [], Comment(rawValue: file.lastPathComponent))
            #expect(result.conversations.count == 1, Comment(rawValue: file.lastPathComponent))
            let imported = try #require(result.conversations.first)
            let conversation = try #require(imported.conversation, "\(file.lastPathComponent): \(imported.diagnostics)")
            #expect(imported.messagesIn == expected, Comment(rawValue: file.lastPathComponent))
            #expect(conversation.messages.count == expected, Comment(rawValue: file.lastPathComponent))
            #expect(Set(conversation.messages.map(\.id)).count == expected, "ids are unique")
            Self.assertMediaResolvedOrNamed(conversation, file.lastPathComponent)
            print("telegram \(file.lastPathComponent): \(expected) in → \(conversation.messages.count) out")
        }
        #expect(total > 0)
    }

    @Test func everyWhatsAppSampleKeepsEveryMessage() throws {
        let files = try Self.files(in: "whatsapp")
        #expect(files.count == 24)
        for file in files {
            let expected = try Self.whatsAppMessageCount(file)
            let result = Self.importFile(file)
            #expect(result.format == .whatsapp, Comment(rawValue: file.lastPathComponent))
            let imported = try #require(result.conversations.first, Comment(rawValue: file.lastPathComponent))
            let conversation = try #require(imported.conversation, "\(file.lastPathComponent): \(imported.diagnostics)")
            #expect(expected > 0)
            #expect(imported.messagesIn == expected, Comment(rawValue: file.lastPathComponent))
            #expect(conversation.messages.count == expected, Comment(rawValue: file.lastPathComponent))
            #expect(Set(conversation.messages.map(\.id)).count == expected, "ids are unique")
            #expect(!(imported.diagnostics.contains { $0.severity == .error }), "\(imported.diagnostics)")
            Self.assertMediaResolvedOrNamed(conversation, file.lastPathComponent)
            print("whatsapp \(file.lastPathComponent): \(expected) in → \(conversation.messages.count) out")
        }
    }

    /// Every media reference is a file of the export or a placeholder that names what is missing.
    static func assertMediaResolvedOrNamed(_ conversation: Conversation, _ name: String) {
        for message in conversation.messages {
            var sources: [MediaSource] = []
            switch message.kind {
            case .photo(let media), .video(let media), .audio(let media): sources.append(media.source)
            case .file(let file): sources.append(file.source)
            default: break
            }
            for source in sources {
                switch source {
                case .local(let asset):
                    #expect(FileManager.default.fileExists(atPath: asset.sourcePath), Comment(rawValue: name))
                case .remote(let url): Issue.record("\(name): remote media \(url) in an export that has none")
                case .unavailable(let original):
                    #expect(
                        !original.trimmingCharacters(in: .whitespaces).isEmpty, "\(name): placeholder names nothing")
                }
            }
        }
    }

    // MARK: - Telegram details

    @Test func telegramDuplicateIDsAreAllKeptWithDerivedIDsAndWarnings() throws {
        let file = try Self.samples().appendingPathComponent("telegram/tsu2000-tele_dashboard/sample.json")
        let imported = try #require(Self.importFile(file).conversations.first)
        let conversation = try #require(imported.conversation)
        let ids = conversation.messages.map(\.id)
        #expect(ids.count == 256)
        #expect(ids.contains("69420"))
        #expect(ids.contains("69420-2"))
        #expect(ids.contains("69420-256"))
        #expect((imported.diagnostics.filter { $0.problem.message.contains("duplicate message id") }.count) == 255)
        // Every message keeps its Telegram id in `source`, with its JSON path and line.
        #expect(conversation.messages.allSatisfy { $0.source?.id == "69420" && $0.source?.path != nil })
        // The fake `date_unixtime` "0000000000" is ignored: dates come from `date`.
        #expect(conversation.messages.first?.date == ISO8601DateFormatter().date(from: "2022-03-21T11:11:11Z"))
        // Service actions are system messages with words, not codes.
        let system = conversation.messages.compactMap { message -> String? in
            if case .system(let text) = message.kind { return text }
            return nil
        }
        #expect(system.count == 6)
        #expect(system.contains("Joseph Joestar created the group “Sample Chat Group”"))
        #expect(system.contains("Joseph Joestar added A real snake 🐍"))
        #expect(system.contains("Joseph Joestar pinned a message"))
        // Edited and replies.
        #expect((conversation.messages.filter { $0.edited != nil }.count) == 16)
        #expect((conversation.messages.filter { $0.replyTo != nil }.count) == 25)
        // Photos not in the export: placeholders; stickers not in it: their emoji.
        let photos = conversation.messages.filter { $0.kind.name == .photo }
        #expect(photos.count == 14)
        #expect((conversation.messages.filter { $0.kind.name == .emoji }.count) == 13)
        #expect(
            photos.allSatisfy { if case .photo(let m) = $0.kind, case .unavailable = m.source { true } else { false } })
        #expect((conversation.messages.filter { $0.kind.name == .file }.count) == 3)
    }

    @Test func telegramMediaPollAndVoice() throws {
        let folder = try Self.samples().appendingPathComponent("telegram/korjavin-ragtgbot")
        let media = try #require(
            Self.importFile(folder.appendingPathComponent("test_case2.json")).conversations.first?.conversation)
        let kinds = media.messages.map(\.kind.name)
        #expect(kinds == [.system, .text, .photo, .photo, .file, .text, .photo, .audio, .text])
        if case .file(let item) = media.messages[4].kind {
            #expect(item.name == "document.pdf")
            #expect(item.size == 4_521_678)
            #expect(item.source == .unavailable(original: "document.pdf (not included in the export)"))
        } else {
            Issue.record()
        }
        if case .audio(let item) = media.messages[7].kind { #expect(item.duration == 12) } else { Issue.record() }
        if case .photo(let item) = media.messages[3].kind {
            #expect(item.caption == "Check this out!")
            #expect(item.size == PixelSize(width: 1920, height: 1080))
        } else {
            Issue.record()
        }

        let poll = try #require(
            Self.importFile(folder.appendingPathComponent("test_case3.json")).conversations.first?.conversation)
        let custom = poll.messages.compactMap { message -> CustomItem? in
            if case .custom(let item) = message.kind { return item }
            return nil
        }
        #expect(custom.count == 1)
        #expect(custom.first?.id == "poll")
        #expect(custom.first?.data["question"] == .string("What approach should we take for the next phase?"))
        if case .array(let options)? = custom.first?.data["options"] {
            #expect(options.count == 4)
            #expect(options.first?["label"] == .string("Continue with microservices"))
        } else {
            Issue.record("options")
        }
    }

    @Test func telegramEntitiesBecomeSafeFormattingAndAccountExportsSplitByChat() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try write("fake image", to: "chats/photos/photo_1.jpg", in: folder)
        let file = try write(
            """
            {"about": "Here is the data you requested.",
             "personal_information": {"user_id": 42, "first_name": "Ann"},
             "chats": {"about": "", "list": [
              {"name": "Bob", "type": "personal_chat", "id": 7, "messages": [
               {"id": 1, "type": "message", "date": "2024-05-01T10:00:00", "date_unixtime": "1714557600",
                "from": "Ann", "from_id": "user42",
                "text": ["Look ", {"type": "bold", "text": "<script>alert(1)</script>"}, " at ",
                         {"type": "text_link", "text": "this", "href": "javascript:alert(1)"}, " and ",
                         {"type": "link", "text": "https://example.com/a?b=1&c=2"}, "\\n",
                         {"type": "pre", "text": "let x = 1 < 2", "language": "swift"}]},
               {"id": 2, "type": "message", "date": "2024-05-01T10:01:00", "from": "Bob", "from_id": "user7",
                "forwarded_from": "Carol", "reply_to_message_id": 1, "photo": "photos/photo_1.jpg",
                "width": 10, "height": 20, "text": "",
                "reactions": [{"type": "emoji", "count": 1, "emoji": "👍", "recent": [{"from": "Ann", "from_id": "user42", "date": "2024-05-01T10:02:00"}]},
                              {"type": "emoji", "count": 5, "emoji": "🔥", "recent": [{"from": "Ann", "from_id": "user42", "date": "2024-05-01T10:03:00"}]}]},
               {"id": 3, "type": "message", "date": "2024-05-01T10:02:00", "from": "Bob", "from_id": "user7",
                "photo": "photos/missing.jpg", "text": "😀"},
               {"id": 4, "type": "message", "date": "2024-05-01T10:03:00", "from": "Bob", "from_id": "user7", "text": "🎉"}
              ]},
              {"name": "Bob", "type": "personal_chat", "id": 8, "messages": []}
             ]}}
            """, to: "chats/result.json", in: folder)
        let result = Self.importFile(file, root: folder)
        #expect(result.format == .telegram)
        #expect(result.conversations.count == 2)
        #expect((result.conversations.map { $0.conversation?.id }) == ["bob-7", "bob-8"])
        let chat = try #require(result.conversations.first?.conversation)
        #expect(chat.me == "user42")
        guard case .attributedText(let rich) = chat.messages[0].kind else {
            Issue.record("\(chat.messages[0].kind)")
            return
        }
        #expect(
            rich.html.contains("<strong>&lt;script&gt;alert(1)&lt;/script&gt;</strong>"), Comment(rawValue: rich.html))
        #expect(!rich.html.contains("javascript:"), Comment(rawValue: rich.html))
        #expect(!rich.html.contains("<script"), Comment(rawValue: rich.html))
        #expect(rich.html.contains("href=\"https://example.com/a?b=1&amp;c=2\""), Comment(rawValue: rich.html))
        #expect(rich.html.contains("<pre><code>let x = 1 &lt; 2</code></pre>"), Comment(rawValue: rich.html))
        #expect(rich.plainText.hasPrefix("Look <script>alert(1)</script> at this"))
        let photo = chat.messages[1]
        #expect(photo.forwardedFrom == "Carol")
        #expect(photo.replyTo == "1")
        // `recent` names the last few; `count` is how many reacted, as Telegram shows it.
        #expect(
            photo.reactions == [
                Reaction(emoji: "👍", senders: ["user42"]), Reaction(emoji: "🔥", senders: ["user42"], count: 5),
            ])
        #expect(photo.reactions.map(\.count) == [1, 5])
        guard case .photo(let item) = photo.kind, case .local = item.source else {
            Issue.record("\(photo.kind)")
            return
        }
        guard case .photo(let missing) = chat.messages[2].kind else {
            Issue.record()
            return
        }
        #expect(missing.source == .unavailable(original: "photos/missing.jpg"))
        #expect(missing.caption == "😀")
        #expect(chat.messages[3].kind == .emoji("🎉"))
        let warnings = result.conversations[0].diagnostics.map(\.description)
        #expect(warnings.contains { $0.contains("chats/result.json:") && $0.contains("missing.jpg") }, "\(warnings)")
    }

    /// A chat's type names its index section, as Telegram's chat folders do.
    @Test func telegramChatTypesAreIndexSections() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let chats = [
            ("personal_chat", "Personal chats"), ("private_supergroup", "Groups"), ("public_channel", "Channels"),
        ]
        for (type, section) in chats {
            let file = try write(
                """
                {"name": "X", "type": "\(type)", "id": 1, "messages": [
                 {"id": 1, "type": "message", "date": "2024-01-01T00:00:00", "date_unixtime": "1704067200", "from": "A", "from_id": "user1", "text": "a"}
                ]}
                """, to: "result.json", in: folder)
            let imported = try #require(Self.importFile(file).conversations.first?.conversation)
            #expect(imported.section == section, Comment(rawValue: type))
        }
        for file in try Self.files(in: "telegram") where file.lastPathComponent == "result.json" {
            for imported in Self.importFile(file).conversations {
                #expect(imported.conversation?.section == "Groups", Comment(rawValue: file.path))
            }
        }
    }

    @Test func telegramBrokenExportIsALocatedError() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try write(
            """
            {"name": "X", "type": "private_group", "id": 1, "messages": [
             {"id": 1, "type": "message", "date": "not a date", "date_unixtime": "0000000000", "from": "A", "text": "a"},
             {"id": 2, "type": "message", "date": "2024-01-01T00:00:00", "from": "A", "text": "b"}
            ]}
            """, to: "result.json", in: folder)
        let imported = try #require(Self.importFile(file).conversations.first)
        // One undated record never drops the chat: it is dated like its neighbour, with a warning.
        #expect(imported.conversation?.messages.count == 2)
        #expect(!(imported.diagnostics.contains { $0.severity == .error }))

        let warning = try #require(imported.diagnostics.first { $0.problem.message.contains("invalid date") })
        #expect(warning.location?.line == 2)
        #expect(warning.description.contains("result.json:2:"), Comment(rawValue: warning.description))
        #expect(warning.description.contains("$.messages[0]"), Comment(rawValue: warning.description))
    }

    // MARK: - WhatsApp details

    @Test func whatsAppDateOrderIsDetectedFromTheWholeFile() throws {
        let expected: [String: WhatsAppChatText.DateOrder] = [
            "test_ddmmyy_24hrs.txt": .dayMonthYear, "test_mmddyy_24hrs.txt": .monthDayYear,
            "test_yyyymmdd_24hrs.txt": .yearMonthDay, "test_dateformat5.txt": .monthDayYear,
            "test_dateformat1.txt": .monthDayYear, "test_dateformat3.txt": .yearMonthDay,
            "germanandroid24h.txt": .dayMonthYear, "englishiosampm.txt": .monthDayYear,
            "test_unicode.txt": .dayMonthYear,
        ]
        for file in try Self.files(in: "whatsapp") {
            guard let order = expected[file.lastPathComponent] else { continue }
            let chat = try #require(WhatsAppChatText(String(contentsOf: file, encoding: .utf8)))
            #expect(chat.order == order, Comment(rawValue: file.lastPathComponent))
        }
    }

    @Test func whatsAppSamplesReadLikeTheChat() throws {
        let folder = try Self.samples().appendingPathComponent("whatsapp/gesiscss-WhatsR")
        let english = try #require(
            Self.importFile(folder.appendingPathComponent("englishandroidampm.txt")).conversations.first?.conversation)
        #expect(english.title == "Whatsappparsertest2")
        #expect(english.participants.map(\.name) == ["Mallory", "Dave", "Alice", "Bob", "Carol"])
        #expect(english.me == nil, "`You added …` does not name the exporter")
        let byText = { (needle: String) in english.messages.first { $0.kind.plainText.contains(needle) } }
        #expect(byText("end-to-end encrypted")?.kind.name == .system)
        #expect(byText("You changed this group's icon")?.kind.name == .system)
        // `1/30/18, 00:04 AM` is 00:04; `12:00 AM` is midnight; `23:59 PM` is 23:59.
        let utc = Calendar.gregorianUTC
        let research = try #require(byText("By the way"))
        #expect(
            utc.dateComponents([.month, .day, .hour, .minute], from: research.date)
                == DateComponents(month: 1, day: 30, hour: 0, minute: 4))
        let location = try #require(english.messages.first { $0.kind.name == .location })
        #expect(location.kind == .location(LocationItem(latitude: 50.9425526, longitude: 6.9523387)))
        let voice = try #require(english.messages.first { $0.kind.name == .audio })
        #expect(
            voice.kind
                == .audio(
                    MediaItem(
                        source: .unavailable(original: "PTT-20180129-WA0025.opus"), title: "PTT-20180129-WA0025.opus")
                ))
        let omitted = try #require(english.messages.first { $0.kind.name == .file })
        #expect(omitted.kind == .file(FileItem(source: .unavailable(original: "<Media omitted>"))))
        #expect(english.messages.contains { $0.sender == "carol" && $0.kind == .text("") }, "an empty body is kept")

        let german = try #require(
            Self.importFile(folder.appendingPathComponent("germanios24h.txt")).conversations.first?.conversation)
        #expect((german.messages.filter { $0.kind.name == .system }.count) == 8)
        #expect(
            german.messages.contains { $0.kind == .location(LocationItem(latitude: 50.9425526, longitude: 6.9523387)) })
        #expect(
            german.messages.contains {
                if case .photo(let m) = $0.kind {
                    m.source == .unavailable(original: "Bild weggelassen")
                } else {
                    false
                }
            })
        // The byte order mark inside `JuKo00\u{FEFF}7` is dropped.
        let german12 = try #require(
            Self.importFile(folder.appendingPathComponent("germaniosampm.txt")).conversations.first?.conversation)
        #expect(german12.messages.contains { $0.kind == .text("https://github.com/JuKo007") })

        let miner = try Self.samples().appendingPathComponent("whatsapp/joweich-chat-miner")
        let phone = try #require(
            Self.importFile(miner.appendingPathComponent("test_dateformat1.txt")).conversations.first?.conversation)
        #expect(
            (phone.messages.first { $0.kind == .text(".") }?.sender) == "john-doe", "`John Doe:.` is John's message '.'"
        )
        #expect(phone.participants.contains(Participant(id: "12-345-578", name: "+12 345 578")))
        #expect(phone.messages.contains { $0.kind == .system("+12 345 578 created group \"Groupname\"") })
        #expect(
            phone.messages.contains {
                $0.kind
                    == .text(
                        "Lorem ipsum dolor sit amet,\nconsectetur adipiscing elit.\nPellentesque non tincidunt erat.\nNullam suscipit diam dolor, non pretium leo semper eu.\nAliquam pellentesque facilisis nunc eu rhoncus.\nCras scelerisque neque."
                    )
            })
        let unicode = try #require(
            Self.importFile(miner.appendingPathComponent("test_unicode.txt")).conversations.first?.conversation)
        #expect(unicode.participants.map(\.name) == ["John Doe", "John Doe 🤓", "🤓"])
        #expect(Set(unicode.participants.map(\.id)).count == 3)
        #expect(utc.component(.hour, from: unicode.messages[0].date) == 22, "`10:37 p. m.` with a no-break space")
        let twelve = try #require(
            Self.importFile(miner.appendingPathComponent("test_dateformat4.txt")).conversations.first?.conversation)
        #expect((twelve.messages.map { utc.component(.hour, from: $0.date) }) == [23, 12, 13, 14])
    }

    @Test func whatsAppZipLikeFolderWithMediaMarkersAndMe() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try write("OggS fake opus", to: "chat/PTT-20240101-WA0001.opus", in: folder)
        try write("fake jpeg", to: "chat/IMG-20240101-WA0002.jpg", in: folder)
        let file = try write(
            "\u{FEFF}[13/01/2024, 09:00:00] Ann: Hello\r\n"
                + "[13/01/2024, 09:01:00] Ann: \u{200E}<attached: PTT-20240101-WA0001.opus>\r\n"
                + "[13/01/2024, 09:02:00] Bob: \u{200E}<attached: IMG-20240101-WA0002.jpg>\r\nNice view\r\n"
                + "[13/01/2024, 09:03:00] Bob: \u{200E}<attached: 00000003-VIDEO-2024-01-13.mp4>\r\n"
                + "[13/01/2024, 09:04:00] Ann: You deleted this message\r\n"
                + "[13/01/2024, 09:05:00] Bob: This message was deleted\r\n"
                + "[13/01/2024, 09:06:00] Bob: Fixed it <This message was edited>\r\n"
                + "[13/01/2024, 09:07:00] Bob: 👍👍\r\n"
                + "[13/01/2024, 09:08:00] Bob: <script>alert(1)</script>\r\n",
            to: "chat/_chat.txt", in: folder)
        let imported = try #require(Self.importFile(file, root: folder).conversations.first)
        let chat = try #require(imported.conversation)
        #expect(chat.id == "chat")
        #expect(chat.me == "ann", "the sender of 'You deleted this message' is the exporter")
        #expect(chat.messages.count == 9)
        guard case .audio(let voice) = chat.messages[1].kind, case .local = voice.source else {
            Issue.record("\(chat.messages[1].kind)")
            return
        }
        guard case .photo(let photo) = chat.messages[2].kind, case .local = photo.source else {
            Issue.record()
            return
        }
        #expect(photo.caption == "Nice view")
        guard case .video(let video) = chat.messages[3].kind else {
            Issue.record()
            return
        }
        #expect(video.source == .unavailable(original: "00000003-VIDEO-2024-01-13.mp4"))
        #expect(
            imported.diagnostics.contains {
                $0.description.contains("/chat/_chat.txt:5:") && $0.description.contains("00000003-VIDEO")
            }, "\(imported.diagnostics)")
        #expect(chat.messages[4].deleted)
        #expect(chat.messages[5].deleted)
        #expect(chat.messages[6].kind == .text("Fixed it"))
        #expect(chat.messages[6].edited != nil)
        #expect(chat.messages[7].kind == .emoji("👍👍"))
        #expect(chat.messages[8].kind == .text("<script>alert(1)</script>"), "text stays text; the renderer escapes it")
        #expect(Calendar.gregorianUTC.component(.day, from: chat.messages[0].date) == 13)
    }

    @Test func whatsAppNonMessageLinesAreNeverLost() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notes = try write("Shopping list\n- milk\n1/2/2024 is a date\n", to: "notes.txt", in: folder)
        #expect(!WhatsAppImporter.detect(ExportCandidate(url: notes)), "no message line: not a WhatsApp export")
        let context = ImportContext(root: folder, config: SiteConfig())
        let read = WhatsAppImporter.readChat(notes, context: context)
        #expect(read.conversation == nil)
        #expect(read.diagnostics.first?.description.contains("notes.txt:1:1: error:") ?? false, "\(read.diagnostics)")

        let mixed = try write(
            "exported by a tool\n1/2/24, 10:00 - Ann: hi\nnot a header 99/99/99\n1/2/24, 10:01 - Bob: yo\n",
            to: "mixed.txt", in: folder)
        let chat = try #require(WhatsAppImporter.readChat(mixed, context: context).conversation)
        #expect(chat.messages.map(\.kind.plainText) == ["exported by a tool", "hi\nnot a header 99/99/99", "yo"])

        // A chat none of whose dates is a date has nothing to date its messages by: an error,
        // and the line is named.
        let impossible = try write("31/02/24, 10:00 - Ann: hi\n", to: "bad.txt", in: folder)
        let bad = WhatsAppImporter.readChat(impossible, context: context)
        #expect(bad.conversation == nil)
        #expect(bad.diagnostics.contains { $0.severity == .error && $0.location?.line == 1 })
        #expect(
            bad.diagnostics.contains {
                $0.severity == .warning && $0.location?.line == 1 && $0.description.contains("31/02/24")
            })
    }

    // MARK: - A newer export keeps every permalink

    @Test func newerExportsKeepEveryID() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for sample in try Self.files(in: "whatsapp") {
            let old = try #require(Self.importFile(sample).conversations.first?.conversation)
            var text = try String(contentsOf: sample, encoding: .utf8)
            if !text.hasSuffix("\n") { text += "\n" }
            let last = try #require(WhatsAppChatText(text)?.entries.last)
            let bracketed =
                text.unicodeScalars.first { !WhatsAppChatText.isDirectionMark($0) && $0 != "\u{FEFF}" } == "["
            text += (bracketed ? "[\(last.stamp)] " : "\(last.stamp) - ") + "Zed: one more\n"
            let newer = try write(text, to: "newer-\(sample.lastPathComponent)", in: folder)
            let new = try #require(
                Self.importFile(newer).conversations.first?.conversation, Comment(rawValue: sample.lastPathComponent))
            #expect(new.messages.count == (old.messages.count + 1), Comment(rawValue: sample.lastPathComponent))
            #expect(
                Set(old.messages.map(\.id)).isSubset(of: Set(new.messages.map(\.id))),
                Comment(rawValue: sample.lastPathComponent))
        }
        for sample in try Self.files(in: "telegram") {
            let old = try #require(Self.importFile(sample).conversations.first?.conversation)
            var root = try JSONSerialization.jsonObject(with: Data(contentsOf: sample)) as! [String: Any]
            var messages = root["messages"] as! [[String: Any]]
            messages.append([
                "id": 99_999_999, "type": "message", "date": "2030-01-01T00:00:00", "from": "Zed", "from_id": "user1",
                "text": "one more",
            ])
            root["messages"] = messages
            let newer = try write(
                JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys]),
                to: "newer-\(sample.lastPathComponent)", in: folder)
            let imported = try #require(Self.importFile(newer).conversations.first)
            let new = try #require(
                imported.conversation,
                "\(sample.lastPathComponent): \(imported.diagnostics.filter { $0.severity == .error })")
            #expect(new.messages.count == (old.messages.count + 1), Comment(rawValue: sample.lastPathComponent))
            #expect(Array(new.messages.map(\.id).prefix(old.messages.count)) == old.messages.map(\.id))
            #expect(new.messages.last?.id == "99999999")
        }
    }
}
