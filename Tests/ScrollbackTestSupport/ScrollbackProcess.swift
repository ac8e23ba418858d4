import Foundation

/// The `scrollback` executable as a test runs it: found next to the test bundle, in a folder of
/// the test's, with its cache in that folder (never the user's).
public enum ScrollbackProcess {
    /// No `scrollback` executable next to the test bundle.
    public struct NotBuilt: Error, CustomStringConvertible {
        public var description: String { "no scrollback executable next to the test bundle: swift build first" }
    }

    /// The executable SwiftPM built next to the test bundle.
    public static func executable() throws -> URL {
        var folder = Bundle.main.bundleURL
        if folder.pathExtension == "xctest" { folder = folder.deletingLastPathComponent() }
        let candidates = [folder, Bundle.main.executableURL?.deletingLastPathComponent()].compactMap { $0 }
            .map { $0.appendingPathComponent("scrollback") }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw NotBuilt()
        }
        return found
    }

    /// The environment of a process run in `folder`, with `extra`: its cache
    /// (`XDG_CACHE_HOME`) in `folder/.cache`.
    public static func environment(in folder: URL, _ extra: [String: String] = [:]) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": folder.path + "/.cache"]) { $1 }
            .merging(extra) { $1 }
    }

    /// Runs `scrollback` with `arguments` in `folder` (with `environment` added); returns its
    /// status, standard output and standard error.
    public static func run(
        _ arguments: [String], in folder: URL, environment: [String: String] = [:]
    ) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = Self.environment(in: folder, environment)
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
}
