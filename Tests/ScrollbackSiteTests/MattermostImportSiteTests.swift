import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading
@testable import ScrollbackSite

/// Mattermost's bulk export (issue 43) built as a site: from a folder, a zip (`import.jsonl` and
/// `data/`, as `mmctl export create --attachments` packs it) and a single file; every record a
/// message element or left out; `import` + `build` gives the site `build` gives.
@Suite struct MattermostImportSiteTests {
    /// A bulk export with its attachments: a channel with a thread and a photo, and a DM.
    static func export(in folder: TemporaryFolder, at path: String) throws -> URL {
        let lines = [
            #"{"type":"version","version":1,"info":{"generator":"mattermost-server","version":"9.11.0"}}"#,
            #"{"type":"team","team":{"name":"crew","display_name":"The Crew","type":"O"}}"#,
            #"{"type":"channel","channel":{"team":"crew","name":"town-square","display_name":"Town Square","type":"O","purpose":"Everyone"}}"#,
            #"{"type":"user","user":{"username":"ana","first_name":"Ana","last_name":"Lima","teams":null}}"#,
            #"{"type":"user","user":{"username":"bo","nickname":"Bobo","teams":null}}"#,
            #"{"type":"post","post":{"team":"crew","channel":"town-square","user":"ana","message":"Photos from *Friday*","create_at":1714557700000,"attachments":[{"path":"20240501/teams/t/channels/c/users/u/p/beach.png"}],"reactions":[{"user":"bo","emoji_name":"heart","create_at":1714557710000}],"replies":[{"user":"bo","message":"Lovely!","create_at":1714557800000}]}}"#,
            #"{"type":"post","post":{"team":"crew","channel":"town-square","user":"bo","type":"system_join_channel","message":"bo joined the channel.","create_at":1714557600000}}"#,
            #"{"type":"direct_channel","direct_channel":{"members":["ana","bo"]}}"#,
            #"{"type":"direct_post","direct_post":{"channel_members":["ana","bo"],"user":"bo","message":"see you","create_at":1714558000000}}"#,
        ]
        try folder.write(lines.joined(separator: "\n") + "\n", to: path + "/import.jsonl")
        try folder.write(Logs.png, to: path + "/data/20240501/teams/t/channels/c/users/u/p/beach.png")
        return folder.url.appendingPathComponent(path)
    }

    @Test("a folder, a zip and a single file build; message elements = the ledger's messages; the app pill")
    func folderZipAndFile() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        let export = try Self.export(in: base, at: "input/mattermost-export")
        let site = base.url.appendingPathComponent("site")
        let report = try build(base.url.appendingPathComponent("input"), site)
        #expect(!report.hasErrors, "\(report.diagnostics)")
        // The only warning: a bulk export does not say who made it, so the DM asks for `me`.
        let warnings = report.diagnostics.filter { $0.severity == .warning }
        #expect(warnings.count == 1 && warnings[0].description.contains("does not say who you are"), "\(warnings)")
        let counts = ExportFixtures.ledger(report)
        #expect(counts.read == 4 && counts.built == 4 && counts.leftOut == 0)
        #expect(try ExportFixtures.messageElements(in: site) == counts.built)
        let page = try String(contentsOf: site.appendingPathComponent("crew-town-square/index.html"), encoding: .utf8)
        #expect(page.contains("Ana Lima") && page.contains("Lovely!") && page.contains("bo joined the channel."))
        #expect(page.contains("media/"), "the photo is copied")
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("dm-ana-bo/index.html").path))
        let index = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains(#"<span class="app app-mattermost">Mattermost</span>"#))

        // The same export as the zip `mmctl export create --attachments` makes gives the same pages.
        let zip = try ExportFixtures.zip(export, as: "export.zip", in: base)
        let zipSite = try ExportFixtures.expectBuildsAlike(
            zip.deletingLastPathComponent(), into: "zip-site", in: base, counts: counts)
        let zipPage = try String(
            contentsOf: zipSite.appendingPathComponent("crew-town-square/index.html"), encoding: .utf8)
        #expect(zipPage == page)

        // A single file as the input: the shared sample, named `.json`.
        let sample = try SharedSamples.folder().appendingPathComponent(
            "mattermost/zulip-mattermost_fixtures/export.json")
        let fileSite = base.url.appendingPathComponent("file-site")
        let fileReport = try build(sample, fileSite)
        #expect(!fileReport.hasErrors, "\(fileReport.diagnostics)")
        #expect(ExportFixtures.ledger(fileReport).read == 21)  // 20 posts and a reply
        #expect(try ExportFixtures.messageElements(in: fileSite) == ExportFixtures.ledger(fileReport).built)
    }

    @Test("every shared Mattermost sample: records = message elements + left out")
    func sharedSamples() throws {
        for folder in try ImportTests.sampleFolders("mattermost") {
            try ExportFixtures.expectSampleAddsUp(folder)
        }
    }

    @Test("`import mattermost` then `build` gives the site `build` gives, byte for byte")
    func importThenBuildIsBuild() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        let input = base.url.appendingPathComponent("input")
        _ = try Self.export(in: base, at: "input/mattermost-export")
        // The shared samples: two exports of one server (the same channels: `-2`, `-3` ids) and a third.
        let samples = try SharedSamples.folder().appendingPathComponent("mattermost/zulip-mattermost_fixtures")
        for name in ["export.json", "guestExport.json", "direct_channel/export.json"] {
            try base.write(try Data(contentsOf: samples.appendingPathComponent(name)), to: "input/zulip/" + name)
        }
        let direct = base.url.appendingPathComponent("direct")
        #expect(try !build(input, direct).hasErrors)
        let logs = base.url.appendingPathComponent("logs")
        let run = try ScrollbackProcess.run(["import", "mattermost", input.path, "-o", logs.path], in: base.url)
        #expect(run.status == 0, "\(run.errors)")
        let viaLogs = base.url.appendingPathComponent("via-logs")
        #expect(try !build(logs, viaLogs).hasErrors)
        try ExportFixtures.expectSameSite(direct, viaLogs)
    }
}
