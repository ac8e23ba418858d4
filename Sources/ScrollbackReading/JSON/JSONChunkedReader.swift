import Foundation
import ScrollbackModel

/// One step of the path from a document's root to a value: a member name or an element index.
enum JSONPathStep: Hashable, Sendable {
    case key(String)
    case index(Int)
}

/// What `JSONChunkedReader` tells its handler, in document order.
enum JSONChunkEvent {
    /// A container the reader goes into (its members or elements follow as events), at `path`,
    /// starting at `line`:`column`.
    case open(path: [JSONPathStep], isObject: Bool, line: Int, column: Int, key: JSONKeyPlace?)
    /// A value the reader does not go into, parsed whole: a member or an element of a container
    /// it went into (or the root itself).
    case value(path: [JSONPathStep], node: JSONNode, key: JSONKeyPlace?)
    /// The end of a container opened by `.open`.
    case close(path: [JSONPathStep])
}

/// A member's name and where it is written (`nil` for array elements and the root).
struct JSONKeyPlace {
    var name: String
    var line: Int
    var column: Int
}

/// Reads a JSON document from chunks of bytes handed to it one after another (a file read in
/// windows), so a document of hundreds of megabytes is never held in memory whole.
///
/// The reader goes into the containers `descends` names (the top of the document: an export's
/// root object, its `chats.list`, each chat); every other value is cut out and parsed whole by
/// `JSONParser` (a message of `messages`, a chat's `name`): memory holds one such value at a time.
/// Positions, errors and the nesting limit are those of `JSONParser.parse` of the whole document:
/// the values cut out are parsed at their own line and column, and the structure around them
/// (`{`, member names, `:`, `,`, `]`) is checked here with the parser's messages.
struct JSONChunkedReader {
    /// How diagnostics name the file.
    let file: String
    /// Whether the reader goes into the object (`isObject`) or array at `path` instead of
    /// handing it over whole.
    let descends: (_ path: [JSONPathStep], _ isObject: Bool) -> Bool
    /// Gets the events.
    let handler: (JSONChunkEvent) -> Void

    /// The bytes read so far, and the current line and where it starts (for columns).
    private(set) var offset = 0
    private var line = 1
    private var lineStart = 0
    /// The first bytes of the document, held until a byte order mark is ruled in or out.
    private var head: [UInt8] = []
    private var headDone = false

    /// A container the reader went into, and what it expects next.
    private struct Frame {
        var isObject: Bool
        var path: [JSONPathStep]
        var count = 0
        var expects: Expectation
        var key: JSONKeyPlace?
    }

    private enum Expectation {
        case keyOrClose, key, colon, value, valueOrClose, commaOrClose
    }

    private var frames: [Frame] = []
    /// Whether the root value has been read.
    private var rootDone = false

    /// A value (or a member name) being cut out: its bytes so far, where it starts, and the
    /// little state needed to know where it ends.
    private struct Cut {
        var bytes: [UInt8] = []
        var line = 0
        var column = 0
        var depth = 0
        var inString = false
        var escaped = false
        var isScalar = false
        var isKey = false
    }

    private var cut: Cut?
    /// The largest value cut out so far, in bytes (what a reader's memory grows with).
    private(set) var largestValue = 0

    /// A reader of the document `file`.
    init(
        file: String, descends: @escaping ([JSONPathStep], Bool) -> Bool,
        handler: @escaping (JSONChunkEvent) -> Void
    ) {
        self.file = file
        self.descends = descends
        self.handler = handler
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Reads the next chunk of the document.
    mutating func feed(_ chunk: UnsafeRawBufferPointer) throws(Diagnostic) {
        var index = 0
        // A UTF-8 byte order mark is allowed (RFC 8259 §8.1) and ignored, as `JSONParser` does.
        while !headDone, index < chunk.count {
            head.append(chunk[index])
            index += 1
            if head.count == 3 || head != Array(Self.byteOrderMark.prefix(head.count)) {
                try endHead()
            }
        }
        while index < chunk.count {
            if var current = cut {
                cut = nil
                index = try cutBytes(chunk, from: index, into: &current)
                continue
            }
            try structural(chunk[index])
            index += 1
        }
    }

    /// Decides on the held first bytes: a byte order mark is skipped, anything else is read.
    private mutating func endHead() throws(Diagnostic) {
        headDone = true
        if head == Self.byteOrderMark {
            offset = 3
            lineStart = 3
            return
        }
        let held = head
        head = []
        try held.withUnsafeBufferPointer { (bytes) throws(Diagnostic) in try feed(UnsafeRawBufferPointer(bytes)) }
    }

    /// Ends the document: a value or structure left open is the parser's located error.
    mutating func finish() throws(Diagnostic) {
        if !headDone { try endHead() }
        if let current = cut {
            cut = nil
            try complete(current)
        }
        guard rootDone, frames.isEmpty else {
            let expected: String
            switch frames.last?.expects {
            case nil: expected = "a value"
            case .keyOrClose: expected = "'\"' to start a member name or '}'"
            case .key: expected = "'\"' to start a member name"
            case .colon: expected = "':' after member name"
            case .value, .valueOrClose: expected = "a value"
            case .commaOrClose:
                expected = frames.last!.isObject ? "',' or '}' after object member" : "',' or ']' after array element"
            }
            throw failure(expected)
        }
    }

    // MARK: structure

    private func failure(_ expected: String) -> Diagnostic {
        .error(
            .malformedJSON(expected: expected),
            at: SourceLocation(file: file, line: line, column: offset - lineStart + 1))
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// One byte outside any value being cut out.
    private mutating func structural(_ byte: UInt8) throws(Diagnostic) {
        if Self.isWhitespace(byte) {
            advance(byte)
            return
        }
        guard var frame = frames.last else {
            if rootDone { throw failure("end of input after the top-level value") }
            try startValue(byte, path: [], key: nil)
            return
        }
        switch frame.expects {
        case .keyOrClose, .key:
            if byte == UInt8(ascii: "\"") {
                startCut(byte, isKey: true)
                advance(byte)
                return
            }
            if byte == UInt8(ascii: "}") {
                guard frame.expects == .keyOrClose else {
                    throw failure("'\"' to start a member name (trailing commas are not allowed)")
                }
                advance(byte)
                closeFrame()
                return
            }
            throw failure(
                frame.expects == .keyOrClose ? "'\"' to start a member name or '}'" : "'\"' to start a member name")
        case .colon:
            guard byte == UInt8(ascii: ":") else { throw failure("':' after member name") }
            frame.expects = .value
            frames[frames.count - 1] = frame
            advance(byte)
        case .value, .valueOrClose:
            if byte == UInt8(ascii: "]"), !frame.isObject {
                guard frame.expects == .valueOrClose else {
                    throw failure("a value (trailing commas are not allowed)")
                }
                advance(byte)
                closeFrame()
                return
            }
            let step: JSONPathStep = frame.isObject ? .key(frame.key?.name ?? "") : .index(frame.count)
            let key = frame.isObject ? frame.key : nil
            frame.count += 1
            frame.expects = .commaOrClose
            frames[frames.count - 1] = frame
            try startValue(byte, path: frame.path + [step], key: key)
        case .commaOrClose:
            if byte == UInt8(ascii: ",") {
                frames[frames.count - 1].expects = frame.isObject ? .key : .value
                advance(byte)
            } else if byte == UInt8(ascii: frame.isObject ? "}" : "]") {
                advance(byte)
                closeFrame()
            } else {
                throw failure(frame.isObject ? "',' or '}' after object member" : "',' or ']' after array element")
            }
        }
    }

    /// Counts `byte` as read (lines and columns follow it).
    private mutating func advance(_ byte: UInt8) {
        offset += 1
        if byte == 0x0A {
            line += 1
            lineStart = offset
        }
    }

    private mutating func closeFrame() {
        let frame = frames.removeLast()
        if frames.isEmpty { rootDone = true }
        handler(.close(path: frame.path))
    }

    /// The first byte of a value at `path`: go into it, or start cutting it out.
    private mutating func startValue(_ byte: UInt8, path: [JSONPathStep], key: JSONKeyPlace?) throws(Diagnostic) {
        let isObject = byte == UInt8(ascii: "{")
        if isObject || byte == UInt8(ascii: "["), descends(path, isObject) {
            handler(.open(path: path, isObject: isObject, line: line, column: offset - lineStart + 1, key: key))
            frames.append(Frame(isObject: isObject, path: path, expects: isObject ? .keyOrClose : .valueOrClose))
            advance(byte)
            return
        }
        let starts = "\"-0123456789tfn{[".utf8
        guard starts.contains(byte) else { throw failure("a value") }
        startCut(byte, isKey: false)
        advance(byte)
    }

    private mutating func startCut(_ byte: UInt8, isKey: Bool) {
        var current = Cut()
        current.line = line
        current.column = offset - lineStart + 1
        current.isKey = isKey
        current.inString = byte == UInt8(ascii: "\"")
        current.isScalar = byte != UInt8(ascii: "{") && byte != UInt8(ascii: "[")
        current.depth = current.isScalar ? 0 : 1
        current.bytes = [byte]
        cut = current
    }

    // MARK: values cut out

    /// Adds bytes of `chunk` from `start` to the value being cut out, up to its end; returns
    /// where the structure goes on. A finished value is parsed and handed over.
    private mutating func cutBytes(
        _ chunk: UnsafeRawBufferPointer, from start: Int, into current: inout Cut
    ) throws(Diagnostic) -> Int {
        var index = start
        let isBareScalar = current.isScalar && current.bytes.first != UInt8(ascii: "\"")
        while index < chunk.count {
            let byte = chunk[index]
            if isBareScalar {
                // Numbers and literals: letters, digits, sign, point; anything else ends them.
                let isPart =
                    (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                    || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                if !isPart {
                    try complete(current)
                    return index
                }
            } else if current.inString {
                if current.escaped {
                    current.escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    current.escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    current.inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                current.inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                current.depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                current.depth -= 1
            }
            current.bytes.append(byte)
            advance(byte)
            index += 1
            if !isBareScalar, !current.inString, current.depth == 0 {
                try complete(current)
                return index
            }
        }
        cut = current
        return index
    }

    /// Parses a value (or member name) cut out and hands it over.
    private mutating func complete(_ current: Cut) throws(Diagnostic) {
        largestValue = max(largestValue, current.bytes.count)
        let node = try JSONParser.parse(
            fragment: current.bytes, file: file, line: current.line, column: current.column, depth: frames.count)
        if current.isKey {
            guard case .string(let name) = node.value else { throw failure("'\"' to start a member name") }
            frames[frames.count - 1].key = JSONKeyPlace(name: name, line: current.line, column: current.column)
            frames[frames.count - 1].expects = .colon
            return
        }
        guard let frame = frames.last else {
            rootDone = true
            handler(.value(path: [], node: node, key: nil))
            return
        }
        let step: JSONPathStep = frame.isObject ? .key(frame.key?.name ?? "") : .index(frame.count - 1)
        handler(.value(path: frame.path + [step], node: node, key: frame.isObject ? frame.key : nil))
    }
}
