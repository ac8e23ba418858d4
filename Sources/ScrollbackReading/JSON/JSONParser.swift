import Foundation
import ScrollbackModel

/// A strict RFC 8259 JSON parser that remembers where every value and key was written.
///
/// Works on raw bytes (no `String` per character); strings without escapes are built from a
/// byte slice in one step. UTF-8 is validated inside strings as they are scanned, so invalid
/// UTF-8 is reported at its first bad byte. No trailing commas, no comments, no `NaN`.
public enum JSONParser {
    /// Deepest nesting accepted; deeper input is refused instead of overflowing the stack.
    public static let maximumDepth = 128

    /// Parses `bytes` (one JSON text). `file` is the path shown in diagnostics.
    ///
    /// Throws a `Diagnostic` error with `.malformedJSON(expected:)` or `.invalidUTF8`
    /// at the exact line and column (1-based, columns in UTF-8 bytes).
    ///
    /// `firstLine` is the line the bytes start on, for JSON embedded in another file (such as a
    /// `custom` fenced block in a Markdown log): positions and errors then refer to that file.
    public static func parse(_ bytes: [UInt8], file: String, firstLine: Int = 1) throws(Diagnostic) -> JSONNode {
        let result: Result<JSONNode, Diagnostic> = bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer: buffer, file: file)
            scanner.line = firstLine
            do throws(Diagnostic) {
                return .success(try scanner.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses like `parse(_:file:)`, but hands each element of the top-level object's array
    /// member `key` to `body` as soon as it is parsed instead of keeping it; in the returned tree
    /// that member is an empty array. A log's `messages` read this way keep one message's
    /// nodes in memory at a time instead of the whole file's.
    public static func parse(
        _ bytes: [UInt8], file: String, streamingElementsOf key: String, to body: (JSONNode) -> Void
    ) throws(Diagnostic) -> JSONNode {
        let result: Result<JSONNode, Diagnostic> = withoutActuallyEscaping(body) { body in
            bytes.withUnsafeBufferPointer { buffer in
                var scanner = JSONScanner(buffer: buffer, file: file)
                scanner.streamedKey = key
                scanner.streamHandler = body
                do throws(Diagnostic) {
                    return .success(try scanner.parseDocument())
                } catch {
                    return .failure(error)
                }
            }
        }
        return try result.get()
    }

    /// Parses like `parse(_:file:streamingElementsOf:to:)`, and also hands `body` each element's
    /// byte range `[start, end)` in `bytes`; returns the tree and the offsets of the streamed
    /// arrays' `[` (one per array, in file order). The build cache keeps these ranges so an
    /// incremental build can re-read a few old messages without the whole file.
    public static func parse(
        _ bytes: [UInt8], file: String, streamingElementsOf key: String,
        withByteRanges body: (JSONNode, Range<Int>) -> Void
    ) throws(Diagnostic) -> (root: JSONNode, arrayOpenOffsets: [Int]) {
        let result: Result<(JSONNode, [Int]), Diagnostic> = withoutActuallyEscaping(body) { body in
            bytes.withUnsafeBufferPointer { buffer in
                var scanner = JSONScanner(buffer: buffer, file: file)
                scanner.streamedKey = key
                scanner.streamRangeHandler = body
                return documentAndArrayOffsets(&scanner)
            }
        }
        return try result.get()
    }

    /// Parses like `parse(_:file:streamingElementsOf:withByteRanges:)`, but without building a
    /// tree for the streamed elements that are objects: each one's members named in `fields` are
    /// handed to `objectBody` in a reused `JSONStreamedObject` (slot `i` holds the first member
    /// named `fields[i]`; other members are checked and dropped; string members named in
    /// `dateFields` arrive parsed, see `JSONStreamedObject.dates`), with the element's byte range.
    /// Elements that are not objects go to `otherBody`. Errors are exactly those of the other
    /// entry points.
    ///
    /// A log's messages are read this way: no member array, key string or key search per message.
    ///
    /// With `cut`, the streamed array's elements after the `,` at offset `cut` are not parsed
    /// here: the scan asks `resume` where the array's `]` is (offset, line, offset of the line's
    /// first byte), or for the error that stopped the other part, and goes on from there.
    static func parse(
        _ bytes: [UInt8], file: String, streamingObjectsOf key: String, fields: [String], dateFields: Set<String> = [],
        cut: Int? = nil,
        resumingAfterCut resume: () throws(Diagnostic) -> (offset: Int, line: Int, lineStart: Int) = {
            (0, 0, 0)
        },
        to objectBody: (inout JSONStreamedObject, Range<Int>) -> Void,
        otherElements otherBody: (JSONNode, Range<Int>) -> Void
    ) throws(Diagnostic) -> (root: JSONNode, arrayOpenOffsets: [Int]) {
        try withoutActuallyEscaping(resume) { (resume) throws(Diagnostic) in
            try streamingObjects(
                bytes, file: file, fields: fields, dateFields: dateFields, to: objectBody, otherElements: otherBody
            ) {
                $0.streamedKey = key
                if let cut { $0.streamCut = StreamCut(comma: cut, resume: resume) }
            }
        }
    }

    /// Where the scan of a streamed array stops for the part another thread parses: see
    /// `parse(_:file:streamingObjectsOf:fields:dateFields:cut:resumingAfterCut:to:otherElements:)`.
    struct StreamCut {
        var comma: Int
        var resume: () throws(Diagnostic) -> (offset: Int, line: Int, lineStart: Int)
    }

    /// Parses the elements of a document's streamed array from `start` (the first byte of an
    /// element, on line `line`, whose first byte is at `lineStart`) to the array's `]`, handing
    /// them on as `parse(_:file:streamingObjectsOf:...)` would; returns where the `]` is. The
    /// array is the top-level object's member: errors, and nesting limits, are those of a scan
    /// of the whole document.
    static func parse(
        _ bytes: [UInt8], file: String, streamedElementsFrom start: Int, line: Int, lineStart: Int, fields: [String],
        dateFields: Set<String> = [],
        to objectBody: (inout JSONStreamedObject, Range<Int>) -> Void,
        otherElements otherBody: (JSONNode, Range<Int>) -> Void
    ) throws(Diagnostic) -> (offset: Int, line: Int, lineStart: Int) {
        try streamingObjects(
            bytes, file: file, fields: fields, dateFields: dateFields, to: objectBody, otherElements: otherBody,
            where: {
                $0.position = start
                $0.line = line
                $0.lineStart = lineStart
                $0.depthOffset = 1  // the document's object
            },
            scan: { scanner in
                do throws(Diagnostic) {
                    _ = try scanner.parseValue(inStreamedArray: true)
                    return .success((scanner.position - 1, scanner.line, scanner.lineStart))
                } catch {
                    return .failure(error)
                }
            })
    }

    /// Parses like `parse(_:file:streamingObjectsOf:fields:to:otherElements:)`, for a document
    /// that is itself an array (Slack's per-day files): each element that is an object goes to
    /// `objectBody` as slots, every other element to `otherBody`. Members not named in `fields`
    /// are checked (the same errors as anywhere else) and skipped without being built, and are
    /// not listed in `otherKeys`: formats that repeat many fields the reader does not use cost
    /// only a scan for them.
    static func parse(
        _ bytes: [UInt8], file: String, streamingObjectsOfTopLevelArrayWith fields: [String],
        to objectBody: (inout JSONStreamedObject, Range<Int>) -> Void,
        otherElements otherBody: (JSONNode, Range<Int>) -> Void
    ) throws(Diagnostic) -> JSONNode {
        try streamingObjects(
            bytes, file: file, fields: fields, dateFields: [], to: objectBody, otherElements: otherBody
        ) {
            $0.streamsTopLevelArray = true
            $0.skipsOtherMembers = true
        }.0
    }

    /// The scan the object-streaming entry points share; `where` says which array is streamed
    /// (and where the scan starts), `scan` what is scanned: by default the whole document, giving
    /// its root and the offsets of the streamed arrays' `[`.
    private static func streamingObjects<Output>(
        _ bytes: [UInt8], file: String, fields: [String], dateFields: Set<String>,
        to objectBody: (inout JSONStreamedObject, Range<Int>) -> Void,
        otherElements otherBody: (JSONNode, Range<Int>) -> Void, where streamed: (inout JSONScanner) -> Void,
        scan: (inout JSONScanner) -> Result<Output, Diagnostic> = documentAndArrayOffsets
    ) throws(Diagnostic) -> Output {
        let result: Result<Output, Diagnostic> = withoutActuallyEscaping(objectBody) { objectBody in
            withoutActuallyEscaping(otherBody) { otherBody in
                bytes.withUnsafeBufferPointer { buffer in
                    var scanner = JSONScanner(buffer: buffer, file: file)
                    streamed(&scanner)
                    scanner.streamRangeHandler = otherBody
                    scanner.objectHandler = objectBody
                    scanner.fieldTable = JSONFieldTable(fields, dates: dateFields)
                    scanner.streamedObject = JSONStreamedObject(slotCount: fields.count)
                    return scan(&scanner)
                }
            }
        }
        return try result.get()
    }

    /// Runs `scanner` over its document: the root, and the offsets of the streamed arrays' `[`.
    private static func documentAndArrayOffsets(_ scanner: inout JSONScanner) -> Result<(JSONNode, [Int]), Diagnostic> {
        do throws(Diagnostic) {
            let root = try scanner.parseDocument()
            return .success((root, scanner.streamedArrayOpenOffsets))
        } catch {
            return .failure(error)
        }
    }

    /// Parses `bytes`, one value cut out of a larger document (`JSONChunkedReader`): its first byte
    /// is at `line`:`column` of `file`, inside `depth` containers, so positions, errors and the
    /// nesting limit are those of a parse of the whole document.
    static func parse(
        fragment bytes: [UInt8], file: String, line: Int, column: Int, depth: Int
    ) throws(Diagnostic) -> JSONNode {
        let result: Result<JSONNode, Diagnostic> = bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer: buffer, file: file)
            scanner.position = 0
            scanner.line = line
            scanner.lineStart = 1 - column  // column = offset - lineStart + 1
            scanner.depthOffset = depth
            do throws(Diagnostic) {
                return .success(try scanner.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses the UTF-8 of `text`; see `parse(_:file:firstLine:)`.
    public static func parse(_ text: String, file: String, firstLine: Int = 1) throws(Diagnostic) -> JSONNode {
        try parse(Array(text.utf8), file: file, firstLine: firstLine)
    }
}

/// The members of one streamed object that the reader asked for, by slot (see
/// `JSONParser.parse(_:file:streamingObjectsOf:fields:to:otherElements:)`).
struct JSONStreamedObject {
    /// Slot `i`: the value of the first member named `fields[i]`, if any.
    var values: [JSONNode?]
    /// For the slots named in `dateFields`: the date, when the value is a string (without
    /// escapes) that `ISO8601DateParser` accepts. The slot's node then holds an empty string:
    /// the text is only needed to report a bad date, and this saves a `String` per date.
    var dates: [Date?]
    /// 1-based line of the object's `{`.
    var line = 0
    /// 1-based column (in UTF-8 bytes) of the object's `{`.
    var column = 0
    /// Members whose names are not among the slots, with where their keys start: reported as
    /// unknown fields (rare, so a `String` each costs nothing in the common case).
    var otherKeys: [JSONMember] = []
    /// Whether any slot of `dates` is set (most objects have no date slot to empty).
    var holdsDates = false

    init(slotCount: Int) {
        values = Array(repeating: nil, count: slotCount)
        dates = Array(repeating: nil, count: slotCount)
    }

    /// Empties every slot for the next object (keeping the storage).
    mutating func reset(line: Int, column: Int) {
        self.line = line
        self.column = column
        if !otherKeys.isEmpty { otherKeys.removeAll(keepingCapacity: true) }
        values.withUnsafeMutableBufferPointer { slots in
            for index in slots.indices where slots[index] != nil { slots[index] = nil }
        }
        if holdsDates {
            dates.withUnsafeMutableBufferPointer { slots in
                for index in slots.indices { slots[index] = nil }
            }
            holdsDates = false
        }
    }
}

/// The member names a streamed object's slots stand for, matched against a key's raw bytes
/// (no `String` per key) by length first.
struct JSONFieldTable {
    /// Every name's UTF-8, back to back.
    let bytes: [UInt8]
    /// Per slot: where its name starts in `bytes` and how long it is.
    let ranges: [(start: Int, count: Int)]
    let names: [String]
    /// Per slot: whether its string values are dates to parse at once (see `JSONStreamedObject.dates`).
    let isDate: [Bool]

    init(_ names: [String], dates: Set<String>) {
        self.isDate = names.map { dates.contains($0) }
        var bytes: [UInt8] = []
        var ranges: [(start: Int, count: Int)] = []
        for name in names {
            ranges.append((bytes.count, name.utf8.count))
            bytes.append(contentsOf: name.utf8)
        }
        self.bytes = bytes
        self.ranges = ranges
        self.names = names
        var heads = Array(repeating: -1, count: Self.bucketCount)
        var next = Array(repeating: -1, count: names.count)
        for (slot, name) in names.enumerated().reversed() {
            let utf8 = Array(name.utf8)
            guard let first = utf8.first, let last = utf8.last else { continue }
            let bucket = Self.bucket(count: utf8.count, first: first, last: last)
            next[slot] = heads[bucket]
            heads[bucket] = slot
        }
        self.bucketHeads = heads
        self.prefixes = names.map { name in
            Array(name.utf8).withUnsafeBufferPointer { Self.prefix(of: $0) }
        }
        self.nextInBucket = next
    }

    /// Per slot: the first eight bytes of its name, packed (`prefix(of:)`).
    private let prefixes: [UInt64]

    /// Up to the first eight bytes of `bytes`, little-endian, zero-padded.
    @inline(__always)
    private static func prefix(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var packed: UInt64 = 0
        for index in 0..<min(bytes.count, 8) { packed |= UInt64(bytes[index]) << (8 * UInt64(index)) }
        return packed
    }

    /// By `bucket(count:first:last:)`: the first slot whose name falls there, or -1.
    private let bucketHeads: [Int]
    /// By slot: the next slot in the same bucket, or -1.
    private let nextInBucket: [Int]

    private static let bucketCount = 256

    @inline(__always)
    private static func bucket(count: Int, first: UInt8, last: UInt8) -> Int {
        (count &* 31 &+ Int(first) &* 7 &+ Int(last)) & (bucketCount - 1)
    }

    /// The slot of the key whose bytes are `key`, if it is one of the names.
    func slot(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = key.first, let last = key.last else { return names.firstIndex(of: "") }
        var slot = bucketHeads[Self.bucket(count: key.count, first: first, last: last)]
        guard slot >= 0 else { return nil }
        let keyPrefix = Self.prefix(of: key)
        while slot >= 0 {
            let range = ranges[slot]
            if range.count == key.count, prefixes[slot] == keyPrefix {
                if range.count <= 8 { return slot }
                let matches = bytes.withUnsafeBufferPointer { table in
                    var index = 8
                    while index < range.count, table[range.start + index] == key[index] { index += 1 }
                    return index == range.count
                }
                if matches { return slot }
            }
            slot = nextInBucket[slot]
        }
        return nil
    }

    /// The slot of a key that had escapes, decoded.
    func slot(of key: String) -> Int? { names.firstIndex(of: key) }
}
