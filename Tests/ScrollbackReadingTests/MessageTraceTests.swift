import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading

/// The byte ranges the parser reports for streamed elements, and the reader's `JSONMessageTrace`
/// built on them (the incremental build's append checkpoint relies on both).
@Suite struct MessageTraceTests {
    @Test("each streamed element's range is exactly its text; the array's [ is found")
    func elementRanges() throws {
        let text = #"{"a": [1], "messages" : [ {"id": "x"} ,"two",[3, {"b": 4}]  ,null], "z": {}}"#
        let bytes = Array(text.utf8)
        var ranges: [Range<Int>] = []
        let (_, opens) = try JSONParser.parse(bytes, file: "t.json", streamingElementsOf: "messages") { _, range in
            ranges.append(range)
        }
        let pieces = ranges.map { String(decoding: bytes[$0], as: UTF8.self) }
        #expect(pieces == [#"{"id": "x"}"#, #""two""#, #"[3, {"b": 4}]"#, "null"])
        #expect(opens.count == 1 && bytes[opens[0]] == UInt8(ascii: "["))
        #expect(String(decoding: bytes[..<opens[0]], as: UTF8.self) == #"{"a": [1], "messages" : "#)
    }

    @Test("the reader's trace gives file-order ranges and each message's date-sorted position")
    func readerTrace() throws {
        let text = log(
            messages: """
                {"id": "late", "sender": "alice", "date": "2024-05-03T10:00:00Z", "text": "b"},
                {"id": "early", "sender": "alice", "date": "2024-05-03T09:00:00Z", "text": "a"},
                {"id": "tie", "sender": "alice", "date": "2024-05-03T10:00:00Z", "text": "c"}
                """)
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try write(text, to: "log.json", in: folder)
        let bytes = Array(text.utf8)
        let result = LogReader(inputRoot: folder, config: SiteConfig()).read(
            contents: bytes, of: file, tracingMessages: true)
        let trace = try #require(result.messageTrace)
        #expect(result.conversation?.messages.map(\.id) == ["early", "late", "tie"])
        #expect(trace.sortedPositions == [1, 0, 2])
        #expect(
            trace.elementRanges.map { String(decoding: bytes[$0], as: UTF8.self).contains(#""id": "early""#) } == [
                false, true, false,
            ])
        #expect(bytes[trace.arrayOpenOffset] == UInt8(ascii: "["))
        // Without asking, or with an error, there is no trace.
        #expect(LogReader(inputRoot: folder, config: SiteConfig()).read(contents: bytes, of: file).messageTrace == nil)
    }
}
