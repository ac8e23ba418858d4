import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackLayout

@Suite("Grouping (spec §3 grouping and groupGap)")
struct GroupingTests {
    @Test func defaultsAreTheSpecs() {
        let options = LayoutOptions()
        #expect(options.grouping == .sameSender(gap: 300))
        #expect(options.collapseProfilePicture)
        #expect(options.collapseEnclosingViews)
        #expect(options.collapseTimestamps == .bottom)
        #expect(options.messageMaxWidth == .percent(75))
        #expect(options.messageCornerRadius == .px(8))
        #expect(options.timestampFormat == .style(.short))
    }

    @Test func consecutiveMessagesOfOneSenderGroup() {
        let layout = layOut(
            conversation([
                message("1", "alice", "2024-05-03T09:00:00Z"),
                message("2", "alice", "2024-05-03T09:01:00Z"),
                message("3", "alice", "2024-05-03T09:02:00Z"),
                message("4", "bob", "2024-05-03T09:03:00Z"),
            ]))
        #expect(layout.positions == [.first, .middle, .last, .single])
    }

    @Test func groupingDisabledMakesEveryMessageSingle() {
        var options = LayoutOptions()
        options.grouping = .disabled
        let layout = layOut(
            conversation([
                message("1", "alice", "2024-05-03T09:00:00Z"),
                message("2", "alice", "2024-05-03T09:01:00Z"),
                message("3", "alice", "2024-05-03T09:02:00Z"),
            ]), options: options)
        #expect(layout.positions == [.single, .single, .single])
    }

    @Test func aGapOfExactlyGroupGapStillGroups() {
        let layout = layOut(
            conversation([
                message("1", "alice", "2024-05-03T09:00:00Z"),
                message("2", "alice", "2024-05-03T09:05:00Z"),
            ]))
        #expect(layout.positions == [.first, .last])
    }

    @Test func aGapOneSecondOverGroupGapSplits() {
        let layout = layOut(
            conversation([
                message("1", "alice", "2024-05-03T09:00:00Z"),
                message("2", "alice", "2024-05-03T09:05:01Z"),
            ]))
        #expect(layout.positions == [.single, .single])
    }

    @Test func aConfiguredGapReplacesTheDefault() {
        var options = LayoutOptions()
        options.grouping = .sameSender(gap: 60)
        let messages = [
            message("1", "alice", "2024-05-03T09:00:00Z"),
            message("2", "alice", "2024-05-03T09:01:00Z"),
            message("3", "alice", "2024-05-03T09:02:01Z"),
        ]
        #expect(layOut(conversation(messages), options: options).positions == [.first, .last, .single])
        #expect(layOut(conversation(messages)).positions == [.first, .middle, .last])
    }

    @Test func aConversationCanTurnGroupingOff() {
        var overrides = LayoutOverrides()
        overrides.grouping = .disabled
        let messages = [
            message("1", "alice", "2024-05-03T09:00:00Z"),
            message("2", "alice", "2024-05-03T09:01:00Z"),
        ]
        #expect(layOut(conversation(messages, layout: overrides)).positions == [.single, .single])
    }

    @Test func aSenderChangeSplits() {
        let layout = layOut(
            conversation([
                message("1", "alice", "2024-05-03T09:00:00Z"),
                message("2", "bob", "2024-05-03T09:00:10Z"),
                message("3", "alice", "2024-05-03T09:00:20Z"),
                message("4", "alice", "2024-05-03T09:00:30Z"),
            ]))
        #expect(layout.positions == [.single, .single, .first, .last])
    }

    /// 21:58 and 22:01 UTC are 23:58 and 00:01 in Berlin (CEST, +02:00): a new day there, not in UTC.
    @Test func aDayChangeInTheConversationsZoneSplits() {
        let messages = [
            message("1", "alice", "2024-05-03T21:58:00Z"),
            message("2", "alice", "2024-05-03T22:01:00Z"),
        ]
        let berlin = layOut(conversation(messages, timeZone: "Europe/Berlin"))
        #expect(berlin.positions == [.single, .single])
        #expect(berlin.pages[0].outline == ["day:2024-05-03", "1", "day:2024-05-04", "2"])

        let utc = layOut(conversation(messages, timeZone: "UTC"))
        #expect(utc.positions == [.first, .last])
        #expect(utc.pages[0].outline == ["day:2024-05-03", "1", "2"])
    }

    @Test func theSiteZoneAppliesWhenTheConversationNamesNone() {
        var options = LayoutOptions()
        options.timeZone = "Europe/Berlin"
        let messages = [
            message("1", "alice", "2024-05-03T21:58:00Z"),
            message("2", "alice", "2024-05-03T22:01:00Z"),
        ]
        #expect(layOut(conversation(messages), options: options).positions == [.single, .single])
        // The conversation's own zone wins over the site's.
        #expect(layOut(conversation(messages, timeZone: "UTC"), options: options).positions == [.first, .last])
    }

    @Test func systemMessagesNeverGroupAndBreakGroups() {
        let layout = layOut(
            conversation([
                message("1", "alice", "2024-05-03T09:00:00Z"),
                message("s1", nil, "2024-05-03T09:00:10Z", text: "Alice renamed the group"),
                message("s2", nil, "2024-05-03T09:00:20Z", text: "Bob joined"),
                message("2", "alice", "2024-05-03T09:00:30Z"),
                message("3", "alice", "2024-05-03T09:00:40Z"),
            ]))
        #expect(layout.positions == [.single, .single, .single, .first, .last])
    }

    @Test func messagesOutOfOrderAreSortedByDateTiesKeepingFileOrder() {
        let layout = layOut(
            conversation([
                message("late", "bob", "2024-05-03T10:00:00Z"),
                message("tie-a", "alice", "2024-05-03T09:00:00Z"),
                message("tie-b", "alice", "2024-05-03T09:00:00Z"),
            ]))
        #expect(layout.messageRows.map(\.message.id) == ["tie-a", "tie-b", "late"])
        #expect(layout.conversation.messages.map(\.id) == ["tie-a", "tie-b", "late"])
    }
}
