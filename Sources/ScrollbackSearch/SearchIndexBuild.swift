import Foundation
import ScrollbackModel

/// Building the index from every part in one merge of their pages in the index's order, so
/// that what grows with the archive in memory is its posting lists (a byte or two a posting),
/// not its documents.
///
/// The merge takes each page's documents when it reaches the page's earliest date
/// (`SearchPart.pageLowestDates`): their files are read in that order, a few pages ahead, and
/// made ready for it (`PreparedPage`: each document's row and tokens) on a thread of its own
/// (`PageReader`); each page is dropped once the merge has passed all its documents. Pages are
/// written in date order, so a few pages of each part are held at a time. The merge numbers the
/// documents, fills every token's posting list, and copies each row into the document chunks;
/// the chunks are compressed `jobs` at a time as they fill.
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
        // in UTF-8 byte order (the client compares code points: the same order).
        var tokenSet = Set<String>()
        for index in order {
            tokenSet.formUnion(heads[index].vocabulary)
            tokenSet.insert("in:" + heads[index].conversationID)
        }
        let tokens = tokenSet.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let tokenNumber = Dictionary(uniqueKeysWithValues: tokens.enumerated().map { ($1, Int32($0)) })
        let tokenMaps: [[Int32]] = order.map { heads[$0].vocabulary.map { tokenNumber[$0]! } }
        let inTokens = order.map { tokenNumber["in:" + heads[$0].conversationID]! }
        let conversations = order.map { (id: heads[$0].conversationID, title: heads[$0].title) }

        // What a page's documents need to be made ready for the merge (`PreparedPage`), from
        // any thread.
        let prepare: @Sendable (SearchPart.StoredPage, _ part: Int) -> PreparedPage = { page, part in
            PreparedPage(page, part: part, tokenMap: tokenMaps[part], inToken: inTokens[part], senders: senders)
        }

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
                cursor.load(prepare(.init(encoding: head.unpagedDocuments[...]), number))
                queue.push(cursor.key, cursor: cursors.count)
                cursors.append(cursor)
            }
        }

        // The merge takes the queued pages in the order of their keys (the keys it takes only
        // grow): their files are read in that order, ahead of it.
        unread.sort { $0.key < $1.key }
        if let first = unread.first { queue.push(first.key, cursor: first.cursor) }
        let reads = unread.map { (part: $0.key.part, page: cursors[$0.cursor].page!) }
        let readPage: @Sendable (Int) throws(Failure) -> PreparedPage = { number throws(Failure) in
            let (part, pageNumber) = reads[number]
            return prepare(try page(order[part], pageNumber), part)
        }
        let reading = DispatchGroup()
        let reader = jobs > 1 ? PageReader<Failure>(count: reads.count, ahead: 8) : nil
        if let reader {
            Parallel.start(in: reading) { reader.read(readPage) }
        }
        defer {
            reader?.stop()
            reading.wait()
        }
        var readCount = 0

        var postings = [PostingList](repeating: PostingList(), count: tokens.count)
        var days: [Day] = []
        var chunkCounts: [Int] = []
        var chunk = ChunkText()
        // The chunks are compressed and written by `jobs - 1` other threads as the merge fills
        // them; the merge's thread takes some too when they pile up, and the last ones.
        let failure = FirstError<Failure>()
        let chunks = ChunkQueue()
        let compressing = DispatchGroup()
        let compress: @Sendable (Int, [UInt8]) -> Void = { number, text in
            failure.run { () throws(Failure) in try write(chunkPath(number), deflate(text)) }
        }
        for _ in 1..<max(1, jobs) {
            Parallel.start(in: compressing) { while let (number, text) = chunks.take() { compress(number, text) } }
        }
        let pileLimit = 4 * (max(1, jobs) - 1)
        func closeChunk() {
            chunks.put(chunkCounts.count, chunk.finish())
            chunkCounts.append(chunk.count)
            chunk = ChunkText()
            while chunks.count > pileLimit, let (number, text) = chunks.takeIfAny() { compress(number, text) }
        }
        var number: Int32 = 0
        do throws(Failure) {
            while let (key, cursor) = queue.pop() {
                guard let prepared = cursors[cursor].prepared else {
                    // Its documents are due: read them, and queue the cursor at its first one.
                    let (part, pageNumber) = (cursors[cursor].part, cursors[cursor].page!)
                    precondition(reads[readCount] == (part, pageNumber), "pages are taken in the order they are read")
                    if let reader {
                        cursors[cursor].load(try reader.take(readCount))
                    } else {
                        cursors[cursor].load(try readPage(readCount))
                    }
                    readCount += 1
                    if readCount < unread.count { queue.push(unread[readCount].key, cursor: unread[readCount].cursor) }
                    precondition(
                        cursors[cursor].key.date >= heads[order[part]].pageLowestDates[pageNumber],
                        "a page holds no document before its earliest date")
                    queue.push(cursors[cursor].key, cursor: cursor)
                    continue
                }
                let document = cursors[cursor].next
                prepared.tokens.withUnsafeBufferPointer { tokens in
                    postings.withUnsafeMutableBufferPointer { postings in
                        for token in tokens[prepared.tokenRange(document)] { postings[Int(token)].add(number) }
                    }
                }
                let day = day(of: key.date)
                if days.last?.day != day { days.append(Day(day: day, first: Int(number))) }
                if chunk.count > 0, closesChunk(holding: chunk.count, before: prepared.identityHashes[document]) {
                    closeChunk()
                }
                chunk.startRow()
                chunk.writer.bytes += prepared.rows[prepared.rowRange(document)]
                number += 1
                if cursors[cursor].advance() { queue.push(cursors[cursor].key, cursor: cursor) }
            }
        } catch {
            chunks.close()
            compressing.wait()
            throw error
        }
        if chunk.count > 0 { closeChunk() }
        chunks.close()
        while let (number, text) = chunks.takeIfAny() { compress(number, text) }
        compressing.wait()
        try failure.rethrow()

        var shards = ShardPacker()
        for (number, token) in tokens.enumerated() where postings[number].count > 0 {
            if let closed = shards.add(token, entry: entry(token, postings[number])) {
                try write(shardPath(closed.number), closed.bytes)
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
    private(set) var prepared: PreparedPage?
    /// The next document to merge, in `prepared`'s order.
    private(set) var next = 0

    init(part: Int, page: Int?, firstPosition: Int) {
        (self.part, self.page, self.firstPosition) = (part, page, firstPosition)
    }

    /// Takes the page's documents (at least one).
    mutating func load(_ page: PreparedPage) {
        prepared = page
        next = 0
    }

    /// The next document's place in the index.
    var key: MergeKey {
        MergeKey(date: prepared!.dates[next], part: part, position: firstPosition + Int(prepared!.indexes[next]))
    }

    /// Moves to the next document; `false` (and the page dropped) after the last.
    mutating func advance() -> Bool {
        next += 1
        guard next == prepared!.dates.count else { return true }
        prepared = nil
        return false
    }
}

/// A page's documents made ready for the merge, from the page alone (so on any thread): in the
/// index's order (date, then position in the page), each with its row's bytes and the hash of
/// its identifying fields (`appendRowIdentity`, `appendRowRest`), and its tokens in the index's
/// numbers, its conversation's `in:` token included.
final class PreparedPage: Sendable {
    /// Each document's date and its index in the page.
    let dates: [Int64]
    let indexes: [Int32]
    /// The rows, one after the other: document `n`'s ends at `rowEnds[n]`.
    let rows: [UInt8]
    private let rowEnds: [Int]
    let identityHashes: [UInt64]
    /// The tokens, one document after the other: document `n`'s end at `tokenEnds[n]`.
    let tokens: [Int32]
    private let tokenEnds: [Int]

    /// `page`'s documents, of the part numbered `part` in the index (`tokenMap`: the index's
    /// number of each of the part's tokens).
    init(
        _ page: SearchPart.StoredPage, part: Int, tokenMap: [Int32], inToken: Int32, senders: SearchIndex.SenderTable
    ) {
        let documents = page.documents
        var indexes = (0..<Int32(documents.count)).map { $0 }
        // Mostly in date order already: the sort finds runs.
        indexes.sort { (documents[Int($0)].date, $0) < (documents[Int($1)].date, $1) }
        var rows: [UInt8] = []
        rows.reserveCapacity(page.bytes.count + 48 * documents.count)
        var (rowEnds, identityHashes, tokens, tokenEnds) = ([Int](), [UInt64](), [Int32](), [Int]())
        for index in indexes {
            let document = documents[Int(index)]
            let start = rows.count
            SearchIndex.appendRowIdentity(document, of: page, part: part, senders: senders, to: &rows)
            identityHashes.append(SearchIndex.identityHash(rows[start...]))
            SearchIndex.appendRowRest(document, of: page, to: &rows)
            rowEnds.append(rows.count)
            page.forEachToken(of: document) { tokens.append(tokenMap[$0]) }
            tokens.append(inToken)
            tokenEnds.append(tokens.count)
        }
        self.dates = indexes.map { documents[Int($0)].date }
        self.indexes = indexes
        (self.rows, self.rowEnds, self.identityHashes, self.tokens, self.tokenEnds) =
            (rows, rowEnds, identityHashes, tokens, tokenEnds)
    }

    /// Where document `n`'s row is in `rows`.
    func rowRange(_ n: Int) -> Range<Int> { (n == 0 ? 0 : rowEnds[n - 1])..<rowEnds[n] }
    /// Where document `n`'s tokens are in `tokens`.
    func tokenRange(_ n: Int) -> Range<Int> { (n == 0 ? 0 : tokenEnds[n - 1])..<tokenEnds[n] }
}

/// The cursors whose next row comes first in the index (each run's rows are already in its
/// order): a binary heap.
struct MergeQueue {
    private var entries: [(key: MergeKey, cursor: Int)] = []

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

    mutating func pop() -> (key: MergeKey, cursor: Int)? {
        guard let first = entries.first else { return nil }
        let last = entries.removeLast()
        if !entries.isEmpty {
            entries[0] = last
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
        return first
    }
}

/// The pages' documents the merge will take next, read in that order by a thread of their own
/// at most `ahead` pages before the merge takes them.
private final class PageReader<Failure: Error>: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int
    private let ahead: Int
    private var read: [Int: Result<PreparedPage, Failure>] = [:]
    private var taken = 0
    private var stopped = false

    init(count: Int, ahead: Int) {
        (self.count, self.ahead) = (count, ahead)
    }

    /// Reads pages `0..<count` in order with `page`, keeping at most `ahead` not yet taken
    /// (the reading thread's work); returns once all are read or `stop` was called.
    func read(_ page: (Int) throws(Failure) -> PreparedPage) {
        for number in 0..<count {
            let mayRead = condition.withLock {
                while number - taken >= ahead, !stopped { condition.wait() }
                return !stopped
            }
            guard mayRead else { return }
            let result: Result<PreparedPage, Failure>
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
    func take(_ number: Int) throws(Failure) -> PreparedPage {
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

/// Chunk texts waiting to be compressed, first in first out, shared by the merge and the threads
/// that compress them.
private final class ChunkQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: [(number: Int, text: [UInt8])] = []
    private var next = 0
    private var closed = false

    /// How many are waiting.
    var count: Int { condition.withLock { waiting.count - next } }

    func put(_ number: Int, _ text: [UInt8]) {
        condition.withLock {
            waiting.append((number, text))
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
            waiting[next].text = []
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
