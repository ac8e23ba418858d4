import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading
@testable import ScrollbackSite

/// imessage-exporter's TXT output (issue 43) built as a site: from a folder, a zip and a single
/// file; every record a message element or left out; `import` + `build` gives the site `build`
/// gives. No public sample is in the shared samples: the fixture follows the writer line by line.
@Suite struct IMessageImportSiteTests {
    /// An export folder: a group chat with a copied photo and a reply in its thread (one record
    /// left out: the reply's indented copy), a one-to-one chat, and `orphaned.txt`.
    static func export(in folder: TemporaryFolder, at path: String) throws -> URL {
        try folder.write(
            """
            May 17, 2022  5:29:42 PM You renamed the conversation to Family

            May 17, 2022  5:30:00 PM (Read by them after 1 hour, 49 seconds)
            Me
            Hello world
            Tapbacks:
            Loved by +15551234567

                May 17, 2022  5:31:10 PM
                +15551234567
                Replying in the thread


            May 17, 2022  5:31:10 PM
            +15551234567
            Replying in the thread
            This message responded to an earlier message.

            May 18, 2022 10:02:03 AM
            ana@example.com
            attachments/12/photo.png
            Look at this


            """, to: path + "/Family - 12.txt")
        try folder.write(Logs.png, to: path + "/attachments/12/photo.png")
        try folder.write(
            "May 19, 2022  9:00:00 AM\nMe\nSee you <b>soon</b>\n\nMay 19, 2022  9:01:00 AM\n+15557654321\n👍\n\n",
            to: path + "/+15557654321.txt")
        try folder.write("Jan 02, 2021  1:00:00 AM\nUnknown\nLost message\n\n", to: path + "/orphaned.txt")
        return folder.url.appendingPathComponent(path)
    }

    @Test("a folder, a zip and a single file build; message elements = the ledger's messages; the app pill")
    func folderZipAndFile() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        let input = try Self.export(in: base, at: "input")
        let site = base.url.appendingPathComponent("site")
        let report = try build(input, site)
        #expect(!report.hasErrors, "\(report.diagnostics)")
        #expect(report.conversations == 3)
        let counts = ExportFixtures.ledger(report)
        #expect(counts.read == 8 && counts.built == 7 && counts.leftOut == 1)
        #expect(try ExportFixtures.messageElements(in: site) == counts.built)
        let page = try String(contentsOf: site.appendingPathComponent("family/index.html"), encoding: .utf8)
        #expect(page.contains("media/") && page.contains("Look at this"))
        let direct = try String(contentsOf: site.appendingPathComponent("15557654321/index.html"), encoding: .utf8)
        #expect(direct.contains("See you &lt;b&gt;soon&lt;/b&gt;") && !direct.contains("<b>soon"))
        let index = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains(#"<span class="app app-imessage">iMessage</span>"#))
        let media = try FileManager.default.contentsOfDirectory(atPath: site.appendingPathComponent("media").path)
        #expect(media.contains { $0.hasSuffix(".png") })

        let zip = try ExportFixtures.zip(input, as: "messages.zip", in: base)
        try ExportFixtures.expectBuildsAlike(
            zip.deletingLastPathComponent(), into: "zip-site", in: base, counts: counts)

        let fileSite = base.url.appendingPathComponent("file-site")
        let fileReport = try build(input.appendingPathComponent("Family - 12.txt"), fileSite)
        #expect(!fileReport.hasErrors, "\(fileReport.diagnostics)")
        #expect(ExportFixtures.ledger(fileReport).read == 5)
        #expect(try ExportFixtures.messageElements(in: fileSite) == 4)
    }

    @Test("`import imessage` then `build` gives the site `build` gives, byte for byte")
    func importThenBuildIsBuild() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        let input = try Self.export(in: base, at: "input")
        try ExportFixtures.expectImportThenBuildIsBuild(input, format: .imessage, in: base, logs: 3)
    }
}
