import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Whether something listens on `port` of the loopback address.
func isListening(_ port: Int) -> Bool {
    (try? LoopbackSocket(port: port, receiveTimeout: 1)) != nil
}

@Suite("scrollback serve (acceptance)")
struct ServeCommandTests {
    @Test(
        "serve: pages over HTTP; an edit pushes reload and new content; a broken log pushes the overlay while the last good pages are served; the fix clears it; SIGINT exits 0 and frees the port"
    )
    func serveEndToEnd() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(conversationLog(id: "trip", count: 2), to: "logs/trip.json")
        try folder.write(conversationLog(id: "other", count: 1), to: "logs/other.json")
        let server = try ServeProcess(input: "logs", in: folder.url)  // default: a free port on loopback
        let process = server.process
        defer { if process.isRunning { process.terminate() } }
        // "Serving logs at http://127.0.0.1:PORT/ (Ctrl-C to stop)"
        #expect(server.banner.contains("http://127.0.0.1:"))
        let port = server.port
        let page = server.page
        #expect(try page("/trip/").text.contains("Message 1 of trip"))
        #expect(try page("/trip/").text.contains("/__scrollback/live-reload.js"))
        let events = try EventStreamClient(port: port)
        #expect(events.next(named: "hello") != nil)

        // An edit: the reload event, then the new message is served.
        try folder.write(conversationLog(id: "trip", count: 3), to: "logs/trip.json")
        #expect(events.next(named: "reload") != nil)
        #expect(try page("/trip/").text.contains("Message 2 of trip"))

        // A broken edit: the overlay event with file:line:col and the offending line…
        try folder.write("{\n  \"version\": 1,\n  \"id\": \"trip\" \"title\": \"x\"\n}\n", to: "logs/trip.json")
        let overlay = try #require(events.next(named: "overlay"))
        #expect(overlay.contains(#""file":"logs/trip.json""#))
        #expect(overlay.contains(#""line":3"#))
        #expect(overlay.contains(#""sourceLine":"  \"id\": \"trip\" \"title\": \"x\"""#))
        // …while the last good pages are served, the broken conversation's included.
        let broken = try page("/trip/")
        #expect(broken.status == 200)
        #expect(broken.text.contains("Message 2 of trip"))
        #expect(try page("/other/").text.contains("Message 0 of other"))
        #expect(try page("/").text.contains("trip/"))

        // The fix: the overlay goes away, the new content is served.
        try folder.write(conversationLog(id: "trip", count: 4), to: "logs/trip.json")
        #expect(events.next(named: "clear") != nil)
        #expect(try page("/trip/").text.contains("Message 3 of trip"))

        // Ctrl-C: exit 0, the port is released (within 10 s).
        process.interrupt()
        for _ in 0..<100 where process.isRunning { Thread.sleep(forTimeInterval: 0.1) }
        #expect(!process.isRunning)
        if !process.isRunning {
            #expect(process.terminationStatus == 0)
            #expect(process.terminationReason == .exit)
        }
        #expect(!isListening(port))
        // The temporary site and its cache are gone with it; nothing went to the user's cache folder.
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent(
            "scrollback-serve-\(process.processIdentifier)")
        #expect(!FileManager.default.fileExists(atPath: temporary.path))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/.cache"))
        let terminal = String(decoding: server.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // The same error in the terminal, named relative to the current folder.
        #expect(terminal.contains("logs/trip.json:3:"))
    }
}

@Suite("scrollback init (acceptance)")
struct InitCommandTests {
    @Test("init then build works with no edit: two conversations, no warning; every setting listed with its default")
    func initThenBuild() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let created = try ScrollbackProcess.run(["init", "site"], in: folder.url)
        #expect(created.status == 0)
        #expect(created.output.contains("Next: scrollback serve site"))
        let config = try String(contentsOfFile: folder.path + "/site/scrollback.yml", encoding: .utf8)
        for option in ["title", "description", "baseURL", "pageSize", "remoteMedia", "groupGap", "timezone"] {
            #expect(config.contains("\(option):"), "\(option) is not listed")
        }
        #expect(config.contains("pageSize: 1000"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/site/templates") == ["README.md"])
        #expect(try String(contentsOfFile: folder.path + "/site/.gitignore", encoding: .utf8).contains("/_site/"))

        let built = try ScrollbackProcess.run(["build", "site", "-o", "site/_site"], in: folder.url)
        #expect(built.status == 0, "\(built.errors)")
        #expect(built.errors.isEmpty, "warnings: \(built.errors)")
        #expect(built.output.contains("built 2 conversations"))
        #expect(FileManager.default.fileExists(atPath: folder.path + "/site/_site/welcome/index.html"))
        #expect(FileManager.default.fileExists(atPath: folder.path + "/site/_site/first-steps/index.html"))
        #expect(FileManager.default.fileExists(atPath: folder.path + "/site/_site/404.html"))
        // A second init refuses to overwrite.
        #expect(try ScrollbackProcess.run(["init", "site"], in: folder.url).status == 1)
    }
}
