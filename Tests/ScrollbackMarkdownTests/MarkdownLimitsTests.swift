import Testing

@testable import ScrollbackMarkdown

/// Issue 40.9: the table-column and autolink bounds apply at exactly their limit, and ordinary
/// messages stay under them.
@Suite struct MarkdownLimitsTests {
    /// A table of `columns` columns and one body row.
    static func table(columns: Int) -> String {
        String(repeating: "| h ", count: columns) + "|\n" + String(repeating: "|:-:", count: columns) + "|\n"
            + String(repeating: "| c ", count: columns) + "|\n"
    }

    @Test func tableColumnsAreBoundedAtTheLimit() {
        let limit = MarkdownLimits.maximumTableColumns
        #expect(MarkdownLimits.exceededLimit(inMarkdown: Self.table(columns: limit)) == nil)
        let over = MarkdownLimits.exceededLimit(inMarkdown: Self.table(columns: limit + 1))
        #expect(over == "its table has more than \(limit) columns")
        // Without a leading or trailing pipe, and inside a block quote: the same table.
        let bare = (0...limit).map { _ in "---" }.joined(separator: "|")
        #expect(MarkdownLimits.exceededLimit(inMarkdown: "a|b\n" + bare) != nil)
        #expect(MarkdownLimits.exceededLimit(inMarkdown: "> a|b\n> " + bare) != nil)
        // Pipes in a line of text are no delimiter row.
        #expect(MarkdownLimits.exceededLimit(inMarkdown: String(repeating: "a|", count: 5_000)) == nil)
        // A rendered table at the limit is still a table.
        #expect(MarkdownRenderer().render(Self.table(columns: limit)).html.contains("<table>"))
    }

    @Test func autolinkCandidatesAreBoundedAtTheLimit() {
        let limit = MarkdownLimits.maximumAutolinkCandidates
        let addresses = String(repeating: "a@b ", count: limit)
        #expect(MarkdownLimits.exceededLimit(inMarkdown: addresses) == nil)
        #expect(
            MarkdownLimits.exceededLimit(inMarkdown: addresses + "c@d")
                == "it holds more than \(limit) addresses or links to autolink")
        // `www.` and `://` count as well; an `@` with no address character beside it does not.
        #expect(MarkdownLimits.exceededLimit(inMarkdown: addresses + "www.x") != nil)
        #expect(MarkdownLimits.exceededLimit(inMarkdown: addresses + "https://x") != nil)
        #expect(MarkdownLimits.exceededLimit(inMarkdown: addresses + "@ a@ @b") == nil)
        #expect(MarkdownLimits.exceededLimit(inMarkdown: String(repeating: "a@", count: 500_000)) != nil)
        // Fewer candidates in a longer message: bounded by candidates × bytes.
        func padded(_ candidates: Int) -> String {
            let head = String(repeating: "a@b ", count: candidates)
            return head + String(repeating: "x", count: MarkdownLimits.maximumBytes - head.utf8.count)
        }
        let most = MarkdownLimits.maximumAutolinkWork / MarkdownLimits.maximumBytes
        #expect(MarkdownLimits.exceededLimit(inMarkdown: padded(most)) == nil)
        #expect(
            MarkdownLimits.exceededLimit(inMarkdown: padded(most + 1))
                == "it holds \(most + 1) addresses or links to autolink in 1024 KiB")
    }

    @Test func aMarkdownLogsWideTableIsReadAsText() {
        let limit = MarkdownLimits.maximumTableColumns
        let (kept, none) = MarkdownLimits.neutralisingPathologicalBlocks("x\n\n" + Self.table(columns: limit))
        #expect(none.isEmpty)
        #expect(kept == "x\n\n" + Self.table(columns: limit))
        let (text, changes) = MarkdownLimits.neutralisingPathologicalBlocks("x\n\n" + Self.table(columns: limit + 1))
        #expect(changes.map(\.line) == [4])
        #expect(changes.first?.reason == "its table has more than \(limit) columns")
        #expect(!MarkdownDocument(text).render().html.contains("<table>"))
    }
}
