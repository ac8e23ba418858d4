import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading

@Suite struct JSONParserTests {
    func parse(_ text: String) throws(Diagnostic) -> JSONNode {
        try JSONParser.parse(text, file: "t.json")
    }

    func failure(_ text: String) -> Diagnostic? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    func failure(bytes: [UInt8]) -> Diagnostic? {
        do {
            _ = try JSONParser.parse(bytes, file: "t.json")
            return nil
        } catch {
            return error
        }
    }

    @Test func valuesCarryLineAndByteColumn() throws {
        let root = try parse("{\n  \"a\": [1, true],\n  \"é\": \"x\",\n\t\"b\": null\n}")
        #expect(root.line == 1 && root.column == 1)
        let members = try #require(root.members)
        #expect(members.map(\.key) == ["a", "é", "b"])
        #expect(members[0].keyLine == 2 && members[0].keyColumn == 3)
        let array = try #require(members[0].value.elements)
        #expect(array[0].line == 2 && array[0].column == 9)
        #expect(array[1].line == 2 && array[1].column == 12)
        // "é" is two UTF-8 bytes, so its value starts at byte column 9, not 8.
        #expect(members[1].value.line == 3 && members[1].value.column == 9)
        #expect(members[2].keyColumn == 2)  // after a tab
        #expect(root["b"].map { if case .null = $0.value { true } else { false } } == true)
    }

    @Test func stringEscapesAndSurrogatePairs() throws {
        let node = try parse(#""a\"b\\c\/d\b\f\n\r\t\u00e9\u4e2d\ud83d\ude00 é""#)
        #expect(node.string == "a\"b\\c/d\u{8}\u{c}\n\r\té中😀 é")
    }

    @Test func loneSurrogatesAreErrors() {
        let high = failure(#"["\ud83d x"]"#)
        #expect(
            high?.problem == .malformedJSON(expected: "a '\\uDC00'-'\\uDFFF' low surrogate after the high surrogate"))
        #expect(high?.location?.column == 9)
        let low = failure(#"["\ude00"]"#)
        #expect(low?.location?.column == 3)
        if case .malformedJSON(let expected)? = low?.problem {
            #expect(expected.contains("high surrogate"))
        } else {
            Issue.record("expected malformedJSON, got \(String(describing: low))")
        }
    }

    @Test func numbersKeepTheirText() throws {
        let node = try parse("[0, -1.50, 2e10, 3E-2, 12345678901234567890]")
        let texts = try #require(node.elements).compactMap { node -> String? in
            if case .number(let text) = node.value { return text }
            return nil
        }
        #expect(texts == ["0", "-1.50", "2e10", "3E-2", "12345678901234567890"])
    }

    @Test(arguments: [
        ("[01]", 1, 3, "'.', 'e' or the end of the number (no leading zeros)"),
        ("[1.]", 1, 4, "a digit after the decimal point"),
        ("[-]", 1, 3, "a digit after '-'"),
        ("[1e]", 1, 4, "a digit in the exponent"),
    ])
    func badNumbers(text: String, line: Int, column: Int, expected: String) {
        let error = failure(text)
        #expect(error?.problem == .malformedJSON(expected: expected))
        #expect(error?.location == SourceLocation(file: "t.json", line: line, column: column))
    }

    @Test func missingCommaBetweenMembers() {
        let error = failure("{\"a\": 1\n  \"b\": 2}")
        #expect(error?.problem == .malformedJSON(expected: "',' or '}' after object member"))
        #expect(error?.location == SourceLocation(file: "t.json", line: 2, column: 3))
    }

    @Test func trailingCommasAreRefused() {
        let inObject = failure("{\"a\": 1,\n}")
        #expect(inObject?.location?.line == 2)
        #expect(inObject?.location?.column == 1)
        let inArray = failure("[1, 2,]")
        #expect(inArray?.location?.column == 7)
    }

    @Test func commentsAreRefused() {
        let error = failure("{ // note\n}")
        #expect(error?.location?.column == 3)
        #expect(error?.problem == .malformedJSON(expected: "'\"' to start a member name or '}'"))
    }

    @Test func missingValue() {
        let error = failure("{\"a\": }")
        #expect(error?.problem == .malformedJSON(expected: "a value"))
        #expect(error?.location?.column == 7)
        #expect(failure("")?.problem == .malformedJSON(expected: "a value"))
        #expect(failure("[tru]")?.location?.column == 2)
    }

    @Test func unterminatedStringAtEndOfInput() {
        let error = failure("[\"abc")
        #expect(error?.location?.column == 2)
        if case .malformedJSON(let expected)? = error?.problem {
            #expect(expected.contains("unterminated string"))
        } else {
            Issue.record("expected malformedJSON")
        }
    }

    @Test func rawLineBreakInString() {
        let error = failure("{\"a\": \"abc\n\"}")
        #expect(error?.location == SourceLocation(file: "t.json", line: 1, column: 11))
    }

    @Test func trailingContent() {
        let error = failure("{} {}")
        #expect(error?.problem == .malformedJSON(expected: "end of input after the top-level value"))
        #expect(error?.location?.column == 4)
    }

    @Test func invalidUTF8IsLocatedAtTheFirstBadByte() {
        // Inside a string, after a valid two-byte character.
        let inString = failure(bytes: Array("[\n \"é".utf8) + [0xC3, 0x28] + Array("\"]".utf8))
        #expect(inString?.problem == .invalidUTF8)
        #expect(inString?.location == SourceLocation(file: "t.json", line: 2, column: 5))
        // Overlong encoding and encoded surrogates are malformed too.
        #expect(failure(bytes: [0x22, 0xC0, 0xAF, 0x22])?.problem == .invalidUTF8)
        #expect(failure(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22])?.problem == .invalidUTF8)
        // Outside a string.
        let outside = failure(bytes: [0x5B, 0xFF, 0x5D])
        #expect(outside?.problem == .invalidUTF8)
        #expect(outside?.location?.column == 2)
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let node = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8), file: "t.json")
        #expect(node.elements?.count == 1)
        #expect(node.column == 1)
    }

    @Test func deepNestingIsRefusedNotCrashing() {
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let error = failure(text)
        #expect(error?.location?.column == JSONParser.maximumDepth + 1)
    }

    @Test func convertsToJSONValueKeepingOrder() throws {
        let node = try parse(#"{"z": [1, "two", null], "a": {"t": true}}"#)
        let value = node.jsonValue
        #expect(
            value
                == .object([
                    (key: "z", value: .array([.number("1"), .string("two"), .null])),
                    (key: "a", value: .object([(key: "t", value: .bool(true))])),
                ]))
    }

    @Test func crlfLineEndsCountOnce() throws {
        let root = try parse("{\r\n\"a\":\r\n  5}")
        #expect(root["a"]?.line == 3)
        #expect(root["a"]?.column == 3)
    }

    @Test func streamingHandsOutTopLevelArrayElementsInOrder() throws {
        var seen: [(String, Int, Int)] = []
        let root = try JSONParser.parse(
            Array(#"{"a": [9], "messages": [{"id": "1"},\#n {"id": "2"}], "nested": {"messages": [3]}}"#.utf8),
            file: "t.json", streamingElementsOf: "messages"
        ) { node in
            seen.append((node["id"]?.string ?? "?", node.line, node.column))
        }
        #expect(seen.map(\.0) == ["1", "2"])
        #expect(seen.map(\.1) == [1, 2])
        #expect(seen.map(\.2) == [25, 2])
        #expect(root["messages"]?.elements?.isEmpty == true)
        #expect(root["messages"]?.column == 24)
        #expect(root["a"]?.elements?.count == 1)
        // Only the top-level member streams.
        #expect(root["nested"]?["messages"]?.elements?.count == 1)
    }

    @Test func streamingStillReportsSyntaxErrors() {
        var count = 0
        #expect(throws: Diagnostic.self) {
            _ = try JSONParser.parse(
                Array(#"{"messages": [1, 2 3]}"#.utf8), file: "t.json", streamingElementsOf: "messages"
            ) { _ in
                count += 1
            }
        }
        #expect(count == 2)
    }

    @Test func embeddedJSONCountsLinesFromItsFirstLine() {
        let error = failure(text: "{\"question\": \"Dinner?\",\n \"options\": [1,]}", firstLine: 12)
        #expect(error?.location == SourceLocation(file: "t.json", line: 13, column: 16))
    }

    func failure(text: String, firstLine: Int) -> Diagnostic? {
        do {
            _ = try JSONParser.parse(text, file: "t.json", firstLine: firstLine)
            return nil
        } catch {
            return error
        }
    }

    @Test func maximumNestingFitsOnASmallThreadStack() async {
        // Worker threads (Dispatch, Swift concurrency) have 512 KiB stacks on Linux; the deepest
        // accepted document must parse there, in debug builds too.
        let depth = JSONParser.maximumDepth
        let text = String(repeating: "{\"a\":[", count: depth / 2) + "1" + String(repeating: "]}", count: depth / 2)
        let parsed = await withCheckedContinuation { continuation in
            let thread = Thread {
                let node = try? JSONParser.parse(text, file: "t.json")
                // The conversion to the model recurses: it must fit too.
                let value = node?.jsonValue
                continuation.resume(returning: value != nil && value == node?.jsonValue)
            }
            thread.stackSize = 512 << 10
            thread.start()
        }
        #expect(parsed)
    }
}
