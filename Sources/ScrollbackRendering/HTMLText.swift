import Foundation
import ScrollbackLayout
import ScrollbackModel

/// Small, allocation-light helpers for writing HTML text, attribute values and URLs.
///
/// Everything from a log goes through `escape` before it reaches a page; URLs from a log
/// reach an `href`/`src` only through `safeLinkURL` (http, https, mailto, tel).
enum HTMLText {
    /// `text` with `& < > " '` replaced by entities, safe in element text and quoted attributes,
    /// and every code point HTML forbids (controls other than whitespace, noncharacters) replaced
    /// by U+FFFD: logs may hold them, a valid page may not.
    static func escape(_ text: String) -> String {
        withUTF8Bytes(of: text) { bytes -> String in
            var clean = true
            for byte in bytes where needsEscapeScan(byte) {
                clean = false
                break
            }
            if clean { return text }
            var output = [UInt8]()
            output.reserveCapacity(bytes.count + 16)
            appendEscaped(bytes, to: &output)
            return String(decoding: output, as: UTF8.self)
        }
    }

    /// Appends `text` escaped (see `escape`) to `output`.
    static func appendEscaped<Sink: ByteSink>(_ text: String, to output: inout Sink) {
        withUTF8Bytes(of: text) { appendEscaped($0, to: &output) }
    }

    /// Bytes 0x00...0x3F `escape` must look at: controls and `"`, `&`, `'`, `<`, `>`.
    private static let lowSpecialBytes: UInt64 =
        0xFFFF_FFFF | (1 << 0x22) | (1 << 0x26) | (1 << 0x27) | (1 << 0x3C) | (1 << 0x3E)

    /// Whether `escape` cannot return its text unchanged because of `byte`: `&`, `<`, `>`, `"`,
    /// `'`, a control character, DEL, or a lead byte that may start a forbidden code point.
    @inline(__always)
    private static func needsEscapeScan(_ byte: UInt8) -> Bool {
        if byte < 0x40 { return (lowSpecialBytes >> UInt64(byte)) & 1 != 0 }
        if byte < 0x80 { return byte == 0x7F }
        return byte == 0xC2 || byte >= 0xEF
    }

    /// Appends the escaped bytes of `bytes` to `output` (see `escape`): runs that need nothing
    /// are copied whole.
    @inline(__always)
    static func appendEscaped<Sink: ByteSink>(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout Sink) {
        let count = bytes.count
        var runStart = 0
        var index = 0
        while index < count {
            let byte = bytes[index]
            if !needsEscapeScan(byte) {
                index += 1
                continue
            }
            if index > runStart { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
            let forbidden = forbiddenCodePointLength(bytes, index)
            if forbidden > 0 {
                output += "\u{FFFD}"
                index += forbidden
            } else {
                appendEscaped(byte, to: &output)
                index += 1
            }
            runStart = index
        }
        if count > runStart { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<count])) }
    }

    /// `text` (markup or text that is already escaped) with every code point HTML forbids replaced
    /// by U+FFFD; returned as it is, without copying, when it has none.
    static func replacingForbiddenCodePoints(_ text: String) -> String {
        withUTF8Bytes(of: text) { bytes -> String in
            var first = -1
            for index in 0..<bytes.count {
                let byte = bytes[index]
                if byte >= 0x20 && byte < 0x7F || byte >= 0x80 && byte != 0xC2 && byte < 0xEF { continue }
                if forbiddenCodePointLength(bytes, index) > 0 {
                    first = index
                    break
                }
            }
            if first < 0 { return text }
            var output = Array(UnsafeBufferPointer(rebasing: bytes[0..<first]))
            output.reserveCapacity(bytes.count + 8)
            var index = first
            while index < bytes.count {
                let forbidden = forbiddenCodePointLength(bytes, index)
                if forbidden > 0 {
                    output.append(contentsOf: replacementCharacter)
                    index += forbidden
                } else {
                    output.append(bytes[index])
                    index += 1
                }
            }
            return String(decoding: output, as: UTF8.self)
        }
    }

    /// U+FFFD in UTF-8: written in place of a code point HTML forbids.
    static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// The UTF-8 length of the code point at `index` of `bytes` when HTML forbids it in a document
    /// (a C0 control other than tab, line feed, form feed and carriage return; DEL; a C1 control;
    /// a noncharacter such as U+FFFE or U+FDD0), else 0.
    @inline(__always)
    static func forbiddenCodePointLength(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int {
        let byte = bytes[index]
        if byte < 0x20 { return byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D ? 0 : 1 }
        if byte < 0x7F { return 0 }
        if byte == 0x7F { return 1 }
        let count = bytes.count
        switch byte {
        case 0xC2:  // U+0080…U+009F
            return index + 1 < count && bytes[index + 1] < 0xA0 ? 2 : 0
        case 0xEF:  // U+FDD0…U+FDEF, U+FFFE, U+FFFF
            guard index + 2 < count else { return 0 }
            let second = bytes[index + 1]
            let third = bytes[index + 2]
            if second == 0xB7 && third >= 0x90 && third <= 0xAF { return 3 }
            return second == 0xBF && third >= 0xBE ? 3 : 0
        case 0xF0...0xF4:  // U+1FFFE, U+1FFFF, … U+10FFFF
            guard index + 3 < count else { return 0 }
            return bytes[index + 1] & 0x0F == 0x0F && bytes[index + 2] == 0xBF && bytes[index + 3] >= 0xBE ? 4 : 0
        default:
            return 0
        }
    }

    /// Appends one byte, escaped when it is one of `& < > " '`. Callers that write log text
    /// byte by byte check `forbiddenCodePointLength` first.
    @inline(__always)
    static func appendEscaped<Sink: ByteSink>(_ byte: UInt8, to output: inout Sink) {
        switch byte {
        case UInt8(ascii: "&"): output += "&amp;"
        case UInt8(ascii: "<"): output += "&lt;"
        case UInt8(ascii: ">"): output += "&gt;"
        case UInt8(ascii: "\""): output += "&quot;"
        case UInt8(ascii: "'"): output += "&#39;"
        default: output.append(byte)
        }
    }

    /// `url` when it is an absolute http(s) URL with no whitespace or control characters, else `nil`.
    static func safeWebURL(_ url: String) -> String? {
        let lower = url.prefix(8).lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return nil }
        guard url.utf8.count > (lower.hasPrefix("https://") ? 8 : 7) else { return nil }
        for byte in url.utf8 where byte <= 0x20 || byte == 0x7F { return nil }
        return url
    }

    /// `url` when it may be a link target: http(s), or `mailto:` with an address; else `nil`.
    static func safeLinkURL(_ url: String) -> String? {
        if let web = safeWebURL(url) { return web }
        if url.prefix(7).lowercased() == "mailto:", url.contains("@") {
            for byte in url.utf8 where byte <= 0x20 || byte == 0x7F { return nil }
            return url
        }
        return nil
    }

    /// The host of an http(s) URL, without `www.`, for "domain" labels.
    static func host(of url: String) -> String? {
        let rest: Substring
        if let end = asciiSchemeEnd(url) {
            guard end >= 0 else { return nil }
            return asciiHost(url, after: end)
        } else {
            guard let schemeEnd = url.range(of: "://") else { return nil }
            rest = url[schemeEnd.upperBound...]
        }
        var host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
        if let colon = host.lastIndex(of: ":"), !host.contains("]") { host = host[..<colon] }
        var result = host.lowercased()
        if result.hasPrefix("www.") { result.removeFirst(4) }
        return result.isEmpty ? nil : result
    }

    /// `host(of:)` for an all-ASCII `url` whose scheme ends at byte `start`, byte by byte (for
    /// ASCII, characters and bytes are one and the same).
    private static func asciiHost(_ url: String, after start: Int) -> String? {
        var url = url
        return url.withUTF8 { bytes -> String? in
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "?"),
                bytes[end] != UInt8(ascii: "#")
            {
                end += 1
            }
            var hostStart = start
            var colon = -1
            var hasBracket = false
            for index in start..<end {
                switch bytes[index] {
                case UInt8(ascii: "@"):
                    hostStart = index + 1
                    colon = -1
                    hasBracket = false
                case UInt8(ascii: ":"): colon = index
                case UInt8(ascii: "]"): hasBracket = true
                default: break
                }
            }
            var hostEnd = end
            if colon >= 0, !hasBracket { hostEnd = colon }
            var host = [UInt8]()
            host.reserveCapacity(hostEnd - hostStart)
            for index in hostStart..<max(hostStart, hostEnd) {
                let byte = bytes[index]
                host.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
            }
            if host.starts(with: "www.".utf8) { host.removeFirst(4) }
            return host.isEmpty ? nil : String(decoding: host, as: UTF8.self)
        }
    }

    /// For an all-ASCII `url`, the UTF-8 offset just past its first `://` (-1 when there is none),
    /// found byte by byte; `nil` for other text, which goes through Foundation's `range(of:)`.
    private static func asciiSchemeEnd(_ url: String) -> Int? {
        var url = url
        return url.withUTF8 { bytes -> Int? in
            var found = -1
            var index = 0
            let count = bytes.count
            while index < count {
                let byte = bytes[index]
                if byte >= 0x80 { return nil }
                if found < 0, byte == UInt8(ascii: ":"), index + 2 < count,
                    bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/")
                {
                    found = index + 3
                }
                index += 1
            }
            return found
        }
    }

    /// The element id of a participant: `p-<id>` when the id is its own slug (`alice`), else
    /// `p-<slug>-<hash of the id>`, so ids that slug alike (`a` and `A`, `家族` and `友達`) never
    /// share an element id.
    static func participantAnchor(_ id: String) -> String {
        if Slug.isSlug(id) { return "p-" + id }
        let hash = String(StableHash.fnv1a32(id.utf8), radix: 16)
        let slug = Slug.make(id)
        return "p-" + (slug.isEmpty ? "" : slug + "-") + String(repeating: "0", count: 8 - hash.count) + hash
    }

    /// `1.2 MB`-style size, decimal units as file managers show them.
    static func humanSize(_ bytes: Int64) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        let units = ["kB", "MB", "GB", "TB", "PB"]
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 999.95, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        let rounded = (value * 10).rounded() / 10
        let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        return text + " " + units[unit]
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters.
    static func percentEncode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var output = [UInt8]()
        output.reserveCapacity(text.utf8.count * 2)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                output.append(byte)
            default:
                output.append(UInt8(ascii: "%"))
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 15)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether `color` is `#rgb` or `#rrggbb` (re-checked here so no log text reaches a style).
    static func isHexColor(_ color: String) -> Bool {
        let bytes = Array(color.utf8)
        guard bytes.count == 4 || bytes.count == 7, bytes[0] == UInt8(ascii: "#") else { return false }
        return bytes.dropFirst().allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }
    }

    /// Up to two initials of a name, uppercased ("Bob Stone" → "BS"). A bracketed word qualifies
    /// the name rather than being part of it, so it gives no initial ("ChatGPT (gpt-4)" → "C").
    static func initials(_ name: String) -> String {
        let unqualified = name.prefix { !"([{<".contains($0) }
        let words = (unqualified.contains { $0.isLetter || $0.isNumber } ? unqualified : name[...])
            .split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "_" || $0 == "." })
        var result = ""
        for word in words.prefix(2) {
            if let first = word.first { result += String(first).uppercased() }
        }
        return result.isEmpty ? "?" : result
    }

    /// Seconds as `m:ss` (or `h:mm:ss` past an hour).
    static func duration(_ seconds: Double) -> String? {
        guard seconds.isFinite, seconds >= 0 else { return nil }
        let total = Int(seconds.rounded())
        let hours = total / 3600
        let minutes = (total % 3600) / 60
        let secs = total % 60
        let secText = secs < 10 ? "0\(secs)" : "\(secs)"
        if hours > 0 { return "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(secText)" }
        return "\(minutes):\(secText)"
    }

    /// A coordinate with at most 6 decimals and no trailing zeros, independent of locale.
    static func coordinate(_ value: Double) -> String {
        let scaled = (value * 1_000_000).rounded()
        let negative = scaled < 0
        let magnitude = Int64(abs(scaled))
        var fraction = String(magnitude % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let whole = "\(negative ? "-" : "")\(magnitude / 1_000_000)"
        return fraction.isEmpty ? whole : "\(whole).\(fraction)"
    }
}
