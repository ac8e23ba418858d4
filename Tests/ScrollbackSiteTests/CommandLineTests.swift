import Foundation
import Testing

@Suite("scrollback command")
struct CommandLineTests {
    @Test("build: exit 0 and a summary line; with a bad log, a located error on stderr and exit 1")
    func buildExitStatus() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 3), to: "logs/trip.json")
        let good = try ScrollbackProcess.run(["build", "logs", "-o", "out"], in: folder.url)
        #expect(good.status == 0)
        #expect(good.output.contains("built 1 conversation, 3 messages"))
        #expect(good.errors.isEmpty)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/out/trip/index.html"))

        try folder.write(Logs.unknownKind, to: "logs/broken.json")
        let bad = try ScrollbackProcess.run(["build", "logs", "--output", "out", "--quiet"], in: folder.url)
        #expect(bad.status == 1)
        #expect(bad.output.isEmpty)
        let line = try #require(bad.errors.split(separator: "\n").first { $0.hasPrefix("logs/broken.json:") })
        #expect(line.contains(": error: unknown message kind 'hologram'"))
        let location = line.split(separator: ":").prefix(3)
        #expect(
            location.count == 3 && Int(location[location.startIndex + 1]) != nil
                && Int(location[location.startIndex + 2]) != nil)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/out/trip/index.html"))
    }

    @Test("build: refusing a dangerous output folder exits 1 and touches nothing")
    func refusal() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 1), to: "logs/trip.json")
        try folder.write("keep me", to: "docs/notes.txt")
        let result = try ScrollbackProcess.run(["build", "logs", "-o", "docs"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.errors.contains("refusing to write the site to"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/docs") == ["notes.txt"])
    }
}
