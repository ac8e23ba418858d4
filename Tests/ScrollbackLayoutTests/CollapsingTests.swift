import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackLayout

/// A group of three from Alice, then one edited message from Bob.
private func threeAndOne(me: String? = nil, layout overrides: LayoutOverrides = LayoutOverrides()) -> ConversationPlan {
    layOut(
        conversation(
            [
                message("a1", "alice", "2024-05-03T09:00:00Z", edited: "2024-05-03T09:10:00Z", status: .read),
                message("a2", "alice", "2024-05-03T09:01:00Z", status: .read),
                message("a3", "alice", "2024-05-03T09:02:00Z", status: .delivered),
                message("b1", "bob", "2024-05-03T09:03:00Z", edited: "2024-05-04T08:00:00Z"),
            ], me: me, layout: overrides))
}

@Suite("Collapsing avatars, headers, footers and timestamps (spec §3)")
struct CollapsingTests {
    @Test func collapsedProfilePictureShowsOnlyOnTheLastOfAGroup() {
        let layout = threeAndOne()
        #expect(layout.messageRows.map(\.showsAvatar) == [false, false, true, true])
    }

    @Test func uncollapsedProfilePictureShowsOnEveryMessage() {
        var overrides = LayoutOverrides()
        overrides.collapseProfilePicture = false
        #expect(threeAndOne(layout: overrides).messageRows.map(\.showsAvatar) == [true, true, true, true])
    }

    /// Like MessageKit's default, the current sender's own bubbles have no avatar.
    @Test func rightAlignedMessagesShowNoAvatar() {
        #expect(threeAndOne(me: "alice").messageRows.map(\.showsAvatar) == [false, false, false, true])
        var overrides = LayoutOverrides()
        overrides.collapseProfilePicture = false
        #expect(
            threeAndOne(me: "alice", layout: overrides).messageRows.map(\.showsAvatar) == [false, false, false, true])
    }

    @Test func systemMessagesShowNoAvatarHeaderFooterOrTime() {
        var overrides = LayoutOverrides()
        overrides.collapseProfilePicture = false
        overrides.collapseEnclosingViews = false
        let layout = layOut(
            conversation(
                [message("s", nil, "2024-05-03T09:00:00Z", text: "Bob joined", edited: "2024-05-03T09:01:00Z")],
                layout: overrides))
        let row = layout.row("s")
        #expect(row.alignment == .center)
        #expect(row.sender == nil)
        #expect(!row.showsAvatar && !row.showsHeader && !row.showsFooter)
        #expect(row.timestamp == .hidden)
    }

    @Test func collapsedEnclosingViewsPutTheHeaderFirstAndTheFooterLast() {
        // A group chat (Alice, Bob, Carol) seen by Alice: Bob's three messages name him once, on
        // the first; b1 and b3 are edited but only the group's last shows a footer. Alice's own
        // message has no name over it, and her status counts, so it has a footer.
        let layout = layOut(
            conversation(
                [
                    message("b1", "bob", "2024-05-03T09:00:00Z", edited: "2024-05-03T09:10:00Z"),
                    message("b2", "bob", "2024-05-03T09:01:00Z"),
                    message("b3", "bob", "2024-05-03T09:02:00Z", edited: "2024-05-03T09:12:00Z"),
                    message("a1", "alice", "2024-05-03T09:03:00Z", status: .read),
                ], me: "alice"))
        #expect(layout.messageRows.map(\.showsHeader) == [true, false, false, false])
        #expect(layout.messageRows.map(\.showsFooter) == [false, false, true, true])
    }

    @Test func uncollapsedEnclosingViewsShowHeaderAndFooterOnEveryMessage() {
        var overrides = LayoutOverrides()
        overrides.collapseEnclosingViews = false
        // Every message names its sender, except your own (`me`), which never do.
        #expect(threeAndOne(layout: overrides).messageRows.map(\.showsHeader) == [true, true, true, true])
        let layout = threeAndOne(me: "alice", layout: overrides)
        #expect(layout.messageRows.map(\.showsHeader) == [false, false, false, true])
        #expect(layout.messageRows.map(\.showsFooter) == [true, true, true, true])
    }

    /// A footer holds edited and status marks; status only counts on right-aligned messages.
    @Test func aFooterWithNothingToShowIsNotShown() {
        var overrides = LayoutOverrides()
        overrides.collapseEnclosingViews = false
        // No `me`: Alice's statuses are not shown, so only edited messages have a footer.
        let layout = threeAndOne(layout: overrides)
        #expect(layout.messageRows.map(\.showsFooter) == [true, false, false, true])
    }

    @Test func bottomTimestampsGoOnTheLastOfEachGroup() {
        let layout = threeAndOne()
        #expect(layout.messageRows.map(\.timestamp) == [.hidden, .hidden, .bottom, .bottom])
    }

    @Test func topTimestampsGoOnTheFirstOfEachGroup() {
        var overrides = LayoutOverrides()
        overrides.collapseTimestamps = .top
        #expect(threeAndOne(layout: overrides).messageRows.map(\.timestamp) == [.top, .hidden, .hidden, .top])
    }

    @Test func uncollapsedTimestampsShowOnEveryMessage() {
        var overrides = LayoutOverrides()
        overrides.collapseTimestamps = .off
        #expect(threeAndOne(layout: overrides).messageRows.map(\.timestamp) == [.bottom, .bottom, .bottom, .bottom])
    }

    /// A system message is a centred note, drawn without a time as messengers draw them, unless
    /// the site shows every message's time.
    @Test func systemMessagesShowNoTimeUnlessTimestampsAreUncollapsed() {
        for collapsing in TimestampCollapsing.allCases {
            var overrides = LayoutOverrides()
            overrides.collapseTimestamps = collapsing
            let layout = layOut(
                conversation(
                    [message("s", nil, "2024-05-03T09:00:00Z"), message("a", "bob", "2024-05-03T09:01:00Z")],
                    layout: overrides))
            #expect(layout.row("s").timestamp == (collapsing == .off ? .bottom : .hidden))
            #expect(layout.row("a").timestamp != .hidden)
        }
    }

    @Test func editedDatesAreFormattedWithTheirDay() {
        let layout = threeAndOne()
        #expect(
            layout.row("b1").edited == FormattedDate(text: "May 4, 2024 at 8:00\u{202F}AM", iso: "2024-05-04T08:00:00Z")
        )
        #expect(layout.row("a2").edited == nil)
    }
}

@Suite("Alignment (spec §1 me, §5 data-align)")
struct AlignmentTests {
    @Test func meAlignsRightOthersLeftSystemCenter() {
        let layout = layOut(
            conversation(
                [
                    message("1", "alice", "2024-05-03T09:00:00Z"),
                    message("2", "bob", "2024-05-03T09:01:00Z"),
                    message("s", nil, "2024-05-03T09:02:00Z"),
                ], me: "alice"))
        #expect(layout.messageRows.map(\.alignment) == [.right, .left, .center])
        #expect(layout.row("1").sender == alice)
    }

    @Test func withoutMeEveryNonSystemMessageAlignsLeft() {
        let layout = layOut(
            conversation([
                message("1", "alice", "2024-05-03T09:00:00Z"),
                message("2", "bob", "2024-05-03T09:01:00Z"),
                message("s", nil, "2024-05-03T09:02:00Z"),
            ]))
        #expect(layout.messageRows.map(\.alignment) == [.left, .left, .center])
    }
}
