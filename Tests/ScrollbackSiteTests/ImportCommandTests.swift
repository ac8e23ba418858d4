import Foundation
import ScrollbackCache
import ScrollbackModel
import Testing

@testable import ScrollbackSite

/// Issue 40.8: `import` never replaces a user's files without being told, and never writes
/// outside the folder it was given.
@Suite("scrollback import: its output folder")
struct ImportCommandTests {
    @Test("a folder that is not empty is refused unless --force; nothing in it is touched")
    func refusesNonEmptyFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try ExportFixtures.slack(in: folder, at: "export")
        try folder.write("my edited log", to: "logs/general.json")
        let refused = try ScrollbackProcess.run(["import", "slack", "export", "-o", "logs"], in: folder.url)
        #expect(refused.status == 1)
        #expect(refused.errors.contains("/logs': it is not empty"), "\(refused.errors)")
        #expect(refused.errors.contains("--force"))
        #expect(try String(contentsOfFile: folder.path + "/logs/general.json", encoding: .utf8) == "my edited log")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/logs") == ["general.json"])

        let forced = try ScrollbackProcess.run(["import", "slack", "export", "-o", "logs", "--force"], in: folder.url)
        #expect(forced.status == 0, "\(forced.errors)")
        #expect(try String(contentsOfFile: folder.path + "/logs/general.json", encoding: .utf8) != "my edited log")
        // An empty or new folder needs no --force.
        try FileManager.default.createDirectory(
            atPath: folder.path + "/empty", withIntermediateDirectories: true)
        #expect(try ScrollbackProcess.run(["import", "slack", "export", "-o", "empty"], in: folder.url).status == 0)
        #expect(try ScrollbackProcess.run(["import", "slack", "export", "-o", "new/logs"], in: folder.url).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/new/logs/random.json"))
    }

    @Test("the root, the export's own folder and a folder holding it are refused, even with --force")
    func refusesRootAndInput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try ExportFixtures.slack(in: folder, at: "export")
        let input = folder.url.appendingPathComponent("export")
        for (output, reason) in [
            ("/", "it is the root folder"), (input.path, "it holds the export"), (folder.path, "it holds the export"),
        ] {
            var writer = ExportWriter(
                input: input, format: .slack, output: URL(fileURLWithPath: output), onDiagnostics: { _ in })
            writer.overwrites = true
            #expect(throws: SiteBuildError.unsafeOutput(path: output, reason: reason)) { try writer.write() }
        }
        #expect(!FileManager.default.fileExists(atPath: input.path + "/general.json"))
        #expect(!FileManager.default.fileExists(atPath: input.path + "/media"))
    }

    @Test("a 'media' link in the output to another folder is refused: media are written into the output only")
    func refusesMediaLink() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try ExportFixtures.slack(in: folder, at: "export")
        try folder.write("keep", to: "elsewhere/keep.txt")
        try FileManager.default.createDirectory(atPath: folder.path + "/logs", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/logs/media", withDestinationPath: folder.path + "/elsewhere")
        var writer = ExportWriter(
            input: folder.url.appendingPathComponent("export"), format: .slack,
            output: folder.url.appendingPathComponent("logs"), onDiagnostics: { _ in })
        writer.overwrites = true
        #expect(throws: SiteBuildError.self) { try writer.write() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/elsewhere") == ["keep.txt"])
    }
}
