import Foundation
import ScrollbackModel

/// Slack workspace exports (spec §6): a folder (or zip) with `users.json`, `channels.json`
/// (and `groups.json`, `dms.json`, `mpims.json`) and one folder of per-day JSON files per
/// conversation.
public enum SlackImporter: ExportImporter {
    public static let format = ExportFormat.slack
    public static let shape = ExportShape.folder

    /// A folder holding `channels.json` or `dms.json` or `groups.json` or `mpims.json`, each a
    /// JSON array (sniffed), and `users.json` as a JSON array.
    public static func detect(_ candidate: ExportCandidate) -> Bool {
        guard candidate.isDirectory else { return false }
        let names = candidate.entryNames()
        guard names.contains("users.json") else { return false }
        let lists = ["channels.json", "groups.json", "dms.json", "mpims.json"].filter(names.contains)
        guard !lists.isEmpty else { return false }
        for name in ["users.json"] + lists {
            let head = ExportCandidate(url: candidate.url.appendingPathComponent(name)).trimmedHead
            guard head.first == UInt8(ascii: "[") else { return false }
        }
        return true
    }

    public static func read(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic] {
        []
    }
}
