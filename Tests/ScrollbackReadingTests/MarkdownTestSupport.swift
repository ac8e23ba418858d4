import Foundation
import ScrollbackModel

@testable import ScrollbackReading

/// Helpers of the Markdown log reader's tests (a namespace, so they cannot clash with other suites' helpers).
enum MarkdownTestSupport {
    /// `Tests/Fixtures/markdown`.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/markdown")

    /// The repository's root.
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A new empty folder, with `media/dot.png` (a real 12×8 PNG) in it.
    static func makeInputFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("scrollback-markdown-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("media"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("media/dot.png"), to: folder.appendingPathComponent("media/dot.png"))
        return folder
    }

    /// Writes `text` as `name` in a new input folder and reads it.
    static func read(_ text: String, name: String = "log.md", config: SiteConfig = SiteConfig()) throws -> ReadResult {
        let folder = try makeInputFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return LogReader(inputRoot: folder, config: config).read(file)
    }

    /// A log with the usual front matter (alice, bob; Europe/Berlin) and `body` after it.
    static func log(_ body: String, frontMatter: String = "") -> String {
        """
        ---
        title: Test
        me: alice
        timezone: Europe/Berlin
        participants:
          alice: Alice Nguyen
          bob:
            name: Bob Stone
        \(frontMatter)
        ---

        \(body)
        """
    }

    /// The 1-based line of `text` on which `needle` first occurs.
    static func line(of needle: String, in text: String) -> Int {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return (lines.firstIndex { $0.contains(needle) } ?? -1) + 1
    }

    /// The 1-based UTF-8 column at which `needle` first occurs on its line.
    static func column(of needle: String, in text: String) -> Int {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let line = lines.first(where: { $0.contains(needle) }), let range = line.range(of: needle) else {
            return 0
        }
        return line[..<range.lowerBound].utf8.count + 1
    }

    /// `yyyy-MM-dd'T'HH:mm:ssXXXXX` in `zone`, for readable date expectations.
    static func iso(_ date: Date, zone: String = "Europe/Berlin") -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssXXXXX"
        return formatter.string(from: date)
    }
}

extension ReadResult {
    /// Errors only (named so as not to clash with other suites' helpers).
    var markdownErrors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
}
