import Foundation
import ScrollbackModel

/// The layout pass (spec §3): turns a conversation into pages of positioned, decorated rows.
///
/// STUB: to be replaced by the real layout pass.
public struct ConversationLayouter: Sendable {
    /// Site-wide options; the conversation's overrides are applied on top.
    public var options: LayoutOptions
    /// Messages per page.
    public var pageSize: Int

    /// Creates a layouter.
    public init(options: LayoutOptions, pageSize: Int) {
        self.options = options
        self.pageSize = pageSize
    }

    /// Lays out `conversation`.
    public func layout(_ conversation: Conversation) -> ConversationLayout {
        let summary = ConversationSummary(
            id: conversation.id, title: conversation.displayTitle, description: conversation.description,
            participantNames: conversation.participants.map(\.name), messageCount: conversation.messages.count,
            firstDate: nil, lastDate: nil, lastMessagePreview: nil)
        return ConversationLayout(
            conversation: conversation, options: options.applying(conversation.layout),
            pages: [PageLayout(index: 0, items: [])], pageOfMessage: [:], summary: summary)
    }
}
