import Foundation
import ScrollbackModel

/// Building the index from every part in one merge of their pages in the index's order, so
/// that what grows with the archive in memory is its posting lists (a byte or two a posting),
/// not its documents.
///
/// The merge takes each page's documents when it reaches the page's earliest date
/// (`SearchPart.pageLowestDates`): their files are read in that order, a few pages ahead
/// (`PageReader`), and each page is dropped once the merge has passed all its documents. Pages
/// are written in date order, so a few pages of each part are held at a time. The merge numbers
/// the documents, fills every token's posting list, and writes each row of the document chunks
/// straight from the page's bytes; the chunks are compressed `jobs` at a time as they fill.
extension SearchIndex {
    /// The index files (site paths and bytes, sorted by path) for `parts`, in any order.
    public static func build(parts: [SearchPart], jobs: Int = Parallel.defaultJobs) -> [(path: String, bytes: [UInt8])]
    {
        let files = CollectedFiles()
        precondition(parts.allSatisfy { $0.firstLoadedPage == 0 }, "the index is built from whole parts")
        build(heads: parts, page: { parts[$0].storedPage($1) }, jobs: jobs) { path, bytes in
            files.add(path, bytes)
        }
        return files.sorted()
    }

    /// Makes the index files for the parts whose heads are `heads` (in any order; each needs its
    /// id, title, senders, vocabulary, page document counts and earliest dates, and documents of
    /// no page) and hands each to `write` with its site path, from several threads at once;
    /// rethrows the first error of `page` or `write`. The files do not depend on `jobs`. Each
    /// document names the file that draws it (`SearchPart.Document.file`), so results link to
    /// thread pages as well as timeline pages.
    ///
    /// - Parameters:
    ///   - page: the documents of page `page` of the part of `heads[part]`, none dated before the
    ///     page's earliest date (called once a page, in the order the merge needs them, a few
    ///     pages ahead of it on a thread of its own when `jobs` > 1).
    public static func build<Failure: Error>(
        heads: [SearchPart],
        page: @escaping @Sendable (_ part: Int, _ page: Int) throws(Failure) -> SearchPart.StoredPage,
        jobs: Int, write: @escaping @Sendable (_ path: String, _ bytes: [UInt8]) throws(Failure) -> Void
    ) throws(Failure) {
        // Parts in conversation order; `order[n]` is the index in `heads` of part n.
        let order = heads.indices.sorted { heads[$0].conversationID < heads[$1].conversationID }
        let senders = SenderTable(order.map { heads[$0].senders })

        // Tokens: the union of the parts' vocabularies and one `in:` token per conversation,
        // in the index's order.
        var tokenSet = Set<String>()
        for index in order {
            tokenSet.formUnion(heads[index].vocabulary)
            tokenSet.insert("in:" + heads[index].conversationID)
        }
        let tokens = sortedTokens(Array(tokenSet))
        let tokenNumber = Dictionary(uniqueKeysWithValues: tokens.enumerated().map { ($1, Int32($0)) })
        let tokenMaps: [[Int32]] = order.map { heads[$0].vocabulary.map { tokenNumber[$0]! } }
        let inTokens = order.map { tokenNumber["in:" + heads[$0].conversationID]! }
        let conversations = order.map { (id: heads[$0].conversationID, title: heads[$0].title) }

        // A cursor per page holding documents (the documents of no page last), queued at the
        // page's earliest date until it is read (the unread pages one at a time, in that order:
        // the queue holds the pages being merged and the next to read).
        var cursors: [PageCursor] = []
        var queue = MergeQueue()
        var unread: [(key: MergeKey, cursor: Int)] = []
        for (number, index) in order.enumerated() {
            let head = heads[index]
            var firstPosition = 0
            for (pageNumber, count) in head.pageDocumentCounts.enumerated() {
                if count > 0 {
                    let key = MergeKey(date: head.pageLowestDates[pageNumber], part: number, position: firstPosition)
                    unread.append((key, cursors.count))
                    cursors.append(PageCursor(part: number, page: pageNumber, firstPosition: firstPosition))
                }
                firstPosition += count
            }
            if !head.unpagedDocuments.isEmpty {
                var cursor = PageCursor(part: number, page: nil, firstPosition: firstPosition)
                cursor.load(.init(encoding: head.unpagedDocuments[...]))
                queue.push(cursor.key, cursor: cursors.count)
                cursors.append(cursor)
            }
        }

        // The merge takes the queued pages in the order of their keys (the keys it takes only
        // grow): their files are read in that order, ahead of it.
        unread.sort { $0.key < $1.key }
        if let first = unread.first { queue.push(first.key, cursor: first.cursor) }
        let reads = unread.map { (part: order[$0.key.part], page: cursors[$0.cursor].page!) }
        let reading = DispatchGroup()
        let reader = jobs > 1 ? PageReader<Failure>(count: reads.count, ahead: 8) : nil
        if let reader {
            Parallel.start(in: reading) {
                reader.read { number throws(Failure) in try page(reads[number].part, reads[number].page) }
            }
        }
        defer {
            reader?.stop()
            reading.wait()
        }
        var readCount = 0

        let postings = PostingLists(tokenCount: tokens.count)
        var days: [Day] = []
        var chunkCounts: [Int] = []
        var chunk = ChunkRows()
        // The chunks are compressed and written by `jobs - 1` other threads as the merge fills
        // them; the merge's thread takes some too when they pile up, and the last ones.
        let failure = FirstError<Failure>()
        let chunks = ChunkQueue()
        let compressing = DispatchGroup()
        let compress: @Sendable (Int, [UInt8]) -> Void = { number, rows in
            failure.run { () throws(Failure) in try write(chunkPath(number), deflate(rows)) }
        }
        for _ in 1..<max(1, jobs) {
            Parallel.start(in: compressing) { while let (number, rows) = chunks.take() { compress(number, rows) } }
        }
        let pileLimit = 4 * (max(1, jobs) - 1)
        func closeChunk() {
            chunks.put(chunkCounts.count, chunk.finish())
            chunkCounts.append(chunk.count)
            chunk = ChunkRows()
            while chunks.count > pileLimit, let (number, rows) = chunks.takeIfAny() { compress(number, rows) }
        }
        var identity = ByteWriter()
        var number: Int32 = 0
        do throws(Failure) {
            while let (key, cursor) = queue.first {
                guard let stored = cursors[cursor].stored else {
                    // Its documents are due: read them, and queue the cursor at its first one.
                    let part = order[cursors[cursor].part]
                    let pageNumber = cursors[cursor].page!
                    precondition(reads[readCount] == (part, pageNumber), "pages are taken in the order they are read")
                    if let reader {
                        cursors[cursor].load(try reader.take(readCount))
                    } else {
                        cursors[cursor].load(try page(part, pageNumber))
                    }
                    readCount += 1
                    precondition(
                        cursors[cursor].key.date >= heads[part].pageLowestDates[pageNumber],
                        "a page holds no document before its earliest date")
                    queue.replaceFirst(cursors[cursor].key)
                    if readCount < unread.count { queue.push(unread[readCount].key, cursor: unread[readCount].cursor) }
                    continue
                }
                let documentIndex = cursors[cursor].current
                let document = stored.documents[documentIndex]
                let tokenMap = tokenMaps[key.part]
                stored.forEachToken(of: document) { postings.add(number, to: Int(tokenMap[$0])) }
                postings.add(number, to: Int(inTokens[key.part]))
                let day = day(of: key.date)
                if days.last?.day != day { days.append(Day(day: day, first: Int(number))) }
                identity.bytes.removeAll(keepingCapacity: true)
                appendRowIdentity(document, of: stored, part: key.part, senders: senders, to: &identity)
                if chunk.count > 0, closesChunk(holding: chunk.count, before: identityHash(identity.bytes[...])) {
                    closeChunk()
                }
                chunk.startRow()
                chunk.writer.bytes += identity.bytes
                appendRowRest(document, of: stored, to: &chunk.writer)
                number += 1
                if cursors[cursor].advance() {
                    queue.replaceFirst(cursors[cursor].key)
                } else {
                    queue.removeFirst()
                }
            }
        } catch {
            chunks.close()
            compressing.wait()
            throw error
        }
        if chunk.count > 0 { closeChunk() }
        chunks.close()
        while let (number, rows) = chunks.takeIfAny() { compress(number, rows) }
        compressing.wait()
        try failure.rethrow()

        // Each token's entry, made `jobs` ranges of tokens at once (the other threads are done);
        // then packed into shards in token order.
        let entries = ConcurrentSlots<[[UInt8]]>(count: max(1, jobs))
        let ranges = postings.ranges(count: max(1, jobs))
        Parallel.forEach(ranges.count, jobs: jobs) { range in
            entries.store(
                ranges[range].map { postings.count($0) > 0 ? entry(tokens[$0], postings.list($0)) : [] }, at: range)
        }
        var shards = ShardPacker()
        for (range, rangeEntries) in zip(ranges, entries.values()) {
            for (number, entry) in zip(range, rangeEntries!) where !entry.isEmpty {
                if let closed = shards.add(tokens[number], entry: entry) {
                    try write(shardPath(closed.number), closed.bytes)
                }
            }
        }
        if let closed = shards.finish() { try write(shardPath(closed.number), closed.bytes) }
        try write(daysPath, daysFile(days))
        let manifest = manifestFile(
            documents: Int(number), chunks: chunkCounts, conversations: conversations, senders: senders,
            shards: shards.firstTokens)
        try write(manifestPath, manifest)
    }
}

/// Every token's posting list while the merge fills them in document order: each list's delta
/// varints (`PostingList`'s) in blocks of one shared buffer, each block ending with
/// the number of the list's next block, so a posting costs no array of its own (nor the
/// uniqueness check of one).
final class PostingLists: @unchecked Sendable {
    /// A block: `payload` bytes of varints, then the next block's number (an `Int32`).
    private static let blockSize = 32
    private static let payload = 28
    private var blocks: UnsafeMutablePointer<UInt8>
    private var blockCapacity = 1024
    private var blockCount = 0
    /// Per token, together (a posting touches one): its first and last blocks, the bytes used in
    /// the last, its document count, and its first and last documents.
    private struct TokenList {
        var head: Int32 = 0
        var tail: Int32 = 0
        var count: Int32 = 0
        var first: Int32 = 0
        var last: Int32 = 0
        var used: UInt8 = 0
    }
    private let lists: UnsafeMutablePointer<TokenList>
    private let tokenCount: Int

    init(tokenCount: Int) {
        self.tokenCount = tokenCount
        blocks = .allocate(capacity: blockCapacity * Self.blockSize)
        lists = .allocate(capacity: tokenCount)
        lists.initialize(repeating: TokenList(), count: tokenCount)
    }

    deinit {
        lists.deallocate()
        blocks.deallocate()
    }

    /// The tokens cut into `count` ranges of about as many postings each, in order.
    func ranges(count: Int) -> [Range<Int>] {
        let total = (0..<tokenCount).reduce(0) { $0 + Int(lists[$1].count) }
        var ranges: [Range<Int>] = []
        var (start, sum) = (0, 0)
        for token in 0..<tokenCount {
            sum += Int(lists[token].count)
            if ranges.count < count - 1, sum * count >= total * (ranges.count + 1) {
                ranges.append(start..<(token + 1))
                start = token + 1
            }
        }
        ranges.append(start..<tokenCount)
        return ranges
    }

    /// How many documents token `token`'s list holds.
    func count(_ token: Int) -> Int { Int(lists[token].count) }

    /// Adds `document`, greater than any added before, to token `token`'s list.
    @inline(__always)
    func add(_ document: Int32, to token: Int) {
        precondition(token >= 0 && token < tokenCount, "a token of the index")
        let list = lists + token
        let delta: UInt32
        if list.pointee.count == 0 {
            let block = newBlock()
            (list.pointee.first, list.pointee.head, list.pointee.tail, list.pointee.used) = (document, block, block, 0)
            delta = UInt32(document)
        } else {
            delta = UInt32(document - list.pointee.last)
        }
        list.pointee.last = document
        list.pointee.count += 1
        ByteWriter.forEachVarintByte(of: UInt64(delta)) { append($0, to: list) }
    }

    @inline(__always)
    private func append(_ byte: UInt8, to list: UnsafeMutablePointer<TokenList>) {
        var tail = Int(list.pointee.tail)
        var offset = Int(list.pointee.used)
        if offset == Self.payload {
            let next = newBlock()
            UnsafeMutableRawPointer(blocks + tail * Self.blockSize + Self.payload).storeBytes(of: next, as: Int32.self)
            list.pointee.tail = next
            (tail, offset) = (Int(next), 0)
        }
        blocks[tail * Self.blockSize + offset] = byte
        list.pointee.used = UInt8(offset + 1)
    }

    private func newBlock() -> Int32 {
        if blockCount == blockCapacity {
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * blockCapacity * Self.blockSize)
            grown.moveInitialize(from: blocks, count: blockCount * Self.blockSize)
            blocks.deallocate()
            (blocks, blockCapacity) = (grown, 2 * blockCapacity)
        }
        blockCount += 1
        return Int32(blockCount - 1)
    }

    /// Token `token`'s list (at least one document).
    func list(_ token: Int) -> PostingList {
        let list = lists[token]
        var deltas: [UInt8] = []
        var block = Int(list.head)
        while block != Int(list.tail) {
            deltas.append(contentsOf: UnsafeBufferPointer(start: blocks + block * Self.blockSize, count: Self.payload))
            block = Int(UnsafeRawPointer(blocks + block * Self.blockSize + Self.payload).load(as: Int32.self))
        }
        deltas.append(contentsOf: UnsafeBufferPointer(start: blocks + block * Self.blockSize, count: Int(list.used)))
        return PostingList(deltas: deltas, count: Int(list.count), first: list.first, last: list.last)
    }
}

/// Where a document goes in the index: by date, then part, then position in the part.
struct MergeKey: Comparable {
    var date: Int64
    var part: Int
    var position: Int

    static func < (a: MergeKey, b: MergeKey) -> Bool { (a.date, a.part, a.position) < (b.date, b.part, b.position) }
}

/// One page's documents as the merge reads them, in the index's order (date, then position).
struct PageCursor {
    /// The part's number in the index.
    let part: Int
    /// The page in the part; `nil` for the part's documents of no page.
    let page: Int?
    /// The position in the part of the page's first document.
    let firstPosition: Int
    /// The page's documents, once read; dropped after the last one is merged.
    private(set) var stored: SearchPart.StoredPage?
    /// Indexes into `stored.documents`, in the index's order.
    private var order: [Int32] = []
    private var next = 0

    init(part: Int, page: Int?, firstPosition: Int) {
        (self.part, self.page, self.firstPosition) = (part, page, firstPosition)
    }

    /// Takes the page's documents (at least one).
    mutating func load(_ page: SearchPart.StoredPage) {
        let documents = page.documents
        order = (0..<Int32(documents.count)).map { $0 }
        // Mostly in date order already: the sort finds runs.
        order.sort { (documents[Int($0)].date, $0) < (documents[Int($1)].date, $1) }
        stored = page
        next = 0
    }

    /// The index in `stored.documents` of the next document to merge.
    var current: Int { Int(order[next]) }

    /// The next document's place in the index.
    var key: MergeKey {
        MergeKey(date: stored!.documents[current].date, part: part, position: firstPosition + current)
    }

    /// Moves to the next document; `false` (and the page dropped) after the last.
    mutating func advance() -> Bool {
        next += 1
        guard next == order.count else { return true }
        stored = nil
        order = []
        return false
    }
}

/// The cursors whose next row comes first in the index (each run's rows are already in its
/// order): a binary heap. The merge looks at the first, then moves it to its next row
/// (`replaceFirst`: one walk down the heap) or drops it.
struct MergeQueue {
    private var entries: [(key: MergeKey, cursor: Int)] = []

    /// The cursor whose next row comes first, and that row's key.
    var first: (key: MergeKey, cursor: Int)? { entries.first }

    mutating func push(_ key: MergeKey, cursor: Int) {
        entries.append((key, cursor))
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].key < entries[parent].key else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Gives the first cursor the key `key` (not before its last), and puts it in its place.
    mutating func replaceFirst(_ key: MergeKey) {
        entries[0].key = key
        siftDown()
    }

    /// Drops the first cursor.
    mutating func removeFirst() {
        let last = entries.removeLast()
        guard !entries.isEmpty else { return }
        entries[0] = last
        siftDown()
    }

    private mutating func siftDown() {
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < entries.count else { break }
            var least = left
            if left + 1 < entries.count, entries[left + 1].key < entries[left].key { least = left + 1 }
            guard entries[least].key < entries[parent].key else { break }
            entries.swapAt(least, parent)
            parent = least
        }
    }
}

/// The pages' documents the merge will take next, read in that order by a thread of their own
/// at most `ahead` pages before the merge takes them.
private final class PageReader<Failure: Error>: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int
    private let ahead: Int
    private var read: [Int: Result<SearchPart.StoredPage, Failure>] = [:]
    private var taken = 0
    private var stopped = false

    init(count: Int, ahead: Int) {
        (self.count, self.ahead) = (count, ahead)
    }

    /// Reads pages `0..<count` in order with `page`, keeping at most `ahead` not yet taken
    /// (the reading thread's work); returns once all are read or `stop` was called.
    func read(_ page: (Int) throws(Failure) -> SearchPart.StoredPage) {
        for number in 0..<count {
            let mayRead = condition.withLock {
                while number - taken >= ahead, !stopped { condition.wait() }
                return !stopped
            }
            guard mayRead else { return }
            let result: Result<SearchPart.StoredPage, Failure>
            do throws(Failure) {
                result = .success(try page(number))
            } catch {
                result = .failure(error)
            }
            condition.withLock {
                read[number] = result
                condition.broadcast()
            }
        }
    }

    /// Page `number`'s documents (pages are taken in order), waiting for them to be read;
    /// rethrows the error reading them.
    func take(_ number: Int) throws(Failure) -> SearchPart.StoredPage {
        let result = condition.withLock {
            while read[number] == nil { condition.wait() }
            taken = number + 1
            condition.broadcast()
            return read.removeValue(forKey: number)!
        }
        return try result.get()
    }

    /// Ends the reading early (the merge failed).
    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }
}

/// Chunks (their rows) waiting to be compressed, first in first out, shared by the merge and the threads
/// that compress them.
private final class ChunkQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: [(number: Int, rows: [UInt8])] = []
    private var next = 0
    private var closed = false

    /// How many are waiting.
    var count: Int { condition.withLock { waiting.count - next } }

    func put(_ number: Int, _ rows: [UInt8]) {
        condition.withLock {
            waiting.append((number, rows))
            condition.signal()
        }
    }

    /// No more will come: `take` returns `nil` once the queue is empty.
    func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    /// The next chunk, waiting for one; `nil` once the queue is closed and empty.
    func take() -> (Int, [UInt8])? {
        condition.withLock {
            while next == waiting.count, !closed { condition.wait() }
            return unlockedTake()
        }
    }

    /// The next chunk if one is waiting.
    func takeIfAny() -> (Int, [UInt8])? { condition.withLock { unlockedTake() } }

    private func unlockedTake() -> (Int, [UInt8])? {
        guard next < waiting.count else { return nil }
        defer {
            waiting[next].rows = []
            next += 1
            if next == waiting.count {
                waiting.removeAll(keepingCapacity: true)
                next = 0
            }
        }
        return waiting[next]
    }
}

/// The first error of work that writes from several threads (the rest goes on: the files of a
/// failed build are thrown away with its staging folder).
private final class FirstError<Failure: Error>: @unchecked Sendable {
    private var error: Failure?
    private let lock = NSLock()

    func run(_ body: () throws(Failure) -> Void) {
        do throws(Failure) {
            try body()
        } catch {
            lock.withLock { if self.error == nil { self.error = error } }
        }
    }

    func rethrow() throws(Failure) {
        if let error = lock.withLock({ error }) { throw error }
    }
}

/// Files handed over from several threads, collected for `SearchIndex.build(parts:)`.
private final class CollectedFiles: @unchecked Sendable {
    private var files: [String: [UInt8]] = [:]
    private let lock = NSLock()

    func add(_ path: String, _ bytes: [UInt8]) {
        lock.withLock { files[path] = bytes }
    }

    func sorted() -> [(path: String, bytes: [UInt8])] {
        lock.withLock { files.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
    }
}
