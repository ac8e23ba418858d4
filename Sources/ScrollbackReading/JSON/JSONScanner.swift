import Foundation
import ScrollbackModel

// ASCII bytes the scanner compares against.
enum JSONByte {
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
struct JSONScanner {
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
            if byte == JSONByte.space || byte == JSONByte.tab || byte == JSONByte.carriageReturn {
                position += 1
            } else if byte == JSONByte.newline {
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
            case JSONByte.quote: completed = JSONNode(.string(try parseString()), line: line, column: column)
            case JSONByte.minus, JSONByte.zero...JSONByte.nine:
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
            case JSONByte.openBrace:
                if objectHandler != nil, baseDepth == 0, open.last?.streams == true {
                    try parseStreamedObject(depth: open.count)
                    handedOff = true
                    completed = JSONNode(.null, line: line, column: column)
                    break
                }
                try enterContainer(baseDepth + open.count)
                position += 1
                skipWhitespace()
                if position < end, base[position] == JSONByte.closeBrace {
                    position += 1
                    completed = JSONNode(.object([]), line: line, column: column)
                } else {
                    var container = OpenContainer(
                        line: line, column: column, firstChild: memberStack.count, isObject: true)
                    try parseMemberName(into: &container, isFirst: true)
                    open.append(container)
                    continue
                }
            case JSONByte.openBracket:
                try enterContainer(baseDepth + open.count)
                let bracket = position
                position += 1
                skipWhitespace()
                if position < end, base[position] == JSONByte.closeBracket {
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
                    if byte == JSONByte.comma, open[top].streams, let cut = streamCut, position == cut.comma {
                        // The elements after this `,` were parsed apart: go on at the array's `]`.
                        let close = try cut.resume()
                        position = close.offset
                        self.line = close.line
                        lineStart = close.lineStart
                        byte = JSONByte.closeBracket
                    }
                    if byte == JSONByte.comma {
                        position += 1
                        skipWhitespace()
                        if position < end, base[position] == JSONByte.closeBracket {
                            throw failure("a value (trailing commas are not allowed)", at: position)
                        }
                        if open[top].streams { streamedElementStart = position }
                        break
                    } else if byte == JSONByte.closeBracket {
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
        if position < end, base[position] == JSONByte.closeBrace {
            position += 1
            objectHandler!(&streamedObject, streamedElementStart..<position)
            return
        }
        var isFirst = true
        while true {
            guard position < end, base[position] == JSONByte.quote else {
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
            guard position < end, base[position] == JSONByte.colon else {
                throw unexpected("':' after member name", at: position)
            }
            position += 1
            skipWhitespace()
            if slot == nil, skipsOtherMembers {
                try skipValue(baseDepth: depth + 1)
            } else if position < end, base[position] == JSONByte.quote {
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
            case JSONByte.quote: try skipString()
            case JSONByte.minus, JSONByte.zero...JSONByte.nine: _ = try parseNumber()
            case UInt8(ascii: "t"): try expectLiteral("true")
            case UInt8(ascii: "f"): try expectLiteral("false")
            case UInt8(ascii: "n"): try expectLiteral("null")
            case JSONByte.openBrace:
                try enterContainer(baseDepth + skipStack.count)
                position += 1
                skipWhitespace()
                if position < end, base[position] == JSONByte.closeBrace {
                    position += 1
                } else {
                    try skipMemberName(isFirst: true)
                    skipStack.append(true)
                    continue
                }
            case JSONByte.openBracket:
                try enterContainer(baseDepth + skipStack.count)
                position += 1
                skipWhitespace()
                if position < end, base[position] == JSONByte.closeBracket {
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
                    if byte == JSONByte.comma {
                        position += 1
                        skipWhitespace()
                        if position < end, base[position] == JSONByte.closeBracket {
                            throw failure("a value (trailing commas are not allowed)", at: position)
                        }
                        break
                    } else if byte == JSONByte.closeBracket {
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
        guard position < end, base[position] == JSONByte.quote else {
            throw unexpected(
                isFirst ? "'\"' to start a member name or '}'" : "'\"' to start a member name", at: position)
        }
        try skipString()
        skipWhitespace()
        guard position < end, base[position] == JSONByte.colon else {
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
            if byte == JSONByte.quote {
                guard
                    let date = ISO8601DateParser.parse(
                        bytes: UnsafeBufferPointer(start: base + contentStart, count: cursor - contentStart))
                else {
                    return nil
                }
                position = cursor + 1
                return date
            }
            if byte < 0x20 || byte >= 0x80 || byte == JSONByte.backslash { return nil }
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
        if byte == JSONByte.comma {
            position += 1
            skipWhitespace()
            if position < end, base[position] == JSONByte.closeBrace {
                throw failure("'\"' to start a member name (trailing commas are not allowed)", at: position)
            }
            return true
        } else if byte == JSONByte.closeBrace {
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
        guard position < end, base[position] == JSONByte.quote else {
            throw unexpected(
                isFirst ? "'\"' to start a member name or '}'" : "'\"' to start a member name", at: position)
        }
        container.keyLine = line
        container.keyColumn = position - lineStart + 1
        container.key = try parseString()
        skipWhitespace()
        guard position < end, base[position] == JSONByte.colon else {
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
}
