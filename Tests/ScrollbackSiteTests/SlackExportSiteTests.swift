import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading
@testable import ScrollbackSite

/// Slack exports built as a user builds them: names from the export's data never lead out of
/// it (issue 40, point 2), and every message record is built or left out with a reason.
@Suite struct SlackExportSiteTests {
    /// A marker that only the folder outside the input holds.
    static let marker = "SECRET-OUTSIDE-THE-INPUT-7f3a"

    /// A folder `secret/` beside the input holding a day file with the marker, and an export at
    /// `in/export` whose `list` names `../../secret` (the folder a `..`-name reaches) besides a
    /// good channel.
    static func craftedExport(list: String, name: String) throws -> (base: URL, export: URL) {
        let base = try TemporaryFolder()
        try base.write(
            #"[{"type": "message", "user": "U1", "text": "\#(marker)", "ts": "1704067200.000100"}]"#,
            to: "secret/2024-01-01.json")
        try base.write(#"[{"id": "U1", "name": "ann"}]"#, to: "in/export/users.json")
        var lists = ["channels.json": "[]", "groups.json": "[]", "dms.json": "[]", "mpims.json": "[]"]
        let good = #"{"id": "C1", "name": "general", "members": ["U1"]}"#
        let bad =
            list == "dms.json"
            ? #"{"id": "\#(name)", "members": ["U1"]}"# : #"{"id": "C9", "name": "\#(name)", "members": ["U1"]}"#
        lists["channels.json"] = "[\n" + good + (list == "channels.json" ? ",\n" + bad : "") + "\n]"
        if list != "channels.json" { lists[list] = "[\n" + bad + "\n]" }
        for (file, text) in lists { try base.write(text, to: "in/export/" + file) }
        try base.write(
            #"[{"type": "message", "user": "U1", "text": "inside", "ts": "1704067200.000100"}]"#,
            to: "in/export/general/2024-01-01.json")
        return (base.url, base.url.appendingPathComponent("in/export"))
    }

    /// Every text file under `folder`, joined.
    static func text(under folder: URL) throws -> String {
        try snapshot(folder).values.map { String(decoding: $0, as: UTF8.self) }.joined()
    }

    @Test(
        "a conversation name with a path in any list file reads nothing outside the export",
        arguments: ["channels.json", "groups.json", "dms.json", "mpims.json"])
    func aNameWithAPathReadsNothingOutside(list: String) throws {
        for name in ["../../secret", "/" + "tmp/../secret", "a/../../../secret", "..", "bad\\u0000name"] {
            let (base, export) = try Self.craftedExport(list: list, name: name)
            defer { try? FileManager.default.removeItem(at: base) }
            // An absolute name reaches the marker too: point it at the real folder.
            if name.hasPrefix("/") {
                let absolute = base.appendingPathComponent("secret").path
                let file = export.appendingPathComponent(list)
                let text = try String(contentsOf: file, encoding: .utf8)
                try text.replacingOccurrences(of: name, with: absolute).write(
                    to: file, atomically: true, encoding: .utf8)
            }
            let site = base.appendingPathComponent("site")
            let report = try build(export, site)
            let html = try Self.text(under: site)
            #expect(!html.contains(Self.marker), "\(list) \(name): the site shows a file outside the input")
            #expect(html.contains("inside"), "\(list) \(name): the good channel is built")
            let errors = report.diagnostics.filter { $0.severity == .error }
            #expect(errors.count == 1, "\(list) \(name): \(report.diagnostics)")
            let location = try #require(errors.first?.location)
            #expect(location.file.hasSuffix(list), "\(location)")
            #expect(location.line > 1 || list != "channels.json", "the entry's own line, not the file's first")
            // `import` writes nothing from outside either.
            let logs = base.appendingPathComponent("logs")
            let imported = try ExportWriter(input: export, format: .slack, output: logs, onDiagnostics: { _ in })
                .write()
            #expect(imported.hasErrors)
            #expect(!(try Self.text(under: logs)).contains(Self.marker), "\(list) \(name): import wrote it")
        }
    }

    /// A channel folder or a day file that is a link out of the export is not followed.
    @Test func linksOutOfTheExportAreNotFollowed() throws {
        let (base, export) = try Self.craftedExport(list: "groups.json", name: "private")
        defer { try? FileManager.default.removeItem(at: base) }
        let secret = base.appendingPathComponent("secret")
        // `private` (listed) and `unlisted` (found by listing) are links to the folder outside.
        try FileManager.default.createSymbolicLink(
            at: export.appendingPathComponent("private"), withDestinationURL: secret)
        try FileManager.default.createSymbolicLink(
            at: export.appendingPathComponent("unlisted"), withDestinationURL: secret)
        try FileManager.default.createSymbolicLink(
            at: export.appendingPathComponent("general/2024-01-02.json"),
            withDestinationURL: secret.appendingPathComponent("2024-01-01.json"))
        let site = base.appendingPathComponent("site")
        let report = try build(export, site)
        let html = try Self.text(under: site)
        #expect(!html.contains(Self.marker))
        #expect(html.contains("inside"))
        let errors = report.diagnostics.filter { $0.severity == .error }.map(\.description)
        #expect(errors.count == 3, "\(errors)")
        #expect(errors.allSatisfy { $0.contains("leads out of the export") }, "\(errors)")
    }

    /// Every message record of every day file of the shared Slack samples is built or left out
    /// with a reason: the ledgers' sums against a count made with Foundation's JSON parser, and
    /// the site's message elements against the messages built.
    @Test func everyRecordOfTheSamplesIsAccountedFor() throws {
        for folder in try ImportTests.sampleFolders("slack") {
            let (expected, _) = try ImportTests.rawCount(folder, format: "slack")
            var ledgers: [ImportLedger] = []
            let exportDiagnostics = SlackImporter.read(
                DetectedExport(format: .slack, items: [folder], root: folder),
                context: ImportContext(root: folder, config: SiteConfig()), emit: { ledgers.append($0.ledger) })
            #expect(exportDiagnostics.allSatisfy { $0.severity != .error }, "\(exportDiagnostics)")
            #expect(ledgers.map(\.recordsRead).reduce(0, +) == expected, "\(folder.lastPathComponent)")
            #expect(ledgers.allSatisfy { $0.unexplained == 0 }, "\(folder.lastPathComponent): \(ledgers)")
            let site = try TemporaryFolder().url.appendingPathComponent("site")
            // The metadata-only sample has no message to build: the build says so and fails.
            guard let report = try ImportTests.buildSample(folder, format: "slack", into: site) else { continue }
            #expect(!report.hasErrors, "\(report.diagnostics)")
            let html = try ImportTests.pages(site).joined()
            let built = ledgers.map(\.messagesBuilt).reduce(0, +)
            #expect(ImportTests.occurrences(of: "data-message-id=\"", in: html) == built)
        }
    }

    /// One export through the whole build: emphasis by Slack's rules, blocks preferred over
    /// `text`, Slack's emoji table (skin tones, names beyond a short list), reactions, custom
    /// emoji images, and bots named without their raw ids.
    @Test func slackMessagesShowAsSlackShowsThem() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        try base.write(
            #"[{"id": "U1", "name": "tom"}, {"id": "U2", "name": "hookbot", "is_bot": true, "profile": {"bot_id": "B2", "real_name": "Deploy Bot"}}]"#,
            to: "export/users.json")
        try base.write(#"[{"id": "C1", "name": "general", "members": ["U1"]}]"#, to: "export/channels.json")
        try base.write(Logs.png, to: "export/emojis/partyparrot.png")
        try base.write(
            #"{"partyparrot": "https://emoji.example/partyparrot.png", "pp": "alias:partyparrot"}"#,
            to: "export/emojis/index.json")
        let messages = #"""
            [
             {"type": "message", "user": "U1", "ts": "1704067200.000100", "text": "*Bold!* and *files <@U1>*"},
             {"type": "message", "user": "U1", "ts": "1704067201.000100", "text": "thanks :female-technologist: :+1::skin-tone-2: :pp:",
              "reactions": [{"name": "raised_hands::skin-tone-3", "users": ["U1"], "count": 1}]},
             {"type": "message", "user": "U1", "ts": "1704067202.000100", "text": "list fallback text",
              "blocks": [{"type": "rich_text", "elements": [{"type": "rich_text_list", "style": "bullet", "elements": [
                {"type": "rich_text_section", "elements": [{"type": "text", "text": "first point"}]},
                {"type": "rich_text_section", "elements": [{"type": "text", "text": "second", "style": {"bold": true}}]}]}]}]},
             {"type": "message", "subtype": "bot_message", "bot_id": "B2", "ts": "1704067203.000100", "text": "deployed"},
             {"type": "message", "subtype": "bot_message", "bot_id": "B9", "ts": "1704067204.000100", "text": "anonymous"}
            ]
            """#
        try base.write(messages, to: "export/general/2024-01-01.json")
        let site = base.url.appendingPathComponent("site")
        let report = try build(base.url.appendingPathComponent("export"), site)
        #expect(!report.hasErrors, "\(report.diagnostics)")
        let html = try Self.text(under: site.appendingPathComponent("general"))
        #expect(html.contains("<strong>Bold!</strong>"), "emphasis ending in punctuation")
        #expect(html.contains("<strong>files @tom</strong>"), "emphasis ending in a mention")
        #expect(html.contains("👩‍💻") && html.contains("👍🏻"), "Slack's table, skin tones included")
        #expect(html.contains("🙌🏼"), "a reaction's name through the same table")
        #expect(html.contains("<img") && html.contains(":pp:"), "a custom emoji (an alias) as its image")
        #expect(report.conversations == 1, "emojis/ is no conversation")
        #expect(html.contains("<li>first point</li>") && html.contains("<strong>second</strong>"), "blocks shown")
        #expect(!html.contains("list fallback text"), "blocks preferred over text")
        // A sender's name heads their message (`data-part="header"`).
        #expect(html.contains(">Deploy Bot</div>"), "a bot named from the bot user's profile")
        #expect(html.contains(">Unknown bot</div>"), "a bot the export names nowhere")
        #expect(!html.contains(">B2</div>") && !html.contains(">B9</div>"), "never a raw bot id as a name")
    }
}
