import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackLayout

@Suite("Pages and day separators")
struct PaginationTests {
    /// Seven messages from Alice over two days, a minute apart within each day.
    private let week = [
        message("1", "alice", "2024-05-03T09:00:00Z"),
        message("2", "alice", "2024-05-03T09:01:00Z"),
        message("3", "alice", "2024-05-03T09:02:00Z"),
        message("4", "alice", "2024-05-04T09:00:00Z"),
        message("5", "alice", "2024-05-04T09:01:00Z"),
        message("6", "alice", "2024-05-04T09:02:00Z"),
        message("7", "alice", "2024-05-04T09:03:00Z"),
    ]

    @Test func pagesHoldPageSizeMessagesAndRepeatTheDayOnTop() {
        let layout = layOut(conversation(week), pageSize: 2)
        #expect(layout.pages.map(\.index) == [0, 1, 2, 3])
        #expect(
            layout.pages.map(\.outline) == [
                ["day:2024-05-03", "1", "2"],
                ["day+:2024-05-03", "3", "day:2024-05-04", "4"],
                ["day+:2024-05-04", "5", "6"],
                ["day+:2024-05-04", "7"],
            ])
    }

    /// The links to a page name the days it holds (`PageDays`).
    @Test func eachPageKnowsItsFirstAndLastDay() {
        let plan = layOut(conversation(week), pageSize: 3)
        #expect(
            plan.pageDays == [
                PageDays(first: "May 3, 2024", last: "May 3, 2024"),
                PageDays(first: "May 4, 2024", last: "May 4, 2024"),
                PageDays(first: "May 4, 2024", last: "May 4, 2024"),
            ])
        let twoDays = layOut(conversation(week), pageSize: 4)
        #expect(twoDays.pageDays.first == PageDays(first: "May 3, 2024", last: "May 4, 2024"))
    }

    /// A plan of the last messages only (an append) names the earlier pages as it was told.
    @Test func aPlanOfSomeMessagesTakesTheOtherPagesDaysAsGiven() {
        let whole = layOut(conversation(week), pageSize: 3)
        let tail = Array(week[6...])
        let layouter = ConversationLayouter(options: LayoutOptions(), pageSize: 3)
        let told = layouter.plan(
            conversation(tail), globalIndexes: [6], totalMessageCount: 7, pageDays: Array(whole.pageDays.prefix(2)))
        #expect(told.pageDays == whole.pageDays)
        let untold = layouter.plan(conversation(tail), globalIndexes: [6], totalMessageCount: 7)
        #expect(untold.pageDays == [nil, nil, whole.pageDays[2]])
    }

    @Test func pageOfMessageNamesEveryMessagesPage() {
        let layout = layOut(conversation(week), pageSize: 3)
        #expect(layout.pageOfMessage == ["1": 0, "2": 0, "3": 0, "4": 1, "5": 1, "6": 1, "7": 2])
        for (pageIndex, page) in layout.pages.enumerated() {
            for row in page.rows {
                #expect(layout.pageOfMessage[row.message.id] == pageIndex)
            }
        }
    }

    /// Positions are computed over the whole conversation: a page may open in the middle of a group.
    @Test func groupsRunAcrossPageBoundaries() {
        let layout = layOut(conversation(week), pageSize: 2)
        #expect(layout.positions == [.first, .middle, .last, .first, .middle, .middle, .last])
    }

    @Test func oneThousandIsTheDefaultPageSizeAndZeroMeansOnePage() {
        #expect(SiteConfig().pageSize == 1000)
        let layout = layOut(conversation(week), pageSize: 0)
        #expect(layout.pages.count == 1)
        #expect(layout.pages[0].outline == ["day:2024-05-03", "1", "2", "3", "day:2024-05-04", "4", "5", "6", "7"])
    }

    @Test func anEmptyConversationHasOneEmptyPage() {
        let layout = layOut(conversation([]))
        #expect(layout.pages.count == 1)
        #expect(layout.pages[0].items.isEmpty)
        #expect(layout.pageOfMessage.isEmpty)
        #expect(layout.summary.messageCount == 0)
        #expect(layout.summary.firstDate == nil)
        #expect(layout.summary.lastMessagePreview == nil)
    }
}

@Suite("Replies, reactions and the summary")
struct ReferenceTests {
    @Test func aReplyQuotesItsTargetWithItsPageAcrossPages() {
        let layout = layOut(
            conversation([
                message("q", "bob", "2024-05-03T09:00:00Z", text: "Are we\n\n  still on   for Friday?"),
                message("x", "carol", "2024-05-03T09:30:00Z"),
                message("r", "alice", "2024-05-03T10:00:00Z", text: "Yes!", replyTo: "q"),
            ]), pageSize: 2)
        #expect(layout.pageOfMessage["r"] == 1)
        #expect(
            layout.row("r").reply
                == ReplyPreview(
                    messageID: "q", pageIndex: 0, senderName: "Bob Stone", excerpt: "Are we still on for Friday?"))
        #expect(layout.row("x").reply == nil)
    }

    @Test func aReplyToAMissingMessageHasNoPreview() {
        let layout = layOut(conversation([message("r", "alice", "2024-05-03T10:00:00Z", replyTo: "gone")]))
        #expect(layout.row("r").reply == nil)
    }

    @Test func aReplyToASystemMessageHasNoSenderName() {
        let layout = layOut(
            conversation([
                message("s", nil, "2024-05-03T09:00:00Z", text: "Carol renamed the group to “Trip 🚆”"),
                message("r", "alice", "2024-05-03T10:00:00Z", replyTo: "s"),
            ]))
        #expect(layout.row("r").reply?.senderName == nil)
        #expect(layout.row("r").reply?.excerpt == "Carol renamed the group to “Trip 🚆”")
    }

    @Test func longReplyExcerptsAreCutWithAnEllipsis() {
        let long = String(repeating: "word ", count: 60)
        let layout = layOut(
            conversation([
                message("q", "bob", "2024-05-03T09:00:00Z", text: long),
                message("r", "alice", "2024-05-03T10:00:00Z", replyTo: "q"),
            ]))
        let excerpt = layout.row("r").reply?.excerpt ?? ""
        #expect(excerpt.count <= TextExcerpt.defaultLimit)
        #expect(excerpt.hasSuffix("word…") || excerpt.hasSuffix("wor…"))
    }

    @Test func reactionsCountAndNameWhoReacted() {
        let layout = layOut(
            conversation([
                message(
                    "1", "alice", "2024-05-03T09:00:00Z",
                    reactions: [
                        Reaction(emoji: "👍", senders: ["bob", "carol"]),
                        Reaction(emoji: "🎉", senders: ["dave"]),
                        // An export that only counts (DiscordChatExporter without users).
                        Reaction(emoji: "👆", senders: [], count: 42),
                        Reaction(emoji: "👀", senders: ["bob"], count: 3),
                    ])
            ]))
        #expect(
            layout.row("1").reactions == [
                ReactionSummary(emoji: "👍", count: 2, senderNames: ["Bob Stone", "Carol Diaz"]),
                ReactionSummary(emoji: "🎉", count: 1, senderNames: ["dave"]),  // unknown id falls back to itself
                ReactionSummary(emoji: "👆", count: 42, senderNames: []),
                ReactionSummary(emoji: "👀", count: 3, senderNames: ["Bob Stone"]),
            ])
    }

    @Test func theSummaryCountsDatesAndPreviewsTheLastMessage() {
        let layout = layOut(
            conversation(
                [
                    message("1", "alice", "2024-05-03T07:00:00Z"),
                    message("2", "bob", "2024-05-04T18:30:00Z", text: "See you\nat the station 🚆"),
                ], timeZone: "Europe/Berlin"))
        let summary = layout.summary
        #expect(summary.id == "test")
        #expect(summary.title == "Alice Nguyen, Bob Stone, Carol Diaz")
        #expect(summary.participantNames == ["Alice Nguyen", "Bob Stone", "Carol Diaz"])
        #expect(summary.messageCount == 2)
        #expect(
            summary.firstDate == FormattedDate(text: "May 3, 2024 at 9:00\u{202F}AM", iso: "2024-05-03T09:00:00+02:00"))
        #expect(summary.lastDate?.iso == "2024-05-04T20:30:00+02:00")
        #expect(summary.lastMessagePreview == "Bob Stone: See you at the station 🚆")
    }
}

@Suite("Options pass through")
struct OptionsTests {
    @Test func sizeOverridesReachTheLayoutOptions() {
        var site = LayoutOptions()
        site.messageCornerRadius = .rem(1)
        var overrides = LayoutOverrides()
        overrides.messageMaxWidth = .px(480)
        let layout = layOut(conversation([], layout: overrides), options: site)
        #expect(layout.options.messageMaxWidth == .px(480))
        #expect(layout.options.messageCornerRadius == .rem(1))
        #expect(layOut(conversation([])).options.messageMaxWidth == .percent(75))
        #expect(layOut(conversation([])).options.messageCornerRadius == .px(8))
    }

    @Test func conversationOverridesWinOverSiteOptions() {
        var site = LayoutOptions()
        site.collapseTimestamps = .top
        site.locale = "de_DE"
        var overrides = LayoutOverrides()
        overrides.collapseTimestamps = .off
        let layout = layOut(conversation([], layout: overrides), options: site)
        #expect(layout.options.collapseTimestamps == .off)
        #expect(layout.options.locale == "de_DE")
    }
}

@Suite("Excerpts")
struct ExcerptTests {
    @Test func whitespaceCollapsesToOneLine() {
        #expect(TextExcerpt.make("  hello\n\tworld \r\n ") == "hello world")
        #expect(TextExcerpt.make("") == "")
    }

    @Test func cutsAtGraphemeBoundaries() {
        let family = "👨‍👩‍👧‍👦"
        let text = String(repeating: family, count: 10)
        let excerpt = TextExcerpt.make(text, limit: 5)
        #expect(excerpt == String(repeating: family, count: 4) + "…")
        #expect(TextExcerpt.make(String(repeating: family, count: 5), limit: 5) == String(repeating: family, count: 5))
    }

    @Test func noSpaceBeforeTheEllipsis() {
        #expect(TextExcerpt.make("abcd efgh", limit: 6) == "abcd…")
    }

    /// ASCII text is cut on bytes; a combining mark after an ASCII letter joins it into one
    /// character, so such text must give what counting `Character`s gives.
    @Test func asciiAndMixedTextMatchCharacterCounting() {
        func reference(_ text: String, limit: Int) -> String {
            let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            guard words.count > limit else { return words }
            var kept = String(words.prefix(max(0, limit - 1)))
            while kept.last?.isWhitespace == true { kept.removeLast() }
            return kept + "…"
        }
        let pieces = ["a", "bc", " ", "\t", "\r\n", "\u{0B}", "\u{0C}", "e\u{301}", "\u{A0}", "x", "  ", "\u{1F}"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            var text = ""
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for index in 0..<Int(state >> 59) {
                text += pieces[Int((state >> UInt64(index % 50)) % UInt64(pieces.count))]
            }
            for limit in [1, 2, 3, 5, 8] {
                #expect(
                    TextExcerpt.make(text, limit: limit) == reference(text, limit: limit),
                    "\(text.debugDescription) limit \(limit)")
            }
        }
        #expect(TextExcerpt.make("abcde\u{301}", limit: 4) == "abc…")
        #expect(TextExcerpt.make("abcde\u{301}", limit: 5) == "abcde\u{301}")
    }
}
