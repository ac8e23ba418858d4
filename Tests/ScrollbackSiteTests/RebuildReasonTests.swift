import Foundation
import ScrollbackCache
import Testing

@testable import ScrollbackSite

/// `build --explain`'s reasons (`RebuildReason`, `AppendFallback`): each check of the append path
/// and of reuse is triggered here, and the report names it. The site stays the clean build's
/// (`AppendTests.Project.rebuildMatchesClean`) whatever the reason.
@Suite("Why a conversation is built again")
struct RebuildReasonTests {
    typealias Line = AppendTests.Line
    typealias Project = AppendTests.Project

    /// What the build did with `chat.json`.
    static func work(_ report: BuildReport, source: String = "chat.json") -> ConversationWork? {
        report.work.first { $0.source == source }?.work
    }

    /// Builds `lines`, lets `change` alter the project and the lines (by default: one message
    /// appended), rebuilds, and returns what the rebuild did with `chat.json`; the rebuilt site
    /// must equal a clean build unless `matchesClean` is false.
    static func reason(
        config: String = "pageSize: 3\n", lines: [Line] = AppendTests.lines(7),
        log: ([Line]) -> String = { AppendTests.log($0) }, matchesClean: Bool = true,
        prepare: (Project) throws -> Void = { _ in },
        change: (Project, inout [Line]) throws -> Void = { _, _ in }
    ) throws -> ConversationWork? {
        var lines = lines
        let project = try Project(log(lines))
        defer { project.folder.remove() }
        try project.folder.write(config, to: "logs/scrollback.yml")
        try prepare(project)
        try build(project.input, project.output)
        lines.append(Line(id: "m100", sender: "bob", minute: 300))
        try change(project, &lines)
        if matchesClean { return work(try project.rebuildMatchesClean(log(lines))) }
        try project.write(log(lines))
        return work(try build(project.input, project.output))
    }

    @Test("the first build, an unchanged log, an append, a changed log, changed settings")
    func everydayWork() throws {
        var lines = AppendTests.lines(7)
        let project = try Project(AppendTests.log(lines))
        defer { project.folder.remove() }
        #expect(Self.work(try build(project.input, project.output)) == .built(.noPreviousBuild))
        #expect(Self.work(try build(project.input, project.output)) == .reused)
        lines.append(Line(id: "m7", sender: "bob", minute: 80))
        #expect(Self.work(try project.rebuildMatchesClean(AppendTests.log(lines))) == .appended)
        lines.removeLast(2)
        #expect(Self.work(try project.rebuildMatchesClean(AppendTests.log(lines))) == .built(.logChanged))
        try project.folder.write("pageSize: 4\n", to: "logs/scrollback.yml")
        #expect(Self.work(try project.rebuildMatchesClean(AppendTests.log(lines))) == .built(.settingsChanged))
        let report = try build(project.input, project.output, clean: true)
        #expect(Self.work(report) == .built(.noPreviousBuild))
        #expect(report.work.map(\.line).contains("chat.json (chat): built: no previous build of it in the cache"))
    }

    @Test("an unchanged log whose previous page is gone is built again, and says so")
    func previousPagesUnusable() throws {
        let project = try Project(AppendTests.log(AppendTests.lines(7)))
        defer { project.folder.remove() }
        try build(project.input, project.output)
        try FileManager.default.removeItem(at: project.output.appendingPathComponent("chat/page-2.html"))
        #expect(Self.work(try build(project.input, project.output)) == .built(.previousPagesUnusable))
        #expect(FileManager.default.fileExists(atPath: project.output.path + "/chat/page-2.html"))
    }

    @Test("a conversation of an export is read whole, and a broken log keeps its pages or is left out")
    func exportsAndErrors() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("2/3/24, 09:00 - Ana: Hi\n2/3/24, 09:01 - Ben: Hello\n", to: "in/WhatsApp Chat with Ana.txt")
        try folder.write(Logs.conversation(id: "chat", title: "Chat", count: 2), to: "in/chat.json")
        let input = folder.url.appendingPathComponent("in")
        let output = folder.url.appendingPathComponent("site")
        let report = try build(input, output)
        #expect(
            report.work.contains {
                $0.work == .built(.exportRead) && $0.source == "whatsapp in/WhatsApp Chat with Ana.txt"
            },
            "\(report.work)")
        // Broken to a bare `{`: beside an export, a JSON file with no `messages` is a side file,
        // but this one was a log, so its error is reported and its pages kept.
        try folder.write("{", to: "in/chat.json")
        let broken = try build(input, output)
        #expect(Self.work(broken) == .keptLastGood, "\(broken.work)")
        #expect(broken.hasErrors && broken.diagnostics.contains { $0.description.contains("chat.json:1:2: error") })
        try folder.write(Logs.unknownKind, to: "in/chat.json")
        let clean = try build(input, output, clean: true)
        #expect(Self.work(clean) == .leftOut, "\(clean.work)")
    }

    // MARK: The append path's checks, in the order it makes them

    @Test("a base URL: the feed lists the newest messages")
    func publishedFeed() throws {
        #expect(
            try Self.reason(config: "pageSize: 3\nbaseURL: https://example.com/chats/\n")
                == .built(.append(.publishedFeed)))
    }

    @Test("a Markdown log that grew")
    func notJSON() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let head = "---\ntitle: Notes\nparticipants:\n  alice: Alice\n---\n\n# 2024-05-03\n\n**alice** 09:00\nHello\n"
        try folder.write(head, to: "in/notes.md")
        let input = folder.url.appendingPathComponent("in")
        let output = folder.url.appendingPathComponent("site")
        try build(input, output)
        try folder.write(head + "\n**alice** 09:05\nAgain\n", to: "in/notes.md")
        #expect(Self.work(try build(input, output), source: "notes.md") == .built(.append(.notJSON)))
    }

    @Test("a log with a pinned message keeps no checkpoint")
    func noCheckpoint() throws {
        var lines = AppendTests.lines(7)
        lines[2].extra = #", "pinned": true"#
        #expect(try Self.reason(lines: lines) == .built(.append(.noCheckpoint)))
    }

    @Test("a damaged checkpoint in the cache")
    func checkpointUnreadable() throws {
        let work = try Self.reason(change: { project, _ in
            try Data("not a checkpoint".utf8).write(
                to: URL(fileURLWithPath: testCacheTree(of: project.output) + "/append/chat.bin"))
        })
        #expect(work == .built(.append(.checkpointUnreadable)))
    }

    @Test("ids that are not their own anchors, old or new")
    func idsNotOwnAnchors() throws {
        var lines = AppendTests.lines(7)
        lines[3].id = "M3"
        #expect(try Self.reason(lines: lines) == .built(.append(.idsNotOwnAnchors)))
        let work = try Self.reason(change: { _, lines in lines[lines.count - 1].id = "New" })
        #expect(work == .built(.append(.idsNotOwnAnchors)))
    }

    @Test("a media file that changed")
    func mediaChanged() throws {
        var lines = AppendTests.lines(7)
        lines[6].extra = #", "kind": "photo", "media": {"url": "media/p.png"}"#
        let work = try Self.reason(
            lines: lines, prepare: { project in try project.folder.write(Logs.png, to: "logs/media/p.png") },
            change: { project, _ in try project.folder.write(Logs.png + Logs.png, to: "logs/media/p.png") })
        #expect(work == .built(.append(.mediaChanged)))
    }

    @Test("the last message grew instead of a message being added")
    func notAddedAtEnd() throws {
        var first = true
        let work = try Self.reason(
            log: { lines in
                defer { first = false }
                let log = AppendTests.log(lines)
                return first ? log : log.replacingOccurrences(of: "Text of m6", with: "Text of m6, and more")
            },
            change: { _, lines in lines.removeLast() })
        #expect(work == .built(.append(.notAddedAtEnd)))
    }

    @Test("what follows the messages changed")
    func tailChanged() throws {
        var first = true
        let work = try Self.reason(log: { lines in
            defer { first = false }
            let log = AppendTests.log(lines, messagesFirst: true)
            return first ? log : log.replacingOccurrences(of: "\"Alice\"", with: "\"Alica\"")
        })
        #expect(work == .built(.append(.tailChanged)))
    }

    @Test("an old message changed in place, on a page the append leaves alone")
    func headChanged() throws {
        var first = true
        let work = try Self.reason(log: { lines in
            defer { first = false }
            let log = AppendTests.log(lines)
            return first ? log : log.replacingOccurrences(of: "Text of m1", with: "Tuxt of m1")
        })
        #expect(work == .built(.append(.headChanged)))
    }

    @Test("a new message with a field the previous build did not report")
    func newDiagnostics() throws {
        let work = try Self.reason(change: { _, lines in lines[lines.count - 1].extra = #", "weather": "rain""# })
        #expect(work == .built(.append(.newDiagnostics)))
    }

    @Test("the log's id changed")
    func conversationIDChanged() throws {
        var first = true
        let work = try Self.reason(log: { lines in
            defer { first = false }
            let log = AppendTests.log(lines)
            return first ? log : log.replacingOccurrences(of: #""id": "chat""#, with: #""id": "chap""#)
        })
        #expect(work == .built(.append(.conversationIDChanged)))
    }

    @Test("a new message dated before the old last one")
    func earlierDate() throws {
        let work = try Self.reason(change: { _, lines in lines[lines.count - 1].minute = 5 })
        #expect(work == .built(.append(.earlierDate)))
    }

    @Test("a new message with the id an old reply waited for")
    func idSeenBefore() throws {
        var lines = AppendTests.lines(7)
        lines[5].extra = #", "replyTo": "later""#
        let work = try Self.reason(lines: lines, change: { _, lines in lines[lines.count - 1].id = "later" })
        #expect(work == .built(.append(.idSeenBefore)))
    }

    @Test("a new message that is pinned")
    func reachesBack() throws {
        let work = try Self.reason(change: { _, lines in lines[lines.count - 1].extra = #", "pinned": true"# })
        #expect(work == .built(.append(.reachesBack)))
    }

    @Test("new messages that need a new page")
    func newPage() throws {
        #expect(try Self.reason(lines: AppendTests.lines(9)) == .built(.append(.newPage)))
    }

    @Test("a damaged search cache")
    func searchPartUnreadable() throws {
        let work = try Self.reason(change: { project, _ in
            try FileManager.default.removeItem(atPath: testCacheTree(of: project.output) + "/search/chat.bin")
        })
        #expect(work == .built(.append(.searchPartUnreadable)))
    }

    @Test("a page of the previous build that is gone")
    func previousFilesMissing() throws {
        let work = try Self.reason(change: { project, _ in
            try FileManager.default.removeItem(at: project.output.appendingPathComponent("chat/index.html"))
        })
        #expect(work == .built(.append(.previousFilesMissing)))
    }

    @Test("a failed write of an appended page")
    func writeFailed() throws {
        var lines = AppendTests.lines(7)
        let project = try Project(AppendTests.log(lines))
        defer { project.folder.remove() }
        try build(project.input, project.output)
        lines.append(Line(id: "m7", sender: "bob", minute: 80))
        try project.write(AppendTests.log(lines))
        // Only the first write of the last page fails: the full build's goes through.
        let failures = FailOnce()
        var options = SiteBuilder.Options.test(input: project.input, output: project.output)
        options.faultInjection = { step in if step == "write chat/page-3.html" { try failures.failFirst() } }
        let report = try SiteBuilder(options: options).build()
        #expect(Self.work(report) == .built(.append(.writeFailed)))
    }

    @Test("every fallback has words for --explain")
    func everyFallbackIsDescribed() {
        let descriptions = AppendFallback.allCases.map(\.description)
        #expect(Set(descriptions).count == AppendFallback.allCases.count)
        #expect(!descriptions.contains(""))
    }
}

/// Throws the first time only.
private final class FailOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var failed = false
    struct Failure: Error {}

    func failFirst() throws {
        lock.lock()
        defer { lock.unlock() }
        if !failed {
            failed = true
            throw Failure()
        }
    }
}
