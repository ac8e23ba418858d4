#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one rule for "does this file belong to the input": its real path (every symlink
/// resolved) lies inside the real path of a folder. Logs, media, config, previews and the
/// site's templates all pass through it, so a link can never make a build read or publish a
/// file from elsewhere on the machine.
public enum InputContainment {
    /// The canonical path of `path` with every symlink resolved, or `nil` if it does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `path` (a canonical path) is `root` or lies below it.
    public static func isInside(_ path: String, root: String) -> Bool {
        if path == root { return true }
        let base = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(base)
    }

    /// Whether the file or folder at `path` exists and, links resolved, lies inside `root`
    /// (whose links are resolved too).
    public static func resolves(_ path: String, inside root: String) -> Bool {
        guard let real = realPath(path), let realRoot = realPath(root) else { return false }
        return isInside(real, root: realRoot)
    }
}
