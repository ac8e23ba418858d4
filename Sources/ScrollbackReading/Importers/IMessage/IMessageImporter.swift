import Foundation
import ScrollbackModel

/// iMessage chats as imessage-exporter (ReagentX) writes them with `--format txt` (issue 43): one
/// `.txt` file per chat, its files copied into `attachments/` beside them when asked
/// (`--copy-method`), messages of no chat in `orphaned.txt`. The layout is `IMessageTextReader`'s;
/// what a message becomes is `IMessageMapping`'s, which a reader of macOS `chat.db` can share.
///
/// Choices where the format leaves room:
/// - Times are the exporting Mac's local time with no zone: they are read in the site's time zone
///   and shown as written (the conversation's zone is the site's).
/// - A chat's name is its file's: the group's name (`Family - 12`: the exporter adds the chat's row
///   number, which is the source id when two groups share a name), else its members
///   (`+15551234567, Ana`), else its handle. A named chat, or one with members after a comma, or
///   with more than one other sender, is a group.
/// - `me` is `Me`, the exporter's default name for its own messages; with `--custom-name` the name
///   the read receipts give (`(Read by them …)` follows the exporter's messages).
/// - Ids hash the time stamp, the sender and the body, so a newer export of the same chat keeps
///   every permalink.
/// - Not carried over: the screen and bubble effects (`Sent with Confetti`), the mark of a message
///   deleted from the conversation but still in the database (its content is shown), an edited
///   part's earlier texts (its last text and the edit time are), read times.
public enum IMessageImporter: ExportImporter {
    public static let format = ExportFormat.imessage
    public static let shape = ExportShape.file

    /// A `.txt` file whose first record is one of the exporter's: a time line followed by a sender
    /// line, or an announcement (`May 17, 2022  5:29:42 PM You left the conversation.`).
    public static func detect(_ candidate: ExportCandidate) -> Bool {
        guard !candidate.isDirectory, !candidate.head.isEmpty, candidate.url.pathExtension.lowercased() == "txt",
            candidate.trimmedHead.first != UInt8(ascii: "{")
        else { return false }
        let text = String(decoding: candidate.trimmedHead.prefix(4096), as: UTF8.self)
        var lines: [IMessageTextReader.Line] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(6).enumerated() {
            lines.append(.init(text: line.hasSuffix("\r") ? line.dropLast() : line, number: number + 1))
        }
        guard !lines.isEmpty else { return false }
        return IMessageTextReader.recordStart(lines, at: 0).map {
            if case .unformatted = $0 { false } else { true }
        } ?? false
    }

    public static func read(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic] {
        let names = export.items.map { chatName(of: $0) }
        // Two chats whose names slug alike both build: the ids come from the names and row numbers only.
        let ids = ConversationIDs.resolve(
            names.map { ConversationIDs.Claim(slug: ConversationSlug.make(from: $0.slug), sourceID: $0.sourceID) })
        for (index, file) in export.items.enumerated() {
            emit(readChat(file, id: ids[index], name: names[index], context: context))
        }
        return []
    }

    /// What a chat file's name says.
    struct ChatName {
        var title: String
        /// What the id is made from.
        var slug: String
        /// What tells two chats of one name apart: the chat's row number, else the name.
        var sourceID: String
        /// The chat has a name of its own (a named group).
        var named: Bool
        /// The file of messages that belong to no chat.
        var orphaned: Bool
    }

    /// The chat's name, from its file's (see the type's notes).
    static func chatName(of file: URL) -> ChatName {
        let stem = PathText.deletingExtension(file.lastPathComponent)
        if stem == "orphaned" {
            return ChatName(title: "Messages of no chat", slug: stem, sourceID: stem, named: false, orphaned: true)
        }
        if let dash = stem.range(of: " - ", options: .backwards), dash.lowerBound != stem.startIndex {
            let row = stem[dash.upperBound...]
            if !row.isEmpty, row.allSatisfy({ $0.isASCII && $0.isNumber }) {
                let name = String(stem[..<dash.lowerBound])
                return ChatName(title: name, slug: name, sourceID: String(row), named: true, orphaned: false)
            }
        }
        return ChatName(title: stem, slug: stem, sourceID: stem, named: false, orphaned: false)
    }

    /// Reads one chat file.
    static func readChat(_ file: URL, id: String, name: ChatName, context: ImportContext) -> ImportedConversation {
        let shown = context.displayPath(file)
        let start = SourceLocation(file: shown, line: 1, column: 1)
        var assembler = ConversationAssembler(
            format: .imessage, id: id, title: name.title, key: shown, sourceFiles: [shown], location: start)
        assembler.timeZone = context.config.layout.timeZone
        guard var reader = TextExportLines.open(file, shown: shown, context: context, report: { assembler.report($0) })
        else { return assembler.finish() }
        var lines: [IMessageTextReader.Line] = []
        var invalid: [Int] = []
        while let (text, valid) = reader.nextLine() {
            let number = lines.count + 1
            if !valid { invalid.append(number) }
            lines.append(
                .init(text: number == 1 ? TextExportLines.withoutMarks(text) : Substring(text), number: number))
        }
        if let first = invalid.first {
            assembler.report(
                .warning(
                    .other(
                        "\(invalid.count) line\(invalid.count == 1 ? " is" : "s are") not UTF-8 (the first here); "
                            + "each bad byte is shown as \u{FFFD}"),
                    at: SourceLocation(file: shown, line: first, column: 1)))
        }
        let zone = TimeZone(identifier: context.config.layout.timeZone) ?? TimeZone(identifier: "UTC")!
        let textReader = IMessageTextReader(
            file: shown, zone: zone,
            mapping: IMessageMapping(file: file, sourceFile: context.relativePath(file), context: context))
        let me = textReader.read(lines, into: &assembler)
        assembler.me = me
        if !name.orphaned {
            let others = Set(assembler.appendedMessages.compactMap(\.sender).filter { $0 != me })
            assembler.chatType = name.named || name.title.contains(", ") || others.count > 1 ? .group : .direct
        }
        return assembler.finish()
    }
}
