import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackSite

/// Issue 14 on the built site: each mistake is reported at its place, and every message a log
/// holds is one message element of the site (messages in = message elements out).
@Suite("Mistakes on the built site")
struct MistakeSiteTests {
    /// A Markdown log with near misses (kept in the message before them) and locations.
    static let markdownLog = """
        ---
        title: Near misses
        me: alice
        participants:
          alice: Alice
          bob: Bob
        ---

        # 2024-05-03

        **alice** 09:41
        Did you book?

        bob 09:42
        Yes, written without the bold.

        # May 4, 2024

        **bob** said at 09:43
        With words between name and time.

        **bob** 09:44
        geo:48.2082,16.3738;u=35;crs=wgs84

        **alice** 09:45
        https://www.openstreetmap.org/?mlat=48.2082&mlon=16.3738

        """

    /// A JSON log with unknown fields (one is a v1.1 field, which is known) and 4 messages.
    static let jsonLog = """
        {
          "title": "Fields",
          "participants": [{"id": "alice", "name": "Alice"}, {"id": "bob", "name": "Bob"}],
          "messages": [
            {"id": "1", "sender": "alice", "date": "2024-05-03T09:00:00Z", "text": "One"},
            {"id": "2", "sender": "bob", "date": "2024-05-03T09:01:00Z", "text": "Two", "replyto": "1"},
            {"id": "3", "sender": "bob", "date": "2024-05-03T09:02:00Z", "text": "Three", "pinned": true},
            {"id": "4", "sender": "alice", "date": "2024-05-03T09:03:00Z", "text": "Four", "Reactions": []}
          ]
        }

        """

    /// Every page of conversation `id` in `site`, joined.
    static func pages(_ site: [String: Data], _ id: String) -> String {
        site.keys.filter { $0.hasPrefix(id + "/") && $0.hasSuffix(".html") }.sorted()
            .map { String(decoding: site[$0]!, as: UTF8.self) }.joined()
    }

    static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test("warnings are located and sorted; every message is one element; a README is skipped with a note")
    func everyMessageIsKept() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Self.markdownLog, to: "logs/near-miss.md")
        try folder.write(Self.jsonLog, to: "logs/fields.json")
        try folder.write("# Our chats\n\nExported in May.\n", to: "logs/README.md")
        let input = folder.url.appendingPathComponent("logs")
        let report = try build(input, folder.url.appendingPathComponent("site"))
        #expect(!report.hasErrors)
        #expect(report.conversations == 2)
        let printed = report.diagnostics.map(\.description)
        #expect(
            printed == [
                // A two-person log that names no `me` (issue 42.4): one unlocated warning, first.
                "warning: the one-to-one chat fields (Alice or Bob) does not say who you are, so every message is on the left; expected `me: Alice` or `me: Bob` in scrollback.yml, or --me NAME",
                "logs/README.md:1:1: note: not a conversation log, skipped: it has no front matter; a Markdown log opens with front matter holding 'participants'",
                "logs/fields.json:6:81: warning: unknown field 'replyto' in a message is ignored; did you mean 'replyTo'?",
                "logs/fields.json:8:84: warning: unknown field 'Reactions' in a message is ignored; did you mean 'reactions'?",
                "logs/near-miss.md:14:1: warning: 'bob 09:42' looks like a message header but the sender is not in bold; expected '**bob** 09:42'; it is kept as part of the message before it",
                "logs/near-miss.md:17:1: warning: heading 'May 4, 2024' looks like a date but does not set the day; expected a date heading '# YYYY-MM-DD' such as '# 2024-05-03'; it is kept as part of the message before it",
                "logs/near-miss.md:19:1: warning: '**bob** said at 09:43' looks like a message header with words between the sender and the time; expected '**bob** 09:43' (only ·, -, —, ',', | or : between them); it is kept as part of the message before it",
            ])
        #expect(printed == report.diagnostics.sorted().map(\.description))

        let site = try snapshot(folder.url.appendingPathComponent("site"))
        #expect(!site.keys.contains { $0.lowercased().hasPrefix("readme") })
        // JSON: 4 messages in, 4 elements out.
        let json = Self.pages(site, "fields")
        #expect(Self.count("data-message-id=", in: json) == 4)
        // Markdown: 3 real message starts, 3 elements; the near misses' text is inside the first.
        let markdown = Self.pages(site, "near-miss")
        #expect(Self.count("data-message-id=", in: markdown) == 3)
        for text in ["Yes, written without the bold.", "With words between name and time."] {
            #expect(markdown.contains(text))
        }
        #expect(Self.count(#"data-kind="location""#, in: markdown) == 2)
    }

    @Test("build --verbose prints the skipped README; without it, only mistakes are printed")
    func verboseFlag() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 3), to: "logs/trip.json")
        try folder.write("# Read me\n", to: "logs/README.md")
        let quiet = try ScrollbackProcess.run(["build", "logs", "-o", "out"], in: folder.url)
        #expect(quiet.status == 0)
        #expect(quiet.errors.isEmpty)
        let verbose = try ScrollbackProcess.run(["build", "logs", "-o", "out", "--verbose"], in: folder.url)
        #expect(verbose.status == 0)
        #expect(verbose.errors.hasPrefix("logs/README.md:1:1: note: not a conversation log, skipped"))
    }
}
