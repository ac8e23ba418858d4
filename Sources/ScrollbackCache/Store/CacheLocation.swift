import Foundation
import ScrollbackModel

#if canImport(Glibc)
import Glibc
#endif

/// Where the build cache of one output lives (issue 44): never in the output, which holds only
/// the site, so uploading the folder never publishes the cache (95 MB at a million messages).
///
/// `--cache-dir` names the folder; by default it is `$XDG_CACHE_HOME/scrollback/<key>` (or
/// `$HOME/.cache/scrollback/<key>`), the key naming the output and hashing the input and output
/// paths, so two outputs of one input never share a cache. The folder holds `CACHEDIR.TAG`
/// (backup tools skip it; it also marks the folder as ours), `current/` (the last build's cache)
/// and, during a build, `.tmp-<pid>-<n>/` (the next one), swapped in after the site is published.
/// This type is the one place that names these paths and the cache's folder inside the staging
/// folder.
public struct CacheLocation: Sendable, Equatable {
    /// The cache folder (absolute).
    public let folder: String

    /// The cache's folder inside the staging folder while a build runs (it is moved out before
    /// the site is published), and the cache folder that outputs built before issue 44 hold.
    package static let stagedName = ".scrollback"
    /// The manifest's file name inside a cache tree.
    static let manifestName = "manifest.json"
    /// The file of a cache tree naming the output folder it goes with (`outputStamp`).
    static let stampName = "output-stamp"
    /// The cache-directory tag (https://bford.info/cachedir/): backup tools skip the folder.
    static let tagName = "CACHEDIR.TAG"
    static let tagText = """
        Signature: 8a477f597d28d172789f06886806bc55
        # This folder is a Scrollback build cache: deleting it only makes the next build a clean one.

        """

    /// A cache in `folder`.
    public init(folder: String) {
        self.folder = folder
    }

    /// The last build's cache.
    package var current: String { folder + "/current" }

    /// The cache of building `input` into `output`: `cacheDirectory` when given, else
    /// `$XDG_CACHE_HOME/scrollback/<key>`, else `$HOME/.cache/scrollback/<key>`; `nil` when
    /// neither variable names an absolute folder. Paths are made absolute and symlink-free first.
    public static func resolve(
        cacheDirectory: URL?, input: URL, output: URL,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> CacheLocation? {
        if let cacheDirectory { return CacheLocation(folder: FileSystem.canonicalPath(cacheDirectory.path)) }
        // The XDG base directory spec ignores a relative XDG_CACHE_HOME.
        let base: String
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = home + "/.cache"
        } else {
            return nil
        }
        let key = Self.key(
            input: FileSystem.canonicalPath(input.path), output: FileSystem.canonicalPath(output.path))
        return CacheLocation(folder: FileSystem.canonicalPath(base) + "/scrollback/" + key)
    }

    /// `<output folder's name>-<fingerprint of the input and output paths>`: readable in a
    /// listing of `~/.cache/scrollback`, and different for every pair of paths.
    package static func key(input: String, output: String) -> String {
        let name = PathText.lastComponent(output).unicodeScalars.map { scalar -> String in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_")
                ? String(scalar) : "-"
        }.joined()
        let fingerprint = ContentFingerprint.hex(of: Array((input + "\u{0}" + output).utf8)[...])
        return String(name.prefix(40)) + "-" + fingerprint
    }

    /// The cache tree an output built before issue 44 holds (`<output>/.scrollback`), as the
    /// previous build's tree: read once, so the first build after the move is incremental too.
    package static func legacyTree(ofOutput outputPath: String) -> BuildTree {
        BuildTree(staging: outputPath)
    }

    /// What the stamp of a cache says about the output at `outputPath`: its folder's device and
    /// inode. The staging folder becomes the output by a rename, which keeps them; a cache whose
    /// stamp is not the output's was written for another site there (a build killed between
    /// publishing the site and its cache, an output deleted or copied), so it is not used.
    static func outputStamp(of path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return "\(info.st_dev):\(info.st_ino)\n"
    }
}

/// A build's files under their site-relative names: the site's under `site`, the cache's
/// (`.scrollback/…` while staged) under `cache`. The staging folder holds both; the previous
/// build's site is the output and its cache the `CacheLocation`'s `current` folder.
package struct BuildTree: Sendable, Equatable {
    /// The site's folder.
    package let site: String
    /// The cache's folder.
    package let cache: String

    /// A site and a cache kept apart.
    package init(site: String, cache: String) {
        self.site = site
        self.cache = cache
    }

    /// The staging folder at `root`, whose cache is inside it.
    package init(staging root: String) {
        self.init(site: root, cache: root + "/" + CacheLocation.stagedName)
    }

    /// The absolute path of `relative`, a site path or a cache path (`.scrollback/search/a.bin`).
    package func path(_ relative: String) -> String {
        let prefix = CacheLocation.stagedName + "/"
        if relative.hasPrefix(prefix) { return cache + "/" + relative.dropFirst(prefix.count) }
        return site + "/" + relative
    }

    /// The site-relative name of the cache file `name` (`search/a.bin` → `.scrollback/search/a.bin`).
    static func cachePath(_ name: String) -> String {
        CacheLocation.stagedName + "/" + name
    }
}
