import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackSite

/// Issue 40.4: exports get the rule logs have (issue 14): a broken conversation keeps the pages
/// of the last good build, with a located error, and the build fails.
@Suite("Keep last good pages of exports")
struct KeepLastGoodExportTests {
    @Test("a Slack day file damaged after a good build: its channel keeps its pages, with a located error")
    func damagedSlackDayFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try ExportFixtures.slack(in: folder, at: "in/slack", count: 5)
        let input = folder.url.appendingPathComponent("in")
        let output = folder.url.appendingPathComponent("site")
        #expect(try !build(input, output).hasErrors)
        let before = try snapshot(output)
        #expect(try ExportFixtures.messageElements(in: output, conversation: "general") == 5)
        try folder.write(#"[{"type": "message", "user": "U1", "text": "cut"#, to: "in/slack/general/2024-06-10.json")

        let report = try build(input, output)
        #expect(report.hasErrors)
        #expect(report.conversations == 2)
        #expect(report.keptConversations == 1)
        let after = try snapshot(output)
        #expect(after["general/index.html"] == before["general/index.html"])
        #expect(try ExportFixtures.messageElements(in: output, conversation: "general") == 5)
        let printed = report.diagnostics.map(\.description)
        #expect(printed.contains { $0.hasPrefix("in/slack/general/2024-06-10.json:1:") && $0.contains(": error: ") })
        #expect(printed.contains { $0.contains("warning: kept the previous pages of 'general'") }, "\(printed)")
        // Mended, it is built again from the export.
        try ExportFixtures.slack(in: folder, at: "in/slack", count: 6)
        let mended = try build(input, output)
        #expect(!mended.hasErrors)
        #expect(mended.keptConversations == 0)
        #expect(try ExportFixtures.messageElements(in: output, conversation: "general") == 6)
    }

    @Test(
        "a WhatsApp zip that cannot be opened any more keeps the pages of its chat, with an error at the zip",
        arguments: [Data("PK\u{03}\u{04}broken beyond repair".utf8), Data("not a zip at all".utf8)])
    func damagedZip(damage: Data) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 2), to: "in/trip.json")
        let zip = try ExportFixtures.whatsAppZip(in: folder, at: "in/WhatsApp Chat with Alice.zip", count: 4)
        let input = folder.url.appendingPathComponent("in")
        let output = folder.url.appendingPathComponent("site")
        let first = try build(input, output)
        #expect(!first.hasErrors, "\(first.diagnostics)")
        #expect(first.conversations == 2)
        let before = try snapshot(output)
        let chatPages = before.keys.filter { $0.hasSuffix(".html") && $0.contains("/") && !$0.hasPrefix("trip/") }
        #expect(!chatPages.isEmpty)
        try damage.write(to: zip)

        let report = try build(input, output)
        #expect(report.hasErrors)
        #expect(report.conversations == 2)
        #expect(report.keptConversations == 1)
        let after = try snapshot(output)
        for page in chatPages { #expect(after[page] == before[page], "\(page)") }
        #expect(
            report.diagnostics.contains {
                $0.severity == .error && $0.location?.file == "in/WhatsApp Chat with Alice.zip"
                    && $0.description.contains(
                        "no conversation could be read from this zip, which held 1 in the last build")
            }, "\(report.diagnostics)")
        // A zip deleted on purpose takes its chat with it, without an error.
        try FileManager.default.removeItem(at: zip)
        let removed = try build(input, output)
        #expect(!removed.hasErrors)
        #expect(removed.conversations == 1)
    }
}
