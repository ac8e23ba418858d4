import Foundation
import ScrollbackModel

/// What one Claude.ai message shows (issue 43): its attachments, then its `content` blocks in
/// order, as the app shows them, never the export's JSON.
///
/// Shapes learnt from real exports and parsers' fixtures: `text` (Markdown; `citations` are not
/// carried over), `thinking` (`thinking`, `summaries: [{summary}]`, a `signature` that is not
/// shown), `tool_use` (`name`, `input`; Claude.ai's `artifacts` tool with `command`, `title`,
/// `content` or `old_str`/`new_str`), `tool_result` (`tool_use_id`, `is_error`, `content` a string
/// or blocks: `text`, `knowledge` with `title`/`url`/`text`, base64 `image`), `image`; older
/// messages have only `text`. `attachments` carry the text Claude read from a file
/// (`extracted_content`); `files` name uploads the export does not hold.
enum ClaudeContent {
    /// A part of a message body, before it is rendered.
    enum Piece: Equatable {
        /// Markdown shown as it is.
        case markdown(String)
        /// A closed `<details>`: `summary` (plain text) over `markdown`.
        case collapsed(summary: String, markdown: String)
    }

    /// A message's body: its pieces, and the warnings met making them (an unknown block, a file
    /// the export does not hold).
    struct Body {
        var pieces: [Piece] = []
        var warnings: [Diagnostic] = []
    }

    /// The body of `message`. `toolNames` names each `tool_use` id of the conversation, so a
    /// result says which tool it came from; warnings are located at `location`.
    static func body(of message: JSONNode, toolNames: [String: String], at location: SourceLocation) -> Body {
        var body = Body()
        attachments(of: message, into: &body, at: location)
        let before = body.pieces.count
        for block in message["content"]?.elements ?? [] {
            self.block(block, toolNames: toolNames, into: &body, at: location)
        }
        // Older messages (and a `content` with nothing to show) have their words in `text`;
        // newer ones repeat their blocks there (thinking included), so it is read only then.
        if body.pieces.count == before, let text = message["text"]?.string, !AIChat.isBlank(text) {
            body.pieces.append(.markdown(AIChat.escapeHTMLOutsideCode(text)))
        }
        return body
    }

    /// Whether `message` carries nothing but tool results (the API's shape: results go back to
    /// the model in a human turn), so the site shows them as the tool's, not as the person's.
    static func holdsOnlyToolResults(_ message: JSONNode) -> Bool {
        let blocks = message["content"]?.elements ?? []
        return !blocks.isEmpty && blocks.allSatisfy { $0["type"]?.string == "tool_result" }
            && (message["attachments"]?.elements ?? []).isEmpty && (message["files"]?.elements ?? []).isEmpty
    }

    /// The ids and names of every `tool_use` block in `messages`.
    static func toolNames(in messages: [JSONNode]) -> [String: String] {
        var names: [String: String] = [:]
        for message in messages {
            for block in message["content"]?.elements ?? [] where block["type"]?.string == "tool_use" {
                if let id = block["id"]?.string, let name = block["name"]?.string { names[id] = name }
            }
        }
        return names
    }

    /// A file Claude read (`extracted_content`) as a closed block headed by its name; a file with no
    /// text and each upload in `files` as the "not in this export" chip, with a warning.
    static func attachments(of message: JSONNode, into body: inout Body, at location: SourceLocation) {
        var shown: Set<String> = []
        for attachment in message["attachments"]?.elements ?? [] {
            let name = attachment["file_name"]?.string.flatMap { AIChat.isBlank($0) ? nil : $0 } ?? "Pasted text"
            let text = attachment["extracted_content"]?.string ?? ""
            if AIChat.isBlank(text) {
                body.pieces.append(.markdown(AIChat.missingFileChip(name)))
                body.warnings.append(.warning(.missingMediaFile(name), at: location))
            } else {
                body.pieces.append(
                    .collapsed(summary: "📄 " + AIChat.oneLine(name), markdown: AIChat.fence(text, language: "")))
                shown.insert(name)
            }
        }
        // `files_v2` repeats `files` in newer exports; it is read when `files` is absent.
        for file in message["files"]?.elements ?? message["files_v2"]?.elements ?? [] {
            let name = file["file_name"]?.string.flatMap { AIChat.isBlank($0) ? nil : $0 }
            // The same file as an attachment whose text is shown above: not named twice.
            if let name, shown.contains(name) { continue }
            let kind = file["file_kind"]?.string ?? file["file_type"]?.string ?? ""
            let label = name ?? AIChat.attachmentKind(kind)
            body.pieces.append(.markdown(AIChat.missingFileChip(label)))
            body.warnings.append(.warning(.missingMediaFile(label), at: location))
        }
    }

    /// One `content` block.
    static func block(
        _ block: JSONNode, toolNames: [String: String], into body: inout Body, at location: SourceLocation
    ) {
        let type = block["type"]?.string ?? "(no type)"
        switch type {
        case "text":
            if let text = block["text"]?.string, !AIChat.isBlank(text) {
                body.pieces.append(.markdown(AIChat.escapeHTMLOutsideCode(text)))
            }
        case "thinking":
            // The signature is a check of the model's, not words: not shown.
            guard let text = block["thinking"]?.string, !AIChat.isBlank(text) else { return }
            let summaries = (block["summaries"]?.elements ?? []).compactMap { $0["summary"]?.string }
            let label = summaries.last { !AIChat.isBlank($0) }.map { "Thinking: " + AIChat.oneLine($0) } ?? "Thinking"
            body.pieces.append(.collapsed(summary: label, markdown: AIChat.escapeHTMLOutsideCode(text)))
        case "tool_use":
            body.pieces.append(toolUse(block))
        case "tool_result":
            body.pieces.append(toolResult(block, toolNames: toolNames, into: &body, at: location))
        case "image":
            body.pieces.append(.markdown(image(block, into: &body, at: location)))
        default:
            // Not understood: named in a note, never shown as JSON; any text it carries is kept.
            body.warnings.append(
                .warning(.other("content block type '\(type)' is not understood; a note is shown"), at: location))
            let name = ChatMarkup.escapeMarkdown(type)
            if let text = block["text"]?.string, !AIChat.isBlank(text) {
                body.pieces.append(
                    .collapsed(summary: "Unsupported content (\(type))", markdown: AIChat.fence(text, language: "")))
            } else {
                body.pieces.append(.markdown("*Not shown: a “\(name)” block this version does not read.*"))
            }
        }
    }

    /// A tool call: one line for a search, the artifact's text for Claude.ai's artifacts, else the
    /// tool's name over what it was sent.
    static func toolUse(_ block: JSONNode) -> Piece {
        let name = block["name"]?.string ?? "a tool"
        guard let input = block["input"], let members = input.members, !members.isEmpty else {
            return .markdown("🔧 *Used " + ChatMarkup.escapeMarkdown(AIChat.oneLine(name)) + "*")
        }
        if let note = AIChat.searchNote(tool: name, input: input) { return .markdown(note) }
        let title = input["title"]?.string ?? input["id"]?.string
        let language = input["language"]?.string ?? ""
        if let content = input["content"]?.string ?? input["code"]?.string {
            let what = name == "artifacts" ? "Artifact" : "Used \(name)"
            return .collapsed(
                summary: what + (title.map { ": " + AIChat.oneLine($0) } ?? ""),
                markdown: AIChat.fence(content, language: language))
        }
        if let old = input["old_str"]?.string, let new = input["new_str"]?.string {
            let what = name == "artifacts" ? "Edited the artifact" : "Used \(name)"
            return .collapsed(
                summary: what + (title.map { ": " + AIChat.oneLine($0) } ?? ""),
                markdown: "Replaced:\n" + AIChat.fence(old, language: language) + "\nwith:\n"
                    + AIChat.fence(new, language: language))
        }
        return .collapsed(summary: "Used \(name)", markdown: AIChat.fence(prettyJSON(input), language: "json"))
    }

    /// A tool's result, closed, headed by the tool's name (and "Error from" when `is_error`).
    static func toolResult(
        _ block: JSONNode, toolNames: [String: String], into body: inout Body, at location: SourceLocation
    ) -> Piece {
        let name = block["name"]?.string ?? block["tool_use_id"]?.string.flatMap { toolNames[$0] } ?? "a tool"
        let failed = block["is_error"]?.bool == true
        var parts: [String] = []
        let content = block["content"]
        if let text = content?.string, !AIChat.isBlank(text) { parts.append(AIChat.fence(text, language: "")) }
        for item in content?.elements ?? [] {
            switch item["type"]?.string {
            case "text":
                if let text = item["text"]?.string, !AIChat.isBlank(text) {
                    parts.append(AIChat.fence(text, language: ""))
                }
            case "knowledge":
                var part = AIChat.webLink(
                    title: item["title"]?.string ?? item["url"]?.string ?? "a source", url: item["url"]?.string ?? "")
                if let text = item["text"]?.string, !AIChat.isBlank(text) {
                    part +=
                        "\n\n"
                        + ChatMarkup.trimming(text, in: .whitespacesAndNewlines)
                        .split(separator: "\n", omittingEmptySubsequences: false)
                        .map { "> " + ChatMarkup.escapeMarkdown(String($0)) }.joined(separator: "\n")
                }
                parts.append(part)
            case "image":
                parts.append(image(item, into: &body, at: location))
            default:
                let type = item["type"]?.string ?? "(no type)"
                body.warnings.append(
                    .warning(
                        .other("tool result part type '\(type)' is not understood; a note is shown"), at: location))
                parts.append("*Not shown: a “\(ChatMarkup.escapeMarkdown(type))” part this version does not read.*")
            }
        }
        let summary = (failed ? "Error from " : "Result of ") + AIChat.oneLine(name)
        guard !parts.isEmpty else {
            return .markdown("🔧 *" + ChatMarkup.escapeMarkdown(summary) + ": no output*")
        }
        return .collapsed(summary: summary, markdown: parts.joined(separator: "\n\n"))
    }

    /// An image block: the chip, with a warning. Embedded (base64) images are not carried over:
    /// a `data:` URL is never written into the site, and the export holds no file of it.
    static func image(_ block: JSONNode, into body: inout Body, at location: SourceLocation) -> String {
        let embedded = block["source"]?["type"]?.string == "base64"
        let kind = block["source"]?["media_type"]?.string ?? "image"
        body.warnings.append(
            .warning(
                .other(
                    embedded
                        ? "an embedded (base64) \(kind) is not carried over; a placeholder is shown"
                        : "an image the export does not hold; a placeholder is shown"), at: location))
        let name = AIChat.attachmentKind(kind)
        return "📎 " + name + (embedded ? " (embedded in the export, not carried over)" : " (not in this export)")
    }

    /// `node` as indented JSON, members in source order: what a tool was sent, for reading.
    /// Past eight levels the rest is written on one line, so deep input does not grow by its depth
    /// squared.
    static func prettyJSON(_ node: JSONNode, indent: String = "") -> String {
        let inner = indent + "  "
        switch indent.count < 16 ? node.value : .null {
        case .null where indent.count >= 16:
            return JSONLogWriter.json(node.jsonValue)
        case .array(let elements):
            guard !elements.isEmpty else { return "[]" }
            return "[\n" + elements.map { inner + prettyJSON($0, indent: inner) }.joined(separator: ",\n") + "\n"
                + indent + "]"
        case .object(let members):
            guard !members.isEmpty else { return "{}" }
            return "{\n"
                + members.map { inner + JSONText.quoted($0.key) + ": " + prettyJSON($0.value, indent: inner) }
                .joined(separator: ",\n") + "\n" + indent + "}"
        default:
            return JSONLogWriter.json(node.jsonValue)
        }
    }
}
