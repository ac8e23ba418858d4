import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackSite

/// Threads and permalinks over whole built sites (spec §1.1, §5): every message is one element
/// in exactly one file, and every `#m-…` link names a file that holds that anchor.
@Suite struct ThreadTests {
    /// A log with a long thread (own pages), a short one (in place, with a broadcast reply), a
    /// reply whose root is missing, and replies across pages and into threads.
    static func threadedLog() -> String {
        var messages: [String] = []
        var seconds = 0
        func add(_ id: String, _ sender: String, _ extra: String = "") {
            seconds += 60
            let date = String(
                format: "2024-05-0%dT%02d:%02d:00Z", 1 + seconds / 86_400, seconds / 3600 % 24, seconds / 60 % 60)
            messages.append(
                "{\"id\": \"\(id)\", \"sender\": \"\(sender)\", \"date\": \"\(date)\", \"text\": \"message \(id)\"\(extra)}"
            )
        }
        add("long-root", "ann")
        for index in 1...60 { add("l\(index)", index % 3 == 0 ? "ann" : "bob", ", \"thread\": \"long-root\"") }
        add("short-root", "bob", ", \"pinned\": true")
        add("s1", "ann", ", \"thread\": \"short-root\"")
        add("s2", "bob", ", \"thread\": \"short-root\", \"broadcast\": true")
        add("s3", "ann", ", \"thread\": \"s1\", \"replyTo\": \"l55\"")  // a reply to a reply: the same thread
        add("orphan", "bob", ", \"thread\": \"gone\"")
        for index in 1...40 {
            let reply = index % 9 == 0 ? ", \"replyTo\": \"m\(index - 8)\"" : ""
            add("m\(index)", index % 2 == 0 ? "ann" : "bob", reply)
        }
        add("late", "ann", ", \"replyTo\": \"l2\", \"forwardedFrom\": \"Someone else\"")
        add("gone-msg", "bob", ", \"deleted\": true")
        return """
            {"title": "Threads", "participants": [{"id": "ann", "name": "Ann"}, {"id": "bob", "name": "Bob"}],
             "messages": [\(messages.joined(separator: ",\n"))]}
            """
    }

    /// The HTML files of a site, by path relative to it.
    static func pages(_ site: URL) throws -> [String: String] {
        try snapshot(site).filter { $0.key.hasSuffix(".html") }.mapValues { String(decoding: $0, as: UTF8.self) }
    }

    /// Every `href` of `html` (attribute values as written; the site writes `&amp;` only in queries).
    static func hrefs(_ html: String) -> [String] {
        html.components(separatedBy: "href=\"").dropFirst().compactMap {
            $0.split(separator: "\"").first.map(String.init)
        }
    }

    /// The links whose `#m-…` anchor is missing from the file they name, as "from → href".
    static func brokenPermalinks(_ pages: [String: String]) -> [String] {
        var broken: [String] = []
        for (path, html) in pages.sorted(by: { $0.key < $1.key }) {
            let folder = (path as NSString).deletingLastPathComponent
            for href in hrefs(html) where href.contains("#m-") {
                let parts = href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target = parts[0].isEmpty ? path : (folder as NSString).appendingPathComponent(parts[0])
                let normalized = (target as NSString).standardizingPath
                guard let page = pages[normalized], page.contains("id=\"\(parts[1])\"") else {
                    broken.append("\(path) → \(href)")
                    continue
                }
            }
        }
        return broken
    }

    /// How many times each `data-message-id` appears in its conversation's folder, by
    /// `folder/id` (ids are unique per conversation, not per site).
    static func elementCounts(_ pages: [String: String]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for (path, html) in pages {
            let folder = (path as NSString).deletingLastPathComponent
            for piece in html.components(separatedBy: "data-message-id=\"").dropFirst() {
                counts[folder + "/" + String(piece.prefix { $0 != "\"" }), default: 0] += 1
            }
        }
        return counts
    }

    @Test func threadsLiveInOnePlaceAndEveryPermalinkResolves() throws {
        let input = try TemporaryFolder()
        let output = try TemporaryFolder()
        defer {
            input.remove()
            output.remove()
        }
        try input.write(Self.threadedLog(), to: "threads.json")
        try input.write("pageSize: 25\n", to: "scrollback.yml")
        let report = try build(input.url, output.url.appendingPathComponent("site"))
        #expect(!report.diagnostics.contains { $0.severity == .error })
        let pages = try Self.pages(output.url.appendingPathComponent("site"))

        // Every message is one element, once over the whole site (108 in the log).
        let counts = Self.elementCounts(pages)
        #expect(counts.count == 108)
        #expect(counts.values.allSatisfy { $0 == 1 }, "\(counts.filter { $0.value != 1 })")

        // The long thread (60 > 50 replies) has its own pages of 25; the short one opens in place.
        #expect(pages["threads/thread-long-root.html"] != nil)
        #expect(pages["threads/thread-long-root-page-3.html"] != nil)
        #expect(pages["threads/thread-long-root-page-4.html"] == nil)
        let first = try #require(pages["threads/index.html"])
        #expect(first.contains("<a class=\"th\" data-part=\"thread\" href=\"thread-long-root.html\">"))
        #expect(first.contains("<span class=\"thc\">60 replies</span>"))
        let thread = try #require(pages["threads/thread-long-root.html"])
        #expect(thread.contains("data-message-id=\"l1\""))
        #expect(thread.contains("href=\"index.html#m-long-root\""))  // back to the root
        #expect(thread.contains("href=\"thread-long-root-page-2.html\""))  // its own pagination
        // Short thread: in place, in a <details> under its root; s3 (a reply to s1) joins it.
        let short = try #require(first.range(of: "id=\"m-short-root\""))
        let afterRoot = first[short.upperBound...]
        let details = try #require(afterRoot.range(of: "<details class=\"th\" data-part=\"thread\">"))
        let closing = try #require(afterRoot.range(of: "</details>"))
        let inside = afterRoot[details.upperBound..<closing.lowerBound]
        for id in ["s1", "s2", "s3"] { #expect(inside.contains("data-message-id=\"\(id)\"")) }
        #expect(inside.contains("<span class=\"thc\">3 replies</span>"))
        // The broadcast reply: a reference in the timeline, no second element.
        #expect(first.contains("<div class=\"tref\" data-part=\"thread-reference\"><a href=\"#m-s2\">"))
        // The orphan stays in the timeline with its note; the pin is listed in the header.
        #expect(first.contains("thread root not in this archive"))
        #expect(first.contains("<details class=\"pins\"><summary>📌 1 pinned message</summary>"))
        // A reply into a long thread's page 3 and into the short thread link to the right file.
        let last = try #require(pages["threads/page-2.html"])
        #expect(last.contains("href=\"thread-long-root.html#m-l2\""))
        #expect(inside.contains("href=\"thread-long-root-page-3.html#m-l55\""))
        #expect(last.contains("This message was deleted"))
        #expect(last.contains("Forwarded from <b dir=\"auto\">Someone else</b>"))

        #expect(Self.brokenPermalinks(pages) == [])
    }

    /// Issue 42.11: a thread opened in place under its root shows a day separator only where a
    /// reply's day differs from the root's (the reader already sees the root's day).
    @Test func aThreadInPlaceRepeatsNoDaySeparator() throws {
        let input = try TemporaryFolder()
        let output = try TemporaryFolder()
        defer {
            input.remove()
            output.remove()
        }
        try input.write(
            #"""
            {"title": "Days", "participants": [{"id": "ann", "name": "Ann"}, {"id": "bob", "name": "Bob"}],
             "messages": [
              {"id": "same-root", "sender": "ann", "date": "2024-05-01T09:00:00Z", "text": "root one"},
              {"id": "a1", "sender": "bob", "date": "2024-05-01T09:05:00Z", "text": "same day", "thread": "same-root"},
              {"id": "next-root", "sender": "ann", "date": "2024-05-01T10:00:00Z", "text": "root two"},
              {"id": "b1", "sender": "bob", "date": "2024-05-01T10:05:00Z", "text": "same day", "thread": "next-root"},
              {"id": "b2", "sender": "bob", "date": "2024-05-02T08:00:00Z", "text": "next day", "thread": "next-root"}
             ]}
            """#, to: "days.json")
        let report = try build(input.url, output.url.appendingPathComponent("site"))
        #expect(!report.diagnostics.contains { $0.severity == .error })
        let page = try #require(try Self.pages(output.url.appendingPathComponent("site"))["days/index.html"])
        let threads = page.components(separatedBy: "<details class=\"th\"").dropFirst().map {
            $0.components(separatedBy: "</details>")[0]
        }
        #expect(threads.count == 2)
        func days(_ html: String) -> [String] {
            html.components(separatedBy: "data-part=\"day-separator\"><time datetime=\"").dropFirst().map {
                String($0.prefix(10))
            }
        }
        #expect(days(threads.first ?? "") == [], "a reply on the root's day repeats the day")
        #expect(days(threads.last ?? "") == ["2024-05-02"], "only the next day is announced")
        #expect(days(page) == ["2024-05-01", "2024-05-02"])
    }

    @Test func theLimitIsALayoutOption() throws {
        let input = try TemporaryFolder()
        let output = try TemporaryFolder()
        defer {
            input.remove()
            output.remove()
        }
        try input.write(Self.threadedLog(), to: "threads.json")
        try input.write("layout:\n  threadInlineLimit: 2\n", to: "scrollback.yml")
        try build(input.url, output.url.appendingPathComponent("site"))
        let pages = try Self.pages(output.url.appendingPathComponent("site"))
        // Now the 3-reply thread is long too, and both have one page (page size 1000).
        #expect(pages["threads/thread-short-root.html"] != nil)
        #expect(pages["threads/thread-long-root.html"] != nil)
        #expect(!(pages["threads/index.html"] ?? "").contains("<details class=\"th\""))
        #expect(Self.elementCounts(pages).values.allSatisfy { $0 == 1 })
        #expect(Self.brokenPermalinks(pages) == [])
    }

    @Test(arguments: ["slack", "discord"]) func samplePermalinksResolve(format: String) throws {
        for folder in try ImportTests.sampleFolders(format) {
            let output = try TemporaryFolder()
            defer { output.remove() }
            let site = output.url.appendingPathComponent("site")
            guard try ImportTests.buildSample(folder, format: format, into: site) != nil else { continue }
            let pages = try Self.pages(site)
            #expect(!pages.isEmpty)
            #expect(Self.brokenPermalinks(pages) == [], "\(folder.lastPathComponent)")
            #expect(Self.elementCounts(pages).values.allSatisfy { $0 == 1 }, "\(folder.lastPathComponent)")
        }
    }
}
