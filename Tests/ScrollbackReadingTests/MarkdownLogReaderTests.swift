import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading

private typealias Support = MarkdownTestSupport

@Suite struct MarkdownLogReaderTests {
    // MARK: headers, days, times

    @Test func readsEveryHeaderFormAndSeparator() throws {
        let text = Support.log(
            """
            # 2024-05-03

            **alice** 09:41
            one

            **bob** · 09:42:15
            two

            **Alice Nguyen** - 09:43
            three

            **bob** — 09:44
            four

            **alice**, 09:45
            five

            **bob** | 09:46
            six

            **alice** 2024-05-04 07:00
            seven

            **bob** 07:30
            eight (the dated header moved the day)

            **alice** 2024-05-04 08:00:05
            nine

            **bob** 2024-05-04T06:10:00Z
            ten
            """)
        let result = try Support.read(text)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let messages = try #require(result.conversation?.messages)
        #expect(
            messages.map(\.sender) == ["alice", "bob", "alice", "bob", "alice", "bob", "alice", "bob", "alice", "bob"])
        #expect(
            messages.map { Support.iso($0.date) } == [
                "2024-05-03T09:41:00+02:00", "2024-05-03T09:42:15+02:00", "2024-05-03T09:43:00+02:00",
                "2024-05-03T09:44:00+02:00", "2024-05-03T09:45:00+02:00", "2024-05-03T09:46:00+02:00",
                "2024-05-04T07:00:00+02:00", "2024-05-04T07:30:00+02:00", "2024-05-04T08:00:05+02:00",
                "2024-05-04T08:10:00+02:00",
            ])
        #expect(messages.map(\.id) == (1...10).map { "m\($0)" })
        #expect(messages.map(\.kind.plainText).first == "one")
        #expect(messages[0].location.line == Support.line(of: "**alice** 09:41", in: text))
        #expect(messages[0].location.file.hasSuffix("log.md"))
    }

    @Test func readsSystemMessages() throws {
        let result = try Support.read(Support.log("# 2024-05-03\n\n_10:02_ Alice renamed the group to \"Trip 🚆\"\n"))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let message = try #require(result.conversation?.messages.first)
        #expect(message.sender == nil)
        #expect(message.kind == .system("Alice renamed the group to \"Trip 🚆\""))
        #expect(Support.iso(message.date) == "2024-05-03T10:02:00+02:00")
    }

    @Test func ordersByDateKeepingFileOrderForTies() throws {
        let result = try Support.read(
            Support.log("# 2024-05-03\n\n**alice** 10:00\nlate\n\n**bob** 09:00\nearly\n\n**alice** 09:00\nearly too\n")
        )
        let messages = try #require(result.conversation?.messages)
        #expect(messages.map(\.id) == ["m2", "m3", "m1"])
    }

    @Test func usesTheSiteTimeZoneWhenTheLogNamesNone() throws {
        var config = SiteConfig()
        config.layout.timeZone = "America/New_York"
        let text = "---\nparticipants:\n  alice: Alice\n---\n# 2024-01-15\n\n**alice** 12:00\nhi\n"
        let result = try Support.read(text, config: config)
        let message = try #require(result.conversation?.messages.first)
        #expect(Support.iso(message.date, zone: "UTC") == "2024-01-15T17:00:00Z")
        #expect(result.conversation?.timeZone == nil)
    }

    // MARK: acceptance point 1: only top-level paragraphs start messages

    @Test func headersInsideCodeQuotesAndListsStayContent() throws {
        let text = Support.log(
            """
            # 2024-05-03

            **alice** 09:41
            Look at this log excerpt:

            ```
            **bob** 09:50
            inside a fence
            ```

            > **bob** 09:51
            > inside a quote

            - **bob** 09:52
              inside a list item

            And as indented code:

                **bob** 09:53
                indented code

            **bob** 10:00
            the real next message
            """)
        let result = try Support.read(text)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let messages = try #require(result.conversation?.messages)
        #expect(messages.count == 2)
        #expect(messages.map(\.sender) == ["alice", "bob"])
        guard case .attributedText(let rich) = messages[0].kind else {
            Issue.record("expected attributedText, got \(messages[0].kind)")
            return
        }
        #expect(rich.html.contains("<pre><code>**bob** 09:50\ninside a fence\n</code></pre>"))
        #expect(
            rich.html.contains("<blockquote>\n<p><strong>bob</strong> 09:51<br />\ninside a quote</p>\n</blockquote>"))
        #expect(rich.html.contains("<li><strong>bob</strong> 09:52<br />\ninside a list item</li>"))
        #expect(rich.html.contains("<pre><code>**bob** 09:53\nindented code\n</code></pre>"))
        #expect(!rich.html.contains("09:41"), "the header line is not part of the body")
    }

    // MARK: front matter

    @Test func yamlStringsStayStrings() throws {
        let text = """
            ---
            me: no
            participants:
              no: 010
              yes:
                name: 0x1F
              "on": off
            title: 1.0
            ---
            # 2024-05-03

            **no** 09:41
            hi

            **010** 09:42
            by display name
            """
        let result = try Support.read(text)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let conversation = try #require(result.conversation)
        #expect(conversation.participants.map(\.id) == ["no", "yes", "on"])
        #expect(conversation.participants.map(\.name) == ["010", "0x1F", "off"])
        #expect(conversation.me == "no")
        #expect(conversation.title == "1.0")
        #expect(conversation.messages.map(\.sender) == ["no", "no"])
    }

    @Test func readsFrontMatterFields() throws {
        let text = """
            ---
            title: Weekend
            description: Two days away
            id: Weekend Trip
            version: 1
            timezone: Asia/Tokyo
            participants:
              alice:
                name: Alice
                avatar: media/dot.png
                color: "#A0B0C0"
            layout:
              grouping: off
              groupGap: 90s
              collapseTimestamps: top
              messageMaxWidth: 480px
              messageCornerRadius: 1rem
              timestampFormat: HH:mm
              locale: de_DE
            ---
            # 2024-05-03

            **alice** 09:41
            hi
            """
        let result = try Support.read(text)
        let conversation = try #require(result.conversation, "\(result.diagnostics)")
        // The id is slugified, with a warning naming the slug used.
        #expect(conversation.id == "weekend-trip")
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics.first?.location?.line == 4)
        #expect(conversation.title == "Weekend")
        #expect(conversation.description == "Two days away")
        #expect(conversation.timeZone == "Asia/Tokyo")
        let alice = try #require(conversation.participants.first)
        #expect(alice.color == "#a0b0c0")
        guard case .local(let asset) = alice.avatar else {
            Issue.record("expected a local avatar, got \(String(describing: alice.avatar))")
            return
        }
        #expect(asset.pixelSize == PixelSize(width: 12, height: 8))
        #expect(conversation.layout.grouping == .disabled)
        #expect(conversation.layout.groupGap == 90)
        #expect(conversation.layout.collapseTimestamps == .top)
        #expect(conversation.layout.messageMaxWidth == .px(480))
        #expect(conversation.layout.messageCornerRadius == .rem(1))
        #expect(conversation.layout.timestampFormat == .pattern("HH:mm"))
        #expect(conversation.layout.locale == "de_DE")
        #expect(Support.iso(conversation.messages[0].date, zone: "UTC") == "2024-05-03T00:41:00Z")
    }

    @Test func defaultsTheIDToTheFileName() throws {
        let result = try Support.read(Support.log("# 2024-05-03\n\n**alice** 09:41\nhi\n"), name: "Weekend Trip.md")
        #expect(result.conversation?.id == "weekend-trip")
    }

    @Test func yamlSyntaxErrorsCarryTheFileLineAndColumn() throws {
        let text = "---\ntitle: Trip\nparticipants:\n  alice: [Alice\n---\n# 2024-05-03\n"
        let result = try Support.read(text)
        #expect(result.conversation == nil)
        let error = try #require(result.markdownErrors.first)
        guard case .invalidYAML = error.problem else {
            Issue.record("expected invalidYAML, got \(error.problem)")
            return
        }
        // libyaml notices the unclosed flow sequence at the closing `---` (line 5 of the file).
        #expect(error.location?.line == 5)
        #expect(error.location?.column == 1)
    }

    @Test func yamlShapeErrorsPointAtTheValue() throws {
        let text = "---\ntitle: Trip\nparticipants:\n  alice:\n    avatar: a.png\n  bob: [1, 2]\n---\n"
        let result = try Support.read(text)
        #expect(result.conversation == nil)
        let error = try #require(result.markdownErrors.first)
        #expect(error.problem == .missingField("participants.alice.name"))
        #expect(error.location?.line == 5)
        #expect(error.location?.column == 5)
    }

    @Test func yamlColumnsCountUTF8Bytes() throws {
        // `Zoë` has 3 scalars and 4 UTF-8 bytes: the bad indentation after it is reported in bytes.
        let text = "---\nparticipants:\n  zoe: {name: Zoë, color: \"#fff\" avatar: x}\n---\n"
        let result = try Support.read(text)
        let error = try #require(result.markdownErrors.first)
        #expect(error.location?.line == 3)
        #expect(error.location?.column == Support.column(of: "avatar", in: text))
    }

    @Test func duplicateParticipantIsAnError() throws {
        let text = "---\nparticipants:\n  alice: Alice\n  bob: Bob\n  alice: Alicia\n---\n"
        let result = try Support.read(text)
        #expect(result.conversation == nil)
        let error = try #require(result.markdownErrors.first)
        guard case .invalidYAML(let detail) = error.problem else {
            Issue.record("expected invalidYAML, got \(error.problem)")
            return
        }
        #expect(detail.contains("alice"))
        #expect((3...5).contains(error.location?.line ?? 0))
    }

    @Test func textOutsideAnyMessageIsIgnoredWithAWarning() throws {
        let text = Support.log("# Our trip\n\nSome notes.\n\n# 2024-05-03\n\n**alice** 09:41\nhi\n")
        let result = try Support.read(text)
        #expect(result.conversation?.messages.count == 1)
        #expect(result.diagnostics.map(\.severity) == [.warning])
        #expect(result.diagnostics.first?.location?.line == Support.line(of: "Some notes.", in: text))
    }

    @Test func unclosedFrontMatterIsAnError() throws {
        let result = try Support.read("---\ntitle: Trip\n\n# 2024-05-03\n")
        #expect(result.conversation == nil)
        #expect(result.markdownErrors.first?.location?.line == 1)
    }

    @Test func frontMatterValueErrors() throws {
        let text = """
            ---
            version: 2
            timezone: Mars/Olympus
            me: carol
            participants:
              alice: Alice
            layout:
              groupGap: soon
            ---
            """
        let result = try Support.read(text)
        #expect(result.conversation == nil)
        let problems = result.markdownErrors.map(\.problem)
        #expect(problems.contains(.unsupportedVersion("2")))
        #expect(problems.contains(.unknownTimeZone("Mars/Olympus")))
        #expect(problems.contains(.unknownSender("carol")))
        // In the order the reader checks them: version, time zone, layout, me.
        #expect(result.markdownErrors.map { $0.location?.line ?? 0 } == [2, 3, 8, 4])
    }

    @Test func withoutFrontMatterItIsNotALog() throws {
        let result = try Support.read("# 2024-05-03\n\n_09:00_ nobody here\n")
        #expect(result.conversation == nil)
        #expect(result.markdownErrors.isEmpty)
        #expect(result.diagnostics.map(\.problem) == [.notALog(reason: "it has no front matter")])
    }

    // MARK: errors in the body

    @Test func unknownSenderIsAnErrorAtTheSender() throws {
        let text = Support.log("# 2024-05-03\n\n**carol** · 09:41\nhello\n")
        let result = try Support.read(text)
        #expect(result.conversation == nil)
        let error = try #require(result.markdownErrors.first)
        #expect(error.problem == .unknownSender("carol"))
        #expect(error.location?.line == Support.line(of: "**carol**", in: text))
        #expect(error.location?.column == 1)
        #expect(error.description.contains("expected a participant id or display name"))
    }

    @Test func unparsableTimeIsAnErrorAtTheTime() throws {
        let text = Support.log("# 2024-05-03\n\n**alice** · 25:99\nhello\n")
        let result = try Support.read(text)
        let error = try #require(result.markdownErrors.first)
        guard case .invalidDate("25:99", _) = error.problem else {
            Issue.record("expected invalidDate, got \(error.problem)")
            return
        }
        #expect(error.location?.line == Support.line(of: "25:99", in: text))
        #expect(error.location?.column == Support.column(of: "25:99", in: text))
    }

    @Test func impossibleDateHeadingIsAnError() throws {
        let text = Support.log("# 2024-02-30\n\n**alice** 09:41\nhello\n")
        let result = try Support.read(text)
        #expect(
            result.markdownErrors.map(\.problem) == [.invalidDate("2024-02-30", expected: MarkdownClock.expectedDay)])
        #expect(result.markdownErrors.first?.location?.line == Support.line(of: "# 2024-02-30", in: text))
    }

    @Test func timeBeforeAnyDateIsAnError() throws {
        let text = Support.log("**alice** 09:41\nhello\n")
        let result = try Support.read(text)
        let error = try #require(result.markdownErrors.first)
        #expect(error.problem == .timeBeforeAnyDate("09:41"))
        #expect(error.location?.line == Support.line(of: "**alice** 09:41", in: text))
        #expect(error.location?.column == 11)
    }

    @Test func badCustomJSONIsAnErrorAtItsLine() throws {
        let text = Support.log(
            "# 2024-05-03\n\n**alice** 09:41\n```custom poll\n{\"question\": \"Dinner?\",\n \"options\": [\"Pizza\" \"Ramen\"]}\n```\n"
        )
        let result = try Support.read(text)
        let error = try #require(result.markdownErrors.first)
        guard case .invalidCustomJSON = error.problem else {
            Issue.record("expected invalidCustomJSON, got \(error.problem)")
            return
        }
        #expect(error.location?.line == Support.line(of: "\"options\"", in: text))
        #expect(error.location?.column == Support.column(of: "\"Ramen\"", in: text))
    }

    @Test func allErrorsOfAFileAreReported() throws {
        let text = Support.log("# 2024-05-03\n\n**carol** 09:41\nhi\n\n**alice** 9:7\nhi\n\n**bob** 09:50\nfine\n")
        let result = try Support.read(text)
        #expect(result.markdownErrors.count == 2)
    }

    @Test func anotherLogInTheSameFolderStillReads() throws {
        let folder = try Support.makeInputFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.md")
        let good = folder.appendingPathComponent("good.md")
        try Support.log("# 2024-05-03\n\n**mallory** 09:41\nhi\n").write(to: broken, atomically: true, encoding: .utf8)
        try Support.log("# 2024-05-03\n\n**alice** 09:41\nhi\n").write(to: good, atomically: true, encoding: .utf8)
        let reader = LogReader(inputRoot: folder, config: SiteConfig())
        let brokenResult = reader.read(broken)
        let goodResult = reader.read(good)
        #expect(brokenResult.conversation == nil)
        #expect(brokenResult.markdownErrors.first?.location?.file.hasSuffix("broken.md") == true)
        #expect(goodResult.diagnostics.isEmpty)
        #expect(goodResult.conversation?.messages.count == 1)
    }

    @Test func invalidUTF8IsAnError() throws {
        let folder = try Support.makeInputFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bad.md")
        try Data([0x61, 0x0A, 0x62, 0xFF, 0x63]).write(to: file)
        let result = LogReader(inputRoot: folder, config: SiteConfig()).read(file)
        #expect(result.markdownErrors.map(\.problem) == [.invalidUTF8])
        #expect(result.markdownErrors.first?.location?.line == 2)
        #expect(result.markdownErrors.first?.location?.column == 2)
    }
}
