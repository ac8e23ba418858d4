import Foundation

/// A token's posting list: the numbers of the documents that hold it, ascending. The one owner
/// of its bytes: made here (`encode`), read here (`decode`), moved and extended for an append
/// here (`PostingList+Move.swift`); `search.js`'s `parseShard` and `postings` read what this
/// comment specifies.
///
/// Bytes (LEB128 varints): the document count, the mode (`Mode`), then
/// - `deltas`: the payload's length, then each document minus the one before (the first minus 0);
/// - `bitmap`: the first document, the payload's length, then bit `i` (least significant first)
///   of the payload set for document `first + i`.
///
/// The mode is whichever is smaller (`prefersBitmap`). While it is filled, the list is kept as
/// its delta varints: a merge holds every token's list at once, at a byte or two a posting.
struct PostingList {
    /// How the documents follow the count.
    enum Mode: Int {
        /// Delta varints.
        case deltas = 0
        /// A bitmap from the first document.
        case bitmap = 1
    }

    private(set) var deltas = ByteWriter()
    private(set) var count = 0
    private var first: Int32 = 0
    private var last: Int32 = 0

    init() {}

    /// The list of `documents`, ascending.
    init(_ documents: [Int32]) {
        for document in documents { add(document) }
    }

    /// The list of `count` documents from `first` to `last` whose delta varints are `deltas`.
    init(deltas: [UInt8], count: Int, first: Int32, last: Int32) {
        self.deltas.bytes = deltas
        (self.count, self.first, self.last) = (count, first, last)
    }

    /// Adds `document`, greater than the last one added.
    mutating func add(_ document: Int32) {
        if count == 0 { first = document }
        deltas.varint(Int(document - last))
        last = document
        count += 1
    }

    /// The bytes of a bitmap of documents `first...last`.
    static func bitmapLength(first: Int, last: Int) -> Int { (last - first) / 8 + 1 }

    /// The mode of the list of documents `first...last` whose delta varints take `deltaBytes`:
    /// a bitmap when it is smaller.
    static func prefersBitmap(first: Int, last: Int, deltaBytes: Int) -> Bool {
        bitmapLength(first: first, last: last) + 4 < deltaBytes
    }

    /// Writes the list (see the type's comment).
    func encode(into writer: inout ByteWriter) {
        writer.varint(count)
        if Self.prefersBitmap(first: Int(first), last: Int(last), deltaBytes: deltas.bytes.count) {
            var bitmap = [UInt8](repeating: 0, count: Self.bitmapLength(first: Int(first), last: Int(last)))
            var reader = ByteReader(deltas.bytes)
            var document = 0
            while let delta = reader.varint() {
                document += delta
                let offset = document - Int(first)
                bitmap[offset >> 3] |= 1 << UInt8(offset & 7)
            }
            writer.varint(Mode.bitmap.rawValue)
            writer.varint(Int(first))
            writer.varint(bitmap.count)
            writer.bytes += bitmap
        } else {
            writer.varint(Mode.deltas.rawValue)
            writer.varint(deltas.bytes.count)
            writer.bytes += deltas.bytes
        }
    }

    /// The bytes of the list of `documents` (ascending).
    static func encoded(_ documents: [Int32]) -> [UInt8] {
        var writer = ByteWriter()
        PostingList(documents).encode(into: &writer)
        return writer.bytes
    }

    /// Reads one list at `reader`: its documents, or `nil` for bytes that are not a list.
    static func decode(_ reader: inout ByteReader) -> [Int]? {
        guard let count = reader.varint(), let rawMode = reader.varint(), let mode = Mode(rawValue: rawMode)
        else { return nil }
        var documents: [Int] = []
        switch mode {
        case .bitmap:
            guard let first = reader.varint(), let length = reader.varint(),
                reader.offset + length <= reader.bytes.count
            else { return nil }
            for byteIndex in 0..<length {
                let byte = reader.bytes[reader.offset + byteIndex]
                for bit in 0..<8 where byte & (1 << UInt8(bit)) != 0 { documents.append(first + byteIndex * 8 + bit) }
            }
            reader.offset += length
        case .deltas:
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
