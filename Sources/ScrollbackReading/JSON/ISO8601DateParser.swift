import Foundation
import ScrollbackModel

/// A hand-written parser for the ISO 8601 / RFC 3339 date-times logs use, e.g.
/// `2024-05-03T09:41:00Z`, `2024-05-03T09:41:00.250+02:00`.
///
/// `ISO8601DateFormatter` costs microseconds per call; a million messages need this to be
/// a few dozen nanoseconds, with no allocation.
enum ISO8601DateParser {
    /// What the accepted forms look like, for `Problem.invalidDate(_:expected:)`.
    static let expectedForm =
        "an ISO 8601 date with a time and an offset, such as 2024-05-03T09:41:00Z or 2024-05-03T09:41:00.5+02:00"

    /// Parses `text`: `YYYY-MM-DD`, `T` (or `t` or a space), `HH:MM`, optional `:SS` and
    /// fraction, then `Z` or an offset `±HH:MM` / `±HHMM` / `±HH`. `nil` if it is not exactly that.
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    /// Parses UTF-8 bytes; see `parse(_:)`.
    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var cursor = Cursor(bytes: bytes)
        guard let year = cursor.digits(4), cursor.expect(0x2D), let month = cursor.digits(2), cursor.expect(0x2D),
            let day = cursor.digits(2)
        else { return nil }
        guard month >= 1, month <= 12, day >= 1, day <= CivilCalendar.daysInMonth(month, year: year) else { return nil }
        guard let separator = cursor.peek(), separator == 0x54 || separator == 0x74 || separator == 0x20 else {
            return nil
        }
        cursor.index += 1
        guard let hour = cursor.digits(2), hour < 24, cursor.expect(0x3A), let minute = cursor.digits(2), minute < 60
        else {
            return nil
        }
        var seconds = 0.0
        if cursor.expect(0x3A) {
            guard let whole = cursor.digits(2), whole < 60 else { return nil }
            seconds = Double(whole)
            if let mark = cursor.peek(), mark == 0x2E || mark == 0x2C {
                cursor.index += 1
                var fraction = 0
                var scale = 1
                let fractionStart = cursor.index
                while let byte = cursor.peek(), byte &- 0x30 < 10 {
                    if scale < 1_000_000_000 {  // nanoseconds are enough
                        fraction = fraction * 10 + Int(byte &- 0x30)
                        scale *= 10
                    }
                    cursor.index += 1
                }
                guard cursor.index > fractionStart else { return nil }
                seconds += Double(fraction) / Double(scale)
            }
        }
        guard let zone = cursor.peek() else { return nil }
        var offsetSeconds = 0
        switch zone {
        case 0x5A, 0x7A:  // Z z
            cursor.index += 1
        case 0x2B, 0x2D:  // + -
            cursor.index += 1
            guard let offsetHours = cursor.digits(2), offsetHours < 24 else { return nil }
            var offsetMinutes = 0
            if cursor.peek() != nil {
                _ = cursor.expect(0x3A)
                guard let minutes = cursor.digits(2), minutes < 60 else { return nil }
                offsetMinutes = minutes
            }
            offsetSeconds = (zone == 0x2D ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60)
        default:
            return nil
        }
        guard cursor.peek() == nil else { return nil }
        let days = CivilCalendar.daysSince1970(year: year, month: month, day: day)
        let local = Double(days * 86_400 + hour * 3600 + minute * 60 - offsetSeconds) + seconds
        return Date(timeIntervalSince1970: local)
    }

    /// A position in the text being parsed.
    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        @inline(__always) func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

        @inline(__always) mutating func expect(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        @inline(__always) mutating func digits(_ length: Int) -> Int? {
            guard index + length <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<length {
                let digit = bytes[index + offset] &- 0x30
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            index += length
            return value
        }
    }
}
