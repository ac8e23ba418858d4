import Foundation
import ScrollbackModel

/// Syntax highlighting for the code blocks of AI answers (issue 42.5), by a maintained
/// highlighter: Debian's `libjs-highlight.js` (installed by `scripts/install-deps.sh`), copied
/// from its one installed folder into the site's assets at build time, never vendored in the
/// repository. `assets/code.js` loads it only on pages that have a code block.
///
/// Without the package the site has no highlighter: code blocks stay readable (monospace, their
/// language label and copy button), and the build says so once (`missingNote`).
public enum HighlightAssets {
    /// Where Debian installs highlight.js.
    public static let debianFolder = "/usr/share/javascript/highlight.js"
    /// The environment variable naming another folder of the same layout (empty: none), for
    /// tests and for systems that install it elsewhere.
    public static let folderVariable = "SCROLLBACK_HIGHLIGHT_JS"
    /// The site paths of the copied files.
    public static let scriptPath = "assets/highlight.min.js"
    public static let stylePath = "assets/highlight.css"
    /// Both, sorted: a site ships them only when one of its pages has a code block.
    public static let sitePaths = [stylePath, scriptPath]

    /// The folder to read: `SCROLLBACK_HIGHLIGHT_JS` when set, else Debian's.
    public static var folder: String {
        ProcessInfo.processInfo.environment[folderVariable] ?? debianFolder
    }

    /// The highlighter's files by site path: the minified script, and one stylesheet holding the
    /// package's high-contrast light theme with its dark one for dark mode (both meet WCAG AA,
    /// so axe's colour check holds in either scheme); empty when any of them is missing.
    public static func load(from folder: String = folder) -> [String: [UInt8]] {
        guard !folder.isEmpty,
            let script = FileManager.default.contents(atPath: folder + "/highlight.min.js"),
            let light = FileManager.default.contents(atPath: folder + "/styles/a11y-light.css"),
            let dark = FileManager.default.contents(atPath: folder + "/styles/a11y-dark.css")
        else { return [:] }
        var style = "/* highlight.js themes a11y-light and a11y-dark (Debian libjs-highlight.js) */\n"
        style += String(decoding: light, as: UTF8.self)
        style += "\n@media (prefers-color-scheme: dark) {\n" + String(decoding: dark, as: UTF8.self) + "\n}\n"
        return [scriptPath: Array(script), stylePath: Array(style.utf8)]
    }

    /// What the build says when the highlighter is not installed.
    public static let missingNote =
        "code blocks are not syntax-highlighted: highlight.js is not installed (Debian package libjs-highlight.js, "
        + "or set \(folderVariable) to its folder)"
}
