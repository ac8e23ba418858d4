import Foundation
import ScrollbackModel

/// Signal chats as the tools that export them from Signal Desktop write them (spec §6, issue 43):
///
/// - signal-export (`sigexport`): a folder per chat holding `data.json` (one JSON object a line,
///   `SignalSources.readJSONLines`), `chat.md` and `media/`; stickers in `exported_stickers/`
///   beside the chat folders. `data.json` is read; `chat.md` says the same in Markdown.
/// - The text layout chat-miner reads (`[2019-12-24, 12:23] Name: text`, a message continued on
///   the next lines): an older signal-export `chat.md` saved as text (`SignalSources.readText`).
///
/// - Signal's own export (Signal Desktop's plaintext export: `main.jsonl`, its backup format's
///   frames as JSON, beside `files/`): a conversation per chat (`SignalBackup`).
///
/// Choices where the formats leave room:
/// - Times are wall-clock times with no zone (signal-export writes the exporting machine's local
///   time): they are read in the site's time zone, as WhatsApp's are.
/// - `me` is the sender `Me`, which signal-export writes for the exporter; otherwise the config's
///   `me:` says.
/// - One conversation per file: for `data.json` named after its folder (signal-export names the
///   folder after the contact or group), for a text file after the file.
/// - A chat with more than two senders is a group; the export does not say otherwise.
/// - Edits: the export holds a message's latest text only, with no mark; it is shown so.
public enum SignalImporter: ExportImporter {
    public static let format = ExportFormat.signal
    public static let shape = ExportShape.file

    /// The fields every line of signal-export's `data.json` has, in every version since it wrote JSON.
    static let jsonFields: Set<String> = ["date", "sender", "body", "reactions", "attachments"]

    /// A JSON Lines file whose first object has signal-export's fields, or a text file whose first
    /// line that is not blank is `[YYYY-MM-DD, HH:MM] Name: …` (a date with a comma and no
    /// seconds, which no WhatsApp layout writes: `UnsupportedFormat.signalLine`).
    public static func detect(_ candidate: ExportCandidate) -> Bool {
        guard !candidate.isDirectory, !candidate.head.isEmpty else { return false }
        if candidate.trimmedHead.first == UInt8(ascii: "{") {
            if SignalBackup.isBackup(candidate) { return true }
            return candidate.topLevelJSONKeys.isSuperset(of: jsonFields)
                && !candidate.topLevelJSONKeys.contains("version")
        }
        guard let line = UnsupportedFormat.firstLine(candidate.trimmedHead) else { return false }
        return UnsupportedFormat.signalLine(line)
    }

    public static func read(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic] {
        // Two chats whose names slug alike both build: the ids come from the names and paths only.
        let names = export.items.map { chatName(of: $0) }
        let ids = ConversationIDs.resolve(
            zip(names, export.items).map {
                ConversationIDs.Claim(slug: ConversationSlug.make(from: $0.0), sourceID: context.relativePath($0.1))
            })
        var problems: [Diagnostic] = []
        for (index, file) in export.items.enumerated() {
            if SignalBackup.isBackup(candidate(file, context: context)) {
                problems += SignalBackup.read(file, context: context, emit: emit)
            } else {
                emit(readChat(file, id: ids[index], title: names[index], context: context))
            }
        }
        return problems
    }

    /// What `file` looks like: from the disk, or from the bytes the context holds (fuzz targets).
    static func candidate(_ file: URL, context: ImportContext) -> ExportCandidate {
        if context.readsFromDisk { return ExportCandidate(url: file) }
        let bytes = context.contents(of: file, shown: file.lastPathComponent, report: { _ in }) ?? []
        return ExportCandidate(url: file, isDirectory: false, head: Array(bytes.prefix(ExportCandidate.headSize)))
    }

    /// The name a chat goes by: `data.json`'s folder (signal-export's chat folder), else the file's name.
    static func chatName(of file: URL) -> String {
        let stem = PathText.deletingExtension(file.lastPathComponent)
        guard stem == "data" || stem == "chat" || stem == "main" else { return stem }
        let folder = PathText.lastComponent(PathText.parent(file.standardizedFileURL.path))
        return folder.isEmpty || folder == "/" ? stem : folder
    }

    /// Reads one chat file.
    static func readChat(_ file: URL, id: String, title: String, context: ImportContext) -> ImportedConversation {
        let shown = context.displayPath(file)
        let start = SourceLocation(file: shown, line: 1, column: 1)
        var assembler = ConversationAssembler(
            format: .signal, id: id, title: title, key: shown, sourceFiles: [shown], location: start)
        guard let bytes = context.contents(of: file, shown: shown, report: { assembler.report($0) }) else {
            return assembler.finish()
        }
        if let tooLarge = LogReader.sizeProblem(size: Int64(bytes.count), limit: context.config.maxLogBytes) {
            assembler.report(.error(tooLarge, at: start))
            return assembler.finish()
        }
        let zone = TimeZone(identifier: context.config.layout.timeZone) ?? TimeZone(identifier: "UTC")!
        var lines = WhatsAppLineReader(bytes: bytes)
        var reader = SignalMessage(file: file, sourceFile: context.relativePath(file), context: context)
        let isJSON = ExportCandidate(url: file, isDirectory: false, head: bytes).trimmedHead.first == UInt8(ascii: "{")
        if isJSON {
            SignalSources.readJSONLines(&lines, shown: shown, zone: zone, into: &assembler) {
                reader.append($0, to: &$1)
            }
        } else {
            SignalSources.readText(&lines, shown: shown, zone: zone, into: &assembler) {
                reader.append($0, to: &$1)
            }
        }
        let senders = Set(assembler.appendedMessages.compactMap(\.sender))
        if senders.count > 2 { assembler.chatType = .group }
        return assembler.finish()
    }
}
