import Foundation
import ScrollbackModel

#if canImport(Glibc)
import Glibc
#endif

/// The output folder and how a new site replaces it: built beside it in a hidden staging
/// folder, then swapped in with one rename, so readers see the old site or the new one, never
/// a mix, and a failed build leaves the old one untouched.
struct OutputFolder {
    /// Canonical path of the output folder (it may not exist yet).
    let path: String
    /// Canonical path of the staging folder, a hidden sibling: `.<name>.tmp-<pid>-<n>`.
    let stagingPath: String

    /// Process-wide counter, so two builds in one process (tests, `serve`) never share a staging folder.
    nonisolated(unsafe) private static var nextBuildNumber = 0
    private static let counterLock = NSLock()

    /// Checks that `output` may be replaced by a site built from `input`, and names its staging folder.
    ///
    /// Refused: the input folder itself, a folder that contains the input, something that is not
    /// a folder, and a non-empty folder without the `.scrollback` marker of a previous build
    /// (so `-o ~` cannot wipe a home folder).
    init(output: URL, input: URL) throws {
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
            if !entries.isEmpty, FileSystem.kind(outputPath + "/" + BuildManifest.folderName) != .directory {
                throw refuse(
                    "it is not empty and is not a previous Scrollback output (no \(BuildManifest.folderName) folder); "
                        + "expected an empty or new folder")
            }
        }
        Self.counterLock.lock()
        Self.nextBuildNumber += 1
        let buildNumber = Self.nextBuildNumber
        Self.counterLock.unlock()
        let parent = PathText.parent(outputPath)
        let name = PathText.lastComponent(outputPath)
        self.path = outputPath
        self.stagingPath = parent + "/.\(name).tmp-\(ProcessInfo.processInfo.processIdentifier)-\(buildNumber)"
    }

    /// Creates the empty staging folder (and the output's parent when missing), after deleting
    /// staging folders that builds killed mid-way left behind (their process is gone).
    func createStaging() throws {
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
    func discardStaging() {
        FileSystem.removeTree(stagingPath)
    }

    /// Puts the staged site in place of the output and deletes the old one.
    ///
    /// With an existing output the two folders are exchanged in one `renameat2` call; where
    /// that is unavailable, the old output is renamed aside, the new one renamed in, and the old
    /// one put back if that second rename fails.
    /// `usesExchange: false` forces the two-rename fallback (for tests).
    func publishStaging(usesExchange: Bool = true, jobs: Int = 1) throws {
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
