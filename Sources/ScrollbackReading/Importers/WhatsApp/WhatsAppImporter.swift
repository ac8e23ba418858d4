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
/// - `me` is the sender named `You` (`Du`, …) or the sender of "You deleted this message";
///   `You added …` system lines do not name the exporter, so they set nothing.
/// - The edit time is not in the export: an edited message's `edited` is its own date.
/// - Title: the name in the file (or zip) name, `WhatsApp Chat with NAME`; for `_chat.txt`,
///   the group's latest name from its system lines; else the participants.
public enum WhatsAppImporter: ExportImporter {
    public static let format = ExportFormat.whatsapp
    public static let shape = ExportShape.file

    /// A text file whose first line that is not blank starts with a WhatsApp timestamp.
    public static func detect(_ candidate: ExportCandidate) -> Bool {
        guard !candidate.isDirectory, !candidate.head.isEmpty else { return false }
        let head = candidate.head.prefix(4096)
        guard head.first != UInt8(ascii: "{"), head.first != UInt8(ascii: "[") || head.count > 1 else { return false }
        return WhatsAppChatText.looksLikeExport(String(decoding: head, as: UTF8.self)[...])
    }

    public static func read(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic] {
        // Two chat files of one folder whose names slug alike (`test_[a].txt`, `test_a.txt`) both
        // build: the later (in path order) gets `-2`, `-3`, … like a duplicate message id.
        var usedIDs = Set<String>()
        for file in export.items {
            var imported = readChat(file, context: context)
            if var conversation = imported.conversation {
                let base = conversation.id
                var number = 2
                while usedIDs.contains(conversation.id) {
                    conversation.id = "\(base)-\(number)"
                    number += 1
                }
                if conversation.id != base {
                    imported.diagnostics.append(
                        .warning(
                            .other(
                                "conversation id '\(base)' is taken by another chat of this folder; this one is '\(conversation.id)'"
                            ),
                            at: conversation.source))
                }
                usedIDs.insert(conversation.id)
                imported.conversation = conversation
            }
            emit(imported)
        }
        return []
    }

    /// Reads one chat file.
    static func readChat(_ file: URL, context: ImportContext) -> ImportedConversation {
        let shown = context.displayPath(file)
        let start = SourceLocation(file: shown, line: 1, column: 1)
        let name = chatName(of: file, shown: shown)
        var assembler = ConversationAssembler(
            format: .whatsapp, id: name, title: WhatsAppChatReader.title(fromFileName: name + ".txt"), key: shown,
            sourceFiles: [shown], location: start)
        guard let bytes = context.contents(of: file, shown: shown, report: { assembler.report($0) }) else {
            return assembler.finish()
        }
        if let bad = UTF8Check.firstInvalidByte(in: bytes, file: shown) {
            assembler.report(.error(.invalidUTF8, at: bad))
            return assembler.finish()
        }
        let reader = WhatsAppChatReader(
            file: shown, sourceFile: context.relativePath(file), conversationID: assembler.id,
            timeZone: TimeZone(identifier: context.config.layout.timeZone) ?? TimeZone(identifier: "UTC")!,
            media: { name, location, diagnostics in
                context.media(localPath: name, relativeTo: file, at: location, diagnostics: &diagnostics)
            },
            richText: { markdown, location, diagnostics in
                context.richText(markdown: markdown, relativeTo: file, at: location, diagnostics: &diagnostics)
            })
        reader.read(String(decoding: bytes, as: UTF8.self), into: &assembler)
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
