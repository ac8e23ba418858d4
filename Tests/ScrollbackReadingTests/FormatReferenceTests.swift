import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading

/// `docs/log-format.md` shows logs that read as it says: its examples are checked here, so the
/// reference cannot drift from the reader.
@Suite("Format reference examples")
struct FormatReferenceTests {
    static let reference = MarkdownTestSupport.repositoryRoot.appendingPathComponent("docs/log-format.md")

    /// The bodies of the fenced blocks opened with `fence` + `info`, in order.
    static func blocks(fence: String, info: String) throws -> [String] {
        let text = try String(contentsOf: reference, encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == fence + info {
                current = []
            } else if current != nil, line == fence {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test("the whole Markdown log reads without errors, each message the kind the reference names")
    func markdownExample() throws {
        let log = try #require(try Self.blocks(fence: "~~~", info: "markdown").first)
        let result = try MarkdownTestSupport.read(log, name: "weekend-trip.md")
        // Only the example's media file is absent here.
        #expect(result.diagnostics.allSatisfy { $0.severity == .warning && "\($0)".contains("media") })
        let conversation = try #require(result.conversation)
        #expect(conversation.messages.map(\.kind.name) == [.attributedText, .attributedText, .photo, .system, .custom])
    }

    @Test("every message example of the kinds reads, with the kind it shows")
    func jsonKindExamples() throws {
        let examples = try Self.blocks(fence: "```", info: "json").dropFirst(2)  // the smallest log, the common fields
        var messages: [String] = []
        var kinds: [String] = []
        let readsFiles = MessageKind.Name(rawValue: "file") != nil
        // The v1.1 fields and the `file` kind are read by the v1.1 reader (another branch).
        for example in examples
        where !example.contains("\"thread\"") && (readsFiles || !example.contains("\"kind\": \"file\"")) {
            for line in example.split(separator: "\n") where line.hasPrefix("{ \"id\"") {
                let id = line.split(separator: "\"")[3]
                kinds.append(String(id))
            }
            messages.append(example)
        }
        let log = """
            {"participants": [{"id": "alice", "name": "Alice"}, {"id": "bob", "name": "Bob"}],
             "messages": [\(messages.joined(separator: ",\n"))]}
            """
        let result = try readLog(log)
        // Missing media files are warnings; nothing else may be wrong.
        #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty, "\(result.diagnostics)")
        #expect(
            result.diagnostics.allSatisfy { if case .missingMediaFile = $0.problem { true } else { false } },
            "\(result.diagnostics)")
        let read = try #require(result.conversation)
        #expect(read.messages.count == kinds.count)
        #expect(
            read.messages.map(\.kind.name.rawValue) == [
                "text", "attributedText", "attributedText", "emoji", "photo", "video", "audio", "location", "contact",
                "linkPreview", "system", "custom",
            ] + (readsFiles ? ["file"] : []))
    }
}
