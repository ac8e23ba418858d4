import Foundation
import ScrollbackCache
import ScrollbackModel
import ScrollbackReading

/// Finds the exports of other apps (spec §6) under an input folder, by their structure.
///
/// Walks like `InputDiscovery`, with one difference: only `.` names are skipped. A leading `_`
/// belongs to an export as much as any other name (iOS WhatsApp's `_chat.txt`,
/// DiscordChatExporter-frontend's `_threads/`), so the `_` rule of the site's own folders
/// never hides an export file. Folders that hold a Scrollback site (an earlier output) are
/// skipped with a note. A folder an importer of `.folder` shape recognises is one export and
/// is not walked further; a `.json`, `.txt`, `.zip` or `.log` file is shown to the `.file` importers; a
/// zip whose entry names could hold an export is unpacked (`ExportArchive`) into `unpackFolder`,
/// spending one `ExportArchive.Budget` for the whole input, and searched the same way. Files of
/// one format in one folder come together in one `DetectedExport`, whose media root is that
/// folder (or the folder an importer claimed): an export reads no media outside its own folder.
/// The files exports claim are not read as logs.
///
/// Nothing is passed over in silence: a candidate file no importer claims gets a warning
/// saying what it looks like (`UnsupportedFormat`), unless it is a log the log reader reads,
/// or a README-like text file (a note, shown with `--verbose`).
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
    /// Where zips are unpacked (a private folder outside the output, which the caller deletes).
    public var unpackFolder: URL
    /// Folders never walked (the output), canonical paths.
    public var excludedFolders: [String]
    /// What the input's zips may unpack in all (nested zips included).
    public var unpackBudget = ExportArchive.Budget()

    /// Creates a discovery.
    public init(inputRoot: URL, format: ExportFormat? = nil, unpackFolder: URL, excluding: [URL] = []) {
        self.inputRoot = inputRoot
        self.format = format
        self.unpackFolder = unpackFolder
        self.excludedFolders = excluding.map { FileSystem.canonicalPath($0.path) }
    }

    /// File extensions shown to the file importers.
    static let candidateExtensions = ExportArchive.exportFileExtensions

    var importers: [any ExportImporter.Type] {
        ExportImporters.all.filter { format == nil || $0.format == format }
    }

    /// Where a walk is: inside a zip (its unpacked copy and how diagnostics name it) or in the
    /// input folder, and whether the log walk (`InputDiscovery`) reads the same files.
    private struct Place {
        /// The zip's unpacked folder and its display name, `nil` outside zips.
        var zip: (url: URL, unpacked: String, shown: String)?
        /// Whether `.json` files here are read as logs when no importer claims them.
        var readsLogs: Bool
    }

    /// The exports under `inputRoot` (or `inputRoot` itself), the canonical paths of the files
    /// they claim (so they are not read as logs), and diagnostics (unreadable zips, files no
    /// importer reads, skipped site folders).
    public func find() -> (exports: [Found], claimed: Set<String>, diagnostics: [Diagnostic]) {
        let findings = findings()
        return (findings.exports, findings.claimed, findings.diagnostics)
    }

    /// What `find` finds, with the diagnostics about one file that no importer reads told apart.
    public struct Findings: Sendable {
        /// The exports found.
        public var exports: [Found]
        /// The canonical paths of the files they claim.
        public var claimed: Set<String>
        /// Every diagnostic, in the order of the walk.
        public var diagnostics: [Diagnostic]
        /// For the diagnostics (by index) that say what a file no importer reads is: its
        /// canonical path. A log or an export may attach that file (a `notes.txt` in `media/`):
        /// the builder drops what is said about the files its conversations ship as media.
        public var unreadFiles: [Int: String]
    }

    /// The same as `find`, telling apart what is said about files no importer reads.
    public func findings() -> Findings {
        var walk = Walk(discovery: self)
        let root = FileSystem.canonicalPath(inputRoot.path)
        if FileSystem.kind(root) == .file {
            walk.single(file: root)
        } else {
            walk.visited.insert(root)
            walk.search(folder: root, place: Place(zip: nil, readsLogs: true), root: root)
        }
        return Findings(
            exports: walk.exports, claimed: walk.claimed, diagnostics: walk.diagnostics, unreadFiles: walk.unreadFiles)
    }

    /// One walk's state.
    private struct Walk {
        let discovery: ExportDiscovery
        var exports: [Found] = []
        var claimed: Set<String> = []
        var diagnostics: [Diagnostic] = []
        var visited: Set<String> = []
        /// `Findings.unreadFiles`.
        var unreadFiles: [Int: String] = [:]
        var zipNumber = 0
        var budget: ExportArchive.Budget

        init(discovery: ExportDiscovery) {
            self.discovery = discovery
            self.budget = discovery.unpackBudget
        }

        /// How diagnostics name `path`.
        func shown(_ path: String, _ place: Place) -> String {
            if let zip = place.zip, path.hasPrefix(zip.unpacked + "/") {
                return zip.shown + "/" + path.dropFirst(zip.unpacked.count + 1)
            }
            return ReadingContextPaths.display(URL(fileURLWithPath: path), inputRoot: discovery.inputRoot)
        }

        /// A single file given as INPUT: detected, or read as the `--format` it is named as.
        mutating func single(file root: String) {
            let candidate = ExportCandidate(url: URL(fileURLWithPath: root))
            let parent = URL(fileURLWithPath: PathText.parent(root))
            if ExportArchive.looksLikeZip(candidate.head) {
                unpack(candidate, shownAs: candidate.url.lastPathComponent, within: Place(zip: nil, readsLogs: false))
            } else if let format = discovery.fileFormat(candidate) ?? discovery.forcedFileFormat() {
                exports.append(Found(export: DetectedExport(format: format, items: [candidate.url], root: parent)))
            } else if let unsupported = UnsupportedFormat.recognise(candidate) {
                diagnostics.append(Self.unsupported(unsupported, at: candidate.url.lastPathComponent))
            }
            claimed.insert(root)
        }

        /// Walks `folder`; `root` bounds where links may lead (the input, or the zip's copy).
        mutating func search(folder: String, place: Place, root: String) {
            if let format = discovery.folderFormat(folder) {
                exports.append(
                    Found(
                        export: DetectedExport(
                            format: format, items: [URL(fileURLWithPath: folder)], root: URL(fileURLWithPath: folder)),
                        zip: place.zip?.url))
                claimed.insert(folder)
                return
            }
            var byFormat: [ExportFormat: [URL]] = [:]
            // Files no importer claims, judged once the folder is read: beside an export they are
            // its side files (ChatGPT's `user.json`), elsewhere they are named.
            var unread: [(candidate: ExportCandidate, shown: String, place: Place)] = []
            let atTop = place.zip == nil && folder == FileSystem.canonicalPath(discovery.inputRoot.path)
            for name in FileSystem.entries(folder) where !name.hasPrefix(".") {
                let path = folder + "/" + name
                guard InputDiscovery.staysInside(path, root: root) else { continue }
                // The site's own `_site`, `_drafts`: the log walk skips them, exports in them count.
                var inner = place
                if atTop, InputDiscovery.isSiteOwn(name) { inner.readsLogs = false }
                switch FileSystem.kind(path) {
                case .directory:
                    if atTop, InputDiscovery.specialFolders.contains(name) { continue }
                    let canonical = FileSystem.canonicalPath(path)
                    guard !discovery.excludedFolders.contains(canonical), visited.insert(canonical).inserted else {
                        continue
                    }
                    if InputDiscovery.holdsSite(path) {
                        diagnostics.append(
                            Diagnostic(
                                .note, .other("holds a Scrollback site (an earlier output); skipped, not read as logs"),
                                at: SourceLocation(file: shown(path, place), line: 1, column: 1)))
                        continue
                    }
                    search(folder: path, place: inner, root: root)
                case .file:
                    let pathExtension = PathText.pathExtension(name).lowercased()
                    guard ExportDiscovery.candidateExtensions.contains(pathExtension) else { continue }
                    if atTop, InputDiscovery.configFileNames.contains(name) { continue }
                    let candidate = ExportCandidate(url: URL(fileURLWithPath: path))
                    if ExportArchive.looksLikeZip(candidate.head) {
                        if unpack(candidate, shownAs: shown(path, place), within: inner) {
                            claimed.insert(FileSystem.canonicalPath(path))
                        }
                        continue
                    }
                    if let format = fileFormat(candidate) {
                        byFormat[format, default: []].append(candidate.url)
                        claimed.insert(FileSystem.canonicalPath(path))
                    } else {
                        unread.append((candidate, shown(path, place), inner))
                    }
                default: continue
                }
            }
            let formats = ExportFormat.allCases.filter { byFormat[$0] != nil }.map(\.rawValue)
            for (candidate, shown, place) in unread {
                let diagnostic =
                    formats.isEmpty
                    ? unclaimed(candidate, shown: shown, place: place)
                    : sideFile(candidate, shown: shown, place: place, formats: formats)
                guard let diagnostic else { continue }
                let canonical = FileSystem.canonicalPath(candidate.url.path)
                unreadFiles[diagnostics.count] = canonical
                diagnostics.append(diagnostic)
                // Not also read as a broken log.
                claimed.insert(canonical)
            }
            for format in ExportFormat.allCases {
                guard let items = byFormat[format] else { continue }
                exports.append(
                    Found(
                        export: DetectedExport(
                            format: format, items: items.sorted { $0.path < $1.path },
                            root: URL(fileURLWithPath: folder)),
                        zip: place.zip?.url))
            }
        }

        /// The importer format of `candidate`.
        func fileFormat(_ candidate: ExportCandidate) -> ExportFormat? { discovery.fileFormat(candidate) }

        /// What to say about a candidate file no importer claims, or `nil` for a log the log
        /// reader reads (it reports its own errors).
        func unclaimed(_ candidate: ExportCandidate, shown: String, place: Place) -> Diagnostic? {
            if let unsupported = UnsupportedFormat.recognise(candidate) {
                return Self.unsupported(unsupported, at: shown)
            }
            let name = candidate.url.lastPathComponent
            let location = SourceLocation(file: shown, line: 1, column: 1)
            switch PathText.pathExtension(name).lowercased() {
            case "json":
                // A Messenger or Instagram download's profile and settings files: no chat, no log.
                if !candidate.topLevelJSONKeys.contains("messages"),
                    MetaImporter.liesInDownload(
                        candidate.url.path,
                        within: place.zip?.unpacked ?? FileSystem.canonicalPath(discovery.inputRoot.path))
                {
                    return Diagnostic(
                        .note, .other("part of a Messenger or Instagram download, holds no chat; skipped"), at: location
                    )
                }
                if place.readsLogs { return nil }
                let keys = candidate.topLevelJSONKeys
                if keys.contains("messages"), keys.contains("participants") || keys.contains("version") {
                    return Diagnostic(
                        .note, .other("a Scrollback log outside the logs the build reads; skipped"), at: location)
                }
            case "txt":
                if let stamp = UnsupportedFormat.unrecognisedChatStamp(candidate) {
                    return .warning(
                        .other("a WhatsApp chat in a date format not recognised: `\(stamp)`; it is not built"),
                        at: location)
                }
                if NotAChatFile.isDocumentation(name) {
                    return Diagnostic(.note, .other("a text file, not a chat export; skipped"), at: location)
                }
            case "log", "weechatlog":
                // Read as exports only for IRC logs: any other log (a program's) is no chat.
                return Diagnostic(.note, .other("a log file, not an IRC log; skipped"), at: location)
            default: break
            }
            return .warning(.other("not a chat export Scrollback reads; it is not built"), at: location)
        }

        /// What to say about a file beside an export that no importer claims: a note for JSON
        /// (ChatGPT's `user.json`, `message_feedback.json`), or what `unclaimed` says when it is
        /// another app's export or text (a `notes.txt` beside a WhatsApp chat is no part of it);
        /// `nil` for what may be a log (it holds `messages`) the log reader reads.
        func sideFile(_ candidate: ExportCandidate, shown: String, place: Place, formats: [String]) -> Diagnostic? {
            if PathText.pathExtension(candidate.url.path).lowercased() != "json"
                || UnsupportedFormat.recognise(candidate) != nil
                || UnsupportedFormat.unrecognisedChatStamp(candidate) != nil
            {
                return unclaimed(candidate, shown: shown, place: place)
            }
            // Something with `messages` (a key the sniff may miss past a syntax error) is a chat that
            // did not read (a broken export, a log): the
            // log reader reports it, or it is named; never a quiet note.
            if candidate.topLevelJSONKeys.contains("messages")
                || candidate.head.firstRange(of: Array(#""messages""#.utf8)) != nil
            {
                return place.readsLogs ? nil : unclaimed(candidate, shown: shown, place: place)
            }
            return Diagnostic(
                .note, .other("beside a \(formats.joined(separator: ", ")) export, holds no chat; skipped"),
                at: SourceLocation(file: shown, line: 1, column: 1))
        }

        /// The warning for a file of a format no importer reads yet.
        static func unsupported(_ format: UnsupportedFormat, at shown: String) -> Diagnostic {
            .warning(
                .other("\(format.description): not supported yet; it is not built"),
                at: SourceLocation(file: shown, line: 1, column: 1))
        }

        /// Unpacks the zip `candidate` and searches it; whether it held an export. Its export-like
        /// files come first; its other files (media) only when an export was found in them. A
        /// zip holding none is named in a warning (unless a file in it already got one).
        @discardableResult
        mutating func unpack(_ candidate: ExportCandidate, shownAs: String, within place: Place) -> Bool {
            zipNumber += 1
            let target = discovery.unpackFolder.appendingPathComponent("\(zipNumber)")
            let location = SourceLocation(file: shownAs, line: 1, column: 1)
            func unpack(_ part: ExportArchive.Part) -> ExportArchive.Unpacked? {
                do {
                    return try ExportArchive.unpack(
                        candidate.url, into: target, shownAs: shownAs, part: part, budget: &budget)
                } catch {
                    FileSystem.removeTree(target.path)
                    diagnostics.append(error)
                    return nil
                }
            }
            guard let result = unpack(.exportFiles) else { return false }
            diagnostics += result.warnings
            guard result.unpacked else {
                diagnostics.append(
                    .warning(
                        .other("a zip with no export in it (no .json, .txt or .zip entry); it is not built"),
                        at: location))
                return false
            }
            let unpacked = FileSystem.canonicalPath(target.path)
            visited.insert(unpacked)
            let exportsBefore = exports.count
            let diagnosticsBefore = diagnostics.count
            search(
                folder: unpacked, place: Place(zip: (candidate.url, unpacked, shownAs), readsLogs: false),
                root: unpacked)
            if exports.count > exportsBefore {
                guard let media = unpack(.rest) else {
                    // Over the budget or out of disk: nothing of this zip is read.
                    exports.removeSubrange(exportsBefore...)
                    return false
                }
                diagnostics += media.warnings
                return true
            }
            let saidSomething = diagnostics[diagnosticsBefore...].contains { $0.severity != .note }
            if !saidSomething {
                diagnostics.append(.warning(.other("a zip with no export in it; it is not built"), at: location))
            }
            FileSystem.removeTree(target.path)
            return false
        }
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
