import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackSite

/// Issue 41.11: errors stay fast, and a warning repeated through a file is printed once.
@Suite("Presenting diagnostics")
struct DiagnosticPresenterTests {
    /// Counts the files the presenter opens.
    final class Reads: @unchecked Sendable {
        private let lock = NSLock()
        private var paths: [String] = []
        func add(_ path: String) {
            lock.lock()
            paths.append(path)
            lock.unlock()
        }
        var all: [String] {
            lock.lock()
            defer { lock.unlock() }
            return paths
        }
    }

    @Test("5,000 located errors in one file read the file once, and each shows its own line")
    func manyErrorsReadTheFileOnce() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let lines = (1...5_000).map { #"{"id": "m\#($0)", "kind": "txet"},"# }
        try folder.write("[\n" + lines.joined(separator: "\n") + "\n]\n", to: "logs/big.json")
        let diagnostics = (2...5_001).map { line in
            Diagnostic.error(
                .other("unknown message kind 'txet'"), at: SourceLocation(file: "logs/big.json", line: line, column: 30)
            )
        }
        let reads = Reads()
        var presenter = DiagnosticPresenter(
            inputRoot: folder.url.appendingPathComponent("logs"), currentDirectory: folder.url)
        presenter.onFileRead = { reads.add($0) }
        let presented = presenter.presentAll(diagnostics)
        #expect(reads.all.count == 1)
        // Errors are never collapsed: each is there, with the line it points into.
        #expect(presented.count == 5_000)
        #expect(presented[0].sourceLine == #"{"id": "m1", "kind": "txet"},"#)
        #expect(presented[4_999].sourceLine == #"{"id": "m5000", "kind": "txet"},"#)
        #expect(presented[4_999].file == "logs/big.json")
        #expect(presented.map(\.line) == Array(2...5_001))
    }

    @Test("a warning repeated through one file is shown once, with how many more and where")
    func repeatedWarningsCollapse() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write((1...300).map { "line \($0)\n" }.joined(), to: "in/chat.txt")
        var diagnostics = (1...255).map { number in
            Diagnostic.warning(
                .other("duplicate message id 'm\(number)' (first at in/chat.txt:\(number):1); both are kept"),
                at: SourceLocation(file: "in/chat.txt", line: number + 10, column: 1))
        }
        // Another kind of warning, a few alike, and a warning of another file are shown on their own.
        for name in ["a", "b", "c"] {
            diagnostics.append(
                .warning(
                    .other("media file '\(name).jpg' is missing"),
                    at: SourceLocation(file: "in/chat.txt", line: 5, column: 1)))
        }
        diagnostics.append(
            .warning(
                .other("duplicate message id 'x' (first at in/other.txt:1:1); both are kept"),
                at: SourceLocation(file: "in/other.txt", line: 2, column: 1)))
        let presenter = DiagnosticPresenter(
            inputRoot: folder.url.appendingPathComponent("in"), currentDirectory: folder.url)
        let presented = presenter.presentAll(diagnostics)
        #expect(presented.count == 5)
        #expect(
            presented[0].message
                == "duplicate message id 'm1' (first at in/chat.txt:1:1); both are kept (… and 254 more like it in this file, at line:column 12:1, 13:1, 14:1, …)"
        )
        #expect(presented[0].line == 11)
        #expect(presented[0].sourceLine == "line 11")
        #expect(presented[1...3].map(\.message) == ["a", "b", "c"].map { "media file '\($0).jpg' is missing" })
        #expect(presented[4].file == "in/other.txt")
        // Shown one by one, nothing is collapsed.
        #expect(presenter.presentAll(diagnostics, collapsingRepeats: false).count == 259)
    }

    @Test("one diagnostic shows its line as before: cut around the column, the last line without a newline")
    func singleLines() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("first\r\nsecond\n" + String(repeating: "x", count: 1_000) + "y", to: "in/a.json")
        let presenter = DiagnosticPresenter(
            inputRoot: folder.url.appendingPathComponent("in"), currentDirectory: folder.url)
        func line(_ number: Int, _ column: Int = 1) -> String? {
            presenter.present(
                .error(.other("x"), at: SourceLocation(file: "in/a.json", line: number, column: column))
            ).sourceLine
        }
        #expect(line(1) == "first")
        #expect(line(2) == "second")
        let last = try #require(line(3, 1_001))
        #expect(last.hasPrefix("…") && last.hasSuffix("y…"))
        #expect(line(4) == nil)
    }
}

/// Issue 40.10: a huge one-line log is refused quickly, and so is its diagnostic shown.
@Suite("Presenting a huge log's diagnostic")
struct HugeLogDiagnosticTests {
    @Test("a 2 GB one-line log is refused and its diagnostic reads 64 KiB of it, not 2 GB")
    func hugeOneLineLogReadsLittle() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(
            #"{"version": 1, "id": "small", "participants": [{"id": "a", "name": "A"}], "messages": [{"id": "1", "sender": "a", "date": "2024-05-01T10:00:00Z", "text": "hi"}]}"#,
            to: "in/small.json")
        // A sparse file: 2 GB of zero bytes on one line, without writing them.
        let huge = folder.url.appendingPathComponent("in/huge.json")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 2 << 30)
        try handle.close()
        let report = try build(folder.url.appendingPathComponent("in"), folder.url.appendingPathComponent("out"))
        let refusal = try #require(report.diagnostics.first { $0.location?.file == "in/huge.json" })
        #expect(refusal.severity == .error && refusal.problem.message.contains("over the limit"))

        final class Count: @unchecked Sendable {
            let lock = NSLock()
            var bytes = 0
        }
        let count = Count()
        var presenter = DiagnosticPresenter(
            inputRoot: folder.url.appendingPathComponent("in"), currentDirectory: folder.url)
        presenter.onBytesRead = { read in
            count.lock.lock()
            count.bytes += read
            count.lock.unlock()
        }
        let presented = presenter.present(refusal)
        #expect(presented.locationText == "in/huge.json:1:1")
        #expect(count.bytes > 0 && count.bytes <= 2 * DiagnosticPresenter.lineByteLimit)
        // The line is shown as before: the start of it, cut.
        #expect(presented.sourceLine?.hasSuffix("…") == true)
    }
}
