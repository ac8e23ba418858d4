import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading
@testable import ScrollbackSite

/// DiscordChatExporter exports (issue 41: points 3, 8, 10 and the ledger): conversation ids from
/// channel ids, threads, media that is linked and copied, custom emoji, stickers, spoilers,
/// forwards, the exporter's time zone, and every record built or left out with a reason.
@Suite struct DiscordImportTests {
    /// A DCE export file of channel `channelID` named `name` (`type`, `category`) in guild "Server".
    static func export(
        channelID: String, name: String, type: String = "GuildTextChat", category: String = "Text Channels",
        messages: [String]
    ) -> String {
        """
        {"guild": {"id": "1", "name": "Server"},
         "channel": {"id": "\(channelID)", "type": "\(type)", "categoryId": "9", "category": "\(category)", "name": "\(name)"},
         "messages": [\(messages.joined(separator: ",\n"))]}
        """
    }

    /// One DCE message; `extra` is more members of its object (`"attachments": […]`).
    static func message(
        _ id: String, _ content: String, at stamp: String = "2024-05-03T09:00:00+00:00", extra: String = ""
    ) -> String {
        #"{"id": "\#(id)", "type": "Default", "timestamp": "\#(stamp)", "content": "\#(content)", "author": {"id": "10", "name": "Ann", "nickname": "Ann"}\#(extra.isEmpty ? "" : ", " + extra)}"#
    }

    /// The conversations `DiscordImporter` reads from `files` (paths in `folder`), in one export.
    static func read(_ folder: URL, _ files: [String]) -> [ImportedConversation] {
        let context = ImportContext(root: folder, config: SiteConfig())
        var conversations: [ImportedConversation] = []
        _ = DiscordImporter.read(
            DetectedExport(format: .discord, items: files.map { folder.appendingPathComponent($0) }, root: folder),
            context: context, emit: { conversations.append($0) })
        return conversations
    }

    /// The page text of the conversation `id` in the built site `output`.
    static func page(_ output: URL, _ id: String) throws -> String {
        try String(contentsOf: output.appendingPathComponent(id + "/index.html"), encoding: .utf8)
    }

    /// Every `src="…"` and `href="…"` of `html` that names a copied file (`media/…`).
    static func mediaReferences(_ html: String) -> [String] {
        var found: [String] = []
        for attribute in ["src=\"", "href=\""] {
            for part in html.components(separatedBy: attribute).dropFirst() {
                let value = String(part.prefix { $0 != "\"" })
                if value.contains("media/") { found.append(value.replacingOccurrences(of: "../", with: "")) }
            }
        }
        return found
    }

    // MARK: - Conversation ids (issue 41.3)

    /// A new server's text `#general` and voice `General`: both built, each under its own id;
    /// the older channel (lower snowflake) keeps the plain slug whichever file is read first, and
    /// `import` then `build` gives the same ids.
    @Test(arguments: [false, true])
    func textAndVoiceGeneralGetTheirOwnIDs(voiceFileFirst: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // The voice channel is the older one (lower id); file names decide the reading order.
        let text = Self.export(channelID: "1200", name: "general", messages: [Self.message("5001", "typed")])
        let voice = Self.export(
            channelID: "1100", name: "General", type: "GuildVoiceChat", category: "Voice Channels",
            messages: [Self.message("5002", "said in voice chat")])
        try folder.write(text, to: voiceFileFirst ? "b - general [1200].json" : "a - general [1200].json")
        try folder.write(voice, to: voiceFileFirst ? "a - General [1100].json" : "b - General [1100].json")
        let output = folder.url.appendingPathComponent("site")
        let report = try build(folder.url, output)
        #expect(!report.hasErrors, "\(report.diagnostics)")
        #expect(try Self.page(output, "server-general").contains("said in voice chat"))
        #expect(try Self.page(output, "server-general-1200").contains("typed"))

        let logs = folder.url.appendingPathComponent("logs")
        let imported = try ExportWriter(input: folder.url, format: .discord, output: logs, onDiagnostics: { _ in })
            .write()
        #expect(!imported.hasErrors)
        let viaLogs = folder.url.appendingPathComponent("via-logs")
        #expect(try !build(logs, viaLogs).hasErrors)
        #expect(try Self.page(viaLogs, "server-general").contains("said in voice chat"))
        #expect(try Self.page(viaLogs, "server-general-1200").contains("typed"))
    }

    /// The rule itself: unique slugs stay; among equal ones the lowest source id (by value, not
    /// text: "99" < "100") keeps it; a derived id never takes another conversation's id.
    @Test func idsFollowTheSourceIDsNotTheOrder() {
        typealias Claim = ConversationIDs.Claim
        let claims = [
            Claim(slug: "general", sourceID: "100"), Claim(slug: "general", sourceID: "99"),
            Claim(slug: "random", sourceID: "5"), Claim(slug: "general-100", sourceID: "7"),
        ]
        let ids = ConversationIDs.resolve(claims)
        #expect(ids == ["general-100-2", "general", "random", "general-100"])
        #expect(Set(ids).count == ids.count)
        // Any order of the same claims gives each the same id.
        let reversed = ConversationIDs.resolve(claims.reversed())
        #expect(Array(reversed.reversed()) == ids)
        // Telegram's negative ids and Slack's letters.
        #expect(
            ConversationIDs.resolve([Claim(slug: "a", sourceID: "-5"), Claim(slug: "a", sourceID: "-10")]) == [
                "a-5", "a",
            ])
        #expect(
            ConversationIDs.resolve([Claim(slug: "a", sourceID: "C2"), Claim(slug: "a", sourceID: "C10")]) == [
                "a-c2", "a",
            ])
    }

    /// A thread exported as its own file (DCE puts the parent channel in `category`) is its own
    /// conversation, titled after the channel it was started in.
    @Test func aThreadIsItsOwnConversationNamedAfterItsParent() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(
            Self.export(channelID: "1200", name: "general", messages: [Self.message("5001", "in the channel")]),
            to: "general [1200].json")
        try folder.write(
            Self.export(
                channelID: "1300", name: "Bug hunt", type: "GuildPublicThread", category: "general",
                messages: [Self.message("5002", "in the thread")]),
            to: "Bug hunt [1300].json")
        let conversations = Self.read(folder.url, ["Bug hunt [1300].json", "general [1200].json"])
            .compactMap(\.conversation)
        #expect(conversations.map(\.title) == ["#general › Bug hunt", "Text Channels / #general"])
        #expect(conversations.map(\.id) == ["server-bug-hunt", "server-general"])
        #expect(conversations[0].messages.map(\.id) == ["5002"])
    }

    // MARK: - Media that is linked is copied (issue 41.8)

    /// An mp3 sent with text, and several files in one message: each link and image points at a
    /// file the site holds, in `build` and in `import` + `build`.
    @Test func linkedAttachmentsAreCopied() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let files = "Server - general [1200].json_Files/"
        try folder.write(Data("ID3\u{3}\0\0\0\0\0\0song".utf8), to: files + "song-1A2B.mp3")
        try folder.write(Logs.png, to: files + "cat-3C4D.png")
        try folder.write(Data("notes".utf8), to: files + "notes-5E6F.txt")
        func attachment(_ name: String, _ stored: String) -> String {
            #"{"id": "1", "url": "\#(files)\#(stored)", "fileName": "\#(name)", "fileSizeBytes": 5}"#
        }
        let export = Self.export(
            channelID: "1200", name: "general",
            messages: [
                Self.message(
                    "1", "listen to this", extra: #""attachments": [\#(attachment("song.mp3", "song-1A2B.mp3"))]"#),
                Self.message(
                    "2", "all of it",
                    extra:
                        #""attachments": [\#(attachment("cat.png", "cat-3C4D.png")), \#(attachment("notes.txt", "notes-5E6F.txt")), \#(attachment("song.mp3", "song-1A2B.mp3"))]"#
                ),
            ])
        try folder.write(export, to: "Server - general [1200].json")
        let output = folder.url.appendingPathComponent("site")
        let report = try build(folder.url, output)
        #expect(!report.hasErrors, "\(report.diagnostics)")
        let page = try Self.page(output, "server-general")
        let references = Self.mediaReferences(page)
        #expect(references.count >= 4, "\(references)")
        for reference in references {
            #expect(
                FileManager.default.fileExists(atPath: output.appendingPathComponent(reference).path), "\(reference)")
        }
        // `import` copies them beside the log, and its log shows the images again.
        let logs = folder.url.appendingPathComponent("logs")
        _ = try ExportWriter(input: folder.url, format: .discord, output: logs, onDiagnostics: { _ in }).write()
        let viaLogs = folder.url.appendingPathComponent("via-logs")
        #expect(try !build(logs, viaLogs).hasErrors)
        let viaPage = try Self.page(viaLogs, "server-general")
        #expect(viaPage.contains("<img src=\"../media/"))
        for reference in Self.mediaReferences(viaPage) {
            #expect(
                FileManager.default.fileExists(atPath: viaLogs.appendingPathComponent(reference).path), "\(reference)")
        }
    }

    // MARK: - Custom emoji, stickers, spoilers, forwards (issue 41.8)

    /// Custom emoji in the text (raw `<:name:id>` and DCE's formatted `:name:`) and stickers are
    /// their images when the export has the files, else their names; a Lottie sticker is named.
    @Test func customEmojiAndStickersAreImagesWhenTheExportHasThem() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let files = "Server - general [1200].json_Files/"
        try folder.write(Logs.png, to: files + "blob-AAAA.png")
        try folder.write(Logs.png + Data([0]), to: files + "wave-BBBB.png")  // another file, same size
        let emoji =
            #""inlineEmojis": [{"id": "77", "name": "blob", "code": "blob", "isAnimated": false, "imageUrl": "\#(files)blob-AAAA.png"}, {"id": "78", "name": "gone", "code": "gone", "isAnimated": false, "imageUrl": "\#(files)gone-CCCC.png"}]"#
        let export = Self.export(
            channelID: "1200", name: "general",
            messages: [
                Self.message("1", "raw <:blob:77> and <a:gone:78>", extra: emoji),
                Self.message("2", "formatted :blob: and `:blob:` in code", extra: emoji),
                Self.message(
                    "3", "",
                    extra:
                        #""stickers": [{"id": "5", "name": "Wave", "format": "Png", "sourceUrl": "\#(files)wave-BBBB.png"}]"#
                ),
                Self.message(
                    "4", "",
                    extra:
                        #""stickers": [{"id": "6", "name": "Dance", "format": "Lottie", "sourceUrl": "\#(files)dance.json"}]"#
                ),
            ])
        try folder.write(export, to: "Server - general [1200].json")
        let output = folder.url.appendingPathComponent("site")
        let report = try build(folder.url, output)
        #expect(!report.hasErrors, "\(report.diagnostics)")
        let pages = try ImportTests.pages(output)
        let raw = try #require(ImportLookTests.element("1", in: pages))
        #expect(raw.contains("<img src=\"../media/") && raw.contains("alt=\":blob:\""))
        #expect(raw.contains(":gone:"), "an emoji whose file is missing is its name")
        let formatted = try #require(ImportLookTests.element("2", in: pages))
        #expect(formatted.contains("alt=\":blob:\""))
        #expect(formatted.contains("<code>:blob:</code>"))
        let sticker = try #require(ImportLookTests.element("3", in: pages))
        #expect(sticker.contains("data-kind=\"photo\"") && sticker.contains("Wave"))
        let lottie = try #require(ImportLookTests.element("4", in: pages))
        #expect(lottie.contains("Sticker: Dance"))
        for reference in Self.mediaReferences(pages.joined()) {
            #expect(
                FileManager.default.fileExists(atPath: output.appendingPathComponent(reference).path), "\(reference)")
        }
    }

    /// A custom-emoji reaction (`reactions[].emoji` with an `id`) is its image in the pill, from
    /// the file the export downloaded (copied into the site); with only Discord's CDN URL it is
    /// `:name:` (the site loads nothing from Discord); a Unicode one stays text. `import` keeps
    /// the image: the logs it writes build the same page.
    @Test func customEmojiReactionsAreTheirImages() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let files = "Server - general [1200].json_Files/"
        try folder.write(Logs.png, to: files + "party-DDDD.png")
        let reactions =
            #""reactions": [{"emoji": {"id": "91", "name": "party", "code": "party", "isAnimated": true, "imageUrl": "\#(files)party-DDDD.png"}, "count": 2}, {"emoji": {"id": "92", "name": "cdn", "code": "cdn", "isAnimated": false, "imageUrl": "https://cdn.discordapp.com/emojis/92.png"}, "count": 1}, {"emoji": {"id": "", "name": "👍", "code": "thumbsup", "isAnimated": false, "imageUrl": "https://cdn.jsdelivr.net/gh/twitter/twemoji@latest/assets/svg/1f44d.svg"}, "count": 3}]"#
        try folder.write(
            Self.export(channelID: "1200", name: "general", messages: [Self.message("1", "hello", extra: reactions)]),
            to: "Server - general [1200].json")
        let conversation = try #require(Self.read(folder.url, ["Server - general [1200].json"]).first?.conversation)
        let read = conversation.messages[0].reactions
        #expect(read.map(\.emoji) == [":party:", ":cdn:", "👍"])
        #expect(read[0].customEmoji?.name == "party" && read[0].customEmoji?.isAnimated == true)
        guard case .local(let asset)? = read[0].customEmoji?.image else {
            Issue.record("expected the downloaded file, got \(String(describing: read[0].customEmoji))")
            return
        }
        #expect(conversation.localAssets.contains(asset), "the site copies the emoji's file")
        #expect(
            read[1].customEmoji?.image
                == .unavailable(original: "remote only: https://cdn.discordapp.com/emojis/92.png"))
        #expect(read[2].customEmoji == nil, "a Unicode emoji is text")

        let output = folder.url.appendingPathComponent("site")
        #expect(try !build(folder.url, output).hasErrors)
        let page = try Self.page(output, "server-general")
        #expect(page.contains("<img class=\"rxe\" src=\"../\(asset.sitePath)\" alt=\":party:\""))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(asset.sitePath).path))
        #expect(page.contains(">:cdn: 1<") && !page.contains("cdn.discordapp.com"))
        #expect(page.contains(">👍 3<"))

        let logs = folder.url.appendingPathComponent("logs")
        _ = try ExportWriter(input: folder.url, format: .discord, output: logs, onDiagnostics: { _ in }).write()
        let viaLogs = folder.url.appendingPathComponent("via-logs")
        #expect(try !build(logs, viaLogs).hasErrors)
        #expect(try Self.page(viaLogs, "server-general") == page)
    }

    /// `||…||` is hidden until clicked (a `<details>`, no script), in text only: not in code,
    /// not across paragraphs, and a lone `||` is text. Search and excerpts do not give it away,
    /// and `import` then `build` shows the same.
    @Test func spoilersAreHiddenUntilClicked() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let export = Self.export(
            channelID: "1200", name: "general",
            messages: [
                Self.message("1", "The killer is ||**Bob**||! Not `a||b||c`, and a || b."),
                Self.message("2", "||starts here\\n\\nends there||"),
            ])
        try folder.write(export, to: "Server - general [1200].json")
        let conversation = try #require(Self.read(folder.url, ["Server - general [1200].json"]).first?.conversation)
        guard case .attributedText(let rich) = conversation.messages[0].kind else {
            Issue.record("expected rich text, got \(conversation.messages[0].kind)")
            return
        }
        #expect(
            rich.html.hasPrefix(
                "<div>The killer is <details><summary>Spoiler</summary><strong>Bob</strong></details>!"),
            "a <details> in a <div>, never in a <p>: \(rich.html)")
        #expect(rich.html.contains("<code>a||b||c</code>"))
        #expect(rich.html.contains("and a || b."))
        #expect(!rich.plainText.contains("Bob"))
        guard case .attributedText(let across) = conversation.messages[1].kind else {
            Issue.record("expected rich text")
            return
        }
        #expect(!across.html.contains("<details>"), "\(across.html)")

        let output = folder.url.appendingPathComponent("site")
        #expect(try !build(folder.url, output).hasErrors)
        let logs = folder.url.appendingPathComponent("logs")
        _ = try ExportWriter(input: folder.url, format: .discord, output: logs, onDiagnostics: { _ in }).write()
        let viaLogs = folder.url.appendingPathComponent("via-logs")
        #expect(try !build(logs, viaLogs).hasErrors)
        #expect(try Self.page(output, "server-general") == Self.page(viaLogs, "server-general"))
    }

    /// A forward (`reference.type` `Forward`, the message in `forwardedMessage`) shows the
    /// forwarded text and files, marked "Forwarded", and is not a reply.
    @Test func aForwardedMessageShowsItsTextAndFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let files = "Server - general [1200].json_Files/"
        try folder.write(Logs.png, to: files + "cat-3C4D.png")
        let forward = """
            "reference": {"type": "Forward", "messageId": "777", "channelId": "1300", "guildId": "1"},
            "forwardedMessage": {"timestamp": "2024-05-01T08:00:00+00:00", "timestampEdited": null,
              "content": "the original words", "attachments": [{"id": "9", "url": "\(files)cat-3C4D.png", "fileName": "cat.png", "fileSizeBytes": 5}],
              "embeds": [], "stickers": []}
            """
        let export = Self.export(channelID: "1200", name: "general", messages: [Self.message("1", "", extra: forward)])
        try folder.write(export, to: "Server - general [1200].json")
        let conversation = try #require(Self.read(folder.url, ["Server - general [1200].json"]).first?.conversation)
        #expect(conversation.messages[0].replyTo == nil)
        #expect(conversation.messages[0].forwardedFrom == "another channel")
        let output = folder.url.appendingPathComponent("site")
        #expect(try !build(folder.url, output).hasErrors)
        let element = try #require(ImportLookTests.element("1", in: try ImportTests.pages(output)))
        #expect(element.contains("Forwarded from"))
        #expect(element.contains("the original words"))
        #expect(element.contains("<img") && element.contains("../media/"))
    }

    /// Hostile content: every naughty string, and runs built to make a careless scanner
    /// quadratic (backticks, `||`, `<`, `:`), convert in linear time, and spoiler HTML is a fixed
    /// point of the sanitizer (what `import` writes reads back the same).
    @Test func hostileContentConvertsQuicklyAndSafely() throws {
        let blns =
            try ImportTests.json(
                SharedSamples.folder().appendingPathComponent("security/blns/blns.json")) as? [String] ?? []
        #expect(blns.count > 500)
        let runs = [
            String(repeating: "`", count: 25_000), String(repeating: "||", count: 25_000),
            String(repeating: "<:a:", count: 12_500), String(repeating: "` `` ", count: 7_500),
            String(repeating: "\\|", count: 12_500), String(repeating: ":a", count: 25_000),
            String(repeating: "||`", count: 15_000),
        ]
        let converter = DiscordMarkdown(emojiFiles: ["name:a": "a.png", "id:1": "a.png"])
        let context = ImportContext(root: URL(fileURLWithPath: "/nonexistent-discord"), config: SiteConfig())
        let start = Date()
        for text in runs {
            let converted = converter.convert(text)
            _ = DiscordMarkdown.spoilerHTML(converted.markdown)
        }
        // About 3 s in a debug build on a busy machine; a quadratic scan of 50,000 characters
        // would take many minutes.
        #expect(Date().timeIntervalSince(start) < 30, "linear, not quadratic, in the content's length")
        for text in blns + blns.map({ "||" + $0 + "|| and `" + $0 + "`" }) {
            let converted = converter.convert(text)
            let html = DiscordMarkdown.spoilerHTML(
                context.reading.markdown.render(converted.markdown).html)
            let once = context.sanitizedHTML(html).html
            #expect(context.sanitizedHTML(once).html == once, "\(text)")
            #expect(!once.contains("<script"), "\(text)")
        }
    }

    // MARK: - Times (issue 41.10)

    /// DCE writes the exporter's local time with its offset: the instant is kept, and the
    /// conversation's zone is the exporter's (written into the log by `import`).
    @Test func timesKeepTheirInstantAndTheExportersZone() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(
            Self.export(
                channelID: "1", name: "fixed",
                messages: [
                    Self.message("1", "a", at: "2020-09-24T18:36:05.123+02:00"),
                    Self.message("2", "b", at: "2020-09-25T08:00:00.000+02:00"),
                ]), to: "fixed.json")
        try folder.write(
            Self.export(
                channelID: "2", name: "seasons",
                messages: [
                    Self.message("3", "winter", at: "2024-01-15T10:00:00+01:00"),
                    Self.message("4", "summer", at: "2024-07-15T10:00:00+02:00"),
                ]), to: "seasons.json")
        try folder.write(
            Self.export(
                channelID: "3", name: "utc", messages: [Self.message("5", "c", at: "2024-01-15T10:00:00+00:00")]),
            to: "utc.json")
        let conversations = Self.read(folder.url, ["fixed.json", "seasons.json", "utc.json"]).compactMap(\.conversation)
        #expect(conversations.map(\.timeZone) == ["GMT+0200", "Europe/Paris", nil])
        #expect(conversations[0].messages[0].date.timeIntervalSince1970 == 1_600_965_365.123)
        // The zones read back from a log.
        for zone in ["GMT+0200", "Europe/Paris"] { #expect(LayoutOptionParsing.isTimeZone(zone)) }
        // The page shows the exporter's wall clock.
        let output = folder.url.appendingPathComponent("site")
        #expect(try !build(folder.url, output).hasErrors)
        let page = try Self.page(output, "server-fixed")
        #expect(page.contains("6:36") && !page.contains("4:36"), "18:36 at +02:00, not 16:36 UTC")
        let logs = folder.url.appendingPathComponent("logs")
        _ = try ExportWriter(input: folder.url, format: .discord, output: logs, onDiagnostics: { _ in }).write()
        let log = try String(contentsOf: logs.appendingPathComponent("server-fixed.json"), encoding: .utf8)
        #expect(log.contains(#""timezone": "GMT+0200""#))
    }

    // MARK: - Ledger (issue 41, "Make loss structural")

    /// Every message record of every Discord sample, counted here with Foundation's parser, is
    /// one message: the ledger explains all, nothing is left out, and `SV_5A_5M.json`'s two
    /// messages with one id are both kept.
    @Test func everySampleRecordIsBuilt() throws {
        let root = try SharedSamples.folder().appendingPathComponent("discord")
        var byFolder: [URL: [String]] = [:]
        for file in ImportTests.files(under: root, ending: ".json") {
            guard let object = try ImportTests.json(file) as? [String: Any], object["guild"] != nil else { continue }
            byFolder[file.deletingLastPathComponent(), default: []].append(file.lastPathComponent)
        }
        #expect(byFolder.count >= 2)
        var checked = 0
        for (folder, names) in byFolder {
            let conversations = Self.read(folder, names.sorted())
            for name in names {
                let object = try ImportTests.json(folder.appendingPathComponent(name)) as! [String: Any]
                let records = (object["messages"] as? [Any])?.count ?? 0
                let channelID = (object["channel"] as? [String: Any])?["id"] as? String ?? ""
                let imported = try #require(conversations.first { $0.key.hasSuffix("/discord-" + channelID) })
                #expect(imported.ledger.recordsRead == records, "\(name)")
                #expect(imported.ledger.unexplained == 0, "\(name)")
                #expect(imported.messagesOut == records, "\(name)")
                #expect(imported.leftOut == 0, "\(name): \(imported.ledger.leftOut)")
                checked += records
            }
        }
        #expect(checked > 0)
        let duplicates = try #require(
            Self.read(root.appendingPathComponent("mlomb-chat-analytics"), ["SV_5A_5M.json"]).first?.conversation)
        #expect(duplicates.messages.map(\.id).filter { $0.hasPrefix("459136077417021488") }.count == 2)
    }

    /// A record that cannot be a message (no timestamp, not an object) is left out with its
    /// reason and a located warning; one without an id is kept; the rest of the channel is built.
    @Test func aBrokenRecordIsLeftOutWithItsReason() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let export = Self.export(
            channelID: "1200", name: "general",
            messages: [
                Self.message("1", "fine"),
                #"{"id": "2", "type": "Default", "content": "no date", "author": {"id": "10", "name": "Ann"}}"#,
                "42",
                #"{"type": "Default", "timestamp": "2024-05-03T09:05:00+00:00", "content": "no id", "author": {"id": "10", "name": "Ann"}}"#,
            ])
        try folder.write(export, to: "Server - general [1200].json")
        let imported = try #require(Self.read(folder.url, ["Server - general [1200].json"]).first)
        let conversation = try #require(imported.conversation, "\(imported.diagnostics)")
        #expect(conversation.messages.map(\.id) == ["1", "message-4"])
        #expect(imported.ledger.recordsRead == 4)
        #expect(imported.ledger.unexplained == 0)
        #expect(
            imported.ledger.leftOut.map(\.reason) == [
                "a message without a readable timestamp", "an entry of 'messages' that is not a message object",
            ])
        #expect(imported.ledger.leftOut.allSatisfy { $0.location?.line ?? 0 > 1 })
        #expect(imported.diagnostics.filter { $0.severity == .warning }.count == 3)
    }
}
