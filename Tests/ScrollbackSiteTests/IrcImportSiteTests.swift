import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading
@testable import ScrollbackSite

/// IRC logs (issue 43) built as a site: from a folder, a zip and a single file; every line a
/// message element or left out; `import` + `build` gives the site `build` gives. No public
/// sample is in the shared samples: the fixtures follow the clients' default layouts.
@Suite struct IrcImportSiteTests {
    /// A ZNC channel folder of two days, an irssi log and a WeeChat log, with one line left out.
    static func logs(in folder: TemporaryFolder, at path: String) throws -> URL {
        try folder.write(
            "[10:00:00] *** Joins: ana (~ana@host)\n[10:01:00] <ana> hi\n", to: path + "/libera/#chan/2023-01-15.log")
        try folder.write("[09:00:00] * bo waves\n", to: path + "/libera/#chan/2023-01-16.log")
        try folder.write(
            """
            --- Log opened Sun Jan 15 10:00:00 2023
            10:00 <@ana> hello
            10:01 -!- bo is now known as bob
            not a line
            --- Log closed Sun Jan 15 11:00:00 2023
            """, to: path + "/irclogs/oftc/#dev.log")
        try folder.write(
            "2023-01-15 10:00:00\t@ana\thi\n2023-01-15 10:02:00\t *\tana waves\n",
            to: path + "/weechat/irc.libera.bo.weechatlog")
        return folder.url.appendingPathComponent(path)
    }

    @Test("a folder, a zip and a single file build; message elements = the ledger's messages; the app pill")
    func folderZipAndFile() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        let input = try Self.logs(in: base, at: "input")
        try base.write("INFO a program's log, not IRC\n", to: "input/build.log")
        let site = base.url.appendingPathComponent("site")
        let report = try build(input, site)
        #expect(!report.hasErrors, "\(report.diagnostics)")
        #expect(report.conversations == 3)
        let counts = ExportFixtures.ledger(report)
        #expect(counts.read == 8 && counts.built == 7 && counts.leftOut == 1)
        #expect(try ExportFixtures.messageElements(in: site) == counts.built)
        let programLog = report.diagnostics.filter { $0.location?.file.hasSuffix("build.log") == true }
        #expect(programLog.map(\.severity) == [.note], "\(programLog)")
        let page = try String(contentsOf: site.appendingPathComponent("libera-chan/index.html"), encoding: .utf8)
        #expect(page.contains("<em>waves</em>"))
        let index = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains(#"<span class="app app-irc">IRC</span>"#))

        let zip = try ExportFixtures.zip(input, as: "logs.zip", in: base)
        try ExportFixtures.expectBuildsAlike(
            zip.deletingLastPathComponent(), into: "zip-site", in: base, counts: counts)

        let fileSite = base.url.appendingPathComponent("file-site")
        let fileReport = try build(input.appendingPathComponent("irclogs/oftc/#dev.log"), fileSite)
        #expect(!fileReport.hasErrors, "\(fileReport.diagnostics)")
        #expect(ExportFixtures.ledger(fileReport).read == 3)
        #expect(try ExportFixtures.messageElements(in: fileSite) == 2)
    }

    @Test("`import irc` then `build` gives the site `build` gives, byte for byte")
    func importThenBuildIsBuild() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        let input = try Self.logs(in: base, at: "input")
        try ExportFixtures.expectImportThenBuildIsBuild(input, format: .irc, in: base, logs: 3)
    }
}
