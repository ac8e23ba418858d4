import CLibDeflate
import Foundation
import ScrollbackModel
import ZIPFoundation

#if canImport(Glibc)
import Glibc
#endif

/// Unpacks a zip export (Slack, WhatsApp with media) into a private folder, with ZIPFoundation.
///
/// The archive is untrusted: an entry whose path is absolute, holds `..`, a backslash or a NUL,
/// or is a symlink is skipped with a warning (zip-slip); a second entry of a name already
/// unpacked is skipped with a warning (the first one stays); and unpacking stops with a located
/// error once the input's `Budget` (bytes and entries of every zip and nested zip of one input
/// together) is spent (zip bombs). A zip whose entry names hold no export file is not unpacked.
/// Every write is checked: a full disk or a folder that cannot be written is a located error,
/// never a trap.
public enum ExportArchive {
    /// Largest total of bytes one input may unpack, all its zips together.
    public static let maximumBytes: UInt64 = 8 << 30
    /// Most entries one input may unpack, all its zips together.
    public static let maximumEntries = 1_000_000

    /// What one input may still unpack. One value is passed through every unpack of an input,
    /// nested zips included, so ten inner zips share one limit instead of having ten.
    public struct Budget: Sendable {
        /// The bytes the whole input may unpack.
        public let maximumBytes: UInt64
        /// The entries the whole input may unpack.
        public let maximumEntries: Int
        /// Bytes written so far.
        public private(set) var bytes: UInt64 = 0
        /// Entries written so far.
        public private(set) var entries = 0

        /// A budget of `maximumBytes` and `maximumEntries` for one input.
        public init(
            maximumBytes: UInt64 = ExportArchive.maximumBytes, maximumEntries: Int = ExportArchive.maximumEntries
        ) {
            self.maximumBytes = maximumBytes
            self.maximumEntries = maximumEntries
        }

        /// Counts `count` more bytes; `false` once the total is over the limit.
        mutating func spend(bytes count: Int) -> Bool {
            bytes += UInt64(count)
            return bytes <= maximumBytes
        }

        /// Counts one more entry; `false` once the total is over the limit.
        mutating func spendEntry() -> Bool {
            entries += 1
            return entries <= maximumEntries
        }

        /// The located error for a spent budget.
        func exceeded(at location: SourceLocation) -> Diagnostic {
            .error(
                .other(
                    "the zip archives of this input unpack to more than \(Self.describe(maximumBytes)) or "
                        + "\(maximumEntries) entries (nested zips count together); refused, expected a smaller export"),
                at: location)
        }

        static func describe(_ bytes: UInt64) -> String {
            bytes >= 1 << 30 ? "\(bytes >> 30) GiB" : bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
        }
    }

    /// What `unpack` did.
    public struct Unpacked: Sendable {
        /// Warnings: entries skipped (unsafe path, symlink, duplicate name, damaged data).
        public var warnings: [Diagnostic] = []
        /// Whether anything was unpacked: `false` when no entry name could be an export file
        /// (`.json`, `.txt`, `.zip`), so the zip was left packed.
        public var unpacked = false
    }

    /// Whether `head` (a file's first bytes) starts like a zip archive.
    public static func looksLikeZip(_ head: [UInt8]) -> Bool {
        head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06])
    }

    /// The file extensions an export file may have: a zip holding none is not unpacked.
    /// (`jsonl`: Mattermost's `import.jsonl`; IRC logs: `.log`, WeeChat's `.weechatlog`.)
    public static let exportFileExtensions: Set<String> = ["json", "txt", "zip", "jsonl", "log", "weechatlog"]

    /// Opens `path` for writing a new file (never through a link, never over a file): the
    /// default of `unpack`'s `open`, a seam the tests use to write to `/dev/full`.
    public static func openNewFile(_ path: String) -> Int32 {
        Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    }

    /// Which entries `unpack` writes: a zip is unpacked in two parts, so one that holds no
    /// export costs only its export-like files (`.json`, `.txt`, `.zip`), never its photos.
    public enum Part: Sendable {
        /// Folders and the files with an export file's extension; warnings for unsafe entries.
        case exportFiles
        /// The other files (media), once discovery found an export in the first part.
        case rest
        /// Everything at once.
        case all
    }

    /// Unpacks `part` of `zip` into `folder` (created), spending `budget`; `shownAs` names the
    /// zip in diagnostics. A zip none of whose entry names could be an export file is not
    /// unpacked (`Unpacked.unpacked` is `false`). Throws a located error when the archive cannot
    /// be read, the budget is spent, or a file cannot be written (a full disk); the caller
    /// deletes `folder`.
    public static func unpack(
        _ zip: URL, into folder: URL, shownAs: String, part: Part = .all, budget: inout Budget,
        open: (String) -> Int32 = openNewFile
    ) throws(Diagnostic) -> Unpacked {
        let location = SourceLocation(file: shownAs, line: 1, column: 1)
        func at(_ path: String) -> SourceLocation { SourceLocation(file: shownAs + "/" + path, line: 1, column: 1) }
        let archive: Archive
        do {
            archive = try Archive(url: zip, accessMode: .read)
        } catch {
            throw .error(.other("cannot read the zip archive (\(error)); expected a zip file"), at: location)
        }
        var result = Unpacked()
        // The central directory names every entry without extracting one: a zip of photos only
        // costs nothing. It is walked twice rather than held, so a large archive's entries are
        // never all in memory at once.
        let mayHoldExport = archive.contains { entry in
            entry.type == .file && safeComponents(entry.path).map { !isHiddenEntry($0) } == true
                && exportFileExtensions.contains(PathText.pathExtension(entry.path).lowercased())
        }
        guard mayHoldExport || part == .rest else { return result }
        result.unpacked = true
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .error(.fileSystem("cannot unpack the zip archive into a private folder: \(error)"), at: location)
        }
        var unpackedPaths: Set<String> = []
        for entry in archive {
            let path = entry.path
            guard let parts = safeComponents(path) else {
                guard part != .rest else { continue }  // said in the first part
                result.warnings.append(
                    .warning(.other("zip entry '\(path)' is skipped: its path leaves the archive"), at: at(path)))
                continue
            }
            // macOS metadata (`__MACOSX/`, `._name`) and hidden files: discovery never reads them.
            if isHiddenEntry(parts) { continue }
            let isExportFile =
                entry.type == .file && exportFileExtensions.contains(PathText.pathExtension(path).lowercased())
            switch part {
            case .exportFiles where entry.type == .file && !isExportFile: continue
            case .rest where entry.type != .file || isExportFile: continue
            default: break
            }
            guard budget.spendEntry() else { throw budget.exceeded(at: location) }
            let relative = parts.joined(separator: "/")
            switch entry.type {
            case .symlink:
                result.warnings.append(
                    .warning(.other("zip entry '\(path)' is a symlink and is skipped"), at: at(path)))
                continue
            case .directory:
                if try !makeFolder(relative, in: folder.path, shownAs: path, location: at(path)) {
                    result.warnings.append(conflict(path, at: at(path)))
                }
                continue
            case .file:
                break
            }
            guard unpackedPaths.insert(relative).inserted else {
                result.warnings.append(
                    .warning(
                        .other(
                            "zip entry '\(path)' appears twice in the archive; the first one is kept, this one is left out"
                        ), at: location))
                continue
            }
            let parent = parts.dropLast().joined(separator: "/")
            if !parent.isEmpty, try !makeFolder(parent, in: folder.path, shownAs: path, location: at(path)) {
                result.warnings.append(conflict(path, at: at(path)))
                continue
            }
            try write(
                entry, of: archive, to: folder.path + "/" + relative, shownAs: path, location: location,
                budget: &budget, open: open, warnings: &result.warnings)
        }
        return result
    }

    /// Writes one file entry; a damaged entry (one that does not inflate, or whose bytes do not
    /// match its CRC-32) is a warning and is left out (its partial file deleted), a write that
    /// fails or a spent budget an error.
    private static func write(
        _ entry: Entry, of archive: Archive, to destination: String, shownAs path: String, location: SourceLocation,
        budget: inout Budget, open: (String) -> Int32, warnings: inout [Diagnostic]
    ) throws(Diagnostic) {
        let entryLocation = SourceLocation(file: location.file + "/" + path, line: 1, column: 1)
        let descriptor = open(destination)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            if errno == EEXIST {
                // A folder entry and a file entry of one name, or a link planted by an earlier entry.
                warnings.append(
                    .warning(
                        .other("zip entry '\(path)' cannot be unpacked (\(reason)); it is left out"), at: entryLocation)
                )
                return
            }
            throw .error(.fileSystem("cannot unpack zip entry '\(path)': \(reason)"), at: entryLocation)
        }
        defer { _ = Glibc.close(descriptor) }
        var writeError: Diagnostic?
        var overBudget = false
        // ZIPFoundation's `extract` returns the checksum it computes but never compares it (only
        // its `unzipItem` does), and computes it in Swift, byte by byte: libdeflate's, compared
        // here, catches a damaged entry at memory speed.
        var checksum: UInt32 = 0
        do {
            _ = try archive.extract(entry, skipCRC32: true) { data in
                guard budget.spend(bytes: data.count) else {
                    overBudget = true
                    throw CocoaError(.fileWriteOutOfSpace)
                }
                checksum = data.withUnsafeBytes { UInt32(libdeflate_crc32(checksum, $0.baseAddress, $0.count)) }
                if let failure = writeAll(data, to: descriptor) {
                    writeError = .error(
                        .fileSystem("cannot unpack zip entry '\(path)': \(failure)"), at: entryLocation)
                    throw CocoaError(.fileWriteUnknown)
                }
            }
            if checksum != entry.checksum { throw Archive.ArchiveError.invalidCRC32 }
        } catch {
            if overBudget { throw budget.exceeded(at: location) }
            if let writeError { throw writeError }
            // Left out means not there: an importer must not read the damaged bytes.
            unlink(destination)
            warnings.append(
                .warning(.other("zip entry '\(path)' cannot be unpacked (\(error)); it is left out"), at: entryLocation)
            )
        }
    }

    /// Writes every byte of `data`; the `strerror` text of a failed write (`ENOSPC`), or `nil`.
    static func writeAll(_ data: Data, to descriptor: Int32) -> String? {
        data.withUnsafeBytes { buffer -> String? in
            var offset = 0
            while offset < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                if count == 0 { return String(cString: strerror(ENOSPC)) }
                offset += count
            }
            return nil
        }
    }

    /// Creates `relative` and its parents inside `root` (the unpack folder). `false` when an
    /// earlier entry left a file where a folder must go (a damaged or hostile zip: this entry
    /// is left out); throws a located error when the folder cannot be written (a full disk).
    private static func makeFolder(
        _ relative: String, in root: String, shownAs entry: String, location: SourceLocation
    ) throws(Diagnostic) -> Bool {
        var path = root
        for part in relative.split(separator: "/") {
            path += "/" + part
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
                if isFolder.boolValue { continue }
                return false
            }
            guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
                throw .error(
                    .fileSystem("cannot unpack zip entry '\(entry)': \(String(cString: strerror(errno)))"), at: location
                )
            }
        }
        return true
    }

    /// The warning for an entry that collides with an earlier one (a file where a folder goes).
    private static func conflict(_ path: String, at location: SourceLocation) -> Diagnostic {
        .warning(
            .other("zip entry '\(path)' collides with a file of an earlier entry; it is left out"), at: location)
    }

    /// Whether an entry is macOS metadata or hidden: `__MACOSX/…` or any `.`-named part.
    static func isHiddenEntry(_ parts: [String]) -> Bool {
        parts.first == "__MACOSX" || parts.contains { $0.hasPrefix(".") }
    }

    /// The components of an entry path that stays inside the archive, or `nil`.
    static func safeComponents(_ path: String) -> [String]? {
        if path.hasPrefix("/") || path.contains("\\") || path.contains("\0") { return nil }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard !parts.isEmpty else { return nil }
        for part in parts where part == ".." || part == "." || part.contains(":") && parts.first == part {
            return nil
        }
        return parts
    }
}
