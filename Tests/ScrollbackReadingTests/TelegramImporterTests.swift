import Foundation
import ScrollbackModel
import ScrollbackTestSupport
import Testing

@testable import ScrollbackReading

/// Telegram Desktop exports as people have them (issue 41): records the exporter could not
/// write, broken records, the extras of newer exports, whole-account exports and the two clocks.
/// Fixtures follow the shapes `export_output_json.cpp` writes.
@Suite struct TelegramImporterTests {
    /// Reads `json` as `result.json` of a fresh export folder.
    static func read(_ json: String, zone: String = "UTC") throws -> [ImportedConversation] {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try write(json, to: "result.json", in: folder)
        var config = SiteConfig()
        config.layout.timeZone = zone
        let context = ImportContext(root: folder, config: config)
        #expect(TelegramImporter.detect(ExportCandidate(url: file)))
        var conversations: [ImportedConversation] = []
        let diagnostics = TelegramImporter.read(
            DetectedExport(format: .telegram, items: [file], root: folder), context: context,
            emit: { conversations.append($0) })
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        return conversations
    }

    /// One chat export holding `messages` (JSON text of the array's entries).
    static func chat(_ messages: String) -> String {
        #"{"name": "Club", "type": "private_group", "id": 77, "messages": ["# + messages + "]}"
    }

    static func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    static func warnings(_ imported: ImportedConversation) -> [String] {
        imported.diagnostics.filter { $0.severity == .warning }.map(\.description)
    }

    // MARK: - One bad record never drops the chat

    @Test func unsupportedAndUndatedRecordsAreKeptAndTheChatIsBuilt() throws {
        let imported = try #require(
            try Self.read(
                Self.chat(
                    """
                    {"id": 1, "type": "unsupported"},
                    {"id": 2, "type": "message", "date": "2024-05-01T10:00:00", "from": "Ann", "from_id": "user1", "text": "first"},
                    {"id": 3, "type": "unsupported"},
                    {"id": 4, "type": "message", "date": "not a date", "from": "Ann", "from_id": "user1", "text": "no date"},
                    5,
                    {"id": 6, "type": "message", "date": "2024-05-01T11:00:00", "from": "Bob", "from_id": "user2", "text": "last"}
                    """)
            ).first)
        let conversation = try #require(imported.conversation, "\(imported.diagnostics)")
        #expect(!imported.diagnostics.contains { $0.severity == .error }, "\(imported.diagnostics)")
        #expect(conversation.messages.map(\.id) == ["1", "2", "3", "4", "6"])
        let placeholders = conversation.messages.filter { $0.kind == .system(TelegramChatReader.unsupportedText) }
        #expect(placeholders.map(\.id) == ["1", "3"])
        // Dated like the neighbour: the first by the message after it, the rest by the one before.
        #expect(
            conversation.messages.map(\.date) == [
                Self.utc("2024-05-01T10:00:00Z"), Self.utc("2024-05-01T10:00:00Z"), Self.utc("2024-05-01T10:00:00Z"),
                Self.utc("2024-05-01T10:00:00Z"), Self.utc("2024-05-01T11:00:00Z"),
            ])
        #expect(conversation.messages[3].kind == .text("no date"))
        // The ledger: six records, five messages, one left out with its reason.
        #expect(imported.ledger.recordsRead == 6)
        #expect(imported.ledger.messagesBuilt == 5)
        #expect(imported.ledger.leftOut.map(\.reason) == ["not a message object (a number)"])
        #expect(imported.ledger.leftOut.first?.location?.line == 5)
        #expect(imported.ledger.unexplained == 0)
        let warnings = Self.warnings(imported)
        #expect(warnings.contains { $0.contains("'not a date'") && $0.contains("dated like its neighbour") })
        #expect(warnings.contains { $0.contains("$.messages[4]") && $0.contains("left out") })
    }

    @Test func aChatOfOnlyUndatedRecordsLeavesThemOutWithAReason() throws {
        let imported = try #require(
            try Self.read(Self.chat(#"{"id": 1, "type": "unsupported"}, {"id": 2, "type": "unsupported"}"#)).first)
        #expect(imported.conversation?.messages.isEmpty == true)
        #expect(imported.ledger.recordsRead == 2)
        #expect(imported.ledger.leftOut.count == 2)
        #expect(imported.ledger.unexplained == 0)
        #expect(Self.warnings(imported).count == 2)
    }

    /// `broken/…/error-unexpected.json`: an unknown `type`, a string `from_id`, `text` as an
    /// object, misspelt keys, an unknown `media_type` and a duplicate id. Every record is on the
    /// site, each problem a located warning.
    @Test func theBrokenSampleKeepsEveryRecordWithLocatedWarnings() throws {
        let samples = try SharedSamples.folder()
        let file = samples.appendingPathComponent(
            "broken/telegram/innerdvations-telegram-chat-parser/error-unexpected.json")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let records = try #require(root["messages"] as? [Any]).count
        let imported = try #require(try Self.read(String(contentsOf: file, encoding: .utf8)).first)
        let conversation = try #require(imported.conversation, "\(imported.diagnostics)")
        #expect(!imported.diagnostics.contains { $0.severity == .error }, "\(imported.diagnostics)")
        #expect(imported.ledger.recordsRead == records)
        #expect(conversation.messages.count == records)
        #expect(Set(conversation.messages.map(\.id)).count == records)
        let warnings = Self.warnings(imported)
        for expected in [
            "type 'ERROR:wrong_type' is not known", "'from_id' has the wrong type", "'text' has the wrong type",
            "unknown field 'ERROR:saved_from'", "did you mean 'saved_from'", "unknown field 'ERROR:from_id'",
            "unknown field 'ERROR:text'", "unknown field 'ERROR:id'", "media type 'ERROR:media_type'",
            "duplicate message id '173429'", "missing required field 'text'",
        ] {
            #expect(warnings.contains { $0.contains(expected) }, "\(expected) in \(warnings)")
        }
        // Located: file, line and column of the record or field.
        #expect(imported.diagnostics.allSatisfy { ($0.location?.line ?? 0) > 1 && ($0.location?.column ?? 0) > 0 })
        let textObject = try #require(
            imported.diagnostics.first { $0.description.contains("'text' has the wrong type") })
        #expect(textObject.location?.line == 51)
        // The record with `text` as an object is shown with a note, not as an empty bubble.
        let unreadable = try #require(conversation.messages.first { $0.id == "176169" })
        #expect(unreadable.kind.plainText.contains("could not be read"))
    }

    // MARK: - Extras

    @Test func stickersTodoListsGiveawaysInvoicesGamesAndInformationShowTheirContent() throws {
        let imported = try #require(
            try Self.read(
                Self.chat(
                    #"""
                    {"id": 1, "type": "message", "date": "2025-07-01T10:00:00", "date_unixtime": "1751364000", "from": "Ann", "from_id": "user1",
                     "file": "(File not included. Change data exporting settings to download.)", "file_size": 20000,
                     "thumbnail": "(File not included. Change data exporting settings to download.)",
                     "media_type": "sticker", "sticker_emoji": "🤭", "width": 512, "height": 512, "text": "", "text_entities": []},
                    {"id": 2, "type": "message", "date": "2025-07-01T10:01:00", "date_unixtime": "1751364060", "from": "Ann", "from_id": "user1",
                     "todo_list": {"title": ["Trip ", {"type": "bold", "text": "prep"}], "others_can_append": true, "others_can_complete": true,
                      "answers": [{"text": "Tickets", "id": 1}, {"text": "Tent", "id": 2}]},
                     "text": "", "text_entities": []},
                    {"id": 3, "type": "service", "date": "2025-07-01T10:02:00", "date_unixtime": "1751364120", "actor": "Bob", "actor_id": "user2",
                     "action": "todo_completions", "completed": [2], "incompleted": [], "text": "", "text_entities": []},
                    {"id": 4, "type": "message", "date": "2025-07-01T10:03:00", "date_unixtime": "1751364180", "from": "News", "from_id": "channel5",
                     "giveaway_information": {"quantity": 3, "months": 6, "until_date": "2025-07-08T10:00:00", "channels": [5], "countries": ["DE", "FR"],
                      "additional_prize": "a mug", "stars": 0, "is_only_new_subscribers": true},
                     "text": "", "text_entities": []},
                    {"id": 5, "type": "message", "date": "2025-07-01T10:04:00", "date_unixtime": "1751364240", "from": "Shop", "from_id": "user9",
                     "invoice_information": "{\n    \"title\": \"Coffee\",\n    \"description\": \"A large one\",\n    \"amount\": 150,\n    \"currency\": \"USD\"\n   }",
                     "text": "", "text_entities": []},
                    {"id": 6, "type": "message", "date": "2025-07-01T10:05:00", "date_unixtime": "1751364300", "from": "Shop", "from_id": "user9",
                     "game_title": "Lumberjack", "game_description": "Chop wood", "game_link": "https://t.me/gamebot?game=lumber",
                     "text": "", "text_entities": []},
                    {"id": 7, "type": "service", "date": "2025-07-01T10:06:00", "date_unixtime": "1751364360", "actor": "Shop", "actor_id": "user9",
                     "information_text": "The bot was granted access", "text": "", "text_entities": []},
                    {"id": 8, "type": "message", "date": "2025-07-01T10:07:00", "date_unixtime": "1751364420", "from": "Ann", "from_id": "user1",
                     "text": ["Party ", {"type": "custom_emoji", "text": "🎉", "document_id": "5368324170671202286"}],
                     "text_entities": [{"type": "plain", "text": "Party "}, {"type": "custom_emoji", "text": "🎉", "document_id": "5368324170671202286"}],
                     "reactions": [{"type": "custom_emoji", "count": 2, "document_id": "5368324170671202286",
                                    "recent": [{"from": "Bob", "from_id": "user2", "date": "2025-07-01T10:08:00"}]},
                                   {"type": "custom_emoji", "count": 1, "document_id": "42"},
                                   {"type": "paid", "count": 5},
                                   {"type": "emoji", "count": 1, "emoji": "👍"}]}
                    """#)
            ).first)
        let conversation = try #require(imported.conversation, "\(imported.diagnostics)")
        let messages = conversation.messages
        #expect(messages.count == 8)
        #expect(messages[0].kind == .emoji("🤭"))
        guard case .attributedText(let todo) = messages[1].kind else {
            Issue.record("a to-do list is rich text: \(messages[1].kind)")
            return
        }
        #expect(todo.html.contains("<strong>☑️ Trip <strong>prep</strong></strong>"), "\(todo.html)")
        #expect(todo.html.contains("<li>⬜ Tickets</li>") && todo.html.contains("<li>✅ Tent</li>"), "\(todo.html)")
        #expect(messages[2].kind == .system("Bob marked “Tent” as done"))
        let giveaway = messages[3].kind.plainText
        #expect(giveaway.contains("3 Telegram Premium subscription(s) for 6 month(s)"))
        #expect(giveaway.contains("a mug") && giveaway.contains("DE, FR") && giveaway.contains("New subscribers only"))
        #expect(messages[4].kind == .text("🧾 Invoice: Coffee\nA large one\nAmount: 1.50 USD"))
        #expect(messages[5].kind == .text("🎮 Game: Lumberjack\nChop wood\nhttps://t.me/gamebot?game=lumber"))
        #expect(messages[6].kind == .system("The bot was granted access"))
        #expect(messages[7].reactions.map(\.emoji) == ["🎉", "custom emoji", "⭐", "👍"])
        #expect(messages[7].reactions.map(\.count) == [2, 1, 5, 1])
        #expect(messages[7].reactions[0].senders == ["user2"])
        #expect(messages[7].reactions.allSatisfy { $0.customEmoji == nil }, "a bare document id names no image")
        #expect(Self.warnings(imported).allSatisfy { !$0.contains("not supported") }, "\(imported.diagnostics)")
    }

    /// A custom-emoji reaction whose file the export holds (`file`, or a `document_id` that is a
    /// path) has that image, resolved inside the export; its name is the fallback emoji.
    @Test func customEmojiReactionsKeepTheirImageWhenTheExportHasIt() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A 1×1 PNG: the bytes decide a media file's type.
        let png: [UInt8] = [
            0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1,
            8, 6, 0, 0, 0, 0x1F, 0x15, 0xC4, 0x89,
        ]
        try write(Data(png), to: "chats/chat_001/stickers/party.png", in: folder)
        let file = try write(
            Self.chat(
                #"""
                {"id": 1, "type": "message", "date": "2025-07-01T10:07:00", "date_unixtime": "1751364420", "from": "Ann", "from_id": "user1",
                 "text": ["Party ", {"type": "custom_emoji", "text": "🎉", "document_id": "stickers/party.png"}],
                 "reactions": [{"type": "custom_emoji", "count": 1, "document_id": "stickers/party.png"},
                               {"type": "custom_emoji", "count": 2, "document_id": "5368324170671202286", "file": "stickers/party.png"},
                               {"type": "custom_emoji", "count": 1, "document_id": "stickers/gone.png"}]}
                """#), to: "chats/chat_001/result.json", in: folder)
        let context = ImportContext(root: folder, config: SiteConfig())
        var conversations: [ImportedConversation] = []
        _ = TelegramImporter.read(
            DetectedExport(format: .telegram, items: [file], root: folder), context: context,
            emit: { conversations.append($0) })
        let imported = try #require(conversations.first)
        let reactions = try #require(imported.conversation?.messages.first?.reactions)
        #expect(reactions.map(\.emoji) == ["🎉", "custom emoji", "custom emoji"])
        guard case .local(let asset)? = reactions[0].customEmoji?.image else {
            Issue.record("expected the export's file: \(reactions)")
            return
        }
        #expect(asset.sourcePath.hasSuffix("/chats/chat_001/stickers/party.png"))
        #expect(reactions[0].customEmoji?.name == "🎉")
        #expect(reactions[1].customEmoji?.image == .local(asset))
        guard case .unavailable? = reactions[2].customEmoji?.image else {
            Issue.record("a missing file is unavailable: \(reactions[2])")
            return
        }
        #expect(
            Self.warnings(imported).contains { $0.contains("stickers/gone.png") }, "\(imported.diagnostics)")
    }

    // MARK: - Whole-account exports

    @Test func theOwnerIsMeOnlyInChatsTheyTakePartIn() throws {
        let conversations = try Self.read(
            """
            {"about": "Here is the data you requested.",
             "personal_information": {"user_id": 42, "first_name": "Ann", "last_name": "", "phone_number": "+1 555", "bio": ""},
             "chats": {"about": "", "list": [
              {"name": "Bob", "type": "personal_chat", "id": 7, "messages": [
               {"id": 1, "type": "message", "date": "2024-05-01T12:00:00", "date_unixtime": "1714557600", "from": "Ann", "from_id": "user42", "text": "hi", "text_entities": []}]},
              {"name": "News", "type": "public_channel", "id": 9, "messages": [
               {"id": 1, "type": "message", "date": "2024-05-01T12:00:00", "date_unixtime": "1714557600", "from": "News", "from_id": "channel9", "text": "read me", "text_entities": []}]},
              {"name": "Old", "type": "private_group", "id": 3, "messages": [
               {"id": 1, "type": "message", "date": "2020-05-01T12:00:00", "from": "Ann", "from_id": 42, "text": "old export", "text_entities": []}]}
             ]}}
            """)
        #expect(conversations.map { $0.conversation?.me } == ["user42", nil, "42"])
    }

    // MARK: - Times

    @Test func messagesKeepTheInstantAndTheChatTheExportersZone() throws {
        let imported = try #require(
            try Self.read(
                Self.chat(
                    """
                    {"id": 1, "type": "message", "date": "2024-05-01T12:00:00", "date_unixtime": "1714557600", "from": "Ann", "from_id": "user1", "text": "a",
                     "edited": "2024-05-01T12:30:00", "edited_unixtime": "1714559400"},
                    {"id": 2, "type": "message", "date": "2024-05-01T12:05:00", "date_unixtime": "0000000000", "from": "Ann", "from_id": "user1", "text": "fake instant"},
                    {"id": 3, "type": "message", "date": "2024-05-01T12:10:00", "from": "Ann", "from_id": "user1", "text": "no instant"},
                    {"id": 4, "type": "message", "date": "2024-05-01T12:15:00", "date_unixtime": "1714000000", "from": "Ann", "from_id": "user1", "text": "far off"}
                    """), zone: "America/New_York"
            ).first)
        let conversation = try #require(imported.conversation, "\(imported.diagnostics)")
        #expect(conversation.timeZone == "GMT+0200")
        #expect(TimeZone(identifier: "GMT+0200")?.secondsFromGMT() == 7200)
        #expect(
            conversation.messages.map(\.date) == [
                Self.utc("2024-05-01T10:00:00Z"), Self.utc("2024-05-01T10:05:00Z"), Self.utc("2024-05-01T10:10:00Z"),
                Self.utc("2024-05-01T10:15:00Z"),
            ])
        #expect(conversation.messages[0].edited == Self.utc("2024-05-01T10:30:00Z"))
        #expect(
            Self.warnings(imported).contains { $0.contains("1 message(s) have a 'date_unixtime' more than 14 hours") })
    }

    /// Daylight saving time at the exporter: two offsets in one chat. The most frequent is the
    /// zone; every instant stays exact.
    @Test func aChangingOffsetKeepsInstantsAndTakesTheMostFrequentZone() throws {
        let imported = try #require(
            try Self.read(
                Self.chat(
                    """
                    {"id": 1, "type": "message", "date": "2024-03-30T12:00:00", "date_unixtime": "1711796400", "from": "A", "from_id": "user1", "text": "winter"},
                    {"id": 2, "type": "message", "date": "2024-03-30T13:00:00", "date_unixtime": "1711800000", "from": "A", "from_id": "user1", "text": "winter"},
                    {"id": 3, "type": "message", "date": "2024-03-31T14:00:00", "date_unixtime": "1711886400", "from": "A", "from_id": "user1", "text": "summer"}
                    """)
            ).first)
        let conversation = try #require(imported.conversation)
        #expect(conversation.timeZone == "GMT+0100")
        #expect(
            conversation.messages.map(\.date) == [
                Self.utc("2024-03-30T11:00:00Z"), Self.utc("2024-03-30T12:00:00Z"), Self.utc("2024-03-31T12:00:00Z"),
            ])
    }

    @Test func fixedOffsetZoneNamesReadBack() {
        for offset in [0, 3600, -3600, 19800, -12600, 45900, 14 * 3600, -12 * 3600] {
            let name = TelegramClock.identifier(forOffset: offset)
            #expect(TimeZone(identifier: name)?.secondsFromGMT() == offset, "\(name)")
        }
    }

    // MARK: - Ledger of every sample

    /// Every Telegram export of `../shared/samples/telegram`: the message records of each chat,
    /// counted here with Foundation's JSON parser, are the ledger's records read, and each is
    /// built or left out with a reason.
    @Test func everySampleRecordIsBuiltOrLeftOutWithAReason() throws {
        let folder = try SharedSamples.folder().appendingPathComponent("telegram")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count >= 13)
        var total = 0
        var ids: [String] = []
        for name in files {
            let file = folder.appendingPathComponent(name)
            let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            let chats =
                ((root["chats"] as? [String: Any])?["list"] as? [[String: Any]] ?? [])
                + ((root["left_chats"] as? [String: Any])?["list"] as? [[String: Any]] ?? [])
            let counts = (chats.isEmpty ? [root] : chats).map { ($0["messages"] as? [Any])?.count ?? -1 }
            let imported = try Self.read(String(contentsOf: file, encoding: .utf8))
            #expect(imported.map(\.ledger.recordsRead) == counts, "\(name)")
            for chat in imported {
                #expect(chat.conversation != nil, "\(name): \(chat.diagnostics)")
                #expect(chat.ledger.messagesBuilt + chat.ledger.leftOut.count == chat.ledger.recordsRead, "\(name)")
                #expect(chat.ledger.messagesBuilt == chat.conversation?.messages.count, "\(name)")
                #expect(chat.ledger.unexplained == 0, "\(name)")
                #expect(!chat.diagnostics.contains { $0.severity == .error }, "\(name): \(chat.diagnostics)")
                ids += chat.conversation.map { [$0.id] } ?? []
            }
            total += counts.reduce(0, +)
        }
        #expect(total > 0)
        // Four chats of the samples are all called "test": the chat id keeps them apart.
        #expect(Set(ids).count == ids.count, "\(ids)")
    }
}
