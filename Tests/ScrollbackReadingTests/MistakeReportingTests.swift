import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading

private typealias Support = MarkdownTestSupport

/// `file:line:column: severity: message` with the file named by its last component only (the
/// tests' input folders have random names).
private func located(_ diagnostic: Diagnostic) -> String {
    guard var location = diagnostic.location else { return diagnostic.description }
    location.file = (location.file as NSString).lastPathComponent
    return Diagnostic(diagnostic.severity, diagnostic.problem, at: location).description
}

/// Issue 14: every mistake in a log is reported at its place, and no message is lost.
@Suite("Mistakes are reported, never lost")
struct MistakeReportingTests {
    // MARK: Markdown: near misses of a message start (spec §2)

    /// A log whose second message start has `header` instead of a real one. Returns the read and
    /// the line the near miss is on.
    private func readNearMiss(_ header: String) throws -> (ReadResult, line: Int) {
        let text = Support.log(
            """
            # 2024-05-03

            **alice** 09:41
            First message.

            \(header)
            Second message.

            **bob** 09:50
            Third message.
            """)
        return (try Support.read(text), Support.line(of: header, in: text))
    }

    @Test(
        "a paragraph that looks like a message start but does not parse is a located warning, and its text is kept",
        arguments: [
            (
                "alice 09:45",
                "'alice 09:45' looks like a message header but the sender is not in bold; expected '**alice** 09:45'"
            ),
            (
                "*Alice Nguyen* · 09:45",
                "'Alice Nguyen · 09:45' looks like a message header but the sender is not in bold; expected '**Alice Nguyen** 09:45'"
            ),
            (
                "**alice** said at 09:45",
                "'**alice** said at 09:45' looks like a message header with words between the sender and the time; expected '**alice** 09:45' (only ·, -, —, ',', | or : between them)"
            ),
            ("**Alicia** said at 09:45", nil),
            (
                "**alice 09:45**",
                "'**alice 09:45**' looks like a message header with the time inside the bold; expected '**alice** 09:45'"
            ),
        ] as [(String, String?)])
    func nearMissHeaders(header: String, hint: String?) throws {
        let (result, line) = try readNearMiss(header)
        let conversation = try #require(result.conversation)
        // Nothing is lost: the near miss and its body are kept in the message before it.
        #expect(conversation.messages.count == 2)
        let first = try #require(conversation.messages.first)
        guard case .attributedText(let rich) = first.kind else {
            Issue.record("expected rich text, got \(first.kind)")
            return
        }
        #expect(rich.plainText.contains("Second message."))
        let warnings = result.diagnostics.filter { $0.severity == .warning }.map(located)
        if let hint {
            #expect(warnings == ["log.md:\(line):1: warning: \(hint); it is kept as part of the message before it"])
        } else {
            // Not a participant's name in the bold: ordinary bold text, no warning.
            #expect(warnings.isEmpty)
        }
    }

    @Test(
        "a date heading in another format is a located warning",
        arguments: ["# 03/05/2024", "## May 4, 2024", "# Friday, 3 May 2024", "# 2024/05/04", "# 4.5.2024"])
    func otherDateHeadings(heading: String) throws {
        let text = Support.log(
            """
            # 2024-05-03

            **alice** 09:41
            First message.

            \(heading)

            **bob** 09:50
            Second message.
            """)
        let result = try Support.read(text)
        let conversation = try #require(result.conversation)
        #expect(conversation.messages.count == 2)
        let shown = heading.drop { $0 == "#" || $0 == " " }
        #expect(
            result.diagnostics.map(located) == [
                "log.md:\(Support.line(of: heading, in: text)):1: warning: heading '\(shown)' looks like a date but does not set the day; expected a date heading '# YYYY-MM-DD' such as '# 2024-05-03'; it is kept as part of the message before it"
            ])
    }

    @Test("headings and bold text that are not near misses stay quiet")
    func noFalseAlarms() throws {
        let text = Support.log(
            """
            # Trip to Vienna, 2024

            # 2024-05-03

            **alice** 09:41
            **Note** 3 things: bring 2 bags by 10:00.

            ## Plans for May

            **bob** 09:50
            See you at 10:15
            """)
        let result = try Support.read(text)
        #expect(result.diagnostics.isEmpty)
        #expect(result.conversation?.messages.count == 2)
    }

    @Test("a near miss before any message would be lost: an error")
    func nearMissBeforeAnyMessage() throws {
        let text = Support.log("# 2024-05-03\n\nalice 09:41\nHello\n\n**bob** 09:50\nHi\n")
        let result = try Support.read(text)
        #expect(result.conversation == nil)
        #expect(
            result.diagnostics.map(located) == [
                "log.md:\(Support.line(of: "alice 09:41", in: text)):1: error: 'alice 09:41' looks like a message header but the sender is not in bold; expected '**alice** 09:41'; it comes before any message, so it cannot be kept"
            ])
    }

    // MARK: Markdown: files that are not logs

    @Test(
        "a .md without front matter holding participants is not a log: a note, no error",
        arguments: [
            ("# Read me\n\nThese are our chats.\n", "it has no front matter"),
            ("---\ntitle: Notes\nlayout: page\n---\n\n# Notes\n", "its front matter has no 'participants'"),
            ("---\ntitle: [unclosed\n---\n\nText\n", "its front matter has no 'participants'"),
        ])
    func notALog(text: String, reason: String) throws {
        let result = try Support.read(text, name: "README.md")
        #expect(result.conversation == nil)
        #expect(
            result.diagnostics.map(located) == [
                "README.md:1:1: note: not a conversation log, skipped: \(reason); a Markdown log opens with front matter holding 'participants'"
            ])
    }

    @Test("front matter naming participants that does not parse is still a log's error")
    func brokenLogFrontMatter() throws {
        let result = try Support.read("---\nparticipants: [unclosed\n---\n\nText\n")
        #expect(result.conversation == nil)
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics.first?.severity == .error)
    }

    // MARK: Markdown: locations (spec §2, RFC 5870 and map apps)

    @Test(
        "a geo: URI with its parameters, and each map app's query form, is a location",
        arguments: [
            ("geo:48.2,16.3;u=35;crs=wgs84", 48.2, 16.3, nil),
            ("geo:48.2,16.3;crs=wgs84;u=35", 48.2, 16.3, nil),
            ("geo:48.2,16.3,183;u=10", 48.2, 16.3, nil),
            ("geo:48.2,16.3?z=12", 48.2, 16.3, nil),
            ("geo:0,0?q=48.2,16.3(Stephansdom)", 48.2, 16.3, "Stephansdom"),
            ("<geo:-33.8568,151.2153;u=20>", -33.8568, 151.2153, nil),
            ("https://maps.google.com/?q=48.2082,16.3738", 48.2082, 16.3738, nil),
            ("https://www.google.com/maps?q=48.2082,16.3738", 48.2082, 16.3738, nil),
            ("https://www.google.com/maps/search/?api=1&query=48.2082,16.3738", 48.2082, 16.3738, nil),
            ("https://www.openstreetmap.org/?mlat=48.2082&mlon=16.3738#map=17/48.2082/16.3738", 48.2082, 16.3738, nil),
            ("https://maps.apple.com/?ll=48.2082,16.3738&q=Stephansdom", 48.2082, 16.3738, "Stephansdom"),
            ("[Our hotel](https://maps.apple.com/?ll=48.2082,16.3738)", 48.2082, 16.3738, "Our hotel"),
        ] as [(String, Double, Double, String?)])
    func locations(body: String, latitude: Double, longitude: Double, name: String?) throws {
        let result = try Support.read(Support.log("# 2024-05-03\n\n**alice** 09:41\n\(body)\n"))
        #expect(result.diagnostics.isEmpty)
        let message = try #require(result.conversation?.messages.first)
        guard case .location(let item) = message.kind else {
            Issue.record("\(body): expected a location, got \(message.kind)")
            return
        }
        #expect(item.latitude == latitude)
        #expect(item.longitude == longitude)
        #expect(item.name == name)
    }

    @Test(
        "links of map hosts that name no point, and geo: URIs RFC 5870 refuses, are not locations",
        arguments: [
            "https://maps.google.com/?q=Vienna",
            "https://www.openstreetmap.org/?mlat=48.2",
            "https://maps.apple.com/?q=Stephansdom",
            "https://www.google.com/search?q=48.2,16.3",
            "https://example.com/?mlat=48.2&mlon=16.3",
        ])
    func notLocations(body: String) throws {
        let result = try Support.read(Support.log("# 2024-05-03\n\n**alice** 09:41\n\(body)\n"))
        let message = try #require(result.conversation?.messages.first)
        if case .location = message.kind { Issue.record("\(body) read as a location") }
    }

    @Test("a geo: URI in another coordinate system or with a bad uncertainty is a located warning, shown as text")
    func refusedGeoParameters() throws {
        for uri in ["geo:48.2,16.3;crs=etrs89", "geo:48.2,16.3;u=-5", "geo:48.2,16.3;u=35;crs=wgs84x"] {
            let text = Support.log("# 2024-05-03\n\n**alice** 09:41\n\(uri)\n")
            let result = try Support.read(text)
            let message = try #require(result.conversation?.messages.first)
            if case .location = message.kind { Issue.record("\(uri) read as a location") }
            #expect(
                result.diagnostics.map(located).first?.hasPrefix(
                    "log.md:\(Support.line(of: uri, in: text)):1: warning: invalid value '\(uri)' for 'geo'") == true)
        }
    }

    // MARK: JSON: unknown fields

    /// A log with one message whose members are `members` (on line 6).
    private func jsonLog(_ members: String, top: String = "") -> String {
        """
        {
          "version": 1,\(top)
          "participants": [{"id": "alice", "name": "Alice"}, {"id": "bob", "name": "Bob"}],
          "messages": [
            {"id": "1", "sender": "alice", "date": "2024-05-03T09:00:00Z", "text": "Hi"},
            {"id": "2", "sender": "bob", "date": "2024-05-03T09:01:00Z", \(members)}
          ]
        }
        """
    }

    @Test("an unknown field is a warning at its key suggesting the nearest known one; the message is kept")
    func unknownFieldsSuggest() throws {
        let text = jsonLog(#""text": "Yes", "replyto": "1", "reactons": []"#)
        let result = try readLog(text)
        #expect(result.conversation?.messages.count == 2)
        let column = Support.column(of: #""replyto""#, in: text)
        #expect(
            result.diagnostics.map(located) == [
                "log.json:6:\(column): warning: unknown field 'replyto' in a message is ignored; did you mean 'replyTo'?",
                "log.json:6:\(Support.column(of: #""reactons""#, in: text)): warning: unknown field 'reactons' in a message is ignored; did you mean 'reactions'?",
            ])
    }

    @Test("unknown fields of the log, participants and payloads are reported; far names list the known ones")
    func unknownFieldsEverywhere() throws {
        let text = """
            {
              "titel": "Trip",
              "participants": [{"id": "alice", "name": "Alice", "colour": "#f00"}],
              "messages": [
                {"id": "1", "sender": "alice", "date": "2024-05-03T09:00:00Z", "kind": "location",
                 "location": {"latitude": 48.2, "longitude": 16.3, "nmae": "Home"}, "mood": "happy"}
              ]
            }
            """
        let result = try readLog(text)
        #expect(result.conversation != nil)
        let column = { (needle: String) in Support.column(of: "\"\(needle)\"", in: text) }
        #expect(
            result.diagnostics.map(located) == [
                "log.json:2:3: warning: unknown field 'titel' in the log is ignored; did you mean 'title'?",
                "log.json:3:\(column("colour")): warning: unknown field 'colour' in a participant is ignored; did you mean 'color'?",
                "log.json:6:\(column("nmae")): warning: unknown field 'nmae' in location is ignored; did you mean 'name'?",
                "log.json:6:\(column("mood")): warning: unknown field 'mood' in a message is ignored; expected one of \(KnownJSONFields.message.joined(separator: ", "))",
            ])
    }

    @Test("the v1.1 fields are known: no warning")
    func versionOnePointOneFieldsAreKnown() throws {
        let text = jsonLog(
            #""text": "Yes", "thread": "1", "broadcast": true, "forwardedFrom": "Carol", "deleted": false, "pinned": true, "source": {"format": "slack", "file": "general/2024-05-03.json"}"#
        )
        let result = try readLog(text)
        #expect(result.diagnostics.isEmpty)
        #expect(result.conversation?.messages.count == 2)
    }

    @Test("an unknown field is reported once per file, at its first use")
    func unknownFieldOncePerFile() throws {
        let text = """
            {
              "participants": [{"id": "alice", "name": "Alice"}],
              "messages": [
                {"id": "1", "sender": "alice", "date": "2024-05-03T09:00:00Z", "text": "a", "replyto": "x"},
                {"id": "2", "sender": "alice", "date": "2024-05-03T09:01:00Z", "text": "b", "replyto": "1"}
              ]
            }
            """
        let result = try readLog(text)
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics.first?.location?.line == 4)
        #expect(result.conversation?.messages.count == 2)
    }

    @Test("a misspelled kind key is an error at the key, not a missing payload")
    func misspelledKind() throws {
        let text = jsonLog(#""knd": "photo", "media": {"url": "https://example.com/a.jpg"}"#)
        let result = try readLog(text)
        #expect(result.conversation == nil)
        #expect(
            result.diagnostics.map(located) == [
                "log.json:6:\(Support.column(of: #""knd""#, in: text)): error: unknown field 'knd' in a message is ignored; did you mean 'kind'?"
            ])
    }

    @Test("the nearest name: case first, then a small edit distance")
    func nearestNames() {
        let known = KnownJSONFields.message
        #expect(NearestName.suggestion(for: "replyto", in: known) == "replyTo")
        #expect(NearestName.suggestion(for: "REPLYTO", in: known) == "replyTo")
        #expect(NearestName.suggestion(for: "knd", in: known) == "kind")
        #expect(NearestName.suggestion(for: "sedner", in: known) == "sender")
        #expect(NearestName.suggestion(for: "forwardFrom", in: known) == "forwardedFrom")
        #expect(NearestName.suggestion(for: "mood", in: known) == nil)
        #expect(NearestName.editDistance("abc", "acb") == 1)
        #expect(NearestName.editDistance("kitten", "sitting") == 3)
    }

    // MARK: Config

    /// Reads `scrollback.yml` with `text`.
    private func readConfig(_ text: String) throws -> [String] {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(text, to: "scrollback.yml", in: folder)
        return ConfigReader.read(inputRoot: folder).diagnostics.map(located)
    }

    @Test("an invalid timestampFormat, locale or time zone is a located error naming the valid forms")
    func invalidConfigValues() throws {
        let forms = LayoutOptionParsing.timestampFormatForms
        #expect(
            try readConfig("layout:\n  timestampFormat: medum\n") == [
                "scrollback.yml:2:20: error: invalid value 'medum' for 'timestampFormat'; expected \(forms) (did you mean 'medium'?)"
            ])
        #expect(
            try readConfig("layout:\n  timestampFormat: time HH:mm\n") == [
                "scrollback.yml:2:20: error: invalid value 'time HH:mm' for 'timestampFormat'; expected \(forms)"
            ])
        let locale =
            "a locale identifier: an ISO 639 language code, optionally with an ISO 3166 region, such as en, en_US, de-DE or pt_BR"
        for bad in ["english", "xx_YY", "de_XQ"] {
            #expect(
                try readConfig("layout:\n  locale: \(bad)\n") == [
                    "scrollback.yml:2:11: error: invalid value '\(bad)' for 'locale'; expected \(locale)"
                ])
        }
        #expect(
            try readConfig("layout:\n  timezone: Europe/Berln\n") == [
                "scrollback.yml:2:13: error: unknown time zone 'Europe/Berln'; expected an IANA name such as Europe/Berlin, America/New_York or UTC (did you mean 'Europe/Berlin'?)"
            ])
        #expect(
            try readConfig("layout:\n  timestampFormat: \"HH 'Uhr' mm\"\n  locale: de-DE\n  timezone: Europe/Vienna\n")
                .isEmpty)
        #expect(try readConfig("layout:\n  timestampFormat: h:mm a\n  locale: pt_BR\n").isEmpty)
    }

    @Test("an unknown config setting or layout option suggests the nearest known one")
    func unknownConfigKeys() throws {
        #expect(
            try readConfig("titel: Chats\nlayout:\n  groupgap: 10m\n") == [
                "scrollback.yml:1:1: warning: unknown field 'titel' in the config is ignored; did you mean 'title'?",
                "scrollback.yml:3:3: warning: unknown field 'groupgap' in layout is ignored; did you mean 'groupGap'?",
            ])
    }
}
