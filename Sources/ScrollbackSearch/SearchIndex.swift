import Foundation
import ScrollbackModel

/// The static, chunked search index the browser queries (`Templates/assets/search.js`),
/// merged from every published conversation's `SearchPart`.
///
/// Files, under `search/`:
/// - `manifest.json` — the tokenizer's rules (`SearchTokenizer.manifestRules`), the
///   conversations and senders, the number of documents, the number of documents in each chunk,
///   and the first token of every shard.
/// - `t/<n>.bin` — shard `n`: tokens in UTF-8 byte order, each with its posting list (document
///   numbers ascending, as delta varints or, when smaller, as a bitmap). A query downloads
///   only the shard(s) its words fall in.
/// - `d/<n>.bin.deflate` — the `n`-th run of documents: one row each, `conversation, sender + 1,
///   date, file, anchor, kind flags, text` (`appendRowIdentity`, `appendRowRest`: varints, the
///   date zig-zag, strings as their length and UTF-8), compressed with raw deflate (the browser's
///   `DecompressionStream("deflate-raw")` reads it). Compressed, the
///   documents take about a third of their text's size on disk and on the wire, and a chunk can
///   hold more of them for the same download (fewer files to write). Only the chunks of shown
///   results are fetched. Where a chunk ends depends on the documents, not on their numbers
///   (`closesChunk`), so a document added in the middle changes the chunk it lands in, not every
///   chunk after it (`update`).
/// - `days.json` — the first document of every UTC day, for `before:` and `after:`.
///
/// Documents are numbered by date (ties: conversation id, then position), so "newest first"
/// is "highest number first" and a date range is a number range. Operators are tokens of
/// their own: `from:<word of the sender's name or id>`, `in:<conversation id>`,
/// `has:image|file|link`. Every file is a pure function of the parts: byte-identical builds.
public enum SearchIndex {
    /// The folder inside the site.
    public static let folder = "search"
    /// A chunk holds at least this many documents (but the last)…
    ///
    /// The chunk size weighs the files a site holds (each one an inode to create, and a file to
    /// upload) against the bytes a query fetches; the measurements behind it are in
    /// scripts/bench/RESULTS.md.
    public static let minimumChunkDocuments = 512
    /// …then closes before a document whose identity hashes to a multiple of this (on average
    /// 1,024 documents a chunk)…
    public static let chunkDivisor: UInt64 = 512
    /// …or once it holds this many.
    public static let maximumChunkDocuments = 2048
    /// A shard is closed once it holds about this many bytes (a larger token gets its own).
    public static let shardTargetBytes = 24_000
    /// The index format; the client refuses another.
    public static let format = 4

    /// Whether a site file belongs to search (so `search: false` can leave it out).
    public static func isSearchFile(_ sitePath: String) -> Bool {
        sitePath.hasPrefix(folder + "/") || sitePath.hasPrefix("assets/search.")
    }

    /// Every folder the index writes into, parents first (made before `build` writes).
    public static let folders = [folder, folder + "/d", folder + "/t"]

    /// The index's token order: by UTF-8 bytes (the client compares code points: the same
    /// order).
    static func tokenPrecedes(_ first: String, _ second: String) -> Bool {
        var (first, second) = (first, second)
        return first.withUTF8 { first in second.withUTF8 { second in bytesPrecede(first, second) } }
    }

    /// `tokenPrecedes` on the tokens' bytes.
    private static func bytesPrecede(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>) -> Bool
    {
        let common = min(first.count, second.count)
        let order = common == 0 ? 0 : memcmp(first.baseAddress!, second.baseAddress!, common)
        return order != 0 ? order < 0 : first.count < second.count
    }

    /// `tokens` in the index's order (`tokenPrecedes`), sorted as one buffer of their bytes, each
    /// first compared on its first eight bytes as one number: the index sorts tens of thousands
    /// while the other cores wait.
    static func sortedTokens(_ tokens: [String]) -> [String] {
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        var prefixes: [UInt64] = []
        for token in tokens {
            let start = bytes.count
            bytes += token.utf8
            ranges.append(start..<bytes.count)
            var prefix: UInt64 = 0
            for offset in 0..<8 {
                prefix = prefix << 8 | UInt64(start + offset < bytes.count ? bytes[start + offset] : 0)
            }
            prefixes.append(prefix)
        }
        var order = Array(tokens.indices)
        bytes.withUnsafeBufferPointer { bytes in
            order.sort { first, second in
                if prefixes[first] != prefixes[second] { return prefixes[first] < prefixes[second] }
                return bytesPrecede(
                    UnsafeBufferPointer(rebasing: bytes[ranges[first]]),
                    UnsafeBufferPointer(rebasing: bytes[ranges[second]]))
            }
        }
        return order.map { tokens[$0] }
    }

    /// The site path of document chunk `number`.
    static func chunkPath(_ number: Int) -> String { "\(folder)/d/\(number).bin.deflate" }
    /// The site path of shard `number`.
    static func shardPath(_ number: Int) -> String { "\(folder)/t/\(number).bin" }
    static let manifestPath = folder + "/manifest.json"
    static let daysPath = folder + "/days.json"

    // MARK: Rows and chunks

    /// Writes the identifying fields of the row of `document` (of `page`) of part `part`: the
    /// conversation, the sender (plus one: 0 for none), the date (zig-zag), the file and the anchor
    /// (length and UTF-8). Their bytes decide where chunks end (`identityHash`).
    static func appendRowIdentity(
        _ document: SearchPart.StoredDocument, of page: SearchPart.StoredPage, part: Int, senders: SenderTable,
        to row: inout ByteWriter
    ) {
        row.varint(part)
        row.varint(senders.number(ofSender: document.sender, inPart: part) + 1)
        row.signed(document.date)
        page.withBytes(document.file) { row.string(utf8: $0) }
        page.withBytes(document.anchor) { row.string(utf8: $0) }
    }

    /// Writes the rest of a document's row after `appendRowIdentity`: its kind flags, and its text.
    static func appendRowRest(
        _ document: SearchPart.StoredDocument, of page: SearchPart.StoredPage, to row: inout ByteWriter
    ) {
        row.varint(document.flags)
        page.withBytes(document.text) { row.string(utf8: $0) }
    }

    /// The hash of a row's identifying fields (`appendRowIdentity`'s bytes).
    static func identityHash(_ identity: ArraySlice<UInt8>) -> UInt64 { StableHash.fnv1a64(identity) }

    /// Whether a chunk already holding `count` documents closes before a document whose
    /// identity hashes to `hash`. The decision looks at the chunk's count and the next document
    /// only: once two runs of documents close a chunk before the same document, they agree again
    /// from there on.
    static func closesChunk(holding count: Int, before hash: UInt64) -> Bool {
        count >= maximumChunkDocuments || (count >= minimumChunkDocuments && (hash >> 32) % chunkDivisor == 0)
    }

    /// A chunk's bytes before compression: its rows, one after the other (each row's fields say
    /// where it ends). An update splits a chunk it inflates back into rows (`rows(of:)`).
    struct ChunkRows {
        var writer = ByteWriter()
        private(set) var count = 0

        /// Starts the next row (the caller writes it to `writer`).
        mutating func startRow() { count += 1 }

        func finish() -> [UInt8] { writer.bytes }

        /// The rows of `bytes` (an inflated chunk) and their keys; `nil` when they are not a chunk's
        /// rows.
        static func rows(of bytes: [UInt8]) -> [(row: ArraySlice<UInt8>, key: RowKey)]? {
            var reader = ByteReader(bytes)
            var rows: [(row: ArraySlice<UInt8>, key: RowKey)] = []
            while !reader.atEnd {
                let start = reader.offset
                guard let key = RowKey(&reader), reader.varint() != nil, reader.stringRange() != nil else { return nil }
                rows.append((bytes[start..<reader.offset], key))
            }
            return rows
        }
    }

    /// The identifying fields of a row (`appendRowIdentity`'s), read back.
    struct RowKey {
        var part: Int
        var date: Int64
        /// Where `appendRowIdentity`'s bytes end in the chunk.
        var identityEnd: Int

        /// Reads the fields at `reader`'s offset, and moves past them.
        init?(_ reader: inout ByteReader) {
            guard let part = reader.varint(), reader.varint() != nil, let date = reader.signed(),
                reader.stringRange() != nil, reader.stringRange() != nil
            else { return nil }
            (self.part, self.date, identityEnd) = (part, date, reader.offset)
        }
    }

    // MARK: Shards, days, manifest

    /// One token's shard entry: the token, then its posting list (`PostingList`).
    static func entry(_ token: String, _ documents: [Int32]) -> [UInt8] { entry(token, PostingList(documents)) }

    /// One token's shard entry, from its posting list.
    static func entry(_ token: String, _ list: PostingList) -> [UInt8] {
        var writer = ByteWriter()
        writer.string(token)
        list.encode(into: &writer)
        return writer.bytes
    }

    /// Packs token entries, in token order, into shards of about `shardTargetBytes`.
    struct ShardPacker {
        /// The first token of every shard begun so far.
        private(set) var firstTokens: [String] = []
        private var current: [UInt8] = []

        /// Adds `token`'s entry; returns the shard this closed, if any.
        mutating func add(_ token: String, entry: [UInt8]) -> (number: Int, bytes: [UInt8])? {
            var closed: (number: Int, bytes: [UInt8])?
            if !current.isEmpty, current.count + entry.count > shardTargetBytes { closed = finish() }
            if current.isEmpty { firstTokens.append(token) }
            current += entry
            return closed
        }

        /// Whether adding an entry of `count` bytes would close the shard being filled first.
        func closes(beforeEntryOf count: Int) -> Bool {
            !current.isEmpty && current.count + count > shardTargetBytes
        }

        /// Counts a shard kept as it was (an update's), which begins with `token`: only between
        /// shards.
        mutating func keepShard(startingAt token: String) {
            precondition(current.isEmpty, "a kept shard starts between shards")
            firstTokens.append(token)
        }

        /// Closes the last shard; returns it, if any.
        mutating func finish() -> (number: Int, bytes: [UInt8])? {
            guard !current.isEmpty else { return nil }
            defer { current = [] }
            return (firstTokens.count - 1, current)
        }
    }

    /// A UTC day and its first document.
    struct Day: Equatable {
        var day: Int64
        var first: Int
    }

    /// The UTC day of `date` (seconds since 1970), rounded down also before 1970.
    static func day(of date: Int64) -> Int64 {
        date >= 0 ? date / 86_400 : (date - 86_399) / 86_400
    }

    /// `days.json`: day and first document of every day, each as the difference from the
    /// previous one.
    static func daysFile(_ days: [Day]) -> [UInt8] {
        var file = JSONWriter()
        file.raw("[")
        var previous = Day(day: 0, first: 0)
        for (index, entry) in days.enumerated() {
            if index > 0 { file.raw(",") }
            file.number(Int(entry.day - previous.day))
            file.raw(",")
            file.number(entry.first - previous.first)
            previous = entry
        }
        file.raw("]\n")
        return file.bytes
    }

    /// The numbers of a file `daysFile` wrote (`[n,n,…]` and a newline), or `nil` for anything
    /// else. The update reads them back without a JSON decoder, which took ten milliseconds for
    /// the days of the 1M-message benchmark, a tenth of an append's index update.
    static func daysFileNumbers(_ bytes: [UInt8]) -> [Int64]? {
        guard bytes.count >= 3, bytes.first == UInt8(ascii: "["), bytes.last == 0x0A,
            bytes[bytes.count - 2] == UInt8(ascii: "]")
        else { return nil }
        var numbers: [Int64] = []
        var index = 1
        let end = bytes.count - 2
        while index < end {
            let negative = bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            var value: Int64 = 0
            let digitsStart = index
            while index < end, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"),
                index - digitsStart < 18
            {
                value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            guard index > digitsStart else { return nil }
            numbers.append(negative ? -value : value)
            if index < end {
                guard bytes[index] == UInt8(ascii: ","), index + 1 < end else { return nil }
                index += 1
            }
        }
        return numbers
    }

    /// The senders results show: one list for the site, sorted by name (then avatar), and each
    /// part's senders as numbers in it.
    struct SenderTable: Sendable {
        /// A sender as results show it.
        struct Key: Hashable, Comparable, Sendable {
            var name: String
            var initials: String
            var avatar: String
            static func < (a: Key, b: Key) -> Bool {
                (a.name, a.avatar, a.initials) < (b.name, b.avatar, b.initials)
            }
        }

        let keys: [Key]
        /// Per part (in the order given), the number of each of its senders in `keys`.
        private let maps: [[Int]]

        /// The table of every sender of `senders` (each part's).
        init(_ senders: [[SearchPart.Sender]]) {
            self.init(keys: Set(senders.joined().map(Self.key)).sorted(), senders: senders)!
        }

        /// The table `keys` (a previous index's), with the numbers of each part's `senders`;
        /// `nil` when one is not among the keys.
        init?(keys: [Key], senders: [[SearchPart.Sender]]) {
            let number = Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            var maps: [[Int]] = []
            for partSenders in senders {
                var map: [Int] = []
                for sender in partSenders {
                    guard let known = number[Self.key(sender)] else { return nil }
                    map.append(known)
                }
                maps.append(map)
            }
            (self.keys, self.maps) = (keys, maps)
        }

        private static func key(_ sender: SearchPart.Sender) -> Key {
            Key(name: sender.name, initials: sender.initials, avatar: sender.avatar ?? "")
        }

        /// The number in `keys` of `part`'s sender number `sender` (-1, no sender, stays -1).
        func number(ofSender sender: Int, inPart part: Int) -> Int { sender < 0 ? -1 : maps[part][sender] }
    }

    /// `manifest.json`; `conversations` in part order.
    static func manifestFile(
        documents: Int, chunks: [Int], conversations: [(id: String, title: String)], senders: SenderTable,
        shards: [String]
    ) -> [UInt8] {
        var manifest = JSONWriter()
        manifest.raw("{\"format\":\(format),\"documents\":\(documents),\n\"rules\":")
        manifest.value(SearchTokenizer.manifestRules)
        manifest.raw(",\n\"conversations\":[")
        for (index, conversation) in conversations.enumerated() {
            manifest.raw(index == 0 ? "" : ",")
            manifest.strings([conversation.id, conversation.title])
        }
        manifest.raw("],\n\"senders\":[")
        for (index, sender) in senders.keys.enumerated() {
            manifest.raw(index == 0 ? "" : ",")
            manifest.strings([sender.name, sender.initials, sender.avatar])
        }
        manifest.raw("],\n\"shards\":")
        manifest.strings(shards)
        manifest.raw(",\n\"chunks\":[")
        for (index, count) in chunks.enumerated() {
            manifest.raw(index == 0 ? "" : ",")
            manifest.number(count)
        }
        manifest.raw("]}\n")
        return manifest.bytes
    }

    /// `bytes` compressed with raw deflate (`RawDeflate`).
    static func deflate(_ bytes: [UInt8]) -> [UInt8] { RawDeflate.compress(bytes) }

    /// The inverse of `deflate` (tests, and readers of a built index); `nil` for bytes that are not
    /// a raw deflate stream.
    public static func inflate(_ bytes: [UInt8]) -> [UInt8]? { RawDeflate.decompress(bytes) }
}

/// Deterministic JSON text, written by hand: no key reordering, no locale, no floats.
struct JSONWriter {
    var bytes: [UInt8] = []

    mutating func raw(_ text: StaticString) {
        if text.utf8CodeUnitCount == 1 {
            bytes.append(text.utf8Start.pointee)
        } else {
            bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
    }

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func number(_ value: Int) {
        DecimalText.withDigits(of: value) { bytes.append(contentsOf: $0) }
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
