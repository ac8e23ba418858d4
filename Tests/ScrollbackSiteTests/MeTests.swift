import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackSite

/// Issue 42.4: your own messages on the right. `me:` in the config, `--me`, who wins, what the
/// importers detect in the shared sample exports, and the one warning for one-to-one chats
/// that say nobody.
@Suite struct MeTests {
    /// The shared sample at `relativePath` (under `../shared/samples`), as text.
    static func sample(_ relativePath: String) throws -> String {
        try String(
            contentsOf: SharedSamples.folder().appendingPathComponent(relativePath), encoding: .utf8)
    }

    static let whatsAppSample = "whatsapp/langchain-example_data/whatsapp_chat.txt"
    static let telegramSample = "telegram/langchain-example_data/telegram.json"

    /// Builds `input` with `--me` `me` into `output`.
    static func build(_ input: URL, _ output: URL, me: [String] = []) throws -> BuildReport {
        var options = SiteBuilder.Options.test(input: input, output: output)
        options.me = me
        return try SiteBuilder(options: options).build()
    }

    /// The `data-align` of every message element of `page` by its `data-sender`.
    static func alignments(_ page: URL) throws -> [String: Set<String>] {
        let html = try String(contentsOf: page, encoding: .utf8)
        var result: [String: Set<String>] = [:]
        var rest = html[...]
        while let start = rest.range(of: "data-sender=\"") {
            let senderEnd = rest[start.upperBound...].firstIndex(of: "\"")!
            let sender = String(rest[start.upperBound..<senderEnd])
            let align = rest[senderEnd...].range(of: "data-align=\"")!
            let alignEnd = rest[align.upperBound...].firstIndex(of: "\"")!
            result[sender, default: []].insert(String(rest[align.upperBound..<alignEnd]))
            rest = rest[alignEnd...]
        }
        return result
    }

    /// The one-to-one warnings of `report`.
    static func oneToOneWarnings(_ report: BuildReport) -> [Diagnostic] {
        report.diagnostics.filter { $0.problem.message.contains("one-to-one") }
    }

    @Test func whatsAppChatNamedForTheOtherSideIsExportedByTheOneLeft() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Self.sample(Self.whatsAppSample), to: "in/WhatsApp Chat with User 2.txt")
        let report = try Self.build(folder.url.appendingPathComponent("in"), folder.url.appendingPathComponent("site"))
        #expect(!report.hasErrors)
        let aligned = try Self.alignments(
            folder.url.appendingPathComponent("site/whatsapp-chat-with-user-2/index.html"))
        #expect(aligned["user-1"] == ["right"])
        #expect(aligned["user-2"] == ["left"])
        #expect(Self.oneToOneWarnings(report).isEmpty)
    }

    @Test func telegramPersonalChatIdIsTheOtherPerson() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // The sample's chat id is made up; a real personal chat's id is the other person's
        // user id: Grace's (4720225552) here, so Henry exported it.
        let text = try Self.sample(Self.telegramSample)
        #expect(text.contains("\"id\": 2730825451"))
        try folder.write(
            text.replacingOccurrences(of: "\"id\": 2730825451", with: "\"id\": 4720225552"), to: "in/result.json")
        let report = try Self.build(folder.url.appendingPathComponent("in"), folder.url.appendingPathComponent("site"))
        #expect(!report.hasErrors)
        let site = folder.url.appendingPathComponent("site")
        let page = try FileManager.default.contentsOfDirectory(atPath: site.path).first { $0.hasSuffix("4720225552") }
        let aligned = try Self.alignments(site.appendingPathComponent(try #require(page) + "/index.html"))
        #expect(aligned["4325636679"] == ["right"])
        #expect(aligned["4720225552"] == ["left"])
        #expect(Self.oneToOneWarnings(report).isEmpty)
    }

    @Test func telegramBotChatIdIsTheBot() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // As exported: the chat's id (9999999999) is the bot's `from_id`; the other sender is the exporter.
        try folder.write(
            Self.sample("telegram/innerdvations-telegram-chat-parser/bot.json"), to: "in/bot.json")
        let report = try Self.build(folder.url.appendingPathComponent("in"), folder.url.appendingPathComponent("site"))
        #expect(!report.hasErrors)
        let aligned = try Self.alignments(folder.url.appendingPathComponent("site/bot-user-9999999999/index.html"))
        #expect(aligned["8888888888"] == ["right"])
        #expect(aligned["9999999999"] == ["left"])
        #expect(Self.oneToOneWarnings(report).isEmpty)
    }

    @Test func oneToOneChatsWithNoMeGetOneWarningNamingTheChoices() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Self.sample(Self.whatsAppSample), to: "in/whatsapp_chat.txt")
        try folder.write(Self.sample(Self.telegramSample), to: "in/result.json")
        let input = folder.url.appendingPathComponent("in")
        let report = try Self.build(input, folder.url.appendingPathComponent("site"))
        let warnings = Self.oneToOneWarnings(report)
        #expect(warnings.count == 1)
        let text = warnings.first?.problem.message ?? ""
        #expect(text.contains("2 one-to-one chats"))
        #expect(text.contains("(User 1 or User 2)"))
        #expect(text.contains("Henry"))
        #expect(text.contains("me: "))
        // Saying who you are in one of them leaves the other named alone; in both, no warning.
        try folder.write("me: user 1\n", to: "in/scrollback.yml")
        let second = try Self.build(input, folder.url.appendingPathComponent("site"))
        let rest = Self.oneToOneWarnings(second)
        #expect(rest.count == 1)
        #expect(rest.first?.problem.message.contains("the one-to-one chat") == true)
        #expect(rest.first?.problem.message.contains("User 1") == false)
        let third = try Self.build(input, folder.url.appendingPathComponent("site"), me: ["User 1", "Henry"])
        #expect(Self.oneToOneWarnings(third).isEmpty)
    }

    @Test func aReusedConversationIsStillNamedInTheWarning() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let log = Logs.conversation(id: "chat", title: "Chat", count: 4)
        try folder.write(log.replacingOccurrences(of: "\"me\": \"alice\",", with: ""), to: "in/chat.json")
        let input = folder.url.appendingPathComponent("in")
        let output = folder.url.appendingPathComponent("site")
        let first = Self.oneToOneWarnings(try Self.build(input, output))
        #expect(first.first?.problem.message.contains("chat (Alice or Bob)") == true)
        let again = try Self.build(input, output)
        #expect(again.reusedConversations == 1)
        #expect(Self.oneToOneWarnings(again) == first)
    }

    @Test func configMeMatchesNamesAndIdsAndPerConversationWins() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Self.sample(Self.whatsAppSample), to: "in/whatsapp_chat.txt")
        let input = folder.url.appendingPathComponent("in")
        let output = folder.url.appendingPathComponent("site")
        let page = output.appendingPathComponent("whatsapp-chat/index.html")
        // A name matches ignoring case; a name no participant has is passed over.
        try folder.write("me: [Nobody, user 2]\n", to: "in/scrollback.yml")
        #expect(try !Self.build(input, output).hasErrors)
        #expect(try Self.alignments(page)["user-2"] == ["right"])
        // The conversation's own `me` wins over the top-level one; an id matches too.
        try folder.write("me: user 2\nconversations:\n  whatsapp-chat: {me: user-1}\n", to: "in/scrollback.yml")
        #expect(try !Self.build(input, output).hasErrors)
        #expect(try Self.alignments(page)["user-1"] == ["right"])
        #expect(try Self.alignments(page)["user-2"] == ["left"])
        // `--me` wins over both, and a build with it does not reuse the pages built without.
        #expect(try !Self.build(input, output, me: ["User 2"]).hasErrors)
        #expect(try Self.alignments(page)["user-2"] == ["right"])
    }

    @Test func aLogsOwnMeWinsOverTheConfigButNotOverTheCommandLine() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Logs.conversation(id: "chat", title: "Chat", count: 4), to: "in/chat.json")  // me: alice
        try folder.write("me: Bob\n", to: "in/scrollback.yml")
        let input = folder.url.appendingPathComponent("in")
        let output = folder.url.appendingPathComponent("site")
        let page = output.appendingPathComponent("chat/index.html")
        #expect(try !Self.build(input, output).hasErrors)
        #expect(try Self.alignments(page)["alice"] == ["right"])
        #expect(try Self.alignments(page)["bob"] == ["left"])
        #expect(try !Self.build(input, output, me: ["bob"]).hasErrors)
        #expect(try Self.alignments(page)["alice"] == ["left"])
        #expect(try Self.alignments(page)["bob"] == ["right"])
    }

    @Test func importWritesTheResolvedMe() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let export = try folder.write(Self.sample(Self.whatsAppSample), to: "export/whatsapp_chat.txt")
        var diagnostics: [Diagnostic] = []
        var writer = ExportWriter(
            input: export, format: .whatsapp, output: folder.url.appendingPathComponent("logs"),
            onDiagnostics: { diagnostics += $0 })
        writer.me = ["User 2"]
        let report = try writer.write()
        #expect(!report.hasErrors)
        let log = try String(
            contentsOf: folder.url.appendingPathComponent("logs/whatsapp-chat.json"), encoding: .utf8)
        #expect(log.contains("\"me\": \"user-2\""))
        #expect(!diagnostics.contains { $0.problem.message.contains("one-to-one") })
        // Without `--me`, the import says which names to choose from.
        var unnamed = ExportWriter(
            input: export, format: .whatsapp, output: folder.url.appendingPathComponent("logs-2"),
            onDiagnostics: { _ in })
        unnamed.overwrites = true
        let second = try unnamed.write()
        #expect(second.diagnostics.filter { $0.problem.message.contains("one-to-one") }.count == 1)
    }

    /// A WhatsApp group of three whose exporter deleted one of their messages (Android's shape:
    /// the exporter's own name before `You deleted this message`).
    static let whatsAppGroup = """
        12/03/2020, 09:59 - Ana Silva created group "Trip"
        12/03/2020, 10:00 - Ana Silva: Who comes?
        12/03/2020, 10:01 - Ben: Me
        12/03/2020, 10:02 - Ana Silva: You deleted this message
        12/03/2020, 10:03 - Cy: Me too

        """

    @Test func aGroupsExporterWhoDeletedAMessageIsOnTheRight() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Self.whatsAppGroup, to: "in/trip/_chat.txt")
        let report = try Self.build(folder.url.appendingPathComponent("in"), folder.url.appendingPathComponent("site"))
        #expect(!report.hasErrors)
        let aligned = try Self.alignments(folder.url.appendingPathComponent("site/trip/index.html"))
        #expect(aligned["ana-silva"] == ["right"])
        #expect(aligned["ben"] == ["left"])
        #expect(aligned["cy"] == ["left"])
    }

    @Test func groupsAndChannelsWhereTwoPeopleWroteAreNotAskedAbout() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let samples = try SharedSamples.folder()
        let input = folder.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        for sample in ["discord/mlomb-chat-analytics", "telegram/innerdvations-telegram-chat-parser"] {
            try FileManager.default.copyItem(
                at: samples.appendingPathComponent(sample),
                to: input.appendingPathComponent(sample.replacingOccurrences(of: "/", with: "-")))
        }
        // A group's two writers in a log that says it is a group.
        let log = Logs.conversation(id: "pair", title: "Pair", count: 4)
        try folder.write(
            log.replacingOccurrences(of: "\"me\": \"alice\",", with: "\"chatType\": \"group\","),
            to: "in/pair.json")
        let report = try Self.build(input, folder.url.appendingPathComponent("site"))
        let warnings = Self.oneToOneWarnings(report)
        #expect(warnings.count == 1)
        let text = warnings.first?.problem.message ?? ""
        // The Discord DM only: the group DM, the server channel, Telegram's groups and channels
        // and the log of a group are not one-to-one chats; Telegram's personal and bot chats
        // name their exporter.
        #expect(text.contains("the one-to-one chat "), "\(text)")
        #expect(!text.contains("pair"), "\(text)")
        #expect(!text.localizedCaseInsensitiveContains("group"), "\(text)")
    }

    @Test func importWritesTheChatTypeAndABuildOfTheLogsKeepsIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A group where two people wrote: its group line says it is no one-to-one chat.
        let export = try folder.write(
            "12/03/2020, 09:59 - Ana Silva created group \"Trip\"\n12/03/2020, 10:00 - Ana Silva: Who comes?\n"
                + "12/03/2020, 10:01 - Ben: Me\n", to: "export/_chat.txt")
        let logs = folder.url.appendingPathComponent("logs")
        let writer = ExportWriter(input: export, format: .whatsapp, output: logs, onDiagnostics: { _ in })
        #expect(try !writer.write().hasErrors)
        let names = try FileManager.default.contentsOfDirectory(atPath: logs.path).filter { $0.hasSuffix(".json") }
        let log = try String(contentsOf: logs.appendingPathComponent(try #require(names.first)), encoding: .utf8)
        #expect(log.contains("\"chatType\": \"group\""))
        #expect(!log.contains("\"me\""))
        // Built from the logs: a group of two writers, no `me`, and not asked about.
        let report = try Self.build(logs, folder.url.appendingPathComponent("site"))
        #expect(!report.hasErrors)
        #expect(Self.oneToOneWarnings(report).isEmpty)
    }
}
