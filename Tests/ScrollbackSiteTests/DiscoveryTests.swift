import Foundation
import Testing

@testable import ScrollbackSite

@Suite("Input discovery")
struct DiscoveryTests {
    @Test("finds logs at any depth and skips config, special, hidden and underscore entries, sorted")
    func discoveryRules() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for path in [
            "b.json", "A.md", "notes.markdown", "UPPER.JSON", "sub/deep/c.json", "media/beside-media.json",
            "sub/templates/nested-is-a-log.json",
            // Not logs:
            "scrollback.yml", "scrollback.yaml", "scrollback.json", "templates/x.json", "previews/p.json",
            ".hidden/e.json", ".dot.json", "_drafts/f.json", "_g.json", "readme.txt", "sub/.cache/h.json",
        ] {
            try folder.write("{}", to: path)
        }
        let found = InputDiscovery(inputRoot: folder.url).logs().map(\.relativePath)
        #expect(
            found == [
                "A.md", "UPPER.JSON", "b.json", "media/beside-media.json", "notes.markdown", "sub/deep/c.json",
                "sub/templates/nested-is-a-log.json",
            ])
    }

    @Test("never walks the output folder, even when it sits inside the input")
    func skipsOutputInsideInput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("{}", to: "a.json")
        try folder.write("{}", to: "site/leftover.json")
        let found = InputDiscovery(inputRoot: folder.url, excluding: [folder.url.appendingPathComponent("site")]).logs()
        #expect(found.map(\.relativePath) == ["a.json"])
    }

    @Test("a symlink loop does not hang the walk")
    func symlinkLoop() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("{}", to: "sub/a.json")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/sub/loop", withDestinationPath: folder.path)
        let found = InputDiscovery(inputRoot: folder.url).logs().map(\.relativePath)
        #expect(found == ["sub/a.json"])
    }
}
