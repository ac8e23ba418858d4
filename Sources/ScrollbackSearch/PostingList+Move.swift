import Foundation
import ScrollbackModel

/// Posting lists moved and extended for an append, copied where nothing in them moves.
extension PostingList {
    /// Reads the posting list at `reader` and returns it with every document `n` moved to
    /// `n + (the number of insertion points <= n)` (`insertion` ascending) and the documents
    /// `adding` (new numbers, ascending) merged in, encoded as `encode` would: `.some(nil)`
    /// when nothing changed, `nil` when the bytes are not a posting list. With nothing to add, a
    /// delta list keeps its bytes but for the deltas that cross an insertion point, so a long list
    /// is copied, not decoded.
    static func move(_ reader: inout ByteReader, insertion: [Int], adding: [Int32] = []) -> [UInt8]?? {
        let start = reader.offset
        guard let count = reader.varint(), count > 0, let rawMode = reader.varint(), let mode = Mode(rawValue: rawMode)
        else { return nil }
        func decodedAgain() -> [UInt8]?? {
            reader.offset = start
            guard let documents = decode(&reader) else { return nil }
            var moved: [Int32] = []
            moved.reserveCapacity(documents.count + adding.count)
            var passed = 0
            var nextAdded = 0
            for document in documents {
                while passed < insertion.count, insertion[passed] <= document { passed += 1 }
                let number = Int32(document + passed)
                while nextAdded < adding.count, adding[nextAdded] < number {
                    moved.append(adding[nextAdded])
                    nextAdded += 1
                }
                moved.append(number)
            }
            moved += adding[nextAdded...]
            guard passed > 0 || !adding.isEmpty else { return .some(nil) }
            return .some(encoded(moved))
        }
        if !adding.isEmpty {
            if let appended = appendedAfterLast(&reader, count: count, mode: mode, insertion: insertion, adding: adding)
            {
                return .some(appended)
            }
            return decodedAgain()
        }
        /// The number of insertion points at or before `document`.
        func passed(_ document: Int) -> Int { insertion.countNotAfter(document) }
        if mode == .bitmap {
            guard let first = reader.varint(), let length = reader.varint(), length > 0,
                reader.offset + length <= reader.bytes.count, reader.bytes[reader.offset + length - 1] != 0
            else { return nil }
            let bitmap = reader.offset..<(reader.offset + length)
            reader.offset = bitmap.upperBound
            let last = first + (length - 1) * 8 + 7 - reader.bytes[bitmap.upperBound - 1].leadingZeroBitCount
            guard passed(last) > 0 else { return .some(nil) }
            let movedFirst = first + passed(first)
            let movedLast = last + passed(last)
            let movedLength = Self.bitmapLength(first: movedFirst, last: movedLast)
            // Every delta takes a byte at least: when the bitmap is smaller than that, it stays a
            // bitmap (`encode`'s choice); else work it out on the documents.
            guard Self.prefersBitmap(first: movedFirst, last: movedLast, deltaBytes: count) else {
                return decodedAgain()
            }
            var moved = [UInt8](repeating: 0, count: movedLength)
            // Runs of documents between insertion points move by the same number of bits.
            var runStart = first
            var shift = movedFirst - first
            var nextPoint = passed(first)
            while runStart <= last {
                let runEnd = nextPoint < insertion.count ? min(insertion[nextPoint], last + 1) : last + 1
                Self.copyBits(
                    reader.bytes, from: (runStart - first)..<(runEnd - first), bitmapStart: bitmap.lowerBound,
                    to: &moved, at: runStart + shift - movedFirst)
                runStart = runEnd
                while nextPoint < insertion.count, insertion[nextPoint] <= runStart {
                    nextPoint += 1
                    shift += 1
                }
            }
            var writer = ByteWriter()
            writer.varint(count)
            writer.varint(Mode.bitmap.rawValue)
            writer.varint(movedFirst)
            writer.varint(movedLength)
            writer.bytes += moved
            return .some(writer.bytes)
        }
        guard mode == .deltas, let length = reader.varint(), length >= 0, reader.offset + length <= reader.bytes.count
        else { return nil }
        let payload = reader.offset..<(reader.offset + length)
        reader.offset = payload.upperBound
        // One pass over the deltas: the ones that cross an insertion point, and the first and last
        // documents.
        var document = 0
        var passedPoints = 0
        var nextPoint = insertion.first ?? .max
        var first = -1  // moved
        var changedDeltas: [(range: Range<Int>, delta: Int)] = []
        let complete: Bool = reader.bytes.withUnsafeBufferPointer { bytes in
            var offset = payload.lowerBound
            let end = payload.upperBound
            while offset < end {
                let deltaStart = offset
                var delta = 0
                var shift = 0
                while true {
                    guard offset < end, shift < 63 else { return false }
                    let byte = bytes[offset]
                    offset += 1
                    delta |= Int(byte & 0x7F) << shift
                    if byte < 0x80 { break }
                    shift += 7
                }
                document += delta
                if document >= nextPoint {
                    let previousPassed = passedPoints
                    while passedPoints < insertion.count, insertion[passedPoints] <= document { passedPoints += 1 }
                    nextPoint = passedPoints < insertion.count ? insertion[passedPoints] : .max
                    changedDeltas.append((deltaStart..<offset, delta + passedPoints - previousPassed))
                }
                if first < 0 { first = document + passedPoints }
            }
            return true
        }
        guard complete else { return nil }
        guard !changedDeltas.isEmpty else { return .some(nil) }
        var deltas = ByteWriter()
        deltas.bytes.reserveCapacity(length + 8)
        var copied = payload.lowerBound
        for change in changedDeltas {
            deltas.bytes += reader.bytes[copied..<change.range.lowerBound]
            deltas.varint(change.delta)
            copied = change.range.upperBound
        }
        deltas.bytes += reader.bytes[copied..<payload.upperBound]
        // The same choice as `encode`: a bitmap when smaller.
        guard !Self.prefersBitmap(first: first, last: document + passedPoints, deltaBytes: deltas.bytes.count)
        else { return decodedAgain() }
        var writer = ByteWriter()
        writer.varint(count)
        writer.varint(Mode.deltas.rawValue)
        writer.varint(deltas.bytes.count)
        writer.bytes += deltas.bytes
        return .some(writer.bytes)
    }

    /// The posting list of `count` documents in `mode` whose payload is at `reader` (its count
    /// and mode read) with `adding` after its last document, when no insertion point comes at or
    /// before that document (an append to the newest messages): the list's bytes are kept and
    /// the new documents written after them, so a long list costs one pass over its bytes, not
    /// its decoding and encoding. `nil` when that does not hold, or when `encode` would
    /// choose the other mode for the longer list; else `reader` is moved past the list.
    private static func appendedAfterLast(
        _ reader: inout ByteReader, count: Int, mode: Mode, insertion: [Int], adding: [Int32]
    ) -> [UInt8]? {
        // The list's first and last documents, and the bytes its deltas take (`encode`
        // compares them with the bitmap's).
        var (first, last, deltaBytes, seen) = (0, 0, 0, 0)
        let kept: Range<Int>
        if mode == .deltas {
            guard let length = reader.varint(), length > 0, let payload = reader.range(count: length) else {
                return nil
            }
            var payloadReader = ByteReader(reader.bytes)
            payloadReader.offset = payload.lowerBound
            while payloadReader.offset < payload.upperBound {
                guard let delta = payloadReader.varint() else { return nil }
                last += delta
                if seen == 0 { first = last }
                seen += 1
            }
            guard payloadReader.offset == payload.upperBound else { return nil }
            (deltaBytes, kept) = (length, payload)
        } else {
            guard mode == .bitmap, let bitmapFirst = reader.varint(), let length = reader.varint(), length > 0,
                let bitmap = reader.range(count: length), reader.bytes[bitmap.upperBound - 1] != 0
            else { return nil }
            first = bitmapFirst
            for index in bitmap {
                var byte = reader.bytes[index]
                while byte != 0 {
                    let document = first + (index - bitmap.lowerBound) * 8 + byte.trailingZeroBitCount
                    deltaBytes += ByteWriter.varintLength(document - last)
                    last = document
                    seen += 1
                    byte &= byte - 1
                }
            }
            kept = bitmap
        }
        guard seen == count, Int(adding[0]) > last, insertion.countNotAfter(last) == 0 else { return nil }
        var newLast = last
        for document in adding {
            deltaBytes += ByteWriter.varintLength(Int(document) - newLast)
            newLast = Int(document)
        }
        // `encode`'s choice for the longer list: the same mode, or the slow path.
        guard Self.prefersBitmap(first: first, last: newLast, deltaBytes: deltaBytes) == (mode == .bitmap) else {
            return nil
        }
        var writer = ByteWriter()
        writer.varint(count + adding.count)
        writer.varint(mode.rawValue)
        if mode == .deltas {
            writer.varint(deltaBytes)
            writer.bytes += reader.bytes[kept]
            var previous = last
            for document in adding {
                writer.varint(Int(document) - previous)
                previous = Int(document)
            }
        } else {
            let bitmapLength = Self.bitmapLength(first: first, last: newLast)
            writer.varint(first)
            writer.varint(bitmapLength)
            let bitmapStart = writer.bytes.count
            writer.bytes += reader.bytes[kept]
            writer.bytes += repeatElement(0, count: bitmapLength - kept.count)
            for document in adding {
                let offset = Int(document) - first
                writer.bytes[bitmapStart + offset >> 3] |= 1 << UInt8(offset & 7)
            }
        }
        return writer.bytes
    }

    /// ORs bits `bits` of the bitmap at `bitmapStart` in `source` into `destination`, the first at
    /// bit `offset`.
    private static func copyBits(
        _ source: [UInt8], from bits: Range<Int>, bitmapStart: Int, to destination: inout [UInt8], at offset: Int
    ) {
        guard !bits.isEmpty else { return }
        let distance = offset - bits.lowerBound
        for byteIndex in (bits.lowerBound >> 3)...((bits.upperBound - 1) >> 3) {
            var value = source[bitmapStart + byteIndex]
            let low = byteIndex * 8
            if bits.lowerBound > low { value &= 0xFF << UInt8(bits.lowerBound - low) }
            if bits.upperBound < low + 8 { value &= 0xFF >> UInt8(low + 8 - bits.upperBound) }
            guard value != 0 else { continue }
            let target = low + distance
            let (index, bit) = (target >> 3, target & 7)
            destination[index] |= value << UInt8(bit)
            if bit > 0, value >> UInt8(8 - bit) != 0 { destination[index + 1] |= value >> UInt8(8 - bit) }
        }
    }
}
