import Foundation
import ScrollbackLayout
import ScrollbackModel

/// One conversation's share of the search index and of its date list, made while its pages are
/// written and cached in the build cache so an unchanged conversation is not read again.
///
/// Documents come page by page: a timeline page's messages, then the replies of the threads
/// rooted on it. Each page's documents are bytes of their own beside the part's head (title,
/// senders, vocabulary, days); the site caches them a few pages to a file, so an append reads
/// and writes only the file of the pages it renders again, and links the others.
///
/// `SearchIndex.build(parts:)` merges the parts of every published conversation.
public struct SearchPart: Equatable, Sendable {
    /// A sender as results show them.
    public struct Sender: Equatable, Sendable {
        public var name: String
        public var initials: String
        /// Site path of a local avatar (`media/<hash>.<ext>`), if any.
        public var avatar: String?

        public init(name: String, initials: String, avatar: String?) {
            self.name = name
            self.initials = initials
            self.avatar = avatar
        }
    }

    /// One message.
    public struct Document: Equatable, Sendable {
        /// 0-based page index of the file that draws it (a thread reply's: the thread's page).
        public var page: Int
        /// The file inside the conversation's folder that draws the message: its timeline page,
        /// or a thread's own page.
        public var file: String
        /// The message element's id on its page (`m-…`).
        public var anchor: String
        /// Index into `senders`, or -1 (system messages).
        public var sender: Int
        /// Seconds since 1970 (UTC), rounded down.
        public var date: Int64
        /// `SearchPart.imageFlag`, `fileFlag`, `linkFlag`.
        public var flags: Int
        /// Plain text shown in results.
        public var text: String
        /// Distinct tokens, as indexes into `vocabulary`, in the order the message first has them.
        public var tokens: [Int]
    }

    /// The first message of a day.
    public struct Day: Equatable, Sendable {
        /// `yyyy-mm-dd` in the conversation's zone.
        public var iso: String
        /// The day as the page's separator writes it.
        public var text: String
        public var page: Int
        /// The file holding the day's first message (see `Document.file`).
        public var file: String
        public var anchor: String
    }

    public static let imageFlag = 1
    public static let fileFlag = 2
    public static let linkFlag = 4
    /// Each flag and the token that finds its messages (`has:…`).
    static let flagTokens: [(flag: Int, token: String)] = [
        (imageFlag, "has:image"), (fileFlag, "has:file"), (linkFlag, "has:link"),
    ]
    /// Longest text kept for results, in characters (every word is indexed regardless).
    public static let maxTextLength = 1200

    public var conversationID: String
    public var title: String
    public var senders: [Sender] = []
    public var vocabulary: [String] = []
    /// The documents of the pages from `firstLoadedPage` on, page by page, then the documents of
    /// no page (`unpagedDocuments`), decoded from the pages' files.
    public var documents: [Document] {
        (firstLoadedPage..<(firstLoadedPage + pageFiles.count)).flatMap(documents(ofPage:)) + unpagedDocuments
    }
    /// The cache files of the pages from `firstLoadedPage` on (`encodedPages`): a page's
    /// documents are written in their file's form as they are indexed, not kept as values.
    private var pageFiles: [[UInt8]] = []
    /// The documents of no page: a site without search keeps its newest message alone, as the
    /// date list's "newest".
    public private(set) var unpagedDocuments: [Document] = []
    public var days: [Day] = []
    /// How many documents each timeline page holds (its messages, then its threads' replies).
    public private(set) var pageDocumentCounts: [Int] = []
    /// The earliest date of each timeline page's documents (0 for a page of none): the merge
    /// reads a page's file only once the index reaches that date (`SearchIndex.build`).
    public private(set) var pageLowestDates: [Int64] = []
    /// The first page whose documents are in `documents`: a part read for an append holds only
    /// the pages it renders again (`init(decodingHead:fromPage:page:)`).
    public private(set) var firstLoadedPage = 0

    /// How many documents the pages before `firstLoadedPage` hold.
    public var firstDocument: Int { pageDocumentCounts[..<firstLoadedPage].reduce(0, +) }
    /// Each token's index in `vocabulary`, kept between `add` calls; rebuilt when it does not
    /// match `vocabulary` (a part read from its cache files, to which an append adds pages).
    private var vocabularyTable = VocabularyTable([])

    public init(conversationID: String, title: String) {
        self.conversationID = conversationID
        self.title = title
    }

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

    /// `text` cut to `maxTextLength` characters (counting characters only when it may be longer).
    static func resultText(_ text: String) -> String {
        text.utf8.count <= maxTextLength ? text : String(text.prefix(maxTextLength))
    }

    /// Drops the documents of the pages before `page`, once their files are written: the part
    /// then holds those of `page` and later, as one read for an append does
    /// (`init(decodingHead:fromPage:page:)`), and its head stays the same.
    public mutating func forgetPages(before page: Int) {
        precondition(page >= firstLoadedPage && page <= pageDocumentCounts.count, "only pages held are forgotten")
        pageFiles.removeFirst(page - firstLoadedPage)
        firstLoadedPage = page
    }

    /// Drops the messages and days of pages `page` and later (an append re-adds them).
    public mutating func removePages(from page: Int) {
        precondition(page >= firstLoadedPage, "pages before the first one read cannot be dropped")
        if page < pageDocumentCounts.count {
            pageFiles.removeLast(pageFiles.count - (page - firstLoadedPage))
            pageDocumentCounts.removeLast(pageDocumentCounts.count - page)
            pageLowestDates.removeLast(pageLowestDates.count - page)
        }
        days.removeAll { $0.page >= page }
    }

    /// The kind flags `has:image`, `has:file` and `has:link` look at.
    static func flags(of kind: MessageKind) -> Int {
        switch kind {
        case .photo: return imageFlag
        case .video, .audio, .contact: return fileFlag
        case .linkPreview(_, let link): return linkFlag | (link.thumbnail == nil ? 0 : imageFlag)
        case .attributedText(let rich):
            // One pass over the HTML for both tags (both are anchored on `<`).
            let found = foundNeedles(rich.html, tagNeedles)
            return (found & 1 != 0 ? imageFlag : 0) | (found & 2 != 0 ? linkFlag : 0)
        case .text(let text):
            return foundNeedles(text, linkNeedles) != 0 ? linkFlag : 0
        default: return 0
        }
    }

    /// ASCII strings looked for together in a text (`foundNeedles`): each is anchored on its
    /// first byte that is no lowercase letter (`:` of `https://`, `.` of `www.`, `<` of a tag:
    /// rare in chat text, where `h` or `w` are in most words). The text is searched for each
    /// anchor byte with `memchr` (many bytes at a time), and the needles anchored on it are
    /// compared around each one found.
    struct ByteNeedles: ExpressibleByArrayLiteral, Sendable {
        /// Each needle's bytes and the offset of its anchor in them.
        let needles: [(bytes: [UInt8], anchor: Int)]
        /// Each anchor byte, and the needles anchored on it (bit `n`: `needles[n]`).
        let anchors: [(byte: UInt8, needles: UInt8)]

        init(arrayLiteral elements: StaticString...) {
            precondition(elements.count <= 8, "a needle is a bit of a byte")
            var anchors: [(byte: UInt8, needles: UInt8)] = []
            needles = elements.enumerated().map { number, element in
                let bytes = Array(UnsafeBufferPointer(start: element.utf8Start, count: element.utf8CodeUnitCount))
                let anchor = bytes.firstIndex { !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) } ?? 0
                if let known = anchors.firstIndex(where: { $0.byte == bytes[anchor] }) {
                    anchors[known].needles |= 1 << number
                } else {
                    anchors.append((bytes[anchor], 1 << number))
                }
                return (bytes, anchor)
            }
            self.anchors = anchors
        }
    }

    /// The needles of `flags(of:)`: any of `linkNeedles` in a text makes a link; in HTML,
    /// `tagNeedles`' first makes an image and its second a link.
    static let linkNeedles: ByteNeedles = ["http://", "https://", "www."]
    static let tagNeedles: ByteNeedles = ["<img", "<a "]

    /// Which of `needles` `text` holds (bit `n`: `needles.needles[n]`). Each anchor byte is looked
    /// for only while a needle anchored on it is still missing. (Foundation's `contains` searches
    /// with locale rules, many times slower, for no different answer here.)
    static func foundNeedles(_ text: String, _ needles: ByteNeedles) -> UInt8 {
        var text = text
        let all = UInt8(truncatingIfNeeded: (1 << needles.needles.count) - 1)
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return 0 }
            var found: UInt8 = 0
            for (anchorByte, anchored) in needles.anchors {
                var from = 0
                while found & anchored != anchored, from < bytes.count,
                    let match = memchr(base + from, Int32(anchorByte), bytes.count - from)
                {
                    let position = base.distance(to: match.assumingMemoryBound(to: UInt8.self))
                    var candidates = anchored & ~found
                    while candidates != 0 {
                        let number = candidates.trailingZeroBitCount
                        candidates &= candidates - 1
                        let (needle, anchor) = needles.needles[number]
                        let start = position - anchor
                        if start >= 0, start + needle.count <= bytes.count,
                            needle.indices.allSatisfy({ bytes[start + $0] == needle[$0] })
                        {
                            found |= 1 << number
                        }
                    }
                    if found == all { return found }
                    from = position + 1
                }
            }
            return found
        }
    }

    /// The words a message is found by: its plain text, plus a link's title and a custom
    /// message's string values.
    static func searchText(of kind: MessageKind) -> String {
        switch kind {
        case .linkPreview(let text, let link):
            let title = link.title ?? ""
            return text.isEmpty ? title : title.isEmpty ? text : text + " " + title
        case .photo(let media), .video(let media), .audio(let media):
            return media.caption ?? media.alt ?? media.title ?? kind.plainText
        case .custom(let custom):
            var strings = ""
            var found = false
            func collect(_ value: JSONValue) {
                switch value {
                case .string(let text):
                    if found { strings += " " }
                    strings += text
                    found = true
                case .array(let values): values.forEach(collect)
                case .object(let members): members.forEach { collect($0.value) }
                default: break
                }
            }
            collect(custom.data)
            return found ? strings : kind.plainText
        default:
            return kind.plainText
        }
    }

    public static func == (lhs: SearchPart, rhs: SearchPart) -> Bool {
        lhs.conversationID == rhs.conversationID && lhs.title == rhs.title && lhs.senders == rhs.senders
            && lhs.vocabulary == rhs.vocabulary && lhs.pageFiles == rhs.pageFiles
            && lhs.unpagedDocuments == rhs.unpagedDocuments && lhs.days == rhs.days
            && lhs.pageDocumentCounts == rhs.pageDocumentCounts && lhs.pageLowestDates == rhs.pageLowestDates
            && lhs.firstLoadedPage == rhs.firstLoadedPage
    }

    // MARK: Cache files

    private static let headMagic: [UInt8] = Array("SBP5".utf8)
    private static let pageMagic: [UInt8] = Array("SBD4".utf8)

    /// The part's head file (`search/<id>.bin` in the build cache): title, senders, vocabulary, each
    /// page's document count and earliest date, the documents of no page, and the days.
    public func encodedHead() -> [UInt8] {
        var writer = ByteWriter()
        writer.bytes = Self.headMagic
        writer.string(conversationID)
        writer.string(title)
        writer.varint(senders.count)
        for sender in senders {
            writer.string(sender.name)
            writer.string(sender.initials)
            writer.string(sender.avatar ?? "")
        }
        writer.varint(vocabulary.count)
        for token in vocabulary { writer.string(token) }
        writer.varint(pageDocumentCounts.count)
        for (count, date) in zip(pageDocumentCounts, pageLowestDates) {
            writer.varint(count)
            writer.signed(date)
        }
        PageEncoder(unpagedDocuments[...]).encode(into: &writer)
        writer.varint(days.count)
        for day in days {
            writer.string(day.iso)
            writer.string(day.text)
            writer.varint(day.page)
            writer.string(day.file)
            writer.string(day.anchor)
        }
        return writer.bytes
    }

    /// The bytes of pages `page` and later, in page order: each page's documents, as the site's
    /// cache files hold them (`search/<id>/`, a few pages to a file).
    public func encodedPages(from page: Int) -> [[UInt8]] {
        precondition(page >= firstLoadedPage, "pages before the first one read are not held")
        return Array(pageFiles.dropFirst(page - firstLoadedPage))
    }

    /// A page's file (`encodedPages`) holding `documents`.
    static func encodedPage(_ documents: ArraySlice<Document>) -> [UInt8] {
        PageEncoder(documents).encodedPage()
    }

    /// A list of documents as the cache files store them, written a document at a time: a
    /// page's file (`encodedPage()`), or a head's documents of no page (`encode(into:)`). Dates
    /// are written as the difference from the document before.
    struct PageEncoder {
        private var body = ByteWriter()
        /// How many documents it holds.
        private(set) var count = 0
        /// The earliest date of its documents.
        private(set) var lowestDate: Int64?
        private var previousDate: Int64 = 0
        /// Where the last file written is in `body`.
        private var previousFile: Range<Int>?

        init() {}

        /// The encoder holding `documents`.
        init(_ documents: ArraySlice<Document>) {
            for document in documents {
                add(
                    page: document.page, file: document.file, anchor: document.anchor, sender: document.sender,
                    date: document.date, flags: document.flags, text: document.text, tokens: document.tokens)
            }
        }

        /// Adds a document (its fields as `Document`'s; `tokens` without repeats).
        mutating func add(
            page: Int, file: String, anchor: String, sender: Int, date: Int64, flags: Int, text: String,
            tokens: [Int]
        ) {
            var (file, anchor, text) = (file, anchor, text)
            file.withUTF8 { file in
                anchor.withUTF8 { anchor in
                    text.withUTF8 { text in
                        addFields(
                            page: page, file: file, anchor: anchor, sender: sender, date: date, flags: flags, text: text
                        )
                    }
                }
            }
            body.varint(tokens.count)
            for token in tokens { body.varint(token) }
            count += 1
        }

        /// Adds `document` of `page` (a run's file) with its token and sender numbers mapped
        /// (`tokens[n]`, `senders[n]`: the part's numbers of the run's `n`), from its bytes.
        mutating func add(
            _ document: StoredDocument, of page: StoredPage, tokens: [Int], senders: [Int]
        ) {
            page.bytes.withUnsafeBufferPointer { bytes in
                func field(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> { .init(rebasing: bytes[range]) }
                addFields(
                    page: document.page, file: field(document.file), anchor: field(document.anchor),
                    sender: document.sender < 0 ? document.sender : senders[document.sender], date: document.date,
                    flags: document.flags, text: field(document.text))
            }
            body.varint(document.tokenCount)
            page.forEachToken(of: document) { body.varint(tokens[$0]) }
            count += 1
        }

        /// Writes a document's fields up to its tokens.
        private mutating func addFields(
            page: Int, file: UnsafeBufferPointer<UInt8>, anchor: UnsafeBufferPointer<UInt8>, sender: Int,
            date: Int64, flags: Int, text: UnsafeBufferPointer<UInt8>
        ) {
            body.varint(page)
            // The documents of a page are mostly drawn by one file: 0 for the previous one's.
            if let previousFile, body.bytes[previousFile].elementsEqual(file) {
                body.varint(0)
            } else {
                body.varint(file.count + 1)
                body.bytes.append(contentsOf: file)
                previousFile = (body.bytes.count - file.count)..<body.bytes.count
            }
            body.string(utf8: anchor)
            body.varint(sender + 1)
            body.signed(date - previousDate)
            previousDate = date
            lowestDate = min(lowestDate ?? date, date)
            body.varint(flags)
            body.string(utf8: text)
        }

        /// Writes the documents, counted.
        func encode(into writer: inout ByteWriter) {
            writer.varint(count)
            writer.bytes += body.bytes
        }

        /// A page's file holding the documents.
        func encodedPage() -> [UInt8] {
            var writer = ByteWriter()
            writer.bytes.reserveCapacity(SearchPart.pageMagic.count + 10 + body.bytes.count)
            writer.bytes += SearchPart.pageMagic
            encode(into: &writer)
            return writer.bytes
        }
    }

    /// The documents held of page `page` (`firstLoadedPage` or later).
    public func documents(ofPage page: Int) -> [Document] {
        storedPage(page).decoded()
    }

    /// The documents held of page `page` (`firstLoadedPage` or later), read in place.
    public func storedPage(_ page: Int) -> StoredPage {
        StoredPage(pageFiles[page - firstLoadedPage], tokenCount: .max)!
    }

    /// A document as its cache file stores it, read in place: its strings and tokens are ranges
    /// of the file's bytes, so the index's rows are written from them without a `String` or an
    /// array made per document.
    public struct StoredDocument: Sendable {
        /// As `Document.page`.
        public var page: Int
        /// As `Document.sender`.
        public var sender: Int
        /// As `Document.date`.
        public var date: Int64
        /// As `Document.flags`.
        public var flags: Int
        /// Where `Document.file`'s UTF-8 is in the file's bytes.
        var file: Range<Int>
        /// Where `Document.anchor`'s UTF-8 is.
        var anchor: Range<Int>
        /// Where `Document.text`'s UTF-8 is.
        var text: Range<Int>
        /// The token numbers' varints (`PageEncoder`).
        var tokens: Range<Int>
        /// How many tokens `tokens` holds.
        public var tokenCount: Int
    }

    /// The documents of a page's file, read in place (`StoredDocument`).
    public struct StoredPage: Sendable {
        /// The file's bytes.
        public let bytes: [UInt8]
        public let documents: [StoredDocument]

        /// The documents of `bytes`, a page's file of a part whose vocabulary holds `tokenCount`
        /// tokens; `nil` when the bytes are not such a file.
        public init?(_ bytes: [UInt8], tokenCount: Int) {
            guard bytes.starts(with: SearchPart.pageMagic) else { return nil }
            var reader = ByteReader(bytes)
            reader.offset = SearchPart.pageMagic.count
            guard let documents = SearchPart.storedDocuments(from: &reader, tokenCount: tokenCount), reader.atEnd
            else { return nil }
            (self.bytes, self.documents) = (bytes, documents)
        }

        /// The page holding `documents`, as its file would store them.
        public init(encoding documents: ArraySlice<Document>) {
            self.init(SearchPart.encodedPage(documents), tokenCount: .max)!
        }

        /// `documents`, read in place from `bytes` (a head's documents of no page).
        fileprivate init(bytes: [UInt8], documents: [StoredDocument]) {
            (self.bytes, self.documents) = (bytes, documents)
        }

        /// The documents as values.
        public func decoded() -> [Document] {
            documents.indices.map(decoded)
        }

        /// Document `index` as a value.
        public func decoded(_ index: Int) -> Document {
            let document = documents[index]
            var tokens: [Int] = []
            tokens.reserveCapacity(document.tokenCount)
            forEachToken(of: document) { tokens.append($0) }
            func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
            return Document(
                page: document.page, file: string(document.file), anchor: string(document.anchor),
                sender: document.sender, date: document.date, flags: document.flags, text: string(document.text),
                tokens: tokens)
        }

        /// Calls `body` with the bytes of `range` (a document's string).
        func withBytes<Result>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
            bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
        }

        /// Calls `body` with each token number of `document`, in its order.
        func forEachToken(of document: StoredDocument, _ body: (Int) -> Void) {
            var reader = ByteReader(bytes)
            reader.offset = document.tokens.lowerBound
            for _ in 0..<document.tokenCount { body(reader.varint()!) }
        }
    }

    /// `PageEncoder`'s documents, read in place from `reader`; `nil` when the bytes are not such
    /// documents, or name a token past `tokenCount`.
    private static func storedDocuments(from reader: inout ByteReader, tokenCount: Int) -> [StoredDocument]? {
        guard let documentCount = reader.varint() else { return nil }
        var documents: [StoredDocument] = []
        documents.reserveCapacity(max(0, min(documentCount, reader.bytes.count)))
        var previousDate: Int64 = 0
        var previousFile: Range<Int>?
        /// A document's file: its length plus one and its bytes, or 0 for the previous document's.
        func file(_ reader: inout ByteReader) -> Range<Int>? {
            guard let field = reader.varint() else { return nil }
            if field != 0 { previousFile = reader.range(count: field &- 1) }
            return previousFile
        }
        for _ in 0..<max(0, documentCount) {
            guard let page = reader.varint(), let file = file(&reader), let anchor = reader.stringRange(),
                let sender = reader.varint(),
                let dateDelta = reader.signed(), let flags = reader.varint(), let text = reader.stringRange(),
                let count = reader.varint(), count >= 0
            else { return nil }
            let tokensStart = reader.offset
            for _ in 0..<count {
                guard let token = reader.varint(), token >= 0, token < tokenCount else { return nil }
            }
            previousDate += dateDelta
            documents.append(
                StoredDocument(
                    page: page, sender: sender - 1, date: previousDate, flags: flags, file: file, anchor: anchor,
                    text: text, tokens: tokensStart..<reader.offset, tokenCount: count))
        }
        return documents
    }

    /// A part from its head file and the files of pages `firstPage` and later (`page` gives a
    /// page's file, `nil` when it cannot be read); `nil` when they are not a part's files.
    public init?(decodingHead head: [UInt8], fromPage firstPage: Int = 0, page: (Int) -> [UInt8]?) {
        guard head.starts(with: Self.headMagic) else { return nil }
        var reader = ByteReader(head)
        reader.offset = Self.headMagic.count
        guard let id = reader.string(), let title = reader.string(), let senderCount = reader.varint() else {
            return nil
        }
        self.init(conversationID: id, title: title)
        for _ in 0..<max(0, senderCount) {
            guard let name = reader.string(), let initials = reader.string(), let avatar = reader.string() else {
                return nil
            }
            senders.append(Sender(name: name, initials: initials, avatar: avatar.isEmpty ? nil : avatar))
        }
        guard let tokenCount = reader.varint() else { return nil }
        vocabulary.reserveCapacity(max(0, tokenCount))
        for _ in 0..<max(0, tokenCount) {
            guard let token = reader.string() else { return nil }
            vocabulary.append(token)
        }
        guard let pageCount = reader.varint() else { return nil }
        for _ in 0..<max(0, pageCount) {
            guard let count = reader.varint(), let date = reader.signed() else { return nil }
            pageDocumentCounts.append(count)
            pageLowestDates.append(date)
        }
        guard let storedUnpaged = Self.storedDocuments(from: &reader, tokenCount: tokenCount),
            let dayCount = reader.varint()
        else { return nil }
        unpagedDocuments = StoredPage(bytes: head, documents: storedUnpaged).decoded()
        for _ in 0..<max(0, dayCount) {
            guard let iso = reader.string(), let text = reader.string(), let page = reader.varint(),
                let file = reader.string(), let anchor = reader.string()
            else { return nil }
            days.append(Day(iso: iso, text: text, page: page, file: file, anchor: anchor))
        }
        guard reader.atEnd else { return nil }
        firstLoadedPage = min(max(0, firstPage), pageDocumentCounts.count)
        for number in firstLoadedPage..<pageDocumentCounts.count {
            guard let bytes = page(number), let stored = StoredPage(bytes, tokenCount: tokenCount),
                stored.documents.count == pageDocumentCounts[number]
            else { return nil }
            pageFiles.append(bytes)
        }
    }
}
