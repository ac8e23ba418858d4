import Foundation

/// The IRC clients whose logs Scrollback reads, each told by the shape of its lines.
enum IrcDialect: String, Sendable {
    /// irssi (`10:01 <@nick> hi`, `--- Log opened …`, `--- Day changed …`), and any log of
    /// `TIME <nick> text` lines with irssi's or ZNC's events.
    case irssi
    /// ZNC's log module (`[10:01:00] <nick> hi`, `*** Joins: …`), one file a day.
    case znc
    /// WeeChat (`2023-01-15 10:01:00<TAB>@nick<TAB>hi`, `-->`/`<--`/`--` events).
    case weechat
    /// HexChat (`Jan 15 10:01:00 <nick><TAB>hi`, `**** BEGIN LOGGING AT …`).
    case hexchat
}

/// One line of an IRC log, read.
enum IrcLine: Equatable {
    /// A line that sets the date (`--- Day changed Mon Jan 16 2023`, `**** BEGIN LOGGING AT …`);
    /// no record.
    case date(IrcClock)
    /// Log bookkeeping (`--- Log closed …`, `**** ENDING LOGGING AT …`); no record.
    case bookkeeping
    /// A record: when, and what.
    case record(IrcClock, IrcEvent)
    /// Not in the dialect's layout.
    case unknown
}

/// When a line was written, as far as the line says: WeeChat gives the whole date; irssi and
/// ZNC the time of day; HexChat the month and day too.
struct IrcClock: Equatable {
    var year: Int?
    var month: Int?
    var day: Int?
    var hour: Int
    var minute: Int
    var second: Int
}

/// What a record says.
enum IrcEvent: Equatable {
    /// A nick's message (or notice).
    case message(nick: String, text: String)
    /// `/me`: a nick's action.
    case emote(nick: String, text: String)
    /// A join, part, quit, nick change, topic, mode or the client's own notice.
    case system(String)

    /// The event without IRC's formatting codes (bold, colour with its numbers, italics,
    /// underline, reverse, monospace, reset), which some clients keep in their logs.
    var withoutFormatting: IrcEvent {
        switch self {
        case .message(let nick, let text): return .message(nick: nick, text: Self.plain(text))
        case .emote(let nick, let text): return .emote(nick: nick, text: Self.plain(text))
        case .system(let text): return .system(Self.plain(text))
        }
    }

    static func plain(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" }) else { return text }
        var scalars = String.UnicodeScalarView()
        var iterator = Array(text.unicodeScalars)[...]
        while let scalar = iterator.popFirst() {
            switch scalar.value {
            case 0x03:  // colour: up to two digits, optionally a comma and up to two more
                iterator = iterator.dropFirst(digits(iterator, 2))
                if iterator.first == ",", digits(iterator.dropFirst(), 2) > 0 {
                    iterator = iterator.dropFirst(1 + digits(iterator.dropFirst(), 2))
                }
            case 0x04:  // hex colour: six hex digits, optionally a comma and six more
                iterator = iterator.dropFirst(hex(iterator))
                if iterator.first == ",", hex(iterator.dropFirst()) > 0 {
                    iterator = iterator.dropFirst(1 + hex(iterator.dropFirst()))
                }
            case 0x02, 0x0F, 0x11, 0x16, 0x1D, 0x1E, 0x1F: continue
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    private static func digits(_ scalars: ArraySlice<Unicode.Scalar>, _ most: Int) -> Int {
        scalars.prefix(most).prefix { $0.properties.numericType == .decimal && $0.isASCII }.count
    }

    private static func hex(_ scalars: ArraySlice<Unicode.Scalar>) -> Int {
        let run = scalars.prefix(6).prefix { $0.isASCII && $0.properties.isASCIIHexDigit }.count
        return run == 6 ? 6 : 0
    }
}

extension IrcDialect {
    /// The dialect most of the first non-blank lines of `lines` are in, or `nil` when fewer
    /// than two of them (or fewer than half) read as one.
    static func detect(_ lines: [String]) -> IrcDialect? {
        let candidates = lines.lazy.map { String(TextExportLines.withoutMarks($0)) }.filter {
            !$0.allSatisfy(\.isWhitespace)
        }.prefix(30)
        guard !candidates.isEmpty else { return nil }
        var best: (IrcDialect, Int)?
        for dialect in [IrcDialect.weechat, .hexchat, .znc, .irssi] {
            let count = candidates.filter { dialect.parse($0) != .unknown }.count
            if count > (best?.1 ?? 0) { best = (dialect, count) }
        }
        guard let (dialect, count) = best, count >= min(2, candidates.count), count * 2 >= candidates.count else {
            return nil
        }
        return dialect
    }

    /// Reads one line of this dialect.
    func parse(_ line: String) -> IrcLine {
        switch self {
        case .weechat: return IrcLineParser.weechat(line)
        case .hexchat: return IrcLineParser.hexchat(line)
        case .znc, .irssi: return IrcLineParser.classic(line, bracketed: self == .znc)
        }
    }
}
