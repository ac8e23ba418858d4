import Foundation
import ScrollbackModel

/// DiscordChatExporter JSON (spec §6): `guild`, `channel`, `messages`, with its `*_Files/`
/// media folder; `[part N]` files of one channel merge into one conversation.
public enum DiscordImporter: ExportImporter {
    public static let format = ExportFormat.discord
    public static let shape = ExportShape.file

    /// A JSON object whose top level has `guild` and `channel` (and `messages`, which may come
    /// after the first bytes).
    public static func detect(_ candidate: ExportCandidate) -> Bool {
        guard !candidate.isDirectory else { return false }
        let keys = candidate.topLevelJSONKeys
        return keys.contains("guild") && keys.contains("channel")
    }

    public static func read(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic] {
        []
    }
}
