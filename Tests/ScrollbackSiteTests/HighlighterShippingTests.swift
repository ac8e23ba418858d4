import Foundation
import Testing

@testable import ScrollbackRendering
@testable import ScrollbackSite

/// The highlighter (Debian's highlight.js, 846 kB) ships only with a site that has a page with a
/// code block, and the settings fingerprint follows it (issue 42 leftovers). Every build here
/// names its own highlighter folder, so nothing depends on what the machine has installed.
@Suite struct HighlighterShippingTests {
    /// A folder laid out as Debian installs highlight.js, whose script is `script`.
    static func highlighter(in folder: TemporaryFolder, script: String = "var hljs = {};") throws -> String {
        try folder.write(script, to: "hljs/highlight.min.js")
        try folder.write(".hljs { color: #000; }", to: "hljs/styles/a11y-light.css")
        try folder.write(".hljs { color: #fff; }", to: "hljs/styles/a11y-dark.css")
        return folder.path + "/hljs"
    }

    /// A chat log with no code at all.
    static let plainLog = """
        {"title": "Plain", "participants": [{"id": "u", "name": "You"}],
         "messages": [{"id": "m", "sender": "u", "date": "2024-05-03T09:00:00Z", "text": "no code here"}]}
        """

    /// Builds `folder/in` into `folder/site` with the highlighter folder `highlighter`.
    @discardableResult
    static func build(_ folder: TemporaryFolder, highlighter: String) throws -> BuildReport {
        var options = SiteBuilder.Options.test(
            input: folder.url.appendingPathComponent("in"), output: folder.url.appendingPathComponent("site"))
        options.highlighterFolder = highlighter
        let report = try SiteBuilder(options: options).build()
        #expect(!report.hasErrors, "\(report.diagnostics)")
        return report
    }

    /// The site's `assets/highlight*` files, sorted.
    static func shipped(_ folder: TemporaryFolder) -> [String] {
        let assets = folder.path + "/site/assets"
        return ((try? FileManager.default.contentsOfDirectory(atPath: assets)) ?? [])
            .filter { $0.hasPrefix("highlight") }.sorted()
    }

    @Test func aSiteWithoutCodeShipsNoHighlighter() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let highlighter = try Self.highlighter(in: folder)
        try folder.write(Self.plainLog, to: "in/plain.json")
        try Self.build(folder, highlighter: highlighter)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/site/plain/index.html"))
        #expect(Self.shipped(folder) == [])
    }

    @Test func theHighlighterLeavesWithTheLastConversationWithCode() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let highlighter = try Self.highlighter(in: folder)
        try folder.write(AIDocumentTests.log(presentation: "document"), to: "in/ask.json")
        try Self.build(folder, highlighter: highlighter)
        #expect(Self.shipped(folder) == ["highlight.css", "highlight.min.js"])
        // The conversation with code is reused, not rendered again: the manifest remembers it.
        try folder.write(Self.plainLog, to: "in/plain.json")
        let second = try Self.build(folder, highlighter: highlighter)
        #expect(second.reusedConversations == 1 && second.rebuiltConversations == 1)
        #expect(Self.shipped(folder) == ["highlight.css", "highlight.min.js"])
        // Its log removed, the next incremental build ships no highlighter.
        try FileManager.default.removeItem(atPath: folder.path + "/in/ask.json")
        let third = try Self.build(folder, highlighter: highlighter)
        #expect(third.reusedConversations == 1)
        #expect(Self.shipped(folder) == [])
        // The incremental site is the clean one.
        let incremental = try snapshot(folder.url.appendingPathComponent("site"))
        var options = SiteBuilder.Options.test(
            input: folder.url.appendingPathComponent("in"), output: folder.url.appendingPathComponent("site"),
            ignoresCache: true)
        options.highlighterFolder = highlighter
        try SiteBuilder(options: options).build()
        #expect(try snapshot(folder.url.appendingPathComponent("site")) == incremental)
    }

    @Test func installingOrUpdatingTheHighlighterRendersCodePagesAgain() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(AIDocumentTests.log(presentation: "document"), to: "in/ask.json")
        let page = folder.path + "/site/ask/index.html"
        try Self.build(folder, highlighter: folder.path + "/not-installed")
        #expect(try !String(contentsOfFile: page, encoding: .utf8).contains("data-highlight"))
        #expect(Self.shipped(folder) == [])
        // Installed since: the page is rendered again and loads it, without --clean.
        let highlighter = try Self.highlighter(in: folder)
        let installed = try Self.build(folder, highlighter: highlighter)
        #expect(installed.reusedConversations == 0)
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains("data-highlight"))
        #expect(Self.shipped(folder) == ["highlight.css", "highlight.min.js"])
        let unchanged = try Self.build(folder, highlighter: highlighter)
        #expect(unchanged.reusedConversations == 1)
        // A Debian update changes its bytes: the settings changed.
        try Self.highlighter(in: folder, script: "var hljs = {version: 2};")
        let updated = try Self.build(folder, highlighter: highlighter)
        #expect(updated.reusedConversations == 0)
        #expect(
            try String(contentsOfFile: folder.path + "/site/assets/highlight.min.js", encoding: .utf8)
                == "var hljs = {version: 2};")
    }

    @Test func theFingerprintNamesTheHighlighter() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        func fingerprint(_ highlighter: [RenderedFile]) -> String {
            SettingsFingerprint.compute(
                inputRoot: folder.url, generator: "test", shippedTemplates: [], highlighter: highlighter)
        }
        let none = fingerprint([])
        let one = fingerprint([RenderedFile(path: HighlightAssets.scriptPath, contents: Array("a".utf8))])
        let other = fingerprint([RenderedFile(path: HighlightAssets.scriptPath, contents: Array("b".utf8))])
        #expect(none != one && one != other && none != other)
        #expect(one == fingerprint([RenderedFile(path: HighlightAssets.scriptPath, contents: Array("a".utf8))]))
    }
}
