import Foundation
import ScrollbackModel

/// The static, chunked search index the browser queries (`Templates/assets/search.js`),
/// merged from every published conversation's `SearchPart`.
///
/// Files, under `search/`:
/// - `manifest.json` — the tokenizer's rules (`SearchTokenizer.manifestRules`), the
///   conversations and senders, the number of documents, documents per chunk, and the first
///   token of every shard.
/// - `t/<n>.bin` — shard `n`: tokens in UTF-8 byte order, each with its posting list (document
///   numbers ascending, as delta varints or, when smaller, as a bitmap). A query downloads
///   only the shard(s) its words fall in.
/// - `d/<n>.json.deflate` — documents `n·documentsPerChunk ..< (n+1)·documentsPerChunk`:
///   conversation, sender, date, page file, anchor, kind flags, text, as JSON compressed with raw
///   deflate (the browser's `DecompressionStream("deflate-raw")` reads it). Compressed, the
///   documents take about a third of their text's size on disk and on the wire, and a chunk can
///   hold more of them for the same download (fewer files to write). Only the chunks of shown
///   results are fetched.
/// - `days.json` — the first document of every UTC day, for `before:` and `after:`.
///
/// Documents are numbered by date (ties: conversation id, then position), so "newest first"
/// is "highest number first" and a date range is a number range. Operators are tokens of
/// their own: `from:<word of the sender's name or id>`, `in:<conversation id>`,
/// `has:image|file|link`. Every file is a pure function of the parts: byte-identical builds.
public enum SearchIndex {
    /// The folder inside the site.
    public static let folder = "search"
    /// Documents per `d/<n>.json.deflate` file.
    public static let documentsPerChunk = 256
    /// A shard is closed once it holds about this many bytes (a larger token gets its own).
    public static let shardTargetBytes = 24_000
    /// The index format; the client refuses another.
    public static let format = 2

    /// Whether a site file belongs to search (so `search: false` can leave it out).
    public static func isSearchFile(_ sitePath: String) -> Bool {
        sitePath.hasPrefix(folder + "/") || sitePath.hasPrefix("assets/search.")
    }

    /// Every folder the index writes into, parents first (made before `build` writes).
    public static let folders = [folder, folder + "/d", folder + "/t"]

    /// The index files (site paths and bytes, sorted by path) for `parts`, in any order.
    public static func build(parts: [SearchPart], jobs: Int = Parallel.defaultJobs) -> [(path: String, bytes: [UInt8])]
    {
        let files = CollectedFiles()
        build(parts: parts, jobs: jobs) { path, bytes in files.add(path, bytes) }
        return files.sorted()
    }

    /// Makes the index files for `parts` (in any order) and hands each to `write` with its site
    /// path, from several threads at once (the document chunks are made and written `jobs` at a
    /// time while the calling thread merges the posting lists; with `jobs` 1, one after the other
    /// on the calling thread); rethrows the first error of `write`. The files do not depend on
    /// `jobs`.
    /// Each document names the file that draws it (`SearchPart.Document.file`), so results link
    /// to thread pages as well as timeline pages.
    public static func build<Failure: Error>(
        parts unsorted: [SearchPart], jobs: Int,
        write: @escaping @Sendable (_ path: String, _ bytes: [UInt8]) throws(Failure) -> Void
    ) throws(Failure) {
        let parts = unsorted.sorted { $0.conversationID < $1.conversationID }
        let failure = FirstError<Failure>()

        // Senders: one list for the site, sorted by name (then avatar).
        let senderKeys = Array(
            Set(
                parts.flatMap {
                    $0.senders.map { SenderKey(name: $0.name, initials: $0.initials, avatar: $0.avatar ?? "") }
                })
        ).sorted()
        let senderNumber = Dictionary(uniqueKeysWithValues: senderKeys.enumerated().map { ($1, $0) })
        let senderMaps: [[Int]] = parts.map { part in
            part.senders.map { senderNumber[SenderKey(name: $0.name, initials: $0.initials, avatar: $0.avatar ?? "")]! }
        }

        // Documents in date order; ties by conversation, then position.
        var slots: [DocumentSlot] = []
        slots.reserveCapacity(parts.reduce(0) { $0 + $1.documents.count })
        for (partIndex, part) in parts.enumerated() {
            for (index, document) in part.documents.enumerated() {
                slots.append(DocumentSlot(date: document.date, part: Int32(partIndex), index: Int32(index)))
            }
        }
        slots.sort { ($0.date, $0.part, $0.index) < ($1.date, $1.part, $1.index) }

        // The document chunks, `jobs` at a time beside this thread's merge of the postings.
        let writeChunks: @Sendable () -> Void = { [slots] in
            let chunkCount = (slots.count + documentsPerChunk - 1) / documentsPerChunk
            Parallel.forEach(chunkCount, jobs: jobs) { number in
                let bytes = documentChunk(
                    slots[number * documentsPerChunk..<min(slots.count, (number + 1) * documentsPerChunk)],
                    parts: parts, senderMaps: senderMaps)
                failure.run { () throws(Failure) in try write("\(folder)/d/\(number).json.deflate", deflate(bytes)) }
            }
        }
        let chunking = DispatchGroup()
        if jobs > 1 { DispatchQueue.global().async(group: chunking, execute: writeChunks) }

        // Tokens: the union of the parts' vocabularies and one `in:` token per conversation,
        // in UTF-8 byte order (the client compares code points: the same order).
        var tokenSet = Set<String>()
        for part in parts {
            tokenSet.formUnion(part.vocabulary)
            tokenSet.insert("in:" + part.conversationID)
        }
        let tokens = tokenSet.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let tokenNumber = Dictionary(uniqueKeysWithValues: tokens.enumerated().map { ($1, $0) })
        let tokenMaps: [[Int]] = parts.map { $0.vocabulary.map { tokenNumber[$0]! } }
        let inTokens = parts.map { tokenNumber["in:" + $0.conversationID]! }

        var postings = [[Int32]](repeating: [], count: tokens.count)
        var days: [(day: Int64, first: Int)] = []
        for (number, slot) in slots.enumerated() {
            let part = Int(slot.part)
            let document = parts[part].documents[Int(slot.index)]
            let map = tokenMaps[part]
            for token in document.tokens { postings[map[token]].append(Int32(number)) }
            postings[inTokens[part]].append(Int32(number))
            let day = document.date >= 0 ? document.date / 86_400 : (document.date - 86_399) / 86_400
            if days.last?.day != day { days.append((day, number)) }
        }

        // Shards.
        var shardFirstTokens: [String] = []
        var shard = ByteWriter()
        func closeShard() {
            guard !shard.bytes.isEmpty else { return }
            let bytes = shard.bytes
            failure.run { () throws(Failure) in try write("\(folder)/t/\(shardFirstTokens.count - 1).bin", bytes) }
            shard = ByteWriter()
        }
        for (number, token) in tokens.enumerated() where !postings[number].isEmpty {
            var entry = ByteWriter()
            entry.string(token)
            Self.encodePostings(postings[number], into: &entry)
            if !shard.bytes.isEmpty, shard.bytes.count + entry.bytes.count > shardTargetBytes { closeShard() }
            if shard.bytes.isEmpty { shardFirstTokens.append(token) }
            shard.bytes += entry.bytes
        }
        closeShard()

        // Days.
        var dayFile = JSONWriter()
        dayFile.raw("[")
        var previous: (day: Int64, first: Int) = (0, 0)
        for (index, entry) in days.enumerated() {
            if index > 0 { dayFile.raw(",") }
            dayFile.number(Int(entry.day - previous.day))
            dayFile.raw(",")
            dayFile.number(entry.first - previous.first)
            previous = entry
        }
        dayFile.raw("]\n")
        failure.run { () throws(Failure) in try write("\(folder)/days.json", dayFile.bytes) }

        // Manifest.
        var manifest = JSONWriter()
        manifest.raw("{\"format\":\(format),\"documents\":\(slots.count),\"chunk\":\(documentsPerChunk),\n\"rules\":")
        manifest.value(SearchTokenizer.manifestRules)
        manifest.raw(",\n\"conversations\":[")
        for (index, part) in parts.enumerated() {
            manifest.raw(index == 0 ? "" : ",")
            manifest.strings([part.conversationID, part.title])
        }
        manifest.raw("],\n\"senders\":[")
        for (index, sender) in senderKeys.enumerated() {
            manifest.raw(index == 0 ? "" : ",")
            manifest.strings([sender.name, sender.initials, sender.avatar])
        }
        manifest.raw("],\n\"shards\":")
        manifest.strings(shardFirstTokens)
        manifest.raw("}\n")
        failure.run { () throws(Failure) in try write("\(folder)/manifest.json", manifest.bytes) }

        if jobs <= 1 { writeChunks() }
        chunking.wait()
        try failure.rethrow()
    }

    /// A sender as results show it: one list for the site.
    private struct SenderKey: Hashable, Comparable {
        var name: String
        var initials: String
        var avatar: String
        static func < (a: SenderKey, b: SenderKey) -> Bool {
            (a.name, a.avatar, a.initials) < (b.name, b.avatar, b.initials)
        }
    }

    /// Where a document sits among the parts, and its date (the index's order).
    private struct DocumentSlot {
        var date: Int64
        var part: Int32
        var index: Int32
    }

    /// One `d/<n>.json` chunk (before compression): the documents of `slots`.
    private static func documentChunk(
        _ slots: ArraySlice<DocumentSlot>, parts: [SearchPart], senderMaps: [[Int]]
    ) -> [UInt8] {
        var chunk = JSONWriter()
        for (offset, slot) in slots.enumerated() {
            let part = Int(slot.part)
            let document = parts[part].documents[Int(slot.index)]
            chunk.raw(offset == 0 ? "[\n[" : ",\n[")
            chunk.number(part)
            chunk.raw(",")
            chunk.number(document.sender < 0 ? -1 : senderMaps[part][document.sender])
            chunk.raw(",")
            chunk.number(Int(document.date))
            chunk.raw(",")
            chunk.string(document.file)
            chunk.raw(",")
            chunk.string(document.anchor)
            chunk.raw(",")
            chunk.number(document.flags)
            chunk.raw(",")
            chunk.string(document.text)
            chunk.raw("]")
        }
        chunk.raw("\n]\n")
        return chunk.bytes
    }

    /// `bytes` compressed with raw deflate (`RawDeflate`).
    static func deflate(_ bytes: [UInt8]) -> [UInt8] { RawDeflate.compress(bytes) }

    /// The inverse of `deflate` (tests, and readers of a built index); `nil` for bytes that are not
    /// a raw deflate stream.
    public static func inflate(_ bytes: [UInt8]) -> [UInt8]? { RawDeflate.decompress(bytes) }

    /// Document count, then mode 0 (delta varints) or 1 (bitmap from the first document),
    /// whichever is smaller, then the payload's byte length and the payload.
    static func encodePostings(_ documents: [Int32], into writer: inout ByteWriter) {
        var deltas = ByteWriter()
        var previous: Int32 = 0
        for document in documents {
            deltas.varint(Int(document - previous))
            previous = document
        }
        let first = Int(documents[0])
        let bitmapLength = (Int(documents[documents.count - 1]) - first) / 8 + 1
        writer.varint(documents.count)
        if bitmapLength + 4 < deltas.bytes.count {
            var bitmap = [UInt8](repeating: 0, count: bitmapLength)
            for document in documents {
                let offset = Int(document) - first
                bitmap[offset >> 3] |= 1 << UInt8(offset & 7)
            }
            writer.varint(1)
            writer.varint(first)
            writer.varint(bitmap.count)
            writer.bytes += bitmap
        } else {
            writer.varint(0)
            writer.varint(deltas.bytes.count)
            writer.bytes += deltas.bytes
        }
    }

    /// Decodes one posting list (for tests): the documents of `encodePostings`.
    static func decodePostings(_ reader: inout ByteReader) -> [Int]? {
        guard let count = reader.varint(), let mode = reader.varint() else { return nil }
        var documents: [Int] = []
        if mode == 1 {
            guard let first = reader.varint(), let length = reader.varint(),
                reader.offset + length <= reader.bytes.count
            else { return nil }
            for byteIndex in 0..<length {
                let byte = reader.bytes[reader.offset + byteIndex]
                for bit in 0..<8 where byte & (1 << UInt8(bit)) != 0 { documents.append(first + byteIndex * 8 + bit) }
            }
            reader.offset += length
        } else {
            guard let length = reader.varint() else { return nil }
            let end = reader.offset + length
            var previous = 0
            while reader.offset < end {
                guard let delta = reader.varint() else { return nil }
                previous += delta
                documents.append(previous)
            }
        }
        return documents.count == count ? documents : nil
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
    private var files: [(path: String, bytes: [UInt8])] = []
    private let lock = NSLock()

    func add(_ path: String, _ bytes: [UInt8]) {
        lock.withLock { files.append((path, bytes)) }
    }

    func sorted() -> [(path: String, bytes: [UInt8])] {
        lock.withLock { files.sorted { $0.path < $1.path } }
    }
}

/// Deterministic JSON text, written by hand: no key reordering, no locale, no floats.
struct JSONWriter {
    var bytes: [UInt8] = []

    mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func number(_ value: Int) {
        if value < 0 { bytes.append(0x2D) }
        digits(value.magnitude)
    }

    private mutating func digits(_ value: UInt) {
        if value >= 10 { digits(value / 10) }
        bytes.append(0x30 + UInt8(value % 10))
    }

    /// `texts` as a JSON array of strings: `["a","b"]`.
    mutating func strings(_ texts: [String]) {
        raw("[")
        for (index, text) in texts.enumerated() {
            if index > 0 { raw(",") }
            string(text)
        }
        raw("]")
    }

    /// A JSON string (`JSONText`'s escaping).
    mutating func string(_ text: String) { JSONText.appendQuoted(text, to: &bytes) }

    /// Strings, integers, arrays and dictionaries (keys sorted).
    mutating func value(_ value: Any) {
        switch value {
        case let text as String: string(text)
        case let number as Int: self.number(number)
        case let array as [Any]:
            raw("[")
            for (index, element) in array.enumerated() {
                if index > 0 { raw(",") }
                self.value(element)
            }
            raw("]")
        case let dictionary as [String: Any]:
            raw("{")
            for (index, key) in dictionary.keys.sorted().enumerated() {
                if index > 0 { raw(",") }
                string(key)
                raw(":")
                self.value(dictionary[key]!)
            }
            raw("}")
        default: raw("null")
        }
    }
}
