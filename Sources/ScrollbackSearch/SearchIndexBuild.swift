import Foundation
import ScrollbackModel

/// Building the index from every part, in two passes, so that what grows with the archive in
/// memory is its posting lists (a byte or two a posting), not its documents:
///
/// 1. Each run of up to `pagesPerRowRun` pages of a part on its own (`jobs` at a time): its
///    documents become rows (`PartRows`), sorted in the index's order, with their token numbers
///    in the site's vocabulary; the caller keeps them (`RowStore`: files in a build).
/// 2. One merge of the runs' rows in the index's order (a cursor per run) numbers the documents,
///    fills every token's posting list (a byte or two a posting) and cuts the document chunks,
///    which are compressed `jobs` at a time as they fill.
///
/// What stays in memory is the vocabularies, the posting lists and a buffer per run, plus the
/// documents of the run each job turns into rows: not the documents of a whole conversation.
extension SearchIndex {
    /// A run of pages is turned into rows on its own: its documents are what a job holds.
    public static let pagesPerRowRun = 64

    /// Where the merge keeps each run's rows between its two passes: the caller's files (a
    /// build), or memory (`build(parts:)`).
    public struct RowStore<Failure: Error>: Sendable {
        /// Keeps `bytes` as the rows of run `run` (called once a run, from several threads).
        public var store: @Sendable (_ run: Int, _ bytes: [UInt8]) throws(Failure) -> Void
        /// Up to `count` bytes of run `run`'s rows from `offset` (fewer is fine); none only past
        /// their end.
        public var read: @Sendable (_ run: Int, _ offset: Int, _ count: Int) throws(Failure) -> [UInt8]

        public init(
            store: @escaping @Sendable (_ run: Int, _ bytes: [UInt8]) throws(Failure) -> Void,
            read: @escaping @Sendable (_ run: Int, _ offset: Int, _ count: Int) throws(Failure) -> [UInt8]
        ) {
            self.store = store
            self.read = read
        }
    }

    /// The index files (site paths and bytes, sorted by path) for `parts`, in any order, with
    /// their rows kept in memory.
    public static func build(parts: [SearchPart], jobs: Int = Parallel.defaultJobs) -> [(path: String, bytes: [UInt8])]
    {
        let files = CollectedFiles()
        let rows = CollectedFiles()
        let store = RowStore<Never>(
            store: { run, bytes in rows.add(String(run), bytes) },
            read: { run, offset, count in
                let bytes = rows.bytes(at: String(run))
                return Array(bytes[min(offset, bytes.count)..<min(offset + count, bytes.count)])
            })
        precondition(parts.allSatisfy { $0.firstLoadedPage == 0 }, "the index is built from whole parts")
        build(heads: parts, page: { .init(encoding: parts[$0].documents(ofPage: $1)) }, rows: store, jobs: jobs) {
            path, bytes in files.add(path, bytes)
        }
        return files.sorted()
    }

    /// Makes the index files for the parts whose heads are `heads` (in any order; each needs its
    /// id, title, senders, vocabulary, page document counts and documents of no page) and hands
    /// each to `write` with its site path, from several threads at once; rethrows the first
    /// error of `page`, `rows` or `write`. The
    /// files do not depend on `jobs`. Each document names the file that draws it
    /// (`SearchPart.Document.file`), so results link to thread pages as well as timeline pages.
    ///
    /// - Parameters:
    ///   - page: the documents of page `page` of the part of `heads[part]` (called once a page,
    ///     `jobs` at a time).
    ///   - rows: where the runs' rows wait for the merge.
    public static func build<Failure: Error>(
        heads: [SearchPart],
        page: @escaping @Sendable (_ part: Int, _ page: Int) throws(Failure) -> SearchPart.StoredPage,
        rows: RowStore<Failure>,
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

        // Pass 1: each run's rows. The documents of no page go with a part's last run.
        var runs: [PartRows.Run] = []
        for (number, index) in order.enumerated() {
            let counts = heads[index].pageDocumentCounts
            var firstDocument = 0
            for start in stride(from: 0, to: max(counts.count, 1), by: pagesPerRowRun) {
                let pages = start..<min(start + pagesPerRowRun, counts.count)
                let paged = counts[pages].reduce(0, +)
                let holdsUnpaged = pages.upperBound == counts.count
                let count = paged + (holdsUnpaged ? heads[index].unpagedDocuments.count : 0)
                runs.append(
                    PartRows.Run(
                        part: number, pages: pages, holdsUnpaged: holdsUnpaged, firstDocument: firstDocument,
                        count: count))
                firstDocument += paged
            }
        }
        let failure = FirstError<Failure>()
        Parallel.forEach(runs.count, jobs: jobs) { runNumber in
            failure.run { () throws(Failure) in
                let run = runs[runNumber]
                var pages: [SearchPart.StoredPage] = []
                for pageNumber in run.pages { pages.append(try page(order[run.part], pageNumber)) }
                if run.holdsUnpaged { pages.append(.init(encoding: heads[order[run.part]].unpagedDocuments)) }
                precondition(pages.reduce(0) { $0 + $1.documents.count } == run.count, "a part's pages match its head")
                try rows.store(
                    runNumber,
                    PartRows.encode(
                        pages, firstDocument: run.firstDocument, part: run.part, tokenMap: tokenMaps[run.part],
                        senders: senders))
            }
        }
        try failure.rethrow()

        // Pass 2: the merge.
        var cursors = runs.indices.map { PartRows.Cursor(run: $0, count: runs[$0].count) }
        var queue = MergeQueue()
        for number in cursors.indices {
            if try cursors[number].advance(rows) {
                queue.push(cursors[number].row.key(part: runs[number].part), cursor: number)
            }
        }
        var postings = [PostingList](repeating: PostingList(), count: tokens.count)
        var days: [Day] = []
        var chunkCounts: [Int] = []
        var chunk = ChunkText()
        // The chunks are compressed and written by `jobs - 1` other threads as the merge fills
        // them; the merge's thread takes some too when they pile up, and the last ones.
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
        while let (key, cursor) = queue.pop() {
            // The row is read in place: a copy would make `advance` copy its buffers.
            for token in cursors[cursor].row.tokens { postings[Int(token)].add(number) }
            postings[Int(inTokens[key.part])].add(number)
            let day = day(of: key.date)
            if days.last?.day != day { days.append(Day(day: day, first: Int(number))) }
            if chunk.count > 0, closesChunk(holding: chunk.count, before: identityHash(cursors[cursor].row.identity)) {
                closeChunk()
            }
            chunk.startRow()
            chunk.writer.bytes += cursors[cursor].row.identity
            chunk.writer.bytes += cursors[cursor].row.rest
            number += 1
            if try cursors[cursor].advance(rows) { queue.push(cursors[cursor].row.key(part: key.part), cursor: cursor) }
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

/// A run of a part's documents as the merge reads them: in the index's order (date, then
/// position), each with its token numbers in the site's vocabulary and its chunk row's two halves
/// (`appendRowIdentity`, `appendRowRest`) already written.
enum PartRows {
    /// Pages of one part whose rows are made together.
    struct Run {
        /// The part's number in the index.
        var part: Int
        var pages: Range<Int>
        /// Whether the part's documents of no page follow (its last run).
        var holdsUnpaged: Bool
        /// The position in the part of the run's first document.
        var firstDocument: Int
        /// How many documents the run holds.
        var count: Int
    }

    /// Where a row goes in the index: by date, then part, then position in the part.
    struct Key: Comparable {
        var date: Int64
        var part: Int
        var position: Int

        static func < (a: Key, b: Key) -> Bool { (a.date, a.part, a.position) < (b.date, b.part, b.position) }
    }

    /// A row read back.
    struct Row {
        var date: Int64 = 0
        var position = 0
        var tokens: [Int32] = []
        var identity: ArraySlice<UInt8> = []
        var rest: ArraySlice<UInt8> = []

        func key(part: Int) -> Key { Key(date: date, part: part, position: position) }
    }

    /// The rows of the documents of `pages`, in order, the run of part number `part` whose first
    /// document is at `firstDocument` in the part: each is its byte length, then the date
    /// (zig-zag), the position, the token count and numbers, and the two halves, each with its
    /// length. The lengths are four bytes (little-endian), written after what they measure:
    /// each row is written where it stays.
    static func encode(
        _ pages: [SearchPart.StoredPage], firstDocument: Int, part: Int, tokenMap: [Int32],
        senders: SearchIndex.SenderTable
    ) -> [UInt8] {
        // (date, position in the run, page, index in the page), sorted: the index's order.
        var order: [(date: Int64, position: Int, page: Int, index: Int)] = []
        order.reserveCapacity(pages.reduce(0) { $0 + $1.documents.count })
        for (pageNumber, page) in pages.enumerated() {
            for (index, document) in page.documents.enumerated() {
                order.append((document.date, order.count, pageNumber, index))
            }
        }
        order.sort { ($0.date, $0.position) < ($1.date, $1.position) }
        var output = ByteWriter()
        output.bytes.reserveCapacity(pages.reduce(0) { $0 + $1.bytes.count } * 3 / 2)
        for entry in order {
            let page = pages[entry.page]
            let document = page.documents[entry.index]
            let rowStart = output.startLength()
            output.signed(document.date)
            output.varint(firstDocument + entry.position)
            output.varint(document.tokenCount)
            page.forEachToken(of: document) { output.varint(Int(tokenMap[$0])) }
            let identityStart = output.startLength()
            SearchIndex.appendRowIdentity(document, of: page, part: part, senders: senders, to: &output.bytes)
            output.endLength(identityStart)
            let restStart = output.startLength()
            SearchIndex.appendRowRest(document, of: page, to: &output.bytes)
            output.endLength(restStart)
            output.endLength(rowStart)
        }
        return output.bytes
    }

    /// Reads one run's rows from a `RowStore` in order, a buffer at a time.
    struct Cursor {
        /// Bytes read from the store at a time.
        static let readSize = 64 * 1024

        let run: Int
        private var remaining: Int
        private var buffer: [UInt8] = []
        private var position = 0
        private var storeOffset = 0
        /// The row `advance` read last.
        private(set) var row = Row()

        init(run: Int, count: Int) {
            self.run = run
            self.remaining = count
        }

        /// Reads the next row into `row`; `false` after the last.
        mutating func advance<Failure: Error>(_ store: SearchIndex.RowStore<Failure>) throws(Failure) -> Bool {
            guard remaining > 0 else { return false }
            remaining -= 1
            while true {
                var reader = ByteReader(buffer)
                reader.offset = position
                if let length = reader.length(), reader.offset + length <= buffer.count {
                    position = reader.offset + length
                    row.date = reader.signed()!
                    row.position = reader.varint()!
                    let tokenCount = reader.varint()!
                    row.tokens.removeAll(keepingCapacity: true)
                    for _ in 0..<tokenCount { row.tokens.append(Int32(reader.varint()!)) }
                    let identityLength = reader.length()!
                    row.identity = buffer[reader.offset..<(reader.offset + identityLength)]
                    reader.offset += identityLength
                    let restLength = reader.length()!
                    row.rest = buffer[reader.offset..<(reader.offset + restLength)]
                    return true
                }
                // The row goes on past the buffer: keep its unread bytes and read on.
                row.identity = []
                row.rest = []
                buffer.removeFirst(position)
                position = 0
                let more = try store.read(run, storeOffset, Self.readSize)
                precondition(!more.isEmpty, "a run's rows end early")
                storeOffset += more.count
                buffer += more
            }
        }
    }
}

/// The cursors whose next row comes first in the index (each run's rows are already in its
/// order): a binary heap.
struct MergeQueue {
    private var entries: [(key: PartRows.Key, cursor: Int)] = []

    mutating func push(_ key: PartRows.Key, cursor: Int) {
        entries.append((key, cursor))
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].key < entries[parent].key else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> (key: PartRows.Key, cursor: Int)? {
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

    func bytes(at path: String) -> [UInt8] { lock.withLock { files[path] ?? [] } }

    func sorted() -> [(path: String, bytes: [UInt8])] {
        lock.withLock { files.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
    }
}
