import Foundation
import ScrollbackHTML
import ScrollbackModel

/// The ChatGPT data export's `conversations.json` (spec §6): an array of conversations, each
/// a `mapping` tree of nodes; the branch shown in ChatGPT is followed up from `current_node`
/// to the root (other branches, from edited prompts, are not part of the shown conversation
/// and are not counted).
///
/// On that branch: system messages that are empty or marked hidden, and messages of any role
/// with no text and no attachment, are left out and counted as left out; a conversation left
/// with no message is not built (a warning names it); `text` and `multimodal_text` parts are
/// Markdown (code blocks kept); thoughts, tool calls and tool results read as ChatGPT shows them
/// (`ChatGPTContent`); any other content type is shown as a closed fallback (its type and any
/// text it carries) with a warning. Node ids are the message ids, the user is `me`, and the
/// assistant is named by its model. The conversation gets `presentation: document`.
public enum ChatGPTImporter: ExportImporter {
    public static let format = ExportFormat.chatgpt
    public static let shape = ExportShape.file

    /// A JSON array whose first element has `mapping` (and `current_node` or `title` in the
    /// first bytes), or one such conversation object on its own.
    public static func detect(_ candidate: ExportCandidate) -> Bool {
        guard !candidate.isDirectory else { return false }
        let head = candidate.trimmedHead
        var keys = JSONSniff.firstArrayElementKeys(head)
        if keys.isEmpty { keys = candidate.topLevelJSONKeys }
        return keys.contains("mapping") && (keys.contains("current_node") || keys.contains("title"))
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
        let title = node["title"]?.string
        let sourceID = node["conversation_id"]?.string ?? node["id"]?.string
        let slugBase = ConversationSlug.make(from: title ?? "chat")
        let id = slugBase + "-" + (sourceID.map { String(ConversationSlug.make(from: $0).prefix(8)) } ?? "\(index + 1)")
        var assembler = ConversationAssembler(
            format: .chatgpt, id: id, title: title, key: context.relativePath(file) + "#" + (sourceID ?? "\(index)"),
            sourceFiles: [shown], location: node.location(in: shown))
        assembler.me = "user"
        assembler.addParticipant(Participant(id: "user", name: "You"))
        guard let mapping = node["mapping"], let nodes = mapping.members else {
            assembler.report(.error(.missingField("mapping"), at: node.location(in: shown)))
            return assembler.finish()
        }
        var byID: [String: JSONNode] = [:]
        for member in nodes { byID[member.key] = member.value }
        // The shown branch: from current_node up through the parents, then reversed.
        var branch: [String] = []
        var cursor = node["current_node"]?.string
        if cursor == nil {
            // No current node: the last leaf in file order.
            cursor = nodes.last { ($0.value["children"]?.elements ?? []).isEmpty }?.key
        }
        var seen: Set<String> = []
        while let id = cursor, let entry = byID[id], seen.insert(id).inserted {
            branch.append(id)
            cursor = entry["parent"]?.string
        }
        if let id = cursor, byID[id] == nil {
            assembler.report(
                .warning(
                    .other("node '\(id)' named as a parent is not in the mapping; the branch starts below it"),
                    at: mapping.location(in: shown)))
        }
        var lastDate =
            node["create_time"]?.number.map { Date(timeIntervalSince1970: $0) } ?? Date(timeIntervalSince1970: 0)
        let (recapOfThoughts, headingRecaps) = Self.recaps(on: branch, byID: byID)
        for nodeID in branch.reversed() {
            guard let message = byID[nodeID]?["message"], message.members != nil else { continue }
            let location = message.location(in: shown)
            let role = message["author"]?["role"]?.string ?? "unknown"
            let content = message["content"]
            let contentType = content?["content_type"]?.string ?? "text"
            let recipient = message["recipient"]?.string ?? "all"
            let parts = content?["parts"]?.elements ?? []
            let textParts = parts.compactMap(\.string)
            let hidden = message["metadata"]?["is_visually_hidden_from_conversation"]?.bool == true
            let isEmpty =
                textParts.allSatisfy { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
                && parts.count == textParts.count && content?["text"]?.string?.isEmpty != false
            if (role == "system" && (isEmpty || hidden)) || (hidden && isEmpty) {
                assembler.leaveOut(reason: "a hidden or empty system message", at: location)
                continue
            }
            // Issue 41.12: an assistant turn that only called a tool or was cut off has no text
            // and no attachment: an empty bubble says nothing, so it is left out with its reason.
            if isEmpty, contentType == "text" || contentType == "multimodal_text" {
                assembler.leaveOut(reason: "an empty \(role) message (no text, no attachment)", at: location)
                continue
            }
            if headingRecaps.contains(nodeID) {
                assembler.leaveOut(
                    reason: "a reasoning recap, shown as the heading of the thoughts above it", at: location)
                continue
            }
            // Issue 41, acceptance 4: thoughts, tool calls and tool results read as ChatGPT shows
            // them (a closed "Thought for …", "Searched the web: …"), never as JSON.
            let special = ChatGPTContent.body(
                ChatGPTContent.Record(
                    role: role, contentType: contentType, content: content, recipient: recipient,
                    authorName: message["author"]?["name"]?.string, metadata: message["metadata"],
                    recapText: recapOfThoughts[nodeID]))
            if case .leftOut(let reason) = special {
                assembler.leaveOut(reason: reason, at: location)
                continue
            }
            if let time = message["create_time"]?.number { lastDate = Date(timeIntervalSince1970: time) }
            var diagnostics: [Diagnostic] = []
            let sender: String
            switch role {
            case "user": sender = "user"
            case "assistant":
                let model = message["metadata"]?["model_slug"]?.string
                sender = "assistant"
                if !assembler.hasParticipant(sender) {
                    assembler.addParticipant(
                        Participant(id: sender, name: model.map { "ChatGPT (\($0))" } ?? "ChatGPT"))
                }
            default:
                sender = role
                if !assembler.hasParticipant(sender) {
                    let name = message["author"]?["name"]?.string ?? role.capitalized
                    assembler.addParticipant(Participant(id: sender, name: name))
                }
            }
            var markdown: String
            var collapsedSummary: String?
            switch special {
            case .markdown(let text):
                markdown = text
            case .collapsed(let summary, let text):
                markdown = text
                collapsedSummary = summary
            case .unknown(let type, let text):
                markdown = text.isEmpty ? "" : AIChat.fence(text, language: "")
                collapsedSummary = "Unsupported content (\(type))"
                diagnostics.append(
                    .warning(
                        .other("content type '\(type)' is not understood; shown as a fallback"), at: location))
            case .leftOut, nil:
                var pieces: [String] = []
                for part in parts {
                    if let text = part.string {
                        pieces.append(text)
                    } else {
                        let type = part["content_type"]?.string ?? "attachment"
                        let pointer = part["asset_pointer"]?.string ?? ""
                        // Named by its kind: the `file-service://` pointer is ChatGPT's own, no
                        // file name a reader knows (the warning keeps it).
                        pieces.append(AIChat.missingFileChip(AIChat.attachmentKind(type)))
                        diagnostics.append(.warning(.missingMediaFile(pointer.isEmpty ? type : pointer), at: location))
                    }
                }
                markdown = pieces.joined(separator: "\n\n")
            }
            // Raw HTML in Markdown would be dropped by the safe renderer: here it is text. (The
            // bodies `ChatGPTContent` makes escape what they take from the export themselves.)
            if special == nil { markdown = AIChat.escapeHTMLOutsideCode(markdown) }
            var rich = context.richText(markdown: markdown, relativeTo: file, at: location, diagnostics: &diagnostics)
            if let collapsedSummary {
                // Closed, as ChatGPT shows it; a `<details>` opens without script.
                let wrapped = context.sanitizedHTML(AIChat.details(summary: collapsedSummary, html: rich.html))
                let assets = rich.assets
                rich = RichText(sanitizedHTML: wrapped.html, plainText: wrapped.plainText)
                rich.assets = assets
            }
            let item = Message(
                id: nodeID, sender: sender, date: lastDate, kind: .attributedText(rich),
                source: ExportSource(
                    format: "chatgpt", file: context.relativePath(file),
                    path: "$[\(index)].mapping.\(nodeID)", id: nodeID),
                location: location)
            for diagnostic in diagnostics { assembler.report(diagnostic) }
            assembler.append(item)
        }
        var imported = assembler.finish()
        AIChat.finish(&imported, named: title ?? id, at: node.location(in: shown))
        return imported
    }

    /// The `reasoning_recap` line that heads each thoughts node with text ("Thought for 12s"), by
    /// the thoughts' node id, and the recaps used so: the first recap after the thoughts and
    /// before the next prompt.
    static func recaps(
        on branch: [String], byID: [String: JSONNode]
    ) -> (
        byThoughts: [String: String], used: Set<String>
    ) {
        var byThoughts: [String: String] = [:]
        var used: Set<String> = []
        var pending: String?
        for nodeID in branch.reversed() {
            guard let message = byID[nodeID]?["message"], message.members != nil else { continue }
            let content = message["content"]
            switch content?["content_type"]?.string {
            case "thoughts":
                let record = ChatGPTContent.Record(
                    role: "assistant", contentType: "thoughts", content: content, recipient: "all", authorName: nil,
                    metadata: nil)
                if case .leftOut = ChatGPTContent.thoughts(record) { continue }
                pending = nodeID
            case "reasoning_recap":
                let text = ChatGPTContent.recapText(content)
                if let thoughts = pending, !text.isEmpty {
                    byThoughts[thoughts] = text
                    used.insert(nodeID)
                    pending = nil
                }
            default:
                if message["author"]?["role"]?.string == "user" { pending = nil }
            }
        }
        return (byThoughts, used)
    }
}
