import Foundation
import ScrollbackModel

/// Reads the lines of one LINE export onto a conversation: day lines set the date, each row is
/// one message (with the lines that continue it), and nothing else is a record.
struct LineChatReader {
    /// The file as diagnostics name it.
    let file: String
    /// The file relative to the export's root, for `source.file`.
    let sourceFile: String
    /// The zone the wall-clock times are read in.
    let timeZone: TimeZone
    /// Who wrote, in the order they first did.
    private(set) var senders: [String] = []
    private var knownSenders: Set<String> = []
    /// Media markers met, and the first of them (one warning per file says how many).
    private var markers = 0
    private var firstMarker: (text: String, line: Int)?

    init(file: String, sourceFile: String, timeZone: TimeZone) {
        self.file = file
        self.sourceFile = sourceFile
        self.timeZone = timeZone
    }

    /// A row with the lines that belong to it.
    private struct Pending {
        var row: LineRows.Row
        var day: LineRows.Day?
        var line: Int
        var body: [String]
    }

    /// Adds every row of `lines` to `assembler`.
    mutating func read(_ lines: [String], into assembler: inout ConversationAssembler) {
        var dayFirst: Bool?
        var day: LineRows.Day?
        var pending: Pending?
        var index = 0
        while index < lines.count {
            let line = TextExportLines.withoutMarks(lines[index])
            if index == 0, line.hasPrefix("[LINE]") {
                index += 1
                continue
            }
            if let next = LineRows.day(line, dayFirst: &dayFirst) {
                flush(&pending, into: &assembler)
                day = next
                index += 1
                continue
            }
            guard var row = LineRows.row(line) else {
                // A line that continues the message above; before the first row, the header's
                // "saved on" line and blank lines, which are no records.
                if pending != nil {
                    pending!.body.append(lines[index])
                } else if day != nil, !line.allSatisfy(\.isWhitespace) {
                    assembler.leaveOut(reason: "a line that is no day, row or part of a message", at: location(index))
                    assembler.report(
                        .warning(
                            .other("a line outside any message; expected a day line or TIME<TAB>Name<TAB>text"),
                            at: location(index)))
                }
                index += 1
                continue
            }
            flush(&pending, into: &assembler)
            var end = index
            // A message of several lines: `"first` … `last"` (a one-line `"quoted"` text stays as is).
            if row.text.hasPrefix("\""), row.text.count == 1 || !row.text.hasSuffix("\"") {
                // The quote closes on a later line ending in `"`, before the next row or day line
                // (so an unclosed quote swallows nothing, and each line is looked at once).
                var close = index + 1
                // Whether a line of text came after it: else it is a one-line text that starts
                // with a quote, no message left open.
                var spans = false
                while close < lines.count, !lines[close].hasSuffix("\"") {
                    let next = TextExportLines.withoutMarks(lines[close])
                    if LineRows.row(next) != nil || LineRows.day(next, dayFirst: &dayFirst) != nil {
                        close = lines.count
                    } else {
                        spans = spans || !next.allSatisfy(\.isWhitespace)
                        close += 1
                    }
                }
                if close < lines.count {
                    let inner = [String(row.text.dropFirst())] + lines[(index + 1)...close]
                    row.text = inner.joined(separator: "\n")
                    row.text.removeLast()
                    end = close
                } else if spans {
                    assembler.report(
                        .warning(
                            .other("a quoted message that is never closed; its lines are kept as they are"),
                            at: location(index)))
                }
            }
            pending = Pending(row: row, day: day, line: index + 1, body: [])
            index = end + 1
        }
        flush(&pending, into: &assembler)
        if let firstMarker {
            assembler.report(
                .warning(
                    .other(
                        "\(markers) media marker\(markers == 1 ? "" : "s") such as '\(firstMarker.text)': a LINE text "
                            + "export holds no media; placeholders are shown"),
                    at: SourceLocation(file: file, line: firstMarker.line, column: 1)))
        }
    }

    private func location(_ index: Int) -> SourceLocation { SourceLocation(file: file, line: index + 1, column: 1) }

    /// Adds the pending row as a message (or leaves it out with its reason).
    private mutating func flush(_ pending: inout Pending?, into assembler: inout ConversationAssembler) {
        guard let current = pending else { return }
        pending = nil
        let location = SourceLocation(file: file, line: current.line, column: 1)
        var body = current.body
        while let last = body.last, last.allSatisfy(\.isWhitespace) { body.removeLast() }
        let text = ([current.row.text] + body).joined(separator: "\n")
        guard let day = current.day else {
            assembler.leaveOut(reason: "a row before any day line: its date is unknown", at: location)
            assembler.report(
                .warning(.other("a row before any day line; expected a day line such as 2024/01/15(Mon)"), at: location)
            )
            return
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(
            year: day.year, month: day.month, day: day.day, hour: current.row.hour, minute: current.row.minute)
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else {
            assembler.leaveOut(reason: "a row under a day that does not exist", at: location)
            assembler.report(
                .warning(
                    .invalidDate("\(day.year)/\(day.month)/\(day.day)", expected: "a day of the calendar"),
                    at: location))
            return
        }
        let sender = current.row.sender
        let stamp = String(
            format: "%04d-%02d-%02d %02d:%02d", day.year, day.month, day.day, current.row.hour, current.row.minute)
        let kind: MessageKind
        if sender == nil {
            kind = .system(text)
        } else if LineRows.isMediaMarker(text) {
            markers += 1
            if firstMarker == nil { firstMarker = (text, current.line) }
            kind = .file(FileItem(source: .unavailable(original: text)))
        } else {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty, trimmed.allSatisfy({ $0.isWhitespace || MarkdownKindInference.isEmoji($0) }) {
                kind = .emoji(trimmed)
            } else {
                kind = .text(text)
            }
        }
        if let sender, knownSenders.insert(sender).inserted { senders.append(sender) }
        assembler.append(
            Message(
                id: WhatsAppChatReader.stableID(stamp: stamp, text: (sender ?? "") + "\t" + text), sender: sender,
                date: date, kind: kind,
                source: ExportSource(format: ExportFormat.line.rawValue, file: sourceFile, line: current.line),
                location: location))
    }
}
