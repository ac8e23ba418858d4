import Foundation
import ScrollbackModel

/// The two shapes of a Signal chat this importer reads, each into `SignalRecord`s, one per
/// message of the source; what cannot be read is left out with a located warning.
enum SignalSources {
    /// signal-export's `data.json`: one JSON object a line (Python's `json.dumps` of its
    /// `Message`): `date` (ISO 8601, local time, no zone), `sender` (`Me` for the exporter),
    /// `body`, `quote` (`"\n\n> text\n\n"`), `sticker` (`{id, packId, packKey, emoji, extension}`,
    /// or a string in older versions), `reactions` (`[name, emoji]` pairs), `attachments`
    /// (`{name, path, missing_kind}`), `deleted`, `call`, `missed`. Unknown fields are ignored.
    static func readJSONLines(
        _ lines: inout WhatsAppLineReader, shown: String, zone: TimeZone, into assembler: inout ConversationAssembler,
        record handle: (SignalRecord, inout ConversationAssembler) -> Void
    ) {
        var number = 0
        while let (line, _) = lines.nextLine() {
            number += 1
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            let location = SourceLocation(file: shown, line: number, column: 1)
            let node: JSONNode
            do {
                node = try JSONParser.parse(Array(line.utf8), file: shown, firstLine: number)
            } catch {
                assembler.report(Diagnostic(.warning, error.problem, at: error.location ?? location))
                assembler.leaveOut(reason: "a line of data.json that is not valid JSON", at: location)
                continue
            }
            guard node.members != nil else {
                assembler.report(
                    .warning(
                        .wrongType(
                            field: "(line)", expected: "an object with date, sender and body, not \(node.typeName)"),
                        at: location))
                assembler.leaveOut(reason: "a line of data.json that is not a message object", at: location)
                continue
            }
            guard let stamp = node["date"]?.string, let date = SignalTime.date(stamp[...], in: zone) else {
                let field = node["date"]
                assembler.report(
                    .warning(
                        .invalidDate(
                            field.map { $0.string ?? $0.typeName } ?? "(none)",
                            expected: "date as 2024-05-01T12:34:56, local time"),
                        at: field?.location(in: shown) ?? location))
                assembler.leaveOut(reason: "a message without a readable date", at: location)
                continue
            }
            var record = SignalRecord(
                stamp: stamp, date: date, sender: node["sender"]?.string ?? "",
                body: (node["body"]?.string ?? "").trimmingCharacters(in: .whitespacesAndNewlines),
                location: location, line: number)
            if let quote = node["quote"]?.string {
                let lines = quote.trimmingCharacters(in: .whitespacesAndNewlines).split(
                    separator: "\n", omittingEmptySubsequences: false)
                let text = lines.map {
                    $0.hasPrefix("> ") ? $0.dropFirst(2) : ($0.hasPrefix(">") ? $0.dropFirst() : $0)
                }
                .joined(separator: "\n")
                if !text.isEmpty { record.quote = text }
            }
            if let sticker = node["sticker"] {
                if sticker.members != nil {
                    let emoji = sticker["emoji"]?.string ?? ""
                    var path: String?
                    if let pack = sticker["packId"]?.string, let id = sticker["id"]?.string,
                        let type = sticker["extension"]?.string, !type.isEmpty
                    {
                        path = "exported_stickers/" + pack + "/" + id + "." + type
                    }
                    record.sticker = (emoji.isEmpty ? "sticker" : emoji, path)
                } else if let label = sticker.string, !label.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    let trimmed = label.trimmingCharacters(in: CharacterSet(charactersIn: "() \n"))
                    record.sticker = (trimmed.isEmpty ? "sticker" : trimmed, nil)
                }
            }
            for reaction in node["reactions"]?.elements ?? [] {
                let name = (reaction.elements?.first ?? reaction["name"])?.string ?? ""
                let emoji =
                    (reaction.elements.flatMap { $0.count > 1 ? $0[1] : nil } ?? reaction["emoji"])?.string ?? ""
                if !emoji.isEmpty { record.reactions.append((name, emoji)) }
            }
            for attachment in node["attachments"]?.elements ?? [] {
                record.attachments.append(
                    SignalRecord.Attachment(
                        name: attachment["name"]?.string ?? "", path: attachment["path"]?.string ?? "",
                        missingKind: attachment["missing_kind"]?.string))
            }
            record.deleted = node["deleted"]?.bool == true
            record.call = node["call"]?.bool == true
            handle(record, &assembler)
        }
    }

    /// `[2019-12-24, 12:23] ` (chat-miner's sample) or `[2019-12-24 12:23:05] ` (`chat.md`): the
    /// stamp inside the brackets and the rest of the line, when `line` starts a message.
    static func textStamp(_ line: String) -> (stamp: Substring, rest: Substring)? {
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return nil }
        let stamp = line[line.index(after: line.startIndex)..<close]
        guard (15...20).contains(stamp.count), stamp.first?.isNumber == true else { return nil }
        let rest = line[line.index(after: close)...]
        guard rest.hasPrefix(" ") else { return nil }
        return (stamp, rest.dropFirst())
    }

    /// The text layout: a message is a line `[stamp] Name: text`, continued on the lines up to
    /// the next such line; its body carries signal-export's marks (`SignalTextMarks`). A stamped
    /// line with no `Name: ` is a notice (a system line). Text before the first message and a
    /// stamp that is no date are left out with a warning.
    static func readText(
        _ lines: inout WhatsAppLineReader, shown: String, zone: TimeZone, into assembler: inout ConversationAssembler,
        record handle: (SignalRecord, inout ConversationAssembler) -> Void
    ) {
        var number = 0
        var current: (record: SignalRecord, text: String)?
        var preamble: Int?
        func flush(_ assembler: inout ConversationAssembler) {
            guard var pending = current else { return }
            current = nil
            SignalTextMarks.read(pending.text, into: &pending.record)
            handle(pending.record, &assembler)
        }
        while let (line, _) = lines.nextLine() {
            number += 1
            let line = number == 1 && line.hasPrefix("\u{FEFF}") ? String(line.dropFirst()) : line
            guard let (stamp, rest) = textStamp(line) else {
                if current != nil {
                    current!.text += "\n" + line
                } else if !line.allSatisfy(\.isWhitespace), preamble == nil {
                    preamble = number
                }
                continue
            }
            flush(&assembler)
            let location = SourceLocation(file: shown, line: number, column: 1)
            guard let date = SignalTime.date(stamp, in: zone) else {
                assembler.report(
                    .warning(.invalidDate(String(stamp), expected: "a date like 2019-12-24, 12:23"), at: location))
                assembler.leaveOut(reason: "a message line whose time stamp is not a date", at: location)
                continue
            }
            var record = SignalRecord(
                stamp: String(stamp), date: date, sender: "", body: "", location: location, line: number)
            var text = String(rest)
            if let colon = rest.range(of: ": ")
                ?? (rest.hasSuffix(":") ? rest.range(of: ":", options: .backwards) : nil)
            {
                record.sender = String(rest[..<colon.lowerBound])
                text = String(rest[colon.upperBound...])
            } else {
                record.notice = true  // no sender: a notice, shown as a system line
            }
            current = (record, text)
        }
        flush(&assembler)
        if let preamble {
            let location = SourceLocation(file: shown, line: preamble, column: 1)
            assembler.report(
                .warning(
                    .other(
                        "text before the first message is left out; expected a line like '[2019-12-24, 12:23] Name: '"),
                    at: location))
            assembler.leaveOut(reason: "text before the first message line", at: location)
        }
    }
}
