import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading

/// Slack's per-day files are read with the parser's slot path over a top-level array, skipping
/// the members the importer does not use: the same values and the same errors as the tree, and
/// the importer's located errors, counts and participants.
@Suite struct SlackReadingTests {
    static let fields = ["ts", "text", "files"]

    /// The objects' slots (first members, as `[name: value]`, plus `@` = line:column) and the
    /// other elements, or the error, read the slot way.
    func slots(_ text: String) -> Result<[[String: JSONValue]], Diagnostic> {
        var objects: [[String: JSONValue]] = []
        do throws(Diagnostic) {
            let root = try JSONParser.parse(
                Array(text.utf8), file: "day.json", streamingObjectsOfTopLevelArrayWith: Self.fields,
                to: { object, _ in
                    var values: [String: JSONValue] = [:]
                    for (slot, value) in object.values.enumerated() {
                        if let value { values[Self.fields[slot]] = value.jsonValue }
                    }
                    #expect(object.otherKeys.isEmpty)
                    values["@"] = .string("\(object.line):\(object.column)")
                    objects.append(values)
                },
                otherElements: { node, _ in objects.append(["other": node.jsonValue]) })
            if root.elements == nil { objects.append(["root": root.jsonValue]) }
            return .success(objects)
        } catch {
            return .failure(error)
        }
    }

    /// The same from the whole tree.
    func tree(_ text: String) -> Result<[[String: JSONValue]], Diagnostic> {
        do throws(Diagnostic) {
            let root = try JSONParser.parse(Array(text.utf8), file: "day.json")
            guard let elements = root.elements else { return .success([["root": root.jsonValue]]) }
            return .success(
                elements.map { node in
                    guard let members = node.members else { return ["other": node.jsonValue] }
                    var values: [String: JSONValue] = [:]
                    for member in members where Self.fields.contains(member.key) && values[member.key] == nil {
                        values[member.key] = member.value.jsonValue
                    }
                    values["@"] = .string("\(node.line):\(node.column)")
                    return values
                })
        } catch {
            return .failure(error)
        }
    }

    @Test func topLevelArraySlotsMatchTheTree() throws {
        let text = #"""
            [
                {"ts": "1.5", "user_profile": {"display_name": "A", "fields": [1, 2.5e-3, true, null, {}]},
                 "text": "caf\u00e9", "t\u0073": "second ts is ignored", "files": [{"id": "F1"}]},
                7, "string", [1, [2]], null, {},
                {"replies": [{"user": "U1", "ts": "2"}], "text": "escaped \"skip\": \ud83c\udf89", "ts": "3"}
            ]
            """#
        let fromSlots = try slots(text).get()
        #expect(fromSlots.count == 7)
        #expect(fromSlots == (try tree(text).get()))
        #expect(fromSlots[0]["text"] == .string("café"))
        #expect(fromSlots[0]["ts"] == .string("1.5"))
        // A document that is not an array streams nothing and comes back whole.
        #expect((try slots(#"{"ts": "1"}"#).get()) == [["root": .object([(key: "ts", value: .string("1"))])]])
    }

    /// Errors inside the members that are skipped are the tree's errors, at the same places.
    @Test func skippedMembersGiveTheTreesErrors() {
        let broken = [
            #"[{"ts": "1", "user_profile": {"a": 1,}}]"#,
            #"[{"ts": "1", "user_profile": {"a" 1}}]"#,
            #"[{"ts": "1", "user_profile": {a: 1}}]"#,
            #"[{"ts": "1", "user_profile": {"a": 1 "b": 2}}]"#,
            #"[{"ts": "1", "replies": [1, 2,]}]"#,
            #"[{"ts": "1", "replies": [1 2]}]"#,
            #"[{"ts": "1", "replies": [}]"#,
            #"[{"ts": "1", "team": "unterminated}]"#,
            "[{\"ts\": \"1\", \"team\": \"line\nbreak\"}]",
            #"[{"ts": "1", "team": "bad \x escape"}]"#,
            #"[{"ts": "1", "team": "\ud800"}]"#,
            #"[{"ts": "1", "upload": tru}]"#,
            #"[{"ts": "1", "upload": nul}]"#,
            #"[{"ts": "1", "size": 01}]"#,
            #"[{"ts": "1", "size": -}]"#,
            #"[{"ts": "1", "size": 1.}]"#,
            #"[{"ts": "1", "size": 1e}]"#,
            #"[{"ts": "1", "upload": }]"#,
            #"[{"ts": "1", "upload": @}]"#,
            #"[{"ts": "1", "user_profile": {"#,
            #"[{"ts": "1", "user_profile": {"a": [1"#,
            #"[{"ts": "1", "replies": ["#,
            #"[{"ts": "1", "x": 1}, ]"#,
            #"[{"ts": "1", "x": 1}] trailing"#,
            #"[{"ts": "1", "x": 1} {"ts": "2"}]"#,
            #"[{"ts": "1", "x": {"y": 1}, }]"#,
        ]
        for text in broken {
            guard case .failure(let slotError) = slots(text), case .failure(let treeError) = tree(text) else {
                Issue.record("expected both to fail: \(text)")
                continue
            }
            #expect(slotError == treeError, "\(text)")
        }
        let invalidUTF8 = Array(#"[{"ts": "1", "team": "a"#.utf8) + [0xFF] + Array(#""}]"#.utf8)
        var slotError: Diagnostic?
        var treeError: Diagnostic?
        do throws(Diagnostic) {
            _ = try JSONParser.parse(
                invalidUTF8, file: "day.json", streamingObjectsOfTopLevelArrayWith: Self.fields, to: { _, _ in },
                otherElements: { _, _ in })
        } catch { slotError = error }
        do throws(Diagnostic) { _ = try JSONParser.parse(invalidUTF8, file: "day.json") } catch { treeError = error }
        #expect(slotError != nil)
        #expect(slotError == treeError)
    }

    @Test func nestingLimitHoldsInSkippedMembers() {
        let depth = JSONParser.maximumDepth
        for extra in [-1, 0, 1] {
            let inner = depth - 2 + extra
            let text =
                #"[{"ts": "1", "blocks_we_skip": "# + String(repeating: "[", count: inner)
                + String(repeating: "]", count: inner) + "}]"
            switch (slots(text), tree(text)) {
            case (.success, .success): #expect(extra <= 0, "depth \(inner) should fail")
            case (.failure(let left), .failure(let right)): #expect(left == right)
            default: Issue.record("slot and tree paths disagree at nesting \(inner)")
            }
        }
    }

    // MARK: the importer

    /// Writes `files` (path → contents) under a new temporary folder.
    static func export(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("slack-\(UUID().uuidString)")
        for (path, contents) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
        return root
    }

    static func read(_ root: URL) -> (conversations: [ImportedConversation], diagnostics: [Diagnostic]) {
        #expect(SlackImporter.detect(ExportCandidate(url: root)))
        var conversations: [ImportedConversation] = []
        let diagnostics = SlackImporter.read(
            DetectedExport(format: .slack, items: [root], root: root),
            context: ImportContext(root: root, config: SiteConfig()), emit: { conversations.append($0) })
        return (conversations, diagnostics)
    }

    static let metadata = [
        "users.json": #"[{"id": "U1", "name": "ann", "profile": {"display_name": "Ann"}}]"#,
        "channels.json": #"[{"id": "C1", "name": "general", "members": ["U1"]}, {"id": "C2", "name": "random"}]"#,
    ]

    @Test func badDayFilesAreLocatedAndSinkNothingElse() throws {
        var files = Self.metadata
        files["general/2024-01-01.json"] = """
            [
                {"type": "message", "user": "U1", "ts": "1704067200.000100", "text": "kept",
                 "user_profile": {"display_name": "x"}},
                42,
                {"type": "message", "user": "U1", "ts": 1704067201, "text": "numeric ts"},
                {"type": "message", "user": "U1", "ts": "1704067202.000000", "text": "also kept"}
            ]
            """
        files["general/2024-01-02.json"] = """
            [
                {"type": "message", "user": "U1", "ts": "1704153600.000000", "text": "lost with its file"},
                {"type": "message", "user": "U1", "ts": "1704153601.000000", "team": "T1",}
            ]
            """
        files["general/2024-01-03.json"] = #"{"messages": []}"#
        files["random/2024-01-01.json"] = #"[{"type": "message", "user": "U1", "ts": "1704067200.5", "text": "hi"}]"#
        let root = try Self.export(files)
        defer { try? FileManager.default.removeItem(at: root) }
        let (conversations, exportDiagnostics) = Self.read(root)
        #expect(exportDiagnostics.isEmpty)
        #expect(conversations.map(\.key) == [root.lastPathComponent + "/general", root.lastPathComponent + "/random"])
        let general = conversations[0]
        let errors = general.diagnostics.filter { $0.severity == .error }.map { diagnostic in
            let location = diagnostic.location
            let file = ((location?.file ?? "") as NSString).lastPathComponent
            return "\(file):\(location?.line ?? 0):\(location?.column ?? 0) \(diagnostic.problem)"
        }
        #expect(errors.count == 2)
        #expect(errors[0].hasPrefix("2024-01-02.json:3:79 "), "\(errors)")  // the trailing comma
        #expect(errors[1].hasPrefix("2024-01-03.json:1:1 "), "\(errors)")  // not an array
        // A record that is not a message is left out with a located warning, never silently.
        let warnings = general.diagnostics.filter { $0.severity == .warning }.map { diagnostic in
            let location = diagnostic.location
            let file = ((location?.file ?? "") as NSString).lastPathComponent
            return "\(file):\(location?.line ?? 0):\(location?.column ?? 0) \(diagnostic.problem)"
        }
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.first?.hasPrefix("2024-01-01.json:4:5 ") == true, "\(warnings)")  // not an object
        #expect(warnings.first?.contains("[1]") == true, "\(warnings)")
        #expect(warnings.last?.hasPrefix("2024-01-01.json:5:45 ") == true, "\(warnings)")  // the ts that is a number
        // Only the records of files that parse count, each built or left out with its reason;
        // a file that does not parse keeps the conversation's last good pages.
        #expect(general.messagesIn == 4)
        #expect(general.ledger.leftOut.map(\.reason) == ["not a message object", "a ts that is not a Slack timestamp"])
        #expect(general.ledger.leftOut.map { $0.location?.line } == [4, 5])
        #expect(general.conversation == nil)
        // The other conversation is untouched.
        #expect(conversations[1].diagnostics.isEmpty)
        #expect(conversations[1].conversation?.messages.map(\.id) == ["1704067200.5"])
        #expect(conversations[1].conversation?.messages.first?.source?.path == "$[0]")
    }

    @Test func participantsComeInMessageOrderAcrossDays() throws {
        var files = Self.metadata
        // Day files sort by name; each names senders the metadata does not know.
        files["random/2024-01-02.json"] = """
            [
                {"type": "message", "user": "U3", "ts": "1704153600.000000", "text": "third",
                 "user_profile": {"display_name": "Profile Three"}},
                {"type": "message", "user": "U2", "ts": "1704153601.000000", "text": "again",
                 "user_profile": {"display_name": "Renamed Two"}}
            ]
            """
        files["random/2024-01-01.json"] = """
            [
                {"type": "message", "user": "U2", "ts": "1704067200.000000", "text": "first",
                 "user_profile": {"display_name": "Profile Two"},
                 "reactions": [{"name": "+1", "users": ["U4", "U1"]}]},
                {"type": "message", "subtype": "bot_message", "bot_id": "B1", "username": "hook", "ts": "1704067201.0",
                 "text": "from a hook"},
                {"type": "message", "subtype": "bot_message", "bot_id": "B2", "ts": "1704067202.0", "text": "bot",
                 "bot_profile": {"id": "B2", "name": "Old name"}},
                {"type": "message", "subtype": "bot_message", "bot_id": "B2", "ts": "1704067203.0", "text": "bot",
                 "bot_profile": {"id": "B2", "name": "New name"}},
                {"type": "message", "ts": "1704067204.0", "text": "nobody"}
            ]
            """
        let root = try Self.export(files)
        defer { try? FileManager.default.removeItem(at: root) }
        let (conversations, _) = Self.read(root)
        let random = try #require(conversations.first { $0.key.hasSuffix("/random") }?.conversation)
        #expect(random.participants.map(\.id) == ["U2", "U4", "U1", "B1", "B2", "unknown", "U3"])
        #expect(
            random.participants.map(\.name) == [
                "Profile Two", "U4", "Ann", "hook", "New name", "Unknown", "Profile Three",
            ])
        #expect(random.messages.map { $0.reactions.first?.emoji } == ["👍", nil, nil, nil, nil, nil, nil])
        #expect(random.messages.map(\.sender) == ["U2", "B1", "B2", "B2", "unknown", "U3", "U2"])
    }

    /// A bot is named by its profile, its message's `username`, the bot users of `users.json`
    /// or the export's `bots.json`, and never by its raw `B…` id.
    @Test func botsAreNamedNeverByTheirIds() throws {
        var files = Self.metadata
        files["users.json"] =
            #"[{"id": "U1", "name": "ann"}, {"id": "U9", "name": "deploy", "is_bot": true, "profile": {"bot_id": "B1", "real_name": "Deploy"}}]"#
        files["bots.json"] = #"[{"id": "B2", "name": "Standup"}]"#
        files["general/2024-01-01.json"] = """
            [
                {"type": "message", "subtype": "bot_message", "bot_id": "B1", "ts": "1.0", "text": "a"},
                {"type": "message", "subtype": "bot_message", "bot_id": "B2", "ts": "2.0", "text": "b"},
                {"type": "message", "subtype": "bot_message", "bot_id": "B3", "ts": "3.0", "text": "c"},
                {"type": "message", "bot_id": "B4", "ts": "4.0", "text": "d", "bot_profile": {"id": "B4", "name": "Polly"}}
            ]
            """
        let root = try Self.export(files)
        defer { try? FileManager.default.removeItem(at: root) }
        let (conversations, _) = Self.read(root)
        let general = try #require(conversations.first?.conversation)
        let names = Dictionary(uniqueKeysWithValues: general.participants.map { ($0.id, $0.name) })
        #expect(general.messages.map { names[$0.sender ?? ""] } == ["Deploy", "Standup", "Unknown bot", "Polly"])
    }

    // MARK: mrkdwn

    /// Text without formatting stays plain text (mentions, bare links, entities and shortcodes
    /// resolved); anything that needs Markdown gives `nil`.
    @Test func plainMrkdwnIsTextAsShown() {
        let text = SlackText(users: ["U1": "Ann"])
        #expect(text.plainText(ifSimple: "plain words, nothing else") == "plain words, nothing else")
        #expect(
            text.plainText(ifSimple: "Hi <@U1>, see <https://x.org/a> :tada: &lt;b&gt; &amp; at 10:30 :nope:")
                == "Hi @Ann, see https://x.org/a 🎉 <b> & at 10:30 :nope:")
        #expect(text.plainText(ifSimple: "<mailto:a@x.org|a@x.org> <#C1|general> <!here>") == "a@x.org #general @here")
        #expect(text.plainText(ifSimple: "<https://x.org|a label>") == nil)
        #expect(text.plainText(ifSimple: "some *bold*") == nil)
        // Line breaks stay text (a list marker too, as Slack shows it); a quote at a line start does not.
        #expect(text.plainText(ifSimple: "two\nlines\r\n1. one\n- two &gt; 3") == "two\nlines\r\n1. one\n- two > 3")
        #expect(text.plainText(ifSimple: "&gt; quoted") == nil)
        #expect(text.plainText(ifSimple: "said:\n&gt; quoted") == nil)
        #expect(text.plainText(ifSimple: "said:\n> quoted") == nil)
        #expect(text.plainText(ifSimple: "a &amp;gt; b\n&amp;gt; c") == "a &gt; b\n&gt; c")
        #expect(text.plainText(ifSimple: "é:tada:ü :+1::thumbsup:") == "é🎉ü 👍👍")
        // Underscores inside a shortcode are no emphasis, known or not; elsewhere they may be.
        #expect(text.plainText(ifSimple: ":raised_hands::not_an_emoji: ok") == "🙌:not_an_emoji: ok")
        #expect(text.plainText(ifSimple: ":_x_: and :a__b:") == nil)
        #expect(text.plainText(ifSimple: "snake_case") == nil)
    }

    /// Code is copied as written (entities decoded), emphasis becomes Markdown's, references
    /// become links or text, and every other Markdown character stays text.
    @Test func mrkdwnBecomesMarkdown() {
        let text = SlackText(users: ["U1": "Ann"])
        #expect(text.markdown(mrkdwn: "a `c<d` ```x &lt; y``` *b*") == "a `c<d` \n```\nx < y\n```\n **b**")
        #expect(
            text.markdown(mrkdwn: "see <https://x.org/a|the *site*> <@U1> <!here> <#C1|general> [x] #1")
                == "see [the \\*site\\*](<https://x.org/a>) @Ann @here \\#general \\[x\\] \\#1")
        // An unclosed fence: an empty code span, then a backtick as text.
        #expect(text.markdown(mrkdwn: "_it_ ~gone~ :tada: ```never closed") == "_it_ ~~gone~~ 🎉 ``\\`never closed")
    }

    /// Shortcodes are replaced where the name is known, whatever surrounds them; a colon that
    /// opens nothing (a time, a URL, a name too long or not made of shortcode characters) stays.
    @Test func shortcodesAreReplacedOnlyWhereKnown() {
        #expect(SlackText.replacingShortcodes("no colon") == "no colon")
        #expect(SlackText.replacingShortcodes("at 10:30, https://x.org:8080/a:b") == "at 10:30, https://x.org:8080/a:b")
        #expect(SlackText.replacingShortcodes(":tada::+1:x:fire:") == "🎉👍x🔥")
        #expect(SlackText.replacingShortcodes("a:bq:tada:") == "a:bq🎉")
        #expect(
            SlackText.replacingShortcodes(":tádá: :TADA: :: :\(String(repeating: "a", count: 40)):")
                == ":tádá: :TADA: :: :\(String(repeating: "a", count: 40)):")
        #expect(SlackText.replacingShortcodes("é:smile:ü") == "é😄ü")
    }

    /// Escaping for Markdown works on bytes: every special ASCII character is escaped, wherever
    /// it stands (before a combining mark too), and other text is left as it is.
    @Test func markdownEscapingIsPerByte() {
        #expect(ChatMarkup.escapeMarkdown("plain café 🎉") == "plain café 🎉")
        #expect(
            ChatMarkup.escapeMarkdown("a*b_c~d`e#f|g[h]i\\j<k&l") == "a\\*b\\_c\\~d\\`e\\#f\\|g\\[h\\]i\\\\j\\<k\\&l")
        #expect(ChatMarkup.escapeMarkdown("<\u{301}x") == "\\<\u{301}x")
    }

    /// Code blocks and spans keep their text; only line breaks around a block are trimmed, by
    /// Foundation's rules (`trimmingCharacters(in: .newlines)`), also for Unicode line breaks.
    @Test func codeKeepsItsText() {
        for code in ["x", "\nx\r\n", "\n\n", "", "\u{2028}x\n", "é\n", "\n 𝑥 \n\u{85}", "a\nb"] {
            #expect(ChatMarkup.trimming(code, in: .newlines) == code.trimmingCharacters(in: .newlines))
        }
        #expect(ChatMarkup.codeSpan("a\nb") == "`a b`")
        #expect(ChatMarkup.codeBlock("\nlet x = 1\n") == "\n```\nlet x = 1\n```\n")
        for text in ["x", " x ", "\tx", "\u{3000}x", "x\u{A0}", "", "  ", "🎉 "] {
            #expect(ChatMarkup.trimming(text, in: .whitespaces) == text.trimmingCharacters(in: .whitespaces))
        }
    }
}
