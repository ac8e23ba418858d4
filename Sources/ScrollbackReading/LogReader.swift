import Foundation
import ScrollbackModel

/// What reading one log file gave: the conversation (unless an error stopped it) and every diagnostic.
public struct ReadResult: Sendable {
    /// The conversation; `nil` when an error made it unusable.
    public var conversation: Conversation?
    /// Errors and warnings, each with its location.
    public var diagnostics: [Diagnostic]

    /// Creates a result.
    public init(conversation: Conversation?, diagnostics: [Diagnostic]) {
        self.conversation = conversation
        self.diagnostics = diagnostics
    }
}

/// Reads conversation logs (`*.json`, `*.md`) from an input folder into the model.
///
/// STUB: to be replaced by the real readers.
public struct LogReader: Sendable {
    /// The input folder; media paths may not escape it.
    public var inputRoot: URL
    /// Site configuration (time zone defaults, remote media).
    public var config: SiteConfig

    /// Creates a reader for `inputRoot`.
    public init(inputRoot: URL, config: SiteConfig) {
        self.inputRoot = inputRoot
        self.config = config
    }

    /// Reads one log file.
    public func read(_ file: URL) -> ReadResult {
        ReadResult(conversation: nil, diagnostics: [])
    }
}
