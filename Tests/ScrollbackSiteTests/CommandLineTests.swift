import Foundation
import Testing

/// The `scrollback` executable SwiftPM built next to the test bundle.
func scrollbackExecutable() throws -> URL {
    var folder = Bundle.main.bundleURL
    if folder.pathExtension == "xctest" { folder = folder.deletingLastPathComponent() }
    let candidates = [folder, Bundle.main.executableURL?.deletingLastPathComponent()].compactMap { $0 }
        .map { $0.appendingPathComponent("scrollback") }
    return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) })
}

/// Runs `scrollback` with `arguments` in `folder` (with `environment` added to this process's);
/// returns status, stdout and stderr.
func runScrollback(
    _ arguments: [String], in folder: URL, environment: [String: String] = [:]
) throws -> (
    status: Int32, output: String, errors: String
) {
    let process = Process()
    process.executableURL = try scrollbackExecutable()
    process.arguments = arguments
    process.currentDirectoryURL = folder
    process.environment = commandEnvironment(in: folder, environment)
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
        process.terminationStatus, String(decoding: outputData, as: UTF8.self),
        String(decoding: errorData, as: UTF8.self)
    )
}

@Suite("scrollback command")
struct CommandLineTests {
    @Test("build: exit 0 and a summary line; with a bad log, a located error on stderr and exit 1")
    func buildExitStatus() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 3), to: "logs/trip.json")
        let good = try runScrollback(["build", "logs", "-o", "out"], in: folder.url)
        #expect(good.status == 0)
        #expect(good.output.contains("built 1 conversation, 3 messages"))
        #expect(good.errors.isEmpty)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/out/trip/index.html"))

        try folder.write(Logs.unknownKind, to: "logs/broken.json")
        let bad = try runScrollback(["build", "logs", "--output", "out", "--quiet"], in: folder.url)
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
        let result = try runScrollback(["build", "logs", "-o", "docs"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.errors.contains("refusing to write the site to"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/docs") == ["notes.txt"])
    }
}
