import Foundation
import ScrollbackModel

/// A folder being filled with a build's files (a conversation's part of the staging folder, or
/// the staging folder itself): each subfolder is created once, before the first file in it.
package struct StagedFolder {
    /// The folder's absolute path.
    package let root: String
    private var createdFolders: Set<String> = []

    /// A folder to fill at `root`.
    package init(root: String) {
        self.root = root
    }

    /// The absolute path of `path` (relative to `root`), with its folder made.
    package mutating func prepare(_ path: String) throws -> String {
        let destination = root + "/" + path
        let folder = PathText.parent(destination)
        if createdFolders.insert(folder).inserted { try FileSystem.makeDirectory(folder) }
        return destination
    }

    /// Writes `bytes` to `path`.
    package mutating func write(_ bytes: [UInt8], at path: String) throws {
        try FileSystem.writeFile(bytes, to: try prepare(path))
    }

    /// Writes a file the renderer made, refusing a path that would leave the folder.
    package mutating func writeRendered(_ bytes: UnsafeBufferPointer<UInt8>, at path: String) throws {
        guard Self.isSafeSitePath(path) else {
            throw SiteBuildError.fileSystem("the renderer produced an unsafe path '\(path)'")
        }
        try FileSystem.writeFile(bytes, to: try prepare(path))
    }

    /// Hard-links (or copies) `source` to `path`; `false` when `source` is gone.
    package mutating func link(_ source: String, at path: String) throws -> Bool {
        try FileSystem.linkOrCopy(source, to: try prepare(path))
    }

    /// Hard-links (or copies) each of `files` (site or cache paths) from the build `source` (the
    /// previous one) to the same path here; `false` when one of them is gone.
    package mutating func link(_ files: some Sequence<String>, from source: BuildTree) throws -> Bool {
        for file in files {
            guard try link(source.path(file), at: file) else { return false }
        }
        return true
    }

    /// A relative path with no empty, `.` or `..` component: it stays inside the site.
    static func isSafeSitePath(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/")
            && path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
                !$0.isEmpty && $0 != "." && $0 != ".."
            }
    }
}
