import Foundation
import ScrollbackModel

/// A conversation with every layout decision made but its rows not yet built
/// (`ConversationLayouter.plan(_:)`): build pages one at a time with `page(_:)`.
///
/// A million messages laid out at once take over half a gigabyte of rows; a plan keeps a few
/// bytes per message (group position, wall-clock time, time text) and builds a page's rows only
/// when asked. It is immutable, so pages can be built on several threads.
public struct ConversationPlan: Sendable {
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

    /// Number of pages; never 0 (a conversation with no message has one empty page).
    public var pageCount: Int {
        max(1, (totalMessageCount + messagesPerPage - 1) / messagesPerPage)
    }

    /// Page index (0-based) of the message with `id`, if there is one.
    public func pageIndex(ofMessage id: String) -> Int? {
        indexOfMessage[id].map { globalIndex($0) / messagesPerPage }
    }

    /// Page index of every message id (`ConversationLayout.pageOfMessage`).
    public var pageOfMessage: [String: Int] {
        let messagesPerPage = messagesPerPage
        return indexOfMessage.mapValues { globalIndex($0) / messagesPerPage }
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

    /// The rows of page `index` (0-based): day separators and messages.
    ///
    /// Every page opens with a day separator: the day's own when its first message opens the day,
    /// otherwise a repeat of the day already under way (`repeatsPreviousPage`).
    public func page(_ index: Int) -> PageLayout {
        let bounds = Self.localBounds(
            ofPage: index, messagesPerPage: messagesPerPage, count: conversation.messages.count,
            globalIndexes: globalIndexes)
        guard !bounds.isEmpty else { return PageLayout(index: index, items: []) }
        var items = [LayoutItem]()
        items.reserveCapacity(bounds.count + 8)
        forEachRow(ofPage: index) { items.append($0) }
        return PageLayout(index: index, items: items, header: pageHeader(index))
    }

    /// The header of page `index` when all its messages are in the plan (`PageLayout.header`).
    public func pageHeader(_ index: Int) -> PageHeader? {
        index < pageHeaders.count ? pageHeaders[index] : nil
    }

    /// Hands the rows of page `index` to `body` one at a time, in order: the rows of `page(index)`
    /// without collecting them, so a renderer that writes each row at once copies none of them.
    public func forEachRow(ofPage index: Int, _ body: (LayoutItem) throws -> Void) rethrows {
        let bounds = Self.localBounds(
            ofPage: index, messagesPerPage: messagesPerPage, count: conversation.messages.count,
            globalIndexes: globalIndexes)
        let first = bounds.lowerBound
        let end = bounds.upperBound
        guard first < end else { return }

        var previousDay = first == 0 ? Int64.min : localDay(first - 1)
        for messageIndex in first..<end {
            let day = localDay(messageIndex)
            let startsDay = day != previousDay
            if startsDay || messageIndex == first, let separator = daySeparators[day] {
                try body(.daySeparator(DaySeparator(day: separator, repeatsPreviousPage: !startsDay)))
            }
            previousDay = day
            try body(.message(row(messageIndex)))
        }
    }

    private func localDay(_ messageIndex: Int) -> Int64 {
        ConversationDateFormats.floorDivide(localSeconds[messageIndex], ConversationDateFormats.secondsPerDay)
    }

    /// The row of the message at `messageIndex`; the rules are documented on `ConversationLayouter`.
    private func row(_ messageIndex: Int) -> MessageLayout {
        let message = conversation.messages[messageIndex]
        let position = positions[messageIndex]
        let isSystem = message.kind.name == .system
        let alignment: MessageAlignment
        if isSystem {
            alignment = .center
        } else if let me = conversation.me, message.sender == me {
            alignment = .right
        } else {
            alignment = .left
        }

        let opensGroup = position == .first || position == .single
        let endsGroup = position == .last || position == .single

        // Avatars only on the left, as MessageKit hides the current sender's own avatar.
        let showsAvatar = alignment == .left && (!options.collapseProfilePicture || endsGroup)
        let showsHeader = !isSystem && (!options.collapseEnclosingViews || opensGroup)
        let hasFooterContent = message.edited != nil || (alignment == .right && message.status != nil)
        let showsFooter = !isSystem && hasFooterContent && (!options.collapseEnclosingViews || endsGroup)

        let timestamp: TimestampPlacement
        if isSystem {
            timestamp = .bottom  // a system message stands alone: it always shows its own time
        } else {
            switch options.collapseTimestamps {
            case .top: timestamp = opensGroup ? .top : .hidden
            case .bottom: timestamp = endsGroup ? .bottom : .hidden
            case .off: timestamp = .bottom
            }
        }

        let iso =
            isoOutsideYears1To9999[messageIndex]
            ?? ConversationDateFormats.formatISO(message.date, localSeconds: localSeconds[messageIndex]) ?? ""

        return MessageLayout(
            message: message, sender: isSystem ? nil : message.sender.flatMap { participants[$0] },
            alignment: alignment, groupPosition: position, showsAvatar: showsAvatar, showsHeader: showsHeader,
            showsFooter: showsFooter, timestamp: timestamp, time: FormattedDate(text: timeTexts[messageIndex], iso: iso),
            edited: message.edited == nil ? nil : editedTimes[messageIndex], reply: replyPreview(of: message),
            reactions: message.reactions.map(reactionSummary))
    }

    private func replyPreview(of message: Message) -> ReplyPreview? {
        // A missing target has no preview; the reader already warned about it.
        guard let targetID = message.replyTo, let targetIndex = indexOfMessage[targetID] else { return nil }
        let target = conversation.messages[targetIndex]
        let senderName = target.kind.name == .system ? nil : target.sender.map { participants[$0]?.name ?? $0 }
        return ReplyPreview(
            messageID: target.id, pageIndex: globalIndex(targetIndex) / messagesPerPage, senderName: senderName,
            excerpt: TextExcerpt.make(target.kind.plainText))
    }

    private func reactionSummary(_ reaction: Reaction) -> ReactionSummary {
        ReactionSummary(
            emoji: reaction.emoji, count: reaction.senders.count,
            senderNames: reaction.senders.map { participants[$0]?.name ?? $0 })
    }
}
