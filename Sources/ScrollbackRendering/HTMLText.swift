import Foundation

/// Small, allocation-light helpers for writing HTML text, attribute values and URLs.
///
/// Everything from a log goes through `escape` before it reaches a page; URLs from a log
/// reach an `href`/`src` only through `safeLinkURL` (http, https, mailto, tel).
enum HTMLText {
    /// `text` with `& < > " '` replaced by entities, safe in element text and quoted attributes.
    static func escape(_ text: String) -> String {
        var needsEscaping = false
        for byte in text.utf8 where byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
        {
            needsEscaping = true
            break
        }
        if !needsEscaping { return text }
        var output = [UInt8]()
        output.reserveCapacity(text.utf8.count + 16)
        appendEscaped(text.utf8, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the escaped bytes of `bytes` to `output`.
    @inline(__always)
    static func appendEscaped<Bytes: Sequence<UInt8>>(_ bytes: Bytes, to output: inout [UInt8]) {
        for byte in bytes {
            appendEscaped(byte, to: &output)
        }
    }

    /// Appends one byte, escaped when it is one of `& < > " '`.
    @inline(__always)
    static func appendEscaped(_ byte: UInt8, to output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
        case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
        case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
        case UInt8(ascii: "\""): output.append(contentsOf: "&quot;".utf8)
        case UInt8(ascii: "'"): output.append(contentsOf: "&#39;".utf8)
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
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        var host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
        if let colon = host.lastIndex(of: ":"), !host.contains("]") { host = host[..<colon] }
        var result = host.lowercased()
        if result.hasPrefix("www.") { result.removeFirst(4) }
        return result.isEmpty ? nil : result
    }

    /// A URL slug: ASCII letters and digits lowercased, every other run of characters one `-`.
    static func slug(_ text: String) -> String {
        var output = [UInt8]()
        output.reserveCapacity(text.utf8.count)
        var pendingDash = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                if pendingDash, !output.isEmpty { output.append(UInt8(ascii: "-")) }
                pendingDash = false
                output.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                if pendingDash, !output.isEmpty { output.append(UInt8(ascii: "-")) }
                pendingDash = false
                output.append(byte + 32)
            default:
                pendingDash = true
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether `text` is already its own slug (the common case: ids such as `m42` or `msg-7`).
    static func isSlug(_ text: String) -> Bool {
        var previousDash = true
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                previousDash = false
            case UInt8(ascii: "-"):
                if previousDash { return false }
                previousDash = true
            default: return false
            }
        }
        return !previousDash
    }

    /// FNV-1a over UTF-8: a stable hash (Swift's `Hasher` is seeded per process).
    static func stableHash(_ text: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return hash
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
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }
    }

    /// Up to two initials of a name, uppercased ("Bob Stone" → "BS").
    static func initials(_ name: String) -> String {
        let words = name.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "_" || $0 == "." })
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
        let hours = total / 3600, minutes = (total % 3600) / 60, secs = total % 60
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
