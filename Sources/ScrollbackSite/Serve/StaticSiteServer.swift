import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server for a built site, for `scrollback serve`: GET and HEAD of files,
/// `index.html` for folders, 404s, and no way out of the site folder.
///
/// Plain POSIX sockets, one short-lived connection per request (`Connection: close`), each
/// handled on a global dispatch queue. In live-reload mode it adds, to HTML responses only,
/// one `<script src="/__scrollback/live-reload.js">` tag; the built files are never changed.
/// It is a preview server for one developer's browser, not a production web server.
public final class StaticSiteServer: @unchecked Sendable {
    /// The site folder served (looked up per request, so a swapped-in rebuild is seen at once).
    public let root: URL
    /// Address to listen on.
    public let host: String
    /// Returns the current build version, or `nil` to turn live reload off.
    let liveReloadVersion: (@Sendable () -> String)?

    private let lock = NSLock()
    private var listener: Int32 = -1
    private var boundPort: UInt16 = 0

    /// Path prefix of the server's own endpoints; never a site path (sites have no `__scrollback`).
    static let endpointPrefix = "/__scrollback/"

    /// Creates a server for `root`; `liveReloadVersion` turns on live reload.
    public init(root: URL, host: String = "127.0.0.1", liveReloadVersion: (@Sendable () -> String)? = nil) {
        self.root = root
        self.host = host
        self.liveReloadVersion = liveReloadVersion
    }

    /// The port it listens on, once started.
    public var port: UInt16 {
        lock.lock()
        defer { lock.unlock() }
        return boundPort
    }

    /// Starts listening on `port` (0: any free port) and returns the port.
    @discardableResult
    public func start(port: UInt16) throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else {
            throw SiteBuildError.fileSystem("cannot open a socket: \(FileSystem.errorText())")
        }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            close(descriptor)
            throw SiteBuildError.fileSystem("cannot listen on '\(host)': expected an IPv4 address such as 127.0.0.1")
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 64) == 0 else {
            let reason = FileSystem.errorText()
            close(descriptor)
            throw SiteBuildError.fileSystem("cannot listen on \(host):\(port): \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        lock.lock()
        listener = descriptor
        boundPort = UInt16(bigEndian: actual.sin_port)
        lock.unlock()
        let thread = Thread { [self] in acceptLoop(descriptor) }
        thread.name = "scrollback-serve"
        thread.start()
        return UInt16(bigEndian: actual.sin_port)
    }

    /// Stops listening; requests in flight finish.
    public func stop() {
        lock.lock()
        let descriptor = listener
        listener = -1
        lock.unlock()
        guard descriptor >= 0 else { return }
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }

    private func acceptLoop(_ descriptor: Int32) {
        while true {
            let client = accept(descriptor, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return  // closed by stop()
            }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            DispatchQueue.global().async { [self] in
                handle(client)
                close(client)
            }
        }
    }

    // MARK: Requests

    /// A response before it is written.
    struct Response {
        var status: Int
        var reason: String
        var headers: [(String, String)] = []
        var body: [UInt8] = []
    }

    private func handle(_ client: Int32) {
        guard let head = readRequestHead(client) else { return }
        let requestLine = head.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? ""
        let parts = requestLine.split(separator: " ")
        var response: Response
        var isHead = false
        if parts.count != 3 || !parts[2].hasPrefix("HTTP/") {
            response = Self.textResponse(400, "Bad Request")
        } else if parts[0] != "GET" && parts[0] != "HEAD" {
            response = Self.textResponse(405, "Method Not Allowed")
            response.headers.append(("Allow", "GET, HEAD"))
        } else {
            isHead = parts[0] == "HEAD"
            response = respond(to: String(parts[1]))
        }
        write(response, to: client, includeBody: !isHead)
    }

    /// Reads up to the blank line ending the request head (at most 16 KiB).
    private func readRequestHead(_ client: Int32) -> String? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 16_384 {
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            bytes += buffer[0..<count]
            if bytes[max(0, bytes.count - count - 3)...].containsTerminator { break }
        }
        guard !bytes.isEmpty else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The response for a request target such as `/trip/index.html?x=1`.
    func respond(to target: String) -> Response {
        if target.hasPrefix(Self.endpointPrefix), let version = liveReloadVersion {
            switch target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target {
            case Self.endpointPrefix + "version":
                return Response(
                    status: 200, reason: "OK",
                    headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")],
                    body: Array(version().utf8))
            case Self.endpointPrefix + "live-reload.js":
                return Response(
                    status: 200, reason: "OK",
                    headers: [("Content-Type", "text/javascript; charset=utf-8"), ("Cache-Control", "no-store")],
                    body: Array(Self.liveReloadScript.utf8))
            default:
                return Self.textResponse(404, "Not Found")
            }
        }
        switch Self.resolve(target: target, root: root.path) {
        case .badRequest: return Self.textResponse(400, "Bad Request")
        case .notFound: return Self.textResponse(404, "Not Found")
        case .forbidden: return Self.textResponse(403, "Forbidden")
        case .redirect(let location):
            var response = Self.textResponse(301, "Moved Permanently")
            response.headers.append(("Location", location))
            return response
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                return Self.textResponse(404, "Not Found")
            }
            let type = ContentType.forFile(path)
            var body = [UInt8](data)
            if let version = liveReloadVersion, type.hasPrefix("text/html") {
                body = Self.injectLiveReload(into: body, version: version())
            }
            return Response(
                status: 200, reason: "OK",
                headers: [
                    ("Content-Type", type), ("Cache-Control", "no-cache"), ("X-Content-Type-Options", "nosniff"),
                ],
                body: body)
        }
    }

    /// Where a request target leads.
    enum Resolution: Equatable {
        case file(String)
        case redirect(String)
        case notFound
        case forbidden
        case badRequest
    }

    /// Maps a request target to a file under `root`.
    ///
    /// The path is percent-decoded first, then split: any `..` segment is forbidden (never
    /// "normalised" into something else), hidden segments (`.scrollback`) are not found, and
    /// the final path, symlinks resolved, must still be inside the root.
    static func resolve(target: String, root: String) -> Resolution {
        let pathPart =
            target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first
            .map { String($0.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "") } ?? ""
        guard pathPart.hasPrefix("/"), let decoded = pathPart.removingPercentEncoding else { return .badRequest }
        if decoded.contains("\0") || decoded.contains("\\") { return .forbidden }
        var segments: [String] = []
        for segment in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == "." { continue }
            if segment == ".." { return .forbidden }
            if segment.hasPrefix(".") { return .notFound }
            segments.append(String(segment))
        }
        let canonicalRoot = FileSystem.canonicalPath(root)
        var path = canonicalRoot + (segments.isEmpty ? "" : "/" + segments.joined(separator: "/"))
        switch FileSystem.kind(path) {
        case .missing, .other: return .notFound
        case .directory:
            guard decoded.hasSuffix("/") else { return .redirect(pathPart + "/") }
            path += "/index.html"
            guard FileSystem.kind(path) == .file else { return .notFound }
        case .file: break
        }
        let resolved = FileSystem.canonicalPath(path)
        guard resolved.hasPrefix(canonicalRoot + "/") else { return .forbidden }
        return .file(resolved)
    }

    /// `body` with the live-reload script tag before its last `</body>` (or at its end).
    static func injectLiveReload(into body: [UInt8], version: String) -> [UInt8] {
        let tag = Array(
            "<script src=\"/__scrollback/live-reload.js\" data-version=\"\(version)\" defer></script>\n".utf8)
        let closing = Array("</body>".utf8)
        var index = body.count - closing.count
        while index >= 0 {
            if body[index] == UInt8(ascii: "<"),
                zip(body[index..<(index + closing.count)], closing).allSatisfy({ $0 | 0x20 == $1 | 0x20 })
            {
                return Array(body[..<index]) + tag + Array(body[index...])
            }
            index -= 1
        }
        return body + tag
    }

    /// Polls the version endpoint and reloads the page when a rebuild changed it.
    static let liveReloadScript = """
        (function () {
          var script = document.currentScript;
          var seen = script ? script.getAttribute("data-version") : null;
          function poll() {
            fetch("/__scrollback/version", { cache: "no-store" })
              .then(function (response) { return response.text(); })
              .then(function (version) {
                if (seen !== null && version !== seen) { location.reload(); return; }
                seen = version;
                setTimeout(poll, 500);
              })
              .catch(function () { setTimeout(poll, 1000); });
          }
          setTimeout(poll, 500);
        })();

        """

    private static func textResponse(_ status: Int, _ text: String) -> Response {
        Response(
            status: status, reason: text, headers: [("Content-Type", "text/plain; charset=utf-8")],
            body: Array((text + "\n").utf8))
    }

    private func write(_ response: Response, to client: Int32, includeBody: Bool) {
        var head = "HTTP/1.1 \(response.status) \(response.reason)\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        var bytes = Array(head.utf8)
        if includeBody { bytes += response.body }
        var sent = 0
        bytes.withUnsafeBytes { buffer in
            while sent < buffer.count {
                let count = send(client, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return }
                sent += count
            }
        }
    }
}

extension ArraySlice<UInt8> {
    /// Whether the bytes contain `\r\n\r\n`, the end of an HTTP request head.
    fileprivate var containsTerminator: Bool {
        guard count >= 4 else { return false }
        var index = startIndex
        while index + 3 < endIndex {
            if self[index] == 13, self[index + 1] == 10, self[index + 2] == 13, self[index + 3] == 10 { return true }
            index += 1
        }
        return false
    }
}
