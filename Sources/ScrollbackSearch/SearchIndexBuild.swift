import Foundation
import ScrollbackModel

/// Building the index from every part, in two passes, so that what grows with the archive in
/// memory is its posting lists (a byte or two a posting), not its documents:
///
/// 1. Each part on its own (`jobs` at a time): its documents become rows (`PartRows`), sorted in
///    the index's order, with their token numbers in the site's vocabulary; the caller keeps them
///    (`RowStore`: files in a build).
/// 2. One merge of the parts' rows in date order (one cursor per part) numbers the documents,
///    fills every token's posting list (a byte or two a posting) and cuts the document chunks,
///    which are compressed `jobs` at a time as they fill.
///
/// What stays in memory is the vocabulary, the posting lists and a buffer per part, plus the
/// one part each job turns into rows (as large as the largest conversation).
extension SearchIndex {
    /// Where the merge keeps each part's rows between its two passes: the caller's files (a
    /// build), or memory (`build(parts:)`).
    public struct RowStore<Failure: Error>: Sendable {
        /// Keeps `bytes` as the rows of part `part` (called once a part, from several threads).
        public var store: @Sendable (_ part: Int, _ bytes: [UInt8]) throws(Failure) -> Void
        /// Up to `count` bytes of part `part`'s rows from `offset` (fewer is fine); none only past
        /// their end.
        public var read: @Sendable (_ part: Int, _ offset: Int, _ count: Int) throws(Failure) -> [UInt8]

        public init(
            store: @escaping @Sendable (_ part: Int, _ bytes: [UInt8]) throws(Failure) -> Void,
            read: @escaping @Sendable (_ part: Int, _ offset: Int, _ count: Int) throws(Failure) -> [UInt8]
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
            store: { part, bytes in rows.add(String(part), bytes) },
            read: { part, offset, count in
                let bytes = rows.bytes(at: String(part))
                return Array(bytes[min(offset, bytes.count)..<min(offset + count, bytes.count)])
            })
        build(heads: parts, load: { parts[$0] }, rows: store, jobs: jobs) { path, bytes in files.add(path, bytes) }
        return files.sorted()
    }

    /// Makes the index files for the parts whose heads are `heads` (in any order; each needs its
    /// id, title, senders and vocabulary) and hands each to `write` with its site path, from
    /// several threads at once; rethrows the first error of `load`, `rows` or `write`. The
    /// files do not depend on `jobs`. Each document names the file that draws it
    /// (`SearchPart.Document.file`), so results link to thread pages as well as timeline pages.
    ///
    /// - Parameters:
    ///   - load: the whole part of `heads[n]`, with the documents of every page (called once a
    ///     part, `jobs` at a time).
    ///   - rows: where the parts' rows wait for the merge.
    public static func build<Failure: Error>(
        heads: [SearchPart], load: @escaping @Sendable (Int) throws(Failure) -> SearchPart, rows: RowStore<Failure>,
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

        // Pass 1: each part's rows.
        let failure = FirstError<Failure>()
        let counts = ConcurrentSlots<Int>(count: order.count)
        Parallel.forEach(order.count, jobs: jobs) { number in
            failure.run { () throws(Failure) in
                let part = try load(order[number])
                precondition(part.firstLoadedPage == 0, "the index is built from whole parts")
                precondition(part.vocabulary.count == tokenMaps[number].count, "a part matches its head")
                try rows.store(
                    number, PartRows.encode(part, number: number, tokenMap: tokenMaps[number], senders: senders))
                counts.store(part.documents.count, at: number)
            }
        }
        try failure.rethrow()

        // Pass 2: the merge.
        var cursors: [PartRows.Cursor] = []
        for (number, count) in counts.values().enumerated() {
            cursors.append(PartRows.Cursor(part: number, count: count!))
        }
        var queue = MergeQueue()
        for number in cursors.indices {
            if let date = try cursors[number].advance(rows) { queue.push(date: date, part: number) }
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
        while let (date, part) = queue.pop() {
            do {
                // Read in place: a copy of the row would make `advance` copy its buffers.
                for token in cursors[part].row.tokens { postings[Int(token)].add(number) }
                postings[Int(inTokens[part])].add(number)
                let day = day(of: date)
                if days.last?.day != day { days.append(Day(day: day, first: Int(number))) }
                if chunk.count > 0, closesChunk(holding: chunk.count, before: identityHash(cursors[part].row.identity))
                {
                    closeChunk()
                }
                chunk.startRow()
                chunk.writer.bytes += cursors[part].row.identity
                chunk.writer.bytes += cursors[part].row.rest
            }
            number += 1
            if let next = try cursors[part].advance(rows) { queue.push(date: next, part: part) }
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

/// One part's documents as the merge reads them: in the index's order (date, then position),
/// each with its token numbers in the site's vocabulary and its chunk row's two halves
/// (`appendRowIdentity`, `appendRowRest`) already written.
enum PartRows {
    /// A row read back.
    struct Row {
        var tokens: [Int32] = []
        var identity: ArraySlice<UInt8> = []
        var rest: ArraySlice<UInt8> = []
    }

    /// The rows of `part`, part number `number` of the index: each is its byte length, then
    /// the date (zig-zag), the token count and numbers, and the two halves, each with its length.
    static func encode(
        _ part: SearchPart, number: Int, tokenMap: [Int32], senders: SearchIndex.SenderTable
    ) -> [UInt8] {
        let documents = part.documents
        let order = documents.indices.sorted { (documents[$0].date, $0) < (documents[$1].date, $1) }
        var output = ByteWriter()
        var row = ByteWriter()
        var text = JSONWriter()
        for index in order {
            let document = documents[index]
            row.bytes.removeAll(keepingCapacity: true)
            row.signed(document.date)
            row.varint(document.tokens.count)
            for token in document.tokens { row.varint(Int(tokenMap[token])) }
            text.bytes.removeAll(keepingCapacity: true)
            SearchIndex.appendRowIdentity(document, part: number, senders: senders, to: &text)
            row.varint(text.bytes.count)
            row.bytes += text.bytes
            text.bytes.removeAll(keepingCapacity: true)
            SearchIndex.appendRowRest(document, to: &text)
            row.varint(text.bytes.count)
            row.bytes += text.bytes
            output.varint(row.bytes.count)
            output.bytes += row.bytes
        }
        return output.bytes
    }

    /// Reads one part's rows from a `RowStore` in order, a buffer at a time.
    struct Cursor {
        /// Bytes read from the store at a time (more for a longer row).
        static let readSize = 64 * 1024

        let part: Int
        private var remaining: Int
        private var buffer: [UInt8] = []
        private var position = 0
        private var storeOffset = 0
        /// The row `advance` read last.
        private(set) var row = Row()

        init(part: Int, count: Int) {
            self.part = part
            self.remaining = count
        }

        /// Reads the next row into `row` and returns its date; `nil` after the last.
        mutating func advance<Failure: Error>(_ store: SearchIndex.RowStore<Failure>) throws(Failure) -> Int64? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            var header = ByteReader(buffer)
            header.offset = position
            var length = header.varint()
            if length == nil || header.offset + length! > buffer.count {
                // Keep the unread bytes and read on, at least to the end of this row.
                row.identity = []
                row.rest = []
                buffer.removeFirst(position)
                position = 0
                repeat {
                    let more = try store.read(part, storeOffset, max(Self.readSize, (length ?? 0) + 16))
                    precondition(!more.isEmpty, "a part's rows end early")
                    storeOffset += more.count
                    buffer += more
                    header = ByteReader(buffer)
                    length = header.varint()
                } while length == nil || header.offset + length! > buffer.count
            }
            var reader = ByteReader(buffer)
            reader.offset = header.offset
            position = header.offset + length!
            let date = reader.signed()!
            let tokenCount = reader.varint()!
            row.tokens.removeAll(keepingCapacity: true)
            for _ in 0..<tokenCount { row.tokens.append(Int32(reader.varint()!)) }
            let identityLength = reader.varint()!
            row.identity = buffer[reader.offset..<(reader.offset + identityLength)]
            reader.offset += identityLength
            let restLength = reader.varint()!
            row.rest = buffer[reader.offset..<(reader.offset + restLength)]
            return date
        }
    }
}

/// The parts whose next row is the earliest, by date then part number (the index's order:
/// each part's rows are already in it): a binary heap.
struct MergeQueue {
    private var entries: [(date: Int64, part: Int)] = []

    private static func precedes(_ a: (date: Int64, part: Int), _ b: (date: Int64, part: Int)) -> Bool {
        (a.date, a.part) < (b.date, b.part)
    }

    mutating func push(date: Int64, part: Int) {
        entries.append((date, part))
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(entries[child], entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> (date: Int64, part: Int)? {
        guard let first = entries.first else { return nil }
        let last = entries.removeLast()
        if !entries.isEmpty {
            entries[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                guard left < entries.count else { break }
                var least = left
                if left + 1 < entries.count, Self.precedes(entries[left + 1], entries[left]) { least = left + 1 }
                guard Self.precedes(entries[least], entries[parent]) else { break }
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
