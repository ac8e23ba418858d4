import Foundation

/// The common shape of a link: `http(s)://host/path` with a lowercase host of letters, digits,
/// dots and dashes and a path of unreserved characters. `URL(string:)` accepts every such
/// text with that non-empty host, so a link of this shape skips its (costly) parse.
enum PlainHTTPURL {
    /// Whether `url` has exactly that shape; `false` says nothing (the caller parses the URL).
    static func isPlain(_ url: String) -> Bool {
        var url = url
        return url.withUTF8 { bytes in
            let prefixLength: Int
            if bytes.starts(with: "https://".utf8) {
                prefixLength = 8
            } else if bytes.starts(with: "http://".utf8) {
                prefixLength = 7
            } else {
                return false
            }
            var index = prefixLength
            while index < bytes.count, isHostByte(bytes[index]) { index += 1 }
            // The host starts with a letter or digit.
            guard index > prefixLength, isLowercaseAlphanumeric(bytes[prefixLength]) else { return false }
            guard index < bytes.count else { return true }
            guard bytes[index] == UInt8(ascii: "/") else { return false }
            while index < bytes.count, isPathByte(bytes[index]) { index += 1 }
            return index == bytes.count
        }
    }

    private static func isLowercaseAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        isLowercaseAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }

    private static func isPathByte(_ byte: UInt8) -> Bool {
        isLowercaseAlphanumeric(byte) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/")
    }
}

/// `#rgb` / `#rrggbb` colours: the only form a participant colour may take, so it cannot carry CSS.
enum ParticipantColor {
    static func isValid(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard utf8.count == 4 || utf8.count == 7, utf8[0] == UInt8(ascii: "#") else { return false }
        return utf8.dropFirst().allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
        }
    }
}
