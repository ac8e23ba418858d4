import Foundation
import ScrollbackModel
import ScrollbackTestSupport
import Testing

@testable import ScrollbackReading

/// The streaming Telegram reader (issue 40, point 3): it reads `result.json` in bounded windows
/// and gives exactly what reading the file as one tree gives, whatever the window.
@Suite struct TelegramStreamTests {
    /// What a read gives, in a form two reads can be compared by.
    struct Outcome: Equatable {
        var conversations: [Conversation?]
        var ledgers: [ImportLedger]
        var keys: [String]
        var diagnostics: [[String]]
        var fileDiagnostics: [String]
    }

    /// Reads `file` as one tree (`chunkSize` nil) or streamed in windows of `chunkSize` bytes.
    static func read(_ file: URL, root: URL, chunkSize: Int?) -> Outcome {
        let context = ImportContext(root: root, config: SiteConfig())
        var conversations: [ImportedConversation] = []
        var fileDiagnostics: [Diagnostic] = []
        if let chunkSize {
            TelegramStreamReader(context: context, file: file, shown: context.displayPath(file), chunkSize: chunkSize)
                .read(report: { fileDiagnostics.append($0) }, emit: { conversations.append($0) })
        } else {
            fileDiagnostics = TelegramImporter.readTree(
                DetectedExport(format: .telegram, items: [file], root: root), context: context,
                emit: { conversations.append($0) })
        }
        return Outcome(
            conversations: conversations.map(\.conversation), ledgers: conversations.map(\.ledger),
            keys: conversations.map(\.key), diagnostics: conversations.map { $0.diagnostics.map(\.description) },
            fileDiagnostics: fileDiagnostics.map(\.description))
    }

    /// Checks that every window size gives the tree reader's outcome for `text`.
    static func expectSameAsTree(_ text: String, chunkSizes: [Int] = [1, 2, 3, 7, 64, 1 << 20]) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try write(text, to: "result.json", in: folder)
        let tree = read(file, root: folder, chunkSize: nil)
        for chunkSize in chunkSizes {
            let streamed = read(file, root: folder, chunkSize: chunkSize)
            #expect(
                streamed == tree, "window \(chunkSize) bytes: \(streamed.fileDiagnostics) vs \(tree.fileDiagnostics)")
        }
    }

    @Test("every shared Telegram sample reads the same streamed as from one tree")
    func everySharedSampleReadsTheSame() throws {
        let folder = try SharedSamples.folder().appendingPathComponent("telegram")
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
        #expect(files.count >= 10)
        for file in files {
            let root = file.deletingLastPathComponent()
            let tree = Self.read(file, root: root, chunkSize: nil)
            #expect(!tree.conversations.isEmpty, "\(file.lastPathComponent)")
            // A window that cuts strings, numbers, escapes and UTF-8 sequences apart, and the build's.
            for chunkSize in [5, 1 << 20] {
                let streamed = Self.read(file, root: root, chunkSize: chunkSize)
                #expect(streamed == tree, "\(file.path), window \(chunkSize)")
            }
        }
    }

    @Test("windows of one byte and up give the tree's chats, order and locations")
    func shapesReadTheSameInAnyWindow() throws {
        // A whole-account export: left chats before the chats (handed on after them), a chat's
        // name after its messages, a chat that is not an object, escapes and UTF-8 across windows.
        try Self.expectSameAsTree(
            """
            \u{FEFF}{"about": "x", "personal_information": {"user_id": 5, "first_name": "Ann"},
             "left_chats": {"about": "y", "list": [
               {"id": 9, "type": "private_group", "messages": [
                 {"id": 1, "type": "message", "date": "2024-05-01T10:00:00", "date_unixtime": "1714557600",
                  "from": "Ann", "from_id": "user5", "text": "bye \\"all\\" \\u00e9 ✓"}], "name": "Old"}]},
             "chats": {"about": "z", "list": [
               {"name": "Club \\u0041", "type": "private_supergroup", "id": 77, "messages": [
                 {"id": 1, "type": "message", "date": "2024-05-01T10:00:00", "date_unixtime": "1714550400",
                  "from": "Ann", "from_id": "user5", "text": ["a ", {"type": "bold", "text": "b"}], "reply_to_message_id": 3},
                 {"id": 2, "type": "service", "date": "2024-05-01T10:01:00", "actor": "Bob", "actor_id": "user6",
                  "action": "pin_message", "message_id": 3, "text": ""},
                 {"id": 3, "type": "message", "date": "2024-05-01T10:02:00", "from": "Bob", "from_id": "user6",
                  "text": "pinned", "reactions": [{"type": "emoji", "count": 1, "emoji": "👍"}]},
                 7, {"id": 4, "type": "unsupported"}, {"id": 5, "type": "message", "date": -1.5e3, "text": "x"}
               ]},
               12,
               {"name": "Empty", "type": "personal_chat", "id": 78, "messages": []},
               {"name": "Not an array", "id": 79, "messages": {"a": [1, true, null]}}
             ]},
             "other_data": {"x": [[[]]], "y": false}}
            """)
        // A one-chat export, its fields after `messages`, and one with no `messages` at all.
        try Self.expectSameAsTree(
            #"{"messages": [{"id": 1, "type": "message", "date": "2024-05-01T10:00:00", "text": "hi"}], "id": 3, "name": "N", "type": "bot_chat"}"#
        )
        try Self.expectSameAsTree(#"{"name": "N", "id": 3}"#)
    }

    @Test("a damaged file is the tree reader's located error, whatever the window")
    func damagedFilesGiveTheTreesError() throws {
        let good =
            #"{"name": "N", "type": "personal_chat", "id": 3, "messages": [{"id": 1, "type": "message", "date": "2024-05-01T10:00:00", "text": "hi"}, {"id": 2, "type": "message", "date": "2024-05-01T10:00:01", "text": "yo"}]}"#
        var damaged: [String] = [
            good.replacingOccurrences(of: #""id": 3,"#, with: #""id": 3"#),  // missing comma
            good.replacingOccurrences(of: #""name":"#, with: #""name""#),  // missing colon
            good.replacingOccurrences(of: "}]}", with: "},]}"),  // trailing comma
            good.replacingOccurrences(of: #""yo""#, with: "\"y\no\""),  // control character in a string
            good.replacingOccurrences(of: #"{"name""#, with: #"{"na\qme""#),  // bad escape in a key
            good.replacingOccurrences(of: #""text": "hi""#, with: #""text": tru"#),  // bad literal
            good + " x",  // something after the document
            "[1, 2",
            "",
        ]
        // Truncated at every tenth byte.
        damaged += stride(from: 1, to: good.utf8.count - 1, by: 10).map {
            String(decoding: good.utf8.prefix($0), as: UTF8.self)
        }
        for text in damaged {
            try Self.expectSameAsTree(text, chunkSizes: [1, 4, 1 << 20])
        }
    }

    @Test("the reader holds one message at a time, never the file")
    func memoryHoldsOneMessage() throws {
        let messages = (1...2000).map { index in
            #"{"id": \#(index), "type": "message", "date": "2024-05-01T10:00:00", "text": "\#(String(repeating: "w", count: index % 50))"}"#
        }
        let text =
            #"{"name": "N", "id": 1, "type": "personal_chat", "messages": ["# + messages.joined(separator: ",\n") + "]}"
        var reader = JSONChunkedReader(
            file: "result.json", descends: TelegramStreamReader.descends, handler: { _ in })
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + 4096)
            try Array(bytes[start..<end]).withUnsafeBufferPointer { (chunk) throws(Diagnostic) in
                try reader.feed(UnsafeRawBufferPointer(chunk))
            }
            start = end
        }
        try reader.finish()
        #expect(reader.largestValue == messages.map(\.utf8.count).max())
    }
}
