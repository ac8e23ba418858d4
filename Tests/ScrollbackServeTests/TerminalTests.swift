import Foundation
import Testing

/// Runs `scrollback arguments` in `folder` on a pseudo-terminal (util-linux `script`), so its
/// standard error is a TTY; returns the exit status and everything it wrote (both streams).
func runScrollbackOnTerminal(
    _ arguments: [String], in folder: URL, environment: [String: String] = [:]
) throws -> (status: Int32, output: String) {
    let quoted = ([try ScrollbackProcess.executable().path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    process.arguments = ["--quiet", "--return", "--command", quoted, "/dev/null"]
    process.currentDirectoryURL = folder
    process.environment = ScrollbackProcess.environment(in: folder, environment)
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

@Suite("scrollback build on a terminal (issue 42.10)", .serialized)
struct TerminalProgressTests {
    /// 30 logs of 400 messages: long enough for a few redraws of a line shown at once.
    static func manyLogs(_ folder: TemporaryFolder) throws {
        for index in 0..<30 {
            try folder.write(conversationLog(id: "chat\(index)", count: 400), to: "logs/chat\(index).json")
        }
    }

    @Test(
        "on a TTY: one line redrawn with \\r on standard error, erased before the summary; the summary says where the site is"
    )
    func progressOnTerminal() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.manyLogs(folder)
        let run = try runScrollbackOnTerminal(
            ["build", "logs", "-o", "out"], in: folder.url, environment: ["SCROLLBACK_PROGRESS_AFTER": "0"])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("\rbuilding: "), "\(run.output.debugDescription)")
        #expect(run.output.contains(" of 30 sources"))
        // Erased (carriage return, erase to the end of the line) before the summary is printed.
        let erase = try #require(run.output.range(of: "\r\u{1B}[K", options: .backwards))
        let summary = try #require(run.output.range(of: "built 30 conversations"))
        #expect(erase.upperBound <= summary.lowerBound)
        #expect(!run.output[summary.lowerBound...].contains("building:"))
        #expect(
            run.output.contains(
                "site: out/index.html (open it in a browser, or preview it with: scrollback serve logs)"))
        // The site does not hold it: the same site as a build without a terminal.
        let plain = try ScrollbackProcess.run(["build", "logs", "-o", "plain", "--clean"], in: folder.url)
        #expect(plain.status == 0)
        let page = try String(contentsOfFile: folder.path + "/out/chat3/index.html", encoding: .utf8)
        #expect(page == (try String(contentsOfFile: folder.path + "/plain/chat3/index.html", encoding: .utf8)))
    }

    @Test("nothing when standard error is not a terminal, nor with --quiet on one")
    func noProgressOffTerminal() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.manyLogs(folder)
        let process = Process()
        process.executableURL = try ScrollbackProcess.executable()
        process.arguments = ["build", "logs", "-o", "out"]
        process.currentDirectoryURL = folder.url
        process.environment = ScrollbackProcess.environment(in: folder.url, ["SCROLLBACK_PROGRESS_AFTER": "0"])
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.isEmpty, "\(text.debugDescription)")

        let quiet = try runScrollbackOnTerminal(
            ["build", "logs", "-o", "out", "--quiet", "--clean"], in: folder.url,
            environment: ["SCROLLBACK_PROGRESS_AFTER": "0"])
        #expect(quiet.status == 0)
        #expect(quiet.output.isEmpty, "\(quiet.output.debugDescription)")
    }
}
