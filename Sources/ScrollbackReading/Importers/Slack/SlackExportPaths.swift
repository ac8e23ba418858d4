import Foundation
import ScrollbackModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The paths a Slack export's own data names (issue 40): a conversation's folder comes from
/// `channels.json`, `groups.json`, `dms.json` or `mpims.json` (its `name` or `id`), a file from a
/// message's `files[].id` and `name`. Such a name is one folder or file name inside the export,
/// never a path: `../../secret` would make the build read, publish and `import` write another
/// folder of the machine. A name is refused unless it is one path component, and whatever it
/// names is read only when its real path (links resolved) lies inside the export
/// (`InputContainment`).
enum SlackExportPaths {
    /// Why `name` cannot name a file or folder of the export, or `nil` when it can: not empty,
    /// not `.` or `..`, and no `/`, `\` or NUL (so no absolute path and no step out).
    static func refusal(_ name: String) -> String? {
        if name.isEmpty { return "it is empty" }
        if name == "." || name == ".." { return "it is '\(name)'" }
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "/"): return name.hasPrefix("/") ? "it is an absolute path" : "it holds '/'"
            case UInt8(ascii: "\\"): return "it holds '\\'"
            case 0: return "it holds a NUL character"
            default: continue
            }
        }
        return nil
    }

    /// Whether `url` exists and, every link resolved, lies inside `folder`.
    static func isContained(_ url: URL, in folder: URL) -> Bool {
        InputContainment.resolves(url.path, inside: folder.path)
    }

    /// Whether `path` is a symbolic link (not followed).
    static func isSymlink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// Whether `path` is a folder (a link to one counts: the caller contains it).
    static func isFolder(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }
}
