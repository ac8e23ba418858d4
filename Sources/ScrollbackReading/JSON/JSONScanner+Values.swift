import Foundation
import ScrollbackModel

/// Numbers and strings: the scanner's byte-level loops.
extension JSONScanner {
    // MARK: numbers

    mutating func parseNumber() throws(Diagnostic) -> String {
        let start = position
        if base[position] == JSONByte.minus { position += 1 }
        guard position < end, isDigit(base[position]) else {
            throw unexpected("a digit after '-'", at: position)
        }
        if base[position] == JSONByte.zero {
            position += 1
            if position < end, isDigit(base[position]) {
                throw failure("'.', 'e' or the end of the number (no leading zeros)", at: position)
            }
        } else {
            while position < end, isDigit(base[position]) { position += 1 }
        }
        if position < end, base[position] == JSONByte.dot {
            position += 1
            guard position < end, isDigit(base[position]) else {
                throw unexpected("a digit after the decimal point", at: position)
            }
            while position < end, isDigit(base[position]) { position += 1 }
        }
        if position < end, base[position] == JSONByte.lowerE || base[position] == JSONByte.upperE {
            position += 1
            if position < end, base[position] == JSONByte.plus || base[position] == JSONByte.minus { position += 1 }
            guard position < end, isDigit(base[position]) else {
                throw unexpected("a digit in the exponent", at: position)
            }
            while position < end, isDigit(base[position]) { position += 1 }
        }
        return String(decoding: UnsafeBufferPointer(start: base + start, count: position - start), as: UTF8.self)
    }

    @inline(__always)
    func isDigit(_ byte: UInt8) -> Bool { byte &- JSONByte.zero < 10 }

    // MARK: strings

    /// Parses a string starting at its opening quote; leaves `position` after the closing quote.
    mutating func parseString() throws(Diagnostic) -> String {
        let open = position
        position += 1
        let contentStart = position
        guard try scanToQuoteOrEscape(open: open) else {
            return try parseEscapedString(open: open, contentStart: contentStart)
        }
        let text = String(
            decoding: UnsafeBufferPointer(start: base + contentStart, count: position - contentStart), as: UTF8.self)
        position += 1
        return text
    }

    /// Moves `position` (inside the string opened at `open`) to its closing quote (`true`) or to
    /// its first backslash (`false`, the caller decodes escapes from there), checking the bytes
    /// passed: no raw control character, well-formed UTF-8, a closing quote before the end.
    @inline(__always)
    mutating func scanToQuoteOrEscape(open: Int) throws(Diagnostic) -> Bool {
        while position < end {
            // Eight plain bytes (no quote, backslash, control or non-ASCII byte) at a time.
            while position + 8 <= end,
                !mayNeedAttention(UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            {
                position += 8
            }
            guard position < end else { break }
            let byte = base[position]
            if byte == JSONByte.quote {
                return true
            } else if byte == JSONByte.backslash {
                return false
            } else if byte < 0x20 {
                throw controlCharacter(at: position, open: open)
            } else if byte < 0x80 {
                position += 1
            } else {
                guard let length = utf8SequenceLength(at: position) else {
                    throw Diagnostic.error(.invalidUTF8, at: location(at: position))
                }
                position += length
            }
        }
        throw failure(
            "'\"' to end the string that starts at \(location(at: open).line):\(location(at: open).column) (unterminated string)",
            at: open)
    }

    /// Whether any of the eight bytes in `word` is a quote, a backslash, a control character or
    /// not ASCII. (May also say so for a plain byte next to such a byte: the caller then goes
    /// byte by byte, so that only costs time.)
    @inline(__always)
    func mayNeedAttention(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highBits }
        let quotes = hasZeroByte(word ^ (ones &* UInt64(JSONByte.quote)))
        let backslashes = hasZeroByte(word ^ (ones &* UInt64(JSONByte.backslash)))
        let controls = (word &- ones &* 0x20) & ~word & highBits
        return (quotes | backslashes | controls | (word & highBits)) != 0
    }

    func controlCharacter(at offset: Int, open: Int) -> Diagnostic {
        if base[offset] == JSONByte.newline {
            return failure(
                "'\"' before the end of the line (unterminated string; write a line break as \\n)", at: offset)
        }
        return failure(
            "'\"' or an escape such as \\t or \\u0000 instead of a raw control character in a string", at: offset)
    }

    /// The slow path, from the first backslash: decodes escapes into `scratch`.
    mutating func parseEscapedString(open: Int, contentStart: Int) throws(Diagnostic) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + contentStart, count: position - contentStart))
        while position < end {
            let byte = base[position]
            if byte == JSONByte.quote {
                position += 1
                return String(decoding: scratch, as: UTF8.self)
            } else if byte == JSONByte.backslash {
                try parseEscape()
            } else if byte < 0x20 {
                throw controlCharacter(at: position, open: open)
            } else if byte < 0x80 {
                scratch.append(byte)
                position += 1
            } else {
                guard let length = utf8SequenceLength(at: position) else {
                    throw Diagnostic.error(.invalidUTF8, at: location(at: position))
                }
                scratch.append(contentsOf: UnsafeBufferPointer(start: base + position, count: length))
                position += length
            }
        }
        throw failure(
            "'\"' to end the string that starts at \(location(at: open).line):\(location(at: open).column) (unterminated string)",
            at: open)
    }

    mutating func parseEscape() throws(Diagnostic) {
        let escapeStart = position
        position += 1
        guard position < end else { throw failure("an escape character after '\\'", at: position) }
        let byte = base[position]
        position += 1
        switch byte {
        case JSONByte.quote: scratch.append(JSONByte.quote)
        case JSONByte.backslash: scratch.append(JSONByte.backslash)
        case JSONByte.slash: scratch.append(JSONByte.slash)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(JSONByte.newline)
        case UInt8(ascii: "r"): scratch.append(JSONByte.carriageReturn)
        case UInt8(ascii: "t"): scratch.append(JSONByte.tab)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4(escapeStart: escapeStart)
            if scalar >= 0xD800 && scalar <= 0xDBFF {
                // A high surrogate must be followed by an escaped low surrogate.
                guard position + 1 < end, base[position] == JSONByte.backslash, base[position + 1] == UInt8(ascii: "u")
                else {
                    throw failure("a '\\uDC00'-'\\uDFFF' low surrogate after the high surrogate", at: position)
                }
                let lowStart = position
                position += 2
                let low = try parseHex4(escapeStart: lowStart)
                guard low >= 0xDC00 && low <= 0xDFFF else {
                    throw failure("a '\\uDC00'-'\\uDFFF' low surrogate after the high surrogate", at: lowStart)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                throw failure("a high surrogate '\\uD800'-'\\uDBFF' before a low surrogate", at: escapeStart)
            }
            appendUTF8(scalar)
        default:
            throw unexpected("one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX after '\\'", at: position - 1)
        }
    }

    mutating func parseHex4(escapeStart: Int) throws(Diagnostic) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < end else { throw failure("four hex digits after '\\u'", at: position) }
            let byte = base[position]
            let digit: UInt8
            switch byte {
            case JSONByte.zero...JSONByte.nine: digit = byte - JSONByte.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw unexpected("four hex digits after '\\u'", at: position)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// The length of the well-formed UTF-8 sequence starting at `offset` (a byte ≥ 0x80),
    /// or `nil` if it is malformed (Unicode Table 3-7: no overlongs, no surrogates, ≤ U+10FFFF).
    func utf8SequenceLength(at offset: Int) -> Int? {
        let first = base[offset]
        func continuation(_ index: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            offset + index < end && range.contains(base[offset + index])
        }
        switch first {
        case 0xC2...0xDF:
            return continuation(1) ? 2 : nil
        case 0xE0:
            return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : nil
        case 0xE1...0xEC, 0xEE...0xEF:
            return continuation(1) && continuation(2) ? 3 : nil
        case 0xED:
            return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : nil
        case 0xF0:
            return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : nil
        case 0xF1...0xF3:
            return continuation(1) && continuation(2) && continuation(3) ? 4 : nil
        case 0xF4:
            return continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : nil
        default:
            return nil
        }
    }
}
