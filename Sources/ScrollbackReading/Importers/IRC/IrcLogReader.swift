import Foundation
import ScrollbackModel

/// Reads one IRC log file onto a conversation: every line that is not the log's own
/// bookkeeping (`--- Log opened`, `--- Day changed`, `**** BEGIN LOGGING`) is one record: a
/// message, an action (`/me`, in italics under the nick, as Slack's `me_message`), a system line
/// (joins, parts, quits, nick changes, topics, modes), or left out with its reason.
struct IrcLogReader {
    /// The file as diagnostics name it.
    let file: String
    /// The file relative to the export's root, for `source.file`.
    let sourceFile: String
    /// The zone the clients' wall-clock times are read in.
    let timeZone: TimeZone
    /// The day the file's name gives (`2023-01-15.log`, ZNC's one file a day), if any.
    let fileDay: (year: Int, month: Int, day: Int)?
    /// Renders an action's Markdown (the import context's cmark-gfm).
    let richText: (String, SourceLocation, inout [Diagnostic]) -> RichText

    /// Reads `lines` into `assembler`; `nil` when the file is in no dialect (nothing is added).
    func read(_ lines: inout WhatsAppLineReader, into assembler: inout ConversationAssembler) -> IrcDialect? {
        var head: [(String, Bool)] = []
        while head.count < 30, let line = lines.nextLine() { head.append(line) }
        guard let dialect = IrcDialect.detect(head.map(\.0)) else { return nil }
        var state = State(dialect: dialect, day: fileDay)
        var number = 0
        for (line, valid) in head {
            number += 1
            take(line, valid: valid, number: number, state: &state, into: &assembler)
        }
        while let (line, valid) = lines.nextLine() {
            number += 1
            take(line, valid: valid, number: number, state: &state, into: &assembler)
        }
        if let first = state.firstUnknown {
            assembler.report(
                .warning(
                    .other(
                        "\(state.unknown) line\(state.unknown == 1 ? "" : "s") not in \(dialect.rawValue)'s log layout "
                            + "(the first here); each is left out"),
                    at: SourceLocation(file: file, line: first, column: 1)))
        }
        if let first = state.firstLatin1 {
            assembler.report(
                .warning(
                    .other(
                        "\(state.latin1) line\(state.latin1 == 1 ? " is" : "s are") not UTF-8 (the first here); "
                            + "read as Latin-1"),
                    at: SourceLocation(file: file, line: first, column: 1)))
        }
        return dialect
    }

    /// What reading the file so far has settled.
    private struct State {
        let dialect: IrcDialect
        /// The current day (irssi's `Log opened` / `Day changed`, the file's name, HexChat's
        /// `BEGIN LOGGING` year with the month of the last line).
        var day: (year: Int, month: Int, day: Int)?
        var unknown = 0
        var firstUnknown: Int?
        var latin1 = 0
        var firstLatin1: Int?
    }

    private func take(
        _ raw: String, valid: Bool, number: Int, state: inout State, into assembler: inout ConversationAssembler
    ) {
        if !valid {
            state.latin1 += 1
            if state.firstLatin1 == nil { state.firstLatin1 = number }
        }
        let line = String(TextExportLines.withoutMarks(raw))
        if line.allSatisfy(\.isWhitespace) { return }
        let location = SourceLocation(file: file, line: number, column: 1)
        switch state.dialect.parse(line) {
        case .bookkeeping: return
        case .date(let clock):
            if let year = clock.year, let month = clock.month, let day = clock.day { state.day = (year, month, day) }
        case .unknown:
            state.unknown += 1
            if state.firstUnknown == nil { state.firstUnknown = number }
            assembler.leaveOut(reason: "a line not in \(state.dialect.rawValue)'s log layout", at: location)
        case .record(let clock, let event):
            guard let day = self.day(of: clock, state: &state) else {
                assembler.leaveOut(
                    reason: "a line whose day the log does not say (no date line before it)", at: location)
                return
            }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let components = DateComponents(
                year: day.year, month: day.month, day: day.day, hour: clock.hour, minute: clock.minute,
                second: clock.second)
            guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else {
                assembler.leaveOut(reason: "a line dated on a day that does not exist", at: location)
                return
            }
            let stamp = String(
                format: "%04d-%02d-%02d %02d:%02d:%02d", day.year, day.month, day.day, clock.hour, clock.minute,
                clock.second)
            var diagnostics: [Diagnostic] = []
            let (sender, kind) = message(event, at: location, diagnostics: &diagnostics)
            for diagnostic in diagnostics { assembler.report(diagnostic) }
            assembler.append(
                Message(
                    id: WhatsAppChatReader.stableID(stamp: stamp, text: line), sender: sender, date: date, kind: kind,
                    source: ExportSource(format: ExportFormat.irc.rawValue, file: sourceFile, line: number),
                    location: location))
        }
    }

    /// The day of a record: its own (WeeChat), its month and day in the year of the last
    /// `BEGIN LOGGING` (HexChat; a month below the last one's is the next year), or the current day.
    private func day(of clock: IrcClock, state: inout State) -> (year: Int, month: Int, day: Int)? {
        if let year = clock.year, let month = clock.month, let day = clock.day { return (year, month, day) }
        if let month = clock.month, let day = clock.day {
            guard var current = state.day else { return nil }
            if month < current.month { current.year += 1 }
            state.day = (current.year, month, day)
            return state.day
        }
        return state.day
    }

    /// The sender and kind of an event.
    private func message(
        _ event: IrcEvent, at location: SourceLocation, diagnostics: inout [Diagnostic]
    ) -> (String?, MessageKind) {
        switch event.withoutFormatting {
        case .system(let text): return (nil, .system(text))
        case .emote(let nick, let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return (nick, .text(text)) }
            return (
                nick, .attributedText(richText("_" + ChatMarkup.escapeMarkdown(trimmed) + "_", location, &diagnostics))
            )
        case .message(let nick, let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty, trimmed.allSatisfy({ $0.isWhitespace || MarkdownKindInference.isEmoji($0) }) {
                return (nick, .emoji(trimmed))
            }
            return (nick, .text(text))
        }
    }
}
