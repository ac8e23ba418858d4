import Foundation
import ScrollbackLayout
import ScrollbackModel
import Testing

@testable import ScrollbackRendering

/// A synthetic conversation of `count` messages: mostly text (some with links and mentions),
/// with groups, day separators, replies and reactions, like a busy real chat.
func syntheticLayout(count: Int, pageSize: Int = 1000) -> ConversationPlan {
    let people = [Fixture.alice, Fixture.bob, Fixture.carol]
    var pages: [[LayoutItem]] = []
    var current: [LayoutItem] = []
    for index in 0..<count {
        if index % pageSize == 0, !current.isEmpty {
            pages.append(current)
            current = []
        }
        if index % 200 == 0 {
            current.append(Fixture.day("Day \(index / 200)", "2024-05-\(String(format: "%02d", 3 + index / 200 % 20))"))
        }
        let sender = people[(index / 3) % 3]
        let position: GroupPosition = [.first, .middle, .last][index % 3]
        let text =
            index % 10 == 0
            ? "Look at https://example.com/item/\(index) and tell @bob what you think, or mail me@example.com"
            : "Message number \(index): the quick brown fox jumps over the lazy dog, again & again."
        let reply =
            index % 25 == 5
            ? ReplyPreview(
                messageID: "m\(index - 4)", pageIndex: (index - 4) / pageSize, senderName: "Bob Stone",
                excerpt: "An earlier message")
            : nil
        let reactions = index % 17 == 0 ? [ReactionSummary(emoji: "👍", count: 2, senderNames: ["Alice", "Bob"])] : []
        current.append(
            .message(
                Fixture.row(
                    "m\(index)", .text(text), sender: sender, position: position, avatar: position == .last,
                    header: position == .first, footer: position == .last,
                    timestamp: position == .last ? .bottom : .hidden, status: sender.id == "alice" ? .read : nil,
                    reply: reply, reactions: reactions)))
    }
    pages.append(current)
    return Fixture.layout(pages: pages)
}

/// Per-message render cost on 20k messages; prints µs/message and HTML bytes/message (no time
/// bound: speed is measured by `make bench`; the printed figure from a release build is the one to report).
@Test func perMessageRenderCost() {
    let pageSize = Int(ProcessInfo.processInfo.environment["SCROLLBACK_BENCH_PAGE_SIZE"] ?? "") ?? 1000
    let layout = syntheticLayout(count: 20_000, pageSize: pageSize)
    let renderer = SiteRenderer(config: SiteConfig())
    _ = renderer.renderFiles(syntheticLayout(count: 500))  // warm up
    // Thread CPU time as well as wall time: the build machine is shared, so wall time overstates.
    func cpuSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
    let start = ContinuousClock.now
    let cpuStart = cpuSeconds()
    let (files, diagnostics) = renderer.renderFiles(layout)
    let cpu = cpuSeconds() - cpuStart
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let bytes = files.reduce(0) { $0 + $1.contents.count }
    let microseconds = seconds * 1e6 / 20_000
    print(
        "render: \(String(format: "%.2f", microseconds)) µs/message wall, \(String(format: "%.2f", cpu * 1e6 / 20_000)) µs/message CPU, \(bytes / 20_000) bytes/message, \(files.count) pages"
    )
    #expect(diagnostics.isEmpty)
    #expect(files.count == (20_000 + pageSize - 1) / pageSize)
}

/// The byte scan of `rebaseRoot` replaces what Foundation's search replaces, next to non-ASCII text too.
@Test func rebasingTheRootMatchesFoundationsReplacement() {
    func reference(_ html: String) -> String {
        html.replacingOccurrences(of: "=\"@root/", with: "=\"../").replacingOccurrences(of: "='@root/", with: "='../")
    }
    let samples = [
        "<p>no marker</p>", "<img src=\"@root/media/a.png\"><img src='@root/media/b.png'>",
        "text @root/ not in an attribute", "<a href=\"@root/x\">=\"@root/=\"@root/</a>", "=\"@root",
        "<img src=\"@root/\u{301}a.png\">", "\u{600}=\"@root/x", "é<img alt=\"é\" src=\"@root/m.png\">",
    ]
    for sample in samples {
        #expect(MessageRenderer.rebaseRoot(sample, root: "../") == reference(sample), "\(sample.debugDescription)")
    }
}
