import Foundation
import ScrollbackModel

/// One message of a Signal export as the export writes it, before it becomes a `Message`: what
/// signal-export's `data.json` line holds field by field, and what its `chat.md` text line (the
/// layout chat-miner reads) says with its marks. `SignalMessage` turns either into the model.
struct SignalRecord {
    /// A file the message carried: its name, its path inside the chat's folder, and, when the
    /// export left it out, what kind of file it was (`media`, `attachment`).
    struct Attachment {
        var name: String
        var path: String
        var missingKind: String?
        /// A file the export holds where this importer does not find it (Signal's backup names
        /// files by hashes): its name and type, shown as not linked.
        var unlinked: String?
    }

    /// The time stamp as written (part of the message's stable id).
    var stamp: String
    /// The message's id when the export gives one (Signal's backup: author and `dateSent`).
    var id: String?
    /// The message it answers, by that id, when the export says (Signal's backup quotes).
    var replyTo: String?
    /// When the export says the message was edited.
    var edited: Date?
    var date: Date
    /// The sender's name as the export writes it (`Me` for the exporter); empty when none.
    var sender: String
    var body: String
    /// The quoted message's text (a reply), without the `> ` marks.
    var quote: String?
    /// Who reacted with what, in the export's order.
    var reactions: [(name: String, emoji: String)] = []
    /// A sticker: its emoji (or "sticker") and its path from the export's top folder, if exported.
    var sticker: (label: String, path: String?)?
    var attachments: [Attachment] = []
    var deleted = false
    /// A call (`data.json`'s `call`): a system line naming its sender.
    var call = false
    /// A stamped line with no sender (a notice of the text layout): a system line.
    var notice = false
    var location: SourceLocation
    /// The line of the source file, for `ExportSource.line`.
    var line: Int
}

/// The time stamps of Signal's exports: wall-clock times with no zone, read in the site's zone.
enum SignalTime {
    /// `2019-12-24, 12:23` (chat-miner's sample, also `9:05`), `2019-12-24 12:23`, `2019-12-24 12:23:05`
    /// (`chat.md`) and `2019-12-24T12:23:05.123000` (`data.json`, Python's `isoformat`): the
    /// date, or `nil` when `text` is none of these.
    static func date(_ text: Substring, in zone: TimeZone) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<(start + count)] {
                guard byte &- 0x30 < 10 else { return nil }
                value = value * 10 + Int(byte &- 0x30)
            }
            return value
        }
        guard bytes.count >= 15, let year = number(0, 4), bytes[4] == 0x2D, let month = number(5, 2),
            bytes[7] == 0x2D, let day = number(8, 2)
        else { return nil }
        var index = 10
        if bytes[index] == UInt8(ascii: ",") { index += 1 }
        guard index < bytes.count, bytes[index] == 0x20 || bytes[index] == UInt8(ascii: "T") else { return nil }
        index += 1
        // chat-miner's layout allows a one-digit hour (`9:05`).
        let hourDigits = index + 1 < bytes.count && bytes[index + 1] == 0x3A ? 1 : 2
        guard let hour = number(index, hourDigits), index + hourDigits < bytes.count,
            bytes[index + hourDigits] == 0x3A, let minute = number(index + hourDigits + 1, 2)
        else { return nil }
        index += hourDigits + 3
        var second = 0
        var nanosecond = 0
        if index < bytes.count {
            guard bytes[index] == 0x3A, let value = number(index + 1, 2) else { return nil }
            second = value
            index += 3
            if index < bytes.count {
                guard bytes[index] == UInt8(ascii: "."), index + 1 < bytes.count, bytes.count - index - 1 <= 9,
                    let fraction = number(index + 1, bytes.count - index - 1)
                else { return nil }
                nanosecond = fraction * Int(pow(10, Double(9 - (bytes.count - index - 1))))
            }
        }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, nanosecond: nanosecond)
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else {
            return nil
        }
        return date
    }
}

/// signal-export's `chat.md` marks, which its text layout carries inside a message's body:
/// `> quote` lines first, `(- Name: emoji, … -)` for reactions, `(( emoji ))` for a sticker not
/// exported, `![name](./media/file)` for a file, `(media not exported)` for one left out, and
/// `(This message was deleted)` alone.
enum SignalTextMarks {
    /// What the marks of `body` say, with the marks taken out of the body.
    static func read(_ body: String, into record: inout SignalRecord) {
        var lines = body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.count == 1, lines[0].trimmingCharacters(in: .whitespaces) == "(This message was deleted)" {
            record.deleted = true
            record.body = ""
            return
        }
        // The quote: `> ` lines before the body, after the blank line signal-export puts first.
        while let first = lines.first, first.trimmingCharacters(in: .whitespaces).isEmpty { lines.removeFirst() }
        var quoted: [String] = []
        while let first = lines.first, first.hasPrefix(">") {
            quoted.append(String(first.dropFirst(first.hasPrefix("> ") ? 2 : 1)))
            lines.removeFirst()
        }
        if !quoted.isEmpty { record.quote = quoted.joined(separator: "\n") }
        var kept: [String] = []
        for line in lines {
            // Files and a sticker's link follow the reactions on their line: taken out first.
            let text = takeAttachments(line, into: &record)
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("(- "), trimmed.hasSuffix(" -)") {
                for pair in trimmed.dropFirst(3).dropLast(3).components(separatedBy: ", ") {
                    guard let colon = pair.lastIndex(of: ":") else { continue }
                    let name = pair[..<colon].trimmingCharacters(in: .whitespaces)
                    let emoji = pair[pair.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    if !name.isEmpty, !emoji.isEmpty { record.reactions.append((name, emoji)) }
                }
            } else if trimmed.hasPrefix("(( "), trimmed.hasSuffix(" ))"), trimmed.count > 6 {
                record.sticker = (String(trimmed.dropFirst(3).dropLast(3)), nil)
            } else {
                kept.append(text)
            }
        }
        while let last = kept.last, last.trimmingCharacters(in: .whitespaces).isEmpty { kept.removeLast() }
        while let first = kept.first, first.trimmingCharacters(in: .whitespaces).isEmpty { kept.removeFirst() }
        record.body = kept.map { ChatMarkup.trimming($0, in: .whitespaces) }.joined(separator: "\n")
    }

    /// `line` without the attachment links (`![name](./path)  `, `[name](./path)  `) and the
    /// `(media not exported)` marks signal-export appends, which go to `record.attachments`.
    /// A Markdown link written by the sender (not `./`) stays text.
    static func takeAttachments(_ line: String, into record: inout SignalRecord) -> String {
        var rest = Substring(line)
        var text = ""
        while !rest.isEmpty {
            if rest.hasPrefix("(media not exported)") || rest.hasPrefix("(attachment not exported)") {
                let kind = rest.hasPrefix("(media") ? "media" : "attachment"
                record.attachments.append(SignalRecord.Attachment(name: "", path: "", missingKind: kind))
                rest = rest.dropFirst(kind == "media" ? 20 : 25)
                continue
            }
            let start = rest.hasPrefix("![") ? 2 : (rest.hasPrefix("[") ? 1 : 0)
            // `](./media/…)` is a file of the chat's folder; `](../exported_stickers/…)` a sticker.
            if start > 0, let close = rest.range(of: "]("),
                !rest[rest.index(rest.startIndex, offsetBy: start)..<close.lowerBound].contains("]"),
                rest[close.upperBound...].hasPrefix("./")
                    || rest[close.upperBound...].hasPrefix("../exported_stickers/"),
                let end = rest[close.upperBound...].firstIndex(of: ")")
            {
                let name = String(rest[rest.index(rest.startIndex, offsetBy: start)..<close.lowerBound])
                let target = rest[close.upperBound..<end]
                if target.hasPrefix("../") {
                    record.sticker = (name, String(target.dropFirst(3)))
                } else {
                    record.attachments.append(
                        SignalRecord.Attachment(name: name, path: String(target.dropFirst(2)), missingKind: nil))
                }
                rest = rest[rest.index(after: end)...]
                continue
            }
            text.append(rest.removeFirst())
        }
        return text
    }
}
