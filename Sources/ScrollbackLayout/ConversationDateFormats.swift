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
    private let shortDayFormatter: DateFormatter
    private let dayAndTimeFormatter: DateFormatter
    /// Used only for years `formatISO` does not write by hand (before 1 or after 9999), so made
    /// only when one comes up: making a formatter costs more than laying out a small conversation.
    private lazy var isoFallbackFormatter: DateFormatter = {
        let formatter = Self.formatter(locale: Locale(identifier: "en_US_POSIX"), timeZone: timeZone)
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssXXXXX"
        return formatter
    }()
    /// Time-of-day texts by local second of the day, shared by the conversations formatted alike;
    /// `nil` when the pattern shows more than the time of day.
    private let timeOfDayTexts: TimeOfDayTexts?
    /// Time-of-day texts with seconds (the locale's medium time style), for timestamps' tooltips.
    private let tooltipTimeOfDayTexts: TimeOfDayTexts
    /// The offset `offset(atUTCSeconds:)` last asked ICU for, and the UTC seconds it holds for.
    private var cachedOffset = 0
    /// Texts already made, by date or local day: a conversation's threads ask again for the days
    /// and times their timeline's plan already formatted (the formatters are the slow part).
    private var dayAndTimeTexts: [Date: FormattedDate] = [:]
    private var shortDayTexts: [Int64: String] = [:]
    private var dayTexts: [Int64: FormattedDate] = [:]
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

        shortDayFormatter = Self.formatter(locale: locale, timeZone: timeZone)
        shortDayFormatter.setLocalizedDateFormatFromTemplate("yMMMd")

        // The date as well as the time: an edit or the end of a conversation may fall on another day.
        dayAndTimeFormatter = Self.formatter(locale: locale, timeZone: timeZone)
        dayAndTimeFormatter.dateStyle = .medium
        dayAndTimeFormatter.timeStyle = .short

        tooltipTimeOfDayTexts = TimeOfDayTexts.shared(key: "\(options.locale)\u{1}tooltip") {
            let utc = Self.formatter(locale: locale, timeZone: TimeZone(identifier: "UTC")!)
            utc.dateStyle = .none
            utc.timeStyle = .medium
            return utc
        }

        let pattern = timestampFormatter.dateFormat ?? ""
        if Self.showsOnlyTimeOfDay(pattern) {
            // The texts depend on the locale and the format only, not on the zone: the cache is
            // indexed by the local second, and none of the time-of-day fields shows the zone.
            timeOfDayTexts = TimeOfDayTexts.shared(
                key: "\(options.locale)\u{1}\(options.timestampFormat)\u{1}\(pattern)"
            ) {
                let utc = Self.formatter(locale: locale, timeZone: TimeZone(identifier: "UTC")!)
                switch options.timestampFormat {
                case .style(let style):
                    utc.dateStyle = .none
                    utc.timeStyle = style
                case .pattern(let pattern):
                    utc.dateFormat = pattern
                }
                return utc
            }
        } else {
            timeOfDayTexts = nil
        }
    }

    /// Whether message times come from the time-of-day cache (for tests).
    var cachesTimeOfDay: Bool { timeOfDayTexts != nil }
    /// Whether those times are put together from minute and seconds parts (for tests).
    var splitsSeconds: Bool { timeOfDayTexts?.splitsSeconds ?? false }
    /// Whether those times are made once per minute (for tests).
    var timesPerMinute: Bool { timeOfDayTexts?.perMinute ?? false }

    private static func formatter(locale: Locale, timeZone: TimeZone) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = timeZone
        return formatter
    }

    /// Whether a Unicode date pattern shows nothing but fields of the time of day
    /// (quoted literals skipped), so its text can be cached per second of the day.
    static func showsOnlyTimeOfDay(_ pattern: String) -> Bool {
        let fields = fields(of: pattern)
        return !fields.isEmpty && fields.allSatisfy { timeOfDayFields.contains($0.letter) }
    }

    /// The fields of a Unicode date pattern in order: each run of one ASCII letter outside quoted
    /// literals (`HH`, `mm`, `a`), with its length.
    static func fields(of pattern: String) -> [(letter: Character, length: Int)] {
        var fields: [(letter: Character, length: Int)] = []
        var inQuote = false
        var previous: Character?
        for character in pattern {
            if character == "'" {
                inQuote.toggle()
                previous = nil
            } else if !inQuote, character.isASCII, character.isLetter {
                if character == previous { fields[fields.count - 1].length += 1 } else { fields.append((character, 1)) }
                previous = character
            } else {
                previous = nil
            }
        }
        return fields
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
        return timeOfDayTexts.text(atSecond: second)
    }

    /// The timestamp texts of many dates at once (`timestampText` of each, in order):
    /// `localSeconds[i]` is `localSeconds(dates[i])`. Takes the shared time-of-day cache's lock
    /// once for all of them instead of once per message.
    func timestampTexts(_ dates: [Date], localSeconds: [Int64]) -> [String] {
        guard let timeOfDayTexts else {
            return zip(dates, localSeconds).map { timestampText($0, localSeconds: $1) }
        }
        return timeOfDayTexts.texts(
            atSeconds: localSeconds.map { local in
                Int(local - Self.floorDivide(local, Self.secondsPerDay) * Self.secondsPerDay)
            })
    }

    /// The tooltip texts of many times at once: the time of day with seconds in the locale's
    /// medium style ("9:41:07 AM"); `localSeconds[i]` is `localSeconds(dates[i])`.
    func tooltipTexts(localSeconds: [Int64]) -> [String] {
        tooltipTimeOfDayTexts.texts(
            atSeconds: localSeconds.map { local in
                Int(local - Self.floorDivide(local, Self.secondsPerDay) * Self.secondsPerDay)
            })
    }

    /// A date with its day and time ("May 3, 2024 at 9:41 AM"), for edits and the summary.
    func dayAndTime(_ date: Date) -> FormattedDate {
        Self.cached(date, in: &dayAndTimeTexts) {
            FormattedDate(
                text: dayAndTimeFormatter.string(from: date), iso: formatISO(date, localSeconds: localSeconds(date)))
        }
    }

    /// The local day of `date` in short ("Mar 3, 2024"), for the links to a page.
    func shortDay(_ date: Date) -> String {
        Self.cached(localDay(date), in: &shortDayTexts) { shortDayFormatter.string(from: date) }
    }

    /// The day separator of the local day that contains `date` ("Friday, May 3, 2024", "2024-05-03").
    func day(_ date: Date) -> FormattedDate {
        let localDay = localDay(date)
        return Self.cached(localDay, in: &dayTexts) { makeDay(date, localDay: localDay) }
    }

    /// `cache[key]`, made by `make` and kept the first time.
    private static func cached<Key: Hashable, Value>(
        _ key: Key, in cache: inout [Key: Value], _ make: () -> Value
    ) -> Value {
        if let known = cache[key] { return known }
        let made = make()
        cache[key] = made
        return made
    }

    private func makeDay(_ date: Date, localDay: Int64) -> FormattedDate {
        let (year, month, day) = CivilCalendar.civilDate(daysSince1970: localDay)
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
        let (year, month, day) = CivilCalendar.civilDate(daysSince1970: days)
        guard (1...9999).contains(year) else { return nil }

        // Written straight into the string's storage: no byte array to allocate and copy.
        return String(unsafeUninitializedCapacity: 28) { buffer in
            writeISO(
                date, localSeconds: localSeconds, secondOfDay: secondOfDay, year: year,
                month: month, day: day, into: buffer)
        }
    }

    /// `formatISO` written into `buffer` (at least 28 bytes); the number of bytes written, or
    /// `nil` (nothing written) for years before 1 or after 9999.
    static func writeISO(_ date: Date, localSeconds: Int64, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        let days = floorDivide(localSeconds, secondsPerDay)
        let secondOfDay = Int(localSeconds - days * secondsPerDay)
        let (year, month, day) = CivilCalendar.civilDate(daysSince1970: days)
        guard (1...9999).contains(year) else { return nil }
        return writeISO(
            date, localSeconds: localSeconds, secondOfDay: secondOfDay, year: year,
            month: month, day: day, into: buffer)
    }

    /// The bytes of `formatISO` for a date whose local fields are already worked out.
    private static func writeISO(
        _ date: Date, localSeconds: Int64, secondOfDay: Int, year: Int, month: Int, day: Int,
        into buffer: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        var bytes = ByteWriter(buffer: buffer)
        bytes.appendDigits(year, count: 4)
        bytes.append(UInt8(ascii: "-"))
        bytes.appendDigits(month, count: 2)
        bytes.append(UInt8(ascii: "-"))
        bytes.appendDigits(day, count: 2)
        bytes.append(UInt8(ascii: "T"))
        bytes.appendDigits(secondOfDay / 3600, count: 2)
        bytes.append(UInt8(ascii: ":"))
        bytes.appendDigits(secondOfDay / 60 % 60, count: 2)
        bytes.append(UInt8(ascii: ":"))
        bytes.appendDigits(secondOfDay % 60, count: 2)

        let offset = Int(localSeconds - utcSeconds(date))
        if offset == 0 {
            bytes.append(UInt8(ascii: "Z"))
        } else {
            let magnitude = abs(offset)
            bytes.append(UInt8(ascii: offset < 0 ? "-" : "+"))
            bytes.appendDigits(magnitude / 3600, count: 2)
            bytes.append(UInt8(ascii: ":"))
            bytes.appendDigits(magnitude / 60 % 60, count: 2)
            if magnitude % 60 != 0 {  // historical local mean times, e.g. Berlin's +00:53:28
                bytes.append(UInt8(ascii: ":"))
                bytes.appendDigits(magnitude % 60, count: 2)
            }
        }
        return bytes.count
    }

    /// Writes ASCII into a buffer known to be large enough (`formatISO`: at most 28 bytes).
    private struct ByteWriter {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var count = 0

        mutating func append(_ byte: UInt8) {
            buffer[count] = byte
            count += 1
        }

        /// `value` (non-negative) in `count` decimal digits, zero-padded.
        mutating func appendDigits(_ value: Int, count digits: Int) {
            var divisor = 1
            for _ in 1..<digits { divisor *= 10 }
            while divisor > 0 {
                append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / divisor % 10))
                divisor /= 10
            }
        }
    }

    // MARK: Arithmetic

    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor < 0) ? quotient - 1 : quotient
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
/// shared by every conversation (and thread) of the process.
///
/// The texts come from a formatter of the same locale and format in UTC, given the local second
/// as a UTC instant: the time-of-day fields print the wall-clock time and never the zone.
///
/// ICU is asked at most twice per minute of the day, not once per second: when the pattern has
/// one seconds field and no field that depends on the seconds otherwise (`b`/`B`, noon and
/// midnight), a minute's text is the same around that field, so the text at seconds 0 and 37
/// (which differ in every digit) shows where the field sits; the field's 60 texts come from one
/// reference minute. The split is checked against ICU on whole minutes first; if any text
/// differs, every second is asked of ICU instead.
final class TimeOfDayTexts: @unchecked Sendable {
    /// Guards `registry`.
    private static let registryLock = NSLock()
    /// One cache per locale and format.
    nonisolated(unsafe) private static var registry: [String: TimeOfDayTexts] = [:]

    /// Guards everything below.
    private let lock = NSLock()
    private let formatter: DateFormatter
    /// By second of the day; empty: not made yet (no format prints nothing).
    private var texts = [String](repeating: "", count: Int(ConversationDateFormats.secondsPerDay))
    /// The seconds field's UTF-8 text for 0...59; `nil` when texts are not split.
    private var secondsTexts: [[UInt8]]?
    /// By minute of the day: the UTF-8 text before and after the seconds field, once asked.
    private var minuteParts: [(before: [UInt8], after: [UInt8])?]
    /// Whether the format shows nothing finer than minutes: a second's text is its minute's.
    let perMinute: Bool

    private init(formatter: DateFormatter) {
        self.formatter = formatter
        minuteParts = Array(repeating: nil, count: 1440)
        secondsTexts = nil
        perMinute = Self.showsNothingFinerThanMinutes(formatter.dateFormat ?? "")
        if Self.hasOneSplittableSecondsField(formatter.dateFormat ?? "") {
            secondsTexts = splitSecondsField()
        }
    }

    /// The cache for `key` (locale, format and resolved pattern), made on first use with a UTC
    /// formatter from `makeFormatter`.
    static func shared(key: String, makeFormatter: () -> DateFormatter) -> TimeOfDayTexts {
        registryLock.lock()
        defer { registryLock.unlock() }
        if let existing = registry[key] { return existing }
        let made = TimeOfDayTexts(formatter: makeFormatter())
        registry[key] = made
        return made
    }

    /// Whether texts are put together from minute and seconds parts (for tests).
    var splitsSeconds: Bool {
        lock.lock()
        defer { lock.unlock() }
        return secondsTexts != nil
    }

    /// The text of `second` (0..<86,400).
    func text(atSecond second: Int) -> String {
        lock.lock()
        defer { lock.unlock() }
        return unlockedText(atSecond: second)
    }

    /// The texts of `seconds` (each 0..<86,400), in order, under one lock.
    func texts(atSeconds seconds: [Int]) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        var result = [String]()
        result.reserveCapacity(seconds.count)
        for second in seconds { result.append(unlockedText(atSecond: second)) }
        return result
    }

    /// `text(atSecond:)` for a caller that holds `lock`.
    private func unlockedText(atSecond second: Int) -> String {
        let cached = texts[second]
        if !cached.isEmpty { return cached }
        let made: String
        if perMinute, second % 60 != 0 {
            // One formatting per minute instead of per second: a day has 1,440, not 86,400.
            made = unlockedText(atSecond: second - second % 60)
        } else if let secondsTexts, let parts = parts(ofMinute: second / 60) {
            var bytes = parts.before
            bytes.append(contentsOf: secondsTexts[second % 60])
            bytes.append(contentsOf: parts.after)
            made = String(decoding: bytes, as: UTF8.self)
        } else {
            made = format(second)
        }
        texts[second] = made
        return made
    }

    private func format(_ second: Int) -> String {
        formatter.string(from: Date(timeIntervalSince1970: Double(second)))
    }

    /// The text around the seconds field in `minute`: what seconds 0 and 37 have in common at
    /// either end. `nil` if they have not (the split is then not used for that minute).
    private func parts(ofMinute minute: Int) -> (before: [UInt8], after: [UInt8])? {
        if let known = minuteParts[minute] { return known }
        guard
            let found = Self.around(
                Array(format(minute * 60).unicodeScalars), Array(format(minute * 60 + 37).unicodeScalars))
        else { return nil }
        minuteParts[minute] = found.parts
        return found.parts
    }

    /// Where two texts differ: the scalars both start and end with (as UTF-8), and how many that is.
    private static func around(
        _ first: [Unicode.Scalar], _ second: [Unicode.Scalar]
    )
        -> (parts: (before: [UInt8], after: [UInt8]), prefix: Int, suffix: Int)?
    {
        var prefix = 0
        while prefix < first.count, prefix < second.count, first[prefix] == second[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < first.count - prefix, suffix < second.count - prefix,
            first[first.count - 1 - suffix] == second[second.count - 1 - suffix]
        {
            suffix += 1
        }
        guard prefix < first.count - suffix, prefix < second.count - suffix else { return nil }
        return ((utf8(first[..<prefix]), utf8(first[(first.count - suffix)...])), prefix, suffix)
    }

    private static func utf8(_ scalars: ArraySlice<Unicode.Scalar>) -> [UInt8] {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        return Array(String(text).utf8)
    }

    /// The seconds field's texts, read off a reference minute and checked on whole minutes against
    /// ICU; `nil` when any put-together text differs.
    private func splitSecondsField() -> [[UInt8]]? {
        let reference = 10 * 60 + 10  // 10:10
        let texts = (0..<60).map { Array(format(reference * 60 + $0).unicodeScalars) }
        guard let split = Self.around(texts[0], texts[37]) else { return nil }
        var secondsTexts: [[UInt8]] = []
        for text in texts {
            guard text.count > split.prefix + split.suffix else { return nil }
            secondsTexts.append(Self.utf8(text[split.prefix..<(text.count - split.suffix)]))
        }
        // Midnight, noon, the reference, single-digit and late hours: every second put together.
        for minute in [0, 59, 9 * 60 + 5, reference, 12 * 60, 13 * 60 + 1, 23 * 60 + 59] {
            guard let parts = parts(ofMinute: minute) else { return nil }
            for second in 0..<60 {
                let expected = Array(format(minute * 60 + second).utf8)
                guard parts.before + secondsTexts[second] + parts.after == expected else { return nil }
            }
        }
        return secondsTexts
    }

    /// Whether `pattern` has no field finer than minutes: no seconds (`s`), fractions (`S`),
    /// milliseconds in the day (`A`) or day periods (`b`/`B`, whose noon and midnight are
    /// instants); quoted literals skipped.
    static func showsNothingFinerThanMinutes(_ pattern: String) -> Bool {
        !ConversationDateFormats.fields(of: pattern).contains { "sSAbB".contains($0.letter) }
    }

    /// Whether `pattern` has exactly one run of `s` and no `b`/`B` (quoted literals skipped).
    static func hasOneSplittableSecondsField(_ pattern: String) -> Bool {
        let fields = ConversationDateFormats.fields(of: pattern)
        return !fields.contains { $0.letter == "b" || $0.letter == "B" } && fields.count { $0.letter == "s" } == 1
    }
}
