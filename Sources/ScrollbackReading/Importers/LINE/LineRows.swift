import Foundation

/// The two line shapes a LINE export is made of, told apart by structure alone: day lines
/// (`2024/01/15(Mon)`, `2024.01.15 Monday`, `Sun, 26/04/2026`) and rows (`TIME<TAB>Name<TAB>text`,
/// or `TIME<TAB>text` for a notice with no sender, such as an unsent message).
enum LineRows {
    /// A calendar day.
    struct Day: Equatable {
        var year: Int
        var month: Int
        var day: Int
    }

    /// One row's columns.
    struct Row {
        var hour: Int
        var minute: Int
        /// The sender column; `nil` for a two-column notice.
        var sender: String?
        var text: String
    }

    /// Year first: `2024/01/15(Mon)`, `2024/1/5（水）`, `2024.02.01 Thursday`, `2015/12/25 Fri`,
    /// `2026/1/30周五`.
    nonisolated(unsafe) static let yearFirst =
        #/(\d{4})[/.\-](\d{1,2})[/.\-](\d{1,2})\.?\s*(?:[(（]\s*([^)）]{1,24})\s*[)）]|([^\d\s(（]\S{0,23}))?\s*/#
    /// Year last, the weekday first: `Sun, 26/04/2026`, `Mon, 11/03/2025`, `26/04/2026`.
    nonisolated(unsafe) static let yearLast =
        #/(?:([^\d\s,]{1,24}),?\s+)?(\d{1,2})[/.\-](\d{1,2})[/.\-](\d{4})\s*(?:[(（]\s*([^)）]{1,24})\s*[)）])?\s*/#

    /// The day a day line names, or `nil` when `line` is no day line. `dayFirst`: whether a
    /// year-last date is day first (`26/04/2026`), as the file's earlier day lines showed; it is
    /// updated when this line settles it (a number over 12, or the weekday beside it). A Thai
    /// phone's Buddhist-era year (2567) is read as the Gregorian year its weekday fits.
    static func day(_ line: Substring, dayFirst: inout Bool?) -> Day? {
        guard line.utf8.count <= 64, let first = line.utf8.first else { return nil }
        if first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9"), let match = line.wholeMatch(of: yearFirst) {
            guard let year = Int(match.1), let month = Int(match.2), let day = Int(match.3) else { return nil }
            let weekday = match.4 ?? match.5
            return pick([Day(year: year, month: month, day: day)], weekday: weekday)
        }
        guard let match = line.wholeMatch(of: yearLast), let a = Int(match.2), let b = Int(match.3),
            let year = Int(match.4)
        else { return nil }
        let weekday = match.1 ?? match.5
        let dayMonth = Day(year: year, month: b, day: a)
        let monthDay = Day(year: year, month: a, day: b)
        let candidates = dayFirst == false ? [monthDay, dayMonth] : [dayMonth, monthDay]
        guard let chosen = pick(candidates, weekday: weekday) else { return nil }
        if a != b { dayFirst = chosen == dayMonth }
        return chosen
    }

    /// The first valid candidate whose weekday is `weekday` (also read with the year 543 lower:
    /// the Buddhist era), else the first valid one.
    private static func pick(_ candidates: [Day], weekday: Substring?) -> Day? {
        let valid = candidates.filter { (1...12).contains($0.month) && (1...31).contains($0.day) && $0.year > 0 }
        if let weekday {
            let named = LineCalendarWords.weekdays(named: weekday)
            if !named.isEmpty {
                let eras =
                    valid
                    + valid.filter { $0.year > 2400 }.map { Day(year: $0.year - 543, month: $0.month, day: $0.day) }
                if let fits = eras.first(where: { Self.weekday(of: $0).map(named.contains) == true }) { return fits }
            }
        }
        return valid.first
    }

    /// The weekday (1 = Sunday) of `day`, or `nil` for a date that does not exist (February 30).
    static func weekday(of day: Day) -> Int? {
        let calendar = gregorian
        let components = DateComponents(year: day.year, month: day.month, day: day.day)
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return nil }
        return calendar.component(.weekday, from: date)
    }

    private static let gregorian: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// The row `line` is, or `nil`: a time column (`10:30`, `8:15AM`, `10:00 PM`, `午後05:38`),
    /// a tab, then the sender and a tab and the text, or the text of a notice alone.
    static func row(_ line: Substring) -> Row? {
        guard let tab = line.firstIndex(of: "\t"), line.distance(from: line.startIndex, to: tab) <= 24,
            let (hour, minute) = time(line[..<tab])
        else { return nil }
        let rest = line[line.index(after: tab)...]
        guard let second = rest.firstIndex(of: "\t") else { return Row(hour: hour, minute: minute, text: String(rest)) }
        let sender = rest[..<second].trimmingCharacters(in: .whitespaces)
        return Row(
            hour: hour, minute: minute, sender: sender.isEmpty ? nil : sender,
            text: String(rest[rest.index(after: second)...]))
    }

    /// Hour (0–23) and minute of a time column, or `nil` when it is no time.
    static func time(_ column: Substring) -> (Int, Int)? {
        var clock = LineCalendarWords.normalised(String(column))
        var afternoon: Bool?
        for (mark, isAfternoon) in LineCalendarWords.meridiems {
            if clock.hasPrefix(mark) {
                clock.removeFirst(mark.count)
            } else if clock.hasSuffix(mark) {
                clock.removeLast(mark.count)
            } else {
                continue
            }
            afternoon = isAfternoon
            break
        }
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            var hour = Int(parts[0]), let minute = Int(parts[1]), minute < 60
        else { return nil }
        if let afternoon {
            guard (0...12).contains(hour) else { return nil }
            hour = hour % 12 + (afternoon ? 12 : 0)
        }
        return hour < 24 ? (hour, minute) : nil
    }

    /// Whether `text` is a bracketed token alone (`[Photo]`, `[スタンプ]`, `[Voice message]`):
    /// where LINE's text export names media it does not hold. Recognised by that shape, in any
    /// language, since LINE's own marker words are no maintained data Scrollback can read.
    static func isMediaMarker(_ text: String) -> Bool {
        guard text.count >= 3, text.count <= 40, text.first == "[", text.last == "]" else { return false }
        return !text.dropFirst().dropLast().contains { $0 == "[" || $0 == "]" || $0.isNewline }
    }
}
