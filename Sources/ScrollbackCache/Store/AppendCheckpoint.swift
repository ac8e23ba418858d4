import Foundation
import ScrollbackModel
import ScrollbackReading

/// Where a JSON log's messages sit in the file and how they are ordered: what an incremental
/// build needs to rebuild only the last pages after messages were appended to the log.
///
/// Kept per conversation in the output, written from every full read of a JSON log: the header
/// at `append/<conversation-id>.bin` in the cache (named by `BuildManifest.Entry.checkpoint`),
/// the records in blocks of `blockSize` at `append/<conversation-id>/<n>.bin`, so an
/// append writes the header and the last block again and links the others. The format is
/// deterministic little-endian fixed-width binary: a clean build and an incremental build of the
/// same input write the same bytes.
///
/// Header (120 bytes): magic `SBAPND03`; `prefixLength` (u64); `prefixFingerprint` (32 ASCII
/// hex digits); `suffixLength` (u64); `suffixFingerprint` (32 hex); `arrayOpenOffset` (u64);
/// `maxDate` (f64 bits, seconds since 2001); flags (u64: bit 0 = every id is its own anchor);
/// record count (u64). A block holds one 28-byte record per message in file order: start (u64),
/// length (u32), position in date order (u32), FNV-1a hash of the id (u64), file index of the
/// reply target (u32, `0xFFFFFFFF` for none).
package struct AppendCheckpoint: Equatable {
    /// One message of the log.
    package struct Record: Equatable {
        /// Byte range of the message object in the file.
        package var start: Int
        package var length: Int
        /// Position among the date-sorted messages (ties in file order).
        package var sortedIndex: Int
        /// `AppendCheckpoint.idHash` of the message id.
        package var idHash: UInt64
        /// File index of the message it replies to, if the reply has a target.
        package var replyTarget: Int?

        /// A record of the message at `start..<start + length`.
        package init(start: Int, length: Int, sortedIndex: Int, idHash: UInt64, replyTarget: Int? = nil) {
            self.start = start
            self.length = length
            self.sortedIndex = sortedIndex
            self.idHash = idHash
            self.replyTarget = replyTarget
        }
    }

    package static let magic = Array("SBAPND03".utf8)
    package static let headerSize = 120
    static let recordSize = 28
    /// Records per block file.
    package static let blockSize = 65_536
    private static let noTarget: UInt32 = 0xFFFF_FFFF

    /// Bytes of the file up to the end of the last message object.
    package var prefixLength: Int
    /// `ContentFingerprint` of bytes `[0, prefixLength)`.
    package var prefixFingerprint: String
    /// Length and fingerprint of the rest of the file (`]` and what follows the messages).
    package var suffixLength: Int
    package var suffixFingerprint: String
    /// Offset of the `messages` array's `[`.
    package var arrayOpenOffset: Int
    /// The latest message date (`timeIntervalSinceReferenceDate`).
    package var maxDate: Double
    /// Whether every message id is its own permalink anchor (`SiteRenderer.hasOwnAnchor`), so
    /// no anchor depends on the other messages.
    package var idsAreOwnAnchors: Bool
    /// The messages in file order.
    package var records: [Record]

    /// The path of a conversation's checkpoint header, as a cache path (`BuildTree`).
    package static func relativePath(conversationID: String) -> String {
        BuildTree.cachePath("append/" + conversationID + ".bin")
    }

    /// The path of block `block` of a conversation's checkpoint, as a cache path (`BuildTree`).
    package static func blockPath(conversationID: String, block: Int) -> String {
        BuildTree.cachePath("append/" + conversationID + "/\(block).bin")
    }

    /// How many block files the records take.
    package var blockCount: Int { (records.count + Self.blockSize - 1) / Self.blockSize }

    /// The checkpoint of `conversationID` in the build `tree`; `nil` when a file is missing or
    /// damaged.
    package static func read(conversationID: String, in tree: BuildTree) -> AppendCheckpoint? {
        guard let header = LogReader.contents(ofFile: tree.path(relativePath(conversationID: conversationID))) else {
            return nil
        }
        return AppendCheckpoint(decodingHeader: header) { block in
            LogReader.contents(ofFile: tree.path(blockPath(conversationID: conversationID, block: block)))
        }
    }

    /// Writes the header and blocks `firstBlock` and later of `conversationID`'s checkpoint into
    /// `folder` (the blocks before are the previous build's, linked by the caller).
    package func write(conversationID: String, fromBlock firstBlock: Int = 0, into folder: inout StagedFolder) throws {
        try folder.write(encodedHeader(), at: Self.relativePath(conversationID: conversationID))
        for (offset, bytes) in encodedBlocks(from: firstBlock).enumerated() {
            try folder.write(bytes, at: Self.blockPath(conversationID: conversationID, block: firstBlock + offset))
        }
    }

    /// A stable 64-bit hash of a message id (FNV-1a over its UTF-8; never the seeded `Hasher`).
    package static func idHash(_ id: String) -> UInt64 { StableHash.fnv1a64(id.utf8) }

    /// The header file's bytes.
    func encodedHeader() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.headerSize)
        bytes += Self.magic
        bytes.appendLittleEndian(UInt64(prefixLength))
        bytes +=
            Array(prefixFingerprint.utf8.prefix(32))
            + Array(repeating: 0x30, count: max(0, 32 - prefixFingerprint.utf8.count))
        bytes.appendLittleEndian(UInt64(suffixLength))
        bytes +=
            Array(suffixFingerprint.utf8.prefix(32))
            + Array(repeating: 0x30, count: max(0, 32 - suffixFingerprint.utf8.count))
        bytes.appendLittleEndian(UInt64(arrayOpenOffset))
        bytes.appendLittleEndian(maxDate.bitPattern)
        bytes.appendLittleEndian(UInt64(idsAreOwnAnchors ? 1 : 0))
        bytes.appendLittleEndian(UInt64(records.count))
        return bytes
    }

    /// The bytes of blocks `first` and later, in order.
    func encodedBlocks(from first: Int) -> [[UInt8]] {
        (first..<blockCount).map { block in
            let range = (block * Self.blockSize)..<min(records.count, (block + 1) * Self.blockSize)
            var bytes = [UInt8](repeating: 0, count: range.count * Self.recordSize)
            bytes.withUnsafeMutableBytes { buffer in
                var offset = 0
                for record in records[range] {
                    buffer.storeLittleEndian(UInt64(record.start), at: offset)
                    buffer.storeLittleEndian(UInt32(truncatingIfNeeded: record.length), at: offset + 8)
                    buffer.storeLittleEndian(UInt32(truncatingIfNeeded: record.sortedIndex), at: offset + 12)
                    buffer.storeLittleEndian(record.idHash, at: offset + 16)
                    let target = record.replyTarget.map { UInt32(truncatingIfNeeded: $0) } ?? Self.noTarget
                    buffer.storeLittleEndian(target, at: offset + 24)
                    offset += Self.recordSize
                }
            }
            return bytes
        }
    }

    /// Decodes a header and its blocks (`block` gives a block file's bytes, `nil` when it cannot
    /// be read); `nil` when they are not a checkpoint of this format.
    package init?(decodingHeader bytes: [UInt8], block: (Int) -> [UInt8]?) {
        guard bytes.count == Self.headerSize, Array(bytes[0..<8]) == Self.magic else { return nil }
        func load<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            bytes.withUnsafeBytes { $0.loadLittleEndian(at: offset, as: T.self) }
        }
        prefixLength = Int(load(8, UInt64.self))
        prefixFingerprint = String(decoding: bytes[16..<48], as: UTF8.self)
        suffixLength = Int(load(48, UInt64.self))
        suffixFingerprint = String(decoding: bytes[56..<88], as: UTF8.self)
        arrayOpenOffset = Int(load(88, UInt64.self))
        maxDate = Double(bitPattern: load(96, UInt64.self))
        idsAreOwnAnchors = load(104, UInt64.self) & 1 == 1
        let count = load(112, UInt64.self)
        guard count <= UInt64(UInt32.max) else { return nil }
        records = []
        records.reserveCapacity(Int(count))
        for first in stride(from: 0, to: Int(count), by: Self.blockSize) {
            let size = min(Int(count) - first, Self.blockSize) * Self.recordSize
            guard let blockBytes = block(first / Self.blockSize), blockBytes.count == size else { return nil }
            blockBytes.withUnsafeBytes { buffer in
                for offset in stride(from: 0, to: size, by: Self.recordSize) {
                    records.append(Self.record(in: buffer, at: offset))
                }
            }
        }
    }

    /// The record stored at `offset` of a block.
    private static func record(in block: UnsafeRawBufferPointer, at offset: Int) -> Record {
        func load<T: FixedWidthInteger>(_ field: Int, _: T.Type) -> T {
            block.loadLittleEndian(at: offset + field, as: T.self)
        }
        let target = load(24, UInt32.self)
        return Record(
            start: Int(load(0, UInt64.self)), length: Int(load(8, UInt32.self)),
            sortedIndex: Int(load(12, UInt32.self)), idHash: load(16, UInt64.self),
            replyTarget: target == noTarget ? nil : Int(target))
    }

    /// Creates a checkpoint.
    package init(
        prefixLength: Int, prefixFingerprint: String, suffixLength: Int, suffixFingerprint: String,
        arrayOpenOffset: Int, maxDate: Double, idsAreOwnAnchors: Bool, records: [Record]
    ) {
        self.prefixLength = prefixLength
        self.prefixFingerprint = prefixFingerprint
        self.suffixLength = suffixLength
        self.suffixFingerprint = suffixFingerprint
        self.arrayOpenOffset = arrayOpenOffset
        self.maxDate = maxDate
        self.idsAreOwnAnchors = idsAreOwnAnchors
        self.records = records
    }
}
