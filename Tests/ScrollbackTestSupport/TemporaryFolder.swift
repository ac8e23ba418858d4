import Foundation

/// A fresh folder under the system temporary folder, deleted by `remove()`: the one every test
/// target that writes files uses.
public struct TemporaryFolder: Sendable {
    /// The folder.
    public let url: URL

    /// Makes the folder, named `scrollback-tests-<UUID>`.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("scrollback-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The folder's path.
    public var path: String { url.path }

    /// Deletes the folder and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `text` to `relativePath`, creating folders.
    @discardableResult
    public func write(_ text: String, to relativePath: String) throws -> URL {
        try write(Data(text.utf8), to: relativePath)
    }

    /// Writes `data` to `relativePath`, creating folders.
    @discardableResult
    public func write(_ data: Data, to relativePath: String) throws -> URL {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }
}
