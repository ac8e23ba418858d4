import Foundation
import ScrollbackModel

/// imessage-exporter's time stamps: chrono's `%b %d, %Y %l:%M:%S %p` (`May 17, 2022  5:29:42 PM`,
/// the hour padded with a blank), in the exporting Mac's local time with no zone. The day is
/// accepted with or without its leading zero and the blanks in any number, as people's edited
/// copies have them.
struct IMessageStamp: Equatable {
    var year: Int
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int

    /// The English month abbreviations and day-half marks chrono writes, from CLDR (`en_US_POSIX`)
    /// rather than typed out.
    private static let words: (months: [String], am: String, pm: String) = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        return (formatter.shortMonthSymbols, formatter.amSymbol, formatter.pmSymbol)
    }()

    /// The stamp at the start of `line` and what follows it (empty, or starting with a blank);
    /// `nil` when the line does not start with one.
    static func parsePrefix(_ line: Substring) -> (IMessageStamp, rest: Substring)? {
        var scanner = Scan(line)
        guard let monthWord = scanner.letters(), let month = words.months.firstIndex(of: String(monthWord)),
            scanner.blanks() >= 1, let day = scanner.number(digits: 1...2), scanner.take(","),
            scanner.blanks() >= 1, let year = scanner.number(digits: 4...4), scanner.blanks() >= 1,
            let hour = scanner.number(digits: 1...2), scanner.take(":"), let minute = scanner.number(digits: 2...2),
            scanner.take(":"), let second = scanner.number(digits: 2...2), scanner.blanks() >= 1,
            let half = scanner.letters(), half == words.am || half == words.pm,
            (1...12).contains(hour), (1...31).contains(day), minute < 60, second < 61
        else { return nil }
        let rest = scanner.rest
        guard rest.isEmpty || rest.first == " " else { return nil }
        let hour24 = hour % 12 + (half == words.pm ? 12 : 0)
        return (
            IMessageStamp(year: year, month: month + 1, day: day, hour: hour24, minute: minute, second: second), rest
        )
    }

    /// The stamp as the id hashes it: one spelling whatever the padding.
    var canonical: String {
        String(format: "%04d-%02d-%02d %02d:%02d:%02d", year, month, day, hour, minute, second)
    }

    /// The instant of the stamp read in `zone`; `nil` for a day that does not exist (Feb 30) or an
    /// instant outside the years a site shows (`ConversationAssembler.validDates`, which would
    /// otherwise make the whole conversation an error).
    func date(in zone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(
            year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59))
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components),
            ConversationAssembler.validDates.contains(date)
        else { return nil }
        return date
    }

    /// Seconds in imessage-exporter's `readable_diff` (`1 hour, 49 seconds`; empty for none);
    /// `nil` when the text is not one.
    static func seconds(in text: Substring) -> TimeInterval? {
        if text.isEmpty { return 0 }
        var total: TimeInterval = 0
        for piece in text.split(separator: ",") {
            let words = piece.split(separator: " ")
            guard words.count == 2, let count = Int(words[0]) else { return nil }
            let unit: TimeInterval
            switch words[1] {
            case "day", "days": unit = 86_400
            case "hour", "hours": unit = 3600
            case "minute", "minutes": unit = 60
            case "second", "seconds": unit = 1
            default: return nil
            }
            total += TimeInterval(count) * unit
        }
        return total
    }

    /// A cursor over a line's characters.
    private struct Scan {
        var rest: Substring
        init(_ text: Substring) { rest = text }

        mutating func letters() -> Substring? {
            let word = rest.prefix { $0.isASCII && $0.isLetter }
            guard !word.isEmpty else { return nil }
            rest = rest.dropFirst(word.count)
            return word
        }

        mutating func blanks() -> Int {
            let count = rest.prefix { $0 == " " }.count
            rest = rest.dropFirst(count)
            return count
        }

        mutating func number(digits: ClosedRange<Int>) -> Int? {
            let run = rest.prefix { $0.isASCII && $0.isNumber }
            guard digits.contains(run.count), let value = Int(run) else { return nil }
            rest = rest.dropFirst(run.count)
            return value
        }

        mutating func take(_ text: String) -> Bool {
            guard rest.hasPrefix(text) else { return false }
            rest = rest.dropFirst(text.count)
            return true
        }
    }
}
