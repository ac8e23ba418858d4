import Foundation
import ScrollbackModel

/// Every date text of one conversation: message times, ISO stamps, day separators, edit and
/// summary dates, all in the conversation's time zone and the configured locale.
///
/// Made once per conversation (never per message). Formatting a date with `DateFormatter` costs
/// about 2 µs on Linux, which a million messages cannot afford, so:
/// - ISO 8601 strings and day numbers are computed by hand from the zone's UTC offset;
/// - when the timestamp pattern only shows the time of day (`h:mm:ss a`, `HH:mm`, …; the time
///   styles resolve to such patterns), each distinct second of the day is formatted once per
///   process and reused by every conversation with the same locale and format (`TimeOfDayTexts`).
///
/// Not thread-safe (it caches); each layout pass makes its own.
final class ConversationDateFormats {
    /// Seconds in a day; also the size of the time-of-day cache.
    static let secondsPerDay: Int64 = 86_400
    /// Pattern letters whose output depends only on the wall-clock time of day (UTS #35).
    private static let timeOfDayFields: Set<Character> = ["a", "b", "B", "h", "H", "k", "K", "m", "s"]

    /// The zone dates are shown in and days are split in.
    let timeZone: TimeZone
    private let timestampFormatter: DateFormatter
    private let dayFormatter: DateFormatter
    private let dayAndTimeFormatter: DateFormatter
    /// Used only for years `formatISO` does not write by hand (before 1 or after 9999).
    private let isoFallbackFormatter: DateFormatter
    /// Time-of-day texts by local second of the day, shared by the conversations formatted alike;
    /// `nil` when the pattern shows more than the time of day.
    private let timeOfDayTexts: TimeOfDayTexts?
    /// The offset `offset(atUTCSeconds:)` last asked ICU for, and the UTC seconds it holds for.
    private var cachedOffset = 0
    private var offsetValidFrom = Int64.max
    private var offsetValidUntil = Int64.min

    /// Formats for `options` in `timeZone`.
    init(options: LayoutOptions, timeZone: TimeZone) {
        self.timeZone = timeZone
        let locale = Locale(identifier: options.locale)

        timestampFormatter = Self.formatter(locale: locale, timeZone: timeZone)
        switch options.timestampFormat {
        case .style(let style):
            timestampFormatter.dateStyle = .none
            timestampFormatter.timeStyle = style
        case .pattern(let pattern):
            timestampFormatter.dateFormat = pattern
        }

        dayFormatter = Self.formatter(locale: locale, timeZone: timeZone)
        dayFormatter.setLocalizedDateFormatFromTemplate("EEEEMMMMdy")

        // The date as well as the time: an edit or the end of a conversation may fall on another day.
        dayAndTimeFormatter = Self.formatter(locale: locale, timeZone: timeZone)
        dayAndTimeFormatter.dateStyle = .medium
        dayAndTimeFormatter.timeStyle = .short

        isoFallbackFormatter = Self.formatter(locale: Locale(identifier: "en_US_POSIX"), timeZone: timeZone)
        isoFallbackFormatter.calendar = Calendar(identifier: .gregorian)
        isoFallbackFormatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssXXXXX"

        let pattern = timestampFormatter.dateFormat ?? ""
        if Self.showsOnlyTimeOfDay(pattern) {
            // The texts depend on the locale and the format only, not on the zone: the cache is
            // indexed by the local second, and none of the time-of-day fields shows the zone.
            timeOfDayTexts = TimeOfDayTexts.shared(
                key: "\(options.locale)\u{1}\(options.timestampFormat)\u{1}\(pattern)")
        } else {
            timeOfDayTexts = nil
        }
    }

    /// Whether message times come from the time-of-day cache (for tests).
    var cachesTimeOfDay: Bool { timeOfDayTexts != nil }

    private static func formatter(locale: Locale, timeZone: TimeZone) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = timeZone
        return formatter
    }

    /// Whether a Unicode date pattern shows nothing but fields of the time of day
    /// (quoted literals skipped), so its text can be cached per second of the day.
    static func showsOnlyTimeOfDay(_ pattern: String) -> Bool {
        var inQuote = false
        var sawField = false
        for character in pattern {
            if character == "'" {
                inQuote.toggle()
            } else if !inQuote, character.isASCII, character.isLetter {
                guard timeOfDayFields.contains(character) else { return false }
                sawField = true
            }
        }
        return sawField
    }

    // MARK: Local time

    /// Seconds since 1970-01-01T00:00:00 on the wall clock of the zone.
    ///
    /// Whole seconds the way ICU counts them, so hand-made and `DateFormatter` texts agree:
    /// rounded to the millisecond, then floored.
    func localSeconds(_ date: Date) -> Int64 {
        let utcSeconds = Self.utcSeconds(date)
        return utcSeconds + Int64(offset(atUTCSeconds: utcSeconds))
    }

    /// The zone's UTC offset at an instant. Asking ICU costs a lock and a calendar computation, so
    /// the offset is kept until the zone's next transition (any offset change, not only DST;
    /// ICU's `getNextTransition`); dates arrive sorted, so this asks ICU about twice a year.
    private func offset(atUTCSeconds seconds: Int64) -> Int {
        if seconds >= offsetValidFrom, seconds < offsetValidUntil { return cachedOffset }
        let instant = Date(timeIntervalSince1970: Double(seconds))
        cachedOffset = timeZone.secondsFromGMT(for: instant)
        offsetValidFrom = seconds
        if let transition = timeZone.nextDaylightSavingTimeTransition(after: instant) {
            offsetValidUntil = Int64(transition.timeIntervalSince1970.rounded(.down))
        } else {
            offsetValidUntil = .max
        }
        return cachedOffset
    }

    /// Whole seconds since 1970 in UTC, counted like `localSeconds`.
    static func utcSeconds(_ date: Date) -> Int64 {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        return Int64((milliseconds / 1000).rounded(.down))
    }

    /// The local calendar day (days since 1970-01-01 in the zone) of `date`.
    func localDay(_ date: Date) -> Int64 {
        Self.floorDivide(localSeconds(date), Self.secondsPerDay)
    }

    // MARK: Texts

    /// The message time with the configured timestamp format, and as ISO 8601.
    func messageTime(_ date: Date) -> FormattedDate {
        let local = localSeconds(date)
        return FormattedDate(text: timestampText(date, localSeconds: local), iso: formatISO(date, localSeconds: local))
    }

    /// The text of `date` in the configured timestamp format; `localSeconds` is `localSeconds(date)`.
    func timestampText(_ date: Date, localSeconds: Int64) -> String {
        guard let timeOfDayTexts else { return timestampFormatter.string(from: date) }
        let second = Int(localSeconds - Self.floorDivide(localSeconds, Self.secondsPerDay) * Self.secondsPerDay)
        if let cached = timeOfDayTexts.text(atSecond: second) { return cached }
        let text = timestampFormatter.string(from: date)
        timeOfDayTexts.store(text, atSecond: second)
        return text
    }

    /// A date with its day and time ("May 3, 2024 at 9:41 AM"), for edits and the summary.
    func dayAndTime(_ date: Date) -> FormattedDate {
        FormattedDate(text: dayAndTimeFormatter.string(from: date), iso: formatISO(date, localSeconds: localSeconds(date)))
    }

    /// The day separator of the local day that contains `date` ("Friday, May 3, 2024", "2024-05-03").
    func day(_ date: Date) -> FormattedDate {
        let (year, month, day) = Self.civilDate(daysSince1970: localDay(date))
        var iso = [UInt8]()
        iso.reserveCapacity(10)
        Self.appendDigits(year, count: 4, to: &iso)
        iso.append(UInt8(ascii: "-"))
        Self.appendDigits(month, count: 2, to: &iso)
        iso.append(UInt8(ascii: "-"))
        Self.appendDigits(day, count: 2, to: &iso)
        return FormattedDate(text: dayFormatter.string(from: date), iso: String(decoding: iso, as: UTF8.self))
    }

    /// `yyyy-MM-dd'T'HH:mm:ssXXXXX` in the zone, e.g. `2024-05-03T09:41:00+02:00` or `…Z`.
    func formatISO(_ date: Date, localSeconds: Int64) -> String {
        Self.formatISO(date, localSeconds: localSeconds) ?? isoFallbackFormatter.string(from: date)
    }

    /// `formatISO` by hand, without any formatter; `nil` for years before 1 or after 9999.
    /// `localSeconds` must be `localSeconds(date)` of the zone the text is for.
    static func formatISO(_ date: Date, localSeconds: Int64) -> String? {
        let days = floorDivide(localSeconds, secondsPerDay)
        let secondOfDay = Int(localSeconds - days * secondsPerDay)
        let (year, month, day) = civilDate(daysSince1970: days)
        guard (1...9999).contains(year) else { return nil }

        var bytes = [UInt8]()
        bytes.reserveCapacity(25)
        Self.appendDigits(year, count: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        Self.appendDigits(month, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        Self.appendDigits(day, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        Self.appendDigits(secondOfDay / 3600, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        Self.appendDigits(secondOfDay / 60 % 60, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        Self.appendDigits(secondOfDay % 60, count: 2, to: &bytes)

        let offset = Int(localSeconds - utcSeconds(date))
        if offset == 0 {
            bytes.append(UInt8(ascii: "Z"))
        } else {
            let magnitude = abs(offset)
            bytes.append(UInt8(ascii: offset < 0 ? "-" : "+"))
            Self.appendDigits(magnitude / 3600, count: 2, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            Self.appendDigits(magnitude / 60 % 60, count: 2, to: &bytes)
            if magnitude % 60 != 0 {  // historical local mean times, e.g. Berlin's +00:53:28
                bytes.append(UInt8(ascii: ":"))
                Self.appendDigits(magnitude % 60, count: 2, to: &bytes)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Arithmetic

    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor < 0) ? quotient - 1 : quotient
    }

    /// Proleptic Gregorian year, month and day of a day count since 1970-01-01
    /// (Howard Hinnant's `civil_from_days`).
    static func civilDate(daysSince1970: Int64) -> (year: Int, month: Int, day: Int) {
        let shifted = daysSince1970 + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    private static func appendDigits(_ value: Int, count: Int, to bytes: inout [UInt8]) {
        if count == 2 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10 % 10))
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
            return
        }
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / divisor % 10))
            divisor /= 10
        }
    }
}

/// Message time texts by local second of the day, for one locale and one time-of-day format,
/// shared by every conversation (and thread) of the process: a large site then asks ICU at most
/// once per second of the day instead of about once per message.
final class TimeOfDayTexts: @unchecked Sendable {
    /// Guards `registry`.
    private static let registryLock = NSLock()
    /// One cache per locale and format.
    nonisolated(unsafe) private static var registry: [String: TimeOfDayTexts] = [:]

    /// Guards `texts`.
    private let lock = NSLock()
    /// By second of the day; empty: not formatted yet (no format prints nothing).
    private var texts = [String](repeating: "", count: Int(ConversationDateFormats.secondsPerDay))

    private init() {}

    /// The cache for `key` (locale, format and resolved pattern), made on first use.
    static func shared(key: String) -> TimeOfDayTexts {
        registryLock.lock()
        defer { registryLock.unlock() }
        if let existing = registry[key] { return existing }
        let made = TimeOfDayTexts()
        registry[key] = made
        return made
    }

    /// The text of `second` (0..<86,400), if it was formatted already.
    func text(atSecond second: Int) -> String? {
        lock.lock()
        let text = texts[second]
        lock.unlock()
        return text.isEmpty ? nil : text
    }

    /// Keeps the text of `second`.
    func store(_ text: String, atSecond second: Int) {
        lock.lock()
        texts[second] = text
        lock.unlock()
    }
}
