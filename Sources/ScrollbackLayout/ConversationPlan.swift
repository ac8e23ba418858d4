import Foundation
import ScrollbackModel

/// A conversation with every layout decision made but its rows not yet built
/// (`ConversationLayouter.plan(_:)`): build pages one at a time with `page(_:)`.
///
/// A million messages laid out at once take over half a gigabyte of rows; a plan keeps a few
/// bytes per message (group position, wall-clock time, time text) and builds a page's rows only
/// when asked. It is immutable, so pages can be built on several threads. A class: rows are
/// built with it at hand, and a struct of this many arrays would retain each of them per copy.
public final class ConversationPlan: Sendable {
    /// The conversation, its messages ordered by date (ties in file order).
    public let conversation: Conversation
    /// The options in force (site options with the conversation's overrides).
    public let options: LayoutOptions
    /// Messages per page (at least 1).
    public let messagesPerPage: Int
    /// What the index page lists for this conversation.
    public let summary: ConversationSummary

    let participants: [String: Participant]
    /// Position in `conversation.messages` of every message id.
    let indexOfMessage: [String: Int]
    let positions: [GroupPosition]
    /// Wall-clock seconds since 1970 in the conversation's zone, per message.
    let localSeconds: [Int64]
    /// The formatted send time, per message.
    let timeTexts: [String]
    /// The send time with seconds, per message, for the timestamp's tooltip.
    let tooltipTexts: [String]
    /// Whether incoming messages name their sender (a group, not a 1:1 chat).
    public let namesSenders: Bool
    /// The separator of every local day (days since 1970) that has a message.
    let daySeparators: [Int64: FormattedDate]
    /// Formatted edit dates by message index.
    let editedTimes: [Int: FormattedDate]
    /// ISO texts of the rare dates the hand-made formatter does not cover, by message index.
    let isoOutsideYears1To9999: [Int: String]

    /// For a plan of some of a conversation's messages (`ConversationLayouter.plan(_:globalIndexes:
    /// totalMessageCount:)`): each message's position among all of them; `nil` for a whole one.
    let globalIndexes: [Int]?
    /// Messages in the whole conversation.
    public let totalMessageCount: Int
    /// Each page's header, when all its messages are in the plan.
    let pageHeaders: [PageHeader?]
    /// Each page's first and last day, for the links to it: known for the pages whose messages
    /// are all in the plan, and for the others when the plan was given them.
    public let pageDays: [PageDays?]

    /// Permalink anchors of the whole conversation (threads included).
    public let anchors: AnchorTable
    /// Where this list's pages are: the conversation's, a thread's own, or its root's page.
    public let pageFiles: PageFiles
    /// `pageFiles`' name of each page, made once: every message of a page asks for it.
    let pageFileNames: [String]
    /// Every message of the conversation with its page file, when it has threads or pins.
    let directory: MessageDirectory?
    /// With a directory: where each of this list's messages is in `directory.messages`.
    let directoryIndexes: [Int32]
    /// The threads whose roots are in this list, by root id.
    let threadsByRoot: [String: ThreadPlan]
    /// Per message: whether it is a broadcast reply's reference in the main timeline (its
    /// element is in its thread); empty when there is none.
    let referenceFlags: [Bool]
    /// The conversation's pinned messages, by date.
    public let pinned: [PinnedMessage]

    init(
        conversation: Conversation, options: LayoutOptions, messagesPerPage: Int, summary: ConversationSummary,
        participants: [String: Participant], indexOfMessage: [String: Int], positions: [GroupPosition],
        localSeconds: [Int64], timeTexts: [String], tooltipTexts: [String], namesSenders: Bool,
        daySeparators: [Int64: FormattedDate],
        editedTimes: [Int: FormattedDate], isoOutsideYears1To9999: [Int: String], globalIndexes: [Int]?,
        totalMessageCount: Int, pageHeaders: [PageHeader?], pageDays: [PageDays?], anchors: AnchorTable,
        pageFiles: PageFiles,
        directory: MessageDirectory?, directoryIndexes: [Int32], threadsByRoot: [String: ThreadPlan],
        referenceFlags: [Bool], pinned: [PinnedMessage]
    ) {
        self.conversation = conversation
        self.options = options
        self.messagesPerPage = messagesPerPage
        self.summary = summary
        self.participants = participants
        self.indexOfMessage = indexOfMessage
        self.positions = positions
        self.localSeconds = localSeconds
        self.timeTexts = timeTexts
        self.tooltipTexts = tooltipTexts
        self.namesSenders = namesSenders
        self.daySeparators = daySeparators
        self.editedTimes = editedTimes
        self.isoOutsideYears1To9999 = isoOutsideYears1To9999
        self.globalIndexes = globalIndexes
        self.totalMessageCount = totalMessageCount
        self.pageHeaders = pageHeaders
        self.pageDays = pageDays
        self.anchors = anchors
        self.pageFiles = pageFiles
        self.pageFileNames = (0..<Self.pageCount(messages: totalMessageCount, perPage: messagesPerPage)).map {
            pageFiles.name(ofPage: $0)
        }
        self.directory = directory
        self.threadsByRoot = threadsByRoot
        self.referenceFlags = referenceFlags
        self.directoryIndexes = directoryIndexes
        self.pinned = pinned
    }

    /// The file name of page `index` of this list, inside the conversation's folder.
    public func pageFileName(_ index: Int) -> String {
        pageFileNames.indices.contains(index) ? pageFileNames[index] : pageFiles.name(ofPage: index)
    }

    /// The page file that holds message `id`, wherever it is drawn (timeline or thread).
    public func fileName(ofMessage id: String) -> String? {
        if let directory { return directory.fileName(ofMessage: id) }
        return pageIndex(ofMessage: id).map(pageFileName)
    }

    /// The file that draws `conversation.messages[messageIndex]`, listed on page `page` of this
    /// list: where the conversation's directory puts it when it keeps one (threads, pins: a
    /// message may be drawn off the page that lists it), else that page's file. Unlike
    /// `fileName(ofMessage:)`, no lookup by id (a repeated id keeps its own page).
    public func fileName(ofMessageAt messageIndex: Int, listedOnPage page: Int) -> String {
        guard let directory else { return pageFileName(page) }
        return directory.fileName(ofMessageAt: Int(directoryIndexes[messageIndex]))
    }

    /// The thread whose root is `conversation.messages[messageIndex]`, if it has replies.
    public func thread(ofRoot messageIndex: Int) -> ThreadPlan? {
        threadsByRoot.isEmpty ? nil : threadsByRoot[conversation.messages.readInPlace(messageIndex) { $0.id }]
    }

    /// The threads whose roots are on pages `pages` of this list, in the order the pages' rows
    /// show their roots (without laying the rows out).
    public func threads(rootedOnPages pages: Range<Int>) -> [ThreadPlan] {
        guard !threadsByRoot.isEmpty else { return [] }
        return pages.flatMap { page in
            Self.localBounds(
                ofPage: page, messagesPerPage: messagesPerPage, count: conversation.messages.count,
                globalIndexes: globalIndexes
            ).compactMap(thread(ofRoot:))
        }
    }

    /// Every thread of this list whose replies have their own pages, ordered by root date.
    public var threadsWithOwnPages: [ThreadPlan] {
        guard !threadsByRoot.isEmpty else { return [] }
        return conversation.messages.indices.compactMap(thread(ofRoot:)).filter { !$0.summary.isInline }
    }

    /// Whether `conversation.messages[messageIndex]` is only a reference to a broadcast reply
    /// ("replied to a thread"): its message element is in the thread.
    public func isThreadReference(_ messageIndex: Int) -> Bool {
        !referenceFlags.isEmpty && referenceFlags[messageIndex]
    }

    /// Whether `conversation.messages[messageIndex]` is a thread reply shown in the timeline
    /// because its root is not in the log ("thread root not in this archive").
    public func isOrphanedReply(_ messageIndex: Int) -> Bool {
        pageFiles == .conversation && conversation.messages[messageIndex].thread != nil
            && !isThreadReference(messageIndex)
    }

    /// The reply a thread reference stands for: a quote linking to its message element.
    public func threadReference(ofMessage messageIndex: Int) -> ReplyPreview? {
        guard isThreadReference(messageIndex), let directory else { return nil }
        let message = conversation.messages[messageIndex]
        return ReplyPreview(
            messageID: message.id, pageIndex: 0,
            fileName: directory.fileName(ofMessageAt: Int(directoryIndexes[messageIndex])),
            senderName: directory.senderName(message), excerpt: MessageNotices.excerpt(message))
    }

    /// Number of pages; never 0 (a conversation with no message has one empty page).
    public var pageCount: Int { Self.pageCount(messages: totalMessageCount, perPage: messagesPerPage) }

    private static func pageCount(messages: Int, perPage: Int) -> Int { max(1, (messages + perPage - 1) / perPage) }

    /// Page index (0-based) of the message with `id`, if there is one.
    public func pageIndex(ofMessage id: String) -> Int? {
        indexOfMessage[id].map { globalIndex($0) / messagesPerPage }
    }

    /// Page index of every message id.
    public var pageOfMessage: [String: Int] {
        let messagesPerPage = messagesPerPage
        return indexOfMessage.mapValues { globalIndex($0) / messagesPerPage }
    }

    /// The first participant with `id`, if there is one.
    public func participant(_ id: String) -> Participant? {
        participants[id]
    }

    /// Position in `conversation.messages` of the message with `id`, if there is one.
    public func messageIndex(ofMessage id: String) -> Int? {
        indexOfMessage[id]
    }

    /// The position among all the conversation's messages of `conversation.messages[index]`.
    func globalIndex(_ index: Int) -> Int {
        globalIndexes?[index] ?? index
    }

    /// The indexes in `conversation.messages` of page `page`'s messages (those present).
    static func localBounds(ofPage page: Int, messagesPerPage: Int, count: Int, globalIndexes: [Int]?) -> Range<Int> {
        let first = page * messagesPerPage
        let end = first + messagesPerPage
        guard let globalIndexes else { return min(count, first)..<min(count, end) }
        func lowerBound(_ value: Int) -> Int {
            var low = 0
            var high = globalIndexes.count
            while low < high {
                let middle = (low + high) / 2
                if globalIndexes[middle] < value { low = middle + 1 } else { high = middle }
            }
            return low
        }
        return lowerBound(first)..<lowerBound(end)
    }

    /// Whether `ConversationDateFormats.formatISO` can write `date` by hand in any zone: its UTC
    /// year, a day away from the edges, lies in 1...9999.
    static func handFormatsISO(_ date: Date) -> Bool {
        let seconds = ConversationDateFormats.utcSeconds(date)
        return seconds > -62_135_596_800 + 86_400 && seconds < 253_402_300_799 - 86_400
    }

    /// The header of page `index` when all its messages are in the plan .
    public func pageHeader(_ index: Int) -> PageHeader? {
        index < pageHeaders.count ? pageHeaders[index] : nil
    }

    /// The local day (days since 1970 in the site's time zone) of `conversation.messages[messageIndex]`.
    public func localDay(_ messageIndex: Int) -> Int64 {
        ConversationDateFormats.floorDivide(localSeconds[messageIndex], ConversationDateFormats.secondsPerDay)
    }

    /// Hands the rows of page `index` (0-based) to `body` one at a time, in order: day separators,
    /// and each message as its index in `conversation.messages` with its decisions, so no message
    /// is copied and no text made per row. A renderer reads the message in place and asks
    /// `timeText`, `isoTime`, `editedTime`, `replyPreview` and `reactionSummaries` for the rest.
    ///
    /// Every page opens with a day separator: the day's own when its first message opens the day,
    /// otherwise a repeat of the day already under way (`repeatsPreviousPage`). Rows drawn inside
    /// another list's page (a short thread under its root) pass `continuing`, the local day of the
    /// row they follow: the reader already sees that day, so only a change of day gets a separator.
    public func forEachPlannedRow(
        ofPage index: Int, continuing continuedDay: Int64? = nil, _ body: (PlannedRow) throws -> Void
    ) rethrows {
        try forEachMessage(ofPage: index, continuing: continuedDay) { separator, messageIndex in
            if let separator { try body(.daySeparator(separator)) }
            try body(.message(index: messageIndex, decisions: decisions(messageIndex)))
        }
    }

    /// The rows of `forEachPlannedRow` without the messages' decisions (for a reader that needs
    /// only which messages a page lists and the days they open: the search index): `body` gets
    /// each message's index, with the day separator shown before it, if any.
    public func forEachMessage(
        ofPage index: Int, continuing continuedDay: Int64? = nil,
        _ body: (_ separator: DaySeparator?, _ messageIndex: Int) throws -> Void
    ) rethrows {
        let bounds = Self.localBounds(
            ofPage: index, messagesPerPage: messagesPerPage, count: conversation.messages.count,
            globalIndexes: globalIndexes)
        let first = bounds.lowerBound
        let end = bounds.upperBound
        guard first < end else { return }

        var previousDay = first == 0 ? (continuedDay ?? Int64.min) : localDay(first - 1)
        for messageIndex in first..<end {
            let day = localDay(messageIndex)
            let startsDay = day != previousDay
            var separator: DaySeparator?
            if startsDay || (messageIndex == first && continuedDay == nil), let shown = daySeparators[day] {
                separator = DaySeparator(day: shown, repeatsPreviousPage: !startsDay)
            }
            previousDay = day
            try body(separator, messageIndex)
        }
    }

    /// The formatted send time of `conversation.messages[messageIndex]`.
    public func timeText(ofMessage messageIndex: Int) -> String {
        timeTexts[messageIndex]
    }

    /// The send time with seconds of `conversation.messages[messageIndex]` ("9:41:07 AM").
    public func tooltipText(ofMessage messageIndex: Int) -> String {
        tooltipTexts[messageIndex]
    }

    /// The ISO send time of `conversation.messages[messageIndex]`, without making a string.
    public func isoTime(ofMessage messageIndex: Int) -> InlineISOTime {
        if !isoOutsideYears1To9999.isEmpty, let text = isoOutsideYears1To9999[messageIndex] {
            return InlineISOTime(text: text)
        }
        return InlineISOTime(date: conversation.messages[messageIndex].date, localSeconds: localSeconds[messageIndex])
    }

    /// The formatted edit date of `conversation.messages[messageIndex]`, when edited.
    public func editedTime(ofMessage messageIndex: Int) -> FormattedDate? {
        conversation.messages[messageIndex].edited == nil ? nil : editedTimes[messageIndex]
    }

    /// The quote of the message that `conversation.messages[messageIndex]` replies to, if any.
    public func replyPreview(ofMessage messageIndex: Int) -> ReplyPreview? {
        guard conversation.messages[messageIndex].replyTo != nil else { return nil }
        return replyPreview(of: conversation.messages[messageIndex])
    }

    /// The reactions of `conversation.messages[messageIndex]` with who reacted.
    public func reactionSummaries(ofMessage messageIndex: Int) -> [ReactionSummary] {
        conversation.messages[messageIndex].reactions.isEmpty
            ? [] : conversation.messages[messageIndex].reactions.map(reactionSummary)
    }

    /// Message `conversation.messages[messageIndex]` with its layout (for custom renderers); the
    /// rules are documented on `ConversationLayouter`.
    public func messageLayout(_ messageIndex: Int) -> MessageLayout {
        let message = conversation.messages[messageIndex]
        let decisions = decisions(messageIndex)
        let isSystem = message.kind.name == .system
        let iso =
            isoOutsideYears1To9999[messageIndex]
            ?? ConversationDateFormats.formatISO(message.date, localSeconds: localSeconds[messageIndex]) ?? ""

        return MessageLayout(
            message: message, sender: isSystem ? nil : message.sender.flatMap { participants[$0] },
            decisions: decisions, time: FormattedDate(text: timeTexts[messageIndex], iso: iso),
            edited: message.edited == nil ? nil : editedTimes[messageIndex], reply: replyPreview(of: message),
            reactions: message.reactions.map(reactionSummary))
    }

    /// The layout decisions of the message at `messageIndex`, read in place; the rules are
    /// documented on `ConversationLayouter`.
    public func decisions(_ messageIndex: Int) -> RowDecisions {
        let position = positions[messageIndex]
        let isSystem = conversation.messages[messageIndex].kind.name == .system
        let alignment: MessageAlignment
        if isSystem {
            alignment = .center
        } else if let me = conversation.me, conversation.messages[messageIndex].sender == me {
            alignment = .right
        } else {
            alignment = .left
        }

        let opensGroup = position == .first || position == .single
        let endsGroup = position == .last || position == .single
        // Issue 42.5: in an AI conversation the answers (everyone's but `me`'s) are documents the
        // width of the page; the prompts stay bubbles on the right.
        let isDocument = options.presentation == .document && alignment == .left

        // Avatars only on the left, as MessageKit hides the current sender's own avatar; a
        // document has none, so it can take the whole width.
        let showsAvatar = alignment == .left && !isDocument && (!options.collapseProfilePicture || endsGroup)
        let showsHeader =
            !isSystem && alignment != .right && namesSenders && (!options.collapseEnclosingViews || opensGroup)
        let hasFooterContent =
            conversation.messages[messageIndex].edited != nil
            || (alignment == .right && conversation.messages[messageIndex].status != nil)
        let showsFooter = !isSystem && hasFooterContent && (!options.collapseEnclosingViews || endsGroup)

        let timestamp: TimestampPlacement
        if isSystem {
            // A centred note about the conversation, as messengers draw them: no time line (the
            // day separator dates it; screen readers still hear its time), unless the site asks
            // for every message's time (`collapseTimestamps: off`).
            timestamp = options.collapseTimestamps == .off ? .bottom : .hidden
        } else {
            switch options.collapseTimestamps {
            case .top: timestamp = opensGroup ? .top : .hidden
            case .bottom: timestamp = endsGroup ? .bottom : .hidden
            case .off: timestamp = .bottom
            }
        }

        return RowDecisions(
            alignment: alignment, groupPosition: position, showsAvatar: showsAvatar, showsHeader: showsHeader,
            showsFooter: showsFooter, timestamp: timestamp, isDocument: isDocument)
    }

    private func replyPreview(of message: Message) -> ReplyPreview? {
        // A missing target has no preview; the reader already warned about it.
        guard let targetID = message.replyTo else { return nil }
        if let directory {
            guard let targetIndex = directory.indexOfMessage[targetID] else { return nil }
            let target = directory.messages[targetIndex]
            return ReplyPreview(
                messageID: target.id, pageIndex: 0, fileName: directory.fileName(ofMessageAt: targetIndex),
                senderName: directory.senderName(target), excerpt: MessageNotices.excerpt(target))
        }
        guard let targetIndex = indexOfMessage[targetID] else { return nil }
        let target = conversation.messages[targetIndex]
        let senderName = target.kind.name == .system ? nil : target.sender.map { participants[$0]?.name ?? $0 }
        let pageIndex = globalIndex(targetIndex) / messagesPerPage
        return ReplyPreview(
            messageID: target.id, pageIndex: pageIndex, fileName: pageFileName(pageIndex), senderName: senderName,
            excerpt: MessageNotices.excerpt(target))
    }

    private func reactionSummary(_ reaction: Reaction) -> ReactionSummary {
        ReactionSummary(
            emoji: reaction.emoji, count: reaction.count,
            senderNames: reaction.senders.map { participants[$0]?.name ?? $0 }, customEmoji: reaction.customEmoji)
    }
}

/// A row of `ConversationPlan.forEachPlannedRow`: a day separator, or a message by its index.
public enum PlannedRow: Sendable {
    /// The day changes here.
    case daySeparator(DaySeparator)
    /// The message `conversation.messages[index]`, laid out as `decisions` say.
    case message(index: Int, decisions: RowDecisions)
}

/// A message row's layout decisions.
public struct RowDecisions: Sendable {
    /// Left, right (`me`) or center (`system`).
    public var alignment: MessageAlignment
    /// Where the message sits in its group.
    public var groupPosition: GroupPosition
    /// Whether the avatar is drawn (otherwise its space is kept, so bubbles line up).
    public var showsAvatar: Bool
    /// Whether the header (sender name) is drawn.
    public var showsHeader: Bool
    /// Whether the footer (edited and status marks) is drawn.
    public var showsFooter: Bool
    /// Where the timestamp is drawn, if at all.
    public var timestamp: TimestampPlacement
    /// Whether the message is drawn as a full-width document, not a bubble (an AI answer,
    /// `presentation: document`).
    public var isDocument: Bool

    /// Creates decisions.
    public init(
        alignment: MessageAlignment, groupPosition: GroupPosition, showsAvatar: Bool, showsHeader: Bool,
        showsFooter: Bool, timestamp: TimestampPlacement, isDocument: Bool = false
    ) {
        self.isDocument = isDocument
        self.alignment = alignment
        self.groupPosition = groupPosition
        self.showsAvatar = showsAvatar
        self.showsHeader = showsHeader
        self.showsFooter = showsFooter
        self.timestamp = timestamp
    }
}

/// An ISO 8601 send time (`FormattedDate.iso`) held without a string: the hand-made formatter's
/// bytes inline, or, for the rare dates it does not cover, the formatter's text.
public struct InlineISOTime: Sendable {
    /// Up to 32 bytes of ASCII (`formatISO` writes at most 28).
    private var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var length = 0
    private var fallback: String?

    /// The time `text`.
    public init(text: String) {
        fallback = text
    }

    /// `ConversationDateFormats.formatISO(date, localSeconds:)`, written inline ("" for the years it
    /// does not cover, as `MessageLayout` has it).
    public init(date: Date, localSeconds: Int64) {
        let written = withUnsafeMutableBytes(of: &storage) { raw in
            ConversationDateFormats.writeISO(
                date, localSeconds: localSeconds, into: raw.bindMemory(to: UInt8.self))
        }
        if let written { length = written } else { fallback = "" }
    }

    /// Calls `body` with the UTF-8 bytes of the text.
    public func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if var fallback { return try fallback.withUTF8(body) }
        var storage = storage
        return try withUnsafeBytes(of: &storage) { raw in
            try body(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[..<length]))
        }
    }

    /// Whether the text is the hand-made formatter's ASCII (digits, `-`, `:`, `T`, `+`, `Z`).
    public var isPlainASCII: Bool { fallback == nil }

    /// The text.
    public var text: String {
        fallback ?? withUTF8 { String(decoding: $0, as: UTF8.self) }
    }
}
