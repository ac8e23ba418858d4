import Foundation
import ScrollbackModel

/// The chat exports Scrollback recognises but does not read yet, each by its structure, so a
/// build can say what a file it leaves alone looks like instead of saying nothing (issue 41).
///
/// One case per format: when an importer for one of them is written (issue 43), its case goes
/// and the importer's `detect` takes over. Detection is as cheap as an importer's: the first
/// bytes of the file (`ExportCandidate.head`, `topLevelJSONKeys`) and its path.
public enum UnsupportedFormat: String, CaseIterable, Sendable {
    /// A Signal, LINE or IRC text log.
    case textLog

    /// What the warning says the file looks like.
    public var description: String {
        switch self {
        case .textLog: return "a Signal/LINE/IRC text log"
        }
    }

    /// The format `candidate` looks like, or `nil`.
    public static func recognise(_ candidate: ExportCandidate) -> UnsupportedFormat? {
        guard !candidate.isDirectory, !candidate.head.isEmpty else { return nil }
        let keys = candidate.topLevelJSONKeys
        let head = candidate.trimmedHead
        let elementKeys = JSONSniff.firstArrayElementKeys(head)
        if keys.isEmpty, elementKeys.isEmpty, head.first != UInt8(ascii: "{"), looksLikeTextLog(head) {
            return .textLog
        }
        return nil
    }

    /// The time stamp of a text file that reads like a WhatsApp chat (`[stamp] Name: text` or
    /// `stamp - Name: text`) whose stamp the WhatsApp importer did not recognise: what the
    /// warning quotes (`[3/18/2565 BE, 14:56:01]`). `nil` when none of the first lines is so shaped.
    public static func unrecognisedChatStamp(_ candidate: ExportCandidate) -> String? {
        let marks: Set<Character> = ["\u{FEFF}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{202B}", "\u{202C}"]
        let text = String(decoding: candidate.head.prefix(4096), as: UTF8.self)
        // The first lines may be system lines with no sender (the encryption notice).
        let lines = text.split(whereSeparator: \.isNewline).prefix(5).map { String($0.filter { !marks.contains($0) }) }
        for line in lines {
            if let match = line.prefixMatch(of: #/(\[[^\]]{5,40}\]) [^:]{1,80}: /#), match.1.contains(where: \.isNumber)
            {
                return String(match.1)
            }
            if let match = line.prefixMatch(of: #/([^\[\]]{5,40}?) - [^:]{1,80}: /#),
                match.1.contains(where: \.isNumber)
            {
                return String(match.1)
            }
        }
        return nil
    }

    /// Whether the first lines read as a Signal, LINE or IRC log.
    static func looksLikeTextLog(_ head: ArraySlice<UInt8>) -> Bool {
        let text = String(decoding: head.prefix(4096), as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline).prefix(20).map(String.init)
        guard let first = lines.first else { return false }
        if lineHeader(first) { return true }
        if lines.contains(where: { $0.hasPrefix("--- Log opened") || $0.hasPrefix("Session Start:") }) { return true }
        return lines.contains { signalLine($0) || ircLine($0) || lineMessage($0) }
    }

    static func firstLine(_ head: ArraySlice<UInt8>) -> String? {
        let text = String(decoding: head.prefix(1024), as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).first.map(String.init)
    }

    /// `[2019-12-24, 12:23] Name: text` (chat-miner's Signal layout; no seconds inside brackets).
    static func signalLine(_ line: String) -> Bool {
        line.wholeMatch(of: #/\[\d{4}-\d{2}-\d{2}, \d{1,2}:\d{2}\] [^:]+: .*/#) != nil
    }

    /// `[LINE] Chat history with …`: the first line of a LINE export.
    static func lineHeader(_ line: String) -> Bool {
        line.hasPrefix("[LINE]")
    }

    /// `12:34<TAB>Name<TAB>text`: a LINE message line.
    static func lineMessage(_ line: String) -> Bool {
        line.wholeMatch(of: #/\d{1,2}:\d{2}\t[^\t]+\t.*/#) != nil
    }

    /// `[12:34] <nick> text` or `12:34:56 <nick> text`: irssi, mIRC, ZNC, HexChat.
    static func ircLine(_ line: String) -> Bool {
        line.firstMatch(of: #/^(?:\[?[\d\-: T]{4,19}\]?\s+)?<[@+%&~]?[^>\s]+>\s/#) != nil
    }
}

/// Text files that carry no chat (a README, a licence): named with `--verbose` only.
public enum NotAChatFile {
    /// Whether `name` is a file name projects give documentation (`README.txt`, `LICENSE.txt`).
    public static func isDocumentation(_ name: String) -> Bool {
        let stem = PathText.deletingExtension(name).uppercased()
        return ["README", "LICENSE", "LICENCE", "COPYING", "NOTICE", "AUTHORS", "CHANGELOG", "CHANGES", "CONTRIBUTING"]
            .contains { stem == $0 || stem.hasPrefix($0 + "-") || stem.hasPrefix($0 + "_") || stem.hasPrefix($0 + ".") }
    }
}
