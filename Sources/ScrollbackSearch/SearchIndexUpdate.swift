import Foundation
import ScrollbackModel

extension SearchIndex {
    /// A conversation in an update of the previous index.
    public enum PartChange: Sendable {
        /// Published as the previous index has it (its title and senders are read from there).
        case unchanged(conversationID: String)
        /// The part the previous index holds, and the part now: both whole, or both read from
        /// the same page on (`SearchPart.firstLoadedPage`: the pages before are the same).
        case changed(previous: SearchPart, current: SearchPart)

        var conversationID: String {
            switch self {
            case .unchanged(let id): id
            case .changed(_, let current): current.conversationID
            }
        }
    }

    /// Makes the index `build` would make for the current parts of `changes`, from the previous
    /// index (its files read by site path through `previous`), when the change only added
    /// documents at the end of some parts (an appended log, a conversation rebuilt with nothing
    /// changed) and left the conversations and senders as they were. New and changed files go to
    /// `write`; a file the previous index already has goes to `keep` with its previous site path
    /// (chunks are renumbered when one is split). Returns `false`, having handed over nothing,
    /// for any other change or when the previous index cannot be read: the caller then calls
    /// `build`.
    ///
    /// Only what the new documents touch is made again: the chunks they land in (and those after,
    /// until the chunk boundaries agree again: `closesChunk`), the posting lists that hold a
    /// renumbered document or a new one, the shards those lists fall in, the days and the manifest.
    public static func update<Failure: Error>(
        _ changes: [PartChange], previous: @escaping (String) -> [UInt8]?, jobs: Int,
        write: (_ path: String, _ bytes: [UInt8]) throws(Failure) -> Void,
        keep: (_ previousPath: String, _ path: String) throws(Failure) -> Void
    ) throws(Failure) -> Bool {
        guard let update = IndexUpdate(changes, previous: previous, jobs: jobs) else { return false }
        for (path, file) in update.files {
            switch file {
            case .kept(let previousPath): try keep(previousPath, path)
            case .new(let bytes): try write(path, bytes)
            }
        }
        return true
    }
}

/// The manifest fields an update reads back.
private struct PreviousManifest: Decodable {
    var format: Int
    var documents: Int
    var conversations: [[String]]
    var senders: [[String]]
    var shards: [String]
    var chunks: [Int]
}

/// A new document: where it sorts, and its row.
private struct AddedDocument {
    var date: Int64
    var part: Int
    var index: Int
    var tokens: [String]
    var row: [UInt8]
    var identityHash: UInt64
}

/// The files of an updated index, worked out before any is handed over.
private struct IndexUpdate {
    enum File {
        case kept(previousPath: String)
        case new([UInt8])
    }

    private(set) var files: [(path: String, file: File)] = []

    init?(_ unsorted: [SearchIndex.PartChange], previous read: @escaping (String) -> [UInt8]?, jobs: Int) {
        let changes = unsorted.sorted { $0.conversationID < $1.conversationID }
        guard let manifestBytes = read(SearchIndex.manifestPath),
            let old = try? JSONDecoder().decode(PreviousManifest.self, from: Data(manifestBytes)),
            old.format == SearchIndex.format, old.documents == old.chunks.reduce(0, +),
            old.chunks.allSatisfy({ $0 > 0 }), old.conversations.allSatisfy({ $0.count == 2 }),
            old.conversations.map({ $0[0] }) == changes.map(\.conversationID),
            old.senders.allSatisfy({ $0.count == 3 }),
            let days = Self.days(read(SearchIndex.daysPath))
        else { return nil }
        // The same senders: every sender of a changed part is one of the previous index's (they
        // only gain senders, so none is lost either).
        guard
            let senders = SearchIndex.SenderTable(
                keys: old.senders.map { SearchIndex.SenderTable.Key(name: $0[0], initials: $0[1], avatar: $0[2]) },
                senders: changes.map { change in
                    guard case .changed(_, let now) = change else { return [] }
                    return now.senders
                })
        else { return nil }
        let conversations = zip(changes, old.conversations).map { change, previous in
            guard case .changed(_, let now) = change else { return (id: previous[0], title: previous[1]) }
            return (id: now.conversationID, title: now.title)
        }

        // The new documents, in index order.
        var added: [AddedDocument] = []
        for (partIndex, change) in changes.enumerated() {
            guard case .changed(let before, let now) = change else { continue }
            let firstDocument = now.firstDocument
            let (nowDocuments, beforeDocuments) = (now.documents, before.documents)
            guard firstDocument == before.firstDocument, nowDocuments.count >= beforeDocuments.count,
                now.senders.starts(with: before.senders), now.vocabulary.starts(with: before.vocabulary),
                nowDocuments.starts(with: beforeDocuments)
            else { return nil }
            // Their rows are written as a build writes them: from the documents as stored.
            let stored = SearchPart.StoredPage(encoding: nowDocuments[beforeDocuments.count...])
            for (offset, storedDocument) in stored.documents.enumerated() {
                let loaded = beforeDocuments.count + offset
                let document = nowDocuments[loaded]
                var row = ByteWriter()
                SearchIndex.appendRowIdentity(storedDocument, of: stored, part: partIndex, senders: senders, to: &row)
                let hash = SearchIndex.identityHash(row.bytes[...])
                SearchIndex.appendRowRest(storedDocument, of: stored, to: &row)
                added.append(
                    AddedDocument(
                        date: document.date, part: partIndex, index: firstDocument + loaded,
                        tokens: document.tokens.map { now.vocabulary[$0] } + ["in:" + now.conversationID],
                        row: row.bytes, identityHash: hash))
            }
        }
        added.sort { ($0.date, $0.part, $0.index) < ($1.date, $1.part, $1.index) }

        // Where each goes among the old documents: before old document `insertion[j]`.
        var chunks = OldChunks(counts: old.chunks, read: read)
        var insertion: [Int] = []
        let dayNumbers = days.map(\.day)
        for document in added {
            guard let position = Self.position(of: document, days: days, dayNumbers: dayNumbers, chunks: &chunks)
            else { return nil }
            insertion.append(position)
        }

        // Chunks.
        guard let chunkFiles = Self.chunks(added: added, insertion: insertion, old: &chunks) else { return nil }
        var chunkCounts: [Int] = []
        for (number, chunk) in chunkFiles.enumerated() {
            switch chunk {
            case .kept(let oldNumber, let count):
                chunkCounts.append(count)
                files.append((SearchIndex.chunkPath(number), .kept(previousPath: SearchIndex.chunkPath(oldNumber))))
            case .new(let rows, let count):
                chunkCounts.append(count)
                files.append((SearchIndex.chunkPath(number), .new(SearchIndex.deflate(rows))))
            }
        }

        // Posting lists: the new documents' tokens, and every old number that moved.
        var additions: [String: [Int32]] = [:]
        for (order, document) in added.enumerated() {
            for token in document.tokens { additions[token, default: []].append(Int32(insertion[order] + order)) }
        }
        guard
            let shards = Self.shards(
                firstTokens: old.shards, additions: additions, insertion: insertion, oldDocuments: old.documents,
                read: read, jobs: jobs)
        else { return nil }
        files += shards.files

        // Days: the old ones renumbered, and the new documents' days.
        var firstOfDay = Dictionary(
            uniqueKeysWithValues: days.map { ($0.day, $0.first + insertion.countNotAfter($0.first)) })
        for (order, document) in added.enumerated() {
            let day = SearchIndex.day(of: document.date)
            firstOfDay[day] = min(firstOfDay[day] ?? .max, insertion[order] + order)
        }
        let newDays = firstOfDay.map { SearchIndex.Day(day: $0.key, first: $0.value) }.sorted { $0.day < $1.day }
        files.append(Self.file(SearchIndex.daysPath, SearchIndex.daysFile(newDays), previous: read))
        files.append(
            Self.file(
                SearchIndex.manifestPath,
                SearchIndex.manifestFile(
                    documents: old.documents + added.count, chunks: chunkCounts, conversations: conversations,
                    senders: senders, shards: shards.firstTokens),
                previous: read))
    }

    /// The shards: the old ones (`firstTokens`) as they were when nothing is added, else their
    /// entries (the lists that hold a moved document or gain a new one made again) and the new
    /// tokens' entries, packed as `build` packs them; `nil` when an old shard cannot be read.
    private static func shards(
        firstTokens: [String], additions: [String: [Int32]], insertion: [Int], oldDocuments: Int,
        read: (String) -> [UInt8]?, jobs: Int
    ) -> (files: [(path: String, file: File)], firstTokens: [String])? {
        guard !additions.isEmpty else {
            return (
                firstTokens.indices.map { (SearchIndex.shardPath($0), .kept(previousPath: SearchIndex.shardPath($0))) },
                firstTokens
            )
        }
        if !firstTokens.isEmpty, insertion.allSatisfy({ $0 >= oldDocuments }) {
            return appendedShards(firstTokens: firstTokens, additions: additions, insertion: insertion, read: read)
        }
        let oldShards = firstTokens.indices.map { read(SearchIndex.shardPath($0)) }
        let entries = ConcurrentSlots<[(token: String, entry: [UInt8])]>(count: oldShards.count)
        let failed = ConcurrentSlots<Bool>(count: 1)
        Parallel.forEach(oldShards.count, jobs: jobs) { number in
            guard let bytes = oldShards[number],
                let shardEntries = Self.entries(of: bytes, insertion: insertion, additions: additions)
            else { return failed.store(true, at: 0) }
            entries.store(shardEntries, at: number)
        }
        guard failed.values()[0] == nil else { return nil }
        var packer = SearchIndex.ShardPacker()
        var shardBytes: [[UInt8]] = []
        guard
            Self.pack(
                entries.values().lazy.flatMap { $0! }, newTokens: additions.keys.sorted(by: SearchIndex.tokenPrecedes),
                additions: additions, into: &packer, closed: { shardBytes.append($0.bytes) })
        else { return nil }
        if let closed = packer.finish() { shardBytes.append(closed.bytes) }
        let files = shardBytes.enumerated().map { number, bytes in
            let path = SearchIndex.shardPath(number)
            return (
                path,
                number < oldShards.count && oldShards[number] == bytes ? File.kept(previousPath: path) : .new(bytes)
            )
        }
        return (files, packer.firstTokens)
    }

    /// Feeds old entries (token order) into `packer` with the entries of `newTokens` (ascending)
    /// between them, as `build` packs them; a token the old entries already have holds its new
    /// documents there and is not added again. `closed` gets each shard this closes. `false` when
    /// the old entries are out of order.
    private static func pack(
        _ entries: some Sequence<(token: String, entry: [UInt8])>, newTokens: [String],
        additions: [String: [Int32]], into packer: inout SearchIndex.ShardPacker,
        closed: (_ shard: (number: Int, bytes: [UInt8])) -> Void
    ) -> Bool {
        var nextNew = 0
        var previousToken: String?
        func addNewTokens(before token: String?) {
            while nextNew < newTokens.count, token.map({ SearchIndex.tokenPrecedes(newTokens[nextNew], $0) }) ?? true {
                let new = newTokens[nextNew]
                if let shard = packer.add(new, entry: SearchIndex.entry(new, additions[new]!)) { closed(shard) }
                nextNew += 1
            }
        }
        for (token, entry) in entries {
            guard previousToken.map({ SearchIndex.tokenPrecedes($0, token) }) ?? true else { return false }
            previousToken = token
            addNewTokens(before: token)
            if nextNew < newTokens.count, newTokens[nextNew] == token { nextNew += 1 }
            if let shard = packer.add(token, entry: entry) { closed(shard) }
        }
        addNewTokens(before: nil)
        return true
    }

    /// The shards when every new document sorts after every old one (the usual append: the newest
    /// messages are the site's newest), so no posting list moves and only the lists of the new
    /// documents' tokens change: what `shards` makes, without reading the shards those tokens do
    /// not fall in while the packing is at an old shard boundary. Packing is greedy, so from a
    /// boundary where the new packing and the old one meet, the same entries make the same
    /// shards. `nil` when an old shard cannot be read.
    private static func appendedShards(
        firstTokens: [String], additions: [String: [Int32]], insertion: [Int], read: (String) -> [UInt8]?
    ) -> (files: [(path: String, file: File)], firstTokens: [String])? {
        // The old shard whose range (from its first token to the next shard's) each token falls
        // in; a token before the first shard's goes into the first.
        var addedByShard: [Int: [String]] = [:]
        for token in additions.keys.sorted(by: SearchIndex.tokenPrecedes) {
            addedByShard[max(firstTokens.countNotAfter(token, by: SearchIndex.tokenPrecedes) - 1, 0), default: []]
                .append(token)
        }
        // Each old shard read at most once (the boundary check reads the next one's first entry).
        var oldShards: [Int: [UInt8]?] = [:]
        func oldShard(_ number: Int) -> [UInt8]? {
            if let bytes = oldShards[number] { return bytes }
            let bytes = read(SearchIndex.shardPath(number))
            oldShards[number] = bytes
            return bytes
        }
        var packer = SearchIndex.ShardPacker()
        var files: [(path: String, file: File)] = []
        func close(_ closed: (number: Int, bytes: [UInt8])) {
            let path = SearchIndex.shardPath(closed.number)
            let same = closed.number < firstTokens.count && oldShard(closed.number) == closed.bytes
            files.append((path, same ? .kept(previousPath: path) : .new(closed.bytes)))
        }
        var atOldBoundary = true
        for number in firstTokens.indices {
            let added = addedByShard[number] ?? []
            if atOldBoundary, added.isEmpty {
                files.append(
                    (
                        SearchIndex.shardPath(packer.firstTokens.count),
                        .kept(previousPath: SearchIndex.shardPath(number))
                    ))
                packer.keepShard(startingAt: firstTokens[number])
                continue
            }
            guard let bytes = oldShard(number),
                let entries = Self.entries(of: bytes, insertion: insertion, additions: additions),
                Self.pack(entries, newTokens: added, additions: additions, into: &packer, closed: close)
            else { return nil }
            // Back at an old boundary when the next shard's first entry closes the shard being
            // filled, as it closed the old one: from there on the old shards are the new ones.
            atOldBoundary = false
            if number + 1 < firstTokens.count, addedByShard[number + 1] == nil {
                guard let next = oldShard(number + 1) else { return nil }
                var reader = ByteReader(next)
                guard reader.string() != nil, PostingList.move(&reader, insertion: []) != nil else {
                    return nil
                }
                if packer.closes(beforeEntryOf: reader.offset), let closed = packer.finish() {
                    close(closed)
                    atOldBoundary = true
                }
            }
        }
        if let closed = packer.finish() { close(closed) }
        return (files, packer.firstTokens)
    }

    /// `bytes` at `path`, or the previous file when it holds the same bytes.
    private static func file(
        _ path: String, _ bytes: [UInt8], previous read: (String) -> [UInt8]?
    ) -> (
        path: String, file: File
    ) {
        (path, read(path) == bytes ? .kept(previousPath: path) : .new(bytes))
    }

    /// The days of a `days.json` file.
    private static func days(_ bytes: [UInt8]?) -> [SearchIndex.Day]? {
        guard let bytes, let numbers = SearchIndex.daysFileNumbers(bytes), numbers.count % 2 == 0
        else { return nil }
        var days: [SearchIndex.Day] = []
        var day: Int64 = 0
        var first = 0
        for index in stride(from: 0, to: numbers.count, by: 2) {
            day += numbers[index]
            first += Int(numbers[index + 1])
            days.append(SearchIndex.Day(day: day, first: first))
        }
        return days
    }

    /// How many old documents sort before `document`: those of earlier days, and those of its day
    /// with an earlier date, or the same date in an earlier or the same conversation (an added
    /// document comes after every old one of its conversation).
    private static func position(
        of document: AddedDocument, days: [SearchIndex.Day], dayNumbers: [Int64], chunks: inout OldChunks
    ) -> Int? {
        let day = SearchIndex.day(of: document.date)
        /// The first document of the day at `index` of `days` (past the last: the document count).
        func firstDocument(ofDayAt index: Int) -> Int { index < days.count ? days[index].first : chunks.documents }
        let dayStart = firstDocument(ofDayAt: dayNumbers.countNotAfter(day - 1))
        let dayEnd = firstDocument(ofDayAt: dayNumbers.countNotAfter(day))
        var position = dayStart
        while position < dayEnd {
            guard let key = chunks.row(position)?.key else { return nil }
            if (key.date, key.part) > (document.date, document.part) { break }
            position += 1
        }
        return position
    }

    /// A chunk of the new index: an old one as it was, or new rows.
    private enum Chunk {
        case kept(oldNumber: Int, count: Int)
        case new(rows: [UInt8], count: Int)
    }

    /// The new chunks: the old ones before the first that a new document changes, then new chunks
    /// of the old and new rows, closed as `build` closes them, until a chunk closes before an old
    /// chunk's first document (from there on the old chunks are the same), and so on.
    private static func chunks(added: [AddedDocument], insertion: [Int], old: inout OldChunks) -> [Chunk]? {
        var chunks: [Chunk] = []
        var next = 0  // the next old chunk not yet placed
        var nextAdded = 0
        while next < old.counts.count || nextAdded < added.count {
            guard nextAdded < added.count else {
                chunks += (next..<old.counts.count).map { .kept(oldNumber: $0, count: old.counts[$0]) }
                break
            }
            // The first chunk the next new document changes: the one holding the old document before it.
            let target = insertion[nextAdded] == 0 ? 0 : old.chunk(holding: insertion[nextAdded] - 1)
            while next < target {
                chunks.append(.kept(oldNumber: next, count: old.counts[next]))
                next += 1
            }
            var oldDocument = old.start(of: next)
            var rows = SearchIndex.ChunkRows()
            var resynchronized = false
            while true {
                let row: ArraySlice<UInt8>
                let hash: UInt64
                var oldNumber: Int?
                if nextAdded < added.count, insertion[nextAdded] <= oldDocument {
                    row = added[nextAdded].row[...]
                    hash = added[nextAdded].identityHash
                    nextAdded += 1
                } else if oldDocument < old.documents {
                    guard let (oldRow, key) = old.row(oldDocument) else { return nil }
                    row = oldRow
                    hash = SearchIndex.identityHash(oldRow[..<key.identityEnd])
                    oldNumber = oldDocument
                    oldDocument += 1
                } else {
                    break
                }
                if rows.count > 0, SearchIndex.closesChunk(holding: rows.count, before: hash) {
                    chunks.append(.new(rows: rows.finish(), count: rows.count))
                    rows = SearchIndex.ChunkRows()
                    if let oldNumber, let oldChunk = old.chunk(startingAt: oldNumber) {
                        // The same chunk boundary as before: the old chunks follow from here.
                        next = oldChunk
                        resynchronized = true
                        break
                    }
                }
                rows.startRow()
                rows.writer.bytes += row
            }
            if !resynchronized {
                if rows.count > 0 { chunks.append(.new(rows: rows.finish(), count: rows.count)) }
                next = old.counts.count
            }
        }
        return chunks
    }

    /// The entries of an old shard, with the posting lists that hold a moved document or gain a
    /// new one made again; `nil` when the bytes are not a shard.
    private static func entries(
        of bytes: [UInt8], insertion: [Int], additions: [String: [Int32]]
    ) -> [(token: String, entry: [UInt8])]? {
        var reader = ByteReader(bytes)
        var entries: [(token: String, entry: [UInt8])] = []
        while !reader.atEnd {
            let start = reader.offset
            guard let token = reader.string() else { return nil }
            let postingsStart = reader.offset
            guard let moved = PostingList.move(&reader, insertion: insertion, adding: additions[token] ?? [])
            else { return nil }
            if let moved {
                entries.append((token, Array(bytes[start..<postingsStart]) + moved))
            } else {
                entries.append((token, Array(bytes[start..<reader.offset])))
            }
        }
        return entries
    }
}

/// The previous index's document chunks, inflated and split into rows when first needed.
private struct OldChunks {
    let counts: [Int]
    /// The number of each chunk's first document.
    let starts: [Int]
    let documents: Int
    let read: (String) -> [UInt8]?
    private var rows: [Int: [(row: ArraySlice<UInt8>, key: SearchIndex.RowKey)]] = [:]

    init(counts: [Int], read: @escaping (String) -> [UInt8]?) {
        self.counts = counts
        var starts: [Int] = []
        var total = 0
        for count in counts {
            starts.append(total)
            total += count
        }
        self.starts = starts
        documents = total
        self.read = read
    }

    /// The first document of chunk `number` (the document count past the last chunk).
    func start(of number: Int) -> Int { number < starts.count ? starts[number] : documents }

    /// The chunk holding document `number` (< `documents`).
    func chunk(holding number: Int) -> Int { max(0, starts.countNotAfter(number) - 1) }

    /// The chunk whose first document is `number`, if one is.
    func chunk(startingAt number: Int) -> Int? {
        let candidate = chunk(holding: number)
        return starts[candidate] == number ? candidate : nil
    }

    /// Document `number`'s row and its key (the row's indices are its chunk's); `nil` when its
    /// chunk cannot be read.
    mutating func row(_ number: Int) -> (row: ArraySlice<UInt8>, key: SearchIndex.RowKey)? {
        let chunk = chunk(holding: number)
        if rows[chunk] == nil {
            guard let compressed = read(SearchIndex.chunkPath(chunk)),
                let bytes = SearchIndex.inflate(compressed),
                let chunkRows = SearchIndex.ChunkRows.rows(of: bytes), chunkRows.count == counts[chunk]
            else { return nil }
            rows[chunk] = chunkRows
        }
        return rows[chunk]![number - starts[chunk]]
    }
}

extension Array {
    /// How many elements of this array, ascending by `precedes`, do not come after `value` (by
    /// bisection).
    func countNotAfter(_ value: Element, by precedes: (Element, Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if precedes(value, self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

extension Array where Element: Comparable {
    /// How many elements of this ascending array are at most `value`.
    func countNotAfter(_ value: Element) -> Int { countNotAfter(value, by: <) }
}
