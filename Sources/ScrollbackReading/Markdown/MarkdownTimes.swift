import Foundation
import ScrollbackModel

/// The times a Markdown log writes in message headers (spec §2), and the calendar that turns
/// them into dates in the conversation's time zone.
struct MarkdownClock {
    /// A calendar day, as a date heading or a dated header sets it.
    struct Day: Hashable {
        var year: Int
        var month: Int
        var day: Int
    }

    /// A header time as written.
    enum WrittenTime: Hashable {
        /// `HH:MM[:SS]`: needs the current day.
        case timeOfDay(hour: Int, minute: Int, second: Int, nanosecond: Int)
        /// `YYYY-MM-DD HH:MM[:SS]` or the same with `T`: a local time in the conversation's zone.
        case localDateTime(Day, hour: Int, minute: Int, second: Int, nanosecond: Int)
        /// A full ISO 8601 date with `Z` or an offset: an exact instant.
        case instant(Date)
    }

    /// The accepted forms, for `Problem.invalidDate(_:expected:)`.
    static let expectedTime =
        "a time HH:MM or HH:MM:SS, a date and time YYYY-MM-DD HH:MM[:SS], or an ISO 8601 date such as 2024-05-03T09:41:00+02:00"
    /// The accepted form of a date heading.
    static let expectedDay = "a date YYYY-MM-DD with a real month and day"

    private let calendar: Calendar

    /// A clock for `timeZone`.
    init(timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The date `time` names on `day` (the day is required only for a time of day).
    func date(_ time: WrittenTime, on day: Day?) -> Date? {
        switch time {
        case .instant(let date):
            return date
        case .localDateTime(let written, let hour, let minute, let second, let nanosecond):
            return date(written, hour: hour, minute: minute, second: second, nanosecond: nanosecond)
        case .timeOfDay(let hour, let minute, let second, let nanosecond):
            guard let day else { return nil }
            return date(day, hour: hour, minute: minute, second: second, nanosecond: nanosecond)
        }
    }

    /// The calendar day of `date` in the conversation's zone.
    func day(of date: Date) -> Day {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return Day(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
    }

    private func date(_ day: Day, hour: Int, minute: Int, second: Int, nanosecond: Int) -> Date? {
        calendar.date(
            from: DateComponents(
                year: day.year, month: day.month, day: day.day, hour: hour, minute: minute, second: second,
                nanosecond: nanosecond))
    }

    /// Parses `YYYY-MM-DD` (a real calendar date); `nil` otherwise.
    static func parseDay(_ text: Substring) -> Day? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]),
            (1...12).contains(month), day >= 1, day <= CivilCalendar.daysInMonth(month, year: year)
        else { return nil }
        return Day(year: year, month: month, day: day)
    }

    /// Whether `text` has the shape `DDDD-DD-DD` (digits and dashes), valid or not: such a
    /// heading is meant as a date, so an impossible one is an error rather than a title.
    static func looksLikeDay(_ text: Substring) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10 else { return false }
        return bytes.indices.allSatisfy { index in
            index == 4 || index == 7 ? bytes[index] == UInt8(ascii: "-") : isDigit(bytes[index])
        }
    }

    /// Whether a heading is a date written in another form than `YYYY-MM-DD` (`03/05/2024`,
    /// `3.5.2024`, `May 3, 2024`, `Friday, 3 May 2024`, `2024/05/03`): words that are all numbers
    /// or English month and weekday names, with a four-digit year and a day or month number.
    static func looksLikeOtherDateFormat(_ text: Substring) -> Bool {
        let words = text.lowercased().split { $0.isWhitespace || $0 == "," || $0 == "/" || $0 == "." || $0 == "-" }
        guard words.count >= 2, words.count <= 5 else { return false }
        var numbers = 0
        var hasYear = false
        var hasMonthName = false
        for word in words {
            if word.allSatisfy({ $0.isASCII && $0.isNumber }) {
                guard word.count <= 4 else { return false }
                numbers += 1
                if word.count == 4 { hasYear = true }
            } else {
                let name = word.hasSuffix("th") || word.hasSuffix("st") || word.hasSuffix("nd") || word.hasSuffix("rd")
                if name, word.dropLast(2).allSatisfy({ $0.isASCII && $0.isNumber }), !word.dropLast(2).isEmpty {
                    numbers += 1
                    continue
                }
                let isName = { (names: [String]) in word.count >= 3 && names.contains { $0.hasPrefix(word) } }
                if isName(monthNames) {
                    hasMonthName = true
                } else if !isName(weekdayNames) {
                    return false
                }
            }
        }
        return hasYear && (numbers >= 3 || (hasMonthName && numbers >= 2))
    }

    private static let monthNames = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december",
    ]
    private static let weekdayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// Whether `text` starts like a time or date (`9:`, `09:`, `2024-`): a header whose sender
    /// is unknown is only reported as an error when its time looks like one.
    static func looksLikeTime(_ text: Substring) -> Bool {
        let bytes = Array(text.utf8.prefix(6))
        var index = 0
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        guard index >= 1, index <= 4, index < bytes.count else { return false }
        return bytes[index] == UInt8(ascii: ":") || bytes[index] == UInt8(ascii: "-")
    }

    /// Parses a header time: `HH:MM`, `HH:MM:SS` (hours may be one digit), optional fraction,
    /// optionally after `YYYY-MM-DD` and a space or `T`, optionally followed (when dated) by
    /// `Z` or an offset. `nil` if `text` is not exactly one of those.
    static func parseTime(_ text: Substring) -> WrittenTime? {
        let bytes = Array(text.utf8)
        var index = 0
        var day: Day?
        if bytes.count >= 11, bytes[4] == UInt8(ascii: "-") {
            guard let parsed = parseDay(text.prefix(10)),
                bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t")
            else { return nil }
            day = parsed
            index = 11
        }
        func digits(max: Int) -> Int? {
            let start = index
            var value = 0
            while index < bytes.count, index - start < max, isDigit(bytes[index]) {
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
            }
            return index > start ? value : nil
        }
        let hourStart = index
        guard let hour = digits(max: 2), hour < 24, index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            return nil
        }
        // Two-digit hours in a dated form, as ISO 8601 writes them.
        if day != nil, index - hourStart != 2 { return nil }
        index += 1
        let minuteStart = index
        guard let minute = digits(max: 2), index - minuteStart == 2, minute < 60 else { return nil }
        var second = 0
        var nanosecond = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            index += 1
            let secondStart = index
            guard let value = digits(max: 2), index - secondStart == 2, value < 60 else { return nil }
            second = value
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
                index += 1
                let fractionStart = index
                var scale = 100_000_000
                while index < bytes.count, isDigit(bytes[index]) {
                    nanosecond += Int(bytes[index] - 0x30) * scale
                    scale /= 10
                    index += 1
                }
                guard index > fractionStart else { return nil }
            }
        }
        if index == bytes.count {
            if let day {
                return .localDateTime(day, hour: hour, minute: minute, second: second, nanosecond: nanosecond)
            }
            return .timeOfDay(hour: hour, minute: minute, second: second, nanosecond: nanosecond)
        }
        // A zone only makes sense with a date: the whole text must then be ISO 8601.
        guard day != nil, let instant = ISO8601DateParser.parse(String(text)) else { return nil }
        return .instant(instant)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }
}
