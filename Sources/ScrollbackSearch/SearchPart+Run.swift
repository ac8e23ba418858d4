import Foundation
import ScrollbackLayout
import ScrollbackModel

// Indexing: a run of pages becomes documents and days, then is appended to the part.

extension SearchPart {
    /// The documents and days of a run of pages, indexed on their own so that the runs of a long
    /// conversation are indexed on several threads, then appended to the part in page order
    /// (`append(_:)`). Its token and sender numbers are its own until then.
    public struct Run: Sendable {
        /// The pages it holds.
        public let pages: Range<Int>
        /// Whether it was made with `tokenizesText` (else: days, and the newest message alone).
        let tokenizesText: Bool
        var senders: [Sender] = []
        var vocabulary: [String] = []
        var vocabularyTable = VocabularyTable([])
        /// Each page's cache file, its tokens and senders numbered by the run.
        var pageFiles: [[UInt8]] = []
        var days: [Day] = []
        var pageDocumentCounts: [Int] = []
        var pageLowestDates: [Int64] = []
        /// The newest timeline message.
        var newest: Document?

        /// Indexes `pages` of `plan`: each page's messages, then the replies of the threads rooted
        /// on it.
        ///
        /// - Parameters:
        ///   - anchor: the element id of `plan.conversation.messages[index]`.
        ///   - sender: how results show a participant (name, initials, avatar).
        ///   - tokenizesText: false when the site ships no search: only the days and the newest
        ///     message are kept (with no text or tokens).
        public init(
            _ plan: ConversationPlan, pages: Range<Int>, anchor: (Int) -> String,
            sender: (Participant) -> Sender, tokenizesText: Bool = true
        ) {
            self.pages = pages
            self.tokenizesText = tokenizesText
            if tokenizesText {
                addDocuments(plan, anchor: anchor, sender: sender)
            } else {
                addDaysAndNewest(plan, anchor: anchor)
            }
        }

        /// What indexing a run's messages keeps from one message to the next (besides the
        /// tokenizer and the buffer of a message's token numbers).
        private struct IndexingState {
            /// Each shown name's number in `senders`.
            var numberOfName: [String: Int] = [:]
            /// Each participant id's place in `senderTokens`.
            var slotOfID: [String: Int] = [:]
            /// The last message's sender id and its slot.
            var lastSender: (id: String, slot: Int)?
            /// Per participant id seen: its number in `senders` and its `from:` tokens (numbers
            /// once known: tokens are numbered in order of first use, so the cache file stays the
            /// same).
            var senderTokens: [(number: Int, names: [String], ids: [Int]?)] = []
            let participants: [String: Participant]
            /// The numbers of `flagTokens`' tokens, once used.
            var flagTokenNumbers: [Int?] = [nil, nil, nil]
            var repeats = RepeatFilter()
        }

        // The indexing is written as methods over `inout` state rather than local functions
        // capturing local variables: a captured variable is checked for exclusive access at run
        // time on every use, several times per token.
        private mutating func addDocuments(
            _ plan: ConversationPlan, anchor: (Int) -> String, sender: (Participant) -> Sender
        ) {
            var tokenizer = SearchTokenizer()
            var ids: [Int] = []
            var state = IndexingState(
                participants: Dictionary(
                    plan.conversation.participants.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }))
            // The newest timeline message: its page's file, and its place in it.
            var newestPlace: (file: Int, document: Int)?
            for page in pages {
                var encoder = PageEncoder()
                addMessages(
                    of: plan, pages: page..<(page + 1), anchor: anchor, sender: sender, recordsDays: true,
                    state: &state, tokenizer: &tokenizer, ids: &ids, into: &encoder)
                if encoder.count > 0 { newestPlace = (pageFiles.count, encoder.count - 1) }
                // Thread replies are drawn on their root's page or on the thread's own pages:
                // indexed with the files that hold them, but not in the date list (it follows the
                // timeline).
                for thread in plan.threads(rootedOnPages: page..<(page + 1)) {
                    let replies = thread.replies
                    addMessages(
                        of: replies, pages: 0..<replies.pageCount,
                        anchor: { replies.anchors.anchor(replies.conversation.messages.readInPlace($0) { $0.id }) },
                        sender: sender, recordsDays: false, state: &state, tokenizer: &tokenizer, ids: &ids,
                        into: &encoder)
                }
                pageDocumentCounts.append(encoder.count)
                pageLowestDates.append(encoder.lowestDate ?? 0)
                pageFiles.append(encoder.encodedPage())
            }
            newest = newestPlace.map { StoredPage(pageFiles[$0.file], tokenCount: .max)!.decoded($0.document) }
        }

        /// The number of the token with these bytes in `vocabulary`, which gains it if it is new.
        private mutating func tokenNumber(utf8 token: UnsafeBufferPointer<UInt8>) -> Int {
            let (number, isNew) = vocabularyTable.number(of: token)
            if isNew { vocabulary.append(String(decoding: token, as: UTF8.self)) }
            return number
        }

        private mutating func tokenNumber(_ token: String) -> Int {
            var token = token
            return token.withUTF8 { tokenNumber(utf8: $0) }
        }

        /// Adds a document to `encoder` for each message of `pages` of `plan` (and its day, when
        /// `recordsDays`).
        private mutating func addMessages(
            of plan: ConversationPlan, pages: Range<Int>, anchor: (Int) -> String, sender: (Participant) -> Sender,
            recordsDays: Bool, state: inout IndexingState, tokenizer: inout SearchTokenizer, ids: inout [Int],
            into encoder: inout PageEncoder
        ) {
            let messages = plan.conversation.messages
            SearchPart.forEachMessage(of: plan, pages: pages) { page, index, opensDay in
                // What the index needs of the kind, read where it lies (a copy of the kind retains
                // and releases its payload).
                let (flags, text, isSystem, messageSender, date) = messages.readInPlace(index) {
                    (
                        SearchPart.flags(of: $0.kind), SearchPart.searchText(of: $0.kind), $0.kind.name == .system,
                        $0.sender, $0.date
                    )
                }
                let elementID = anchor(index)
                let file = plan.fileName(ofMessageAt: index, listedOnPage: page)
                if recordsDays, let day = opensDay {
                    days.append(Day(iso: day.iso, text: day.text, page: page, file: file, anchor: elementID))
                }
                var senderNumber = -1
                var senderSlot: Int?
                if !isSystem, let id = messageSender {
                    if let last = state.lastSender, last.id == id {
                        // Most messages follow one of the same sender: no lookup by id.
                        senderSlot = last.slot
                        senderNumber = state.senderTokens[last.slot].number
                    } else if let known = state.slotOfID[id] {
                        senderSlot = known
                        senderNumber = state.senderTokens[known].number
                    } else {
                        let participant = state.participants[id] ?? Participant(id: id, name: id)
                        let shown = sender(participant)
                        if let known = state.numberOfName[shown.name] {
                            senderNumber = known
                        } else {
                            senderNumber = senders.count
                            state.numberOfName[shown.name] = senderNumber
                            senders.append(shown)
                        }
                        var names = Set<String>()
                        tokenizer.forEachToken(participant.name + " " + id) { names.insert("from:" + $0) }
                        senderSlot = state.senderTokens.count
                        state.slotOfID[id] = senderSlot
                        state.senderTokens.append((senderNumber, names.sorted(), nil))
                    }
                    state.lastSender = (id, senderSlot!)
                }
                ids.removeAll(keepingCapacity: true)
                tokenizer.forEachTokenUTF8(text) { ids.append(tokenNumber(utf8: $0)) }
                if let slot = senderSlot {
                    if let fromIDs = state.senderTokens[slot].ids {
                        ids += fromIDs
                    } else {
                        let fromIDs = state.senderTokens[slot].names.map { tokenNumber($0) }
                        state.senderTokens[slot].ids = fromIDs
                        ids += fromIDs
                    }
                }
                for (number, flagToken) in SearchPart.flagTokens.enumerated() where flags & flagToken.flag != 0 {
                    if state.flagTokenNumbers[number] == nil {
                        state.flagTokenNumbers[number] = tokenNumber(flagToken.token)
                    }
                    ids.append(state.flagTokenNumbers[number]!)
                }
                state.repeats.removeRepeats(&ids)
                encoder.add(
                    page: page, file: file, anchor: elementID, sender: senderNumber,
                    date: Int64(date.timeIntervalSince1970.rounded(.down)), flags: flags,
                    text: SearchPart.resultText(text), tokens: ids)
            }
        }

        /// For a site without search: the days, and the newest message as the only document.
        private mutating func addDaysAndNewest(_ plan: ConversationPlan, anchor: (Int) -> String) {
            var last: (page: Int, index: Int)?
            SearchPart.forEachMessage(of: plan, pages: pages) { page, index, opensDay in
                last = (page, index)
                guard let day = opensDay else { return }
                let file = plan.fileName(ofMessageAt: index, listedOnPage: page)
                days.append(Day(iso: day.iso, text: day.text, page: page, file: file, anchor: anchor(index)))
            }
            guard let (page, index) = last else { return }
            let date = plan.conversation.messages.readInPlace(index) { $0.date }
            newest = Document(
                page: page, file: plan.fileName(ofMessageAt: index, listedOnPage: page), anchor: anchor(index),
                sender: -1, date: Int64(date.timeIntervalSince1970.rounded(.down)), flags: 0, text: "", tokens: [])
        }
    }

    /// Adds the messages and days of `pages` of `plan` (see `Run`); returns the newest timeline
    /// message added (the date list's "newest").
    @discardableResult
    public mutating func add(
        _ plan: ConversationPlan, pages: Range<Int>, anchor: (Int) -> String, sender: (Participant) -> Sender,
        tokenizesText: Bool = true
    ) -> Document? {
        append(Run(plan, pages: pages, anchor: anchor, sender: sender, tokenizesText: tokenizesText))
    }

    /// Adds `run`, the pages right after the ones held, numbering its tokens and senders as
    /// `add` would have: in order of first use, so the part does not depend on how its pages were
    /// split into runs. Returns the run's newest timeline message.
    @discardableResult
    public mutating func append(_ run: consuming Run) -> Document? {
        guard run.tokenizesText else {
            days += run.days
            // A site without search keeps only the newest message.
            if let newest = run.newest { unpagedDocuments = [newest] }
            return unpagedDocuments.last
        }
        precondition(run.pages.lowerBound == pageDocumentCounts.count, "pages are added in order, after the ones held")
        var newest = run.newest
        if vocabulary.isEmpty, senders.isEmpty {
            // Numbered from nothing: the run's numbers are the part's, and its files are taken as
            // they are.
            vocabulary = run.vocabulary
            vocabularyTable = run.vocabularyTable
            senders = run.senders
            pageFiles += run.pageFiles
        } else {
            if vocabularyTable.count != vocabulary.count { vocabularyTable = VocabularyTable(vocabulary) }
            // The run's tokens in its own order of first use: the new ones are numbered as a
            // single `add` over the held and the run's pages would have numbered them.
            let tokenNumbers = run.vocabulary.map { token -> Int in
                var token = token
                let (number, isNew) = token.withUTF8 { vocabularyTable.number(of: $0) }
                if isNew { vocabulary.append(token) }
                return number
            }
            var senderIndex: [String: Int] = [:]
            for (index, sender) in senders.enumerated() { senderIndex[sender.name] = index }
            let senderNumbers = run.senders.map { shown -> Int in
                if let known = senderIndex[shown.name] { return known }
                senderIndex[shown.name] = senders.count
                senders.append(shown)
                return senders.count - 1
            }
            func renumbered(_ document: Document) -> Document {
                var document = document
                // Distinct numbers stay distinct, in the same order.
                document.tokens.withUnsafeMutableBufferPointer { tokens in
                    for position in tokens.indices { tokens[position] = tokenNumbers[tokens[position]] }
                }
                if document.sender >= 0 { document.sender = senderNumbers[document.sender] }
                return document
            }
            // The run's files are written again with the part's numbers.
            for file in run.pageFiles {
                let stored = StoredPage(file, tokenCount: .max)!
                var encoder = PageEncoder()
                for document in stored.documents {
                    encoder.add(document, of: stored, tokens: tokenNumbers, senders: senderNumbers)
                }
                pageFiles.append(encoder.encodedPage())
            }
            newest = newest.map(renumbered)
        }
        days += run.days
        pageDocumentCounts += run.pageDocumentCounts
        pageLowestDates += run.pageLowestDates
        return newest
    }

    /// Calls `body` with each message of `pages` of `plan` in page order (not a broadcast reply's
    /// reference: its message is indexed with its thread): its page, its index, and the day it
    /// opens (`nil` unless it is the first message of a day, a day a page repeats not counted).
    private static func forEachMessage(
        of plan: ConversationPlan, pages: Range<Int>,
        _ body: (_ page: Int, _ index: Int, _ opensDay: FormattedDate?) -> Void
    ) {
        for page in pages {
            var pendingDay: FormattedDate?
            plan.forEachMessage(ofPage: page) { separator, index in
                if let separator, !separator.repeatsPreviousPage { pendingDay = separator.day }
                if plan.isThreadReference(index) { return }
                body(page, index, pendingDay)
                pendingDay = nil
            }
        }
    }

    /// Drops the token numbers a message has already, in one pass and keeping their order (no
    /// sort: a page's file stores the numbers as they come).
    struct RepeatFilter {
        /// The last message (numbered from 1) that had each token number.
        private var seenBy: [UInt32] = []
        private var message: UInt32 = 0

        /// Drops from `ids` (a message's token numbers, not negative) each one after its first.
        mutating func removeRepeats(_ ids: inout [Int]) {
            message &+= 1
            if message == 0 {
                // After 2³² messages the stamps start again from a clear table.
                seenBy = [UInt32](repeating: 0, count: seenBy.count)
                message = 1
            }
            if let largest = ids.max(), largest >= seenBy.count {
                seenBy += repeatElement(0, count: max(largest + 1, 2 * seenBy.count) - seenBy.count)
            }
            let message = message
            // On the buffers: an array's element writes check its uniqueness every time.
            let kept = seenBy.withUnsafeMutableBufferPointer { seenBy in
                ids.withUnsafeMutableBufferPointer { ids -> Int in
                    var kept = 0
                    for position in ids.indices where seenBy[ids[position]] != message {
                        seenBy[ids[position]] = message
                        ids[kept] = ids[position]
                        kept += 1
                    }
                    return kept
                }
            }
            ids.removeLast(ids.count - kept)
        }
    }
}
