import Foundation
import Testing

@testable import ScrollbackCache
@testable import ScrollbackSite

/// The append fast path (`ConversationWorker.appendFast`): after messages are appended to a JSON
/// log, an incremental build re-renders only the last pages, and the site must be byte for byte
/// the one a clean build makes (manifest and checkpoints included); anything unusual falls back.
@Suite("Append fast path")
struct AppendTests {
    /// A message of the test logs: `minute` after 09:00 on 2024-05-03.
    struct Line {
        var id: String
        var sender: String
        var minute: Int
        var extra = ""

        var json: String {
            let date = String(format: "2024-05-03T%02d:%02d:00Z", 9 + minute / 60, minute % 60)
            return #"{"id": "\#(id)", "sender": "\#(sender)", "date": "\#(date)", "text": "Text of \#(id)"\#(extra)}"#
        }
    }

    /// `count` messages alternating alice and bob, one every ten minutes (no groups).
    static func lines(_ count: Int) -> [Line] {
        (0..<count).map { Line(id: "m\($0)", sender: $0 % 2 == 0 ? "alice" : "bob", minute: $0 * 10) }
    }

    /// A log holding `lines`; appending lines keeps every byte before the old last message's end.
    static func log(_ lines: [Line], messagesFirst: Bool = false, minified: Bool = false) -> String {
        let participants = #""participants": [{"id": "alice", "name": "Alice"}, {"id": "bob", "name": "Bob"}]"#
        let separator = minified ? "," : ",\n    "
        let messages =
            #""messages": ["# + (minified ? "" : "\n    ")
            + lines.map(\.json).joined(separator: separator) + (minified ? "]" : "\n  ]")
        let members = messagesFirst ? [messages, participants] : [participants, messages]
        let head = #""version": 1, "id": "chat", "title": "Chat", "me": "alice""#
        if minified { return "{" + ([head] + members).joined(separator: ",") + "}" }
        return "{\n  " + ([head] + members).joined(separator: ",\n  ") + "\n}\n"
    }

    /// An input folder with `scrollback.yml` (3 messages a page), another log, and `chat.json`.
    struct Project {
        let folder: TemporaryFolder
        var input: URL { folder.url.appendingPathComponent("logs") }
        var output: URL { folder.url.appendingPathComponent("site") }
        var clean: URL { folder.url.appendingPathComponent("clean") }

        init(_ text: String) throws {
            folder = try TemporaryFolder()
            try folder.write("pageSize: 3\n", to: "logs/scrollback.yml")
            try folder.write(Logs.conversation(id: "other", title: "Other", count: 4), to: "logs/other.json")
            try write(text)
        }

        func write(_ text: String) throws {
            try folder.write(text, to: "logs/chat.json")
        }

        /// Builds incrementally, then cleanly into `clean`, and expects the two sites to be equal.
        func rebuildMatchesClean(_ text: String) throws -> BuildReport {
            try write(text)
            let report = try build(input, output)
            let cleanReport = try build(input, clean, clean: true)
            #expect(report.diagnostics.map(\.description) == cleanReport.diagnostics.map(\.description))
            let incremental = try snapshot(output)
            let expected = try snapshot(clean)
            #expect(incremental.keys.sorted() == expected.keys.sorted())
            for (path, bytes) in expected where incremental[path] != bytes {
                Issue.record("\(path) differs from the clean build")
            }
            return report
        }
    }

    @Test("one message by the same sender soon after: the old last message's group changes; fast path")
    func appendOne() throws {
        var lines = Self.lines(7)
        let project = try Project(Self.log(lines))
        defer { project.folder.remove() }
        let first = try build(project.input, project.output)
        #expect(first.appendedConversations == 0)
        #expect(FileManager.default.fileExists(atPath: testCacheTree(of: project.output) + "/append/chat.bin"))
        lines.append(Line(id: "m7", sender: "alice", minute: 61))
        let report = try project.rebuildMatchesClean(Self.log(lines))
        #expect(report.appendedConversations == 1)
        #expect(report.reusedConversations == 1)
        #expect(report.messages == 12)
        #expect(report.searchIndexUpdated, "the search index is the previous one with the new message added")
        let page = try String(contentsOf: project.output.appendingPathComponent("chat/page-3.html"), encoding: .utf8)
        #expect(page.contains(#"data-message-id="m6""#) && page.contains(#"data-group-position="first""#))
        // And again on top of the fast path's own output.
        lines.append(Line(id: "m8", sender: "bob", minute: 70))
        #expect(try project.rebuildMatchesClean(Self.log(lines)).appendedConversations == 1)
    }

    @Test("a log with an unknown field already reported keeps the fast path; a new unknown field takes the full path")
    func appendWithUnknownFields() throws {
        var lines = Self.lines(7)
        lines[1].extra = #", "mood": "happy""#
        let project = try Project(Self.log(lines))
        defer { project.folder.remove() }
        try build(project.input, project.output)
        lines.append(Line(id: "m7", sender: "alice", minute: 80, extra: #", "mood": "sunny""#))
        let report = try project.rebuildMatchesClean(Self.log(lines))
        #expect(report.appendedConversations == 1)
        #expect(report.diagnostics.filter { $0.description.contains("unknown field 'mood'") }.count == 1)
        lines.append(Line(id: "m8", sender: "bob", minute: 90, extra: #", "weather": "rain""#))
        let second = try project.rebuildMatchesClean(Self.log(lines))
        #expect(second.appendedConversations == 0)
        #expect(second.diagnostics.contains { $0.description.contains("unknown field 'weather'") })
    }

    @Test("several messages at once; page headers show each page's own count and dates")
    func appendSeveral() throws {
        var lines = Self.lines(7)
        let project = try Project(Self.log(lines))
        defer { project.folder.remove() }
        try build(project.input, project.output)
        lines += [Line(id: "n1", sender: "bob", minute: 61), Line(id: "n2", sender: "bob", minute: 62)]
        let report = try project.rebuildMatchesClean(Self.log(lines))
        #expect(report.appendedConversations == 1)
        let first = try String(contentsOf: project.output.appendingPathComponent("chat/index.html"), encoding: .utf8)
        #expect(first.contains("· this page: 3 messages ·"))
        #expect(first.contains(#"content="A conversation between Alice and Bob""#))
    }

    @Test("a message that needs a new page changes every page's pagination: the full path renders them all")
    func appendOntoFullPage() throws {
        var lines = Self.lines(9)
        let project = try Project(Self.log(lines))
        defer { project.folder.remove() }
        try build(project.input, project.output)
        lines.append(Line(id: "m9", sender: "bob", minute: 95))
        let report = try project.rebuildMatchesClean(Self.log(lines))
        #expect(report.appendedConversations == 0)
        #expect(report.rebuiltConversations == 1)
        let first = try String(contentsOf: project.output.appendingPathComponent("chat/index.html"), encoding: .utf8)
        // The new last page is linked, named by its first day.
        #expect(first.contains(#"<a href="page-4.html" title="from "#))
        // The next message fits on that page: fast path again.
        lines.append(Line(id: "m10", sender: "alice", minute: 96))
        #expect(try project.rebuildMatchesClean(Self.log(lines)).appendedConversations == 1)
    }

    @Test("with the site's own pagination template a new page takes the full path")
    func appendOntoFullPageWithOwnPagination() throws {
        var lines = Self.lines(9)
        let project = try Project(Self.log(lines))
        defer { project.folder.remove() }
        try project.folder.write(
            "<nav class=\"pg\">{{#pages}}<a href=\"{{href}}\">{{number}}</a>{{/pages}}</nav>",
            to: "logs/templates/pagination.mustache")
        try build(project.input, project.output)
        lines.append(Line(id: "m9", sender: "bob", minute: 95))
        let report = try project.rebuildMatchesClean(Self.log(lines))
        #expect(report.appendedConversations == 0)
        #expect(report.rebuiltConversations == 1)
    }

    @Test("a reply to a message on the first page re-reads that message; fast path")
    func appendReplyToFirstPage() throws {
        var lines = Self.lines(7)
        let project = try Project(Self.log(lines))
        defer { project.folder.remove() }
        try build(project.input, project.output)
        lines.append(Line(id: "r1", sender: "bob", minute: 80, extra: #", "replyTo": "m1""#))
        let report = try project.rebuildMatchesClean(Self.log(lines))
        #expect(report.appendedConversations == 1)
        let page = try String(contentsOf: project.output.appendingPathComponent("chat/page-3.html"), encoding: .utf8)
        #expect(page.contains("index.html#m-m1"))
        // A reply to a reply, whose target is now an appended message.
        lines.append(Line(id: "r2", sender: "alice", minute: 81, extra: #", "replyTo": "r1""#))
        #expect(try project.rebuildMatchesClean(Self.log(lines)).appendedConversations == 1)
    }

    @Test("a message dated before the old last one takes the full path")
    func appendEarlier() throws {
        var lines = Self.lines(7)
        let project = try Project(Self.log(lines))
        defer { project.folder.remove() }
        try build(project.input, project.output)
        lines.append(Line(id: "early", sender: "bob", minute: 5))
        let report = try project.rebuildMatchesClean(Self.log(lines))
        #expect(report.appendedConversations == 0)
        #expect(report.rebuiltConversations == 1)
    }

    @Test("an appended duplicate id is the full read's error; the conversation keeps its last good pages")
    func appendDuplicateID() throws {
        var lines = Self.lines(7)
        let project = try Project(Self.log(lines))
        defer { project.folder.remove() }
        try build(project.input, project.output)
        let before = try snapshot(project.output)
        lines.append(Line(id: "m2", sender: "bob", minute: 80))
        try project.write(Self.log(lines))
        let report = try build(project.input, project.output)
        #expect(report.hasErrors)
        #expect(report.appendedConversations == 0)
        #expect(report.keptConversations == 1)
        #expect(
            report.diagnostics.contains { $0.description.contains("chat.json:12:") && $0.description.contains("m2") })
        let after = try snapshot(project.output)
        for path in before.keys where path.hasPrefix("chat/") { #expect(after[path] == before[path]) }
        // A clean build has no last good pages: the conversation is left out, with the same error.
        let cleanReport = try build(project.input, project.clean, clean: true)
        #expect(
            cleanReport.diagnostics.filter { $0.severity == .error }
                == report.diagnostics.filter { $0.severity == .error })
        #expect(!FileManager.default.fileExists(atPath: project.clean.path + "/chat/index.html"))
    }

    @Test("an edited old message takes the full path")
    func editOldMessage() throws {
        var lines = Self.lines(7)
        let project = try Project(Self.log(lines))
        defer { project.folder.remove() }
        try build(project.input, project.output)
        lines[1].extra = #", "edited": "2024-05-03T10:00:00Z""#
        lines.append(Line(id: "m7", sender: "bob", minute: 80))
        let report = try project.rebuildMatchesClean(Self.log(lines))
        #expect(report.appendedConversations == 0)
        #expect(report.rebuiltConversations == 1)
    }

    @Test("an old message edited in place (same length) takes the full path, whether it is read again or not")
    func editOldMessageInPlace() throws {
        // m1 is on a page the append leaves alone; m6 is on the last page, read again. Only the
        // fingerprint of the log's old part tells that either changed.
        for edited in ["m1", "m6"] {
            var lines = Self.lines(7)
            let project = try Project(Self.log(lines))
            defer { project.folder.remove() }
            try build(project.input, project.output)
            lines.append(Line(id: "m7", sender: "bob", minute: 80))
            let log = Self.log(lines).replacingOccurrences(of: "Text of \(edited)", with: "Tuxt of \(edited)")
            let report = try project.rebuildMatchesClean(log)
            #expect(report.appendedConversations == 0, "\(edited)")
            #expect(report.rebuiltConversations == 1, "\(edited)")
        }
    }

    @Test(
        "a conversation in several search cache files: an append writes the last file again, with the pages before its own, and links the others"
    )
    func appendAcrossSearchPageFiles() throws {
        // 3 messages a page: 193 messages end on page 64, the first of its file; 199 on page 66,
        // after two pages of its file. Either way more than one run of rendered pages.
        for count in [193, 199] {
            // One a minute, so that every date is on the same day.
            var lines = (0..<count).map { Line(id: "m\($0)", sender: $0 % 2 == 0 ? "alice" : "bob", minute: $0) }
            let project = try Project(Self.log(lines))
            defer { project.folder.remove() }
            try build(project.input, project.output)
            let search = URL(fileURLWithPath: testCacheTree(of: project.output) + "/search/chat")
            let files = try FileManager.default.contentsOfDirectory(atPath: search.path).sorted()
            #expect(files == ["0.bin", "1.bin", "2.bin", "3.bin", "4.bin"], "\(count)")
            let inode = { (name: String) in
                try FileManager.default.attributesOfItem(atPath: search.appendingPathComponent(name).path)[
                    .systemFileNumber] as? Int
            }
            let firstFile = try inode("0.bin")
            lines.append(Line(id: "n1", sender: "bob", minute: count + 1))
            #expect(try project.rebuildMatchesClean(Self.log(lines)).appendedConversations == 1, "\(count)")
            // The earlier files are the previous build's, linked; the last one was written again.
            #expect(try inode("0.bin") == firstFile, "\(count)")
        }
    }

    @Test("a minified one-line log and one with messages before participants take the fast path")
    func otherShapes() throws {
        for (messagesFirst, minified) in [(false, true), (true, false), (true, true)] {
            var lines = Self.lines(5)
            let project = try Project(Self.log(lines, messagesFirst: messagesFirst, minified: minified))
            defer { project.folder.remove() }
            try build(project.input, project.output)
            lines.append(Line(id: "m5", sender: "alice", minute: 41))
            #expect(
                try project.rebuildMatchesClean(Self.log(lines, messagesFirst: messagesFirst, minified: minified))
                    .appendedConversations == 1)
        }
    }
}
