import Foundation
import ScrollbackModel

/// Reads one chat file of imessage-exporter's TXT output (`--format txt`, its `exporters/txt.rs`)
/// onto a conversation.
///
/// The file is a run of records, each after a blank line:
/// - a message: its time line (`May 17, 2022  5:29:42 PM`, maybe `(Read by them after 2 seconds)`),
///   the sender's line, then its parts: text of any number of lines (blank ones too), file paths
///   (`attachments/…` when copied into the export), `Sticker from …`, an edited part (`DATE text`
///   then `Edited 5 seconds later: text`), an unsent part, `Tapbacks:` (or the older `Reactions:`)
///   with one `Loved by Me` a line, and the replies in its thread, indented by four blanks;
///   `This message responded to an earlier message.` closes a reply;
/// - an announcement on one line: `DATE You renamed the conversation to …`, `… left the conversation.`.
///
/// A reply is written twice: indented under the message it answers, and at its own time with the
/// note. The later copy is the message (`replyTo` the one it answers); the indented copy is counted
/// as a record left out with its reason, or built in its place when the later copy is missing.
struct IMessageTextReader {
    /// The file as diagnostics name it.
    let file: String
    /// The zone the exporter's local times are read in.
    let zone: TimeZone
    let mapping: IMessageMapping

    /// One line of the file with its 1-based number.
    struct Line {
        var text: Substring
        var number: Int
    }

    /// What the exporter writes for a message deleted from the conversation (still in the database).
    static let deletedNote = "This message was deleted from the conversation!"
    /// The last line of a reply written at its own time.
    static let replyNote = "This message responded to an earlier message."
    /// An announcement the exporter could not format.
    static let unformattedAnnouncement = "Unable to format announcement!"

    /// Reads `lines` into `assembler`; returns who the exporter is, when the file says.
    func read(_ lines: [Line], into assembler: inout ConversationAssembler) -> String? {
        var me = MeFinder()
        // Indented reply copies waiting for their own copy, with their identity (worked out once).
        var pending: [(record: IMessageRecord, parent: String, identity: String)] = []
        var stray: [Int] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if Self.isBlank(line.text) {
                index += 1
                continue
            }
            let location = SourceLocation(file: file, line: line.number, column: 1)
            guard let start = Self.recordStart(lines, at: index) else {
                stray.append(line.number)
                assembler.leaveOut(
                    reason: Self.timeLine(line.text) != nil
                        ? "a time line with no sender line after it" : "a line outside any message", at: location)
                index += 1
                continue
            }
            switch start {
            case .unformatted:
                assembler.leaveOut(reason: "an announcement the exporter could not format", at: location)
                index += 1
            case .announcement(let stamp, let text):
                index += 1
                guard let date = stamp.date(in: zone) else {
                    leaveOutBadDay(at: location, into: &assembler)
                    continue
                }
                assembler.append(
                    Message(
                        id: WhatsAppChatReader.stableID(stamp: stamp.canonical, text: String(text)), sender: nil,
                        date: date, kind: .system(String(text)),
                        source: ExportSource(
                            format: ExportFormat.imessage.rawValue, file: mapping.sourceFile, line: line.number),
                        location: location))
            case .message:
                // The block runs to the next record after a blank line (a time line with no
                // sender there is a broken record of its own, not more of this text).
                var end = index + 2
                while end < lines.count,
                    !(Self.isBlank(lines[end - 1].text)
                        && (Self.recordStart(lines, at: end) != nil || Self.timeLine(lines[end].text) != nil))
                {
                    end += 1
                }
                let block = Array(lines[index..<end])
                index = end
                guard let record = parse(block, into: &assembler, me: &me) else { continue }
                let identity = record.record.identity
                for nested in record.nested {
                    guard let reply = parse(nested, into: &assembler, me: &me) else { continue }
                    pending.append((reply.record, identity, reply.record.identity))
                }
                var message = appendable(record.record, assembler: &assembler)
                if let copy = pending.firstIndex(where: { $0.identity == identity }) {
                    message.replyTo = pending[copy].parent
                    assembler.leaveOut(
                        reason: "a reply repeated under the message it answers (built once, at its own time)",
                        at: pending[copy].record.location)
                    pending.remove(at: copy)
                }
                assembler.append(message)
            }
        }
        // Replies whose own copy the file does not hold: built from the copy under the message.
        for (reply, parent, _) in pending {
            var message = appendable(reply, assembler: &assembler)
            message.replyTo = parent
            assembler.append(message)
        }
        if let first = stray.first {
            assembler.report(
                .warning(
                    .other(
                        "\(stray.count) line\(stray.count == 1 ? "" : "s") outside any message (the first here); "
                            + "each is left out; expected a time line such as 'May 17, 2022  5:29:42 PM' and a sender"),
                    at: SourceLocation(file: file, line: first, column: 1)))
        }
        return me.exporter
    }

    /// The message of `record` with the mapping's warnings reported.
    private func appendable(_ record: IMessageRecord, assembler: inout ConversationAssembler) -> Message {
        var diagnostics: [Diagnostic] = []
        let message = mapping.message(record, diagnostics: &diagnostics)
        diagnostics.forEach { assembler.report($0) }
        return message
    }

    private func leaveOutBadDay(at location: SourceLocation, into assembler: inout ConversationAssembler) {
        assembler.report(
            .warning(
                .other(
                    "the record is dated on a day that does not exist, or outside the years 1 to 9999; it is left out"),
                at: location))
        assembler.leaveOut(reason: "a record dated on a day that does not exist or cannot be shown", at: location)
    }

    /// A message block read: the record and its indented replies (not yet read).
    private struct Parsed {
        var record: IMessageRecord
        var nested: [[Line]]
    }

    /// Reads a message block (time line, sender, body); `nil` (the record left out) when its day does not exist.
    private func parse(
        _ block: [Line], into assembler: inout ConversationAssembler, me: inout MeFinder
    ) -> Parsed? {
        let location = SourceLocation(file: file, line: block[0].number, column: 1)
        guard let (stamp, readBy) = Self.timeLine(block[0].text), block.count > 1,
            !Self.isBlank(block[1].text)
        else {
            assembler.report(
                .warning(
                    .other("a reply with no sender line after its time line; it is left out"), at: location))
            assembler.leaveOut(reason: "a time line with no sender line after it", at: location)
            return nil
        }
        guard let date = stamp.date(in: zone) else {
            leaveOutBadDay(at: location, into: &assembler)
            return nil
        }
        let sender = String(block[1].text.trimmingCharacters(in: .whitespaces))
        var record = IMessageRecord(
            stamp: stamp.canonical, date: date, sender: sender, line: block[0].number, location: location)
        me.note(sender: sender, readBy: readBy)
        record.readByThem = readBy == "them"
        var body = block.dropFirst(2)
        if body.first.map({ $0.text == Self.deletedNote }) == true { body = body.dropFirst() }
        var nested: [[Line]] = []
        IMessageBody.read(Array(body), into: &record, nested: &nested)
        return Parsed(record: record, nested: nested)
    }

    /// How a record starts at `index` (after a blank line or the file's start).
    enum Start {
        case message
        case announcement(IMessageStamp, Substring)
        case unformatted
    }

    /// The record starting at `index`, or `nil` when the line starts none.
    static func recordStart(_ lines: [Line], at index: Int) -> Start? {
        let text = lines[index].text
        if timeLine(text) != nil {
            return index + 1 < lines.count && !isBlank(lines[index + 1].text) ? .message : nil
        }
        if let (stamp, text) = announcement(text) { return .announcement(stamp, text) }
        return text == unformattedAnnouncement ? .unformatted : nil
    }

    /// A message's time line: the stamp and who read it (`them`, `you`, the exporter's own name).
    static func timeLine(_ line: Substring) -> (IMessageStamp, readBy: Substring?)? {
        guard let (stamp, rest) = IMessageStamp.parsePrefix(line) else { return nil }
        if rest.isEmpty { return (stamp, nil) }
        guard rest.hasPrefix(" (Read by "), rest.hasSuffix(")"),
            let after = rest.range(of: " after ", options: .backwards)
        else { return nil }
        let reader = rest[rest.index(rest.startIndex, offsetBy: 10)..<after.lowerBound]
        guard IMessageStamp.seconds(in: rest[after.upperBound..<rest.index(before: rest.endIndex)]) != nil else {
            return nil
        }
        return (stamp, reader)
    }

    /// An announcement line: the stamp and the sentence (`You left the conversation.`).
    static func announcement(_ line: Substring) -> (IMessageStamp, Substring)? {
        guard let (stamp, rest) = IMessageStamp.parsePrefix(line), rest.count > 1 else { return nil }
        let text = rest.dropFirst()
        // The sentences of the exporter's `format_announcement`, after the actor's name.
        let isAnnouncement =
            text.contains(" renamed the conversation to ") || text.hasSuffix(" the conversation.")
            || text.hasSuffix(" the group photo.") || text.hasSuffix(" kept an audio message.")
            || text.hasSuffix(" unsent a message!") || text.contains(" performed unknown action ")
        return isAnnouncement ? (stamp, text) : nil
    }

    static func isBlank(_ text: Substring) -> Bool { text.allSatisfy { $0 == " " || $0 == "\t" } }

    /// Who the exporter is, from what the file says: `Me` (the exporter's default name), the
    /// sender of a message read by `them`, or the name a read receipt gives the reader of
    /// someone else's message (the exporter's `--custom-name`).
    struct MeFinder {
        var named: String?

        mutating func note(sender: String, readBy: Substring?) {
            if sender == "Me" { named = "Me" }
            guard named == nil, let readBy else { return }
            if readBy == "them" {
                named = sender
            } else if readBy != "you" {
                named = String(readBy)
            }
        }

        var exporter: String? { named }
    }
}
