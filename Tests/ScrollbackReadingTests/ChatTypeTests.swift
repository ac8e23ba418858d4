import Foundation
import ScrollbackModel
import ScrollbackTestSupport
import Testing

@testable import ScrollbackReading

/// Issue 42.4: each importer records what kind of chat its source says a conversation is
/// (`Conversation.chatType`), a JSON log keeps it, and WhatsApp's exporter is found from the
/// lines WhatsApp writes in their voice or about the others.
@Suite struct ChatTypeTests {
    /// The conversations the importer that claims `file` reads from it.
    static func imported(_ file: URL) -> [Conversation] {
        let result = TelegramWhatsAppSampleTests.importFile(file)
        return result.conversations.compactMap(\.conversation)
    }

    /// The one conversation of the shared sample at `path` (under `../shared/samples`).
    static func sample(_ path: String) throws -> Conversation {
        let file = try SharedSamples.folder().appendingPathComponent(path)
        let conversations = imported(file)
        #expect(conversations.count == 1, "\(path)")
        return try #require(conversations.first, "\(path)")
    }

    /// Reads `text` as the WhatsApp chat `name` of a fresh folder.
    static func whatsApp(_ text: String, name: String = "_chat.txt") throws -> Conversation {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try write(text, to: name, in: folder)
        let conversations = imported(file)
        return try #require(conversations.first)
    }

    // MARK: - What each source says

    @Test func telegramChatTypesFromTheSamples() throws {
        let expected: [(String, ChatType)] = [
            ("bot", .direct), ("personal", .direct), ("saved", .direct), ("private_group", .group),
            ("public_supergroup", .group), ("private_channel", .channel), ("public_channel", .channel),
        ]
        for (name, type) in expected {
            let chat = try Self.sample("telegram/innerdvations-telegram-chat-parser/\(name).json")
            #expect(chat.chatType == type, "\(name)")
        }
        #expect(try Self.sample("telegram/tsu2000-tele_dashboard/sample.json").chatType == .group)
        #expect(try Self.sample("telegram/langchain-example_data/telegram.json").chatType == .direct)
        #expect(try Self.sample("telegram/korjavin-ragtgbot/result.json").chatType == .group)
    }

    @Test func discordChannelTypesFromTheSamples() throws {
        let folder = "discord/mlomb-chat-analytics/"
        #expect(try Self.sample(folder + "DM_2A_2M.json").chatType == .direct)
        #expect(try Self.sample(folder + "GC_3A_5M.json").chatType == .group)
        #expect(try Self.sample(folder + "SV_5A_5M.json").chatType == .channel)
        #expect(
            try Self.sample(
                "discord/slatinsky-dcef-example_guild/Example guild - Text Channels - general [1012224565567721552].json"
            ).chatType == .channel)
        // A type DCE does not write (an old export) says nothing.
        #expect(DiscordImporter.chatType(ofChannelType: "") == nil)
        #expect(DiscordImporter.chatType(ofChannelType: "GuildPublicThread") == .channel)
    }

    @Test func slackListFilesSayDirectGroupOrChannel() throws {
        var files = SlackReadingTests.metadata
        files["users.json"] = #"[{"id": "U1", "name": "ann"}, {"id": "U2", "name": "bob"}, {"id": "U3", "name": "cy"}]"#
        files["dms.json"] = #"[{"id": "D1", "members": ["U1", "U2"]}]"#
        files["mpims.json"] = #"[{"id": "G1", "name": "mpdm-ann--bob--cy-1", "members": ["U1", "U2", "U3"]}]"#
        files["groups.json"] = #"[{"id": "G2", "name": "secret", "members": ["U1", "U2"]}]"#
        let message = #"[{"type": "message", "user": "U1", "ts": "1704067200.000100", "text": "hi"}]"#
        for folder in ["general", "D1", "mpdm-ann--bob--cy-1", "secret", "unlisted"] {
            files[folder + "/2024-01-01.json"] = message
        }
        let root = try SlackReadingTests.export(files)
        defer { try? FileManager.default.removeItem(at: root) }
        let (conversations, _) = SlackReadingTests.read(root)
        let types = Dictionary(
            uniqueKeysWithValues: conversations.compactMap(\.conversation).map { ($0.title ?? $0.id, $0.chatType) })
        #expect(types["#general"] == .channel)
        #expect(types["#secret"] == .channel)
        #expect(types["ann, bob"] == .direct)
        #expect(types["ann, bob, cy"] == .group)
        // A folder no list names: the export does not say.
        #expect(types["#unlisted"] == .some(nil))
    }

    @Test func whatsAppGroupsHaveGroupLinesOrMoreThanTwoSenders() throws {
        let samples = "whatsapp/gesiscss-WhatsR/"
        for name in ["englishandroid24h", "englishios24h", "germanandroid24h", "germaniosampm"] {
            #expect(try Self.sample(samples + name + ".txt").chatType == .group, "\(name)")
        }
        #expect(try Self.sample("whatsapp/pustur-whatsapp-chat-parser/short-chat.txt").chatType == .group)
        #expect(try Self.sample("whatsapp/joweich-chat-miner/test_unicode.txt").chatType == .group)
        #expect(try Self.sample("whatsapp/langchain-example_data/whatsapp_chat.txt").chatType == .direct)
        // Two senders and one group line (`You were added`, no name in it): a group.
        let added = try Self.whatsApp(
            "12/03/2020, 09:59 - You were added\n12/03/2020, 10:00 - Ana Silva: hi\n12/03/2020, 10:01 - Ben: yo\n")
        #expect(added.chatType == .group)
        // A security code notice is written in one-to-one chats too: not a group line.
        let direct = try Self.whatsApp(
            "12/03/2020, 09:59 - Ben's security code changed. Tap for more info.\n"
                + "12/03/2020, 10:00 - Ana Silva: hi\n12/03/2020, 10:01 - Ben: yo\n")
        #expect(direct.chatType == .direct)
    }

    @Test func chatGPTSaysNothing() throws {
        let chat = try Self.sample("chatgpt/mitkury-chatgpt-export-parser/example-conversation.json")
        #expect(chat.chatType == nil)
    }

    // MARK: - Who is asked for `me`

    @Test func onlyOneToOneChatsAreAskedForMe() {
        var chat = Conversation(
            id: "c", participants: [Participant(id: "a", name: "Ann"), Participant(id: "b", name: "Ben")],
            messages: [], source: SourceLocation(file: "c.json", line: 1, column: 1))
        // Not said: two participants are taken for a one-to-one chat, as before.
        #expect(MeSetting.choices(for: chat) == ["Ann", "Ben"])
        chat.chatType = .direct
        #expect(MeSetting.choices(for: chat) == ["Ann", "Ben"])
        chat.chatType = .group
        #expect(MeSetting.choices(for: chat) == nil)
        chat.chatType = .channel
        #expect(MeSetting.choices(for: chat) == nil)
    }

    // MARK: - The JSON log keeps it

    @Test func theJSONLogWritesAndReadsChatType() throws {
        for type in ChatType.allCases {
            var conversation = try Self.sample("whatsapp/langchain-example_data/whatsapp_chat.txt")
            conversation.chatType = type
            let text = JSONLogWriter { $0.sitePath }.write(conversation)
            #expect(text.contains("\"chatType\": \"\(type.rawValue)\""))
            let read = try readLog(text)
            #expect(read.errors.isEmpty, "\(read.diagnostics)")
            #expect(!read.diagnostics.contains { $0.description.contains("chatType") }, "\(read.diagnostics)")
            #expect(read.conversation?.chatType == type)
        }
        // None written when the source does not say.
        var unknown = try Self.sample("whatsapp/langchain-example_data/whatsapp_chat.txt")
        unknown.chatType = nil
        #expect(!JSONLogWriter { $0.sitePath }.write(unknown).contains("chatType"))
    }

    @Test func aChatTypeNotKnownIsAWarningAtItsValue() throws {
        let read = try readLog(log(messages: "", extra: #""chatType": "forum","#))
        #expect(read.errors.isEmpty)
        #expect(read.conversation?.chatType == nil)
        let warning = try #require(read.warnings.first { $0.description.contains("chatType") })
        #expect(warning.location?.line == 1)
        #expect(warning.location?.column == 14)
        #expect(warning.description.contains("direct, group, channel"))
        #expect(warning.description.contains("'forum'"))
        // Unknown fields are still tolerated next to it.
        let other = try readLog(log(messages: "", extra: #""chatType": "group", "chatKind": 1,"#))
        #expect(other.conversation?.chatType == .group)
        #expect(other.errors.isEmpty)
        #expect(other.warnings.contains { $0.description.contains("chatKind") })
    }

    // MARK: - WhatsApp's exporter in their own words

    @Test func theExporterOfAGroupIsWhoDeletedTheirOwnMessage() throws {
        let android = try Self.whatsApp(
            """
            12/03/2020, 09:59 - Ana Silva created group "Trip"
            12/03/2020, 10:00 - Ana Silva: You deleted this message
            12/03/2020, 10:01 - Ben: This message was deleted
            12/03/2020, 10:02 - Cy: hello

            """)
        #expect(android.chatType == .group)
        #expect(android.me == "ana-silva")
        let lrm = "\u{200E}"
        let iOS = try Self.whatsApp(
            """
            [12/03/2020, 10:00:00] Trip: \(lrm)Ana Silva created group “Trip”
            [12/03/2020, 10:00:01] Ana Silva: \(lrm)You deleted this message.
            [12/03/2020, 10:00:02] Ben: \(lrm)This message was deleted.
            [12/03/2020, 10:00:03] Cy: hello

            """)
        #expect(iOS.chatType == .group)
        #expect(iOS.me == "ana-silva")
        // In German too: the phrase table's `deleted.you`.
        let german = try Self.whatsApp(
            "12.03.20, 10:00 - Ana Silva: Du hast diese Nachricht gelöscht.\n12.03.20, 10:01 - Ben: Hallo\n"
                + "12.03.20, 10:02 - Cy: Hallo\n")
        #expect(german.me == "ana-silva")
    }

    @Test func twoSendersOfTheExportersDeletionSayNothing() throws {
        let chat = try Self.whatsApp(
            """
            12/03/2020, 10:00 - Ana Silva: You deleted this message
            12/03/2020, 10:01 - Ben: You deleted this message
            12/03/2020, 10:02 - Cy: hello

            """)
        #expect(chat.me == nil)
    }

    @Test func aNoticeNamingOneOfTwoNamesTheOtherAsTheExporter() throws {
        let android = try Self.whatsApp(
            """
            12/03/2020, 09:59 - Messages and calls are end-to-end encrypted. No one outside of this chat, not even WhatsApp, can read or listen to them. Tap to learn more.
            12/03/2020, 10:00 - Ana Silva: hi
            12/03/2020, 10:01 - Ben: yo
            12/03/2020, 10:02 - Ben's security code changed. Tap for more info.

            """)
        #expect(android.chatType == .direct)
        #expect(android.me == "ana-silva")
        let lrm = "\u{200E}"
        // iOS writes its notices under the other person's name.
        let iOS = try Self.whatsApp(
            """
            [12/03/2020, 09:59:00] Ben: \(lrm)Messages and calls are end-to-end encrypted. No one outside of this chat, not even WhatsApp, can read or listen to them.
            [12/03/2020, 10:00:00] Ana Silva: hi
            [12/03/2020, 10:01:00] Ben: yo

            """)
        #expect(iOS.chatType == .direct)
        #expect(iOS.me == "ana-silva")
        // Both named (a group of three where two wrote, its lines cut off): no one is the exporter.
        let both = try Self.whatsApp(
            """
            12/03/2020, 10:00 - Ana Silva: hi
            12/03/2020, 10:01 - Ben: yo
            12/03/2020, 10:02 - Ben's security code changed. Tap for more info.
            12/03/2020, 10:03 - Ana Silva's security code changed. Tap for more info.

            """)
        #expect(both.me == nil)
    }
}

/// Issue 42.4 point 3: a whole-account Telegram export names its owner once
/// (`personal_information.user_id`), for every chat of `chats.list` and `left_chats.list`.
@Suite struct TelegramAccountOwnerTests {
    static let export = """
        {"about": "Here is the data you requested.",
         "personal_information": {"user_id": 42, "first_name": "Ann", "last_name": "", "phone_number": "+1 555", "bio": ""},
         "chats": {"about": "", "list": [
          {"name": "Bob", "type": "personal_chat", "id": 7, "messages": [
           {"id": 1, "type": "message", "date": "2024-05-01T12:00:00", "date_unixtime": "1714557600", "from": "Bob", "from_id": "user7", "text": "hi", "text_entities": []},
           {"id": 2, "type": "message", "date": "2024-05-01T12:01:00", "date_unixtime": "1714557660", "from": "Ann", "from_id": "user42", "text": "yo", "text_entities": []}]},
          {"name": "Cy", "type": "personal_chat", "id": 8, "messages": [
           {"id": 1, "type": "message", "date": "2024-05-01T12:00:00", "date_unixtime": "1714557600", "from": "Cy", "from_id": "user8", "text": "no answer", "text_entities": []}]},
          {"type": "saved_messages", "id": 42, "messages": [
           {"id": 1, "type": "message", "date": "2024-05-01T12:00:00", "date_unixtime": "1714557600", "from": "Ann", "from_id": "user42", "text": "note", "text_entities": []}]},
          {"name": "Club", "type": "private_supergroup", "id": 9, "messages": [
           {"id": 1, "type": "message", "date": "2024-05-01T12:00:00", "date_unixtime": "1714557600", "from": "Dee", "from_id": "user9", "text": "hello", "text_entities": [],
            "reactions": [{"type": "emoji", "count": 1, "emoji": "👍", "recent": [{"from": "Ann", "from_id": "user42", "date": "2024-05-01T12:02:00"}]}]},
           {"id": 2, "type": "message", "date": "2024-05-01T12:01:00", "date_unixtime": "1714557660", "from": "Eve", "from_id": "user10", "text": "hey", "text_entities": []}]},
          {"name": "Pair", "type": "private_group", "id": 11, "messages": [
           {"id": 1, "type": "message", "date": "2024-05-01T12:00:00", "date_unixtime": "1714557600", "from": "Dee", "from_id": "user9", "text": "a", "text_entities": []},
           {"id": 2, "type": "message", "date": "2024-05-01T12:01:00", "date_unixtime": "1714557660", "from": "Eve", "from_id": "user10", "text": "b", "text_entities": []}]}
         ]},
         "left_chats": {"about": "", "list": [
          {"name": "Old", "type": "private_supergroup", "id": 12, "messages": [
           {"id": 1, "type": "message", "date": "2024-05-01T12:00:00", "date_unixtime": "1714557600", "from": "Ann", "from_id": "user42", "text": "bye", "text_entities": []},
           {"id": 2, "type": "message", "date": "2024-05-01T12:01:00", "date_unixtime": "1714557660", "from": "Dee", "from_id": "user9", "text": "ok", "text_entities": []}]}
         ]}}
        """

    /// The chats of `text` read as `result.json`, by the streaming reader (what builds use) and
    /// by the tree reader.
    static func read(_ text: String) throws -> [[Conversation]] {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try write(text, to: "result.json", in: folder)
        let export = DetectedExport(format: .telegram, items: [file], root: folder)
        let context = ImportContext(root: folder, config: SiteConfig())
        return [TelegramImporter.read(_:context:emit:), TelegramImporter.readTree(_:context:emit:)].map { read in
            var imported: [ImportedConversation] = []
            let diagnostics = read(export, context) { imported.append($0) }
            #expect(diagnostics.isEmpty, "\(diagnostics)")
            return imported.compactMap(\.conversation)
        }
    }

    /// `export` without its account information (an export setting).
    static let withoutAccount = export.replacingOccurrences(
        of:
            #" "personal_information": {"user_id": 42, "first_name": "Ann", "last_name": "", "phone_number": "+1 555", "bio": ""},"#,
        with: "")

    @Test func theOwnerIsMeInEveryChatTheyWroteOrReactedIn() throws {
        for chats in try Self.read(Self.export) {
            #expect(chats.map(\.title) == ["Bob", "Cy", nil, "Club", "Pair", "Old"])
            // Cy's chat and the group where Ann neither wrote nor reacted have no `me`: she is
            // not a participant there (and no one else is her).
            #expect(chats.map(\.me) == ["user42", nil, "user42", "user42", nil, "user42"])
            #expect(chats.map(\.chatType) == [.direct, .direct, .direct, .group, .group, .group])
            // So no chat asks who you are: the groups are not one to one, Cy's chat has one person.
            #expect(chats.compactMap(MeSetting.choices(for:)).isEmpty)
        }
    }

    @Test func withoutAccountInformationThePersonalChatsNameTheOwner() throws {
        #expect(!Self.withoutAccount.contains("personal_information"))
        for chats in try Self.read(Self.withoutAccount) {
            // Bob's chat (id 7) has one other sender, user42: the owner, in the groups too.
            #expect(chats.map(\.me) == ["user42", nil, "user42", "user42", nil, "user42"])
        }
        // Personal chats that disagree (Cy's has another sender than Bob's) name no owner: each
        // keeps what its own id says, and the groups have no `me`.
        let disagreeing = Self.withoutAccount.replacingOccurrences(
            of: #""from": "Cy", "from_id": "user8", "text": "no answer", "text_entities": []}"#,
            with: #""from": "Cy", "from_id": "user8", "text": "no answer", "text_entities": []},"#
                + #" {"id": 2, "type": "message", "date": "2024-05-01T12:01:00", "date_unixtime": "1714557660", "from": "Zed", "from_id": "user99", "text": "me", "text_entities": []}"#
        )
        #expect(disagreeing != Self.withoutAccount)
        for chats in try Self.read(disagreeing) {
            #expect(chats.map(\.me) == ["user42", "user99", "user42", nil, nil, nil])
        }
    }

    @Test func savedMessagesBelongToTheOwnerTheirIdNames() throws {
        let folder = "telegram/innerdvations-telegram-chat-parser/"
        #expect(try ChatTypeTests.sample(folder + "saved.json").me == "9999999999")
        #expect(try ChatTypeTests.sample(folder + "users_test.json").me == "1")
    }
}
