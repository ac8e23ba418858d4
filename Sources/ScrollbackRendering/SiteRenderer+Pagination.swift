import ScrollbackLayout

extension SiteRenderer {
    /// The pagination of page `current` (0-based) of a conversation of `count` pages, above and
    /// below its messages, as the bytes the page holds them — or `nil` when the page's bytes are
    /// the site's templates' business (an overridden `conversation`, `base` or `pagination`), or
    /// there is no pagination (one page).
    ///
    /// With the shipped templates a page is its header, the top pagination, the rows, the bottom
    /// pagination and the shell's end, and only the pagination depends on the page count. So
    /// when appended messages open a new page, the earlier pages are the previous build's bytes
    /// with these two spans swapped (`ConversationWorker`), instead of being rendered again.
    public func paginationMarkup(current: Int, count: Int) -> (top: [UInt8], bottom: [UInt8])? {
        guard count > 1, current >= 0, current < count, rows.compiledPagination,
            !templates.overridden.contains("conversation"), !templates.overridden.contains("base")
        else { return nil }
        return (
            Array(CompiledPaginationTemplate.render(current: current, count: count, place: "top").utf8),
            Array(CompiledPaginationTemplate.render(current: current, count: count, place: "bottom").utf8)
        )
    }
}
