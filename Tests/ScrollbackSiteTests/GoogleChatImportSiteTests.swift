import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading
@testable import ScrollbackSite

/// Google Chat from Google Takeout (issue 43) built as a site: the `Google Chat` folder, the
/// Takeout zip, and one conversation's folder alone (a single `messages.json` is not an export
/// by itself: its folder is); every record a message element or left out; `import` + `build`
/// gives the site `build` gives.
@Suite struct GoogleChatImportSiteTests {
    static let ana = #"{"name": "Ana", "email": "ana@example.com", "user_type": "Human"}"#
    static let bo = #"{"name": "Bo", "email": "bo@example.com", "user_type": "Human"}"#

    /// `Takeout/Google Chat` under `path`: a Space (a thread, a photo, an undated record) and a DM.
    static func takeout(in folder: TemporaryFolder, at path: String) throws -> URL {
        let chat = path + "/Takeout/Google Chat"
        func message(_ creator: String, _ time: String, _ topic: String, _ id: String, _ rest: String) -> String {
            #"{"creator": \#(creator), "created_date": "Tuesday, March 14, 2023 at \#(time)\#u{202F}AM UTC", "#
                + #""topic_id": "\#(topic)", "message_id": "AAAA/\#(topic)/\#(id)", "# + rest + "}"
        }
        let messages = [
            message(
                ana, "10:00:00", "T1", "T1",
                #""text": "Where to?", "reactions": [{"emoji": {"unicode": "🏖️"}, "reactor_emails": ["bo@example.com"]}]"#
            ),
            message(bo, "10:01:00", "T1", "R1", #""text": "Lisbon""#),
            message(
                bo, "10:02:00", "T2", "T2",
                #""text": "the beach", "attached_files": [{"original_name": "b.png", "export_name": "File-b.png"}]"#),
            #"{"creator": \#(ana), "created_date": "soon", "text": "?", "topic_id": "T3", "message_id": "AAAA/T3/T3"}"#,
        ]
        try folder.write(
            #"{"messages": ["# + messages.joined(separator: ",\n") + "]}", to: chat + "/Groups/Space AAAA/messages.json"
        )
        try folder.write(
            #"{"name": "Trip", "members": [\#(ana), \#(bo)]}"#, to: chat + "/Groups/Space AAAA/group_info.json")
        try folder.write(Logs.png, to: chat + "/Groups/Space AAAA/File-b.png")
        try folder.write(
            #"{"messages": [{"creator": \#(bo), "created_date": "Wednesday, 15 March 2023 at 09:00:00 UTC", "#
                + #""text": "hi", "topic_id": "D1", "message_id": "BBBB/D1/D1"}]}"#,
            to: chat + "/Groups/DM BBBB/messages.json")
        try folder.write(#"{"members": [\#(ana), \#(bo)]}"#, to: chat + "/Groups/DM BBBB/group_info.json")
        try folder.write(#"{"user": \#(ana)}"#, to: chat + "/Users/User 1/user_info.json")
        return folder.url.appendingPathComponent(path)
    }

    @Test("a Takeout folder, its zip and one conversation's folder build; elements = the ledger; the app pill")
    func folderZipAndGroup() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        let takeout = try Self.takeout(in: base, at: "input/takeout-20230401")
        let site = base.url.appendingPathComponent("site")
        let report = try build(base.url.appendingPathComponent("input"), site)
        #expect(!report.hasErrors, "\(report.diagnostics)")
        let unread = report.diagnostics.filter { $0.description.contains("not a chat export") }
        #expect(unread.isEmpty, "\(unread)")
        let counts = ExportFixtures.ledger(report)
        #expect(counts.read == 5 && counts.built == 4 && counts.leftOut == 1)
        #expect(try ExportFixtures.messageElements(in: site) == counts.built)
        let page = try String(contentsOf: site.appendingPathComponent("trip/index.html"), encoding: .utf8)
        #expect(page.contains("Lisbon") && page.contains("🏖️") && page.contains("media/"))
        let index = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains(#"<span class="app app-googlechat">Google Chat</span>"#))
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("bo/index.html").path))

        // The Takeout zip gives the same counts.
        let zip = try ExportFixtures.zip(takeout, as: "takeout-20230401T000000Z-001.zip", in: base)
        try ExportFixtures.expectBuildsAlike(zip, into: "zip-site", in: base, counts: counts)

        // One conversation's folder as the input.
        let group = takeout.appendingPathComponent("Takeout/Google Chat/Groups/Space AAAA")
        let groupSite = base.url.appendingPathComponent("group-site")
        let groupReport = try build(group, groupSite)
        #expect(!groupReport.hasErrors, "\(groupReport.diagnostics)")
        #expect(ExportFixtures.ledger(groupReport).read == 4)
        #expect(try ExportFixtures.messageElements(in: groupSite) == ExportFixtures.ledger(groupReport).built)
    }

    @Test("`import googlechat` then `build` gives the site `build` gives, byte for byte")
    func importThenBuildIsBuild() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        let input = base.url.appendingPathComponent("input")
        _ = try Self.takeout(in: base, at: "input/takeout")
        try ExportFixtures.expectImportThenBuildIsBuild(input, format: .googlechat, in: base, logs: 2)
    }
}
