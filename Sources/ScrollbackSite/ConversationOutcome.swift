import ScrollbackCache
import ScrollbackModel
import ScrollbackSearch

/// The result of one log: published (with its manifest entry) or skipped (errors).
struct ConversationOutcome: Sendable {
    var input: InputDiscovery.Input
    /// `nil` when the conversation is not published.
    var entry: BuildManifest.Entry?
    /// Errors and warnings of this log (for a reused log: the warnings of the build that made it).
    var diagnostics: [Diagnostic]
    /// Whether the previous build's pages were reused.
    var reused: Bool
    /// Whether the append fast path rebuilt only the last pages.
    var appended = false
    /// Why its pages were made from its whole source (`nil` when reused, appended or not read).
    var rebuildReason: RebuildReason?
    /// For an appended conversation: its search part before and after (the index is updated
    /// from them, not from the cache files read again).
    var searchChange: SearchIndex.PartChange?
    /// Whether the log has errors and its last good pages were kept.
    var kept = false
    /// Why its pages could not be written (the output side failed): the build must not publish.
    var writeFailure: String?
    /// Where its files were staged before placement.
    var partsFolder: String
    /// Whether its files were linked straight into their place in the staging folder (a reused
    /// log), not into `partsFolder`.
    var stagedDirectly = false
    /// For an imported conversation: its "messages in → messages out" line.
    var importCount: String?
    /// For an imported conversation: which of the build's exports it comes from, and its key
    /// there (to read it again under a derived id, `placeConversations`).
    var exportIndex: Int?
    var importKey: String?
    /// Its source's records, messages and records left out (a log's: its message count).
    var source: SourceCount?
}
