import Foundation
import ScrollbackModel

/// The Claude.ai data export's `conversations.json` (issue 43): an array of conversations, each
/// with `uuid`, `name`, `summary`, `created_at`, `account` and its `chat_messages` (`uuid`,
/// `sender` `human` or `assistant`, `text` and, in newer exports, `content` blocks and
/// `parent_message_uuid`, `created_at`, `attachments`, `files`). One conversation object on its
/// own is read too. The zip's `users.json`, `projects.json` and `memories.json` hold no chat.
///
/// Each conversation becomes one, its id the conversation's `uuid` (a rename or a newer export
/// keeps every permalink); each message keeps its `uuid` as its id. The human is `me` (the export
/// is the account owner's), the assistant is "Claude". One branch is shown (`ClaudeBranch`); the
/// messages of the other branches are left out with that reason. A message's blocks read as
/// the app shows them (`ClaudeContent`); a message with nothing to show is left out with its
/// reason, and a conversation left with no message is not built (a warning names it). Times are
/// the export's instants (UTC, `Z`): the site's own zone shows them. The conversation gets
/// `presentation: document`.
public enum ClaudeImporter: ExportImporter {
    public static let format = ExportFormat.claude
    public static let shape = ExportShape.file

    /// A JSON array whose first element has `chat_messages`, or one such conversation on its own.
    /// ChatGPT's file of the same name holds `mapping` instead.
    public static func detect(_ candidate: ExportCandidate) -> Bool {
        guard !candidate.isDirectory else { return false }
        var keys = JSONSniff.firstArrayElementKeys(candidate.trimmedHead)
        if keys.isEmpty { keys = candidate.topLevelJSONKeys }
        return keys.contains("chat_messages") && !keys.contains("mapping")
    }

    public static func read(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic] {
        AIChat.readConversations(export, context: context, emit: emit) { node, index, file, shown in
            conversation(node, index: index, file: file, shown: shown, context: context)
        }
    }

    static func conversation(
        _ node: JSONNode, index: Int, file: URL, shown: String, context: ImportContext
    ) -> ImportedConversation {
        let location = node.location(in: shown)
        let sourceID = node["uuid"]?.string.flatMap { AIChat.isBlank($0) ? nil : $0 }
        let title = node["name"]?.string.flatMap { AIChat.isBlank($0) ? nil : AIChat.oneLine($0) }
        var assembler = ConversationAssembler(
            format: .claude, id: sourceID ?? "claude-\(index + 1)", title: title,
            key: context.relativePath(file) + "#" + (sourceID ?? "\(index)"), sourceFiles: [shown], location: location)
        if sourceID == nil {
            assembler.report(
                .warning(
                    .other(
                        "conversation \(index + 1) has no `uuid`; its id depends on its place in the file, "
                            + "so a newer export may move its pages"), at: location))
        }
        // A one-line summary is the card's description; newer exports write pages of Markdown
        // there ("**Conversation overview** …"), which a card line cannot hold: those are not shown.
        let summary = ChatMarkup.trimming(node["summary"]?.string ?? "", in: .whitespacesAndNewlines)
        if !summary.isEmpty, summary.count <= 300, !summary.contains(where: \.isNewline) {
            assembler.description = summary
        }
        assembler.me = "human"
        assembler.addParticipant(Participant(id: "human", name: "You"))
        guard node.members != nil else {
            assembler.report(
                .error(.wrongType(field: "conversation", expected: "an object, not \(node.typeName)"), at: location))
            return assembler.finish()
        }
        guard let list = node["chat_messages"], let messages = list.elements else {
            let problem: Problem =
                node["chat_messages"] == nil
                ? .missingField("chat_messages")
                : .wrongType(field: "chat_messages", expected: "an array of messages")
            assembler.report(.error(problem, at: location))
            return assembler.finish()
        }
        assembler.reserveCapacity(messages.count)
        let branch = ClaudeBranch(messages, currentLeaf: node["current_leaf_message_uuid"]?.string)
        let toolNames = ClaudeContent.toolNames(in: messages)
        let otherBranch =
            branch.followsCurrentLeaf
            ? "on another branch (an edited prompt or another answer); the current branch is shown"
            : "on another branch (an edited prompt or another answer); the newest branch is shown"
        var lastDate = date(node["created_at"]) ?? Date(timeIntervalSince1970: 0)
        for (position, message) in messages.enumerated() {
            let at = message.location(in: shown)
            guard message.members != nil else {
                assembler.report(
                    .warning(
                        .wrongType(
                            field: "chat_messages[\(position)]", expected: "a message object, not \(message.typeName)"),
                        at: at))
                assembler.leaveOut(reason: "an entry of chat_messages that is not a message object", at: at)
                continue
            }
            guard branch.shown[position] else {
                assembler.leaveOut(reason: otherBranch, at: at)
                continue
            }
            let body = ClaudeContent.body(of: message, toolNames: toolNames, at: at)
            guard !body.pieces.isEmpty else {
                // Named by role: a reason is a group in the report, not a copy of the input.
                let role = message["sender"]?.string.flatMap { ["human", "assistant"].contains($0) ? $0 : nil }
                assembler.leaveOut(reason: "an empty \(role ?? "other") message (no text, no attachment)", at: at)
                continue
            }
            let sender = participant(
                ClaudeContent.holdsOnlyToolResults(message) ? "tool" : message["sender"]?.string, in: &assembler)
            if let created = date(message["created_at"]) {
                lastDate = created
            } else {
                assembler.report(
                    .warning(
                        .invalidDate(
                            message["created_at"]?.string ?? "(no created_at)",
                            expected: ISO8601DateParser.expectedForm + "; the message before it gives its time"),
                        at: at))
            }
            var diagnostics = body.warnings
            let rich = render(body.pieces, file: file, at: at, context: context, diagnostics: &diagnostics)
            let id = message["uuid"]?.string.flatMap { AIChat.isBlank($0) ? nil : $0 } ?? "message-\(position + 1)"
            for diagnostic in diagnostics { assembler.report(diagnostic) }
            assembler.append(
                Message(
                    id: id, sender: sender, date: lastDate, kind: .attributedText(rich),
                    source: ExportSource(
                        format: format.rawValue, file: context.relativePath(file),
                        path: "$[\(index)].chat_messages[\(position)]", id: message["uuid"]?.string),
                    location: at))
        }
        var imported = assembler.finish()
        AIChat.finish(&imported, named: title ?? assembler.id, at: location)
        return imported
    }

    /// The participant id of `sender`, added to the conversation the first time it is met:
    /// `human` (`me`), `assistant` ("Claude"), `tool` ("Tool": results sent back in a human turn,
    /// as the API carries them, are not the person's words), or another role named by itself.
    static func participant(_ sender: String?, in assembler: inout ConversationAssembler) -> String {
        let id = sender.flatMap { AIChat.isBlank($0) ? nil : $0 } ?? "unknown"
        if !assembler.hasParticipant(id) {
            let name = ["assistant": "Claude", "tool": "Tool"][id] ?? id.capitalized
            assembler.addParticipant(Participant(id: id, name: name))
        }
        return id
    }

    /// The instant of an ISO 8601 `created_at`, if it is one.
    static func date(_ node: JSONNode?) -> Date? {
        node?.string.flatMap(ISO8601DateParser.parse)
    }

    /// The pieces as one rich text: Markdown alone keeps its source (`import` writes it back);
    /// with closed blocks, each run of Markdown and each block is rendered and the whole sanitized
    /// once.
    static func render(
        _ pieces: [ClaudeContent.Piece], file: URL, at location: SourceLocation, context: ImportContext,
        diagnostics: inout [Diagnostic]
    ) -> RichText {
        let plain = pieces.compactMap { piece -> String? in
            if case .markdown(let text) = piece { return text }
            return nil
        }
        if plain.count == pieces.count {
            return context.richText(
                markdown: plain.joined(separator: "\n\n"), relativeTo: file, at: location, diagnostics: &diagnostics)
        }
        var html = ""
        var assets: [LocalAsset] = []
        var run: [String] = []
        func render(_ markdown: String) -> String {
            let rich = context.richText(markdown: markdown, relativeTo: file, at: location, diagnostics: &diagnostics)
            assets += rich.assets.filter { !assets.contains($0) }
            return rich.html
        }
        func flush() {
            if !run.isEmpty { html += render(run.joined(separator: "\n\n")) }
            run = []
        }
        for piece in pieces {
            switch piece {
            case .markdown(let text):
                run.append(text)
            case .collapsed(let summary, let markdown):
                flush()
                html += AIChat.details(summary: summary, html: render(markdown))
            }
        }
        flush()
        let sanitized = context.sanitizedHTML(html)
        var rich = RichText(sanitizedHTML: sanitized.html, plainText: sanitized.plainText)
        rich.assets = assets
        return rich
    }
}
