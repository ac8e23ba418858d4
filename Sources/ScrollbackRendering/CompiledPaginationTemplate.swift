/// A compiled copy of the shipped `pagination` template.
///
/// Every page of a conversation draws its pagination twice (above and below the list); through
/// swift-mustache, with a dictionary per page link and a dynamic cast per lookup, that was about
/// a tenth of a millisecond a page, a second and a half of a percent of a million-message build.
/// Like the row templates (`RowTemplates`), the copy is only used for the shipped template the
/// site did not override, and only after it printed the same bytes as the template on probes.
enum CompiledPaginationTemplate {
    /// The template it copies.
    static let templateName = "pagination"

    /// One entry of the list of page links (`SiteRenderer.paginationEntries`).
    enum Entry: Equatable {
        /// Pages left out between two links.
        case gap
        /// A link to page `index` (0-based); `current` for the page it is on.
        case page(index: Int, current: Bool)
    }

    /// What the template prints for page `current` of `count`, in the landmark named `place`
    /// ("top" or "bottom").
    static func render(current: Int, count: Int, place: String) -> String {
        var o = HTMLBuffer(capacity: 1024)
        o += "<nav class=\"pg\" aria-label=\"Pages, "
        esc(place, &o)
        o += "\">"
        if current > 0 {
            o += "<a rel=\"prev\" href=\""
            esc(SiteRenderer.pageFileName(current - 1), &o)
            o += "\">← Older</a>"
        }
        for entry in SiteRenderer.paginationEntries(current: current, count: count) {
            switch entry {
            case .gap:
                o += "<span class=\"gap\">…</span>"
            case .page(let index, let isCurrent):
                o += "<a href=\""
                esc(SiteRenderer.pageFileName(index), &o)
                o += isCurrent ? "\" aria-current=\"page\">" : "\">"
                appendDecimal(index + 1, &o)
                o += "</a>"
            }
        }
        if current < count - 1 {
            o += "<a rel=\"next\" href=\""
            esc(SiteRenderer.pageFileName(current + 1), &o)
            o += "\">Newer →</a>"
        }
        o += "</nav>"
        return o.string
    }

    /// Whether the shipped, not overridden `pagination` prints what `render` prints on every probe:
    /// first, middle and last pages, with and without gaps, both landmarks.
    static func matches(_ library: TemplateLibrary) -> Bool {
        guard library.contains(templateName), !library.overridden.contains(templateName) else { return false }
        let probes = [(0, 2), (1, 2), (0, 5), (4, 9), (8, 9), (0, 12), (6, 13), (11, 12), (9, 120), (119, 120)]
        for (current, count) in probes {
            for place in ["top", "bottom"] {
                var context = SiteRenderer.paginationContext(current: current, count: count)
                context["where"] = place
                let templated = library.render(templateName, context)
                guard render(current: current, count: count, place: place).utf8.elementsEqual(templated.utf8) else {
                    return false
                }
            }
        }
        return true
    }
}
