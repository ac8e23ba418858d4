import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading

/// A large JSON log read on two threads (its later messages parsed and converted apart, then
/// merged) gives exactly what one thread gives: messages, diagnostics in order, trace.
@Suite struct TwoPartReadTests {
    /// A log of `count` messages, one per line, over 1 MB; `message` may replace any of them.
    func log(count: Int, participantsLast: Bool = false, message: (Int) -> String? = { _ in nil }) -> String {
        let lines = (0..<count).map { n in
            message(n)
                ?? #"{"id": "m\#(n)", "sender": "\#(n % 3 == 0 ? "bob" : "alice")", "date": "2024-05-03T\#(String(format: "%02d:%02d:%02d", n / 3600 % 24, n / 60 % 60, n % 60))Z", "text": "message \#(n) with *some* words", "reactions": [{"emoji": "👍", "senders": ["bob"]}]}"#
        }
        let participants = #""participants": [{"id": "alice", "name": "Alice"}, {"id": "bob", "name": "Bob"}]"#
        let messages = "\"messages\": [\n" + lines.joined(separator: ",\n") + "\n]"
        return participantsLast ? "{\n\(messages),\n\(participants)\n}\n" : "{\n\(participants),\n\(messages)\n}\n"
    }

    /// The log read with one thread and with two (and each side's trace).
    func readBothWays(_ text: String) throws -> (one: ReadResult, two: ReadResult) {
        let bytes = Array(text.utf8)
        #expect(bytes.count >= JSONLogReader.twoPartMinimumBytes)
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try write(text, to: "log.json", in: folder)
        let reader = LogReader(inputRoot: folder, config: SiteConfig())
        return (
            reader.read(contents: bytes, of: file, tracingMessages: true, threads: 1),
            reader.read(contents: bytes, of: file, tracingMessages: true, threads: 2)
        )
    }

    func expectSame(_ one: ReadResult, _ two: ReadResult) {
        #expect(one.conversation == two.conversation)
        #expect(one.diagnostics == two.diagnostics)
        #expect(one.messageTrace?.elementRanges == two.messageTrace?.elementRanges)
        #expect(one.messageTrace?.sortedPositions == two.messageTrace?.sortedPositions)
        #expect(one.messageTrace?.arrayOpenOffset == two.messageTrace?.arrayOpenOffset)
    }

    @Test("the later part starts at a message line after the middle; warnings are reported once, in order")
    func warningsAndMessages() throws {
        let count = 9000
        let text = log(count: count, participantsLast: true) { n in
            switch n {
            // The same unknown fields early and late: reported once, where they first appear.
            case 10, 8000:
                return
                    #"{"id": "w\#(n)", "sender": "alice", "date": "2024-05-03T09:00:00Z", "text": "x", "colour": "red", "reactions": [{"emoji": "🎉", "senders": ["bob"], "size": 2}]}"#
            // Only late: reported once, in the later part.
            case 7000, 7500:
                return
                    #"{"id": "w\#(n)", "sender": "bob", "date": "2024-05-03T08:00:00Z", "text": "y", "mood": 1, "replyTo": "nowhere"}"#
            default: return nil
            }
        }
        let cut = try #require(JSONLogReader.laterPartStart(in: Array(text.utf8)))
        #expect(cut.start > text.utf8.count / 2 && cut.comma < cut.start)
        let (one, two) = try readBothWays(text)
        #expect(one.conversation?.messages.count == count)
        #expect(one.messageTrace?.elementRanges.count == count)
        // colour, size and mood once each; the reply to a missing message twice.
        #expect(one.diagnostics.filter { $0.severity == .warning }.count == 5, "\(one.diagnostics)")
        expectSame(one, two)
    }

    @Test("errors in either part and ids repeated across the parts give the one-thread errors")
    func errors() throws {
        let repeated = log(count: 9000) { n in
            switch n {
            case 8500: return #"{"id": "m5", "sender": "carol", "date": "2024-05-03T09:00:00Z", "text": "x"}"#
            case 8600: return #"{"id": "m8600", "sender": "alice", "date": "yesterday", "text": "x"}"#
            case 20: return #"{"id": "m21", "sender": "alice", "date": "2024-05-03T09:00:00Z", "text": "x"}"#
            default: return nil
            }
        }
        let (one, two) = try readBothWays(repeated)
        #expect(one.conversation == nil)
        #expect(one.diagnostics.count == 4, "\(one.diagnostics)")
        expectSame(one, two)
        // A syntax error late, then early: the first in the file is the one reported.
        for broken in [8700, 30] {
            let text = log(count: 9000) { n in n == broken ? #"{"id": "b", "date": 12,, "text": "x"}"# : nil }
            let (one, two) = try readBothWays(text)
            #expect(one.diagnostics.count == 1)
            #expect(one.diagnostics.first?.location?.line == broken + 4)
            expectSame(one, two)
        }
    }

    @Test("a guess that falls inside a message is not taken, and the log is read whole")
    func guessInsideAMessage() throws {
        // Every message spans lines, and its last reaction's line opens with `{` after a `,`;
        // a blank line before each message keeps the messages' own lines from being guessed.
        let text = log(count: 6000) { n in
            #"""

            {"id": "m\#(n)", "sender": "alice", "date": "2024-05-03T09:00:00Z", "text": "\#(n)", "reactions": [
              {"emoji": "👍", "senders": ["bob"]},
              {"emoji": "🎉", "senders": ["alice"]}]}
            """#
        }
        let bytes = Array(text.utf8)
        let cut = try #require(JSONLogReader.laterPartStart(in: bytes))
        #expect(String(decoding: bytes[cut.start..<(cut.start + 10)], as: UTF8.self) == #"{"emoji": "#)
        let (one, two) = try readBothWays(text)
        #expect(one.conversation?.messages.count == 6000)
        expectSame(one, two)
    }
}
