import Foundation
import ScrollbackModel

/// A JSON value with the place it was written: what the readers need to point errors at
/// the exact line and column of a bad field.
public struct JSONNode: Sendable {
    /// The value and, for arrays and objects, its children.
    public enum Value: Sendable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// The number's text exactly as written (RFC 8259 grammar already checked).
        case number(String)
        /// A string, unescaped.
        case string(String)
        /// Elements in source order.
        case array([JSONNode])
        /// Members in source order; a repeated key keeps every occurrence.
        case object([JSONMember])
    }

    /// The value.
    public var value: Value
    // 32-bit positions keep a node at 32 bytes: a 1M-message log has millions of nodes.
    private var storedLine: UInt32
    private var storedColumn: UInt32

    /// Creates a node at `line`:`column`.
    public init(_ value: Value, line: Int, column: Int) {
        self.value = value
        self.storedLine = UInt32(clamping: line)
        self.storedColumn = UInt32(clamping: column)
    }

    /// 1-based line of the value's first byte.
    public var line: Int { Int(storedLine) }
    /// 1-based column (in UTF-8 bytes) of the value's first byte.
    public var column: Int { Int(storedColumn) }

    /// Where the value starts in `file`.
    public func location(in file: String) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column)
    }

    /// The value of the first member named `key`, if this is an object that has one.
    public subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        for member in members where member.key == key { return member.value }
        return nil
    }

    /// The members, if this is an object.
    public var members: [JSONMember]? {
        if case .object(let members) = value { return members }
        return nil
    }

    /// The elements, if this is an array.
    public var elements: [JSONNode]? {
        if case .array(let elements) = value { return elements }
        return nil
    }

    /// The string, if this is a string.
    public var string: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    /// The boolean, if this is `true` or `false`.
    public var bool: Bool? {
        if case .bool(let flag) = value { return flag }
        return nil
    }

    /// The number as a `Double`, if this is a number.
    public var number: Double? {
        if case .number(let text) = value { return Double(text) }
        return nil
    }

    /// The number when it is finite and within `range`, else `nil`. For importers: an export is
    /// untrusted, and a value such as `1e300` must not reach an `Int` conversion (which traps).
    public func number(in range: ClosedRange<Double>) -> Double? {
        guard let value = number, value.isFinite, range.contains(value) else { return nil }
        return value
    }

    /// What kind of JSON value this is, for "expected a string, got an array" messages.
    public var typeName: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The same value without positions, as the model keeps custom data.
    public var jsonValue: JSONValue {
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let text): return .number(text)
        case .string(let text): return .string(text)
        case .array(let elements): return .array(elements.map(\.jsonValue))
        case .object(let members): return .object(members.map { (key: $0.key, value: $0.value.jsonValue) })
        }
    }
}

/// One `"key": value` member of a JSON object.
public struct JSONMember: Sendable {
    /// The key, unescaped.
    public var key: String
    /// The value.
    public var value: JSONNode
    private var storedKeyLine: UInt32
    private var storedKeyColumn: UInt32

    /// Creates a member whose key starts at `keyLine`:`keyColumn`.
    public init(key: String, value: JSONNode, keyLine: Int, keyColumn: Int) {
        self.key = key
        self.value = value
        self.storedKeyLine = UInt32(clamping: keyLine)
        self.storedKeyColumn = UInt32(clamping: keyColumn)
    }

    /// 1-based line of the key's opening quote.
    public var keyLine: Int { Int(storedKeyLine) }
    /// 1-based column of the key's opening quote.
    public var keyColumn: Int { Int(storedKeyColumn) }

    /// Where the key starts in `file`.
    public func keyLocation(in file: String) -> SourceLocation {
        SourceLocation(file: file, line: keyLine, column: keyColumn)
    }
}

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
private struct JSONFieldTable {
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

// ASCII bytes the scanner compares against.
private enum Byte {
    static let quote: UInt8 = 0x22, backslash: UInt8 = 0x5C, slash: UInt8 = 0x2F
    static let openBrace: UInt8 = 0x7B, closeBrace: UInt8 = 0x7D
    static let openBracket: UInt8 = 0x5B, closeBracket: UInt8 = 0x5D
    static let comma: UInt8 = 0x2C, colon: UInt8 = 0x3A
    static let space: UInt8 = 0x20, tab: UInt8 = 0x09, newline: UInt8 = 0x0A, carriageReturn: UInt8 = 0x0D
    static let minus: UInt8 = 0x2D, plus: UInt8 = 0x2B, dot: UInt8 = 0x2E
    static let zero: UInt8 = 0x30, nine: UInt8 = 0x39
    static let lowerE: UInt8 = 0x65, upperE: UInt8 = 0x45
}

/// The cursor over the bytes; lives only for one `parse` call.
private struct JSONScanner {
    let base: UnsafePointer<UInt8>
    let end: Int
    let file: String
    var position = 0
    var line = 1
    /// Offset of the first byte of the current line; column = position - lineStart + 1.
    var lineStart = 0
    /// Reused for strings with escapes.
    var scratch: [UInt8] = []
    /// Children of the arrays and objects being parsed, innermost last. Each container copies
    /// its own children out into an exactly sized array: no growth slack kept in the tree.
    var elementStack: [JSONNode] = []
    var memberStack: [JSONMember] = []
    /// The top-level member whose array elements go to `streamHandler` instead of the tree.
    var streamedKey: String?
    var streamHandler: ((JSONNode) -> Void)?
    /// Like `streamHandler`, also given the element's byte range.
    var streamRangeHandler: ((JSONNode, Range<Int>) -> Void)?
    /// Where the streamed element being parsed starts, and where each streamed array's `[` is.
    var streamedElementStart = 0
    var streamedArrayOpenOffsets: [Int] = []
    /// When set, streamed elements that are objects go here as slots instead (see `fieldTable`).
    var objectHandler: ((inout JSONStreamedObject, Range<Int>) -> Void)?
    /// The names `objectHandler` slots stand for (not optional: unwrapping would copy it per key).
    var fieldTable = JSONFieldTable([], dates: [])
    /// Reused for every streamed object.
    var streamedObject = JSONStreamedObject(slotCount: 0)
    /// The document's own array is the streamed one (instead of the top-level object's `streamedKey` member).
    var streamsTopLevelArray = false
    /// Streamed objects' members outside `fieldTable` are skipped (`skipValue`), not kept in `otherKeys`.
    var skipsOtherMembers = false
    /// The containers `skipValue` is inside, innermost last (`true` for objects); reused.
    var skipStack: [Bool] = []
    /// Containers around the scanned text that it does not open itself (a part of a streamed
    /// array parsed on its own sits inside the document's object and the array).
    var depthOffset = 0
    /// Where the streamed array's elements from a `,` on were parsed apart (`JSONParser.StreamCut`).
    var streamCut: JSONParser.StreamCut?

    init(buffer: UnsafeBufferPointer<UInt8>, file: String) {
        // An empty buffer may have no base address; point at a dummy byte we never read.
        self.base = buffer.baseAddress.map { UnsafePointer($0) } ?? UnsafePointer(bitPattern: 1)!
        self.end = buffer.count
        self.file = file
        // A UTF-8 byte order mark is allowed (RFC 8259 §8.1) and ignored.
        if end >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF {
            position = 3
            lineStart = 3
        }
    }

    // MARK: errors

    func location(at offset: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: offset - lineStart + 1)
    }

    func failure(_ expected: String, at offset: Int) -> Diagnostic {
        .error(.malformedJSON(expected: expected), at: location(at: offset))
    }

    /// The error for an unexpected byte: invalid UTF-8 if it starts a bad sequence, else `expected`.
    func unexpected(_ expected: String, at offset: Int) -> Diagnostic {
        if offset < end, base[offset] >= 0x80, utf8SequenceLength(at: offset) == nil {
            return .error(.invalidUTF8, at: location(at: offset))
        }
        return failure(expected, at: offset)
    }

    // MARK: structure

    mutating func parseDocument() throws(Diagnostic) -> JSONNode {
        skipWhitespace()
        let node = try parseValue()
        skipWhitespace()
        if position < end { throw unexpected("end of input after the top-level value", at: position) }
        return node
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while position < end {
            let byte = base[position]
            if byte == Byte.space || byte == Byte.tab || byte == Byte.carriageReturn {
                position += 1
            } else if byte == Byte.newline {
                position += 1
                line += 1
                lineStart = position
                // Indentation, eight spaces at a time (exports are pretty-printed).
                while position + 8 <= end,
                    UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self) == 0x2020_2020_2020_2020
                {
                    position += 8
                }
            } else {
                return
            }
        }
    }

    /// An array or object whose children are being parsed.
    ///
    /// The parser keeps these on an explicit stack instead of recursing, so the depth of a
    /// document costs heap, not thread stack: worker threads have small stacks, and a log is
    /// untrusted input.
    struct OpenContainer {
        /// Where the container starts.
        var line: Int
        var column: Int
        /// Index of its first child in `elementStack` (arrays) or `memberStack` (objects).
        var firstChild: Int
        var isObject: Bool
        /// Arrays: hand elements to `streamHandler` instead of keeping them.
        var streams = false
        /// Objects: the key whose value is being parsed, and where it was written.
        var key = ""
        var keyLine = 0
        var keyColumn = 0
    }

    /// Parses one value (of any depth) starting at `position`, which is not whitespace.
    /// `baseDepth`: how many containers enclose it (for the depth limit); only the document's
    /// value (depth 0) can hold the streamed array.
    ///
    /// With `inStreamedArray`, `position` is at an element of the streamed array, whose `[` is
    /// before the scanned text: parses the elements from there to the array's `]`.
    mutating func parseValue(baseDepth: Int = 0, inStreamedArray: Bool = false) throws(Diagnostic) -> JSONNode {
        var open: [OpenContainer] = []
        if inStreamedArray {
            var array = OpenContainer(line: line, column: position - lineStart + 1, firstChild: 0, isObject: false)
            array.streams = true
            open.append(array)
            streamedElementStart = position
        }
        // Set when a streamed object went to `objectHandler` instead of becoming `completed`.
        var handedOff = false
        while true {
            // Start a value: a scalar is complete at once; a non-empty container opens.
            guard position < end else { throw failure("a value", at: position) }
            let line = self.line
            let column = position - lineStart + 1
            var completed: JSONNode
            switch base[position] {
            case Byte.quote: completed = JSONNode(.string(try parseString()), line: line, column: column)
            case Byte.minus, Byte.zero...Byte.nine:
                completed = JSONNode(.number(try parseNumber()), line: line, column: column)
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                completed = JSONNode(.bool(true), line: line, column: column)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                completed = JSONNode(.bool(false), line: line, column: column)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                completed = JSONNode(.null, line: line, column: column)
            case Byte.openBrace:
                if objectHandler != nil, baseDepth == 0, open.last?.streams == true {
                    try parseStreamedObject(depth: open.count)
                    handedOff = true
                    completed = JSONNode(.null, line: line, column: column)
                    break
                }
                try enterContainer(baseDepth + open.count)
                position += 1
                skipWhitespace()
                if position < end, base[position] == Byte.closeBrace {
                    position += 1
                    completed = JSONNode(.object([]), line: line, column: column)
                } else {
                    var container = OpenContainer(
                        line: line, column: column, firstChild: memberStack.count, isObject: true)
                    try parseMemberName(into: &container, isFirst: true)
                    open.append(container)
                    continue
                }
            case Byte.openBracket:
                try enterContainer(baseDepth + open.count)
                let bracket = position
                position += 1
                skipWhitespace()
                if position < end, base[position] == Byte.closeBracket {
                    position += 1
                    completed = JSONNode(.array([]), line: line, column: column)
                } else {
                    var container = OpenContainer(
                        line: line, column: column, firstChild: elementStack.count, isObject: false)
                    // The top-level object's streamed member.
                    if streamHandler != nil || streamRangeHandler != nil, baseDepth == 0,
                        streamsTopLevelArray
                            ? open.isEmpty : open.count == 1 && open[0].isObject && open[0].key == streamedKey
                    {
                        container.streams = true
                        streamedArrayOpenOffsets.append(bracket)
                        streamedElementStart = position
                    }
                    open.append(container)
                    continue
                }
            default:
                throw unexpected("a value", at: position)
            }

            // Hand the completed value to its container; close containers that end here.
            // (Containers are accessed in place: copying one out costs more than the parse.)
            while true {
                let top = open.count - 1
                guard top >= 0 else { return completed }
                let completedEnd = position
                skipWhitespace()
                if open[top].isObject {
                    memberStack.append(
                        JSONMember(
                            key: open[top].key, value: completed, keyLine: open[top].keyLine,
                            keyColumn: open[top].keyColumn))
                    if try anotherMemberFollows() {
                        try parseMemberName(into: &open[top], isFirst: false)
                        break
                    }
                    let first = open[top].firstChild
                    let members = Array(memberStack[first...])
                    memberStack.removeLast(memberStack.count - first)  // cheaper than removeSubrange
                    completed = JSONNode(.object(members), line: open[top].line, column: open[top].column)
                    open.removeLast()
                } else {
                    if open[top].streams, handedOff {
                        handedOff = false  // `objectHandler` has had it
                    } else if open[top].streams, let streamHandler {
                        streamHandler(completed)
                    } else if open[top].streams, let streamRangeHandler {
                        streamRangeHandler(completed, streamedElementStart..<completedEnd)
                    } else {
                        elementStack.append(completed)
                    }
                    guard position < end else { throw failure("',' or ']' after array element", at: position) }
                    var byte = base[position]
                    if byte == Byte.comma, open[top].streams, let cut = streamCut, position == cut.comma {
                        // The elements after this `,` were parsed apart: go on at the array's `]`.
                        let close = try cut.resume()
                        position = close.offset
                        self.line = close.line
                        lineStart = close.lineStart
                        byte = Byte.closeBracket
                    }
                    if byte == Byte.comma {
                        position += 1
                        skipWhitespace()
                        if position < end, base[position] == Byte.closeBracket {
                            throw failure("a value (trailing commas are not allowed)", at: position)
                        }
                        if open[top].streams { streamedElementStart = position }
                        break
                    } else if byte == Byte.closeBracket {
                        position += 1
                        let first = open[top].firstChild
                        let elements = Array(elementStack[first...])
                        elementStack.removeLast(elementStack.count - first)  // cheaper than removeSubrange
                        completed = JSONNode(.array(elements), line: open[top].line, column: open[top].column)
                        open.removeLast()
                    } else {
                        throw unexpected("',' or ']' after array element", at: position)
                    }
                }
            }
        }
    }

    /// Parses a streamed object (at its `{`, inside `depth` containers) into `streamedObject`'s
    /// slots and hands it to `objectHandler`; the same checks and errors as the general path.
    mutating func parseStreamedObject(depth: Int) throws(Diagnostic) {
        try enterContainer(depth)
        streamedObject.reset(line: line, column: position - lineStart + 1)
        position += 1
        skipWhitespace()
        if position < end, base[position] == Byte.closeBrace {
            position += 1
            objectHandler!(&streamedObject, streamedElementStart..<position)
            return
        }
        var isFirst = true
        while true {
            guard position < end, base[position] == Byte.quote else {
                throw unexpected(
                    isFirst ? "'\"' to start a member name or '}'" : "'\"' to start a member name", at: position)
            }
            let keyStart = position
            let keyLine = line
            let slot = try parseFieldName()
            if slot == nil, !skipsOtherMembers {
                // The name again, for the diagnostic (escapes, if any, as written).
                let name = String(
                    decoding: UnsafeBufferPointer(start: base + keyStart + 1, count: position - keyStart - 2),
                    as: UTF8.self)
                streamedObject.otherKeys.append(
                    JSONMember(
                        key: name, value: JSONNode(.null, line: keyLine, column: keyStart - lineStart + 1),
                        keyLine: keyLine, keyColumn: keyStart - lineStart + 1))
            }
            skipWhitespace()
            guard position < end, base[position] == Byte.colon else {
                throw unexpected("':' after member name", at: position)
            }
            position += 1
            skipWhitespace()
            if slot == nil, skipsOtherMembers {
                try skipValue(baseDepth: depth + 1)
            } else if position < end, base[position] == Byte.quote {
                let line = self.line
                let column = position - lineStart + 1
                if let slot, fieldTable.isDate[slot], streamedObject.values[slot] == nil,
                    let date = try parseDateString()
                {
                    streamedObject.values[slot] = JSONNode(.string(""), line: line, column: column)
                    streamedObject.dates[slot] = date
                    streamedObject.holdsDates = true
                } else {
                    let value = JSONNode(.string(try parseString()), line: line, column: column)
                    if let slot, streamedObject.values[slot] == nil { streamedObject.values[slot] = value }
                }
            } else {
                let value = try parseValue(baseDepth: depth + 1)
                if let slot, streamedObject.values[slot] == nil { streamedObject.values[slot] = value }
            }
            skipWhitespace()
            guard try anotherMemberFollows() else {
                objectHandler!(&streamedObject, streamedElementStart..<position)
                return
            }
            isFirst = false
        }
    }

    /// Checks one value (of any depth, at `position`) exactly as `parseValue(baseDepth:)` does —
    /// the same errors at the same places — without building it.
    mutating func skipValue(baseDepth: Int) throws(Diagnostic) {
        skipStack.removeAll(keepingCapacity: true)
        while true {
            // Start a value: a scalar is done at once; a non-empty container opens.
            guard position < end else { throw failure("a value", at: position) }
            switch base[position] {
            case Byte.quote: try skipString()
            case Byte.minus, Byte.zero...Byte.nine: _ = try parseNumber()
            case UInt8(ascii: "t"): try expectLiteral("true")
            case UInt8(ascii: "f"): try expectLiteral("false")
            case UInt8(ascii: "n"): try expectLiteral("null")
            case Byte.openBrace:
                try enterContainer(baseDepth + skipStack.count)
                position += 1
                skipWhitespace()
                if position < end, base[position] == Byte.closeBrace {
                    position += 1
                } else {
                    try skipMemberName(isFirst: true)
                    skipStack.append(true)
                    continue
                }
            case Byte.openBracket:
                try enterContainer(baseDepth + skipStack.count)
                position += 1
                skipWhitespace()
                if position < end, base[position] == Byte.closeBracket {
                    position += 1
                } else {
                    skipStack.append(false)
                    continue
                }
            default:
                throw unexpected("a value", at: position)
            }
            // After a value: the next member or element, or close containers that end here.
            while true {
                guard let isObject = skipStack.last else { return }
                skipWhitespace()
                if isObject {
                    if try anotherMemberFollows() {
                        try skipMemberName(isFirst: false)
                        break
                    }
                    skipStack.removeLast()
                } else {
                    guard position < end else { throw failure("',' or ']' after array element", at: position) }
                    let byte = base[position]
                    if byte == Byte.comma {
                        position += 1
                        skipWhitespace()
                        if position < end, base[position] == Byte.closeBracket {
                            throw failure("a value (trailing commas are not allowed)", at: position)
                        }
                        break
                    } else if byte == Byte.closeBracket {
                        position += 1
                        skipStack.removeLast()
                    } else {
                        throw unexpected("',' or ']' after array element", at: position)
                    }
                }
            }
        }
    }

    /// Checks a string (at its opening quote) as `parseString` does, without making it.
    mutating func skipString() throws(Diagnostic) {
        let open = position
        position += 1
        let contentStart = position
        if try scanToQuoteOrEscape(open: open) {
            position += 1
        } else {
            _ = try parseEscapedString(open: open, contentStart: contentStart)
        }
    }

    /// Checks `"name"` and `:` of an object member as `parseMemberName` does, leaving `position` at the value.
    mutating func skipMemberName(isFirst: Bool) throws(Diagnostic) {
        guard position < end, base[position] == Byte.quote else {
            throw unexpected(
                isFirst ? "'\"' to start a member name or '}'" : "'\"' to start a member name", at: position)
        }
        try skipString()
        skipWhitespace()
        guard position < end, base[position] == Byte.colon else {
            throw unexpected("':' after member name", at: position)
        }
        position += 1
        skipWhitespace()
    }

    /// Parses a string (at its opening quote) as a date without making a `String`: the date if
    /// the string has no escapes and is one; otherwise `nil`, with `position` left at the quote.
    mutating func parseDateString() throws(Diagnostic) -> Date? {
        let contentStart = position + 1
        var cursor = contentStart
        // Dates are short ASCII; anything else takes the general path.
        while cursor < end, cursor - contentStart < 64 {
            let byte = base[cursor]
            if byte == Byte.quote {
                guard
                    let date = ISO8601DateParser.parse(
                        bytes: UnsafeBufferPointer(start: base + contentStart, count: cursor - contentStart))
                else {
                    return nil
                }
                position = cursor + 1
                return date
            }
            if byte < 0x20 || byte >= 0x80 || byte == Byte.backslash { return nil }
            cursor += 1
        }
        return nil
    }

    /// After an object member (at `position`, after whitespace): `true` at `,` (leaving `position`
    /// at the next member's name), `false` at `}` (leaving it after the brace); anything else,
    /// or a trailing comma, is an error.
    mutating func anotherMemberFollows() throws(Diagnostic) -> Bool {
        guard position < end else { throw failure("',' or '}' after object member", at: position) }
        let byte = base[position]
        if byte == Byte.comma {
            position += 1
            skipWhitespace()
            if position < end, base[position] == Byte.closeBrace {
                throw failure("'\"' to start a member name (trailing commas are not allowed)", at: position)
            }
            return true
        } else if byte == Byte.closeBrace {
            position += 1
            return false
        }
        throw unexpected("',' or '}' after object member", at: position)
    }

    /// Parses a member name (at its opening quote) of a streamed object; the slot it names, if any.
    mutating func parseFieldName() throws(Diagnostic) -> Int? {
        let open = position
        position += 1
        let contentStart = position
        guard try scanToQuoteOrEscape(open: open) else {
            return fieldTable.slot(of: try parseEscapedString(open: open, contentStart: contentStart))
        }
        let slot = fieldTable.slot(of: UnsafeBufferPointer(start: base + contentStart, count: position - contentStart))
        position += 1
        return slot
    }

    /// Parses `"name"` and `:` of an object member (at `position`, after whitespace) into `container`,
    /// leaving `position` at the member's value.
    mutating func parseMemberName(into container: inout OpenContainer, isFirst: Bool) throws(Diagnostic) {
        guard position < end, base[position] == Byte.quote else {
            throw unexpected(
                isFirst ? "'\"' to start a member name or '}'" : "'\"' to start a member name", at: position)
        }
        container.keyLine = line
        container.keyColumn = position - lineStart + 1
        container.key = try parseString()
        skipWhitespace()
        guard position < end, base[position] == Byte.colon else {
            throw unexpected("':' after member name", at: position)
        }
        position += 1
        skipWhitespace()
    }

    mutating func expectLiteral(_ literal: StaticString) throws(Diagnostic) {
        let count = literal.utf8CodeUnitCount
        let text = literal.utf8Start
        for index in 0..<count {
            guard position + index < end, base[position + index] == text[index] else {
                throw unexpected("a value (did you mean '\(literal)'?)", at: position)
            }
        }
        position += count
    }

    /// Refuses to open a container below `openCount` others once that reaches the maximum depth.
    func enterContainer(_ openCount: Int) throws(Diagnostic) {
        if openCount + depthOffset >= JSONParser.maximumDepth {
            throw failure("nesting at most \(JSONParser.maximumDepth) levels deep", at: position)
        }
    }

    // MARK: numbers

    mutating func parseNumber() throws(Diagnostic) -> String {
        let start = position
        if base[position] == Byte.minus { position += 1 }
        guard position < end, isDigit(base[position]) else {
            throw unexpected("a digit after '-'", at: position)
        }
        if base[position] == Byte.zero {
            position += 1
            if position < end, isDigit(base[position]) {
                throw failure("'.', 'e' or the end of the number (no leading zeros)", at: position)
            }
        } else {
            while position < end, isDigit(base[position]) { position += 1 }
        }
        if position < end, base[position] == Byte.dot {
            position += 1
            guard position < end, isDigit(base[position]) else {
                throw unexpected("a digit after the decimal point", at: position)
            }
            while position < end, isDigit(base[position]) { position += 1 }
        }
        if position < end, base[position] == Byte.lowerE || base[position] == Byte.upperE {
            position += 1
            if position < end, base[position] == Byte.plus || base[position] == Byte.minus { position += 1 }
            guard position < end, isDigit(base[position]) else {
                throw unexpected("a digit in the exponent", at: position)
            }
            while position < end, isDigit(base[position]) { position += 1 }
        }
        return String(decoding: UnsafeBufferPointer(start: base + start, count: position - start), as: UTF8.self)
    }

    @inline(__always)
    func isDigit(_ byte: UInt8) -> Bool { byte &- Byte.zero < 10 }

    // MARK: strings

    /// Parses a string starting at its opening quote; leaves `position` after the closing quote.
    mutating func parseString() throws(Diagnostic) -> String {
        let open = position
        position += 1
        let contentStart = position
        guard try scanToQuoteOrEscape(open: open) else {
            return try parseEscapedString(open: open, contentStart: contentStart)
        }
        let text = String(
            decoding: UnsafeBufferPointer(start: base + contentStart, count: position - contentStart), as: UTF8.self)
        position += 1
        return text
    }

    /// Moves `position` (inside the string opened at `open`) to its closing quote (`true`) or to
    /// its first backslash (`false`, the caller decodes escapes from there), checking the bytes
    /// passed: no raw control character, well-formed UTF-8, a closing quote before the end.
    @inline(__always)
    mutating func scanToQuoteOrEscape(open: Int) throws(Diagnostic) -> Bool {
        while position < end {
            // Eight plain bytes (no quote, backslash, control or non-ASCII byte) at a time.
            while position + 8 <= end,
                !mayNeedAttention(UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            {
                position += 8
            }
            guard position < end else { break }
            let byte = base[position]
            if byte == Byte.quote {
                return true
            } else if byte == Byte.backslash {
                return false
            } else if byte < 0x20 {
                throw controlCharacter(at: position, open: open)
            } else if byte < 0x80 {
                position += 1
            } else {
                guard let length = utf8SequenceLength(at: position) else {
                    throw Diagnostic.error(.invalidUTF8, at: location(at: position))
                }
                position += length
            }
        }
        throw failure(
            "'\"' to end the string that starts at \(location(at: open).line):\(location(at: open).column) (unterminated string)",
            at: open)
    }

    /// Whether any of the eight bytes in `word` is a quote, a backslash, a control character or
    /// not ASCII. (May also say so for a plain byte next to such a byte: the caller then goes
    /// byte by byte, so that only costs time.)
    @inline(__always)
    func mayNeedAttention(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highBits }
        let quotes = hasZeroByte(word ^ (ones &* UInt64(Byte.quote)))
        let backslashes = hasZeroByte(word ^ (ones &* UInt64(Byte.backslash)))
        let controls = (word &- ones &* 0x20) & ~word & highBits
        return (quotes | backslashes | controls | (word & highBits)) != 0
    }

    func controlCharacter(at offset: Int, open: Int) -> Diagnostic {
        if base[offset] == Byte.newline {
            return failure(
                "'\"' before the end of the line (unterminated string; write a line break as \\n)", at: offset)
        }
        return failure(
            "'\"' or an escape such as \\t or \\u0000 instead of a raw control character in a string", at: offset)
    }

    /// The slow path, from the first backslash: decodes escapes into `scratch`.
    mutating func parseEscapedString(open: Int, contentStart: Int) throws(Diagnostic) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + contentStart, count: position - contentStart))
        while position < end {
            let byte = base[position]
            if byte == Byte.quote {
                position += 1
                return String(decoding: scratch, as: UTF8.self)
            } else if byte == Byte.backslash {
                try parseEscape()
            } else if byte < 0x20 {
                throw controlCharacter(at: position, open: open)
            } else if byte < 0x80 {
                scratch.append(byte)
                position += 1
            } else {
                guard let length = utf8SequenceLength(at: position) else {
                    throw Diagnostic.error(.invalidUTF8, at: location(at: position))
                }
                scratch.append(contentsOf: UnsafeBufferPointer(start: base + position, count: length))
                position += length
            }
        }
        throw failure(
            "'\"' to end the string that starts at \(location(at: open).line):\(location(at: open).column) (unterminated string)",
            at: open)
    }

    mutating func parseEscape() throws(Diagnostic) {
        let escapeStart = position
        position += 1
        guard position < end else { throw failure("an escape character after '\\'", at: position) }
        let byte = base[position]
        position += 1
        switch byte {
        case Byte.quote: scratch.append(Byte.quote)
        case Byte.backslash: scratch.append(Byte.backslash)
        case Byte.slash: scratch.append(Byte.slash)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(Byte.newline)
        case UInt8(ascii: "r"): scratch.append(Byte.carriageReturn)
        case UInt8(ascii: "t"): scratch.append(Byte.tab)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4(escapeStart: escapeStart)
            if scalar >= 0xD800 && scalar <= 0xDBFF {
                // A high surrogate must be followed by an escaped low surrogate.
                guard position + 1 < end, base[position] == Byte.backslash, base[position + 1] == UInt8(ascii: "u")
                else {
                    throw failure("a '\\uDC00'-'\\uDFFF' low surrogate after the high surrogate", at: position)
                }
                let lowStart = position
                position += 2
                let low = try parseHex4(escapeStart: lowStart)
                guard low >= 0xDC00 && low <= 0xDFFF else {
                    throw failure("a '\\uDC00'-'\\uDFFF' low surrogate after the high surrogate", at: lowStart)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                throw failure("a high surrogate '\\uD800'-'\\uDBFF' before a low surrogate", at: escapeStart)
            }
            appendUTF8(scalar)
        default:
            throw unexpected("one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX after '\\'", at: position - 1)
        }
    }

    mutating func parseHex4(escapeStart: Int) throws(Diagnostic) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < end else { throw failure("four hex digits after '\\u'", at: position) }
            let byte = base[position]
            let digit: UInt8
            switch byte {
            case Byte.zero...Byte.nine: digit = byte - Byte.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw unexpected("four hex digits after '\\u'", at: position)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// The length of the well-formed UTF-8 sequence starting at `offset` (a byte ≥ 0x80),
    /// or `nil` if it is malformed (Unicode Table 3-7: no overlongs, no surrogates, ≤ U+10FFFF).
    func utf8SequenceLength(at offset: Int) -> Int? {
        let first = base[offset]
        func continuation(_ index: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            offset + index < end && range.contains(base[offset + index])
        }
        switch first {
        case 0xC2...0xDF:
            return continuation(1) ? 2 : nil
        case 0xE0:
            return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : nil
        case 0xE1...0xEC, 0xEE...0xEF:
            return continuation(1) && continuation(2) ? 3 : nil
        case 0xED:
            return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : nil
        case 0xF0:
            return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : nil
        case 0xF1...0xF3:
            return continuation(1) && continuation(2) && continuation(3) ? 4 : nil
        case 0xF4:
            return continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : nil
        default:
            return nil
        }
    }
}
