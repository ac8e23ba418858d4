import Foundation
import ScrollbackModel
import ZIPFoundation

/// Unpacks a zip export (Slack, WhatsApp with media) into a private folder, with ZIPFoundation.
///
/// The archive is untrusted: an entry whose path is absolute, holds `..`, a backslash or a NUL,
/// or is a symlink is skipped with a warning (zip-slip), and unpacking stops with an error once
/// more than `maximumBytes` or `maximumEntries` would be written (zip bombs).
public enum ExportArchive {
    /// Largest total of bytes unpacked from one archive.
    public static let maximumBytes: UInt64 = 8 << 30
    /// Most entries unpacked from one archive.
    public static let maximumEntries = 1_000_000

    /// Whether `head` (a file's first bytes) starts like a zip archive.
    public static func looksLikeZip(_ head: [UInt8]) -> Bool {
        head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06])
    }

    /// Unpacks `zip` into `folder` (created); `shownAs` names the zip in diagnostics.
    /// Returns the warnings; throws a located error when the archive cannot be read.
    public static func unpack(_ zip: URL, into folder: URL, shownAs: String) throws(Diagnostic) -> [Diagnostic] {
        let location = SourceLocation(file: shownAs, line: 1, column: 1)
        let archive: Archive
        do {
            archive = try Archive(url: zip, accessMode: .read)
        } catch {
            throw .error(.other("cannot read the zip archive (\(error)); expected a zip file"), at: location)
        }
        var warnings: [Diagnostic] = []
        var written: UInt64 = 0
        var count = 0
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .error(.fileSystem("cannot unpack the zip archive: \(error)"), at: location)
        }
        for entry in archive {
            let path = entry.path
            guard let parts = safeComponents(path) else {
                warnings.append(
                    .warning(
                        .other("zip entry '\(path)' is skipped: its path leaves the archive"),
                        at: SourceLocation(file: shownAs + "/" + path, line: 1, column: 1)))
                continue
            }
            count += 1
            if count > maximumEntries {
                throw .error(.other("the zip archive has more than \(maximumEntries) entries"), at: location)
            }
            switch entry.type {
            case .symlink:
                warnings.append(
                    .warning(
                        .other("zip entry '\(path)' is a symlink and is skipped"),
                        at: SourceLocation(file: shownAs + "/" + path, line: 1, column: 1)))
                continue
            case .directory:
                try? manager.createDirectory(
                    at: folder.appendingPathComponent(parts.joined(separator: "/")), withIntermediateDirectories: true)
                continue
            case .file:
                break
            }
            let destination = folder.appendingPathComponent(parts.joined(separator: "/"))
            do {
                try manager.createDirectory(
                    at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
                guard manager.createFile(atPath: destination.path, contents: nil) else {
                    throw CocoaError(.fileWriteUnknown)
                }
                let handle = try FileHandle(forWritingTo: destination)
                defer { try? handle.close() }
                var tooLarge = false
                _ = try archive.extract(entry, skipCRC32: false) { data in
                    written += UInt64(data.count)
                    if written > maximumBytes {
                        tooLarge = true
                        throw CocoaError(.fileWriteOutOfSpace)
                    }
                    handle.write(data)
                }
                if tooLarge { break }
            } catch {
                if written > maximumBytes {
                    throw .error(
                        .other("the zip archive unpacks to more than \(maximumBytes >> 30) GiB; refused"), at: location)
                }
                warnings.append(
                    .warning(
                        .other("zip entry '\(path)' cannot be unpacked (\(error)); it is left out"),
                        at: SourceLocation(file: shownAs + "/" + path, line: 1, column: 1)))
            }
        }
        return warnings
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
