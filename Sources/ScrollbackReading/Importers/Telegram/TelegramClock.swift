import Foundation
import ScrollbackModel

/// Telegram Desktop's two clocks: `date` is the wall-clock time of the machine that exported
/// (Qt's local time of the instant), `date_unixtime` the instant itself. Their difference is the
/// exporter's UTC offset, so a chat is shown in the zone it was exported in, and every message
/// keeps its true instant.
///
/// Choices where the export leaves room:
/// - An instant is "sane" when it is not zero (some tools write a fake `"0000000000"`), is a date
///   the model accepts, and lies within 14 hours of `date` (no UTC offset is larger). Otherwise
///   `date` is read in the derived zone (or the site's zone when no message gives one).
/// - Offsets that change within a chat (daylight saving time at the exporter) cannot be one fixed
///   zone: the most frequent offset is the conversation's zone (ties: the latest); the instants
///   stay exact either way.
struct TelegramClock {
    /// The exporter's UTC offset in seconds, when at least one message has a sane `date` and
    /// `date_unixtime` pair.
    let offset: Int?
    /// Reads wall-clock `date` values when no offset is derived: the site's zone.
    let calendar: Calendar
    /// Messages whose `date_unixtime` (non-zero) disagrees with their `date` by more than any
    /// UTC offset, and where the first is: `date` is used for them.
    private(set) var disagreements: (count: Int, first: SourceLocation)?

    /// The largest UTC offset in use (UTC+14, Line Islands).
    static let maximumOffset = 14 * 3600

    /// Derives the offset from every message of `messages` that has both clocks; `siteZone`
    /// reads `date` when none does.
    init(messages: [JSONNode], siteZone: TimeZone) {
        var survey = Survey()
        for (index, node) in messages.enumerated() { survey.add(node, at: index) }
        self.init(survey, siteZone: siteZone)
    }

    /// The offsets a chat's messages give, counted one message at a time (a chat streamed from
    /// a large export is surveyed before its messages are converted).
    struct Survey {
        /// Per offset: how many messages give it, and the position of the last one.
        var counts: [Int: (count: Int, last: Int)] = [:]

        /// Counts the offset of the message at `index` of `messages`, when it has both clocks.
        mutating func add(_ node: JSONNode, at index: Int) {
            guard let text = node["date"]?.string, let wall = TelegramClock.wallSeconds(text),
                let instant = TelegramClock.instant(node["date_unixtime"]),
                let offset = TelegramClock.plausibleOffset(wall: wall, instant: instant)
            else { return }
            counts[offset] = ((counts[offset]?.count ?? 0) + 1, index)
        }
    }

    /// The clock of a chat whose messages `survey` counted; `siteZone` reads `date` when none
    /// gave an offset.
    init(_ survey: Survey, siteZone: TimeZone) {
        // Most frequent; ties go to the offset seen last (the zone the exporter was in most recently).
        let chosen = survey.counts.max { left, right in
            left.value.count != right.value.count
                ? left.value.count < right.value.count : left.value.last < right.value.last
        }?.key
        offset = chosen
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = siteZone
        self.calendar = calendar
    }

    /// The conversation's `timezone`: a fixed-offset zone the model accepts (`GMT+0100`,
    /// `GMT-0330`, `GMT` for zero), or `nil` when no offset could be derived.
    var zoneIdentifier: String? {
        guard let offset else { return nil }
        let identifier = Self.identifier(forOffset: offset)
        return TimeZone(identifier: identifier) != nil ? identifier : nil
    }

    /// `GMT+hhmm` for `offset` seconds east of UTC: the form Foundation's `TimeZone(identifier:)`
    /// reads back as that fixed offset.
    static func identifier(forOffset offset: Int) -> String {
        if offset == 0 { return "GMT" }
        let minutes = abs(offset) / 60
        let digits = String(minutes / 60 * 100 + minutes % 60)
        return "GMT" + (offset < 0 ? "-" : "+") + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// `field` (`date`, `edited`) of `node`: its sane `<field>_unixtime` instant, else the
    /// wall-clock `field` at the derived offset (or in the site's zone when there is none), else `nil`.
    mutating func date(_ node: JSONNode, field: String, at location: SourceLocation) -> Date? {
        let wallText = node[field]?.string
        let wall = wallText.flatMap(Self.wallSeconds)
        if let instant = Self.instant(node[field + "_unixtime"]) {
            guard let wall else { return instant }
            if Self.plausibleOffset(wall: wall, instant: instant) != nil { return instant }
            disagreements = ((disagreements?.count ?? 0) + 1, disagreements?.first ?? location)
        }
        guard let wall else { return nil }
        if let offset { return Date(timeIntervalSince1970: Double(wall - offset)) }
        return wallText.flatMap { Self.wallClock($0, calendar: calendar) }
    }

    /// `<field>_unixtime` as an instant, when it is a non-zero number of seconds within the years
    /// the model accepts.
    static func instant(_ node: JSONNode?) -> Date? {
        guard let node else { return nil }
        let text: String
        switch node.value {
        case .string(let string): text = string
        case .number(let number): text = number
        default: return nil
        }
        guard let seconds = Double(text), seconds.isFinite, seconds != 0 else { return nil }
        let date = Date(timeIntervalSince1970: seconds)
        return ConversationAssembler.validDates.contains(date) ? date : nil
    }

    /// The offset `wall − instant` in seconds when it could be a UTC offset (at most 14 hours,
    /// whole minutes); `wall` is the wall-clock time counted as if it were UTC.
    static func plausibleOffset(wall: Int, instant: Date) -> Int? {
        let difference = Double(wall) - instant.timeIntervalSince1970
        guard abs(difference) <= Double(maximumOffset), difference.rounded() == difference else { return nil }
        let seconds = Int(difference)
        return seconds % 60 == 0 ? seconds : nil
    }

    /// `2022-03-21T11:11:11` (Qt's ISO date; a space for `T` too) as seconds since 1970 counted
    /// as if it were UTC: plain arithmetic (`CivilCalendar`), no `Calendar`, as every message
    /// has one or two. `nil` when it is not a date and time of the years 1 to 9999.
    static func wallSeconds(_ text: String) -> Int? {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == "T" || $0 == ":" || $0 == " " })
        guard parts.count == 6, text.first?.isNumber == true else { return nil }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == 6, (1...9999).contains(numbers[0]), (1...12).contains(numbers[1]),
            (1...CivilCalendar.daysInMonth(numbers[1], year: numbers[0])).contains(numbers[2]),
            (0...23).contains(numbers[3]), (0...59).contains(numbers[4]), (0...59).contains(numbers[5])
        else { return nil }
        let days = CivilCalendar.daysSince1970(year: numbers[0], month: numbers[1], day: numbers[2])
        return days * 86_400 + numbers[3] * 3600 + numbers[4] * 60 + numbers[5]
    }

    /// `2022-03-21T11:11:11` (Qt's ISO date; a space for `T` too) in `calendar`'s zone.
    static func wallClock(_ text: String, calendar: Calendar) -> Date? {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == "T" || $0 == ":" || $0 == " " })
        guard parts.count == 6, text.first?.isNumber == true else { return nil }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == 6 else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (numbers[0], numbers[1], numbers[2])
        (components.hour, components.minute, components.second) = (numbers[3], numbers[4], numbers[5])
        guard components.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: components)
    }
}
