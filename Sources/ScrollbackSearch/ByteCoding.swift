/// Little helpers for the compact binary files of the search index and its cache:
/// unsigned LEB128 varints and length-prefixed UTF-8 strings.
struct ByteWriter {
    var bytes: [UInt8] = []

    @inline(__always)
    mutating func varint(_ value: Int) {
        // Most values the index writes (token numbers' deltas, small counts) take one byte.
        if value >= 0 && value < 0x80 {
            bytes.append(UInt8(value))
            return
        }
        Self.forEachVarintByte(of: UInt64(bitPattern: Int64(value))) { bytes.append($0) }
    }

    /// Hands `body` the bytes of `value` as an unsigned LEB128 varint, in order (for writers
    /// that keep their bytes elsewhere: `PostingLists`).
    @inline(__always)
    static func forEachVarintByte(of value: UInt64, _ body: (UInt8) -> Void) {
        var rest = value
        while rest >= 0x80 {
            body(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        body(UInt8(rest))
    }

    /// How many bytes `varint(value)` writes for a `value` of zero or more.
    static func varintLength(_ value: Int) -> Int {
        var length = 0
        forEachVarintByte(of: UInt64(value)) { _ in length += 1 }
        return length
    }

    /// A signed value, zig-zag encoded (small magnitudes stay short).
    mutating func signed(_ value: Int64) {
        varint(Int((value << 1) ^ (value >> 63)))
    }

    mutating func string(_ value: String) {
        var value = value
        // From the string's own buffer: appending its `utf8` view copies a byte at a time.
        value.withUTF8 { string(utf8: $0) }
    }

    /// A string given as its UTF-8.
    mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        varint(utf8.count)
        bytes.append(contentsOf: utf8)
    }
}

/// Reads what `ByteWriter` wrote; every read fails softly (`nil`) on truncated input.
struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var atEnd: Bool { offset >= bytes.count }

    @inline(__always)
    mutating func varint() -> Int? {
        // Most values take one byte (see `ByteWriter.varint`), most others two (a token number
        // of a large vocabulary).
        if offset < bytes.count {
            let first = bytes[offset]
            if first < 0x80 {
                offset += 1
                return Int(first)
            }
            if offset + 1 < bytes.count, bytes[offset + 1] < 0x80 {
                offset += 2
                return Int(first & 0x7F) | Int(bytes[offset - 1]) << 7
            }
        }
        return longVarint()
    }

    private mutating func longVarint() -> Int? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count, shift < 64 {
            let byte = bytes[offset]
            offset += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return Int(Int64(bitPattern: result)) }
            shift += 7
        }
        return nil
    }

    mutating func signed() -> Int64? {
        guard let raw = varint() else { return nil }
        let value = UInt64(bitPattern: Int64(raw))
        return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    /// Where the next `count` bytes are, moving past them; `nil` when fewer are left (or `count`
    /// is negative).
    mutating func range(count: Int) -> Range<Int>? {
        guard count >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return offset..<(offset + count)
    }

    /// Where the next string's UTF-8 is (`ByteWriter.string`), moving past it.
    mutating func stringRange() -> Range<Int>? {
        guard let count = varint() else { return nil }
        return range(count: count)
    }

    mutating func string() -> String? {
        stringRange().map { String(decoding: bytes[$0], as: UTF8.self) }
    }
}
