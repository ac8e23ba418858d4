import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading

@Suite struct ConfigReaderTests {
    func read(_ text: String, name: String = "scrollback.yml") throws -> (config: SiteConfig, diagnostics: [Diagnostic])
    {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(text, to: name, in: folder)
        return ConfigReader.read(inputRoot: folder)
    }

    @Test func noConfigGivesDefaults() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (config, diagnostics) = ConfigReader.read(inputRoot: folder)
        #expect(config == SiteConfig())
        #expect(diagnostics.isEmpty)
    }

    @Test func everyField() throws {
        let (config, diagnostics) = try read(
            """
            title: Our chats
            description: Family group
            pageSize: 250
            remoteMedia: false
            layout:
              grouping: on
              groupGap: 10m
              collapseProfilePicture: false
              collapseEnclosingViews: no
              collapseTimestamps: off
              messageMaxWidth: 480px
              messageCornerRadius: 1rem
              timestampFormat: "HH:mm"
              locale: fr_FR
              timezone: Europe/Paris
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(config.title == "Our chats")
        #expect(config.description == "Family group")
        #expect(config.pageSize == 250)
        #expect(config.remoteMedia == false)
        #expect(config.layout.grouping == .sameSender(gap: 600))
        #expect(config.layout.collapseProfilePicture == false)
        #expect(config.layout.collapseEnclosingViews == false)
        #expect(config.layout.collapseTimestamps == .off)
        #expect(config.layout.messageMaxWidth == .px(480))
        #expect(config.layout.messageCornerRadius == .rem(1))
        #expect(config.layout.timestampFormat == .pattern("HH:mm"))
        #expect(config.layout.locale == "fr_FR")
        #expect(config.layout.timeZone == "Europe/Paris")
    }

    @Test func badLayoutValueIsLocated() throws {
        let (_, diagnostics) = try read("title: x\nlayout:\n  groupGap: soon\n  timezone: Moon/Base\n")
        #expect(
            diagnostics.map(\.problem) == [
                .invalidOption(
                    name: "groupGap", value: "soon",
                    expected: "a duration such as 5m, 90s, 2h, 1h30m or a number of seconds"),
                .unknownTimeZone("Moon/Base"),
            ])
        #expect(diagnostics.map { $0.location!.line } == [3, 4])
        #expect(diagnostics.map { $0.location!.column } == [13, 13])
        #expect(diagnostics.allSatisfy { $0.severity == .error && $0.location!.file.hasSuffix("/scrollback.yml") })
    }

    @Test func wrongTypeIsLocated() throws {
        let (_, diagnostics) = try read("title: ok\npageSize: many\n")
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.severity == .error)
        #expect(diagnostics.first?.location?.line == 2)
        #expect(diagnostics.first?.location?.column == 11)
        let (_, zero) = try read("pageSize: 0\n")
        #expect(
            zero.map(\.problem) == [
                .invalidOption(name: "pageSize", value: "0", expected: "a whole number of at least 1")
            ])
    }

    @Test func yamlSyntaxErrorIsLocated() throws {
        let (_, diagnostics) = try read("title: \"unclosed\nlayout: [\n")
        #expect(diagnostics.count == 1)
        guard case .invalidYAML? = diagnostics.first?.problem else {
            Issue.record("expected invalidYAML: \(diagnostics)")
            return
        }
        #expect(diagnostics.first?.location?.line ?? 0 >= 1)
    }

    @Test func unknownKeysAreWarnings() throws {
        let (config, diagnostics) = try read("titel: typo\nlayout:\n  bubbles: big\n")
        #expect(config.title == "Scrollback")
        #expect(diagnostics.count == 2)
        #expect(diagnostics.allSatisfy { $0.severity == .warning })
        #expect(diagnostics.map { $0.location!.line } == [1, 3])
    }

    @Test func jsonConfig() throws {
        let (config, diagnostics) = try read(
            #"{"title": "J", "layout": {"messageMaxWidth": "60%", "groupGap": 30}}"#, name: "scrollback.json")
        #expect(diagnostics.isEmpty)
        #expect(config.title == "J")
        #expect(config.layout.messageMaxWidth == .percent(60))
        #expect(config.layout.grouping == .sameSender(gap: 30))
        let (_, bad) = try read(#"{"title": "J",}"#, name: "scrollback.json")
        #expect(
            bad.first?.problem
                == .malformedJSON(expected: "'\"' to start a member name (trailing commas are not allowed)"))
        #expect(bad.first?.location?.column == 15)
    }

    @Test func unicodeColumnsAreBytes() throws {
        let (_, diagnostics) = try read("title: é\nlayout: {locale: \"é\", messageMaxWidth: wide}\n")
        #expect(diagnostics.count == 2)
        // `wide` starts at scalar column 40 and byte column 41 (the é before it is two bytes).
        #expect(diagnostics.last?.location?.column == 41)
    }

    @Test func meIsANameOrAListAtTheTopAndPerConversation() throws {
        let (config, diagnostics) = try read(
            """
            me: Alice
            conversations:
              general: {me: [bob, 4720225]}
              random:
                me: U012AB3CD
            """)
        #expect(diagnostics.isEmpty)
        #expect(config.me.names == ["Alice"])
        #expect(config.me.byConversation == ["general": ["bob", "4720225"], "random": ["U012AB3CD"]])
        let (listed, none) = try read("me: [Alice, 'alice.b']\n")
        #expect(none.isEmpty)
        #expect(listed.me.names == ["Alice", "alice.b"])
    }

    @Test func badMeValuesAreErrorsWhereTheyAre() throws {
        let (_, diagnostics) = try read(
            "title: T\nme: {name: Alice}\nconversations:\n  general: {me: [], colour: red}\n  random: 3\n")
        #expect(diagnostics.map(\.severity) == [.error, .error, .warning, .error])
        #expect(diagnostics.map { $0.location!.line } == [2, 4, 4, 5])
        #expect(diagnostics[0].problem.message.contains("a participant id or display name"))
        #expect(diagnostics[2].problem.message.contains("colour"))
        let (_, notAMap) = try read("conversations: [general]\n")
        #expect(notAMap.count == 1)
        #expect(notAMap.first?.problem.message.contains("a mapping of conversation ids") == true)
    }

    @Test func meMatchesExactlyBeforeIgnoringCase() {
        let participants = [Participant(id: "alice", name: "Alice B"), Participant(id: "ALICE", name: "Alice")]
        #expect(MeSetting.match(["ALICE"], in: participants) == "ALICE")
        #expect(MeSetting.match(["alice"], in: participants) == "alice")
        #expect(MeSetting.match(["alice b"], in: participants) == "alice")
        #expect(MeSetting.match(["nobody", "Alice"], in: participants) == "ALICE")
        #expect(MeSetting.match(["nobody"], in: participants) == nil)
    }

    @Test func theWarningsMeLineReadsBackAsTheName() throws {
        for name in ["Henry", "Grace 🧤 💍\u{8D}", "O'Neil: \"Al\"", "-dash", "back\\slash"] {
            let warning = try #require(MeSetting.unresolvedWarning([(id: "chat", choices: [name, "Other"])]))
            let text = warning.problem.message
            let start = try #require(text.range(of: "`me: "))
            let end = try #require(text[start.upperBound...].range(of: "`"))
            let line = "me: " + text[start.upperBound..<end.lowerBound]
            let (config, diagnostics) = try read(line + "\n")
            #expect(diagnostics.isEmpty, "\(line)")
            #expect(config.me.names == [name], "\(line)")
        }
    }
}
