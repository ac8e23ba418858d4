import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading
@testable import ScrollbackSite

/// Microsoft Teams tenant exports (issue 43) built as a site: from a folder, a zip and a single
/// file; every record a message element or left out; `import` + `build` gives the site `build`
/// gives.
@Suite struct TeamsImportSiteTests {
    /// The shared sample (Zulip's test tenant).
    static func sample() throws -> URL {
        try SharedSamples.folder().appendingPathComponent(
            "teams/zulip-microsoft_teams_fixtures/TeamsData_ZulipChat")
    }

    @Test("a folder, a zip and a single file build; message elements = the ledger's messages; the app pill")
    func folderZipAndFile() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        let site = base.url.appendingPathComponent("site")
        let report = try build(Self.sample(), site)
        #expect(!report.hasErrors, "\(report.diagnostics)")
        let counts = ExportFixtures.ledger(report)
        #expect(counts.read == 16 && counts.built == 16 && counts.leftOut == 0)
        #expect(report.conversations == 4)
        #expect(try ExportFixtures.messageElements(in: site) == counts.built)
        let index = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains(#"<span class="app app-teams">Microsoft Teams</span>"#))
        let chat = try String(contentsOf: site.appendingPathComponent("dm-alya-abbott/index.html"), encoding: .utf8)
        #expect(chat.contains("not in this export") && !chat.contains("graph.microsoft.com/v1.0"))
        let channel = try String(
            contentsOf: site.appendingPathComponent("core-team-general/index.html"), encoding: .utf8)
        #expect(channel.contains("👻") && !channel.contains("color:#"))

        // The same export as a zip gives the same counts.
        let zip = try ExportFixtures.zip(Self.sample(), as: "TeamsData.zip", in: base, keepingParent: true)
        try ExportFixtures.expectBuildsAlike(
            zip.deletingLastPathComponent(), into: "zip-site", in: base, counts: counts)

        // One user's messages file as the input: that user's chats.
        let file = try Self.sample().appendingPathComponent(
            "users/88cbf3c2-0810-4d32-aa19-863c12bf7be9/messages_88cbf3c2-0810-4d32-aa19-863c12bf7be9.json")
        let fileSite = base.url.appendingPathComponent("file-site")
        let fileReport = try build(file, fileSite)
        #expect(!fileReport.hasErrors, "\(fileReport.diagnostics)")
        #expect(ExportFixtures.ledger(fileReport).read == 9 && fileReport.conversations == 3)
        #expect(try ExportFixtures.messageElements(in: fileSite) == ExportFixtures.ledger(fileReport).built)
    }

    @Test("`import teams` then `build` gives the site `build` gives, byte for byte")
    func importThenBuildIsBuild() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        let input = base.url.appendingPathComponent("input")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.sample(), to: input.appendingPathComponent("TeamsData"))
        try ExportFixtures.expectImportThenBuildIsBuild(input, format: .teams, in: base, logs: 4)
        let run = try ScrollbackProcess.run(["import", "teams", "input", "-o", "cli-logs"], in: base.url)
        #expect(run.status == 0, "\(run.errors)")
    }
}
