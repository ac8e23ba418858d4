import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading

/// The parser's slot-filling path for streamed objects must agree with the tree it replaces:
/// the same values, the same errors at the same places.
@Suite struct StreamedObjectTests {
    static let fields = ["id", "date", "text", "media", "reactions"]

    /// Parses `text` the slot way: the objects' slots (as `[name: value]` of the first members)
    /// and the other elements, or the error.
    func slots(_ text: String) -> Result<[[String: JSONValue]], Diagnostic> {
        var objects: [[String: JSONValue]] = []
        do throws(Diagnostic) {
            _ = try JSONParser.parse(
                Array(text.utf8), file: "t.json", streamingObjectsOf: "messages", fields: Self.fields,
                dateFields: ["date"],
                to: { object, _ in
                    var values: [String: JSONValue] = [:]
                    for (slot, value) in object.values.enumerated() {
                        guard let value else { continue }
                        if let date = object.dates[slot] {
                            values[Self.fields[slot]] = .number(String(date.timeIntervalSince1970))
                        } else if Self.fields[slot] == "date", let text = value.string,
                            let date = ISO8601DateParser.parse(text)
                        {
                            // Not parsed by the scanner (it had escapes): the reader parses the text.
                            values["date"] = .number(String(date.timeIntervalSince1970))
                        } else {
                            values[Self.fields[slot]] = value.jsonValue
                        }
                    }
                    values["@"] = .string("\(object.line):\(object.column)")
                    objects.append(values)
                },
                otherElements: { node, _ in objects.append(["other": node.jsonValue]) })
            return .success(objects)
        } catch {
            return .failure(error)
        }
    }

    /// The same from the tree of `parse(_:file:streamingElementsOf:to:)`.
    func tree(_ text: String) -> Result<[[String: JSONValue]], Diagnostic> {
        var objects: [[String: JSONValue]] = []
        do throws(Diagnostic) {
            _ = try JSONParser.parse(Array(text.utf8), file: "t.json", streamingElementsOf: "messages") { node in
                guard let members = node.members else {
                    objects.append(["other": node.jsonValue])
                    return
                }
                var values: [String: JSONValue] = [:]
                for member in members where Self.fields.contains(member.key) && values[member.key] == nil {
                    if member.key == "date", let text = member.value.string, let date = ISO8601DateParser.parse(text) {
                        values["date"] = .number(String(date.timeIntervalSince1970))
                    } else {
                        values[member.key] = member.value.jsonValue
                    }
                }
                values["@"] = .string("\(node.line):\(node.column)")
                objects.append(values)
            }
            return .success(objects)
        } catch {
            return .failure(error)
        }
    }

    @Test func valuesMatchTheTree() throws {
        let text = #"""
            {"messages": [
              {"id": "m1", "date": "2024-05-03T09:41:00Z", "text": "plain", "extra": {"deep": [1, {"x": null}]}},
              {"\u0069d": "escaped key", "id": "second id is ignored", "date": "2024-05-03T09:41:00.5+02:00"},
              {"date": "not a date", "text": "caf\u00e9 \"quoted\"", "media": {"url": "a.png"}, "reactions": []},
              {"date": "2024-05-03\u005409:41:00Z", "date": "2025-01-01T00:00:00Z"},
              {"text": "ünïcödé text that is longer than eight bytes, with emoji 👍", "date": null},
              {}, 7, "string", [1, 2], null,
              {"reactions": [{"emoji": "👍", "senders": ["a", "b"]}], "id": 12.5e3}
            ]}
            """#
        let fromSlots = try slots(text).get()
        let fromTree = try tree(text).get()
        #expect(fromSlots.count == 11)
        #expect(fromSlots == fromTree)
        #expect(fromSlots[1]["id"] == .string("escaped key"))
        #expect(fromSlots[2]["date"] == .string("not a date"))
        #expect(
            fromSlots[3]["date"]
                == .number(String(ISO8601DateParser.parse("2024-05-03T09:41:00Z")!.timeIntervalSince1970)))
    }

    @Test func byteRangesMatchTheTree() throws {
        let text = #"""
            {"messages": [ {"id": "m1", "text": "a"} ,7,
            {"x": [1, {"y": 2}]},"s" , {}],
             "after": [1]}
            """#
        var fromSlots: [Range<Int>] = []
        let (_, slotOffsets) = try JSONParser.parse(
            Array(text.utf8), file: "t.json", streamingObjectsOf: "messages", fields: Self.fields,
            to: { _, range in fromSlots.append(range) }, otherElements: { _, range in fromSlots.append(range) })
        var fromTree: [Range<Int>] = []
        let (_, treeOffsets) = try JSONParser.parse(
            Array(text.utf8), file: "t.json", streamingElementsOf: "messages",
            withByteRanges: { _, range in fromTree.append(range) })
        #expect(fromSlots.count == 5)
        #expect(fromSlots == fromTree)
        #expect(slotOffsets == treeOffsets)
        let bytes = Array(text.utf8)
        #expect(String(decoding: bytes[fromSlots[0]], as: UTF8.self) == #"{"id": "m1", "text": "a"}"#)
    }

    @Test func errorsMatchTheTree() {
        let broken = [
            #"{"messages": [{"id": "m1",}]}"#,
            #"{"messages": [{"id" "m1"}]}"#,
            #"{"messages": [{id: "m1"}]}"#,
            #"{"messages": [{"id": "m1" "text": "x"}]}"#,
            #"{"messages": [{"id": "m1"}, ]}"#,
            #"{"messages": [{"id": "unterminated}]}"#,
            "{\"messages\": [{\"text\": \"line\nbreak\"}]}",
            "{\"messages\": [{\"te\u{01}xt\": 1}]}",
            #"{"messages": [{"text": "bad \x escape"}]}"#,
            #"{"messages": [{"date": "2024-05-03T09:41:00Z"#,
            #"{"messages": [{"id": tru}]}"#,
            #"{"messages": [{"id": 01}]}"#,
            #"{"messages": [{"#,
            #"{"messages": [{"id": "m1"}"#,
            #"{"messages": [{"a": "\ud800"}]}"#,
            "{\"messages\": [{\"id\": \"m1\"}]} trailing",
        ]
        for text in broken {
            let fromSlots = slots(text)
            let fromTree = tree(text)
            guard case .failure(let slotError) = fromSlots, case .failure(let treeError) = fromTree else {
                Issue.record("expected both to fail: \(text)")
                continue
            }
            #expect(slotError == treeError, "\(text)")
        }
        // Invalid UTF-8 in a key and in a value.
        for bytes in [
            Array(#"{"messages": [{"k"#.utf8) + [0xC3, 0x28] + Array(#"": 1}]}"#.utf8),
            Array(#"{"messages": [{"text": "a"#.utf8) + [0xFF] + Array(#""}]}"#.utf8),
            Array(#"{"messages": [{"date": "2024"#.utf8) + [0xE0, 0x80] + Array(#""}]}"#.utf8),
        ] {
            let text = String(decoding: bytes, as: UTF8.self)
            _ = text
            var slotError: Diagnostic?
            var treeError: Diagnostic?
            do throws(Diagnostic) {
                _ = try JSONParser.parse(
                    bytes, file: "t.json", streamingObjectsOf: "messages", fields: Self.fields,
                    dateFields: ["date"], to: { _, _ in }, otherElements: { _, _ in })
            } catch { slotError = error }
            do throws(Diagnostic) {
                _ = try JSONParser.parse(bytes, file: "t.json", streamingElementsOf: "messages") { _ in }
            } catch { treeError = error }
            #expect(slotError != nil)
            #expect(slotError == treeError)
        }
    }

    @Test func nestingLimitIsCountedFromTheDocument() {
        let depth = JSONParser.maximumDepth
        for extra in [-1, 0, 1] {
            let inner = depth - 3 + extra
            let text =
                #"{"messages": [{"text": "#
                + String(repeating: "[", count: inner) + String(repeating: "]", count: inner) + "}]}"
            let fromSlots = slots(text)
            let fromTree = tree(text)
            switch (fromSlots, fromTree) {
            case (.success, .success): #expect(extra <= 0, "depth \(inner) should fail")
            case (.failure(let left), .failure(let right)): #expect(left == right)
            default: Issue.record("slot and tree paths disagree at nesting \(inner)")
            }
        }
    }

    @Test func kindNamesMatchTheirRawValues() {
        for name in MessageKind.Name.allCases {
            #expect(JSONLogSessionTesting.kindName(name.rawValue) == name)
        }
        for text in ["", "Text", "textt", "emojj", "sistem", "customs", "photo ", "linkpreview", "attributedtext"] {
            #expect(JSONLogSessionTesting.kindName(text) == nil, "\(text)")
        }
    }

    @Test func plainHTTPURLsAreURLsWithAHost() {
        let plain = [
            "https://example.com", "http://example.com/", "https://blog.example.io/the/on-9045",
            "https://a-b.example.org/x_y~z/Q.html", "http://1.2.3.4/a",
        ]
        for url in plain {
            #expect(PlainHTTPURL.isPlain(url), "\(url)")
            #expect(URL(string: url)?.host?.isEmpty == false, "\(url)")
        }
        let other = [
            "https://", "https:///path", "HTTPS://example.com", "https://Example.com", "https://example.com?q=1",
            "https://example.com/a b", "https://user@example.com", "https://example.com:8080/", "ftp://example.com",
            "https://-example.com", "https://example.com/#top", "https://exämple.com",
        ]
        for url in other { #expect(!PlainHTTPURL.isPlain(url), "\(url)") }
    }

    @Test func messagesReadTheFirstOfRepeatedFieldsAndEscapedNames() throws {
        let result = try readLog(
            log(
                messages: #"""
                    {"id": "m1", "sender": "alice", "date": "2024-05-03T09:41:00Z", "text": "first", "text": "second"},
                    {"\u0069d": "m2", "sender": "bob", "d\u0061te": "2024-05-03T09:42:00Z", "kind": "emoji", "text": "👍"},
                    {"id": "m3", "sender": "bob", "date": "2024-05-03T09:43:00\u005a", "edited": "2024-05-03T10:00:00+01:00", "text": "x"}
                    """#))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let messages = try #require(result.conversation?.messages)
        #expect(messages.map(\.id) == ["m1", "m2", "m3"])
        #expect(messages[0].kind == .text("first"))
        #expect(messages[1].kind == .emoji("👍"))
        #expect(messages[2].date == ISO8601DateParser.parse("2024-05-03T09:43:00Z"))
        #expect(messages[2].edited == ISO8601DateParser.parse("2024-05-03T09:00:00Z"))
    }

    @Test func aBadDateIsReportedWithItsText() throws {
        let result = try readLog(
            log(
                messages: #"""
                    {"id": "m1", "sender": "alice", "date": "2024-13-03T09:41:00Z", "text": "x"}
                    """#))
        #expect(result.conversation == nil)
        #expect(result.errors.count == 1)
        #expect(result.errors.first?.description.contains("2024-13-03T09:41:00Z") == true, "\(result.errors)")
    }

    @Test func referenceTrimmingMatchesFoundation() {
        for text in [
            "", " ", "media/a.png", " media/a.png", "media/a.png\n", "\u{00A0}a\u{2028}", "a b", "\t", "é", "👍 ",
        ] {
            #expect(
                MediaResolver.trimmingWhitespace(text) == text.trimmingCharacters(in: .whitespacesAndNewlines),
                "\(text)")
        }
    }
}
