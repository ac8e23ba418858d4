import Foundation
import ScrollbackLayout
import ScrollbackModel
import Testing

@testable import ScrollbackReading

private typealias Support = MarkdownTestSupport

/// Acceptance point 3: one conversation written as JSON and as Markdown reads the same.
@Suite struct MarkdownPairTests {
    @Test func jsonAndMarkdownGiveTheSameConversation() throws {
        let reader = LogReader(inputRoot: Support.fixtures, config: SiteConfig())
        let fromMarkdown = reader.read(Support.fixtures.appendingPathComponent("pair.md"))
        let fromJSON = reader.read(Support.fixtures.appendingPathComponent("pair.json"))
        #expect(fromMarkdown.diagnostics.isEmpty, "\(fromMarkdown.diagnostics)")
        #expect(fromJSON.diagnostics.isEmpty, "\(fromJSON.diagnostics)")
        let markdown = try #require(fromMarkdown.conversation)
        let json = try #require(fromJSON.conversation)

        #expect(markdown.messages.count == 8)
        #expect(markdown.messages.map(\.kind.name) == json.messages.map(\.kind.name))
        #expect(markdown.messages.map(\.sender) == json.messages.map(\.sender))
        #expect(markdown.messages.map(\.date) == json.messages.map(\.date))
        // Beyond the acceptance point: the payloads, ids and conversation fields agree too.
        for (left, right) in zip(markdown.messages, json.messages) {
            #expect(left.kind == right.kind, "message \(left.id)")
            #expect(left.id == right.id)
        }
        #expect(markdown.participants == json.participants)
        #expect(markdown.id == json.id)
        #expect(markdown.title == json.title)
        #expect(markdown.me == json.me)
        #expect(markdown.timeZone == json.timeZone)
        #expect(markdown.layout == json.layout)

        // And the layout groups them the same way.
        func groupPositions(_ conversation: Conversation) -> [String] {
            let plan = ConversationLayouter(options: LayoutOptions(), pageSize: 0).plan(conversation)
            var positions: [String] = []
            plan.forEachPlannedRow(ofPage: 0) { row in
                guard case .message(let index, let decisions) = row else { return }
                positions.append("\(plan.conversation.messages[index].id):\(decisions.groupPosition.rawValue)")
            }
            return positions
        }
        let markdownPositions = groupPositions(markdown)
        #expect(markdownPositions == groupPositions(json))
        // Bob's 09:43 and 09:44 messages form a group.
        #expect(markdownPositions.contains("m2:first") && markdownPositions.contains("m3:last"))
    }

    @Test func theSampleConversationReadsCleanlyAndUsesEveryKind() throws {
        let samples = Support.repositoryRoot.appendingPathComponent("sample-logs")
        let result = LogReader(inputRoot: samples, config: SiteConfig())
            .read(samples.appendingPathComponent("weekend-trip.md"))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let conversation = try #require(result.conversation)
        let kinds = Set(conversation.messages.map(\.kind.name))
        // `file` (v1.1) is not inferred from Markdown: a link to a file stays a link in rich text.
        #expect(kinds == Set(MessageKind.Name.allCases).subtracting([.text, .file]))
        #expect(conversation.participants.count == 3)
        #expect(conversation.me == "alice")
        for message in conversation.messages {
            if case .photo(let item) = message.kind, case .local = item.source {
            } else if case .photo = message.kind {
                Issue.record("sample photo \(message.id) does not resolve to a local file")
            }
        }
    }
}
