import Foundation
import ScrollbackSite
import Testing

@testable import ScrollbackServe

#if canImport(Glibc)
import Glibc
#endif

/// A dev server running in this process on a free port, stopped by `stop()`.
struct RunningServer {
    let task: Task<Void, Error>
    let port: Int

    /// Starts a server of `site`.
    static func start(
        site: URL, preview: LivePreview? = nil, idleTimeout: Duration = .seconds(10)
    ) async throws -> RunningServer {
        var configuration = DevServer.Configuration()
        configuration.idleTimeout = idleTimeout
        let server = DevServer(site: site, preview: preview, configuration: configuration)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let task = Task { try await server.run { continuation.yield($0) } }
        for await port in ports { return RunningServer(task: task, port: port) }
        throw POSIXError(.EADDRNOTAVAIL)
    }

    func stop() async {
        task.cancel()
        _ = try? await task.value
    }
}

/// Resident memory of this process in bytes (Linux `/proc/self/statm`).
func residentBytes() -> Int {
    let text = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "0 0"
    let pages = Int(text.split(separator: " ")[1]) ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

@Suite("Dev server (Hummingbird)", .serialized)
struct DevServerTests {
    /// A small built-looking site: pages, an asset folder, media, a dot folder, a file outside.
    static func makeSite(_ folder: TemporaryFolder) throws -> URL {
        try folder.write(
            "<!doctype html><html><head><title>i</title></head><body>index</body></html>", to: "site/index.html")
        try folder.write("<html><head></head><body>trip page</body></html>", to: "site/trip/index.html")
        try folder.write("body{}", to: "site/assets/scrollback.css")
        try folder.write(Data((0..<1000).map { UInt8($0 % 251) }), to: "site/media/clip.mp4")
        try folder.write(#"{"inputs":[]}"#, to: "site/.scrollback/manifest.json")
        try folder.write("SECRET=1", to: "site/.env")
        try folder.write("root:x:0:0:secret", to: "outside.txt")
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/site/escape", withDestinationPath: folder.path)
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/site/escape-file", withDestinationPath: folder.path + "/outside.txt")
        return folder.url.appendingPathComponent("site")
    }

    @Test("files with their types, index.html for folders, a local redirect, HEAD, 404 and 405")
    func servesFiles() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try await RunningServer.start(site: try Self.makeSite(folder))
        defer { Task { await server.stop() } }
        let index = try rawRequest(port: server.port, "/")
        #expect(index.status == 200)
        #expect(index.head.lowercased().contains("content-type: text/html; charset=utf-8"))
        let page = String(decoding: index.body, as: UTF8.self)
        #expect(page.contains(#"<script src="/__scrollback/live-reload.js"></script></head>"#))
        #expect(
            !(try String(contentsOfFile: folder.path + "/site/index.html", encoding: .utf8)).contains("__scrollback"))
        #expect(String(decoding: try rawRequest(port: server.port, "/trip/").body, as: UTF8.self).contains("trip page"))
        let redirect = try rawRequest(port: server.port, "/trip?x=1")
        #expect(redirect.status == 301)
        #expect(redirect.head.contains("location: /trip/") || redirect.head.contains("Location: /trip/"))
        let css = try rawRequest(port: server.port, "/assets/scrollback.css")
        #expect(css.head.lowercased().contains("content-type: text/css; charset=utf-8"))
        #expect(css.body == Data("body{}".utf8))
        let video = try rawRequest(port: server.port, "/media/clip.mp4")
        #expect(video.head.lowercased().contains("content-type: video/mp4"))
        #expect(video.body.count == 1000)
        let head = try rawRequest(port: server.port, "/", method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(try rawRequest(port: server.port, "/", method: "POST").status == 405)
        let missing = try rawRequest(port: server.port, "/no-such-page.html")
        #expect(missing.status == 404)
        #expect(String(decoding: missing.body, as: UTF8.self).contains("/__scrollback/live-reload.js"))
        let script = try rawRequest(port: server.port, "/__scrollback/live-reload.js")
        #expect(script.head.lowercased().contains("text/javascript"))
        #expect(String(decoding: script.body, as: UTF8.self).contains("new EventSource"))
    }

    @Test("byte ranges for audio and video (seeking)")
    func ranges() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try await RunningServer.start(site: try Self.makeSite(folder))
        defer { Task { await server.stop() } }
        let part = try rawRequest(port: server.port, "/media/clip.mp4", headers: ["Range: bytes=100-199"])
        #expect(part.status == 206)
        #expect(part.head.lowercased().contains("content-range: bytes 100-199/1000"))
        #expect(part.body == Data((100..<200).map { UInt8($0 % 251) }))
        let open = try rawRequest(port: server.port, "/media/clip.mp4", headers: ["Range: bytes=990-"])
        #expect(open.status == 206 && open.body.count == 10)
    }

    @Test(
        "no request reaches a file outside the site, a dot file, or another host",
        arguments: [
            "/../outside.txt", "/../../../../etc/passwd", "/%2e%2e/outside.txt", "/%2E%2E%2Foutside.txt",
            "/trip/..%2f..%2foutside.txt", "/..\\outside.txt", "/%00/etc/passwd", "//etc/passwd", "/./../outside.txt",
            "/.scrollback/manifest.json", "/.env", "/escape/outside.txt", "/escape-file", "//assets", "//assets/",
            "/%2Fassets", "/%2F%2Fevil.example", "/\\\\evil.example/", "/assets/%2e%2e/%2e%2e/outside.txt",
        ])
    func refused(target: String) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try await RunningServer.start(site: try Self.makeSite(folder))
        defer { Task { await server.stop() } }
        let response = try rawRequest(port: server.port, target)
        let body = String(decoding: response.body, as: UTF8.self)
        #expect([400, 404].contains(response.status), "\(target) → \(response.status)")
        #expect(!body.contains("root:") && !body.contains("SECRET") && !body.contains("inputs"))
        #expect(!response.head.lowercased().contains("location:"), "\(target) redirects: \(response.head)")
    }

    @Test("only loopback names and the bound address are answered (DNS rebinding): raw requests")
    func hostHeader() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try await RunningServer.start(site: try Self.makeSite(folder))
        defer { Task { await server.stop() } }
        func answer(_ host: String?, _ path: String = "/trip/") -> (status: Int, body: String) {
            guard let response = try? rawRequest(port: server.port, path, host: host) else {
                Issue.record("no answer with Host \(host ?? "(none)")")
                return (0, "")
            }
            return (response.status, String(decoding: response.body, as: UTF8.self))
        }
        for host in [
            "localhost", "localhost:\(server.port)", "127.0.0.1:\(server.port)", "[::1]:\(server.port)", "LocalHost.",
        ] {
            #expect(answer(host).status == 200, "\(host)")
        }
        for host in [
            "evil.example", "evil.example:\(server.port)", "127.0.0.1.evil.example", "10.0.0.7", "[::1", "", nil,
        ] {
            let response = answer(host)
            #expect(response.status == 421, "\(host ?? "(none)")")
            #expect(!response.body.contains("trip page"))
        }
        // The server's own endpoints too: the event stream carries the logs' lines.
        #expect(answer("evil.example", "/__scrollback/live-reload.js").status == 421)
    }

    @Test("bound to every address, IP literals are answered, names other than localhost are not")
    func hostCheckRules() {
        let loopback = HostCheck(boundAddress: "127.0.0.1")
        #expect(!loopback.accepts("192.168.1.5:8000"))
        #expect(!loopback.accepts(nil))
        let everywhere = HostCheck(boundAddress: "0.0.0.0")
        #expect(everywhere.accepts("192.168.1.5:8000"))
        #expect(everywhere.accepts("[fe80::1]:8000"))
        #expect(!everywhere.accepts("attacker.example:8000"))
        let one = HostCheck(boundAddress: "192.168.1.5")
        #expect(one.accepts("192.168.1.5"))
        #expect(!one.accepts("192.168.1.6"))
        #expect(HostCheck(boundAddress: "::1").accepts("[::1]:80"))
        #expect(HostCheck(boundAddress: "devbox.lan").accepts("DEVBOX.lan:80"))
    }

    @Test("a folder redirect never names another host")
    func folderRedirectStaysLocal() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let files = SiteFiles(root: try Self.makeSite(folder))
        #expect(files.resolve("/assets") == .redirect("/assets/"))
        #expect(files.resolve("//assets") == .notFound)
        #expect(files.resolve("/%2Fassets") == .notFound)
        #expect(files.resolve("/trip/") == .file(realPath(folder.path + "/site/trip/index.html")))
    }

    func realPath(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    @Test("300 slow clients do not starve others, and a half-sent request is cut off by the idle timeout")
    func slowloris() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try await RunningServer.start(site: try Self.makeSite(folder), idleTimeout: .seconds(1))
        defer { Task { await server.stop() } }
        var slow: [LoopbackSocket] = []
        for _ in 0..<300 {
            let connection = try LoopbackSocket(port: server.port, receiveTimeout: 5)
            connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  // never finished
            slow.append(connection)
        }
        // Another client is answered while all 300 hang.
        let answer = try rawRequest(port: server.port, "/trip/")
        #expect(answer.status == 200)
        // The half-sent requests are closed by the server (within the 1 s idle timeout; the
        // socket's 5 s receive timeout bounds the wait).
        #expect(slow.prefix(5).allSatisfy { $0.isClosedByPeer() })
    }

    @Test("20 slow downloads of a 50 MB file are streamed, not read into memory")
    func streamsLargeFiles() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site = try Self.makeSite(folder)
        let big = site.appendingPathComponent("media/big.mp4")
        _ = FileManager.default.createFile(atPath: big.path, contents: nil)
        let handle = try FileHandle(forWritingTo: big)
        let block = Data(repeating: 0x5A, count: 1 << 20)
        for _ in 0..<50 { handle.write(block) }
        try handle.close()
        let server = try await RunningServer.start(site: site)
        defer { Task { await server.stop() } }
        let before = residentBytes()
        var readers: [LoopbackSocket] = []
        for _ in 0..<20 {
            let connection = try LoopbackSocket(port: server.port, receiveTimeout: 5)
            connection.send("GET /media/big.mp4 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            _ = connection.receive(limit: 4096)  // start reading, then stall
            readers.append(connection)
        }
        try await Task.sleep(for: .seconds(2))
        let growth = residentBytes() - before
        // Whole-file reads would hold 20 × 50 MB = 1000 MB; streaming holds a few chunks each.
        #expect(growth < 200 << 20, "resident memory grew by \(growth >> 20) MB")
        readers.removeAll()
    }

    @Test("the events endpoint says hello, then pushes reload, overlay and clear")
    func eventStream() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(conversationLog(id: "trip", count: 2), to: "logs/trip.json")
        let options = SiteBuilder.Options.test(
            input: folder.url.appendingPathComponent("logs"), output: folder.url.appendingPathComponent("site"))
        let preview = LivePreview(options: options) { _ in }
        preview.build()
        let server = try await RunningServer.start(site: options.output, preview: preview)
        defer { Task { await server.stop() } }
        let page = String(decoding: try rawRequest(port: server.port, "/trip/").body, as: UTF8.self)
        #expect(page.contains(#"<script src="/__scrollback/live-reload.js" data-version="1"></script>"#))

        let events = try EventStreamClient(port: server.port)
        #expect(events.next(named: "hello") == #"{"version":1}"#)
        try folder.write("{\"version\": 1,\n  \"id\": \"trip\", <oops>", to: "logs/trip.json")
        preview.build()
        let overlay = try #require(events.next(named: "overlay"))
        let problems = try JSONDecoder().decode(BuildProblems.self, from: Data(overlay.utf8))
        let error = try #require(problems.errors.first)
        #expect(error.file?.hasSuffix("logs/trip.json") == true)
        #expect(error.line == 2 && error.column > 1)
        #expect(error.sourceLine == #"  "id": "trip", <oops>"#)
        // A page opened now gets the overlay at once.
        let late = try EventStreamClient(port: server.port)
        #expect(late.next(named: "overlay") != nil)

        try folder.write(conversationLog(id: "trip", count: 3), to: "logs/trip.json")
        preview.build()
        #expect(events.next(named: "clear") != nil)
    }

    @Test("the overlay script builds its DOM from text only (log text is untrusted)")
    func overlayEscapes() {
        let source = LiveReloadScript.source
        #expect(source.contains("textContent"))
        for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"] {
            #expect(!source.contains(sink), "the overlay script uses \(sink)")
        }
        let payload = BuildProblems(
            summary: "x",
            errors: [
                PresentedDiagnostic(
                    severity: "error", file: "a</script><script>alert(1)</script>.json", line: 1, column: 1,
                    message: "m\n\nevent: reload", sourceLine: "<img src=x onerror=alert(1)>")
            ])
        // One `data:` line: a newline in log text cannot end the event or forge another.
        let event = PreviewEvent.overlay(payload).serverSentEvent
        #expect(event.split(separator: "\n", omittingEmptySubsequences: false).count == 4)
        #expect(!event.contains("\nevent: reload"))
    }

    @Test("a save starts a rebuild through inotify, debounced into one build")
    func watcherRebuilds() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(conversationLog(id: "trip", count: 2), to: "logs/trip.json")
        let options = SiteBuilder.Options.test(
            input: folder.url.appendingPathComponent("logs"), output: folder.url.appendingPathComponent("logs/_site"))
        let builds = BuildCounter()
        let preview = LivePreview(options: options) { _ in builds.increment() }
        preview.build()
        preview.startWatching()
        defer { preview.stop() }
        #expect(preview.watchMechanism == .inotify)
        try await Task.sleep(for: .milliseconds(100))
        // Five quick saves, in a new subfolder too: one rebuild (debounced), none for the output.
        for count in 3...7 {
            try folder.write(conversationLog(id: "trip", count: count), to: "logs/trip.json")
        }
        try folder.write(conversationLog(id: "more", count: 1), to: "logs/new/more.json")
        for _ in 0..<100 where builds.count < 2 { try await Task.sleep(for: .milliseconds(50)) }
        try await Task.sleep(for: .milliseconds(500))
        // One rebuild for the burst (two when a loaded machine spreads the saves past the 80 ms
        // cap); never one per save, and none caused by the build's own output.
        #expect((2...3).contains(builds.count), "\(builds.count) builds")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/logs/_site/more/index.html"))
    }

    @Test("the polling fallback also rebuilds")
    func pollingFallback() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(conversationLog(id: "trip", count: 2), to: "logs/trip.json")
        let options = SiteBuilder.Options.test(
            input: folder.url.appendingPathComponent("logs"), output: folder.url.appendingPathComponent("site"))
        let builds = BuildCounter()
        let preview = LivePreview(options: options) { _ in builds.increment() }
        preview.build()
        preview.startWatching(preferInotify: false)
        defer { preview.stop() }
        #expect(preview.watchMechanism == .polling)
        try await Task.sleep(for: .milliseconds(600))
        try folder.write(conversationLog(id: "trip", count: 3), to: "logs/trip.json")
        for _ in 0..<100 where builds.count < 2 { try await Task.sleep(for: .milliseconds(50)) }
        #expect(builds.count == 2)
    }
}

/// Counts builds from the preview's callback.
final class BuildCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func increment() {
        lock.lock()
        value += 1
        lock.unlock()
    }
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
