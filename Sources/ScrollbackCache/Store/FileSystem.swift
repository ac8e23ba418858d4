import Foundation
import ScrollbackModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file-system operations the builder needs, on POSIX calls so that their cost and
/// their failure modes (cross-device links, missing files) are explicit.
package enum FileSystem {
    /// Size and modification time of a file, the build cache's cheap "unchanged?" test.
    package struct Stamp: Hashable, Sendable {
        /// Size in bytes.
        package var size: Int64
        /// Modification time in nanoseconds since 1970.
        package var modifiedNanoseconds: Int64

        /// The stamp of a file of `size` bytes last modified at `modifiedNanoseconds`.
        package init(size: Int64, modifiedNanoseconds: Int64) {
            self.size = size
            self.modifiedNanoseconds = modifiedNanoseconds
        }
    }

    /// What is at a path.
    package enum Kind {
        case missing, file, directory, other
    }

    /// The size and modification time of the file at `path`, following symlinks.
    package static func stamp(_ path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        return Stamp(
            size: Int64(info.st_size), modifiedNanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    /// What kind of entry `path` is (following symlinks).
    package static func kind(_ path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// Creates `path` and its missing parents; fine when it exists.
    package static func makeDirectory(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            // Another worker may have made it, or one of its parents, at the same time (reused
            // logs are linked into the shared staging folder in parallel): try once more.
            guard kind(path) != .directory else { return }
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
    }

    /// Writes `bytes` to a new file at `path` (the parent must exist).
    package static func writeFile(_ bytes: [UInt8], to path: String) throws {
        try bytes.withUnsafeBufferPointer { try writeFile($0, to: path) }
    }

    /// Writes `bytes` to a new file at `path` (the parent must exist).
    package static func writeFile(_ bytes: UnsafeBufferPointer<UInt8>, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw SiteBuildError.fileSystem("cannot create \(path): \(errorText())") }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let result = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                throw SiteBuildError.fileSystem("cannot write \(path): \(errorText())")
            }
            written += result
        }
    }

    /// Puts the file at `source` at `destination` (whose parent must exist): a hard link when
    /// both are on the same file system, else a copy. Returns `false` when `source` is missing.
    @discardableResult
    package static func linkOrCopy(_ source: String, to destination: String) throws -> Bool {
        if link(source, destination) == 0 { return true }
        let linkError = errno
        if linkError == ENOENT, kind(source) == .missing { return false }
        if linkError == EEXIST { throw SiteBuildError.fileSystem("cannot write \(destination): it already exists") }
        // EXDEV (another file system), EPERM/EMLINK (no hard links here): copy instead.
        return try copy(source, to: destination)
    }

    /// Copies `source` to a new file `destination`. Returns `false` when `source` has vanished.
    package static func copy(_ source: String, to destination: String) throws -> Bool {
        do {
            try FileManager.default.copyItem(atPath: source, toPath: destination)
        } catch {
            if kind(source) == .missing { return false }
            throw SiteBuildError.fileSystem("cannot copy \(source) to \(destination): \(error.localizedDescription)")
        }
        return true
    }

    /// Moves `source` to `destination` within one file system.
    package static func move(_ source: String, to destination: String) throws {
        guard rename(source, destination) == 0 else {
            throw SiteBuildError.fileSystem("cannot move \(source) to \(destination): \(errorText())")
        }
    }

    /// Swaps two existing paths in one atomic step (Linux `renameat2(RENAME_EXCHANGE)`).
    /// Returns `false` when the kernel or file system cannot, so the caller falls back.
    static func exchange(_ first: String, _ second: String) -> Bool {
        #if os(Linux)
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        // Glibc declares renameat2 only under _GNU_SOURCE, which Swift's Glibc module does not set.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return false }
        let renameAt2 = unsafeBitCast(symbol, to: RenameAt2.self)
        let renameExchange: UInt32 = 1 << 1
        return renameAt2(AT_FDCWD, first, AT_FDCWD, second, renameExchange) == 0
        #else
        return false
        #endif
    }

    /// Deletes `path` and everything under it; a missing path is fine. Links are deleted, never
    /// followed. With `jobs` above 1, that many threads empty the folders at once, the fullest
    /// first: deleting the previous site at publish is otherwise a fifth of an append's time, and
    /// its search chunks fill one folder as full as all the rest together.
    package static func removeTree(_ path: String, jobs: Int = 1) {
        // A file, a link or nothing: done. Else a folder (`EISDIR`; `EPERM` on Darwin).
        if unlink(path) == 0 || errno == ENOENT { return }
        // Every folder under `path` with the names of its other entries, parents before children.
        var folders: [(path: String, others: [String])] = []
        var next = 0
        folders.append((path, []))
        while next < folders.count {
            let folder = folders[next].path
            let listed = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard listed >= 0 else { return }
            guard let stream = fdopendir(listed) else {
                close(listed)
                return
            }
            var others: [String] = []
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
                }
                if name == "." || name == ".." { continue }
                var isFolder = Int32(entry.pointee.d_type) == Int32(DT_DIR)
                if Int32(entry.pointee.d_type) == Int32(DT_UNKNOWN) {
                    var info = stat()
                    isFolder = lstat(folder + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
                }
                if isFolder { folders.append((folder + "/" + name, [])) } else { others.append(name) }
            }
            closedir(stream)
            folders[next].others = others
            next += 1
        }
        let fullestFirst = folders.indices.sorted { folders[$0].others.count > folders[$1].others.count }
        Parallel.forEach(fullestFirst.count, jobs: jobs) { order in
            let folder = folders[fullestFirst[order]]
            let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else { return }
            for name in folder.others { unlinkat(descriptor, name, 0) }
            close(descriptor)
        }
        for folder in folders.reversed() { rmdir(folder.path) }
    }

    /// Whether `path` itself is a symbolic link.
    package static func isSymlink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// The names in the folder at `path`, sorted; empty when it cannot be read.
    package static func entries(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    /// The absolute, symlink-free form of `path`; for a path that does not exist yet, its
    /// nearest existing ancestor is resolved and the rest appended.
    package static func canonicalPath(_ path: String) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        if let resolved = realpath(absolute, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        let parent = PathText.parent(absolute)
        if parent == absolute { return absolute }
        return PathText.appending(PathText.lastComponent(absolute), to: canonicalPath(parent))
    }

    /// The text of the current `errno`.
    static func errorText() -> String {
        String(cString: strerror(errno))
    }
}
