import Foundation
import ScrollbackModel

/// A failure that stops the whole build before anything is published (the previous output,
/// if any, is left as it was).
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

    /// One sentence for the terminal.
    public var description: String {
        switch self {
        case .inputNotFound(let path): return "input folder '\(path)' does not exist; expected a folder of logs"
        case .unsafeOutput(let path, let reason): return "refusing to write the site to '\(path)': \(reason)"
        case .fileSystem(let detail): return detail
        case .invalidConfig: return "the site config has errors; nothing was built"
        case .invalidTemplates: return "the templates have errors; nothing was built"
        }
    }
}

/// What a build did: counts for the summary line, and every diagnostic in a stable order.
public struct BuildReport: Sendable {
    /// Conversations published (built now or reused from the previous build).
    public var conversations = 0
    /// Messages in the published conversations.
    public var messages = 0
    /// HTML pages published, the index included.
    public var pages = 0
    /// Conversations read, laid out and rendered in this build.
    public var rebuiltConversations = 0
    /// Conversations whose previous output was reused unchanged (incremental build).
    public var reusedConversations = 0
    /// Conversations rebuilt by the append fast path: messages were appended to the log, so only
    /// its last pages were read, laid out and rendered (also counted in `rebuiltConversations`).
    public var appendedConversations = 0
    /// Conversations whose log has errors and which kept the pages of the last good build
    /// (counted in `conversations`, not in `rebuiltConversations` or `reusedConversations`).
    public var keptConversations = 0
    /// Whether the search index was updated from the previous one (`SearchIndex.update`) rather
    /// than built from every conversation.
    public var searchIndexUpdated = false
    /// Media files published.
    public var mediaFiles = 0
    /// Per imported conversation (spec §6): `general: 120 in → 120 out`, in discovery order.
    public var importCounts: [String] = []
    /// Every error and warning, sorted by file, line and column.
    public var diagnostics: [Diagnostic] = []
    /// Wall-clock seconds per named pipeline step, in the order they ran, with the CPU seconds
    /// (user and system, every thread) the process spent in it: on a busy machine the wall time
    /// swings with the load, the CPU time much less.
    public var stepDurations: [(step: String, seconds: Double, cpuSeconds: Double)] = []
    /// Wall-clock seconds of the whole build.
    public var elapsedSeconds: Double = 0

    /// Creates an empty report.
    public init() {}

    /// Number of errors.
    public var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }
    /// Number of warnings.
    public var warningCount: Int { diagnostics.filter { $0.severity == .warning }.count }
    /// Whether the build had any error (the exit status is then non-zero).
    public var hasErrors: Bool { errorCount > 0 }

    /// The one-line summary the CLI prints, e.g.
    /// `built 3 conversations, 120 messages, 5 pages (2 reused); 1 warning, 0 errors in 0.21 s`.
    public var summaryLine: String {
        func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        var notes: [String] = []
        if reusedConversations > 0 { notes.append("\(reusedConversations) reused") }
        if keptConversations > 0 { notes.append("\(keptConversations) kept from the last good build") }
        let reuse = notes.isEmpty ? "" : " (" + notes.joined(separator: ", ") + ")"
        return "built \(plural(conversations, "conversation")), \(plural(messages, "message")), "
            + "\(plural(pages, "page"))\(reuse); \(plural(warningCount, "warning")), "
            + "\(plural(errorCount, "error")) in \(String(format: "%.2f", elapsedSeconds)) s"
    }
}
