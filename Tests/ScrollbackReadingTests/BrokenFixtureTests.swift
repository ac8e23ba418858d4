import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading

/// The acceptance fixture: a folder of good logs and broken ones, one problem each.
@Suite struct BrokenFixtureTests {
    let folder = fixturesFolder.appendingPathComponent("broken")

    /// Each broken file, the one error it must give, and where.
    static let expectations: [String: (problem: Problem, line: Int, column: Int)] = [
        "malformed.json": (.malformedJSON(expected: "',' or '}' after object member"), 4, 37),
        "unknown-kind.json": (.unknownKind("sticker"), 5, 78),
        "duplicate-id.json": (
            .duplicateMessageID("m1", firstAt: SourceLocation(file: "broken/duplicate-id.json", line: 4, column: 13)),
            5, 13
        ),
        "unknown-sender.json": (.unknownSender("carol"), 4, 29),
        "bad-date.json": (.invalidDate("2024-13-03 09:41", expected: ISO8601DateParser.expectedForm), 5, 46),
        "unknown-version.json": (.unsupportedVersion("2"), 2, 14),
        "empty.json": (.emptyFile, 1, 1),
        "invalid-utf8.json": (.invalidUTF8, 2, 48),
    ]

    @Test func everyFileOfTheFolder() throws {
        let reader = LogReader(inputRoot: folder, config: SiteConfig())
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
            .sorted()
        #expect(files.count == Self.expectations.count + 2)
        var goodCount = 0
        for name in files {
            let result = reader.read(folder.appendingPathComponent(name))
            if name.hasPrefix("good-") {
                #expect(result.conversation != nil, "\(name): \(result.diagnostics)")
                #expect(result.diagnostics.isEmpty, "\(name): \(result.diagnostics)")
                goodCount += 1
                continue
            }
            let expected = try #require(Self.expectations[name], "no expectation for \(name)")
            #expect(result.conversation == nil, "\(name)")
            #expect(result.diagnostics.count == 1, "\(name): \(result.diagnostics)")
            let diagnostic = try #require(result.diagnostics.first)
            #expect(diagnostic.severity == .error, "\(name)")
            #expect(diagnostic.problem == expected.problem, "\(name)")
            #expect(
                diagnostic.location
                    == SourceLocation(file: "broken/\(name)", line: expected.line, column: expected.column),
                "\(name)")
            #expect(diagnostic.description.hasPrefix("broken/\(name):\(expected.line):\(expected.column): error: "))
        }
        #expect(goodCount == 2)
    }

    @Test func goodLogsAreReadCompletely() throws {
        let reader = LogReader(inputRoot: folder, config: SiteConfig())
        let conversation = try #require(reader.read(folder.appendingPathComponent("good-weekend.json")).conversation)
        #expect(conversation.id == "good-weekend")
        #expect(conversation.messages.map(\.id) == ["m1", "m2", "m3"])
        #expect(conversation.messages[1].replyTo == "m1")
        #expect(conversation.messages[2].kind == .system("Alice renamed the group"))
        #expect(conversation.timeZone == "Europe/Berlin")
    }
}
