import Foundation

/// The timestamp at the start of a WhatsApp line, in every layout the apps write: the phone's
/// short date and time (CLDR patterns on Android, a bracketed variant on iOS) in any language.
///
/// Read by structure, not by a list of patterns: three numbers with `/`, `.` or `-` between
/// them (any script's digits, direction marks anywhere, `2022. 3. 18.` with spaces), a word
/// the date may carry (`г.`, `BE`, Finnish `klo`), a time with `:` or `.` (`14.56.01`), and a
/// day-period marker before or after it (`PM`, `p. m.`, `م`, `오후`, `下午`) from
/// `WhatsAppLocaleData`; or the time first (Vietnamese `14:56 18/3/22`). Then `]`, ` - ` or
/// the old `: `. Years: `R4` (a Japanese era), a Buddhist year (`2565`, or `65` read as
/// `2565`), a Persian year first (`1400/12/27`).
extension WhatsAppChatText {
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
        /// The calendar the year counts in.
        var era: Era = .gregorian
        /// Whether the time has seconds: only then may `: ` end the timestamp (old exports).
        var hasSeconds = false
    }

    /// AM or PM, whichever way a locale writes it (`PM`, `p.m.`, `p. m.`, `م`, `오후`).
    enum Meridiem { case am, pm }

    /// The calendar a timestamp's year belongs to.
    enum Era: Hashable {
        case gregorian
        /// Thai phones: the Buddhist era (2565 = 2022).
        case buddhist
        /// A Japanese era by Foundation's era number (`R4`: Reiwa 4 = 2022).
        case japanese(Int)
        /// Persian phones: the Solar Hijri year, written first (1400 = 2021).
        case persian

        /// Whether the year of this calendar comes first in the date (`R4/03/18`, `1400/12/27`).
        var isWrittenFirst: Bool {
            switch self {
            case .japanese, .persian: return true
            case .gregorian, .buddhist: return false
            }
        }
    }

    /// The calendars dates are read in, in the site's time zone: made once per chat.
    struct Calendars {
        let gregorian: Calendar
        let buddhist: Calendar
        let japanese: Calendar
        let persian: Calendar

        init(timeZone: TimeZone) {
            func make(_ identifier: Calendar.Identifier) -> Calendar {
                var calendar = Calendar(identifier: identifier)
                calendar.timeZone = timeZone
                return calendar
            }
            gregorian = make(.gregorian)
            buddhist = make(.buddhist)
            japanese = make(.japanese)
            persian = make(.persian)
        }

        static let utc = Calendars(timeZone: TimeZone(identifier: "UTC")!)
    }

    /// The date and time of `header` read in `order`, as wall-clock time in the calendars' zone;
    /// `nil` when there is no such date (month 13, 30 February, hour 25).
    static func date(of header: Header, order: DateOrder, calendars: Calendars) -> Date? {
        var year: Int
        let month: Int
        let day: Int
        switch order {
        case .yearMonthDay: (year, month, day) = (header.first, header.second, header.third)
        case .dayMonthYear: (year, month, day) = (header.third, header.second, header.first)
        case .monthDayYear: (year, month, day) = (header.third, header.first, header.second)
        }
        var era = header.era
        if era == .gregorian, year < 100 {
            // Two digits: WhatsApp began in 2009, so 43–99 are Thai phones' Buddhist years
            // (2543–2599 BE = 2000–2056); the rest are this century's.
            if year >= 43 {
                year += 2500
                era = .buddhist
            } else {
                year += 2000
            }
        }
        guard (1...12).contains(month), (1...31).contains(day), let hour = hour24(header) else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        (components.hour, components.minute, components.second) = (hour, header.minute, header.second_)
        let calendar: Calendar
        switch era {
        case .gregorian: calendar = calendars.gregorian
        case .buddhist: calendar = calendars.buddhist
        case .persian: calendar = calendars.persian
        case .japanese(let number):
            calendar = calendars.japanese
            components.era = number
        }
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

    /// The most scalars a timestamp and its end marker take: only these are looked at, so a
    /// line of any length costs the same here.
    static let headerScanLimit = 96

    /// The timestamp at the start of `line`, the normalized text of it (marks dropped, spaces
    /// made plain, digits as written: part of a message's stable id), and where the rest of the
    /// line starts.
    static func header(_ line: Substring) -> (Header, String, String.Index)? {
        // The first scalars without direction marks, each with where it sits in `line`.
        var scalars: [Unicode.Scalar] = []
        var positions: [String.Index] = []
        let view = line.unicodeScalars
        var position = view.startIndex
        while position < view.endIndex, scalars.count < headerScanLimit {
            let scalar = view[position]
            if !isDirectionMark(scalar) && scalar != "\u{FEFF}" {
                scalars.append(scalar)
                positions.append(position)
            }
            position = view.index(after: position)
        }
        positions.append(position)
        var cursor = Cursor(scalars: scalars)
        let bracketed = cursor.take("[")
        cursor.skipSpaces()
        let stampStart = cursor.index
        guard var header = cursor.dateAndTime() else { return nil }
        // A day-period marker after the time, up to where the timestamp ends.
        let afterTime = cursor.index
        guard let end = cursor.endMarker(bracketed: bracketed, from: afterTime, seconds: header.hasSeconds)
        else { return nil }
        var stampEnd = afterTime
        let between = String(String.UnicodeScalarView(scalars[afterTime..<end.markerStart]))
        let trimmedBetween = String(
            String.UnicodeScalarView(between.unicodeScalars.filter { !isSpace($0) }))
        if !trimmedBetween.isEmpty {
            if trimmedBetween == "." {
                // `2022/12/14, 13:34. - …`
            } else if header.meridiem == nil, let meridiem = WhatsAppLocaleData.meridiem(trimmedBetween) {
                header.meridiem = meridiem
            } else {
                return nil
            }
            stampEnd = end.markerStart
            while stampEnd > afterTime, isSpace(scalars[stampEnd - 1]) { stampEnd -= 1 }
        }
        var stamp = String.UnicodeScalarView()
        for scalar in scalars[stampStart..<stampEnd] { stamp.append(isSpace(scalar) ? " " : scalar) }
        return (header, String(stamp).trimmingCharacters(in: .whitespaces), positions[end.restStart])
    }

    /// A position in a line's first scalars.
    struct Cursor {
        let scalars: [Unicode.Scalar]
        var index = 0

        var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        func peek(_ offset: Int) -> Unicode.Scalar? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }

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

        /// The value of a decimal digit of any script (`٤`, `۴`, `४`, `4`).
        static func digit(_ scalar: Unicode.Scalar) -> Int? {
            guard scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue else {
                return nil
            }
            return Int(value)
        }

        /// Decimal digits, at most `maxDigits`: the value and how many digits.
        mutating func number(maxDigits: Int) -> (Int, Int)? {
            var value = 0
            var digits = 0
            while digits < maxDigits, let scalar = peek, let digit = Self.digit(scalar) {
                value = value * 10 + digit
                digits += 1
                index += 1
            }
            if let scalar = peek, Self.digit(scalar) != nil { return nil }
            return digits == 0 ? nil : (value, digits)
        }

        /// A comma, Latin or Arabic (`،`).
        mutating func takeComma() -> Bool { take(",") || take("\u{060C}") }

        /// Date and time, in either order.
        mutating func dateAndTime() -> Header? {
            let start = index
            // Time first (Vietnamese `14:56:01 18/3/22`): only with `:` in the time, so a dotted
            // date (`18.03.22, …`) is never taken for a time.
            if let time = time(), time.colon {
                var meridiem: Meridiem?
                let afterTime = index
                skipSpaces()
                if let word = word(), let value = WhatsAppLocaleData.meridiem(word) {
                    meridiem = value
                } else {
                    index = afterTime
                }
                _ = takeComma()
                if skipSpaces() > 0, var header = date() {
                    (header.hour, header.minute, header.second_, header.meridiem) =
                        (time.hour, time.minute, time.second, meridiem)
                    header.hasSeconds = time.hasSeconds
                    return header
                }
            }
            index = start
            // An era word before the year (`AP ۱۴۰۰/۱۲/۲۷`, Pashto and Mazanderani phones).
            if let scalar = peek, scalar.properties.isAlphabetic {
                let era = word()
                if (era?.unicodeScalars.count ?? 0) > 3 || skipSpaces() == 0 { index = start }
            }
            guard var header = date() else { return nil }
            _ = takeComma()
            var spaced = skipSpaces() > 0
            // Words between date and time: a year word (`г.`, `BE`), a connector (`klo`), or a
            // day-period marker written before the time (`오후`, `下午`, `अ`).
            for _ in 0..<3 {
                guard let scalar = peek, Cursor.digit(scalar) == nil else { break }
                let wordStart = index
                guard let word = word(), spaced || WhatsAppLocaleData.meridiem(word) != nil else {
                    index = wordStart
                    return nil
                }
                if let value = WhatsAppLocaleData.meridiem(word) {
                    header.meridiem = value
                } else if word.unicodeScalars.count > 6 {
                    return nil
                }
                _ = takeComma()
                spaced = skipSpaces() > 0
            }
            guard spaced || header.meridiem != nil, let time = time() else { return nil }
            (header.hour, header.minute, header.second_) = (time.hour, time.minute, time.second)
            header.hasSeconds = time.hasSeconds
            return header
        }

        /// `H:mm`, `HH:mm:ss`, `HH.mm.ss`.
        mutating func time() -> (hour: Int, minute: Int, second: Int, hasSeconds: Bool, colon: Bool)? {
            let start = index
            guard let (hour, _) = number(maxDigits: 2), let separator = peek, separator == ":" || separator == "."
            else {
                index = start
                return nil
            }
            index += 1
            guard let (minute, minuteDigits) = number(maxDigits: 2), minuteDigits == 2 else {
                index = start
                return nil
            }
            var second = 0
            var hasSeconds = false
            if peek == separator, let next = peek(1), Cursor.digit(next) != nil {
                index += 1
                guard let (value, _) = number(maxDigits: 2) else {  // Yoruba writes `14:56:1`
                    index = start
                    return nil
                }
                second = value
                hasSeconds = true
            }
            return (hour, minute, second, hasSeconds, separator == ":")
        }

        /// Three numbers with one separator (`/`, `.`, `-`; spaces may follow it), optionally a
        /// Japanese era letter before the year and a separator after the last number.
        mutating func date() -> Header? {
            let start = index
            var era = Era.gregorian
            if let scalar = peek, scalar.properties.isAlphabetic, let next = peek(1), Cursor.digit(next) != nil {
                guard let number = WhatsAppLocaleData.japaneseEra(String(scalar)) else { return nil }
                era = .japanese(number)
                index += 1
            }
            guard let (first, firstDigits) = number(maxDigits: 4), let separator = peek,
                separator == "/" || separator == "." || separator == "-"
            else {
                index = start
                return nil
            }
            index += 1
            skipSpaces()
            guard let (second, _) = number(maxDigits: 2), take(separator) else {
                index = start
                return nil
            }
            skipSpaces()
            guard let (third, thirdDigits) = number(maxDigits: 4) else {
                index = start
                return nil
            }
            if case .japanese = era {
                guard thirdDigits <= 2 else { return nil }
            } else if firstDigits == 4 {
                guard thirdDigits <= 2 else { return nil }
                if first < 1700 { era = .persian }
            } else {
                guard firstDigits <= 2, thirdDigits == 2 || thirdDigits == 4 else { return nil }
                if thirdDigits == 4, third >= 2400 { era = .buddhist }
            }
            if separator == "." || peek == "." { _ = take(".") }  // `18.03.2022.`, `2022. 3. 18.`
            return Header(
                first: first, second: second, third: third, firstDigits: era.isWrittenFirst ? 4 : firstDigits,
                hour: 0, minute: 0, second_: 0, meridiem: nil, dotted: separator == ".", era: era)
        }

        /// Letters (any script, with their marks) and dots, as one word; `nil` at anything else.
        mutating func word() -> String? {
            var scalars = String.UnicodeScalarView()
            while let scalar = peek, scalar.properties.isAlphabetic || scalar == "." || Cursor.isMark(scalar) {
                scalars.append(scalar)
                index += 1
            }
            return scalars.isEmpty ? nil : String(scalars)
        }

        static func isMark(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: return true
            default: return scalar == "\u{05F3}" || scalar == "'"  // Hebrew geresh in `לפ׳`
            }
        }

        /// Where the timestamp ends at or after `from`: `]` (bracketed), ` - ` / ` – `, or `: `
        /// after a time with seconds (old exports); the end marker's first scalar and where the
        /// rest of the line starts (after one space; the line may end right there).
        func endMarker(bracketed: Bool, from: Int, seconds: Bool) -> (markerStart: Int, restStart: Int)? {
            var position = from
            while position < scalars.count {
                let scalar = scalars[position]
                if bracketed {
                    if scalar == "]" { return afterOneSpace(position + 1).map { (position, $0) } }
                } else if scalar == "-" || scalar == "\u{2013}" {
                    if position > from, WhatsAppChatText.isSpace(scalars[position - 1]) {
                        return afterOneSpace(position + 1).map { (position, $0) }
                    }
                } else if scalar == ":", seconds {
                    let next = position + 1
                    if next < scalars.count, WhatsAppChatText.isSpace(scalars[next]) { return (position, next + 1) }
                }
                if Cursor.digit(scalar) != nil || scalar == "[" || scalar == "]" || scalar == ":" { return nil }
                position += 1
            }
            return nil
        }

        /// The position after the one space at `position`, or `position` at the line's end;
        /// `nil` when something else follows the end marker.
        func afterOneSpace(_ position: Int) -> Int? {
            if position == scalars.count { return position }
            return WhatsAppChatText.isSpace(scalars[position]) ? position + 1 : nil
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
