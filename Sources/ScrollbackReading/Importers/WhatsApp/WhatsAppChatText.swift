import Foundation
import ScrollbackModel

/// The text of a WhatsApp "Export chat" file split into messages, before any meaning is given
/// to their bodies: where each message starts, its timestamp (with the date order detected
/// from the whole file) and its raw text (sender and body, continuation lines joined).
///
/// Layouts it reads (Android and iOS, any locale the samples show):
/// `1/29/18, 23:46 - Alice: text`, `29.01.18, 12:24 PM - …`, `[1/29/18, 12:24:03 PM] …`,
/// `[01/20/19 11:23] …`, `9/24/2019 11:30 p.m. - …`, `2022/12/14, 13:34. - …`,
/// `09/10/22, 10:37 p. m. - …` (with a no-break or narrow no-break space).
/// Byte order marks anywhere in the file and left-to-right marks are dropped; CRLF and LF
/// line ends are both read. A line that does not start with a timestamp continues the message
/// before it, so no line is ever lost.
struct WhatsAppChatText {
    /// One message as written: its first line's position, its timestamp and its text.
    struct Entry {
        /// 1-based line of the timestamp.
        var line: Int
        /// 1-based UTF-8 column of the timestamp on that line.
        var column: Int
        /// The timestamp as written (marks dropped, spaces made plain): part of the message's stable id.
        var stamp: String
        /// The timestamp's numbers, in the order written.
        var header: Header
        /// Everything after the timestamp: `Sender: body` or a system line, then continuation lines.
        var text: String
    }

    /// The numbers of a timestamp as written, before the date order is known.
    struct Header {
        var first: Int
        var second: Int
        var third: Int
        /// Digits of the first field: 3 or 4 means the year comes first (`2022/12/14`).
        var firstDigits: Int
        var hour: Int
        var minute: Int
        var second_: Int
        var meridiem: Meridiem?
        /// `.` between the date's fields (German `29.01.18`): the tie-break of an ambiguous order.
        var dotted: Bool
    }

    /// AM or PM, whichever way a locale writes it (`PM`, `p.m.`, `p. m.`).
    enum Meridiem { case am, pm }

    /// The order of a date's day, month and year fields.
    enum DateOrder: String {
        case dayMonthYear = "D/M/Y"
        case monthDayYear = "M/D/Y"
        case yearMonthDay = "Y/M/D"
    }

    /// Lines before the first message start (a file cut at the top, or a header the reader
    /// does not know): kept so nothing is lost, with the line they start at.
    var preamble: (line: Int, text: String)?
    /// The messages in file order.
    var entries: [Entry]
    /// The date order detected from every timestamp of the file.
    var order: DateOrder

    /// Splits `text` into messages; `nil` when no line starts with a timestamp (then it is not a
    /// WhatsApp export).
    init?(_ text: String) {
        var entries: [Entry] = []
        var preambleLines: [String] = []
        var preambleLine = 0
        var lineNumber = 0
        for rawLine in WhatsAppChatText.lines(of: text) {
            lineNumber += 1
            let (line, droppedBytes) = WhatsAppChatText.cleaned(rawLine)
            if let (header, stamp, rest) = WhatsAppChatText.header(line) {
                entries.append(
                    Entry(line: lineNumber, column: droppedBytes + 1, stamp: stamp, header: header, text: rest))
            } else if entries.isEmpty {
                if preambleLines.isEmpty { preambleLine = lineNumber }
                preambleLines.append(String(String.UnicodeScalarView(line)))
            } else {
                entries[entries.count - 1].text += "\n" + String(String.UnicodeScalarView(line))
            }
        }
        guard !entries.isEmpty else { return nil }
        for index in entries.indices {
            entries[index].text = WhatsAppChatText.trimmingTrailingBlankLines(entries[index].text)
        }
        let preambleText = WhatsAppChatText.trimmingTrailingBlankLines(preambleLines.joined(separator: "\n"))
        self.preamble =
            preambleText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : (preambleLine, preambleText)
        self.entries = entries
        self.order = WhatsAppChatText.detectOrder(entries.map(\.header))
    }

    /// Whether `text` opens like a WhatsApp export: its first line that is not blank starts with a
    /// timestamp. Recognising by structure, never by file name (spec §6).
    static func looksLikeExport(_ text: Substring) -> Bool {
        for rawLine in lines(of: String(text)) {
            let (line, _) = cleaned(rawLine)
            if line.allSatisfy({ $0.properties.isWhitespace }) { continue }
            return header(line) != nil
        }
        return false
    }

    /// The date and time of `header` read in `order`, as wall-clock time in `calendar`'s zone;
    /// `nil` when there is no such date (month 13, 30 February, hour 25).
    static func date(of header: Header, order: DateOrder, calendar: Calendar) -> Date? {
        var year: Int
        let month: Int
        let day: Int
        switch order {
        case .yearMonthDay: (year, month, day) = (header.first, header.second, header.third)
        case .dayMonthYear: (year, month, day) = (header.third, header.second, header.first)
        case .monthDayYear: (year, month, day) = (header.third, header.first, header.second)
        }
        if year < 100 { year += 2000 }
        guard (1...12).contains(month), (1...31).contains(day), let hour = hour24(header) else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        (components.hour, components.minute, components.second) = (hour, header.minute, header.second_)
        guard components.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: components)
    }

    /// The hour on a 24-hour clock. A 12-hour clock's `12 AM` is 0 and `12 PM` is 12; an hour
    /// above 12 with a marker (`23:59 PM`, `13:37 p.m.`, both in the samples) is taken as written.
    static func hour24(_ header: Header) -> Int? {
        guard header.hour <= 23, header.minute <= 59, header.second_ <= 59 else { return nil }
        switch header.meridiem {
        case nil: return header.hour
        case .am?: return header.hour == 12 ? 0 : header.hour
        case .pm?: return header.hour < 12 ? header.hour + 12 : header.hour
        }
    }

    /// The date order that fits every timestamp: year first when the first field has 3–4
    /// digits; else day/month or month/day by which one keeps every date valid; when both do,
    /// the one whose dates run forward most often (exports are in time order, with few
    /// exceptions); when that ties too, D/M (most locales; German and other dotted dates always).
    static func detectOrder(_ headers: [Header]) -> DateOrder {
        if headers.allSatisfy({ $0.firstDigits >= 3 }) { return .yearMonthDay }
        let calendar = Calendar.gregorianUTC
        func fits(_ order: DateOrder) -> Int {
            headers.reduce(0) { $0 + (date(of: $1, order: order, calendar: calendar) == nil ? 0 : 1) }
        }
        let dayFirst = fits(.dayMonthYear)
        let monthFirst = fits(.monthDayYear)
        if dayFirst != monthFirst { return dayFirst > monthFirst ? .dayMonthYear : .monthDayYear }
        func backwardSteps(_ order: DateOrder) -> Int {
            var previous: Date?
            var steps = 0
            for header in headers {
                guard let date = date(of: header, order: order, calendar: calendar) else { continue }
                if let previous, date < previous { steps += 1 }
                previous = date
            }
            return steps
        }
        let dayFirstSteps = backwardSteps(.dayMonthYear)
        let monthFirstSteps = backwardSteps(.monthDayYear)
        if dayFirstSteps != monthFirstSteps { return dayFirstSteps < monthFirstSteps ? .dayMonthYear : .monthDayYear }
        return .dayMonthYear
    }

    // MARK: - Lines

    /// The lines of `text` as scalars, split at LF, CRLF or a lone CR.
    static func lines(of text: String) -> [[Unicode.Scalar]] {
        var lines: [[Unicode.Scalar]] = []
        var current: [Unicode.Scalar] = []
        var afterCR = false
        for scalar in text.unicodeScalars {
            if afterCR {
                afterCR = false
                if scalar == "\n" { continue }
            }
            switch scalar {
            case "\n":
                lines.append(current)
                current = []
            case "\r":
                lines.append(current)
                current = []
                afterCR = true
            default: current.append(scalar)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// The line without byte order marks (which exports scatter anywhere, even inside words) and
    /// without the direction marks before its first character; and how many UTF-8 bytes were
    /// dropped before the first kept character (for columns).
    static func cleaned(_ line: [Unicode.Scalar]) -> (line: [Unicode.Scalar], droppedBytes: Int) {
        var result: [Unicode.Scalar] = []
        result.reserveCapacity(line.count)
        var dropped = 0
        for scalar in line {
            if scalar == "\u{FEFF}" || (result.isEmpty && isDirectionMark(scalar)) {
                if result.isEmpty { dropped += String(scalar).utf8.count }
                continue
            }
            result.append(scalar)
        }
        return (result, dropped)
    }

    /// Left-to-right and right-to-left marks and embeddings, which exports put before names and file names.
    static func isDirectionMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// A space as WhatsApp writes one between date, time and marker: plain, no-break or narrow no-break.
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\u{00A0}" || scalar == "\u{202F}" || scalar == "\t" || scalar == "\u{2009}"
    }

    static func trimmingTrailingBlankLines(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        while lines.count > 1, let last = lines.last, last.allSatisfy(\.isWhitespace) { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    // MARK: - Timestamp

    /// The timestamp at the start of `line`, the normalized text of it, and the rest of the line.
    static func header(_ line: [Unicode.Scalar]) -> (Header, String, String)? {
        var cursor = Cursor(scalars: line)
        let bracketed = cursor.take("[")
        cursor.skipSpaces()
        guard let (first, firstDigits) = cursor.number(maxDigits: 4) else { return nil }
        guard let separator = cursor.peek, separator == "/" || separator == "." || separator == "-" else { return nil }
        cursor.index += 1
        guard let (second, _) = cursor.number(maxDigits: 2), cursor.take(separator) else { return nil }
        guard let (third, thirdDigits) = cursor.number(maxDigits: 4) else { return nil }
        // `2022/12/14` (year first) or `29.01.18`, `1/29/2018` (year last, 2 or 4 digits).
        if firstDigits == 4 {
            guard thirdDigits <= 2 else { return nil }
        } else {
            guard firstDigits <= 2, thirdDigits == 2 || thirdDigits == 4 else { return nil }
        }
        _ = cursor.take(",")
        guard cursor.skipSpaces() > 0 else { return nil }
        guard let (hour, _) = cursor.number(maxDigits: 2), cursor.take(":"),
            let (minute, minuteDigits) = cursor.number(maxDigits: 2), minuteDigits == 2
        else { return nil }
        var second_ = 0
        if cursor.peek == ":" {
            cursor.index += 1
            guard let (value, digits) = cursor.number(maxDigits: 2), digits == 2 else { return nil }
            second_ = value
        }
        let beforeMarker = cursor.index
        cursor.skipSpaces()
        let meridiem = cursor.meridiem()
        if meridiem == nil { cursor.index = beforeMarker }
        _ = cursor.take(".")  // `2022/12/14, 13:34. - …`
        let stampEnd = cursor.index
        cursor.skipSpaces()
        if bracketed {
            guard cursor.take("]") else { return nil }
        } else {
            guard cursor.take("-") || cursor.take("\u{2013}") else { return nil }
        }
        // One space after `]` or `-`; the line may end right there.
        if let next = cursor.peek {
            guard isSpace(next) else { return nil }
            cursor.index += 1
        }
        let header = Header(
            first: first, second: second, third: third, firstDigits: firstDigits, hour: hour, minute: minute,
            second_: second_, meridiem: meridiem, dotted: separator == ".")
        var stamp = String.UnicodeScalarView()
        for scalar in line[(bracketed ? 1 : 0)..<stampEnd] { stamp.append(isSpace(scalar) ? " " : scalar) }
        let rest = String(String.UnicodeScalarView(line[cursor.index...]))
        return (header, String(stamp).trimmingCharacters(in: .whitespaces), rest)
    }

    /// A position in a line's scalars.
    struct Cursor {
        let scalars: [Unicode.Scalar]
        var index = 0

        var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        mutating func take(_ scalar: Unicode.Scalar) -> Bool {
            guard peek == scalar else { return false }
            index += 1
            return true
        }

        @discardableResult
        mutating func skipSpaces() -> Int {
            let start = index
            while let scalar = peek, WhatsAppChatText.isSpace(scalar) { index += 1 }
            return index - start
        }

        /// ASCII digits, at most `maxDigits`: the value and how many digits.
        mutating func number(maxDigits: Int) -> (Int, Int)? {
            var value = 0
            var digits = 0
            while digits < maxDigits, let scalar = peek, scalar.isASCII, scalar.properties.numericType != nil {
                value = value * 10 + Int(scalar.value - 48)
                digits += 1
                index += 1
            }
            if let scalar = peek, scalar.isASCII, scalar.properties.numericType != nil { return nil }
            return digits == 0 ? nil : (value, digits)
        }

        /// `AM`, `pm`, `a.m.`, `p. m.` (any space between), followed by a space, `]`, `.` or `-`.
        mutating func meridiem() -> Meridiem? {
            let start = index
            guard let letter = peek.map({ Character($0).lowercased() }), letter == "a" || letter == "p" else {
                return nil
            }
            index += 1
            _ = take(".")
            skipSpaces()
            guard let m = peek.map({ Character($0).lowercased() }), m == "m" else {
                index = start
                return nil
            }
            index += 1
            _ = take(".")
            if let next = peek, !(WhatsAppChatText.isSpace(next) || next == "]" || next == "-") {
                index = start
                return nil
            }
            return letter == "a" ? .am : .pm
        }
    }
}

extension Calendar {
    /// A Gregorian calendar in UTC (Foundation on Linux defaults to other locales and zones).
    static var gregorianUTC: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }
}
