import ScrollbackSearch

/// What the append path did with a grown log.
package enum AppendAttempt {
    /// Only the last pages were rendered again: the conversation's entry, and its search part
    /// before and after.
    case appended(entry: BuildManifest.Entry, search: SearchIndex.PartChange)
    /// The full build takes it, for this reason.
    case fallback(AppendFallback)
}
