/// The one way to take a `/`-separated path apart: parent folder, last component, extension.
///
/// Foundation's `NSString.deletingLastPathComponent` traps (SIGILL) on a one-character
/// string such as `x` or `Я` (swift-corelibs-foundation, Swift 6.3), and names built from
/// input (a log `x.json`, a Slack channel `#x`, a Telegram chat `Я`) reach these calls. These
/// functions work on the string's characters alone, never touch the file system, and are
/// total: every input has an answer.
public enum PathText {
    /// The path without its last component: `a/b/c` → `a/b`, `/a` → `/`, `a` → `` (empty),
    /// `/` → `/`. Trailing slashes are ignored, as Foundation ignores them.
    public static func parent(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let head = trimmed[..<slash]
        let folder = withoutTrailingSlashes(String(head))
        return folder.isEmpty ? "/" : folder
    }

    /// The last component: `a/b.json` → `b.json`, `a/b/` → `b`, `/` → `/`, `` → ``.
    public static func lastComponent(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The extension of the last component without its dot (`a/b.tar.gz` → `gz`); empty when the
    /// name has none or is a dot file with no other dot (`.env` → ``).
    public static func pathExtension(_ path: String) -> String {
        let name = lastComponent(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// The last component without its extension: `a/b.json` → `b`, `.env` → `.env`.
    public static func baseName(_ path: String) -> String {
        let name = lastComponent(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// The path with its last component's extension removed: `a/b.json` → `a/b`.
    public static func deletingExtension(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        let ext = pathExtension(trimmed)
        guard !ext.isEmpty else { return trimmed }
        return String(trimmed.dropLast(ext.count + 1))
    }

    /// `folder` joined with `component` by one `/`.
    public static func appending(_ component: String, to folder: String) -> String {
        if folder.isEmpty { return component }
        return folder.hasSuffix("/") ? folder + component : folder + "/" + component
    }

    private static func withoutTrailingSlashes(_ path: String) -> String {
        var result = Substring(path)
        while result.count > 1, result.hasSuffix("/") { result = result.dropLast() }
        return String(result)
    }
}
