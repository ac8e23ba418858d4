import Foundation

/// What WhatsApp's timestamps take from the phone's locale, read from CLDR through Foundation
/// at run time (never typed in here): every locale's day-period symbols (`AM`, `a. m.`, `م`,
/// `오후`, `下午`, `ap.`) and the Japanese calendar's era letters (`R`, `H`, `S`).
enum WhatsAppLocaleData {
    /// AM or PM for a marker as written, compared without case, dots and spaces (`p. m.` =
    /// `pm`); `nil` when no locale writes it, or when locales disagree on what it means.
    static func meridiem(_ marker: String) -> WhatsAppChatText.Meridiem? {
        let key = normalized(marker)
        if key == "am" { return .am }  // the common case, without building the table
        if key == "pm" { return .pm }
        return meridiems[key]
    }

    /// The Japanese era (Foundation's era number) whose narrow symbol is `letter` (`R` = Reiwa).
    static func japaneseEra(_ letter: String) -> Int? { japaneseEras[letter.uppercased()] }

    /// A marker as compared: lowercased, without dots, spaces and direction marks.
    static func normalized(_ marker: String) -> String {
        let kept = marker.lowercased().unicodeScalars.filter {
            $0 != "." && !WhatsAppChatText.isSpace($0) && !WhatsAppChatText.isDirectionMark($0)
        }
        return String(String.UnicodeScalarView(kept))
    }

    /// Every available locale's AM and PM symbols (about 50 ms, once per process).
    static let meridiems: [String: WhatsAppChatText.Meridiem] = {
        var table: [String: WhatsAppChatText.Meridiem] = [:]
        var conflicting = Set<String>()
        let formatter = DateFormatter()
        for identifier in Locale.availableIdentifiers.sorted() {
            formatter.locale = Locale(identifier: identifier)
            for (symbol, value) in [(formatter.amSymbol, WhatsAppChatText.Meridiem.am), (formatter.pmSymbol, .pm)] {
                let key = normalized(symbol)
                guard !key.isEmpty, !conflicting.contains(key) else { continue }
                if let known = table[key], known != value {
                    table[key] = nil
                    conflicting.insert(key)
                } else {
                    table[key] = value
                }
            }
        }
        return table
    }()

    /// The Japanese calendar's narrow era symbols (`GGGGG` in `ja_JP@calendar=japanese`, the
    /// form short dates use: `R4/03/18`) for the eras since 1868, found by formatting a date of
    /// each year and asking the calendar its era.
    static let japaneseEras: [String: Int] = {
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = TimeZone(identifier: "UTC")!
        var japanese = Calendar(identifier: .japanese)
        japanese.timeZone = gregorian.timeZone
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "ja_JP@calendar=japanese")
        formatter.calendar = japanese
        formatter.timeZone = gregorian.timeZone
        formatter.dateFormat = "GGGGG"
        var table: [String: Int] = [:]
        // Each era's last day and the next one's first are both looked at through 31 December
        // and 1 January; no era of the modern calendar began and ended within one year.
        for year in 1868...2100 {
            for (month, day) in [(1, 1), (12, 31)] {
                guard let date = gregorian.date(from: DateComponents(year: year, month: month, day: day)) else {
                    continue
                }
                let symbol = formatter.string(from: date).uppercased()
                guard symbol.unicodeScalars.count == 1, symbol.unicodeScalars.first!.isASCII else { continue }
                table[symbol] = japanese.component(.era, from: date)
            }
        }
        return table
    }()
}
