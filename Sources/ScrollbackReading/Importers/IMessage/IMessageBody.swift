import Foundation
import ScrollbackModel

/// The body of one message of imessage-exporter's TXT output, line by line, into the record's
/// parts, tapbacks and indented replies (`IMessageTextReader` has the layout).
enum IMessageBody {
    typealias Line = IMessageTextReader.Line

    /// Reads `lines` (the lines after the sender's) into `record`; indented reply blocks go to
    /// `nested`, their indent taken off.
    static func read(_ lines: [Line], into record: inout IMessageRecord, nested: inout [[Line]]) {
        var text: [Substring] = []
        func flushText() {
            while let last = text.last, IMessageTextReader.isBlank(last) { text.removeLast() }
            while let first = text.first, IMessageTextReader.isBlank(first) { text.removeFirst() }
            if !text.isEmpty { record.parts.append(.text(text.joined(separator: "\n"))) }
            text.removeAll()
        }
        var index = 0
        while index < lines.count {
            let line = lines[index].text
            if line.hasPrefix("    "), IMessageTextReader.timeLine(line.dropFirst(4)) != nil {
                flushText()
                let (block, next) = replyBlock(lines, from: index)
                nested.append(block)
                index = next
                continue
            }
            index += 1
            if line == "Tapbacks:" || line == "Reactions:" {
                flushText()
                while index < lines.count, !IMessageTextReader.isBlank(lines[index].text) {
                    record.tapbacks.append(tapback(lines[index].text.drop { $0 == " " }))
                    index += 1
                }
                continue
            }
            if line == IMessageTextReader.replyNote,
                lines[index...].allSatisfy({ IMessageTextReader.isBlank($0.text) })
            {
                record.isReply = true
                continue
            }
            if isEffect(line) { continue }
            if isAttachmentPath(line) {
                flushText()
                var transcription: String?
                if index < lines.count, lines[index].text.hasPrefix("Transcription: ") {
                    transcription = String(lines[index].text.dropFirst("Transcription: ".count))
                    index += 1
                }
                record.parts.append(.attachment(path: String(line), transcription: transcription))
                continue
            }
            if line == "Attachment missing!" || line == "Attachment missing name metadata!" {
                flushText()
                record.parts.append(.missingAttachment(String(line)))
                continue
            }
            if let sticker = sticker(line) {
                flushText()
                record.parts.append(.sticker(path: sticker.path, label: String(line)))
                continue
            }
            if isUnsent(line) {
                flushText()
                record.parts.append(.unsent(String(line)))
                continue
            }
            if let (stamp, rest) = IMessageStamp.parsePrefix(line), !rest.isEmpty, editFollows(lines, from: index) {
                flushText()
                index = edited(lines, from: index, first: rest.dropFirst(), stamp: stamp, into: &record)
                continue
            }
            text.append(line)
        }
        flushText()
    }

    /// A reply block from `start` (its indented time line) to the blank line after it, with the
    /// indent off; and where reading goes on. (A block with tapbacks has a second blank line after
    /// them: a blank line of the message around it, which text parts trim.)
    private static func replyBlock(_ lines: [Line], from start: Int) -> ([Line], Int) {
        var block: [Line] = []
        var index = start
        while index < lines.count {
            var line = lines[index]
            index += 1
            if IMessageTextReader.isBlank(line.text) { break }
            // Only a part's first line carries the indent (the exporter indents what it adds, not
            // the lines inside a text).
            if line.text.hasPrefix("    ") { line.text = line.text.dropFirst(4) }
            block.append(line)
        }
        return (block, index)
    }

    /// Whether an `Edited … later:` line follows before the next blank line.
    private static func editFollows(_ lines: [Line], from start: Int) -> Bool {
        var index = start
        while index < lines.count, !IMessageTextReader.isBlank(lines[index].text) {
            if editLine(lines[index].text) != nil { return true }
            index += 1
        }
        return false
    }

    /// `Edited 5 seconds later: text`: the seconds and the text.
    private static func editLine(_ line: Substring) -> (TimeInterval, Substring)? {
        guard line.hasPrefix("Edited "), let later = line.range(of: " later: ") else { return nil }
        guard let seconds = IMessageStamp.seconds(in: line[line.index(line.startIndex, offsetBy: 7)..<later.lowerBound])
        else { return nil }
        return (seconds, line[later.upperBound...])
    }

    /// Reads an edited part (its first text after the stamp, then each edit); returns where reading goes on.
    private static func edited(
        _ lines: [Line], from start: Int, first: Substring, stamp: IMessageStamp, into record: inout IMessageRecord
    ) -> Int {
        var history = [String(first)]
        var elapsed: TimeInterval = 0
        var index = start
        while index < lines.count, !IMessageTextReader.isBlank(lines[index].text) {
            let line = lines[index].text
            if let (seconds, text) = editLine(line) {
                elapsed += seconds
                history.append(String(text))
            } else {
                history[history.count - 1] += "\n" + line
            }
            index += 1
        }
        record.parts.append(.edited(history: history, secondsToLastEdit: elapsed))
        return index
    }

    /// One tapback line: `Loved by Me`, `☕️ by Ana`, or a sticker tapback
    /// (`Sticker from Ana: attachments/…/x.heic from Ana`).
    static func tapback(_ line: Substring) -> (tapback: IMessageTapback, by: String, stickerPath: String?) {
        if let sticker = sticker(line) { return (.sticker, String(sticker.from), sticker.path) }
        if let by = line.range(of: " by ") {
            let word = line[..<by.lowerBound]
            return (IMessageTapback(word: word) ?? .emoji(String(word)), String(line[by.upperBound...]), nil)
        }
        return (.emoji(String(line)), "", nil)
    }

    /// A sticker line (`Sticker from Me: attachments/1/x.heic (App: Memoji)`, with an effect
    /// word before it: `Outline Sticker from …`): who sent it, and its path when the line has one.
    static func sticker(_ line: Substring) -> (from: Substring, path: String?)? {
        guard let marker = line.range(of: "Sticker from ") else { return nil }
        let before = line[..<marker.lowerBound]
        guard before.isEmpty || (before.hasSuffix(" ") && !before.dropLast().contains(" ")) else { return nil }
        let rest = line[marker.upperBound...]
        guard let colon = rest.range(of: ": ") else {
            // `Sticker from Ana not found!`: a sticker tapback whose image is gone.
            let notFound = " not found!"
            return (rest.hasSuffix(notFound) ? rest.dropLast(notFound.count) : rest, nil)
        }
        var path = rest[colon.upperBound...]
        for note in [" (App: ", " (Genmoji prompt: "] {
            if let range = path.range(of: note) { path = path[..<range.lowerBound] }
        }
        // A sticker tapback ends `… from Ana`.
        if let from = path.range(of: " from ", options: .backwards), !path[from.upperBound...].contains("/") {
            path = path[..<from.lowerBound]
        }
        return (rest[..<colon.lowerBound], isAttachmentPath(path) ? String(path) : nil)
    }

    /// A file path as the exporter writes it: `attachments/…` when it copied the file into the
    /// export, else the file's place on the Mac (`~/Library/Messages/Attachments/…`) or in an
    /// iOS backup (`…/33/33c81da8ae…`).
    static func isAttachmentPath(_ line: Substring) -> Bool {
        if line.hasPrefix("attachments/") { return !line.contains("\n") }
        guard line.hasPrefix("/") || line.hasPrefix("~/") else { return false }
        if line.contains("/Library/Messages/") || line.contains("/Library/SMS/") { return true }
        // An iOS backup's file: two hex digits, then forty.
        let parts = line.split(separator: "/")
        guard parts.count >= 2 else { return false }
        let name = parts[parts.count - 1]
        let folder = parts[parts.count - 2]
        return name.count == 40 && folder.count == 2 && name.hasPrefix(folder) && name.allSatisfy(\.isHexDigit)
    }

    /// `Sent with Confetti`, `Sent with Invisible Ink`: the screen or bubble effect (not carried over).
    static func isEffect(_ line: Substring) -> Bool {
        guard line.hasPrefix("Sent with ") else { return false }
        let words = line.dropFirst("Sent with ".count).split(separator: " ", omittingEmptySubsequences: false)
        return (1...2).contains(words.count)
            && words.allSatisfy { $0.first?.isUppercase == true && $0.dropFirst().allSatisfy(\.isLowercase) }
    }

    /// An unsent part (`You unsent this message part 5 seconds after sending!`), or an older
    /// exporter's `They deleted a message.`.
    static func isUnsent(_ line: Substring) -> Bool {
        (line.contains(" unsent this message part") && line.hasSuffix("!")) || line == "You deleted a message."
            || line == "They deleted a message."
    }
}
