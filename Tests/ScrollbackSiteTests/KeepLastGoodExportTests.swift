import Foundation
import ScrollbackModel
import ScrollbackReading
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

    /// A whole-account Telegram export of two chats of `count` messages each.
    static func telegramAccount(count: Int) -> String {
        let chats = [("Club", 77), ("Family", 78)].map { name, id in
            let messages = (1...count).map { number in
                #"{"id": \#(number), "type": "message", "date": "2024-05-01T10:0\#(number % 10):00", "from": "Ann", "from_id": "user5", "text": "\#(name) \#(number)"}"#
            }
            return #"{"name": "\#(name)", "type": "private_group", "id": \#(id), "messages": [\#n"#
                + messages.joined(separator: ",\n") + "]}"
        }
        return #"{"about": "x", "personal_information": {"user_id": 5}, "chats": {"about": "y", "list": [\#n"#
            + chats.joined(separator: ",\n") + "\n]}}\n"
    }

    @Test("a Telegram export truncated after a good build keeps the pages of all its chats, with a located error")
    func truncatedTelegramExport() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 2), to: "in/trip.json")
        let export = Self.telegramAccount(count: 3)
        try folder.write(export, to: "in/telegram/result.json")
        let input = folder.url.appendingPathComponent("in")
        let output = folder.url.appendingPathComponent("site")
        let first = try build(input, output)
        #expect(!first.hasErrors, "\(first.diagnostics)")
        #expect(first.conversations == 3)
        let before = try snapshot(output)
        let chatPages = before.keys.filter {
            $0.hasSuffix(".html") && ($0.hasPrefix("club-") || $0.hasPrefix("family-"))
        }
        #expect(chatPages.count >= 2, "\(before.keys.sorted())")
        // Cut in the middle of the second chat: the document ends too soon.
        let cut = String(export.prefix(export.count * 3 / 4))
        try folder.write(cut, to: "in/telegram/result.json")
        // The error the parser gives for the whole file: the build must name the same place.
        var parseError: Diagnostic?
        do { _ = try JSONParser.parse(Array(cut.utf8), file: "in/telegram/result.json") } catch { parseError = error }
        let expected = try #require(parseError?.location)

        let report = try build(input, output)
        #expect(report.hasErrors)
        #expect(report.conversations == 3)
        #expect(report.keptConversations == 2)
        let after = try snapshot(output)
        for page in chatPages { #expect(after[page] == before[page], "\(page)") }
        let located = "in/telegram/result.json:\(expected.line):\(expected.column):"
        let printed = report.diagnostics.map(\.description)
        #expect(printed.contains { $0.hasPrefix(located + " error: ") }, "\(printed)")
        #expect(
            printed.filter { $0.hasPrefix(located + " warning: kept the previous pages of '") }.count == 2, "\(printed)"
        )
        // Mended, it is read again; deleted, its chats go with it.
        try folder.write(Self.telegramAccount(count: 4), to: "in/telegram/result.json")
        let mended = try build(input, output)
        #expect(!mended.hasErrors)
        #expect(mended.keptConversations == 0)
        #expect(mended.messages == 2 + 8)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("in/telegram"))
        let removed = try build(input, output)
        #expect(!removed.hasErrors)
        #expect(removed.conversations == 1)
    }
}
