import Foundation
import ScrollbackModel

/// Why a build does not use a cache (it is then a clean one), said in the build's summary.
package struct CacheRefusal: Error, Equatable {
    /// The reason, as a clause: "there is no cache yet".
    package let reason: String

    package init(_ reason: String) {
        self.reason = reason
    }
}

/// One build's use of its `CacheLocation`: the folder made and checked, the previous build's
/// cache read, and the new one put in place after the site is published.
///
/// The new cache is built inside the staging folder (`BuildTree(staging:)`), moved beside
/// `current` before the site is published (copied when the cache is on another file system) and
/// exchanged with `current` after it, in one rename, like the output. It holds a stamp of the
/// output folder it goes with (`CacheLocation.outputStamp`): a build killed between the two
/// renames leaves a cache whose stamp is not the output's, which the next build does not use.
package struct CacheFolder {
    /// Where the cache is.
    package let location: CacheLocation
    /// Replaces `current`; its staging folder `.current.tmp-<pid>-<n>` receives the new cache.
    private let replacer: OutputFolder

    /// Makes the cache folder ready for a build: created if missing, refused (`CacheRefusal`)
    /// when it is not a folder, cannot be created or written, or is a non-empty folder without
    /// Scrollback's `CACHEDIR.TAG` (so `--cache-dir ~` never deletes anything of the user's).
    /// Staging folders of builds that died are deleted.
    package init(location: CacheLocation) throws(CacheRefusal) {
        self.location = location
        let folder = location.folder
        let tag = folder + "/" + CacheLocation.tagName
        switch FileSystem.kind(folder) {
        case .missing: break
        case .file, .other: throw CacheRefusal("\(folder) is not a folder")
        case .directory:
            if !FileSystem.entries(folder).isEmpty, !Self.isOurTag(tag) {
                throw CacheRefusal(
                    "\(folder) is not empty and is not a Scrollback cache (no \(CacheLocation.tagName) of Scrollback's); "
                        + "expected an empty or new folder")
            }
        }
        replacer = OutputFolder(replacing: location.current)
        do {
            try FileSystem.makeDirectory(folder)
            if !Self.isOurTag(tag) { try FileSystem.writeFile(Array(CacheLocation.tagText.utf8), to: tag) }
            try replacer.createStaging()
        } catch {
            throw CacheRefusal("cannot create the cache folder \(folder): \(error)")
        }
    }

    /// Whether `path` is the cache-directory tag Scrollback writes.
    private static func isOurTag(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path) else { return false }
        let text = String(decoding: data, as: UTF8.self)
        return text.hasPrefix(CacheLocation.tagText.prefix { $0 != "\n" }) && text.contains("Scrollback")
    }

    /// The previous build's cache, as a build tree with the output at `outputPath`, and its
    /// manifest; or why there is none to use.
    package func previous(outputPath: String) -> Result<(tree: BuildTree, manifest: BuildManifest), CacheRefusal> {
        let tree = BuildTree(site: outputPath, cache: location.current)
        let manifest: BuildManifest
        switch BuildManifest.load(in: tree) {
        case .success(let loaded): manifest = loaded
        case .failure(let refusal): return .failure(refusal)
        }
        let stamp = FileManager.default.contents(atPath: location.current + "/" + CacheLocation.stampName)
        guard let expected = CacheLocation.outputStamp(of: outputPath), stamp == Data(expected.utf8) else {
            return .failure(CacheRefusal("the cache was written for another site in \(outputPath)"))
        }
        return .success((tree, manifest))
    }

    /// Moves the cache the build staged at `staged` beside `current`, stamped with the staged
    /// site's folder `stagingSite` (which becomes the output). Called before the site is published.
    package func stage(_ staged: String, stagingSite: String) throws {
        guard let stamp = CacheLocation.outputStamp(of: stagingSite) else {
            throw SiteBuildError.fileSystem("cannot read the staging folder \(stagingSite): \(FileSystem.errorText())")
        }
        try FileSystem.makeDirectory(staged)
        try FileSystem.writeFile(Array(stamp.utf8), to: staged + "/" + CacheLocation.stampName)
        // `createStaging` made an empty folder there: a rename replaces an empty folder.
        if rename(staged, replacer.stagingPath) == 0 { return }
        // Another file system (`EXDEV`): copy, then the staged tree is deleted with the staging folder.
        FileSystem.removeTree(replacer.stagingPath)
        do {
            try FileManager.default.copyItem(atPath: staged, toPath: replacer.stagingPath)
        } catch {
            throw SiteBuildError.fileSystem(
                "cannot copy the cache to \(replacer.stagingPath): \(error.localizedDescription)")
        }
    }

    /// Puts the staged cache in place of `current` (after the site is published); on failure
    /// `current` is deleted, so the next build is a clean one rather than one trusting a cache
    /// of the previous site.
    package func publish() throws {
        do {
            try replacer.publishStaging()
        } catch {
            FileSystem.removeTree(location.current)
            throw error
        }
    }

    /// Deletes the staged cache: the failure path.
    package func discardStaging() {
        replacer.discardStaging()
    }
}
