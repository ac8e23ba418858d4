import Foundation
import ScrollbackModel

/// LINE's "Export chat history" text (issue 43): `[LINE] Chat with NAME.txt`, in the phone's
/// language. One conversation per file.
///
/// The shape, learnt from public parsers' fixtures: a header (`[LINE] Chat history with NAME`,
/// `[LINE] NAMEとのトーク履歴`), a "saved on" line, then day lines (`2024/01/15(Mon)`,
/// `2024.02.01 Thursday`, `Sun, 26/04/2026`) each followed by rows `TIME<TAB>Name<TAB>text`. A
/// message of several lines is written in double quotes over those lines; a notice with no
/// sender (an unsent message, a member who joined) is a row of two columns.
///
/// Choices where the format leaves room:
/// - Everything is read by structure, so every language's export reads the same way: weekday
///   names and 12-hour marks come from CLDR (`LineCalendarWords`), and a bracketed token alone
///   on a row (`[Photo]`, `[スタンプ]`) is a media marker whatever its words (a file placeholder:
///   the export holds no media).
/// - Times are wall-clock times with no zone: they are read in the site's time zone. A year-last
///   day line (`26/04/2026`) is day first or month first as its weekday and the file's other
///   day lines say.
/// - Ids: a hash of the day and time as written, the sender and the text (as WhatsApp's), so a
///   newer export of the same chat keeps every permalink.
/// - Title: the sender the header names (`with Kaori`, `與Kaori的`) in a chat of two, who is then
///   the other party; the other sender is `me`. Otherwise the header's words after `[LINE]`
///   (the group's name in the phone's language), else the file's name.
/// - A row before any day line has no date: it is left out with its reason. A quoted message
///   whose closing quote does not come before the next row keeps its lines as written (a warning).
public enum LineImporter: ExportImporter {
    public static let format = ExportFormat.line
    public static let shape = ExportShape.file

    /// A text file whose first line starts with `[LINE]` and holds a row among its first lines,
    /// or (a header cut off) a day line followed by at least three rows.
    public static func detect(_ candidate: ExportCandidate) -> Bool {
        guard !candidate.isDirectory, !candidate.head.isEmpty else { return false }
        var lines = WhatsAppLineReader(bytes: Array(candidate.head.prefix(8192)))
        var banner = false
        var days = 0
        var rows = 0
        var dayFirst: Bool?
        var number = 0
        while let (line, _) = lines.nextLine(), number < 60 {
            number += 1
            let text = TextExportLines.withoutMarks(line)
            if number == 1 { banner = text.hasPrefix("[LINE]") }
            if LineRows.day(text, dayFirst: &dayFirst) != nil {
                days += 1
            } else if days > 0, LineRows.row(text) != nil {
                rows += 1
            }
        }
        return banner ? days > 0 && rows > 0 : days > 0 && rows >= 3
    }

    public static func read(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic] {
        // Two chats of one folder whose titles slug alike both build: the later gets `-2`, … .
        var usedIDs = Set<String>()
        for file in export.items {
            var imported = readChat(file, context: context)
            ConversationIDs.takeDistinct(&imported, used: &usedIDs)
            emit(imported)
        }
        return []
    }

    /// Reads one chat file.
    static func readChat(_ file: URL, context: ImportContext) -> ImportedConversation {
        let shown = context.displayPath(file)
        let start = SourceLocation(file: shown, line: 1, column: 1)
        let stem = PathText.deletingExtension(file.lastPathComponent)
        var assembler = ConversationAssembler(
            format: .line, id: stem, key: shown, sourceFiles: [shown], location: start)
        assembler.timeZone = context.config.layout.timeZone
        guard var reader = TextExportLines.open(file, shown: shown, context: context, report: { assembler.report($0) })
        else { return assembler.finish() }
        var lines: [String] = []
        while let (line, _) = reader.nextLine() { lines.append(line) }
        var chat = LineChatReader(
            file: shown, sourceFile: context.relativePath(file),
            timeZone: TimeZone(identifier: context.config.layout.timeZone) ?? TimeZone(identifier: "UTC")!)
        chat.read(lines, into: &assembler)
        let header = lines.first.map(TextExportLines.withoutMarks).flatMap { first -> String? in
            guard first.hasPrefix("[LINE]") else { return nil }
            return first.dropFirst("[LINE]".count).trimmingCharacters(in: .whitespaces)
        }
        name(&assembler, header: header, fileStem: stem, senders: chat.senders)
        return assembler.finish()
    }

    /// Title, id, `me` and chat type from the header (or file name) and who wrote (see the type's
    /// notes).
    static func name(_ assembler: inout ConversationAssembler, header: String?, fileStem: String, senders: [String]) {
        let named = [header, fileStem].compactMap { $0 }.lazy.compactMap { text in
            let matches = senders.filter { text.contains($0) }
            return matches.count == 1 ? matches[0] : nil
        }.first
        if let named, senders.count <= 2 {
            assembler.title = named
            if senders.count == 2 { assembler.chatType = .direct }
            assembler.setMe(oppositeOf: named)
        } else {
            var title = header ?? fileStem
            if title.hasPrefix("[LINE]") {
                title = title.dropFirst("[LINE]".count).trimmingCharacters(in: .whitespaces)
            }
            assembler.title = title.isEmpty ? fileStem : title
            if senders.count > 2 { assembler.chatType = .group }
        }
        assembler.id = ConversationSlug.make(from: assembler.title ?? fileStem)
    }
}
