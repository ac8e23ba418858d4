import Foundation
import ScrollbackModel

/// Element's "Export chat" in JSON (Matrix; issue 43): one room per file, `room_name`,
/// `room_creator`, `topic`, `export_date`, `exported_by` and `messages`, the room's events as the
/// client holds them (`type`, `sender`, `origin_server_ts`, `event_id`, `content`, `unsigned`;
/// `state_key` on state events). With "Include attachments" Element writes a zip instead: the
/// same JSON as `export.json`, the files beside it in `images/`, `videos/`, `audio/`, `files/`
/// and `stickers/` (`MatrixMedia`).
///
/// Mapping: the room is one conversation, its id the slug of `room_name` (else the file's name);
/// each event's id is its `event_id`, which a newer export of the room keeps. Edits
/// (`m.replace`) replace the text they edit and mark it edited; reactions (`m.annotation`) are
/// counted on their message; redacted events are deleted messages and a redaction marks the
/// event it names deleted; replies (`m.in_reply_to`) and threads (`m.thread`) keep their
/// targets; membership, name, topic and other state events are system lines (`MatrixEvent`).
/// `exported_by` (a display name, or the user id when the exporter has none) is `me`.
///
/// Every element of `messages` is one message, or left out with its reason in the ledger: an
/// edit, a reaction or a redaction folded into the event it names, a record that is no event.
public enum MatrixImporter: ExportImporter {
    public static let format = ExportFormat.matrix
    public static let shape = ExportShape.file

    /// A JSON object whose first keys are Element's header: `room_name` with `exported_by` or
    /// `room_creator` (the header comes before `messages`).
    public static func detect(_ candidate: ExportCandidate) -> Bool {
        guard !candidate.isDirectory else { return false }
        let keys = candidate.topLevelJSONKeys
        guard !keys.contains("version") else { return false }  // a Scrollback log
        return keys.contains("room_name") && (keys.contains("exported_by") || keys.contains("room_creator"))
    }

    public static func read(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for file in export.items {
            let shown = context.displayPath(file)
            guard let root = context.parseJSON(file, shown: shown, report: { diagnostics.append($0) }) else {
                continue
            }
            guard root.members != nil else {
                diagnostics.append(
                    .error(
                        .wrongType(field: "(top level)", expected: "Element's export object, not \(root.typeName)"),
                        at: root.location(in: shown)))
                continue
            }
            emit(conversation(root, file: file, shown: shown, context: context))
        }
        return diagnostics
    }

    /// The conversation of one exported room.
    static func conversation(
        _ root: JSONNode, file: URL, shown: String, context: ImportContext
    )
        -> ImportedConversation
    {
        let roomName = root["room_name"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        let fileStem = PathText.deletingExtension(file.lastPathComponent)
        var assembler = ConversationAssembler(
            format: .matrix, id: roomName ?? fileStem, title: roomName,
            key: "matrix:" + context.relativePath(file),
            sourceFiles: [shown], location: SourceLocation(file: shown, line: 1, column: 1))
        if let topic = root["topic"]?.string, !topic.isEmpty { assembler.description = topic }
        guard let events = root["messages"]?.elements else {
            assembler.report(
                .error(
                    .missingField("messages"), at: (root["messages"] ?? root).location(in: shown)))
            return assembler.finish()
        }
        let room = MatrixRoom(events: events, file: file, shown: shown, context: context)
        for (id, name) in room.participants {
            assembler.addParticipant(Participant(id: id, name: name))
        }
        assembler.reserveCapacity(events.count)
        room.read(into: &assembler)
        assembler.me = room.me(exportedBy: root["exported_by"]?.string)
        return assembler.finish()
    }
}
