import Foundation
import ScrollbackMarkdown
import ScrollbackModel

/// Reads a JSON conversation log (spec §1) with a position-tracking parser, so every error
/// names its line and column.
///
/// Every error in the file is collected (each with its location); any error makes the
/// conversation `nil`, warnings do not. An unknown field is ignored with a warning at its key that
/// names the known field it most likely meant (`replyto` → `replyTo`), once per object type and
/// name in a file; a misspelled `kind` is an error at that key.
struct JSONLogReader {
    let context: ReadingContext

    /// Reads the log at `file`, whose bytes are `data`.
    ///
    /// Messages are converted one by one as the parser meets them (`streamingElementsOf:`), so
    /// the whole file's JSON tree never exists at once; checks that need the participants
    /// (which may come after the messages) run once the file is read.
    ///
    /// With `tracingMessages`, the result also says where each message was written
    /// (`JSONMessageTrace`), for the build cache.
    ///
    /// With `threads` above 1, a large log's later messages are read on another thread
    /// (`readInTwoParts`); the result is the same.
    func read(_ data: [UInt8], file: URL, tracingMessages: Bool = false, threads: Int = 1) -> ReadResult {
        let path = context.displayPath(file)
        var sink = MessageSink(
            session: JSONLogSession(context: context, file: file, path: path), tracing: tracingMessages)
        // A guess: messages are rarely smaller (the benchmark's average 177 bytes). Growing these
        // would copy every message, or hash every id again; room no message fills is address
        // space, not memory.
        let expectedCount = data.count / 128
        sink.session.firstIDPositions.reserveCapacity(expectedCount)
        sink.session.messages.reserveCapacity(expectedCount)
        sink.session.dates.reserveCapacity(expectedCount)
        if tracingMessages { sink.ranges.reserveCapacity(expectedCount) }
        let root: JSONNode
        var arrayOpenOffsets: [Int] = []
        do {
            if threads > 1, data.count >= Self.twoPartMinimumBytes, let cut = Self.laterPartStart(in: data) {
                (root, arrayOpenOffsets) = try readInTwoParts(data, cut: cut, into: &sink)
            } else {
                (root, arrayOpenOffsets) = try Self.parseMessages(data, path: path, into: &sink)
            }
        } catch {
            return ReadResult(conversation: nil, diagnostics: [error])
        }
        var trace: JSONMessageTrace?
        if tracingMessages, arrayOpenOffsets.count == 1, sink.ranges.count == sink.session.dates.count {
            trace = JSONMessageTrace(
                arrayOpenOffset: arrayOpenOffsets[0], elementRanges: sink.ranges,
                sortedPositions: JSONLogSession.sortedPositions(of: sink.session.dates))
        }
        let conversation = sink.session.conversation(from: root)
        let hasError = sink.session.diagnostics.contains { $0.severity == .error }
        // File order, whatever order the checks ran in; equal locations keep their order.
        let ordered = sink.session.diagnostics.enumerated().sorted { left, right in
            left.element.location == right.element.location
                ? left.offset < right.offset : left.element < right.element
        }.map(\.element)
        var result = ReadResult(conversation: hasError ? nil : conversation, diagnostics: ordered)
        if !hasError, trace?.elementRanges.count == conversation?.messages.count { result.messageTrace = trace }
        return result
    }
}

extension JSONLogReader {
    /// The smallest log read in two parts: below it, a second thread costs more than it saves.
    static let twoPartMinimumBytes = 1 << 20
    static let dateFields: Set<String> = ["date", "edited"]

    /// Where a log's later part may start: the first line after the middle of the file that
    /// opens with `{` (after blanks) right after a line ending in `,` (looked for over 1,000
    /// lines): in a log written one message per line, or pretty-printed, that is a message of
    /// `messages`. Only a guess: the parse of the earlier part takes it only if its `,` is one
    /// between two messages.
    static func laterPartStart(in data: [UInt8]) -> (comma: Int, start: Int, lineStart: Int)? {
        let newline = UInt8(ascii: "\n")
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
        var lineStart = data.count / 2
        for _ in 0..<1000 {
            guard let next = data[lineStart...].firstIndex(of: newline) else { return nil }
            lineStart = next + 1
            var start = lineStart
            while start < data.count, isBlank(data[start]) { start += 1 }
            guard start < data.count, data[start] == UInt8(ascii: "{") else { continue }
            var comma = next - 1
            while comma > 0, isBlank(data[comma]) { comma -= 1 }
            if data[comma] == UInt8(ascii: ",") { return (comma, start, lineStart) }
        }
        return nil
    }

    /// Parses a log, handing each element of `messages` to `sink`; with `cut`, see
    /// `JSONParser.parse(_:file:streamingObjectsOf:fields:dateFields:cut:resumingAfterCut:to:otherElements:)`.
    private static func parseMessages(
        _ data: [UInt8], path: String, into sink: inout MessageSink, cut: Int? = nil,
        resumingAfterCut resume: (inout MessageSink) throws(Diagnostic) -> (offset: Int, line: Int, lineStart: Int) = {
            _ in (0, 0, 0)
        }
    ) throws(Diagnostic) -> (root: JSONNode, arrayOpenOffsets: [Int]) {
        try JSONParser.parse(
            data, file: path, streamingObjectsOf: "messages", fields: MessageField.names, dateFields: dateFields,
            cut: cut, resumingAfterCut: { () throws(Diagnostic) in try resume(&sink) },
            to: { sink.take($0, $1) }, otherElements: { sink.take($0, $1) })
    }

    /// Reads a log in two parts: this thread parses the document up to the `,` at `cut.comma`,
    /// and from the end of the `messages` array on, while another parses and converts the
    /// messages after it (with a session of its own, `convertsLaterPart`); its session is merged
    /// in when this one reaches the `,`. When that `,` turns out not to separate two messages,
    /// this thread reads the whole log and the other part is dropped.
    private func readInTwoParts(
        _ data: [UInt8], cut: (comma: Int, start: Int, lineStart: Int), into sink: inout MessageSink
    ) throws(Diagnostic) -> (root: JSONNode, arrayOpenOffsets: [Int]) {
        let path = sink.session.path
        var laterSession = JSONLogSession(context: context, file: sink.session.file, path: path)
        laterSession.convertsLaterPart = true
        let later = LaterPart(sink: MessageSink(session: laterSession, tracing: sink.tracing))
        let done = DispatchSemaphore(value: 0)
        Parallel.start {
            // Lines before the part: counted here, off the other thread's way.
            let line = data.withUnsafeBufferPointer { bytes in
                1 + bytes[..<cut.lineStart].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            }
            later.close = Result { () throws(Diagnostic) in
                try JSONParser.parse(
                    data, file: path, streamedElementsFrom: cut.start, line: line, lineStart: cut.lineStart,
                    fields: MessageField.names, dateFields: Self.dateFields,
                    to: { later.sink.take($0, $1) }, otherElements: { later.sink.take($0, $1) })
            }
            done.signal()
        }
        var merged = false
        let parsed = Result { () throws(Diagnostic) in
            try Self.parseMessages(data, path: path, into: &sink, cut: cut.comma) { (sink) throws(Diagnostic) in
                done.wait()
                merged = true
                sink.session.merge(later.sink.session)
                sink.ranges += later.sink.ranges
                return try later.close!.get()
            }
        }
        // The other thread reads `data` until it signals: wait for it whatever happened here.
        if !merged { done.wait() }
        return try parsed.get()
    }
}

/// Where the parser's streamed elements go: the session converts them, and their byte ranges
/// are kept when the read is traced.
private struct MessageSink {
    var session: JSONLogSession
    let tracing: Bool
    var ranges: [Range<Int>] = []

    init(session: JSONLogSession, tracing: Bool) {
        self.session = session
        self.tracing = tracing
    }

    mutating func take(_ object: JSONStreamedObject, _ range: Range<Int>) {
        if tracing { ranges.append(range) }
        session.collect(MessageFields(object: object))
    }

    mutating func take(_ node: JSONNode, _ range: Range<Int>) {
        if tracing { ranges.append(range) }
        session.collect(node)
    }
}

/// What the thread reading a log's later part makes; read only after it signals.
private final class LaterPart: @unchecked Sendable {
    var sink: MessageSink
    /// Where the `messages` array's `]` is, or the error that stopped the part.
    var close: Result<(offset: Int, line: Int, lineStart: Int), Diagnostic>?
    init(sink: MessageSink) { self.sink = sink }
}

/// Where a JSON log's messages were written: what an incremental build needs to re-read some of
/// them without reading the whole file (`ReadResult.messageTrace`).
public struct JSONMessageTrace: Sendable {
    /// Byte offset of the `messages` array's `[`.
    public var arrayOpenOffset: Int
    /// Each message's byte range `[start, end)`, in file order.
    public var elementRanges: [Range<Int>]
    /// Each message's (file order) position among the date-sorted messages; `nil` when the
    /// file order is already sorted.
    public var sortedPositions: [Int]?
}
