import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `scrollback serve INPUT` running as a child process, with its port and standard error.
final class ServeProcess {
    let process = Process()
    let errors = Pipe()
    let port: Int
    /// The first line it printed: "Serving INPUT at http://127.0.0.1:PORT/ (Ctrl-C to stop)".
    let banner: String

    /// Starts `scrollback serve input` in `folder` and waits for its "Serving … at" line.
    init(input: String, in folder: URL) throws {
        process.executableURL = try ScrollbackProcess.executable()
        process.arguments = ["serve", input]
        process.currentDirectoryURL = folder
        process.environment = ScrollbackProcess.environment(in: folder)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        banner = text
        let portText = text.split(separator: ":").last?.split(separator: "/").first ?? ""
        guard let port = Int(portText) else {
            process.terminate()
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.port = port
    }

    /// A page's status and text.
    func page(_ path: String) throws -> (status: Int, text: String) {
        let response = try rawRequest(port: port, path)
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    /// Stops the server (SIGINT, as Ctrl-C) and returns what it wrote to standard error.
    func stop() -> String {
        if process.isRunning { process.interrupt() }
        for _ in 0..<100 where process.isRunning { Thread.sleep(forTimeInterval: 0.1) }
        if process.isRunning { process.terminate() }
        return String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
}

/// A zip at `path` holding `name` with `text`, written by Python's `zipfile` (this test target
/// links no zip writer).
func writeZip(_ path: String, entry name: String, text: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
        "python3", "-c",
        "import sys, zipfile; zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED).writestr(sys.argv[2], sys.argv[3])",
        path, name, text,
    ]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw POSIXError(.EIO) }
}

@Suite("scrollback serve under hostile input (issue 40, acceptance 4)", .serialized)
struct HostileServeTests {
    @Test(
        "hostile saves one after another: the server lives, / keeps the last good pages, the overlay locates each error"
    )
    func survivesHostileSaves() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A small maxLogBytes, so a "log over maxLogBytes" is a few kilobytes.
        try folder.write("maxLogBytes: 20000\n", to: "logs/scrollback.yml")
        try folder.write(conversationLog(id: "good", count: 3), to: "logs/good.json")
        let whatsApp = folder.path + "/logs/WhatsApp Chat with Ana.zip"
        try writeZip(
            whatsApp, entry: "WhatsApp Chat with Ana.txt",
            text: "1/30/18, 09:00 - Ana: hello from the zip\n1/30/18, 09:01 - Bo: hi\n")
        let server = try ServeProcess(input: "logs", in: folder.url)
        var stopped = false
        defer { if !stopped { _ = server.stop() } }
        let events = try EventStreamClient(port: server.port)
        #expect(events.next(named: "hello") != nil)
        let index = try server.page("/")
        #expect(index.status == 200)
        let zipConversation = try #require(
            index.text.components(separatedBy: "href=\"").dropFirst().map { $0.prefix { $0 != "\"" && $0 != "#" } }
                .first { $0.lowercased().contains("ana") }
        )

        /// After a save: the rebuild's events; the server alive; the last good pages served.
        func checkAfterSave(_ what: String, errorAt file: String?, message: String? = nil) throws {
            #expect(events.next(named: "reload") != nil, "\(what): no rebuild")
            if let file {
                let overlay = try #require(events.next(named: "overlay"), "\(what): no overlay")
                let problems = try JSONDecoder().decode(OverlayPayload.self, from: Data(overlay.utf8))
                let located = problems.errors.first { $0.file == file }
                #expect(located != nil, "\(what): no error at \(file) in \(overlay)")
                #expect((located?.line ?? 0) >= 1, "\(what): \(overlay)")
                if let message { #expect(located?.message.contains(message) == true, "\(what): \(overlay)") }
            }
            #expect(server.process.isRunning, "\(what): the server died")
            let home = try server.page("/")
            #expect(home.status == 200, "\(what)")
            #expect(home.text.contains("good/"), "\(what): \(home.text.prefix(300))")
            #expect(home.text.contains(String(zipConversation)), "\(what): the WhatsApp chat is gone")
            #expect(try server.page("/good/").text.contains("Message 2 of good"), "\(what)")
            #expect(try server.page("/" + zipConversation).text.contains("hello from the zip"), "\(what)")
        }

        /// Removes the hostile file and waits for the clean rebuild.
        func undo(_ relativePath: String) throws {
            try FileManager.default.removeItem(atPath: folder.path + "/" + relativePath)
            #expect(events.next(named: "clear") != nil, "removing \(relativePath) did not clear the overlay")
        }

        // 1. A log whose id is one character (`PathText`: one-character paths), with a typo.
        try folder.write(
            conversationLog(id: "x", count: 2).replacingOccurrences(
                of: #""text": "Message 1 of x""#, with: #""kind": "txet", "text": "Message 1 of x""#),
            to: "logs/x.json")
        try checkAfterSave("x.json", errorAt: "logs/x.json", message: "did you mean 'text'?")
        // A log with an error and no last good pages is left out; the rest is served.
        #expect(try server.page("/x/").status == 404)
        try undo("logs/x.json")

        // 2. A Slack export whose channel is named `../../secret`: nothing written outside.
        try folder.write(#"[{"id": "U1", "name": "ada"}]"#, to: "logs/slack/users.json")
        try folder.write(
            #"[{"id": "C1", "name": "../../secret", "members": ["U1"]}, {"id": "C2", "name": "general", "members": ["U1"]}]"#,
            to: "logs/slack/channels.json")
        try folder.write(
            #"[{"type": "message", "user": "U1", "text": "general", "ts": "1718010000.000100"}]"#,
            to: "logs/slack/general/2024-06-10.json")
        try folder.write(
            #"[{"type": "message", "user": "U1", "text": "secret", "ts": "1718010000.000100"}]"#,
            to: "logs/slack/C1/2024-06-10.json")
        try checkAfterSave("slack ../../secret", errorAt: nil)
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/secret"))
        #expect(!FileManager.default.fileExists(atPath: NSTemporaryDirectory() + "/secret"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/secret"))
        try FileManager.default.removeItem(atPath: folder.path + "/logs/slack")
        #expect(events.next(named: "reload") != nil)

        // 3. The WhatsApp zip damaged: its conversation keeps its pages, with an error at the zip.
        let zipBytes = try Data(contentsOf: URL(fileURLWithPath: whatsApp))
        try Data(zipBytes.prefix(zipBytes.count / 2)).write(to: URL(fileURLWithPath: whatsApp))
        try checkAfterSave("damaged zip", errorAt: "logs/WhatsApp Chat with Ana.zip")
        try writeZip(
            whatsApp, entry: "WhatsApp Chat with Ana.txt",
            text: "1/30/18, 09:00 - Ana: hello from the zip\n1/30/18, 09:01 - Bo: hi\n")
        #expect(events.next(named: "clear") != nil)

        // 4. A log over maxLogBytes.
        try folder.write(conversationLog(id: "huge", count: 300), to: "logs/huge.json")
        try checkAfterSave("over maxLogBytes", errorAt: "logs/huge.json")
        try undo("logs/huge.json")

        // 5. A JSON syntax error in the good log: its last good pages stay.
        try folder.write("{\n  \"version\": 1,\n  \"id\": \"good\" \"title\": \"x\"\n}\n", to: "logs/good.json")
        try checkAfterSave("syntax error", errorAt: "logs/good.json")

        stopped = true
        let terminal = server.stop()
        #expect(server.process.terminationStatus == 0)
        // The terminal has the same located errors and hint, and no framework log line.
        #expect(terminal.contains("logs/x.json:"))
        #expect(terminal.contains("did you mean 'text'?"))
        #expect(terminal.contains("logs/good.json:3:"))
        for line in terminal.split(separator: "\n") {
            #expect(
                !line.contains("scrollback.serve") && !line.contains("Hummingbird") && !line.contains(" info "),
                "a framework log line: \(line)")
        }
    }
}

/// The overlay's payload (`BuildProblems`), decoded as a page's script reads it.
struct OverlayPayload: Decodable {
    struct Located: Decodable {
        var file: String?
        var line: Int
        var column: Int
        var message: String
    }
    var summary: String
    var errors: [Located]
}
