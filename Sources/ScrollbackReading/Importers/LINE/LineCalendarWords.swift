import Foundation

/// The calendar words a LINE export writes in the exporting phone's language: weekday names
/// beside each day line (`2024/01/15(Mon)`, `2024/01/15(月)`, `Sun, 26/04/2026`) and the
/// 12-hour clock's marks (`8:15AM`, `午後05:38`). None is typed here: they come from CLDR through
/// Foundation's `DateFormatter` at run time, in the languages LINE is used in most.
enum LineCalendarWords {
    /// LINE's main languages (Japanese, Thai, Taiwanese and Hong Kong Chinese, Indonesian,
    /// English) and their neighbours: whose CLDR names are asked.
    static let locales = ["en", "ja", "zh-Hant", "zh-Hans", "th", "id", "ko", "vi", "ms", "es", "pt", "fr", "de"]

    /// Every weekday name (any width, format or stand-alone), lowercased and without a final
    /// dot, with the weekdays (1 = Sunday … 7 = Saturday) it names in some language.
    static let weekdays: [String: Set<Int>] = {
        var names: [String: Set<Int>] = [:]
        for identifier in locales {
            let formatter = formatter(identifier)
            let lists: [[String]?] = [
                formatter.weekdaySymbols, formatter.shortWeekdaySymbols, formatter.veryShortWeekdaySymbols,
                formatter.standaloneWeekdaySymbols, formatter.shortStandaloneWeekdaySymbols,
                formatter.veryShortStandaloneWeekdaySymbols,
            ]
            for list in lists.compactMap({ $0 }) where list.count == 7 {
                for (index, name) in list.enumerated() { names[normalised(name), default: []].insert(index + 1) }
            }
        }
        return names
    }()

    /// The ante- and post-meridiem marks (`AM`, `午前`, `오후`, `ก่อนเที่ยง`), lowercased, longest
    /// first so a mark that holds another is taken whole.
    static let meridiems: [(mark: String, afternoon: Bool)] = {
        var marks: [(String, Bool)] = []
        for identifier in locales {
            let formatter = formatter(identifier)
            for (symbol, afternoon) in [(formatter.amSymbol, false), (formatter.pmSymbol, true)] {
                let mark = normalised(symbol)
                if !mark.isEmpty, !marks.contains(where: { $0.0 == mark }) { marks.append((mark, afternoon)) }
            }
        }
        return marks.sorted { $0.0.count != $1.0.count ? $0.0.count > $1.0.count : $0.0 < $1.0 }
    }()

    /// The weekdays `name` may stand for (empty when it is no weekday name CLDR knows).
    static func weekdays(named name: Substring) -> Set<Int> { weekdays[normalised(String(name))] ?? [] }

    private static func formatter(_ identifier: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: identifier)
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter
    }

    /// Lowercased, without spaces and dots (`a. m.` and `a.m.` alike, `Mon.` as `mon`).
    static func normalised(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { $0 != "." && !$0.properties.isWhitespace })
    }
}
