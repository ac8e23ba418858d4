import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading
@testable import ScrollbackSite

/// LINE's chat history text (issue 43) built as a site: from a folder, a zip and a single file;
/// every row a message element or left out; `import` + `build` gives the site `build` gives.
/// No public sample is in the shared samples: the fixture follows the documented shape.
@Suite struct LineImportSiteTests {
    /// A one-to-one chat (English phone) and a group (Japanese phone), with a row left out.
    static func chats(in folder: TemporaryFolder, at path: String) throws -> URL {
        try folder.write(
            """
            [LINE] Chat history with Kaori
            Saved on: 2024/01/16 10:00

            2024/01/15(Mon)
            09:00\tErik\tgood morning
            09:01\tKaori\t"two
            lines"
            09:02\tKaori\t[Sticker]
            09:03\t\tKaori unsent a message.
            """, to: path + "/[LINE] Chat with Kaori.txt")
        try folder.write(
            """
            [LINE] 山登りのトーク履歴
            午前10:00\tAna\t日付がない
            2024/01/15(月)
            午前10:01\tAna\tおはよう
            午後2:30\tBo\t[写真]
            午後2:31\tCy\t🎉
            """, to: path + "/[LINE] 山登りのトーク.txt")
        return folder.url.appendingPathComponent(path)
    }

    @Test("a folder, a zip and a single file build; message elements = the ledger's messages; the app pill")
    func folderZipAndFile() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        let input = try Self.chats(in: base, at: "input")
        let site = base.url.appendingPathComponent("site")
        let report = try build(input, site)
        #expect(!report.hasErrors, "\(report.diagnostics)")
        let counts = ExportFixtures.ledger(report)
        #expect(counts.read == 8 && counts.built == 7 && counts.leftOut == 1)
        #expect(try ExportFixtures.messageElements(in: site) == counts.built)
        let page = try String(contentsOf: site.appendingPathComponent("kaori/index.html"), encoding: .utf8)
        #expect(page.contains("two<br"), "the quoted message keeps its lines")
        let index = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains(#"<span class="app app-line">LINE</span>"#))

        let zip = try ExportFixtures.zip(input, as: "line.zip", in: base)
        try ExportFixtures.expectBuildsAlike(
            zip.deletingLastPathComponent(), into: "zip-site", in: base, counts: counts)

        let fileSite = base.url.appendingPathComponent("file-site")
        let fileReport = try build(input.appendingPathComponent("[LINE] Chat with Kaori.txt"), fileSite)
        #expect(!fileReport.hasErrors, "\(fileReport.diagnostics)")
        #expect(ExportFixtures.ledger(fileReport).read == 4)
        #expect(try ExportFixtures.messageElements(in: fileSite) == 4)
    }

    @Test("`import line` then `build` gives the site `build` gives, byte for byte")
    func importThenBuildIsBuild() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        let input = try Self.chats(in: base, at: "input")
        try ExportFixtures.expectImportThenBuildIsBuild(input, format: .line, in: base, logs: 2)
    }
}
