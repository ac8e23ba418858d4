import Foundation
import ScrollbackSite
// The helpers every test target shares (`TemporaryFolder`, `ScrollbackProcess`), for every file
// of this target.
@_exported import ScrollbackTestSupport
import Testing

@testable import ScrollbackServe

#if canImport(Glibc)
import Glibc
#endif

/// A spec §1 JSON log with `count` text messages ("Message N of ID"), one a minute.
func conversationLog(id: String, count: Int) -> String {
    let messages = (0..<count).map { index in
        #"{"id": "m\#(index)", "sender": "\#(index % 2 == 0 ? "alice" : "bob")", "#
            + #""date": "2024-05-03T09:\#(String(format: "%02d", index % 60)):00Z", "text": "Message \#(index) of \#(id)"}"#
    }
    return """
        {
          "version": 1,
          "id": "\(id)",
          "title": "Chat \(id)",
          "me": "alice",
          "participants": [{"id": "alice", "name": "Alice"}, {"id": "bob", "name": "Bob"}],
          "messages": [
            \(messages.joined(separator: ",\n    "))
          ]
        }

        """
}

/// A connected loopback TCP socket with a receive timeout; closed on deinit.
final class LoopbackSocket {
    let descriptor: Int32

    init(port: Int, receiveTimeout: Double = 10) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var timeout = timeval(
            tv_sec: Int(receiveTimeout), tv_usec: Int((receiveTimeout.truncatingRemainder(dividingBy: 1)) * 1e6))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Up to `limit` bytes; empty at end of stream or timeout.
    func receive(limit: Int = 65536) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: limit)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return count > 0 ? Array(buffer[0..<count]) : []
    }

    /// Whether the server closed the connection (a read returns end of stream).
    func isClosedByPeer() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }
}

/// A raw HTTP/1.1 exchange over a socket (`Connection: close`): nothing between the test and
/// the server rewrites the request target (URLSession would normalise `..` away).
func rawRequest(
    port: Int, _ requestTarget: String, method: String = "GET", host: String? = "127.0.0.1", headers: [String] = []
) throws -> (status: Int, head: String, body: Data) {
    let connection = try LoopbackSocket(port: port)
    let extra = (host.map { ["Host: \($0)"] } ?? []) + headers
    let lines = extra.map { $0 + "\r\n" }.joined()
    connection.send("\(method) \(requestTarget) HTTP/1.1\r\n\(lines)Connection: close\r\n\r\n")
    var response = Data()
    while true {
        let chunk = connection.receive()
        if chunk.isEmpty { break }
        response.append(contentsOf: chunk)
    }
    guard let split = response.range(of: Data("\r\n\r\n".utf8)) else { throw POSIXError(.EBADMSG) }
    let head = String(decoding: response[..<split.lowerBound], as: UTF8.self)
    let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
    var body = Data(response[split.upperBound...])
    if head.lowercased().contains("transfer-encoding: chunked") { body = dechunked(body) }
    return (status, head, body)
}

/// The payload of an HTTP/1.1 chunked body (as far as it goes).
func dechunked(_ data: Data) -> Data {
    var bytes = [UInt8](data)
    return takeChunks(&bytes)
}

/// Removes the complete chunks from the front of `bytes` and returns their payload.
func takeChunks(_ bytes: inout [UInt8]) -> Data {
    var result = Data()
    while let lineEnd = bytes.firstIndex(of: 0x0A) {
        let sizeText = String(decoding: bytes[..<lineEnd], as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16), size > 0,
            bytes.count >= lineEnd + 1 + size
        else { break }
        result.append(contentsOf: bytes[(lineEnd + 1)..<(lineEnd + 1 + size)])
        bytes.removeFirst(min(bytes.count, lineEnd + 1 + size + 2))
    }
    return result
}

/// A client of `/__scrollback/events`: reads server-sent events off a raw socket.
final class EventStreamClient {
    let socket: LoopbackSocket
    private var raw: [UInt8] = []
    private var headerSeen = false
    private var pending = ""

    init(port: Int) throws {
        socket = try LoopbackSocket(port: port, receiveTimeout: 0.5)
        socket.send("GET /__scrollback/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
    }

    /// The next event (name, data), waiting at most `timeout` seconds.
    func next(timeout: Double = 20) -> (name: String, data: String)? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let event = takeEvent() { return event }
            if Date() > deadline { return nil }
            raw += socket.receive()
            if !headerSeen, let end = findHeaderEnd() {
                headerSeen = true
                raw.removeFirst(end)
            }
            if headerSeen { pending += String(decoding: takeChunks(&raw), as: UTF8.self) }
        }
    }

    /// The next event named `name`, skipping others.
    func next(named name: String, timeout: Double = 20) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard let event = next(timeout: deadline.timeIntervalSinceNow) else { return nil }
            if event.name == name { return event.data }
        }
        return nil
    }

    private func findHeaderEnd() -> Int? {
        let marker: [UInt8] = [13, 10, 13, 10]
        guard raw.count >= 4 else { return nil }
        for index in 0...(raw.count - 4) where Array(raw[index..<index + 4]) == marker { return index + 4 }
        return nil
    }

    private func takeEvent() -> (name: String, data: String)? {
        while let range = pending.range(of: "\n\n") {
            let block = pending[..<range.lowerBound]
            pending = String(pending[range.upperBound...])
            var name = "message"
            var data: [String] = []
            for line in block.split(separator: "\n") {
                if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
            }
            if !data.isEmpty { return (name, data.joined(separator: "\n")) }
        }
        return nil
    }
}

extension SiteBuilder.Options {
    /// A test build's options: the cache goes beside the output (`testCacheFolder`), inside the
    /// test's temporary folder and deleted with it, never into the user's cache folder.
    static func test(input: URL, output: URL, ignoresCache: Bool = false) -> SiteBuilder.Options {
        var options = SiteBuilder.Options(input: input, output: output, ignoresCache: ignoresCache)
        options.cacheDirectory = testCacheFolder(of: output)
        return options
    }
}

/// The cache folder of test builds into `output`: `.<name>.cache` beside it.
func testCacheFolder(of output: URL) -> URL {
    output.deletingLastPathComponent().appendingPathComponent("." + output.lastPathComponent + ".cache")
}
