import Foundation
import ScrollbackModel
import ScrollbackTestSupport

@testable import ScrollbackReading

/// The repository's `Tests/Fixtures` folder.
let fixturesFolder = RepositoryFixtures.folder

/// A fresh empty folder under the system temporary folder; removed by the caller's `defer`.
func makeTemporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("scrollback-reading-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    // Resolve /tmp symlinks so path comparisons see what realpath sees.
    return URL(fileURLWithPath: MediaResolver.realPath(folder.path) ?? folder.path)
}

/// Writes `text` to `name` inside `folder` (creating subfolders) and returns its URL.
@discardableResult
func write(_ text: String, to name: String, in folder: URL) throws -> URL {
    try write(Data(text.utf8), to: name, in: folder)
}

/// Writes `data` to `name` inside `folder` (creating subfolders) and returns its URL.
@discardableResult
func write(_ data: Data, to name: String, in folder: URL) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: url)
    return url
}

/// Reads the JSON log `text` as a file `name` in a fresh input folder.
func readLog(_ text: String, name: String = "log.json", config: SiteConfig = SiteConfig()) throws -> ReadResult {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try write(text, to: name, in: folder)
    return LogReader(inputRoot: folder, config: config).read(file)
}

/// A minimal valid log with `messages` (JSON array elements) and participants alice and bob.
func log(messages: String, extra: String = "") -> String {
    """
    {\(extra)
    "participants": [{"id": "alice", "name": "Alice"}, {"id": "bob", "name": "Bob"}],
    "messages": [\(messages)]
    }
    """
}

extension ReadResult {
    var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
}
