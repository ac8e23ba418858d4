import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading

@Suite struct JSONTextTests {
    @Test func quotedEscapesWhatJSONAndJavaScriptNeedAndReadsBack() throws {
        let text = "a\"b\\c\nd\re\tf\u{1}g\u{1F}h\u{2028}i\u{2029}j/ké🎉"
        let quoted = JSONText.quoted(text)
        #expect(quoted == #""a\"b\\c\nd\re\tf\u0001g\u001fh\u2028i\u2029j/ké🎉""#)
        let decoded = try JSONSerialization.jsonObject(with: Data("[\(quoted)]".utf8)) as? [String]
        #expect(decoded == [text])
    }
}

@Suite struct JSONLogReaderTests {
    func message(_ body: String, extra: String = "") throws -> (Message?, ReadResult) {
        let result = try readLog(log(messages: body, extra: extra))
        return (result.conversation?.messages.first, result)
    }

    @Test func everyKindOfTheFixture() throws {
        let folder = fixturesFolder.appendingPathComponent("json")
        let reader = LogReader(inputRoot: folder, config: SiteConfig())
        let result = reader.read(folder.appendingPathComponent("all-kinds.json"))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let conversation = try #require(result.conversation)
        #expect(conversation.id == "all-kinds")
        #expect(conversation.title == "Every kind")
        #expect(conversation.description == "One message of each kind of spec section 1")
        #expect(conversation.me == "alice")
        #expect(conversation.timeZone == "America/New_York")
        #expect(conversation.source.file == "json/all-kinds.json")

        let redPath = folder.appendingPathComponent("media/red.png").path
        let alice = try #require(conversation.participant("alice"))
        guard case .local(let avatar)? = alice.avatar else {
            Issue.record("avatar should be local: \(String(describing: alice.avatar))")
            return
        }
        #expect(avatar.sourcePath == redPath)
        #expect(avatar.sitePath.hasPrefix("media/") && avatar.sitePath.hasSuffix(".png"))
        #expect(avatar.sitePath.count == "media/".count + 16 + ".png".count)
        #expect(avatar.pixelSize == PixelSize(width: 3, height: 2))
        #expect(alice.color == "#abc")
        #expect(conversation.participant("bob")?.avatar == .remote("https://example.com/bob.png"))

        let byID = Dictionary(uniqueKeysWithValues: conversation.messages.map { ($0.id, $0) })
        #expect(
            conversation.messages.map(\.kind.name.rawValue) == [
                "text", "emoji", "attributedText", "attributedText", "photo", "video", "audio", "location", "contact",
                "linkPreview", "system", "custom",
            ])
        let text = try #require(byID["text"])
        #expect(text.kind == .text("Hello\nworld"))
        #expect(text.sender == "alice")
        #expect(text.status == .read)
        #expect(text.edited == Date(timeIntervalSince1970: 1_714_727_100.5))
        #expect(text.reactions == [Reaction(emoji: "👍", senders: ["bob", "alice"])])
        #expect(text.location == SourceLocation(file: "json/all-kinds.json", line: 14, column: 5))
        #expect(byID["emoji"]?.kind == .emoji("🎉🎉"))
        #expect(byID["system"]?.kind == .system("Bob left"))
        #expect(byID["system"]?.sender == nil)
        guard case .attributedText(let rich)? = byID["md"]?.kind else {
            Issue.record("md should be attributedText")
            return
        }
        // The renderer (stub or real) saw the Markdown; plain text keeps the words.
        #expect(rich.plainText.contains("bold"))

        #expect(
            byID["photo"]?.kind
                == .photo(
                    MediaItem(
                        source: .local(avatar), size: PixelSize(width: 3, height: 2), alt: "A red box", caption: "Red"))
        )
        #expect(
            byID["video"]?.kind
                == .video(
                    MediaItem(
                        source: .remote("https://example.com/v.mp4"), size: PixelSize(width: 640, height: 360),
                        poster: .local(avatar), duration: 12.5)))
        #expect(
            byID["audio"]?.kind
                == .audio(
                    MediaItem(
                        source: .remote("https://example.com/a.mp3"), duration: 61, title: "Voice note")))
        #expect(
            byID["location"]?.kind
                == .location(
                    LocationItem(
                        latitude: 52.52, longitude: -13.405, name: "Berlin", address: "Alexanderplatz")))
        #expect(
            byID["contact"]?.kind
                == .contact(
                    ContactItem(
                        name: "Carol", phones: ["+49 30 123"], emails: ["carol@example.com"])))
        #expect(
            byID["link"]?.kind
                == .linkPreview(
                    text: "Look",
                    link: LinkItem(
                        url: "https://example.com/post", title: "A post", teaser: "Teaser", thumbnail: .local(avatar),
                        siteName: "Example")))
        let custom = try #require(byID["custom"])
        #expect(custom.replyTo == "text")
        #expect(
            custom.kind
                == .custom(
                    CustomItem(
                        id: "poll",
                        data: .object([
                            (key: "question", value: .string("Dinner?")),
                            (key: "options", value: .array([.string("Pizza"), .string("Ramen")])),
                            (key: "votes", value: .number("1.50")),
                            (key: "open", value: .bool(true)),
                            (key: "note", value: .null),
                        ]))))

        var expectedLayout = LayoutOverrides()
        expectedLayout.grouping = .sameSender(gap: 120)
        expectedLayout.groupGap = 120
        expectedLayout.collapseTimestamps = .top
        expectedLayout.messageMaxWidth = .px(480)
        expectedLayout.timestampFormat = .pattern("HH:mm")
        expectedLayout.locale = "de_DE"
        #expect(conversation.layout == expectedLayout)
        // The one file, referenced four times, is one asset to copy.
        #expect(reader.mediaAssets == [avatar])
    }

    @Test func defaults() throws {
        let result = try readLog(
            #"{"participants": [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Ben"}], "messages": [{"id": "1", "sender": "a", "date": "2024-01-01T00:00:00Z", "text": "hi"}]}"#,
            name: "Weekend Trip (2024).json")
        #expect(result.diagnostics.isEmpty)
        let conversation = try #require(result.conversation)
        #expect(conversation.id == "weekend-trip-2024")
        #expect(conversation.title == nil)
        #expect(conversation.displayTitle == "Ann, Ben")
        #expect(conversation.me == nil)
        #expect(conversation.timeZone == nil)
        #expect(conversation.description == nil)
        #expect(conversation.section == nil)
        #expect(conversation.layout == LayoutOverrides())
        let message = try #require(conversation.messages.first)
        #expect(message.kind == .text("hi"))
        #expect(message.replyTo == nil && message.edited == nil && message.status == nil && message.reactions.isEmpty)
        #expect(conversation.participants[0].avatar == nil && conversation.participants[0].color == nil)
    }

    /// `section` (the index heading a log is listed under) is read without a warning.
    @Test func sectionIsRead() throws {
        let result = try readLog(
            #"{"section": "Channels", "participants": [{"id": "a", "name": "Ann"}], "messages": []}"#, name: "c.json")
        #expect(result.diagnostics.isEmpty)
        #expect(result.conversation?.section == "Channels")
    }

    @Test func slugs() {
        #expect(ConversationSlug.make(from: "Weekend Trip (2024)") == "weekend-trip-2024")
        #expect(ConversationSlug.make(from: "--Café__chat--") == "café-chat")
        #expect(ConversationSlug.make(from: "../../etc") == "etc")
        // Letters of every script are kept (issue 11: non-Latin names all became `conversation`).
        #expect(ConversationSlug.make(from: "日本") == "日本")
    }

    @Test func givenIDThatIsNoSlugIsSlugifiedWithAWarning() throws {
        let result = try readLog(log(messages: "", extra: #""id": "../Secret Plans","#))
        #expect(result.conversation?.id == "secret-plans")
        #expect(result.warnings.count == 1)
        #expect(result.errors.isEmpty)
    }

    @Test func messagesAreSortedByDateAndTiesKeepFileOrder() throws {
        let result = try readLog(
            log(
                messages: """
                    {"id": "c", "sender": "alice", "date": "2024-01-01T10:00:00Z", "text": "c"},
                    {"id": "a", "sender": "alice", "date": "2024-01-01T09:00:00Z", "text": "a"},
                    {"id": "d", "sender": "bob", "date": "2024-01-01T10:00:00Z", "text": "d"},
                    {"id": "b", "sender": "bob", "date": "2024-01-01T11:00:00+02:00", "text": "b"}
                    """))
        #expect(result.conversation?.messages.map(\.id) == ["a", "b", "c", "d"])
    }

    @Test func versionDefaultsToOneAndOthersAreErrors() throws {
        #expect(try readLog(log(messages: "", extra: #""version": 1,"#)).conversation != nil)
        for written in [#""2""#, "2", "1.5", "true"] {
            let result = try readLog(log(messages: "", extra: "\"version\": \(written),"))
            #expect(result.conversation == nil)
            #expect(result.errors.count == 1)
            #expect(result.errors.first?.location?.line == 1)
            #expect(result.errors.first?.location?.column == 13)
        }
    }

    @Test func allErrorsOfAFileAreCollected() throws {
        let result = try readLog(
            log(
                messages: """
                    {"id": "1", "sender": "zed", "date": "2024-01-01T00:00:00Z", "text": "x"},
                    {"id": "2", "sender": "alice", "date": "nope", "text": "x"},
                    {"id": "3", "sender": "alice", "date": "2024-01-01T00:00:00Z", "kind": "gif"},
                    {"id": "4", "date": "2024-01-01T00:00:00Z", "text": "x"},
                    {"id": "5", "sender": "alice", "date": "2024-01-01T00:00:00Z", "text": "x",
                     "reactions": [{"emoji": "x", "senders": ["alice", "ghost"]}]}
                    """))
        #expect(result.conversation == nil)
        #expect(
            result.errors.map(\.problem) == [
                .unknownSender("zed"),
                .invalidDate("nope", expected: ISO8601DateParser.expectedForm),
                .unknownKind("gif"),
                .missingField("sender"),
                .unknownSender("ghost"),
            ])
        #expect(result.errors.map { $0.location!.line } == [3, 4, 5, 6, 8])
        #expect(result.errors.allSatisfy { $0.location?.file == "\(result.errors[0].location!.file)" })
    }

    @Test func unknownReplyTargetIsAWarningAndTheMessageStays() throws {
        let (message, result) = try message(
            #"{"id": "1", "sender": "alice", "date": "2024-01-01T00:00:00Z", "text": "x", "replyTo": "zzz"}"#)
        #expect(result.errors.isEmpty)
        #expect(result.warnings.map(\.problem) == [.unknownReplyTarget("zzz")])
        #expect(message?.replyTo == nil)
    }

    /// A reaction's `count` keeps reactors an export only counts (never as participants);
    /// `scrollback import` writes it back, so a log built again shows the same number.
    @Test func reactionCountKeepsUnnamedReactors() throws {
        let result = try readLog(
            log(
                messages: #"""
                    {"id": "1", "sender": "alice", "date": "2024-01-01T00:00:00Z", "text": "x",
                     "reactions": [{"emoji": "👆", "senders": [], "count": 42}, {"emoji": "👍", "senders": ["bob"], "count": 3},
                                   {"emoji": "🎉", "senders": ["bob"]}, {"emoji": "👀", "senders": ["alice", "bob"], "count": 1}]}
                    """#))
        let conversation = try #require(result.conversation)
        #expect(result.warnings.count == 1)  // a count below its senders
        let reactions = conversation.messages[0].reactions
        #expect(reactions.map(\.count) == [42, 3, 1, 2])
        #expect(reactions.map(\.senders) == [[], ["bob"], ["bob"], ["alice", "bob"]])
        #expect(conversation.participants.map(\.id) == ["alice", "bob"])
        let written = JSONLogWriter(mediaPath: { $0.sitePath }).write(conversation)
        #expect(written.contains(#"{"emoji": "👆", "senders": [], "count": 42}"#), "\(written)")
        #expect(written.contains(#"{"emoji": "🎉", "senders": ["bob"]}"#))
        let again = try #require(try readLog(written).conversation)
        #expect(again.messages[0].reactions == reactions)

        let wrong = try readLog(
            log(
                messages: #"""
                    {"id": "1", "sender": "alice", "date": "2024-01-01T00:00:00Z", "text": "x",
                     "reactions": [{"emoji": "?", "senders": [], "count": "many"}]}
                    """#))
        #expect(
            wrong.errors.map(\.problem) == [
                .wrongType(field: "count", expected: "a whole number of people, not a string")
            ])
    }

    /// A reaction's `customEmoji` (name, image, animated) is read with its image resolved as
    /// media, written back by `import` and read again the same; without a name it is an error.
    @Test func reactionCustomEmojiIsReadAndWrittenBack() throws {
        let result = try readLog(
            log(
                messages: #"""
                    {"id": "1", "sender": "alice", "date": "2024-01-01T00:00:00Z", "text": "x",
                     "reactions": [{"emoji": ":party:", "customEmoji": {"name": "party", "url": "https://cdn.example/party.gif", "animated": true}, "senders": ["bob"]},
                                   {"emoji": ":gone:", "customEmoji": {"name": "gone", "url": "emoji/gone.png"}, "senders": ["alice"]},
                                   {"emoji": "👍", "senders": ["bob"]}]}
                    """#))
        let conversation = try #require(result.conversation)
        #expect(result.errors.isEmpty)
        let reactions = conversation.messages[0].reactions
        #expect(
            reactions.map(\.customEmoji) == [
                CustomEmoji(name: "party", image: .remote("https://cdn.example/party.gif"), isAnimated: true),
                CustomEmoji(name: "gone", image: .unavailable(original: "emoji/gone.png")), nil,
            ])
        #expect(result.warnings.map(\.problem) == [.missingMediaFile("emoji/gone.png")])
        let written = JSONLogWriter(mediaPath: { $0.sitePath }).write(conversation)
        #expect(
            written.contains(
                #"{"emoji": ":party:", "customEmoji": {"name": "party", "url": "https://cdn.example/party.gif", "animated": true}, "senders": ["bob"]}"#
            ), "\(written)")
        #expect(written.contains(#"{"emoji": "👍", "senders": ["bob"]}"#))
        #expect(try readLog(written).conversation?.messages[0].reactions == reactions)

        let nameless = try readLog(
            log(
                messages: #"""
                    {"id": "1", "sender": "alice", "date": "2024-01-01T00:00:00Z", "text": "x",
                     "reactions": [{"emoji": "?", "customEmoji": {"url": "a.png", "size": 3}, "senders": []}]}
                    """#))
        #expect(nameless.errors.count == 1 && nameless.warnings.count == 1, "\(nameless.errors) \(nameless.warnings)")
        #expect(nameless.conversation.map { $0.messages[0].reactions.map(\.customEmoji) } ?? [nil] == [nil])
    }

    @Test func badColorIsAWarningAndIgnored() throws {
        let result = try readLog(
            #"""
            {"participants": [{"id": "a", "name": "A", "color": "red;background:url(x)"}], "messages": []}
            """#)
        #expect(result.conversation?.participants.first?.color == nil)
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.location?.column == 53)
    }

    @Test func duplicateParticipantIsAnError() throws {
        let result = try readLog(
            #"{"participants": [{"id": "a", "name": "A"}, {"id": "a", "name": "B"}], "messages": []}"#)
        #expect(result.conversation == nil)
        let error = try #require(result.errors.first)
        #expect(
            error.problem
                == .duplicateParticipantID(
                    "a", firstAt: SourceLocation(file: error.location!.file, line: 1, column: 26)))
        #expect(error.location?.column == 52)
        #expect(error.location?.file.hasSuffix("/log.json") == true)
    }

    @Test func linkPreviewWithUnsafeURLBecomesText() throws {
        let (message, result) = try message(
            #"{"id": "1", "sender": "alice", "date": "2024-01-01T00:00:00Z", "kind": "linkPreview", "text": "see", "link": {"url": "javascript:alert(1)"}}"#
        )
        #expect(message?.kind == .text("see"))
        #expect(result.warnings.count == 1)
        #expect(result.errors.isEmpty)
    }

    @Test func locationOutOfRangeIsAnError() throws {
        let (_, result) = try message(
            #"{"id": "1", "sender": "alice", "date": "2024-01-01T00:00:00Z", "kind": "location", "location": {"latitude": 91, "longitude": 0}}"#
        )
        #expect(result.conversation == nil)
        #expect(result.errors.count == 1)
        #expect(result.errors.first?.location?.column == 122)
    }

    @Test func missingPayloadIsAnError() throws {
        let (_, result) = try message(
            #"{"id": "1", "sender": "alice", "date": "2024-01-01T00:00:00Z", "kind": "photo"}"#)
        #expect(result.errors.map(\.problem) == [.missingField("media")])
    }

    @Test func statusMustBeKnown() throws {
        let (message, result) = try message(
            #"{"id": "1", "sender": "alice", "date": "2024-01-01T00:00:00Z", "text": "x", "status": "seen"}"#)
        #expect(message?.status == nil)
        #expect(result.warnings.count == 1)
    }

    @Test func unknownTimeZoneIsAnError() throws {
        let result = try readLog(log(messages: "", extra: #""timezone": "Mars/Olympus","#))
        #expect(result.errors.map(\.problem) == [.unknownTimeZone("Mars/Olympus")])
        let inLayout = try readLog(log(messages: "", extra: #""layout": {"timezone": "Mars/Olympus"},"#))
        #expect(inLayout.errors.map(\.problem) == [.unknownTimeZone("Mars/Olympus")])
    }

    @Test func wrongTopLevelShape() throws {
        let result = try readLog("[1, 2]")
        #expect(result.errors.count == 1)
        let missing = try readLog("{}")
        #expect(missing.errors.map(\.problem) == [.missingField("participants"), .missingField("messages")])
    }

    @Test func remoteMediaOffGivesUnavailableWithoutWarning() throws {
        var config = SiteConfig()
        config.remoteMedia = false
        let result = try readLog(
            log(
                messages:
                    #"{"id": "1", "sender": "alice", "date": "2024-01-01T00:00:00Z", "kind": "photo", "media": {"url": "https://example.com/x.jpg"}}"#
            ),
            config: config)
        #expect(result.diagnostics.isEmpty)
        #expect(
            result.conversation?.messages.first?.kind
                == .photo(MediaItem(source: .unavailable(original: "https://example.com/x.jpg"))))
    }

    @Test func participantsAfterMessagesAreStillChecked() throws {
        let result = try readLog(
            """
            {"messages": [
              {"id": "1", "sender": "bob", "date": "2024-01-01T00:00:00Z", "text": "x",
               "reactions": [{"emoji": "!", "senders": ["ann", "eve"]}]},
              {"id": "2", "sender": "mallory", "date": "2024-01-01T00:00:00Z", "text": "x"}
            ],
            "participants": [{"id": "bob", "name": "Bob"}, {"id": "ann", "name": "Ann"}]}
            """)
        #expect(result.errors.map(\.problem) == [.unknownSender("eve"), .unknownSender("mallory")])
        #expect(result.errors.map { $0.location!.line } == [3, 4])
        #expect(result.errors.map { $0.location!.column } == [52, 25])
        let good = try readLog(
            """
            {"messages": [{"id": "1", "sender": "bob", "date": "2024-01-01T00:00:00Z", "text": "x"}],
             "participants": [{"id": "bob", "name": "Bob"}], "me": "bob"}
            """)
        #expect(good.diagnostics.isEmpty)
        #expect(good.conversation?.messages.first?.sender == "bob")
    }

    @Test func inPlaceDateSortIsStableOnManyMessages() throws {
        var generator = SystemRandomNumberGenerator()
        let dates = (0..<500).map { _ in Date(timeIntervalSince1970: Double(Int.random(in: 0..<40, using: &generator)))
        }
        var messages = dates.enumerated().map { index, date in
            Message(
                id: String(index), sender: "a", date: date, kind: .text(""),
                location: SourceLocation(file: "f", line: index + 1, column: 1))
        }
        let expected = messages.enumerated().sorted { left, right in
            left.element.date != right.element.date
                ? left.element.date < right.element.date : left.offset < right.offset
        }.map(\.element.id)
        JSONLogSessionTesting.sortByDate(&messages, dates: dates)
        #expect(messages.map(\.id) == expected)
    }

    @Test func linkPreviewFieldsMissingFromTheLogComeFromASavedPage() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(
            """
            <html><head><title>Fallback</title>
            <meta property="og:url" content="https://example.org/post">
            <meta property="og:title" content="Saved title">
            <meta property="og:description" content="Saved teaser">
            <meta property="og:site_name" content="Saved site">
            <meta property="og:image" content="post_files/cover.gif">
            </head><body></body></html>
            """, to: "previews/post.html", in: folder)
        try write(
            Data(Array("GIF89a".utf8) + [40, 0, 20, 0, 0, 0, 0]), to: "previews/post_files/cover.gif", in: folder)
        let file = try write(
            log(
                messages: """
                    {"id": "1", "sender": "alice", "date": "2024-01-01T00:00:00Z", "kind": "linkPreview", "text": "read",
                     "link": {"url": "https://example.org/post", "title": "Mine"}}
                    """), to: "chat.json", in: folder)
        let result = LogReader(inputRoot: folder, config: SiteConfig()).read(file)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        guard case .linkPreview(let text, let link)? = result.conversation?.messages.first?.kind else {
            Issue.record("expected a link preview")
            return
        }
        #expect(text == "read")
        #expect(link.title == "Mine")  // the log wins
        #expect(link.teaser == "Saved teaser")
        #expect(link.siteName == "Saved site")
        #expect(
            link.thumbnail?.localAsset?.sourcePath
                == folder.appendingPathComponent("previews/post_files/cover.gif").path)
        #expect(link.thumbnail?.localAsset?.pixelSize == PixelSize(width: 40, height: 20))
    }
}
