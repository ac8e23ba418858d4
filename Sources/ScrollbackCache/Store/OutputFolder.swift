import Foundation
import ScrollbackModel

#if canImport(Glibc)
import Glibc
#endif

/// The output folder and how a new site replaces it: built beside it in a hidden staging
/// folder, then swapped in with one rename, so readers see the old site or the new one, never
/// a mix, and a failed build leaves the old one untouched.
package struct OutputFolder {
    /// Canonical path of the output folder (it may not exist yet).
    package let path: String
    /// Canonical path of the staging folder, a hidden sibling: `.<name>.tmp-<pid>-<n>`.
    package let stagingPath: String

    /// Process-wide counter, so two builds in one process (tests, `serve`) never share a staging folder.
    nonisolated(unsafe) private static var nextBuildNumber = 0
    private static let counterLock = NSLock()

    /// Checks that `output` may be replaced by a site built from `input`, and names its staging folder.
    ///
    /// Refused: the input folder itself, a folder that contains the input, something that is not
    /// a folder, and a non-empty folder that does not hold a Scrollback site
    /// (`holdsSite`; so `-o ~` cannot wipe a home folder).
    package init(output: URL, input: URL) throws {
        let outputPath = FileSystem.canonicalPath(output.path)
        let inputPath = FileSystem.canonicalPath(input.path)
        func refuse(_ reason: String) -> SiteBuildError { .unsafeOutput(path: output.path, reason: reason) }
        if outputPath == inputPath { throw refuse("it is the input folder") }
        if outputPath == "/" || inputPath.hasPrefix(outputPath + "/") { throw refuse("it contains the input folder") }
        switch FileSystem.kind(outputPath) {
        case .missing: break
        case .file, .other: throw refuse("it exists and is not a folder")
        case .directory:
            let entries = FileSystem.entries(outputPath)
            if !entries.isEmpty, !Self.holdsSite(outputPath) {
                throw refuse(
                    "it is not empty and is not a previous Scrollback output (no index.html beside "
                        + "assets/scrollback.css); expected an empty or new folder")
            }
        }
        self.init(replacing: outputPath)
    }

    /// Whether `folder` holds a Scrollback site (an earlier output): its index page beside the
    /// site's stylesheet, or the cache manifest outputs built before issue 44 held. Its pages are
    /// not logs (`InputDiscovery.holdsSite`), and a build may replace it.
    package static func holdsSite(_ folder: String) -> Bool {
        FileSystem.kind(CacheLocation.legacyTree(ofOutput: folder).cache + "/" + CacheLocation.manifestName) == .file
            || FileSystem.kind(folder + "/index.html") == .file
                && FileSystem.kind(folder + "/assets/scrollback.css") == .file
    }

    /// The folder at canonical path `path`, replaced as an output is but without its checks: the
    /// build cache's `current` folder (`CacheFolder`), which only Scrollback writes.
    package init(replacing path: String) {
        Self.counterLock.lock()
        Self.nextBuildNumber += 1
        let buildNumber = Self.nextBuildNumber
        Self.counterLock.unlock()
        self.path = path
        self.stagingPath =
            PathText.parent(path) + "/.\(PathText.lastComponent(path)).tmp-"
            + "\(ProcessInfo.processInfo.processIdentifier)-\(buildNumber)"
    }

    /// Creates the empty staging folder (and the output's parent when missing), after deleting
    /// staging folders that builds killed mid-way left behind (their process is gone).
    package func createStaging() throws {
        let parent = PathText.parent(path)
        try FileSystem.makeDirectory(parent)
        removeAbandonedStagingFolders(in: parent)
        FileSystem.removeTree(stagingPath)
        do {
            try FileManager.default.createDirectory(atPath: stagingPath, withIntermediateDirectories: false)
        } catch {
            throw SiteBuildError.fileSystem(
                "cannot create the staging folder \(stagingPath): \(error.localizedDescription)")
        }
    }

    /// Deletes `.<name>.tmp-<pid>-…` siblings whose process no longer runs.
    private func removeAbandonedStagingFolders(in parent: String) {
        let prefix = ".\(PathText.lastComponent(path)).tmp-"
        for name in FileSystem.entries(parent) where name.hasPrefix(prefix) {
            let digits = name.dropFirst(prefix.count).prefix { $0.isNumber }
            guard let pid = Int32(digits), pid != ProcessInfo.processInfo.processIdentifier else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { FileSystem.removeTree(parent + "/" + name) }
        }
    }

    /// Deletes the staging folder: the failure path, which leaves the output as it was.
    package func discardStaging() {
        FileSystem.removeTree(stagingPath)
    }

    /// Puts the staged site in place of the output and deletes the old one.
    ///
    /// With an existing output the two folders are exchanged in one `renameat2` call; where
    /// that is unavailable, the old output is renamed aside, the new one renamed in, and the old
    /// one put back if that second rename fails.
    /// `usesExchange: false` forces the two-rename fallback (for tests).
    package func publishStaging(usesExchange: Bool = true, jobs: Int = 1) throws {
        guard FileSystem.kind(path) != .missing else {
            try FileSystem.move(stagingPath, to: path)
            return
        }
        if usesExchange, FileSystem.exchange(stagingPath, path) {
            // The staging path now holds the previous site.
            FileSystem.removeTree(stagingPath, jobs: jobs)
            return
        }
        let asidePath = stagingPath + ".old"
        try FileSystem.move(path, to: asidePath)
        do {
            try FileSystem.move(stagingPath, to: path)
        } catch {
            try? FileSystem.move(asidePath, to: path)
            throw error
        }
        FileSystem.removeTree(asidePath, jobs: jobs)
    }
}

/// An advisory lock on an output folder, held for a whole build, so two builds (two terminals,
/// `serve` and `build`) never write into one output at once: interleaved, they would publish
/// pages from different inputs that the next build trusts (issue 40.7).
///
/// The lock is `flock` on `.<name>.lock` beside the output (not inside it: the output is
/// swapped out by the build). The file is deleted on release, so nothing is left beside the
/// site; a build that locked a file another build deleted meanwhile sees that its inode is no
/// longer the path's, and takes the lock again on the new file.
package final class OutputLock: @unchecked Sendable {
    /// The lock file's path.
    package let path: String
    /// The locked file, `-1` once released; guarded by `guardLock` (`release` may come from
    /// another thread than the build's, as in `serve`).
    private var descriptor: Int32
    private let guardLock = NSLock()

    /// The lock file of the output at canonical path `outputPath`.
    static func lockPath(forOutput outputPath: String) -> String {
        PathText.parent(outputPath) + "/." + PathText.lastComponent(outputPath) + ".lock"
    }

    /// Takes the lock of `outputPath`, waiting up to `wait` seconds for another build to finish;
    /// throws `SiteBuildError.outputLocked` when it does not (naming that build's process).
    package init(outputPath: String, wait: Double) throws {
        path = Self.lockPath(forOutput: outputPath)
        // The lock sits beside the output: its parent is made now (as `createStaging` would).
        do {
            try FileSystem.makeDirectory(PathText.parent(outputPath))
        } catch {
            throw SiteBuildError.fileSystem("cannot create the folder of \(outputPath): \(error.localizedDescription)")
        }
        let deadline = Date().addingTimeInterval(max(wait, 0))
        while true {
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                throw SiteBuildError.fileSystem("cannot create the lock file \(path): \(FileSystem.errorText())")
            }
            if flock(fd, LOCK_EX | LOCK_NB) == 0 {
                // The file may have been deleted by the build that held it, between our open and lock.
                var held = stat()
                var named = stat()
                if fstat(fd, &held) == 0, stat(path, &named) == 0, held.st_ino == named.st_ino,
                    held.st_dev == named.st_dev
                {
                    descriptor = fd
                    let pid = Array("\(ProcessInfo.processInfo.processIdentifier)\n".utf8)
                    _ = ftruncate(fd, 0)
                    _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
                    return
                }
                close(fd)
                continue
            }
            let holder = Self.holder(fd)
            close(fd)
            if Date() >= deadline { throw SiteBuildError.outputLocked(path: outputPath, holder: holder) }
            usleep(50_000)
        }
    }

    /// The process id the holder wrote into the lock file, if any.
    private static func holder(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Deletes the lock file and releases the lock (once; later calls do nothing).
    package func release() {
        guardLock.lock()
        defer { guardLock.unlock() }
        guard descriptor >= 0 else { return }
        unlink(path)
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
