import Foundation
import ScrollbackCache
import ScrollbackModel
import ScrollbackReading

/// One conversation's line of `build --explain`: where it comes from and what the build did.
public struct ConversationWorkLine: Equatable, Sendable {
    /// The log's path in the input, or the export's.
    public var source: String
    /// The conversation's id (`nil` for a source left out before it had one).
    public var conversationID: String?
    public var work: ConversationWork

    /// `chat.json (chat): appended`.
    public var line: String {
        source + (conversationID.map { " (\($0))" } ?? "") + ": " + work.description
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
    /// What the build did with each conversation, and why (`build --explain`): logs in input
    /// order, then exports' conversations.
    public var work: [ConversationWorkLine] = []
    /// Whether the search index was updated from the previous one (`SearchIndex.update`) rather
    /// than built from every conversation.
    public var searchIndexUpdated = false
    /// Media files published.
    public var mediaFiles = 0
    /// Per imported conversation (spec §6): its `SourceCount.line`, in discovery order.
    public var importCounts: [String] = []
    /// Per conversation read (logs in input order, then exports' conversations in discovery
    /// order): where it comes from and what its reader did with every record.
    public var sources: [SourceCount] = []
    /// Every error and warning, sorted by file, line and column.
    public var diagnostics: [Diagnostic] = []
    /// Lines the CLI prints under the summary: what the whole site lacks, said once rather than
    /// per file (voice notes Safari cannot play when there is no ffmpeg).
    public var summaryNotes: [String] = []
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

extension BuildReport {
    /// Where the site went and how to look at it, after the summary: `site: _site/index.html
    /// (open it in a browser, or preview it with: scrollback serve logs)`. Paths as the user gave
    /// them, quoted for a shell when they need it.
    public static func whereLine(output: String, input: String) -> String {
        let index = output.hasSuffix("/") ? output + "index.html" : output + "/index.html"
        return "site: \(shellQuoted(index)) (open it in a browser, or preview it with: "
            + "scrollback serve \(shellQuoted(input)))"
    }

    /// `text` as one shell word: as it is when it is plain, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                ($0.isASCII && (CharacterSet.alphanumerics.contains($0) || "/._-+:,@%=".unicodeScalars.contains($0)))
            }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}

/// What the build did with one conversation's source records (issue 41): the line `build`
/// prints per source, and what `--verbose` lists as left out.
public struct SourceCount: Sendable {
    /// `json` or `markdown` for a log, else the export's format (`whatsapp`).
    public var format: String
    /// The source as diagnostics name it (`chats/_chat.txt`, `slack-export/general`).
    public var source: String
    /// The conversation's id (or the source's key when it was not built).
    public var conversationID: String
    /// Records read, messages built, records left out with their reasons.
    public var ledger: ImportLedger
    /// Whether it comes from an export (its line is printed without `--verbose`).
    public var isImported: Bool

    /// Creates a source count.
    public init(format: String, source: String, conversationID: String, ledger: ImportLedger, isImported: Bool) {
        self.format = format
        self.source = source
        self.conversationID = conversationID
        self.ledger = ledger
        self.isImported = isImported
    }

    /// `whatsapp chats/_chat.txt → trip: 212 records → 84 messages, 128 left out`.
    public var line: String {
        let shownID = conversationID == source ? "" : " (\(conversationID))"
        return "\(format) \(source)\(shownID): \(ledger.recordsRead) records → \(ledger.messagesBuilt) messages, "
            + "\(ledger.leftOut.count) left out"
    }

    /// What `--verbose` adds under `line`: per reason, how many and where the first one is.
    public var leftOutLines: [String] {
        ledger.leftOutByReason.map { group in
            "left out \(group.count) × \(group.reason)"
                + (group.first.map { " (first at \($0.file):\($0.line):\($0.column))" } ?? "")
        }
    }
}
