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
/// - **Header**: never on your own (`me`) messages, nor in a 1:1 conversation (`namesSenders`).
/// - **Header / footer**: with `collapseEnclosingViews`, the header only on the first (or single)
///   message and the footer only on the last (or single); otherwise on every message. A footer is
///   only shown when it has something to show: an edited mark, or a delivery status on a
///   right-aligned message. `system` messages have neither.
/// - **Timestamps**: `top` → the first (or single) message shows it above the bubble; `bottom` →
///   the last (or single) shows it below; `off` → every message shows it below. A `system` message
///   is a centred note, which messengers draw without a time (WhatsApp's and Telegram's notices):
///   it shows none but with `off`; its time is still in its visually hidden label.
/// - **Day separators** before the first message of each local day, and again at the top of a page
///   that starts in the middle of a day (`repeatsPreviousPage`), so every page says which day it is.
/// - **Dates**: send times in the timestamp format (a time style, or a pattern) with the locale;
///   edit times and the summary's first and last dates with their day ("May 3, 2024 at 9:41 AM");
///   every ISO text as `yyyy-MM-dd'T'HH:mm:ssXXXXX` in the zone; day separators as the
///   localized "EEEEMMMMdy" ("Friday, May 3, 2024") and `yyyy-MM-dd`.
/// - **Replies** quote the target's sender, page and a one-line excerpt (`TextExcerpt`); a reply to
///   a missing message gets no quote. **Reactions** name who reacted (display name, else id).
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

    /// Makes every layout decision for `conversation` except building the rows, which
    /// `ConversationPlan.forEachPlannedRow(ofPage:_:)` hands out one page at a time.
    ///
    /// All the formatter work happens here, once per conversation; pages are then pure assembly.
    ///
    /// Threads (spec §1.1): a reply whose root is in the log is laid out in its root's thread,
    /// a conversation of its own planned by this same layouter; a thread of at most
    /// `threadInlineLimit` replies opens in place on its root's page, a longer one gets its own
    /// pages (`thread-<root>.html`, `thread-<root>-page-2.html`, …). A broadcast reply also
    /// stands in the timeline, as a reference (its message element is in the thread). A reply
    /// whose root is missing stays in the timeline. A reply to a reply belongs to the first
    /// one's root (threads are flat, as in Slack).
    public func plan(_ conversation: Conversation) -> ConversationPlan {
        if conversation.messages.contains(where: { $0.thread != nil || $0.pinned }) {
            return planWithThreads(conversation)
        }
        return plan(conversation, globalIndexes: nil, totalMessageCount: nil, extras: nil)
    }

    /// Plans a date-sorted subset of a larger conversation, for rebuilding only some of its pages
    /// (an incremental build after messages were appended).
    ///
    /// `globalIndexes[i]` is the position of `conversation.messages[i]` among all
    /// `totalMessageCount` messages (strictly increasing). Pages, the page count, reply previews'
    /// pages and the summary's count use these positions; group positions and day separators use
    /// the neighbours present. So a page is right when all its messages, the message before it,
    /// the first message and the targets of its replies are in the subset.
    ///
    /// `pageDays` names the days of the pages whose messages are not all in the subset (the
    /// links to them say which dates they hold), as a whole plan's `pageDays` gave them.
    public func plan(
        _ conversation: Conversation, globalIndexes: [Int], totalMessageCount: Int, pageDays: [PageDays?] = []
    ) -> ConversationPlan {
        plan(
            conversation, globalIndexes: Optional(globalIndexes), totalMessageCount: totalMessageCount, extras: nil,
            knownPageDays: pageDays)
    }

    /// What a plan of a conversation with threads or pins is given besides its messages.
    struct PlanExtras {
        var anchors: AnchorTable
        var pageFiles: PageFiles
        var directory: MessageDirectory
        /// Where each message of the list is in `directory.messages`.
        var directoryIndexes: [Int32]
        var threadsByRoot: [String: ThreadPlan]
        var referenceFlags: [Bool]
        var pinned: [PinnedMessage]
        /// The whole conversation's summary (a thread's list or the timeline hold only some).
        var summary: ConversationSummary?
        /// The conversation's date formats, made once for the timeline and all its threads
        /// (making ICU formatters costs more than laying out a short thread).
        var formats: ConversationDateFormats
    }

    /// The plan of a conversation with threads or pins: the timeline's, holding its threads'.
    private func planWithThreads(_ conversation: Conversation) -> ConversationPlan {
        let messages = Self.orderedByDate(conversation.messages)
        var indexOfMessage = [String: Int](minimumCapacity: messages.count)
        // Fields are read in place (`readInPlace`): `messages[index].id` copies the whole message.
        let ids = messages.indices.map { index in messages.readInPlace(index) { $0.id } }
        let threadIDs = messages.indices.map { index in messages.readInPlace(index) { $0.thread } }
        for index in messages.indices.reversed() { indexOfMessage[ids[index]] = index }
        // Each reply's root: follow `thread` up to a message that is in no thread. A missing
        // root, or a loop, leaves the reply in the timeline (an orphan).
        var rootOf = [Int?](repeating: nil, count: messages.count)
        for index in messages.indices {
            guard var rootID = threadIDs[index], rootID != ids[index] else { continue }
            var steps = 0
            while let rootIndex = indexOfMessage[rootID], let next = threadIDs[rootIndex], next != ids[rootIndex],
                steps < 64
            {
                rootID = next
                steps += 1
            }
            if steps < 64, let rootIndex = indexOfMessage[rootID], rootIndex != index { rootOf[index] = rootIndex }
        }
        let options = self.options.applying(conversation.layout)
        let messagesPerPage = pageSize > 0 ? pageSize : max(messages.count, 1)
        // The timeline: messages in no thread, orphans, and broadcast replies as references.
        var timeline: [Message] = []
        var timelineIndexes: [Int32] = []
        var referenceFlags: [Bool] = []
        var repliesOfRoot: [Int: [Int]] = [:]
        for index in messages.indices {
            if let root = rootOf[index] {
                repliesOfRoot[root, default: []].append(index)
                if messages.readInPlace(index, { $0.broadcast }) {
                    timeline.append(messages[index])
                    timelineIndexes.append(Int32(index))
                    referenceFlags.append(true)
                }
            } else {
                timeline.append(messages[index])
                timelineIndexes.append(Int32(index))
                referenceFlags.append(false)
            }
        }
        let roots = repliesOfRoot.keys.sorted()
        let anchors = AnchorTable(messages: messages)
        // Each message's page file: the timeline's pages first, then each long thread's.
        let timelinePageCount = (timeline.count + messagesPerPage - 1) / messagesPerPage
        var fileNames = (0..<max(timelinePageCount, 1)).map(PageFiles.conversation.name(ofPage:))
        var fileOfMessage = [Int32](repeating: 0, count: messages.count)
        // (A reference's message is drawn in its thread, below.)
        for position in timeline.indices where !referenceFlags[position] {
            fileOfMessage[Int(timelineIndexes[position])] = Int32(position / messagesPerPage)
        }
        var pageFilesOfRoot: [Int: PageFiles] = [:]
        for root in roots {
            let replies = repliesOfRoot[root]!
            let pageFiles: PageFiles
            if replies.count <= options.threadInlineLimit {
                // Drawn under the root, in its file (the root is in the timeline: it is in no thread).
                let rootFile = fileOfMessage[root]
                pageFiles = .inline(file: fileNames[Int(rootFile)])
                for reply in replies { fileOfMessage[reply] = rootFile }
            } else {
                pageFiles = .thread(stem: "thread-" + anchors.anchor(ids[root]).dropFirst(2))
                let firstFile = fileNames.count
                let pageCount = (replies.count + messagesPerPage - 1) / messagesPerPage
                fileNames += (0..<pageCount).map(pageFiles.name(ofPage:))
                for (position, reply) in replies.enumerated() {
                    fileOfMessage[reply] = Int32(firstFile + position / messagesPerPage)
                }
            }
            pageFilesOfRoot[root] = pageFiles
        }
        let participants = Self.participantsByID(conversation.participants)
        let directory = MessageDirectory(
            messages: messages, indexOfMessage: indexOfMessage, fileNames: fileNames, fileOfMessage: fileOfMessage,
            participants: participants)
        let pinned = messages.indices.filter { index in messages.readInPlace(index) { $0.pinned } }.map { index in
            let message = messages[index]
            return PinnedMessage(
                messageID: message.id, fileName: directory.fileName(ofMessageAt: index),
                senderName: directory.senderName(message), excerpt: MessageNotices.excerpt(message))
        }

        let formats = ConversationDateFormats(
            options: options, timeZone: Self.timeZone(named: conversation.timeZone ?? options.timeZone))
        var whole = conversation
        whole.messages = messages
        let summary = Self.summary(whole, participants: participants, formats: formats, messageCount: messages.count)
        var threadsByRoot: [String: ThreadPlan] = [:]
        for root in roots {
            let replyIndexes = repliesOfRoot[root]!
            let replies = replyIndexes.map { messages[$0] }
            let pageFiles = pageFilesOfRoot[root]!
            var thread = conversation
            thread.messages = replies
            var layouter = self
            if pageFiles.isInline { layouter.pageSize = 0 }
            let plan = layouter.plan(
                thread, globalIndexes: nil, totalMessageCount: nil,
                extras: PlanExtras(
                    anchors: anchors, pageFiles: pageFiles, directory: directory,
                    directoryIndexes: replyIndexes.map(Int32.init), threadsByRoot: [:],
                    referenceFlags: [], pinned: pinned, summary: summary, formats: formats))
            var names: [String] = []
            var seen: Set<String> = []
            for reply in replies {
                guard let sender = reply.sender, reply.kind.name != .system, seen.insert(sender).inserted else {
                    continue
                }
                names.append(participants[sender]?.name ?? sender)
            }
            let summary = ThreadSummary(
                replyCount: replies.count, replierNames: names,
                lastReply: replies.last.map { formats.dayAndTime($0.date) } ?? FormattedDate(text: "", iso: ""),
                isInline: pageFiles.isInline,
                firstFile: pageFiles.name(ofPage: 0))
            let rootID = ids[root]
            if threadsByRoot[rootID] == nil {
                threadsByRoot[rootID] = ThreadPlan(rootID: rootID, replies: plan, summary: summary)
            }
        }
        var main = conversation
        main.messages = timeline
        return plan(
            main, globalIndexes: nil, totalMessageCount: nil,
            extras: PlanExtras(
                anchors: anchors, pageFiles: .conversation, directory: directory, directoryIndexes: timelineIndexes,
                threadsByRoot: threadsByRoot,
                referenceFlags: referenceFlags, pinned: pinned, summary: summary, formats: formats))
    }

    private func plan(
        _ conversation: Conversation, globalIndexes: [Int]?, totalMessageCount: Int?, extras: PlanExtras?,
        knownPageDays: [PageDays?] = []
    ) -> ConversationPlan {
        let options = self.options.applying(conversation.layout)
        let formats =
            extras?.formats
            ?? ConversationDateFormats(
                options: options, timeZone: Self.timeZone(named: conversation.timeZone ?? options.timeZone))

        var conversation = conversation
        conversation.messages = Self.orderedByDate(conversation.messages)
        let messages = conversation.messages
        let count = messages.count

        // (A thread's conversation has its timeline's participants: the directory's table.)
        let participants = extras?.directory.participants ?? Self.participantsByID(conversation.participants)
        var indexOfMessage = [String: Int](minimumCapacity: count)
        for index in messages.indices.reversed() {
            indexOfMessage.updateValue(index, forKey: messages[index].id)
        }

        // One pass over the dates: wall-clock seconds, day separators, group starts.
        var localSeconds = [Int64]()
        localSeconds.reserveCapacity(count)
        var daySeparators = [Int64: FormattedDate]()
        var isoOutsideYears1To9999 = [Int: String]()
        var startsGroup = [Bool]()
        startsGroup.reserveCapacity(count)
        var previousDay = Int64.min
        var dates = [Date]()
        dates.reserveCapacity(count)
        // Messages are read in place (`messages[index].field`), never bound to a local: a copy of a
        // message retains and releases every string and array it holds.
        for index in 0..<count {
            let date = messages[index].date
            dates.append(date)
            let local = formats.localSeconds(date)
            localSeconds.append(local)
            let day = ConversationDateFormats.floorDivide(local, ConversationDateFormats.secondsPerDay)
            if day != previousDay, daySeparators[day] == nil {
                daySeparators[day] = formats.day(date)
            }
            if !ConversationPlan.handFormatsISO(date) {
                isoOutsideYears1To9999[index] = formats.formatISO(date, localSeconds: local)
            }
            let references = extras?.referenceFlags ?? []
            startsGroup.append(
                index == 0
                    || !Self.groups(
                        messages, previous: index - 1, next: index, sameDay: previousDay == day, options.grouping)
                    || (!references.isEmpty && (references[index] || references[index - 1]))
            )
            previousDay = day
        }

        let timeTexts = formats.timestampTexts(dates, localSeconds: localSeconds)
        let tooltipTexts = formats.tooltipTexts(localSeconds: localSeconds)

        var positions = [GroupPosition]()
        positions.reserveCapacity(count)
        for index in 0..<count {
            let nextStartsGroup = index + 1 == count || startsGroup[index + 1]
            positions.append(Self.position(startsGroup: startsGroup[index], nextStartsGroup: nextStartsGroup))
        }

        var editedTimes = [Int: FormattedDate]()
        for index in messages.indices {
            if let edited = messages[index].edited { editedTimes[index] = formats.dayAndTime(edited) }
        }

        let totalCount = totalMessageCount ?? count
        let messagesPerPage = pageSize > 0 ? pageSize : max(totalCount, 1)
        let pageCount = max(1, (totalCount + messagesPerPage - 1) / messagesPerPage)
        // Each page's own count and date range, for the pages whose messages are all here. (A
        // thread drawn in place has no page of its own to head.)
        var pageHeaders = [PageHeader?](repeating: nil, count: pageCount)
        var pageDays = (0..<pageCount).map { $0 < knownPageDays.count ? knownPageDays[$0] : nil }
        for page in 0..<pageCount where extras?.pageFiles.isInline != true {
            let bounds = ConversationPlan.localBounds(
                ofPage: page, messagesPerPage: messagesPerPage, count: count, globalIndexes: globalIndexes)
            let globalCount = min(totalCount, (page + 1) * messagesPerPage) - page * messagesPerPage
            guard !bounds.isEmpty, bounds.count == globalCount else { continue }
            let first = dates[bounds.lowerBound]
            let last = dates[bounds.upperBound - 1]
            pageHeaders[page] = PageHeader(
                messageCount: bounds.count, firstDate: formats.dayAndTime(first), lastDate: formats.dayAndTime(last))
            pageDays[page] = PageDays(first: formats.shortDay(first), last: formats.shortDay(last))
        }
        return ConversationPlan(
            conversation: conversation, options: options, messagesPerPage: messagesPerPage,
            summary: extras?.summary
                ?? Self.summary(conversation, participants: participants, formats: formats, messageCount: totalCount),
            participants: participants, indexOfMessage: indexOfMessage, positions: positions,
            localSeconds: localSeconds, timeTexts: timeTexts, tooltipTexts: tooltipTexts,
            namesSenders: Self.namesSenders(conversation), daySeparators: daySeparators,
            editedTimes: editedTimes, isoOutsideYears1To9999: isoOutsideYears1To9999,
            globalIndexes: globalIndexes, totalMessageCount: totalCount, pageHeaders: pageHeaders, pageDays: pageDays,
            anchors: extras?.anchors ?? AnchorTable(messages: messages), pageFiles: extras?.pageFiles ?? .conversation,
            directory: extras?.directory, directoryIndexes: extras?.directoryIndexes ?? [],
            threadsByRoot: extras?.threadsByRoot ?? [:],
            referenceFlags: extras?.referenceFlags ?? [], pinned: extras?.pinned ?? [])
    }

    /// Each participant by id; the first of a duplicate id wins.
    static func participantsByID(_ participants: [Participant]) -> [String: Participant] {
        var byID = [String: Participant](minimumCapacity: participants.count)
        for participant in participants.reversed() { byID[participant.id] = participant }
        return byID
    }

    /// The zone named `name`; UTC for an unknown name (the readers reject them, so only a
    /// hand-built model has one, and it must not crash the build).
    static func timeZone(named name: String) -> TimeZone {
        TimeZone(identifier: name) ?? TimeZone(identifier: "UTC")!
    }

    /// Whether the conversation is a group: more than one participant besides `me`, or messages
    /// from more than one of them. Only then do incoming messages carry their sender's name.
    static func namesSenders(_ conversation: Conversation) -> Bool {
        var others = Set<String>()
        for participant in conversation.participants where participant.id != conversation.me {
            others.insert(participant.id)
            if others.count > 1 { return true }
        }
        for index in conversation.messages.indices where conversation.messages[index].kind.name != .system {
            guard let sender = conversation.messages[index].sender, sender != conversation.me else { continue }
            others.insert(sender)
            if others.count > 1 { return true }
        }
        return false
    }

    // MARK: Grouping

    /// Whether `messages[next]` continues the group that `messages[previous]` belongs to; reads
    /// the messages in place (a copy of a message retains everything it holds).
    static func groups(
        _ messages: [Message], previous: Int, next: Int, sameDay: Bool, _ grouping: MessageGroupingOption
    ) -> Bool {
        guard case .sameSender(let gap) = grouping else { return false }
        guard messages[previous].kind.name != .system, messages[next].kind.name != .system else { return false }
        guard let sender = messages[next].sender, messages[previous].sender == sender, sameDay else { return false }
        return messages[next].date.timeIntervalSince(messages[previous].date) <= gap
    }

    static func position(startsGroup: Bool, nextStartsGroup: Bool) -> GroupPosition {
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
        _ conversation: Conversation, participants: [String: Participant], formats: ConversationDateFormats,
        messageCount: Int
    ) -> ConversationSummary {
        let messages = conversation.messages
        var lastMessagePreview: String?
        if let last = messages.last {
            let excerpt = MessageNotices.excerpt(last)
            if last.kind.name != .system, let senderID = last.sender {
                lastMessagePreview = "\(participants[senderID]?.name ?? senderID): \(excerpt)"
            } else {
                lastMessagePreview = excerpt
            }
        }
        var summary = ConversationSummary(
            id: conversation.id, title: conversation.displayTitle, description: conversation.description,
            participantNames: conversation.participants.map(\.name), messageCount: messageCount,
            firstDate: messages.first.map { formats.dayAndTime($0.date) },
            lastDate: messages.last.map { formats.dayAndTime($0.date) },
            lastMessagePreview: lastMessagePreview, section: conversation.section)
        // An importer marks every message with its format; a native log's messages carry none.
        summary.app = messages.lazy.compactMap { $0.source?.format }.first
        return summary
    }
}
