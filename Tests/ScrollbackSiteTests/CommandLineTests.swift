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
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
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

@Suite("scrollback serve")
struct ServeCommandTests {
    @Test("serve: prints its address, serves the site, rebuilds on change, and cleans up on Ctrl-C")
    func serveEndToEnd() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 2), to: "logs/trip.json")
        let process = Process()
        process.executableURL = try scrollbackExecutable()
        process.arguments = ["serve", "logs", "--port", "0", "--quiet"]
        process.currentDirectoryURL = folder.url
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // The first line names the port: "Serving logs at http://127.0.0.1:PORT/ (Ctrl-C to stop)".
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        let portText = try #require(text.split(separator: ":").last?.split(separator: "/").first)
        let port = try #require(UInt16(portText))

        let page = try rawRequest(port: port, "/trip/")
        #expect(page.status == 200)
        #expect(String(decoding: page.body, as: UTF8.self).contains("data-message-id"))
        #expect(try rawRequest(port: port, "/__scrollback/version").body == Data("1".utf8))

        try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 3), to: "logs/trip.json")
        let version = try awaitVersionChange(port: port, from: "1")
        #expect(version == Data("2".utf8))
        let temporarySite = FileManager.default.temporaryDirectory.appendingPathComponent(
            "scrollback-serve-\(process.processIdentifier)")
        #expect(FileManager.default.fileExists(atPath: temporarySite.path))

        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: temporarySite.path))
    }
}
