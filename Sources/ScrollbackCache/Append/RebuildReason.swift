/// Why a conversation's pages were made from its whole source rather than reused from the
/// previous build or appended to (`build --explain`). A full build is always right, only slower:
/// each reason says what made it necessary.
public enum RebuildReason: Equatable, Sendable {
    /// The cache holds no previous build of this log: the first build, `--clean`, a new log, or
    /// a cache that could not be used (the build says why once).
    case noPreviousBuild
    /// The previous build was made with other settings (configuration, templates, base URL,
    /// `--me` or the generator's version): no page of it is reused.
    case settingsChanged
    /// The log changed, and not only by growing.
    case logChanged
    /// The log is unchanged, but its media changed or a file of the previous build is missing.
    case previousPagesUnusable
    /// The log grew, but the append path could not take it.
    case append(AppendFallback)
    /// A conversation of an export: exports are read whole on every build.
    case exportRead

    /// The reason in words, as `--explain` prints it.
    public var description: String {
        switch self {
        case .noPreviousBuild: return "no previous build of it in the cache"
        case .settingsChanged: return "the settings changed since the previous build"
        case .logChanged: return "the log changed, not only by growing"
        case .previousPagesUnusable: return "its media changed, or a file of the previous build is missing"
        case .append(let fallback): return "the log grew, but " + fallback.description
        case .exportRead: return "exports are read whole on every build"
        }
    }
}

/// Why the append path (`ConversationWorker.appendFast`) gave a grown log to the full build.
/// Every case is a named check of that path; the tests trigger each one.
public enum AppendFallback: Equatable, Sendable, CaseIterable {
    /// A base URL is set: the feed lists the newest messages of every conversation.
    case publishedFeed
    /// A Markdown log: only JSON logs are appended to.
    case notJSON
    /// The previous build kept no checkpoint: the log had threads or pins, whose new replies
    /// change earlier pages.
    case noCheckpoint
    /// The checkpoint in the cache is damaged or does not match the log.
    case checkpointUnreadable
    /// Some message id is not its own anchor on the page (`SiteRenderer.hasOwnAnchor`), so
    /// anchors depend on every message.
    case idsNotOwnAnchors
    /// A media file a message names changed since the previous build.
    case mediaChanged
    /// The new bytes are not messages added after the last one (`,` then messages).
    case notAddedAtEnd
    /// What follows the last message changed.
    case tailChanged
    /// The log before the new messages changed (its fingerprint differs).
    case headChanged
    /// Reading the new messages, or rendering them, reported a new error or warning: the full
    /// build reports it at its place.
    case newDiagnostics
    /// The conversation's id changed.
    case conversationIDChanged
    /// A new message is dated before the old last one, so it sorts among the old pages.
    case earlierDate
    /// A new message's id was an old message's, or one an old reply was waiting for.
    case idSeenBefore
    /// A new message starts or joins a thread, or is pinned: earlier pages change.
    case reachesBack
    /// The new messages need a new page: every page's pagination links the last one.
    case newPage
    /// A voice note of a new message could not be made ready.
    case audioWarnings
    /// The search cache of the conversation is missing or damaged.
    case searchPartUnreadable
    /// A file of the previous build is missing, so it cannot be linked.
    case previousFilesMissing
    /// Writing the appended pages failed.
    case writeFailed

    /// The reason in words (after "the log grew, but").
    public var description: String {
        switch self {
        case .publishedFeed: return "a base URL is set, and the feed lists the newest messages"
        case .notJSON: return "only JSON logs are appended to"
        case .noCheckpoint: return "the previous build kept no checkpoint (the log has threads or pins)"
        case .checkpointUnreadable: return "its checkpoint in the cache is damaged"
        case .idsNotOwnAnchors: return "some message id is not its own page anchor"
        case .mediaChanged: return "a media file it names changed"
        case .notAddedAtEnd: return "the new bytes are not messages added after the last one"
        case .tailChanged: return "what follows its last message changed"
        case .headChanged: return "its earlier messages changed"
        case .newDiagnostics: return "the new messages have errors or warnings"
        case .conversationIDChanged: return "its conversation id changed"
        case .earlierDate: return "a new message is dated before the old last one"
        case .idSeenBefore: return "a new message has an old message's id, or one an old reply waited for"
        case .reachesBack: return "a new message is in a thread or pinned"
        case .newPage: return "the new messages need a new page"
        case .audioWarnings: return "a new voice note could not be prepared"
        case .searchPartUnreadable: return "its search cache is missing or damaged"
        case .previousFilesMissing: return "a file of the previous build is missing"
        case .writeFailed: return "writing the appended pages failed"
        }
    }
}

/// What one build did with one conversation (`build --explain`).
public enum ConversationWork: Equatable, Sendable {
    /// The previous build's pages, unchanged.
    case reused
    /// Only the last pages, for messages appended to the log.
    case appended
    /// Every page, and why.
    case built(RebuildReason)
    /// The source has errors: the last good pages were kept.
    case keptLastGood
    /// The source has errors and no last good pages: not published.
    case leftOut

    /// The work in words: "reused", "appended", "built: <reason>", ….
    public var description: String {
        switch self {
        case .reused: return "reused"
        case .appended: return "appended"
        case .built(let reason): return "built: " + reason.description
        case .keptLastGood: return "kept its last good pages (errors)"
        case .leftOut: return "left out (errors)"
        }
    }
}
