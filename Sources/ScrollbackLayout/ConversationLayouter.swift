import Foundation
import ScrollbackModel

/// The layout pass (spec §3): turns a conversation into pages of positioned, decorated rows.
///
/// Decisions made here (templates never compute layout):
/// - **Options**: the site's options with the conversation's `layout` overrides on top; dates are
///   shown and days split in `conversation.timeZone`, else the options' zone.
/// - **Alignment**: `system` → center; sender is `me` → right; everything else → left.
/// - **Grouping**: neighbours group while neither is `system`, the sender is the same, the local
///   calendar day is the same and the gap is at most `groupGap` (inclusive). Positions are computed
///   over the whole conversation, so a group may run across a page boundary and a page may open
///   with a `middle` or `last` message.
/// - **Avatar**: only on left-aligned messages, like MessageKit, which hides the avatar of the
///   current sender by default: your own bubbles need no face. With `collapseProfilePicture`, only
///   on the last message of a group (or a single one). Never on `system` messages.
/// - **Header / footer**: with `collapseEnclosingViews`, the header only on the first (or single)
///   message and the footer only on the last (or single); otherwise on every message. A footer is
///   only shown when it has something to show: an edited mark, or a delivery status on a
///   right-aligned message. `system` messages have neither.
/// - **Timestamps**: `top` → the first (or single) message shows it above the bubble; `bottom` →
///   the last (or single) shows it below; `off` → every message shows it below. A `system` message
///   stands alone, so it always shows its own time below it.
/// - **Day separators** before the first message of each local day, and again at the top of a page
///   that starts in the middle of a day (`repeatsPreviousPage`), so every page says which day it is.
/// - **Pages** of `pageSize` messages (day separators do not count); `pageSize <= 0` puts every
///   message on one page.
public struct ConversationLayouter: Sendable {
    /// Site-wide options; the conversation's overrides are applied on top.
    public var options: LayoutOptions
    /// Messages per page.
    public var pageSize: Int

    /// Creates a layouter.
    public init(options: LayoutOptions, pageSize: Int) {
        self.options = options
        self.pageSize = pageSize
    }

    /// Lays out `conversation`.
    public func layout(_ conversation: Conversation) -> ConversationLayout {
        let options = self.options.applying(conversation.layout)
        let zoneName = conversation.timeZone ?? options.timeZone
        // The readers reject unknown zones; UTC keeps a hand-built model from crashing the build.
        let timeZone = TimeZone(identifier: zoneName) ?? TimeZone(identifier: "UTC")!
        let formats = ConversationDateFormats(options: options, timeZone: timeZone)

        var conversation = conversation
        conversation.messages = Self.orderedByDate(conversation.messages)
        let messages = conversation.messages
        let count = messages.count
        let messagesPerPage = pageSize > 0 ? pageSize : max(count, 1)

        var participants = [String: Participant](minimumCapacity: conversation.participants.count)
        for participant in conversation.participants where participants[participant.id] == nil {
            participants[participant.id] = participant
        }
        var indexOfMessage = [String: Int](minimumCapacity: count)
        for (index, message) in messages.enumerated() where indexOfMessage[message.id] == nil {
            indexOfMessage[message.id] = index
        }

        // Local days and group starts, in one pass over the dates.
        var localDays = [Int64]()
        localDays.reserveCapacity(count)
        var startsGroup = [Bool]()
        startsGroup.reserveCapacity(count)
        for index in 0..<count {
            let message = messages[index]
            let day = formats.localDay(message.date)
            localDays.append(day)
            if index == 0 {
                startsGroup.append(true)
            } else {
                let previous = messages[index - 1]
                startsGroup.append(!Self.groups(previous, with: message, sameDay: localDays[index - 1] == day, options.grouping))
            }
        }

        var pages = [PageLayout]()
        pages.reserveCapacity(count / messagesPerPage + 1)
        var items = [LayoutItem]()
        items.reserveCapacity(min(count, messagesPerPage) + 8)
        for index in 0..<count {
            let message = messages[index]
            let pageIndex = index / messagesPerPage
            let startsPage = index % messagesPerPage == 0
            if startsPage, index > 0 {
                pages.append(PageLayout(index: pageIndex - 1, items: items))
                items = []
                items.reserveCapacity(min(count - index, messagesPerPage) + 8)
            }
            let startsDay = index == 0 || localDays[index - 1] != localDays[index]
            if startsDay || startsPage {
                items.append(.daySeparator(DaySeparator(day: formats.day(message.date), repeatsPreviousPage: !startsDay)))
            }

            let isLast = index + 1 == count
            let position = Self.position(startsGroup: startsGroup[index], nextStartsGroup: isLast || startsGroup[index + 1])
            items.append(
                .message(
                    layoutMessage(
                        message, position: position, conversation: conversation, options: options,
                        participants: participants, indexOfMessage: indexOfMessage, messagesPerPage: messagesPerPage,
                        formats: formats)))
        }
        pages.append(PageLayout(index: pages.count, items: items))

        let pageOfMessage = indexOfMessage.mapValues { $0 / messagesPerPage }
        let summary = Self.summary(conversation, participants: participants, formats: formats)
        return ConversationLayout(
            conversation: conversation, options: options, pages: pages, pageOfMessage: pageOfMessage, summary: summary)
    }

    // MARK: One message

    private func layoutMessage(
        _ message: Message, position: GroupPosition, conversation: Conversation, options: LayoutOptions,
        participants: [String: Participant], indexOfMessage: [String: Int], messagesPerPage: Int,
        formats: ConversationDateFormats
    ) -> MessageLayout {
        let isSystem = message.kind.name == .system
        let sender = message.sender.flatMap { participants[$0] }
        let alignment: MessageAlignment
        if isSystem {
            alignment = .center
        } else if let me = conversation.me, message.sender == me {
            alignment = .right
        } else {
            alignment = .left
        }

        let endsGroup = position == .last || position == .single
        let opensGroup = position == .first || position == .single

        let showsAvatar = alignment == .left && (!options.collapseProfilePicture || endsGroup)
        let showsHeader = !isSystem && (!options.collapseEnclosingViews || opensGroup)
        let hasFooterContent = message.edited != nil || (alignment == .right && message.status != nil)
        let showsFooter = !isSystem && hasFooterContent && (!options.collapseEnclosingViews || endsGroup)

        let timestamp: TimestampPlacement
        if isSystem {
            timestamp = .bottom
        } else {
            switch options.collapseTimestamps {
            case .top: timestamp = opensGroup ? .top : .hidden
            case .bottom: timestamp = endsGroup ? .bottom : .hidden
            case .off: timestamp = .bottom
            }
        }

        var reply: ReplyPreview?
        if let targetID = message.replyTo, let targetIndex = indexOfMessage[targetID] {
            let target = conversation.messages[targetIndex]
            reply = ReplyPreview(
                messageID: target.id, pageIndex: targetIndex / messagesPerPage,
                senderName: target.kind.name == .system ? nil : target.sender.map { participants[$0]?.name ?? $0 },
                excerpt: TextExcerpt.make(target.kind.plainText))
        }

        let reactions = message.reactions.map { reaction in
            ReactionSummary(
                emoji: reaction.emoji, count: reaction.senders.count,
                senderNames: reaction.senders.map { participants[$0]?.name ?? $0 })
        }

        return MessageLayout(
            message: message, sender: isSystem ? nil : sender, alignment: alignment, groupPosition: position,
            showsAvatar: showsAvatar, showsHeader: showsHeader, showsFooter: showsFooter, timestamp: timestamp,
            time: formats.messageTime(message.date), edited: message.edited.map(formats.dayAndTime), reply: reply,
            reactions: reactions)
    }

    // MARK: Grouping

    /// Whether `message` continues the group that `previous` belongs to.
    static func groups(_ previous: Message, with message: Message, sameDay: Bool, _ grouping: MessageGroupingOption)
        -> Bool
    {
        guard case .sameSender(let gap) = grouping else { return false }
        guard previous.kind.name != .system, message.kind.name != .system else { return false }
        guard let sender = message.sender, previous.sender == sender, sameDay else { return false }
        return message.date.timeIntervalSince(previous.date) <= gap
    }

    private static func position(startsGroup: Bool, nextStartsGroup: Bool) -> GroupPosition {
        switch (startsGroup, nextStartsGroup) {
        case (true, true): return .single
        case (true, false): return .first
        case (false, true): return .last
        case (false, false): return .middle
        }
    }

    /// `messages` ordered by date, ties in their given order; the readers already sort, so this
    /// usually only checks.
    private static func orderedByDate(_ messages: [Message]) -> [Message] {
        var isOrdered = true
        for index in messages.indices.dropFirst() where messages[index - 1].date > messages[index].date {
            isOrdered = false
            break
        }
        if isOrdered { return messages }
        return messages.enumerated()
            .sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }
            .map(\.element)
    }

    // MARK: Summary

    private static func summary(
        _ conversation: Conversation, participants: [String: Participant], formats: ConversationDateFormats
    ) -> ConversationSummary {
        let messages = conversation.messages
        var lastMessagePreview: String?
        if let last = messages.last {
            let excerpt = TextExcerpt.make(last.kind.plainText)
            if last.kind.name != .system, let senderID = last.sender {
                lastMessagePreview = "\(participants[senderID]?.name ?? senderID): \(excerpt)"
            } else {
                lastMessagePreview = excerpt
            }
        }
        return ConversationSummary(
            id: conversation.id, title: conversation.displayTitle, description: conversation.description,
            participantNames: conversation.participants.map(\.name), messageCount: messages.count,
            firstDate: messages.first.map { formats.dayAndTime($0.date) },
            lastDate: messages.last.map { formats.dayAndTime($0.date) },
            lastMessagePreview: lastMessagePreview)
    }
}
