import Foundation
import ScrollbackCache
import ScrollbackModel
import ScrollbackReading

/// Finds the conversation logs in an input folder.
///
/// Rules (documented in ARCHITECTURE.md): every `*.json`, `*.md` and `*.markdown` file, at
/// any depth, except the site config (`scrollback.yml`, `.yaml`, `.json` at the top), the
/// special folders `templates/` and `previews/` at the top, any file or folder whose name starts
/// with `.` (hidden), files and folders at the top whose name starts with `_` (the site's own:
/// `_site`, `_drafts`; deeper down a `_` name is an export's, such as `_threads/`), and any
/// folder that holds a Scrollback site (an earlier output; `ExportDiscovery` notes it). Media
/// folders are walked: a log
/// may sit beside its media. A link is followed only when its target is inside the input folder
/// (`InputContainment`): a link to a log, a folder or `/` elsewhere is skipped. Paths come back
/// sorted, so every later step sees one order.
public struct InputDiscovery: Sendable {
    /// The extensions of conversation logs, lowercased.
    public static let logExtensions: Set<String> = ["json", "md", "markdown"]
    /// The site config file names (`ConfigReader.fileNames`); not logs.
    public static let configFileNames = Set(ConfigReader.fileNames)
    /// Top-level folders that hold site files rather than logs.
    public static let specialFolders: Set<String> = ["templates", "previews"]

    /// The input folder.
    public var inputRoot: URL
    /// Folders never walked (the output folder when it sits inside the input), canonical paths.
    public var excludedFolders: [String]

    /// Creates a discovery over `inputRoot`, skipping `excludedFolders`.
    public init(inputRoot: URL, excluding excludedFolders: [URL] = []) {
        self.inputRoot = inputRoot
        self.excludedFolders = excludedFolders.map { FileSystem.canonicalPath($0.path) }
    }

    /// One discovered log.
    public struct Input: Hashable, Sendable {
        /// Path relative to the input folder, `/`-separated: the cache key.
        public var relativePath: String
        /// Absolute file URL.
        public var url: URL
    }

    /// The logs, sorted by relative path (byte order, so the result does not depend on locale).
    public func logs() -> [Input] {
        let root = FileSystem.canonicalPath(inputRoot.path)
        // An excluded input folder (an export given as INPUT) holds no logs.
        guard !excludedFolders.contains(root) else { return [] }
        var found: [Input] = []
        var visited: Set<String> = [root]
        walk(folder: root, relative: "", inputRoot: root, visited: &visited, into: &found)
        return found.sorted { Array($0.relativePath.utf8).lexicographicallyPrecedes(Array($1.relativePath.utf8)) }
    }

    /// Every file a build depends on, logs or not (media, templates, config, previews), with its
    /// stamp: what `serve` polls to notice a change. Skips the same hidden and excluded entries.
    func watchedFiles() -> [(relativePath: String, stamp: FileSystem.Stamp)] {
        let root = FileSystem.canonicalPath(inputRoot.path)
        var result: [(String, FileSystem.Stamp)] = []
        var visited: Set<String> = [root]
        func visit(_ folder: String, _ relative: String) {
            for name in FileSystem.entries(folder) where !Self.isHidden(name) {
                let path = folder + "/" + name
                let relativePath = relative.isEmpty ? name : relative + "/" + name
                guard Self.staysInside(path, root: root) else { continue }
                switch FileSystem.kind(path) {
                case .directory:
                    let canonical = FileSystem.canonicalPath(path)
                    guard !excludedFolders.contains(canonical), visited.insert(canonical).inserted else { continue }
                    if Self.holdsSite(path) { continue }
                    visit(path, relativePath)
                case .file:
                    if let stamp = FileSystem.stamp(path) { result.append((relativePath, stamp)) }
                default: break
                }
            }
        }
        visit(root, "")
        return result
    }

    /// Whether `path` is no link, or a link whose target is inside the (canonical) input folder.
    static func staysInside(_ path: String, root: String) -> Bool {
        !FileSystem.isSymlink(path) || InputContainment.resolves(path, inside: root)
    }

    /// Walks `folder`; `visited` holds canonical folder paths, so a symlink loop ends.
    private func walk(
        folder: String, relative: String, inputRoot: String, visited: inout Set<String>, into found: inout [Input]
    ) {
        for name in FileSystem.entries(folder) where !Self.isHidden(name) {
            if relative.isEmpty, Self.isSiteOwn(name) { continue }
            let path = folder + "/" + name
            let relativePath = relative.isEmpty ? name : relative + "/" + name
            guard Self.staysInside(path, root: inputRoot) else { continue }
            switch FileSystem.kind(path) {
            case .directory:
                if relative.isEmpty, Self.specialFolders.contains(name) { continue }
                let canonical = FileSystem.canonicalPath(path)
                guard !excludedFolders.contains(canonical), visited.insert(canonical).inserted else { continue }
                if Self.holdsSite(path) { continue }
                walk(folder: path, relative: relativePath, inputRoot: inputRoot, visited: &visited, into: &found)
            case .file:
                if relative.isEmpty, Self.configFileNames.contains(name) { continue }
                let pathExtension = PathText.pathExtension(name).lowercased()
                guard Self.logExtensions.contains(pathExtension) else { continue }
                found.append(Input(relativePath: relativePath, url: URL(fileURLWithPath: path)))
            case .missing, .other:
                continue
            }
        }
    }

    /// Names every walk skips, at any depth: hidden files and folders.
    static func isHidden(_ name: String) -> Bool {
        name.hasPrefix(".")
    }

    /// Names the log walk skips at the top of the input only: the site's own files and folders
    /// (`_site`, `_drafts`). Inside an export a leading `_` means nothing (`_chat.txt`).
    static func isSiteOwn(_ name: String) -> Bool {
        name.hasPrefix("_")
    }

    /// Whether `folder` holds a Scrollback site (an earlier output): its index page beside the
    /// site's stylesheet, or the cache manifest outputs built before issue 44 held. Its pages are
    /// not logs, and a build may replace it.
    static func holdsSite(_ folder: String) -> Bool {
        OutputFolder.holdsSite(folder)
    }
}
