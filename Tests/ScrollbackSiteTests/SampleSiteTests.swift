import Foundation
import Testing

@testable import ScrollbackSite

/// The repository's `sample-logs/` (JSON and Markdown logs, media, previews, config, templates).
let sampleLogs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("sample-logs")

@Suite("Sample site")
struct SampleSiteTests {
    @Test("sample-logs builds without errors, deterministically, and every local link resolves")
    func sampleSite() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = folder.url.appendingPathComponent("a")
        let report = try build(sampleLogs, first)
        #expect(!report.hasErrors, "\(report.diagnostics)")
        #expect(report.conversations >= 2)
        #expect(report.mediaFiles > 0)
        try build(sampleLogs, folder.url.appendingPathComponent("b"))
        let site = try snapshot(first)
        #expect(try snapshot(folder.url.appendingPathComponent("b")) == site)

        // Every href/src of every page that names a file of the site points at one that exists.
        let attribute = try Regex(##"(?:href|src|poster)="([^"#?]*)"##)
        var checked = 0
        for (path, data) in site where path.hasSuffix(".html") {
            let html = String(decoding: data, as: UTF8.self)
            let folderOfPage = (path as NSString).deletingLastPathComponent
            for match in html.matches(of: attribute) {
                guard let target = match.output[1].substring.map(String.init), !target.isEmpty,
                    !target.contains(":")  // http:, https:, mailto:, tel:, geo: …
                else { continue }
                var parts: [Substring] = []
                for part in (folderOfPage.isEmpty ? target : folderOfPage + "/" + target).split(separator: "/") {
                    if part == ".." { _ = parts.popLast() } else if part != "." { parts.append(part) }
                }
                let resolved = parts.joined(separator: "/")
                #expect(site[resolved] != nil, "\(path) links to missing \(target)")
                checked += 1
            }
        }
        #expect(checked > 10)
    }
}
