import Foundation
import ScrollbackModel
import ScrollbackReading

/// Finds the exports of other apps (spec §6) under an input folder, by their structure.
///
/// Walks like `InputDiscovery` (hidden and `_` names skipped, symlink loops ended). A folder an
/// importer of `.folder` shape recognises is one export and is not walked further; a `.json`,
/// `.txt` or `.zip` file is shown to the `.file` importers; a zip is unpacked (`ExportArchive`)
/// into `unpackFolder` and searched the same way. Files of one format in one folder come
/// together in one `DetectedExport`. The files exports claim are not read as logs.
public struct ExportDiscovery: Sendable {
    /// One export found, with where its media may be read from.
    public struct Found: Sendable {
        /// The export.
        public var export: DetectedExport
        /// The zip it came from, if any (diagnostics name it instead of the unpacked folder).
        public var zip: URL?
    }

    /// The input folder.
    public var inputRoot: URL
    /// `--format`: only this importer is asked.
    public var format: ExportFormat?
    /// Where zips are unpacked (a private folder the caller deletes).
    public var unpackFolder: URL
    /// Folders never walked (the output), canonical paths.
    public var excludedFolders: [String]

    /// Creates a discovery.
    public init(inputRoot: URL, format: ExportFormat? = nil, unpackFolder: URL, excluding: [URL] = []) {
        self.inputRoot = inputRoot
        self.format = format
        self.unpackFolder = unpackFolder
        self.excludedFolders = excluding.map { FileSystem.canonicalPath($0.path) }
    }

    /// File extensions shown to the file importers.
    static let candidateExtensions: Set<String> = ["json", "txt", "zip"]

    var importers: [any ExportImporter.Type] {
        ExportImporters.all.filter { format == nil || $0.format == format }
    }

    /// The exports under `inputRoot` (or `inputRoot` itself), the canonical paths of the files
    /// they claim (so they are not read as logs), and diagnostics (unreadable zips).
    public func find() -> (exports: [Found], claimed: Set<String>, diagnostics: [Diagnostic]) {
        var exports: [Found] = []
        var claimed: Set<String> = []
        var diagnostics: [Diagnostic] = []
        var zipNumber = 0
        let root = FileSystem.canonicalPath(inputRoot.path)
        var visited: Set<String> = [root]
        func search(folder: String, zip: URL?, mediaRoot: URL) {
            if let format = folderFormat(folder) {
                exports.append(
                    Found(
                        export: DetectedExport(
                            format: format, items: [URL(fileURLWithPath: folder)], root: mediaRoot), zip: zip))
                claimed.insert(folder)
                return
            }
            var byFormat: [ExportFormat: [URL]] = [:]
            // Links stay inside what is being read: the input folder, or the zip's unpacked copy.
            let boundary = zip == nil ? root : mediaRoot.path
            for name in FileSystem.entries(folder) where !InputDiscovery.isHidden(name) {
                let path = folder + "/" + name
                guard InputDiscovery.staysInside(path, root: boundary) else { continue }
                switch FileSystem.kind(path) {
                case .directory:
                    if zip == nil, folder == root, InputDiscovery.specialFolders.contains(name) { continue }
                    let canonical = FileSystem.canonicalPath(path)
                    guard !excludedFolders.contains(canonical), visited.insert(canonical).inserted else { continue }
                    search(folder: path, zip: zip, mediaRoot: mediaRoot)
                case .file:
                    let pathExtension = PathText.pathExtension(name).lowercased()
                    guard Self.candidateExtensions.contains(pathExtension) else { continue }
                    let candidate = ExportCandidate(url: URL(fileURLWithPath: path))
                    if ExportArchive.looksLikeZip(candidate.head) {
                        zipNumber += 1
                        let target = unpackFolder.appendingPathComponent("\(zipNumber)")
                        let shown = ReadingContextPaths.display(candidate.url, inputRoot: inputRoot)
                        do {
                            diagnostics += try ExportArchive.unpack(candidate.url, into: target, shownAs: shown)
                        } catch {
                            diagnostics.append(error)
                            continue
                        }
                        let unpacked = FileSystem.canonicalPath(target.path)
                        visited.insert(unpacked)
                        let before = exports.count
                        search(folder: unpacked, zip: candidate.url, mediaRoot: URL(fileURLWithPath: unpacked))
                        if exports.count > before { claimed.insert(FileSystem.canonicalPath(path)) }
                        continue
                    }
                    if let format = fileFormat(candidate) {
                        byFormat[format, default: []].append(candidate.url)
                        claimed.insert(FileSystem.canonicalPath(path))
                    }
                default: continue
                }
            }
            for format in ExportFormat.allCases {
                guard let items = byFormat[format] else { continue }
                exports.append(
                    Found(
                        export: DetectedExport(
                            format: format, items: items.sorted { $0.path < $1.path }, root: mediaRoot),
                        zip: zip))
            }
        }
        if FileSystem.kind(root) == .file {
            // A single file as INPUT: detected, or read as the `--format` it is named as.
            let candidate = ExportCandidate(url: URL(fileURLWithPath: root))
            let parent = URL(fileURLWithPath: PathText.parent(root))
            if ExportArchive.looksLikeZip(candidate.head) {
                let target = unpackFolder.appendingPathComponent("0")
                do {
                    diagnostics += try ExportArchive.unpack(
                        candidate.url, into: target, shownAs: candidate.url.lastPathComponent)
                    let unpacked = FileSystem.canonicalPath(target.path)
                    search(folder: unpacked, zip: candidate.url, mediaRoot: URL(fileURLWithPath: unpacked))
                } catch {
                    diagnostics.append(error)
                }
            } else if let format = fileFormat(candidate) ?? forcedFileFormat() {
                exports.append(Found(export: DetectedExport(format: format, items: [candidate.url], root: parent)))
            }
            claimed.insert(root)
            return (exports, claimed, diagnostics)
        }
        search(folder: root, zip: nil, mediaRoot: URL(fileURLWithPath: root))
        return (exports, claimed, diagnostics)
    }

    /// The `.folder` format whose importer recognises `folder`.
    func folderFormat(_ folder: String) -> ExportFormat? {
        let folderImporters = importers.filter { $0.shape == .folder }
        guard !folderImporters.isEmpty else { return nil }
        let candidate = ExportCandidate(url: URL(fileURLWithPath: folder))
        return folderImporters.first { $0.detect(candidate) }?.format
    }

    /// The `.file` format whose importer recognises `candidate`.
    func fileFormat(_ candidate: ExportCandidate) -> ExportFormat? {
        importers.first { $0.shape == .file && $0.detect(candidate) }?.format
    }

    /// `--format` of a file-shaped format: a single file named as it is read as it.
    func forcedFileFormat() -> ExportFormat? {
        guard let format, ExportImporters.importer(for: format)?.shape == .file else { return nil }
        return format
    }
}

/// Display paths as the readers show them (relative to the input folder's parent).
enum ReadingContextPaths {
    static func display(_ file: URL, inputRoot: URL) -> String {
        let root = inputRoot.standardizedFileURL.path
        let path = file.standardizedFileURL.path
        let base = PathText.parent(root)
        if path.hasPrefix(base + "/") { return String(path.dropFirst(base.count + 1)) }
        return path
    }
}
