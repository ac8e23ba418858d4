import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading
@testable import ScrollbackSite

/// Element's Matrix room export (issue 43) built as a site: a single JSON file, the zip Element
/// writes with attachments, and its unpacked folder; every record a message element or left out;
/// `import` + `build` gives the site `build` gives.
@Suite struct MatrixImportSiteTests {
    /// One event of the room, `second` seconds after 2024-05-01 10:00 UTC.
    static func event(_ type: String, _ sender: String, _ id: String, second: Int, _ rest: String) -> String {
        #"{"type": "\#(type)", "sender": "@\#(sender):example.org", "origin_server_ts": "#
            + "\(1_714_557_600_000 + second * 1000)" + #", "event_id": "$\#(id)", "# + rest + "}"
    }

    /// Element's export: a join, a message, its edit, a reaction, a reply, a photo, a redacted message.
    static let export =
        #"{"room_name": "Crab Club", "room_creator": "Ana", "topic": "", "export_date": "2024/05/02", "#
        + #""exported_by": "Ana", "messages": ["#
        + [
            event(
                "m.room.member", "ana", "join", second: 0,
                #""state_key": "@ana:example.org", "content": {"membership": "join", "displayname": "Ana"}"#),
            event(
                "m.room.message", "ana", "m1", second: 10,
                #""content": {"msgtype": "m.text", "body": "Hi", "format": "org.matrix.custom.html", "#
                    + #""formatted_body": "<b>Hi</b>"}"#),
            event(
                "m.room.message", "ana", "m1-edit", second: 15,
                #""content": {"msgtype": "m.text", "body": "* Hi all", "m.new_content": {"msgtype": "m.text", "#
                    + #""body": "Hi all"}, "m.relates_to": {"rel_type": "m.replace", "event_id": "$m1"}}"#),
            event(
                "m.reaction", "bo", "r1", second: 16,
                #""content": {"m.relates_to": {"rel_type": "m.annotation", "event_id": "$m1", "key": "🦀"}}"#),
            event(
                "m.room.message", "bo", "m2", second: 20,
                #""content": {"msgtype": "m.text", "body": "> <@ana:example.org> Hi all\n\nhello", "#
                    + #""m.relates_to": {"m.in_reply_to": {"event_id": "$m1"}}}"#),
            event(
                "m.room.message", "bo", "img", second: 30,
                #""content": {"msgtype": "m.image", "body": "crab.png", "url": "mxc://example.org/crab", "#
                    + #""info": {"w": 2, "h": 1}}"#),
            event(
                "m.room.message", "bo", "gone", second: 40,
                #""content": {}, "unsigned": {"redacted_because": {"type": "m.room.redaction"}}"#),
        ].joined(separator: ",\n") + "]}"

    /// Element's zip, unpacked: `export.json` and the photo under `images/`.
    static func exportFolder(in folder: TemporaryFolder, at path: String) throws -> URL {
        try folder.write(export, to: path + "/export.json")
        try folder.write(Logs.png, to: path + "/images/crab-5-1-2024 at 10-00-30 AM.png")
        return folder.url.appendingPathComponent(path)
    }

    @Test("a single file, a zip and a folder build; message elements = the ledger's messages; the app pill")
    func fileZipAndFolder() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        // The JSON alone, as Element saves it without attachments.
        let single = try base.write(Self.export, to: "single/matrix - Crab Club - Chat Export - 2024-05-02.json")
        let fileSite = base.url.appendingPathComponent("file-site")
        let fileReport = try build(single, fileSite)
        #expect(!fileReport.hasErrors, "\(fileReport.diagnostics)")
        let counts = ExportFixtures.ledger(fileReport)
        #expect(counts.read == 7 && counts.built == 5 && counts.leftOut == 2)
        #expect(try ExportFixtures.messageElements(in: fileSite) == counts.built)
        let page = try String(contentsOf: fileSite.appendingPathComponent("crab-club/index.html"), encoding: .utf8)
        #expect(page.contains("Hi all") && page.contains("🦀"))
        #expect(!page.contains("src=\"mxc:") && !page.contains("href=\"mxc:"), "no page loads an mxc URL")
        let index = try String(contentsOf: fileSite.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains(#"<span class="app app-matrix">Matrix</span>"#))

        // The unpacked zip: the photo is copied.
        let folder = try Self.exportFolder(in: base, at: "input/matrix-export")
        let folderSite = base.url.appendingPathComponent("folder-site")
        let folderReport = try build(base.url.appendingPathComponent("input"), folderSite)
        #expect(!folderReport.hasErrors, "\(folderReport.diagnostics)")
        #expect(ExportFixtures.ledger(folderReport) == counts)
        #expect(try ExportFixtures.messageElements(in: folderSite) == counts.built)
        let folderPage = try String(
            contentsOf: folderSite.appendingPathComponent("crab-club/index.html"), encoding: .utf8)
        #expect(folderPage.contains("media/"), "the photo is copied")

        // Element's zip.
        let zip = try ExportFixtures.zip(folder, as: "matrix-export-2024-05-02.zip", in: base)
        let zipSite = try ExportFixtures.expectBuildsAlike(zip, into: "zip-site", in: base, counts: counts)
        #expect(try snapshot(zipSite).keys.contains { $0.hasPrefix("media/") })
    }

    @Test("`import matrix` then `build` gives the site `build` gives, byte for byte")
    func importThenBuildIsBuild() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        let input = base.url.appendingPathComponent("input")
        _ = try Self.exportFolder(in: base, at: "input/matrix-export")
        try ExportFixtures.expectImportThenBuildIsBuild(input, format: .matrix, in: base, logs: 1)
        let run = try ScrollbackProcess.run(["import", "matrix", "input", "-o", "cli-logs"], in: base.url)
        #expect(run.status == 0, "\(run.errors)")
    }
}
