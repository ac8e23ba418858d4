import ScrollbackReading

/// A failure that stops the whole build before anything is published (the previous output,
/// if any, is left as it was). It lives with the cache because the one file layer
/// (`FileSystem`, `OutputFolder`, `StagedFolder`) throws it; the pipeline and the command name it too.
public enum SiteBuildError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The input folder does not exist or is not a folder.
    case inputNotFound(String)
    /// The output folder is one the builder refuses to replace; `reason` says why.
    case unsafeOutput(path: String, reason: String)
    /// Reading or writing the file system failed.
    case fileSystem(String)
    /// The site config has errors (they are in the diagnostics), so nothing was built.
    case invalidConfig
    /// A template failed to load (the diagnostics say where), so nothing was built.
    case invalidTemplates
    /// Another build holds the output's lock (`holder`: its process id, when known) and did not
    /// finish in time.
    case outputLocked(path: String, holder: Int32?)
    /// Nothing under the input is a log or an export Scrollback reads (`detail` says what was
    /// looked at); an empty site is never published in silence.
    case nothingToBuild(path: String, detail: String)

    /// One sentence for the terminal.
    public var description: String {
        switch self {
        case .inputNotFound(let path): return "input folder '\(path)' does not exist; expected a folder of logs"
        case .unsafeOutput(let path, let reason): return "refusing to write the site to '\(path)': \(reason)"
        case .fileSystem(let detail): return detail
        case .invalidConfig: return "the site config has errors; nothing was built"
        case .invalidTemplates: return "the templates have errors; nothing was built"
        case .outputLocked(let path, let holder):
            return "another build is writing to '\(path)'"
                + (holder.map { " (process \($0))" } ?? "")
                + "; nothing was built. Try again when it has finished."
        case .nothingToBuild(let path, let detail):
            return
                (detail.isEmpty
                ? "no logs or exports found under '\(path)'" : "nothing to build under '\(path)': \(detail)")
                + "; Scrollback reads JSON and Markdown logs (*.json, *.md) and exports of "
                + ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")
                + " (folders, zips, .json or .txt files)"
        }
    }
}
