import Foundation

/// Reads the lines of each IRC client's log layout (`IrcDialect`), as the clients write them
/// with their default settings: irssi's `log_timestamp` `%H:%M` and its `-!-` events, ZNC's
/// `[%H:%M:%S]` and `***` events, WeeChat's `%Y-%m-%d %H:%M:%S` and tab-separated prefix column,
/// HexChat's `%b %d %H:%M:%S` and tab after the prefix. Dates the clients write in words
/// (`Sun Jan 15 10:00:00 2023`) are in the C locale; they are read through Foundation's
/// `en_US_POSIX` formatter, not a typed table of names.
enum IrcLineParser {
    /// `10:01 rest`, `10:01:02 rest` (irssi) or `[10:01:02] rest` (ZNC, or a bracketed irssi
    /// stamp); `--- Log opened …` / `--- Day changed …` / `--- Log closed …`.
    static func classic(_ line: String, bracketed: Bool) -> IrcLine {
        if line.hasPrefix("--- ") {
            for (prefix, format) in [
                ("--- Log opened ", "EEE MMM d HH:mm:ss yyyy"), ("--- Day changed ", "EEE MMM d yyyy"),
            ] where line.hasPrefix(prefix) {
                guard let clock = cDate(String(line.dropFirst(prefix.count)), format: format) else { return .unknown }
                return .date(clock)
            }
            return line.hasPrefix("--- Log closed") ? .bookkeeping : .unknown
        }
        var rest = Substring(line)
        if bracketed {
            guard rest.first == "[", let close = rest.firstIndex(of: "]") else { return .unknown }
            guard let clock = time(rest.dropFirst().prefix(upTo: close)) else { return .unknown }
            rest = rest[rest.index(after: close)...]
            guard rest.first == " " else { return .unknown }
            return event(rest.dropFirst()).map { IrcLine.record(clock, $0) } ?? .unknown
        }
        guard let space = rest.firstIndex(of: " "), let clock = time(rest[..<space]) else { return .unknown }
        rest = rest[rest.index(after: space)...]
        return event(rest).map { IrcLine.record(clock, $0) } ?? .unknown
    }

    /// The event after an irssi or ZNC time stamp.
    static func event(_ rest: Substring) -> IrcEvent? {
        if rest.first == "<", let close = rest.firstIndex(of: ">") {
            let nick = withoutMode(rest[rest.index(after: rest.startIndex)..<close])
            guard !nick.isEmpty, !nick.contains(" ") else { return nil }
            var text = rest[rest.index(after: close)...]
            if text.first == " " { text = text.dropFirst() }
            return .message(nick: nick, text: String(text))
        }
        for prefix in ["-!- ", "*** "] where rest.hasPrefix(prefix) {
            return .system(String(rest.dropFirst(prefix.count)))
        }
        // ` * nick waves` (irssi) and `* nick waves` (ZNC).
        for prefix in [" * ", "* "] where rest.hasPrefix(prefix) {
            return emote(rest.dropFirst(prefix.count))
        }
        // A notice: `-nick- text`, `-nick(user@host)- text`, `-nick:#chan- text`.
        if rest.first == "-", let end = rest.dropFirst().firstIndex(of: "-"),
            rest[rest.index(after: end)...].hasPrefix(" ")
        {
            let name = rest[rest.index(after: rest.startIndex)..<end].prefix { $0 != "(" && $0 != ":" }
            guard !name.isEmpty, !name.contains(" ") else { return nil }
            return .message(nick: String(name), text: String(rest[rest.index(end, offsetBy: 2)...]))
        }
        return nil
    }

    /// `nick waves` of an action: the nick and what they did.
    static func emote(_ text: Substring) -> IrcEvent? {
        let nick = text.prefix { $0 != " " }
        guard !nick.isEmpty else { return nil }
        return .emote(nick: String(nick), text: String(text.dropFirst(nick.count).drop { $0 == " " }))
    }

    /// `2023-01-15 10:01:00<TAB>prefix<TAB>text`.
    static func weechat(_ line: String) -> IrcLine {
        let columns = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
        guard columns.count == 3, let clock = weechatStamp(columns[0]) else { return .unknown }
        return .record(clock, prefixed(columns[1], columns[2], hexchat: false))
    }

    /// `**** BEGIN LOGGING AT Sun Jan 15 10:00:00 2023`, then `Jan 15 10:01:00 <nick><TAB>text`.
    static func hexchat(_ line: String) -> IrcLine {
        if line.hasPrefix("**** BEGIN LOGGING AT ") {
            return cDate(String(line.dropFirst("**** BEGIN LOGGING AT ".count)), format: "EEE MMM d HH:mm:ss yyyy")
                .map(IrcLine.date) ?? .unknown
        }
        if line.hasPrefix("**** ENDING LOGGING AT ") { return .bookkeeping }
        guard let tab = line.firstIndex(of: "\t") else { return .unknown }
        let head = line[..<tab].split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
        guard head.count == 4, let month = months[String(head[0])], let day = Int(head[1]), (1...31).contains(day),
            var clock = time(head[2])
        else { return .unknown }
        clock.month = month
        clock.day = day
        return .record(clock, prefixed(head[3], line[line.index(after: tab)...], hexchat: true))
    }

    /// The event of a WeeChat or HexChat line from its prefix column.
    static func prefixed(_ prefix: Substring, _ text: Substring, hexchat: Bool) -> IrcEvent {
        let trimmed = prefix.trimmingCharacters(in: .whitespaces)
        switch trimmed {
        case "-->", "<--", "--", "---", "=!=", "-!-", "***", "": return .system(String(text))
        case "*":
            if hexchat, isHexChatEvent(text) { return .system(String(text)) }
            return emote(text) ?? .system(String(text))
        default: break
        }
        if trimmed.hasPrefix("<"), trimmed.hasSuffix(">"), trimmed.count > 2 {
            return .message(nick: withoutMode(trimmed.dropFirst().dropLast()), text: String(text))
        }
        if trimmed.hasPrefix("-"), trimmed.hasSuffix("-"), trimmed.count > 2 {
            return .message(nick: String(trimmed.dropFirst().dropLast()), text: String(text))
        }
        return .message(nick: withoutMode(Substring(trimmed)), text: String(text))
    }

    /// HexChat writes its own events behind `*` as it writes actions: its default English
    /// wordings of nick changes, topics, modes and kicks (its `pevents`) tell them apart.
    static func isHexChatEvent(_ text: Substring) -> Bool {
        if text.hasPrefix("Topic for ") || text.hasPrefix("Now talking on ") || text.hasPrefix("You are now known as ")
        {
            return true
        }
        return [
            " is now known as ", " has changed the topic to", " sets mode ", " gives channel ", " removes channel ",
            " gives voice to ", " removes voice from ", " sets ban on ", " removes ban on ", " has kicked ",
        ].contains { text.contains($0) }
    }

    /// A nick without the channel mode the client shows before it (`@op`, `+voice`, ` plain`).
    static func withoutMode(_ nick: Substring) -> String {
        String(nick.drop { $0 == " " || "@+%&~!".contains($0) })
    }

    /// `HH:MM` or `HH:MM:SS`.
    static func time(_ text: Substring) -> IrcClock? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), hour < 24, minute < 60
        else { return nil }
        let second = parts.count == 3 ? Int(parts[2]) : 0
        guard let second, second < 61 else { return nil }
        return IrcClock(hour: hour, minute: minute, second: min(second, 59))
    }

    /// `2023-01-15 10:01:00`.
    static func weechatStamp(_ text: Substring) -> IrcClock? {
        let halves = text.split(separator: " ")
        guard halves.count == 2, var clock = time(halves[1]) else { return nil }
        let date = halves[0].split(separator: "-", omittingEmptySubsequences: false)
        guard date.count == 3, date[0].count == 4, date[1].count == 2, date[2].count == 2,
            let year = Int(date[0]), let month = Int(date[1]), let day = Int(date[2])
        else { return nil }
        clock.year = year
        clock.month = month
        clock.day = day
        return clock
    }

    /// A date the clients write in words, in the C locale (`Sun Jan 15 10:00:00 2023`; HexChat
    /// pads the day with a space).
    static func cDate(_ text: String, format: String) -> IrcClock? {
        let words = text.split(separator: " ").joined(separator: " ")
        guard let date = CDateFormatters.shared.date(from: words, format: format) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return IrcClock(
            year: parts.year, month: parts.month, day: parts.day, hour: parts.hour ?? 0, minute: parts.minute ?? 0,
            second: parts.second ?? 0)
    }

    /// The C locale's month abbreviations (`Jan` … `Dec`), numbered from 1.
    static let months: [String: Int] = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        var months: [String: Int] = [:]
        for (index, name) in formatter.shortMonthSymbols.enumerated() { months[name] = index + 1 }
        return months
    }()
}

/// One `en_US_POSIX` formatter per date format, made once: a formatter per line was slow, and
/// corelibs Foundation leaks a character set with every formatter it parses with (LeakSanitizer
/// found it while fuzzing `IrcImporter`). A lock makes them safe to share between the build's
/// threads (`DateFormatter` is not).
final class CDateFormatters: @unchecked Sendable {
    /// The formatters of every IRC log read by this process.
    static let shared = CDateFormatters()
    private let lock = NSLock()
    private var formatters: [String: DateFormatter] = [:]

    /// `text` read with `format` in the C locale, in UTC, or `nil`.
    func date(from text: String, format: String) -> Date? {
        lock.withLock {
            let formatter =
                formatters[format]
                ?? {
                    let formatter = DateFormatter()
                    formatter.locale = Locale(identifier: "en_US_POSIX")
                    formatter.timeZone = TimeZone(identifier: "UTC")
                    formatter.calendar = Calendar(identifier: .gregorian)
                    formatter.dateFormat = format
                    formatters[format] = formatter
                    return formatter
                }()
            return formatter.date(from: text)
        }
    }
}
