import Foundation
import ScrollbackModel

/// A folder being filled with a build's files (a conversation's part of the staging folder, or
/// the staging folder itself): each subfolder is created once, before the first file in it.
struct StagedFolder {
    /// The folder's absolute path.
    let root: String
    private var createdFolders: Set<String> = []

    /// A folder to fill at `root`.
    init(root: String) {
        self.root = root
    }

    /// The absolute path of `path` (relative to `root`), with its folder made.
    mutating func prepare(_ path: String) throws -> String {
        let destination = root + "/" + path
        let folder = PathText.parent(destination)
        if createdFolders.insert(folder).inserted { try FileSystem.makeDirectory(folder) }
        return destination
    }

    /// Writes `bytes` to `path`.
    mutating func write(_ bytes: [UInt8], at path: String) throws {
        try FileSystem.writeFile(bytes, to: try prepare(path))
    }

    /// Writes a file the renderer made, refusing a path that would leave the folder.
    mutating func writeRendered(_ bytes: UnsafeBufferPointer<UInt8>, at path: String) throws {
        guard ConversationWorker.isSafeSitePath(path) else {
            throw SiteBuildError.fileSystem("the renderer produced an unsafe path '\(path)'")
        }
        try FileSystem.writeFile(bytes, to: try prepare(path))
    }

    /// Hard-links (or copies) `source` to `path`; `false` when `source` is gone.
    mutating func link(_ source: String, at path: String) throws -> Bool {
        try FileSystem.linkOrCopy(source, to: try prepare(path))
    }

    /// Hard-links (or copies) each of `files` (site or cache paths) from the build `source` (the
    /// previous one) to the same path here; `false` when one of them is gone.
    mutating func link(_ files: some Sequence<String>, from source: BuildTree) throws -> Bool {
        for file in files {
            guard try link(source.path(file), at: file) else { return false }
        }
        return true
    }
}
