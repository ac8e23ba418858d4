import Foundation
import Testing

@testable import ScrollbackSite

#if canImport(Glibc)
import Glibc
#endif

/// A raw HTTP/1.1 exchange over a socket: nothing between the test and the server rewrites
/// the request target (URLSession would normalise `..` away).
func rawRequest(
    port: UInt16, _ requestTarget: String, method: String = "GET"
) throws -> (status: Int, head: String, body: Data) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.EIO) }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    let request = Array("\(method) \(requestTarget) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
    var response = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        response.append(contentsOf: buffer[0..<count])
    }
    guard let split = response.range(of: Data("\r\n\r\n".utf8)) else { throw POSIXError(.EBADMSG) }
    let head = String(decoding: response[..<split.lowerBound], as: UTF8.self)
    let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
    return (status, head, response[split.upperBound...])
}

/// Polls the dev server's `/__scrollback/version` until it is no longer `previous` (20 s at most)
/// and returns what it last answered.
func awaitVersionChange(port: UInt16, from previous: String) throws -> Data {
    let deadline = Date().addingTimeInterval(20)
    var version = Data(previous.utf8)
    while Date() < deadline {
        version = try rawRequest(port: port, "/__scrollback/version").body
        if version != Data(previous.utf8) { break }
        Thread.sleep(forTimeInterval: 0.1)
    }
    return version
}

@Suite("Dev server")
struct ServeTests {
    /// A built site and a server on a free port (live reload on, version "7").
    struct Served {
        let folder: TemporaryFolder
        let server: StaticSiteServer
        let port: UInt16
        var site: URL { folder.url.appendingPathComponent("site") }

        init() throws {
            folder = try TemporaryFolder()
            try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 3, avatar: true), to: "logs/trip.json")
            try folder.write(Logs.png, to: "logs/media/bob.png")
            try folder.write("root:x:0:0:secret", to: "outside.txt")
            try build(folder.url.appendingPathComponent("logs"), folder.url.appendingPathComponent("site"))
            server = StaticSiteServer(root: folder.url.appendingPathComponent("site"), liveReloadVersion: { "7" })
            port = try server.start(port: 0)
        }

        func stop() {
            server.stop()
            folder.remove()
        }
    }

    @Test("serves pages with their content type, index.html for folders, and the live-reload script in HTML only")
    func servesPages() throws {
        let served = try Served()
        defer { served.stop() }
        #expect(served.port > 0)
        let index = try rawRequest(port: served.port, "/")
        #expect(index.status == 200)
        #expect(index.head.contains("Content-Type: text/html; charset=utf-8"))
        let html = String(decoding: index.body, as: UTF8.self)
        #expect(html.contains(#"<script src="/__scrollback/live-reload.js" data-version="7" defer></script>"#))
        // The built file itself has no script.
        let onDisk = try String(contentsOf: served.site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(!onDisk.contains("__scrollback"))

        let page = try rawRequest(port: served.port, "/trip/")
        #expect(page.status == 200)
        let redirect = try rawRequest(port: served.port, "/trip?x=1")
        #expect(redirect.status == 301)
        #expect(redirect.head.contains("Location: /trip/"))

        let mediaName = try #require(
            try FileManager.default.contentsOfDirectory(atPath: served.site.path + "/media").first)
        let media = try rawRequest(port: served.port, "/media/" + mediaName)
        #expect(media.status == 200)
        #expect(media.head.contains("Content-Type: image/png"))
        #expect(media.body == Logs.png)

        let head = try rawRequest(port: served.port, "/", method: "HEAD")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(try rawRequest(port: served.port, "/", method: "POST").status == 405)
        #expect(try rawRequest(port: served.port, "/no-such-page.html").status == 404)
        #expect(try rawRequest(port: served.port, "/__scrollback/version").body == Data("7".utf8))
        let script = try rawRequest(port: served.port, "/__scrollback/live-reload.js")
        #expect(script.head.contains("text/javascript"))
    }

    @Test(
        "no request reaches a file outside the site folder",
        arguments: [
            "/../outside.txt", "/../../../../etc/passwd", "/%2e%2e/outside.txt", "/%2E%2E%2Foutside.txt",
            "/trip/..%2f..%2foutside.txt", "/..\\outside.txt", "/%00/etc/passwd", "//etc/passwd", "/./../outside.txt",
            "/.scrollback/manifest.json", "/escape/outside.txt", "/escape-file",
        ])
    func pathTraversalBlocked(target: String) throws {
        let served = try Served()
        defer { served.stop() }
        // A symlink inside the site pointing out of it must not be followed.
        try FileManager.default.createSymbolicLink(
            atPath: served.site.path + "/escape", withDestinationPath: served.folder.path)
        try FileManager.default.createSymbolicLink(
            atPath: served.site.path + "/escape-file", withDestinationPath: served.folder.path + "/outside.txt")
        let response = try rawRequest(port: served.port, target)
        #expect([400, 403, 404].contains(response.status), "\(target) → \(response.status)")
        #expect(!String(decoding: response.body, as: UTF8.self).contains("root:"))
    }

    @Test("resolution rules: dot segments, hidden files, folders")
    func resolutionRules() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("<p>hi</p>", to: "site/a/index.html")
        let root = folder.path + "/site"
        let canonicalRoot = FileSystem.canonicalPath(root)
        #expect(StaticSiteServer.resolve(target: "/a/", root: root) == .file(canonicalRoot + "/a/index.html"))
        #expect(
            StaticSiteServer.resolve(target: "/./a/./index.html#x", root: root)
                == .file(canonicalRoot + "/a/index.html"))
        #expect(StaticSiteServer.resolve(target: "/a", root: root) == .redirect("/a/"))
        #expect(StaticSiteServer.resolve(target: "/a/../a/", root: root) == .forbidden)
        #expect(StaticSiteServer.resolve(target: "http://evil/", root: root) == .badRequest)
        #expect(StaticSiteServer.resolve(target: "/", root: root) == .notFound)
    }

    @Test("the live-reload tag goes before the last </body>, whatever its case")
    func injection() {
        let page = Array("<html><body><p>x</p></BODY></html>".utf8)
        let injected = String(decoding: StaticSiteServer.injectLiveReload(into: page, version: "3"), as: UTF8.self)
        #expect(
            injected.hasPrefix("<html><body><p>x</p><script src=\"/__scrollback/live-reload.js\" data-version=\"3\""))
        #expect(injected.hasSuffix("</script>\n</BODY></html>"))
    }

    @Test("serve: a change to an input rebuilds the site and bumps the version open pages poll")
    func liveReload() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.url.appendingPathComponent("logs")
        let output = folder.url.appendingPathComponent("site")
        try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 2), to: "logs/trip.json")
        let builds = BuildLog()
        let preview = LivePreview(options: SiteBuilder.Options(input: input, output: output)) { builds.append($0) }
        #expect(preview.rebuildIfChanged())
        #expect(preview.version == "1")
        #expect(!preview.rebuildIfChanged())
        #expect(preview.version == "1")

        let server = StaticSiteServer(root: output, liveReloadVersion: { preview.version })
        let port = try server.start(port: 0)
        defer { server.stop() }
        preview.startWatching(interval: 0.1)
        defer { preview.stop() }
        #expect(try rawRequest(port: port, "/__scrollback/version").body == Data("1".utf8))

        try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 3), to: "logs/trip.json")
        let version = try awaitVersionChange(port: port, from: "1")
        #expect(version == Data("2".utf8))
        #expect(builds.reports.last?.messages == 3)
        #expect(builds.reports.last?.reusedConversations == 0)
    }
}

/// Build results collected from the preview's callback.
final class BuildLog: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<BuildReport, Error>] = []

    func append(_ result: Result<BuildReport, Error>) {
        lock.lock()
        results.append(result)
        lock.unlock()
    }

    var reports: [BuildReport] {
        lock.lock()
        defer { lock.unlock() }
        return results.compactMap { try? $0.get() }
    }
}
