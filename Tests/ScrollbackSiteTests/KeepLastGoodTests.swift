import Foundation
import ScrollbackCache
import ScrollbackModel
import Testing

@testable import ScrollbackSite

/// Issue 14: one typo never removes a conversation from a published archive.
@Suite("Keep last good pages")
struct KeepLastGoodTests {
    /// Two good logs, built once.
    struct Project {
        let folder: TemporaryFolder
        var input: URL { folder.url.appendingPathComponent("logs") }
        var output: URL { folder.url.appendingPathComponent("site") }

        init() throws {
            folder = try TemporaryFolder()
            try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 5), to: "logs/trip.json")
            try folder.write(
                Logs.conversation(id: "work", title: "Work", count: 3, day: "2024-06-01"), to: "logs/work.json")
        }

        /// `trip.json` with a typo: its third message has a kind spec §1 does not know.
        func breakTrip() throws {
            let broken = Logs.conversation(id: "trip", title: "Trip renamed", count: 6)
                .replacingOccurrences(of: #""text": "Message 2 of trip""#, with: #""kind": "txet", "text": "x""#)
            try folder.write(broken, to: "logs/trip.json")
        }

        func site() throws -> [String: Data] { try snapshot(output) }

        func text(_ path: String) throws -> String {
            String(decoding: try #require(try site()[path]), as: UTF8.self)
        }
    }

    @Test("a log that now has an error keeps its pages and index entry; the build fails and says so")
    func keepsPagesAndIndexEntry() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try build(project.input, project.output)
        let before = try project.site()
        try project.breakTrip()

        let report = try build(project.input, project.output)
        #expect(report.hasErrors)
        #expect(report.conversations == 2)
        #expect(report.keptConversations == 1)
        #expect(report.messages == 8)
        #expect(report.summaryLine.contains("1 kept from the last good build"))
        let after = try project.site()
        #expect(after["trip/index.html"] == before["trip/index.html"])
        let index = try project.text("index.html")
        #expect(index.contains("trip/index.html"))
        #expect(index.contains(">Trip<"))
        #expect(!index.contains("Trip renamed"))
        // The error at its place, and the note that the old pages were kept, both located.
        let printed = report.diagnostics.map(\.description)
        #expect(
            printed.contains { $0.hasPrefix("logs/trip.json:") && $0.contains("error: unknown message kind 'txet'") })
        #expect(
            printed.contains(
                "logs/trip.json:1:1: warning: kept the previous pages of 'trip' from the last good build; expected this log without errors to update them"
            ))

        // Still broken: kept again, still failing.
        let again = try build(project.input, project.output)
        #expect(again.hasErrors)
        #expect(again.keptConversations == 1)
        #expect(try project.site()["trip/index.html"] == before["trip/index.html"])

        // Fixed: built from the new log.
        try project.folder.write(Logs.conversation(id: "trip", title: "Trip renamed", count: 6), to: "logs/trip.json")
        let fixed = try build(project.input, project.output)
        #expect(!fixed.hasErrors)
        #expect(fixed.keptConversations == 0)
        #expect(fixed.messages == 9)
        #expect(try project.text("index.html").contains("Trip renamed"))
    }

    @Test("with no earlier good build, or with --clean, a log with errors is left out")
    func leftOutWithoutEarlierBuild() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try project.breakTrip()
        let first = try build(project.input, project.output)
        #expect(first.hasErrors)
        #expect(first.conversations == 1)
        #expect(first.keptConversations == 0)
        #expect(!first.diagnostics.contains { if case .keptPreviousPages = $0.problem { true } else { false } })
        #expect(!(try project.site()).keys.contains { $0.hasPrefix("trip/") })

        try project.folder.write(Logs.conversation(id: "trip", title: "Trip", count: 5), to: "logs/trip.json")
        try build(project.input, project.output)
        try project.breakTrip()
        let clean = try build(project.input, project.output, clean: true)
        #expect(clean.hasErrors)
        #expect(clean.keptConversations == 0)
        #expect(!(try project.site()).keys.contains { $0.hasPrefix("trip/") })
    }

    @Test("pages kept across a settings change are never reused as current ones")
    func keptAcrossSettingsChange() throws {
        let project = try Project()
        defer { project.folder.remove() }
        let good = Logs.conversation(id: "trip", title: "Trip", count: 5)
        try build(project.input, project.output)
        let before = try project.site()
        try project.breakTrip()
        try project.folder.write("title: Our chats\n", to: "logs/scrollback.yml")

        let report = try build(project.input, project.output)
        #expect(report.hasErrors)
        #expect(report.keptConversations == 1)
        #expect(try project.site()["trip/index.html"] == before["trip/index.html"])

        // The good bytes restored: rebuilt with the new settings, not the kept pages reused.
        try project.folder.write(good, to: "logs/trip.json")
        let restored = try build(project.input, project.output)
        #expect(!restored.hasErrors)
        #expect(restored.reusedConversations == 1)  // work.json only
        #expect(restored.rebuiltConversations == 1)
        // And the site is the one a clean build makes, manifest included.
        let other = project.folder.url.appendingPathComponent("fresh")
        try build(project.input, other)
        #expect(try project.site() == snapshot(other))
    }

    @Test("a Markdown log that lost its front matter is an error that keeps its pages, not a skipped README")
    func markdownLogWithoutFrontMatter() throws {
        let project = try Project()
        defer { project.folder.remove() }
        let log = "---\nparticipants:\n  alice: Alice\n---\n\n# 2024-05-03\n\n**alice** 09:41\nHello\n"
        try project.folder.write(log, to: "logs/notes.md")
        try build(project.input, project.output)
        let before = try project.site()["notes/index.html"]
        #expect(before != nil)
        try project.folder.write(log.replacingOccurrences(of: "---\n", with: ""), to: "logs/notes.md")
        let report = try build(project.input, project.output)
        #expect(report.hasErrors)
        #expect(report.keptConversations == 1)
        #expect(try project.site()["notes/index.html"] == before)
        #expect(
            report.diagnostics.map(\.description).contains(
                "logs/notes.md:1:1: error: not a conversation log, skipped: it has no front matter; a Markdown log opens with front matter holding 'participants'"
            ))
    }

    @Test("a kept conversation's messages are all still on its pages")
    func keptPagesHoldEveryMessage() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try build(project.input, project.output)
        try project.breakTrip()
        try build(project.input, project.output)
        let page = try project.text("trip/index.html")
        #expect(page.components(separatedBy: "data-message-id=").count - 1 == 5)
    }

    @Test("diagnostics are reported once, sorted by file, line and column, the same on every build")
    func diagnosticsInStableOrder() throws {
        let project = try Project()
        defer { project.folder.remove() }
        for name in ["b", "a", "c/d", "c"] {
            try project.folder.write(
                Logs.unknownKind.replacingOccurrences(
                    of: "broken", with: "x-" + name.replacingOccurrences(of: "/", with: "-")), to: "logs/\(name).json")
        }
        try project.folder.write("title: [unclosed\n", to: "logs/scrollback.yml")
        // A config error stops the build; its diagnostics are still reported.
        let calls = Calls()
        var options = SiteBuilder.Options.test(input: project.input, output: project.output)
        options.onDiagnostics = { calls.append($0) }
        #expect(throws: SiteBuildError.invalidConfig) { try SiteBuilder(options: options).build() }
        #expect(calls.values.count == 1)
        try FileManager.default.removeItem(at: project.input.appendingPathComponent("scrollback.yml"))

        var printed: [[String]] = []
        for _ in 0..<3 {
            let calls = Calls()
            options.onDiagnostics = { calls.append($0) }
            let report = try SiteBuilder(options: options).build()
            #expect(calls.values.count == 1)
            let lines = try #require(calls.values.first).map(\.description)
            #expect(lines == report.diagnostics.map(\.description))
            printed.append(lines)
        }
        #expect(printed[0] == printed[1] && printed[1] == printed[2])
        let files = printed[0].map { String($0.prefix { $0 != ":" }) }
        #expect(files == ["logs/a.json", "logs/b.json", "logs/c.json", "logs/c/d.json"])
        let located = try #require(printed[0].first)
        #expect(located.hasPrefix("logs/a.json:6:"))
    }
}

/// Collects the arguments of a callback called from any thread.
final class Calls: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [[Diagnostic]] = []

    func append(_ diagnostics: [Diagnostic]) {
        lock.lock()
        stored.append(diagnostics)
        lock.unlock()
    }

    var values: [[Diagnostic]] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
