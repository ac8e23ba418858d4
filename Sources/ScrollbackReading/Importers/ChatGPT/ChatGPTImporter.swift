import Foundation
import ScrollbackModel

/// The ChatGPT data export's `conversations.json` (spec §6): an array of conversations, each
/// a `mapping` tree of nodes; the shown branch is followed up from `current_node`.
public enum ChatGPTImporter: ExportImporter {
    public static let format = ExportFormat.chatgpt
    public static let shape = ExportShape.file

    /// A JSON array whose first element has `mapping` and `current_node`, or one such
    /// conversation object on its own.
    public static func detect(_ candidate: ExportCandidate) -> Bool {
        guard !candidate.isDirectory else { return false }
        let head = candidate.trimmedHead
        var keys = JSONSniff.firstArrayElementKeys(head)
        if keys.isEmpty { keys = JSONSniff.topLevelKeys(head) }
        return keys.contains("mapping") && (keys.contains("current_node") || keys.contains("title"))
    }

    public static func read(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic] {
        []
    }
}
