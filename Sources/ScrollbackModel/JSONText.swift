/// JSON text, written: one escaping rule for every JSON the generator writes (the logs
/// `scrollback import` writes, a custom renderer's data, the search index).
public enum JSONText {
    /// A JSON string literal (`appendQuoted`'s escaping).
    public static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        appendQuoted(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Per byte, whether `appendQuoted` must look at it: controls, `"`, `\` and 0xE2 (the lead
    /// byte of U+2028/9). One load per byte instead of four comparisons.
    private static let needsLook: [Bool] = (0...255).map { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0xE2 }

    /// Appends `text` as a JSON string literal (RFC 8259): `"`, `\`, newline, return and tab
    /// escaped as themselves, other controls and U+2028/U+2029 (line breaks to JavaScript) as
    /// `\u` and four hex digits; the rest, `/` and non-ASCII included, copied as UTF-8. Runs of
    /// bytes that need no escape are copied at once.
    public static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendQuoted(utf8: $0, to: &bytes) }
    }

    /// Appends the string whose UTF-8 is `utf8` as `appendQuoted(_:to:)` does.
    public static func appendQuoted(utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        bytes.append(0x22)
        var start = 0
        var index = 0
        let count = utf8.count
        func flush() {
            if start < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index])) }
        }
        let needsLook = Self.needsLook
        while index < count {
            let byte = utf8[index]
            // Most bytes need nothing: only controls, `"`, `\` and the lead byte of U+2028/9 do.
            if !needsLook[Int(byte)] {
                index += 1
                continue
            }
            // The character after `\`, or 0x1_0000 plus the code point for `\uXXXX`.
            var escaped: UInt32?
            var length = 1
            switch byte {
            case 0x22, 0x5C: escaped = UInt32(byte)
            case 0x0A: escaped = UInt32(UInt8(ascii: "n"))
            case 0x0D: escaped = UInt32(UInt8(ascii: "r"))
            case 0x09: escaped = UInt32(UInt8(ascii: "t"))
            case 0..<0x20: escaped = 0x1_0000 | UInt32(byte)
            case 0xE2 where index + 2 < count && utf8[index + 1] == 0x80 && (utf8[index + 2] | 1) == 0xA9:
                escaped = utf8[index + 2] == 0xA8 ? 0x1_2028 : 0x1_2029
                length = 3
            default: break
            }
            guard let escaped else {
                index += 1
                continue
            }
            flush()
            bytes.append(0x5C)
            if escaped & 0x1_0000 == 0 {
                bytes.append(UInt8(escaped))
            } else {  // \uXXXX
                bytes.append(UInt8(ascii: "u"))
                for shift in stride(from: 12, through: 0, by: -4) {
                    bytes.append(hexDigits[Int((escaped >> UInt32(shift)) & 0xF)])
                }
            }
            index += length
            start = index
        }
        flush()
        bytes.append(0x22)
    }
}
