import Foundation
import ScrollbackModel

/// WhatsApp's "Export chat" text (spec §6): `_chat.txt` or `WhatsApp Chat with … .txt`, alone
/// or unpacked from its zip with the media beside it; Android or iOS, any locale. One
/// conversation per file.
///
/// Choices where WhatsApp's format leaves room:
/// - Times are local wall-clock times with no zone: they are read in the site's time zone.
/// - The date order (D/M/Y, M/D/Y or Y/M/D) is detected from every timestamp of the file; when
///   every date fits both D/M and M/D, the order whose dates run forward wins, then D/M.
/// - Ids are stable without a source id: a hash of the timestamp as written, the sender and the
///   text, so a newer export of the same chat keeps every permalink (identical messages in the
///   same minute get the shared derived ids, `-2`, with a warning).
/// - Group or one to one (`chatType`): a group has group lines (`You created group`, `Ana
///   added Ben`) or more than two senders (`WhatsAppChatSigns`).
/// - `me` is the sender named `You` (`Du`, …) or the one sender of "You deleted this message";
///   in a one-to-one chat whose file is named for one of the two ("WhatsApp Chat with Bob"), or
///   whose notices name one of them (`Bob's security code changed`, iOS notices under Bob's
///   name), the other. `You created group` and `You added …` system lines have no sender, so
///   they name nobody. Otherwise the config's `me:` or `--me` says (a one-to-one chat without
///   gets a warning).
/// - The edit time is not in the export: an edited message's `edited` is its own date.
/// - Title: the name in the file (or zip) name, `WhatsApp Chat with NAME`; for `_chat.txt`,
///   the group's latest name from its system lines; else the participants.
public enum WhatsAppImporter: ExportImporter {
    public static let format = ExportFormat.whatsapp
    public static let shape = ExportShape.file

    /// A text file (UTF-8, or UTF-16 with its byte order mark) whose first line that is not
    /// blank starts with a WhatsApp timestamp; or a `.txt` whose first line looks like a chat
    /// line with a timestamp not recognised (read to say so, never passed over in silence).
    public static func detect(_ candidate: ExportCandidate) -> Bool {
        guard !candidate.isDirectory, !candidate.head.isEmpty else { return false }
        let head = Array(candidate.head.prefix(4096))
        guard head.first != UInt8(ascii: "{"), head.first != UInt8(ascii: "[") || head.count > 1 else { return false }
        if WhatsAppChatText.looksLikeExport(head: head) { return true }
        return candidate.url.pathExtension.lowercased() == "txt"
            && WhatsAppChatText.looksLikeUnrecognisedExport(head: head)
    }

    public static func read(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic] {
        // Two chat files of one folder whose names slug alike (`test_[a].txt`, `test_a.txt`) both
        // build: the later (in path order) gets `-2`, `-3`, … like a duplicate message id.
        var usedIDs = Set<String>()
        var exportDiagnostics: [Diagnostic] = []
        for file in export.items {
            var imported = readChat(file, context: context)
            if let conversation = imported.conversation, conversation.messages.isEmpty, imported.messagesIn == 0 {
                // A chat in a format not recognised: its warning, and no empty page.
                exportDiagnostics += imported.diagnostics
                continue
            }
            ConversationIDs.takeDistinct(&imported, used: &usedIDs)
            emit(imported)
        }
        return exportDiagnostics
    }

    /// Reads one chat file.
    static func readChat(_ file: URL, context: ImportContext) -> ImportedConversation {
        let shown = context.displayPath(file)
        let start = SourceLocation(file: shown, line: 1, column: 1)
        let name = chatName(of: file, shown: shown)
        var assembler = ConversationAssembler(
            format: .whatsapp, id: name, title: WhatsAppChatReader.title(fromFileName: name + ".txt"), key: shown,
            sourceFiles: [shown], location: start)
        // A file on disk is read a chunk at a time, after its size is checked against
        // `maxLogBytes` (a sparse file can claim gigabytes it does not hold); bytes handed over
        // in memory (the fuzz targets) are read through the context.
        var lines: WhatsAppLineReader
        var handle: FileHandle?
        defer { try? handle?.close() }
        if FileManager.default.fileExists(atPath: file.path) {
            // The size of what is opened (a link's target), before a byte of it is read.
            guard let opened = FileHandle(forReadingAtPath: file.path), let size = try? opened.seekToEnd(),
                (try? opened.seek(toOffset: 0)) != nil
            else {
                assembler.report(.error(.fileSystem("cannot read file"), at: start))
                return assembler.finish()
            }
            handle = opened
            if let tooLarge = LogReader.sizeProblem(size: Int64(size), limit: context.config.maxLogBytes) {
                assembler.report(.error(tooLarge, at: start))
                return assembler.finish()
            }
            lines = WhatsAppLineReader(handle: opened, size: Int(size))
        } else {
            guard let bytes = context.contents(of: file, shown: shown, report: { assembler.report($0) }) else {
                return assembler.finish()
            }
            if let tooLarge = LogReader.sizeProblem(size: Int64(bytes.count), limit: context.config.maxLogBytes) {
                assembler.report(.error(tooLarge, at: start))
                return assembler.finish()
            }
            lines = WhatsAppLineReader(bytes: bytes)
        }
        let reader = WhatsAppChatReader(
            file: shown, sourceFile: context.relativePath(file), conversationID: assembler.id,
            timeZone: TimeZone(identifier: context.config.layout.timeZone) ?? TimeZone(identifier: "UTC")!,
            media: { name, location, diagnostics in
                context.media(localPath: name, relativeTo: file, at: location, diagnostics: &diagnostics)
            },
            richText: { markdown, location, diagnostics in
                context.richText(markdown: markdown, relativeTo: file, at: location, diagnostics: &diagnostics)
            },
            localeOrder: WhatsAppChatText.order(ofLocale: context.config.layout.locale))
        reader.read(&lines, into: &assembler)
        return assembler.finish()
    }

    /// The name a chat goes by: the file's name without extension, or for the generic
    /// `_chat.txt` the zip or folder it came in (`WhatsApp Chat - Alice.zip`).
    static func chatName(of file: URL, shown: String) -> String {
        let base = file.deletingPathExtension().lastPathComponent
        guard base == "_chat" || base == "chat" else { return base }
        let parts = shown.split(separator: "/")
        guard parts.count >= 2 else { return base }
        return PathText.deletingExtension(String(parts[parts.count - 2]))
    }
}
