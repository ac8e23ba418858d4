import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// The dev server of `scrollback serve`, on Hummingbird: the built site's files, with live
/// reload and the error overlay over server-sent events.
///
/// - Files: `SiteFiles` resolves a request path to a file inside the site (no dot segment, no
///   empty segment, no symlink out); HTML is read and gets the live-reload script; everything
///   else goes to Hummingbird's `FileMiddleware`, which streams it in chunks (a 50 MB video is
///   never held in memory) and answers byte ranges (audio and video seek).
/// - `/__scrollback/live-reload.js` and `/__scrollback/events` (`text/event-stream`): see
///   `LiveReloadScript` and `PreviewEvent`.
/// - `Host`: a request naming another host (a DNS-rebinding page) gets 421 (`HostCheck`).
/// - Slow clients: NIO serves every connection from a few event-loop threads, so slow clients
///   cannot take a thread each; a connection that has not sent a whole request head within
///   `idleTimeout` is closed (slowloris), as is a keep-alive connection left idle that long.
public struct DevServer: Sendable {
    /// Where and how to listen.
    public struct Configuration: Sendable {
        /// The address to listen on; loopback unless the user says otherwise (`--bind`).
        public var host = "127.0.0.1"
        /// The port; 0 picks a free one.
        public var port = 0
        /// How long a connection may go without sending a request (or finishing its head).
        public var idleTimeout: Duration = .seconds(10)

        /// The defaults: loopback, a free port.
        public init() {}
    }

    /// The site folder (looked up per request, so a swapped-in rebuild is served at once).
    public let site: URL
    /// The live preview whose events are pushed to pages; `nil` serves files only.
    public let preview: LivePreview?
    /// Where and how to listen.
    public let configuration: Configuration

    /// Creates a server of `site`.
    public init(site: URL, preview: LivePreview?, configuration: Configuration = Configuration()) {
        self.site = site
        self.preview = preview
        self.configuration = configuration
    }

    /// Serves until SIGINT or SIGTERM (or the task is cancelled): open event streams are ended
    /// so the shutdown does not wait for them. `onListening` gets the bound port.
    public func run(onListening: @escaping @Sendable (Int) -> Void) async throws {
        let logger = Self.quietLogger
        let app = Application(
            router: makeRouter(),
            server: .http1(configuration: .init(idleTimeout: .init(configuration.idleTimeout))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
        let group = ServiceGroup(
            configuration: .init(
                services: [app, PreviewShutdown(preview: preview)],
                gracefulShutdownSignals: [.sigint, .sigterm], logger: logger))
        try await group.run()
    }

    /// The logger handed to Hummingbird and its parts: critical only, so `serve` prints no
    /// framework line ("Serving files from …", and the errors cancellation at shutdown logs,
    /// which are not); what `serve` has to say it prints itself.
    static var quietLogger: Logger {
        var logger = Logger(label: "scrollback.serve")
        logger.logLevel = .critical
        return logger
    }

    /// The routes: the server's own endpoints; every other path is a site file.
    func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        let files = SiteFiles(root: site)
        router.add(
            middleware: SiteMiddleware(
                files: files, preview: preview, hosts: HostCheck(boundAddress: configuration.host)))
        router.add(
            middleware: FileMiddleware(site.path, searchForIndexHtml: false, logger: Self.quietLogger)
                .withAdditionalMediaTypes(forFileExtensions: SiteFiles.extraMediaTypes))
        router.get("/__scrollback/live-reload.js") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
                body: .init(byteBuffer: ByteBuffer(string: LiveReloadScript.source)))
        }
        if let preview {
            router.get("/__scrollback/events") { _, _ in
                let events = preview.subscribe()
                let hello = "event: hello\ndata: {\"version\":\(preview.version)}\n\n"
                return Response(
                    status: .ok,
                    headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                    body: .init { writer in
                        try await writer.write(ByteBuffer(string: "retry: 500\n\n" + hello))
                        for await event in events {
                            try await writer.write(ByteBuffer(string: event.serverSentEvent))
                        }
                        try await writer.finish(nil)
                    })
            }
        }
        return router
    }
}

/// Ends the preview (its watcher and every event stream) when the server shuts down gracefully,
/// so open pages do not hold the shutdown up.
struct PreviewShutdown: Service {
    let preview: LivePreview?

    func run() async throws {
        try? await gracefulShutdown()
        preview?.stop()
    }
}

/// Serves site paths that are HTML (with the live-reload script), folders (redirect or
/// `index.html`) and missing files (`404.html`); passes other files on to `FileMiddleware`.
struct SiteMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let files: SiteFiles
    let preview: LivePreview?
    /// The `Host` names answered (DNS rebinding).
    let hosts: HostCheck

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await respond(request, context: context, next: next)
        // A dev server: never let a browser or proxy keep a stale page, nor sniff a type.
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-cache" }
        response.headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        return response
    }

    private func respond(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        // Before anything else, the event stream included: it carries the logs' lines.
        guard hosts.accepts(request.head.authority ?? request.headers[HTTPField.Name("Host")!]) else {
            return Response(
                status: .misdirectedRequest, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(
                    byteBuffer: ByteBuffer(
                        string:
                            "scrollback serve answers only localhost, 127.0.0.1, [::1] and the address it is bound to\n"
                    )))
        }
        let path = request.uri.path
        if path.hasPrefix("/__scrollback/") { return try await next(request, context) }
        guard request.method == .get || request.method == .head else {
            return Response(status: .methodNotAllowed, headers: [.allow: "GET, HEAD"])
        }
        switch files.resolve(path) {
        case .notFound:
            return html(files.notFoundPage(), status: .notFound, request: request)
        case .redirect(let location):
            return Response(status: .movedPermanently, headers: [.location: location])
        case .file(let filePath) where filePath.hasSuffix(".html") || filePath.hasSuffix(".htm"):
            guard let data = FileManager.default.contents(atPath: filePath) else {
                return html(files.notFoundPage(), status: .notFound, request: request)
            }
            return html(data, status: .ok, request: request)
        case .file:
            return try await next(request, context)
        }
    }

    /// An HTML response with the live-reload script added.
    private func html(_ page: Data, status: HTTPResponse.Status, request: Request) -> Response {
        let body = LiveReloadScript.inject(into: page, version: preview?.version)
        return Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .contentLength: String(body.count),
                .cacheControl: "no-store",
            ],
            body: request.method == .head ? .init() : .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// Maps request paths to files inside the site folder, refusing everything else.
struct SiteFiles: Sendable {
    /// The site folder.
    let root: URL

    /// What a request path names.
    enum Resolution: Equatable {
        /// A regular file inside the site (absolute path).
        case file(String)
        /// A folder asked for without its trailing slash: the site-absolute path with it.
        case redirect(String)
        /// Nothing servable: missing, refused, or outside the site.
        case notFound
    }

    /// Types Hummingbird's table lacks, and a charset for text it serves.
    static let extraMediaTypes: [String: MediaType] = [
        "css": MediaType(type: .text, subType: "css", parameter: ("charset", "utf-8")),
        "js": MediaType(type: .text, subType: "javascript", parameter: ("charset", "utf-8")),
        "txt": MediaType(type: .text, subType: "plain", parameter: ("charset", "utf-8")),
        "xml": MediaType(type: .application, subType: "xml"),
        "m4a": MediaType(type: .audio, subType: "mp4"), "m4v": MediaType(type: .video, subType: "mp4"),
        "mov": MediaType(type: .video, subType: "quicktime"), "flac": MediaType(type: .audio, subType: "flac"),
        "avif": MediaType(type: .image, subType: "avif"), "opus": MediaType(type: .audio, subType: "ogg"),
        "vcf": MediaType(type: .text, subType: "vcard", parameter: ("charset", "utf-8")),
    ]

    /// The decoded path's segments, or `nil` when the path is refused: not starting with `/`,
    /// an empty segment inside it (`//assets`, which a redirect would turn into another host),
    /// a segment starting with `.` (`..`, `.git`, `.env`), a backslash or a control character.
    static func segments(of rawPath: String) -> (segments: [String], trailingSlash: Bool)? {
        guard let path = rawPath.removingPercentEncoding, path.hasPrefix("/") else { return nil }
        var parts = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let trailingSlash = parts.last == ""
        if trailingSlash { parts.removeLast() }
        for part in parts {
            guard !part.isEmpty, !part.hasPrefix("."), !part.contains("\\"),
                !part.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else { return nil }
        }
        return (parts, trailingSlash)
    }

    /// Resolves a request path (as sent, percent-encoded).
    func resolve(_ rawPath: String) -> Resolution {
        guard let (segments, trailingSlash) = Self.segments(of: rawPath) else { return .notFound }
        let rootPath = realPath(root.path) ?? root.path
        let joined = ([rootPath] + segments).joined(separator: "/")
        guard let real = realPath(joined), real == rootPath || real.hasPrefix(rootPath + "/") else {
            return .notFound
        }
        var status = stat()
        guard stat(real, &status) == 0 else { return .notFound }
        if status.st_mode & S_IFMT == S_IFDIR {
            guard trailingSlash || segments.isEmpty else {
                // Site-absolute and starting with one segment: never `//host`.
                let encoded = segments.map {
                    $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? $0
                }
                return .redirect("/" + encoded.joined(separator: "/") + "/")
            }
            let index = real + "/index.html"
            guard let indexReal = realPath(index), indexReal.hasPrefix(rootPath + "/") else { return .notFound }
            return .file(indexReal)
        }
        guard status.st_mode & S_IFMT == S_IFREG, !trailingSlash else { return .notFound }
        return .file(real)
    }

    /// The site's `404.html`, or a minimal page (it still gets the live-reload script, so a
    /// page that disappears comes back by itself when it is rebuilt).
    func notFoundPage() -> Data {
        let custom = root.appendingPathComponent("404.html").path
        if let real = realPath(custom), let rootPath = realPath(root.path), real.hasPrefix(rootPath + "/"),
            let data = FileManager.default.contents(atPath: real)
        {
            return data
        }
        return Data(
            """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>\
            <body><h1>Not found</h1><p><a href="/">Back to the conversations</a></p></body></html>
            """.utf8)
    }

    private func realPath(_ path: String) -> String? {
        guard let resolved = Glibc.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
