import Foundation
import ScrollbackModel

/// What one ChatGPT message on the shown branch becomes (issue 41, acceptance 4): what a reader
/// of the ChatGPT app sees, never the export's JSON.
///
/// Shapes learnt from real exports and parsers' fixtures: `thoughts` (`thoughts: [{summary,
/// content}]`, `summary` a string or a list of `{text}`; older ones `parts`), `reasoning_recap`
/// (`content: "Thought for 1m 1s"`), tool calls (an assistant's `text` or `code` with a
/// `recipient` other than `all`: `{"query"}`, `{"search_query": [{"q"}]}`, `{"queries"}`,
/// `{"open_url"}`), and tool results (`author.role == "tool"`: `execution_output` `text`,
/// `tether_browsing_display` `result`, `tether_quote` and `sonic_webpage` `url`/`title`/`text`).
enum ChatGPTContent {
    /// A message body, before it is rendered.
    enum Body: Equatable {
        /// Markdown shown as it is.
        case markdown(String)
        /// A closed `<details>`: `summary` (plain text) over `markdown`.
        case collapsed(summary: String, markdown: String)
        /// Nothing a reader would see: left out with this reason.
        case leftOut(String)
        /// A content type this importer does not know: shown as a closed fallback, with a warning.
        case unknown(type: String, text: String)
    }

    /// The fields of one message that decide its body.
    struct Record {
        var role: String
        var contentType: String
        var content: JSONNode?
        var recipient: String
        var authorName: String?
        var metadata: JSONNode?
        /// The `reasoning_recap` line that follows these thoughts ("Thought for 12s"), if any.
        var recapText: String?
    }

    /// The text of `parts` that are strings, joined by blank lines.
    static func partsText(_ content: JSONNode?) -> String {
        (content?["parts"]?.elements ?? []).compactMap(\.string).joined(separator: "\n\n")
    }

    /// The reasoning recap's line: `content`, else its parts.
    static func recapText(_ content: JSONNode?) -> String {
        let text = content?["content"]?.string ?? partsText(content)
        return ChatMarkup.trimming(text, in: .whitespacesAndNewlines)
    }

    /// The body of a message whose content type is not plain chat text (`text` and
    /// `multimodal_text` sent to everyone stay with the importer); `nil` for those.
    static func body(_ record: Record) -> Body? {
        let content = record.content
        let toTool = !record.recipient.isEmpty && record.recipient != "all"
        switch record.contentType {
        case "thoughts":
            return thoughts(record)
        case "reasoning_recap":
            let text = recapText(content)
            return text.isEmpty
                ? .leftOut("an empty reasoning recap") : .markdown("*" + ChatMarkup.escapeMarkdown(text) + "*")
        case "text", "multimodal_text":
            guard toTool else { return nil }
            return toolCall(recipient: record.recipient, text: partsText(content))
        case "code":
            let language = content?["language"]?.string ?? ""
            let code = content?["text"]?.string ?? ""
            let fenced = AIChat.fence(code, language: language == "unknown" ? "" : language)
            guard toTool else { return .markdown(fenced) }
            if let call = searchNote(recipient: record.recipient, text: code) { return call }
            return .collapsed(summary: "Ran code (\(record.recipient))", markdown: fenced)
        case "execution_output":
            let text = content?["text"]?.string ?? partsText(content)
            guard !AIChat.isBlank(text) else { return .leftOut("a tool result with no output") }
            let name = record.authorName ?? record.role
            return .collapsed(summary: "Output of \(name)", markdown: AIChat.fence(text, language: ""))
        case "tether_browsing_display":
            let text = firstText(content, ["result", "summary"])
            guard !AIChat.isBlank(text) else { return .leftOut("a browsing display with no result") }
            return .collapsed(summary: "Browsing results", markdown: AIChat.fence(text, language: ""))
        case "tether_quote", "sonic_webpage":
            let title = content?["title"]?.string ?? content?["domain"]?.string ?? "a web page"
            let url = content?["url"]?.string ?? ""
            let text = firstText(content, ["text", "snippet"])
            var markdown = AIChat.webLink(title: title, url: url)
            if !AIChat.isBlank(text) {
                markdown +=
                    "\n\n"
                    + ChatMarkup.trimming(text, in: .whitespacesAndNewlines)
                    .split(separator: "\n", omittingEmptySubsequences: false)
                    .map { "> " + ChatMarkup.escapeMarkdown(String($0)) }.joined(separator: "\n")
            }
            let verb = record.contentType == "tether_quote" ? "Quoted" : "Read"
            return .collapsed(summary: "\(verb) \(title)", markdown: markdown)
        case "system_error":
            let name = content?["name"]?.string ?? "Error"
            let text = content?["text"]?.string ?? ""
            return .markdown(
                "⚠️ *" + ChatMarkup.escapeMarkdown(name) + "*"
                    + (AIChat.isBlank(text) ? "" : "\n\n" + AIChat.fence(text, language: "")))
        case "user_editable_context":
            return .leftOut("the custom instructions (user_editable_context), which ChatGPT does not show")
        case "model_editable_context":
            return .leftOut("ChatGPT's memory (model_editable_context), which ChatGPT does not show")
        default:
            let text =
                content?["text"]?.string ?? content?["result"]?.string ?? content?["content"]?.string
                ?? partsText(content)
            return .unknown(type: record.contentType, text: text)
        }
    }

    /// Thoughts as one closed block headed "Thought for …": each thought's summary in bold over
    /// its text.
    static func thoughts(_ record: Record) -> Body {
        var pieces: [String] = []
        for thought in record.content?["thoughts"]?.elements ?? [] {
            let summary: String
            if let text = thought["summary"]?.string {
                summary = text
            } else {
                summary = (thought["summary"]?.elements ?? []).compactMap { $0["text"]?.string ?? $0.string }
                    .joined(separator: " ")
            }
            let text = thought["content"]?.string ?? ""
            var piece = ""
            if !AIChat.isBlank(summary) { piece = "**" + ChatMarkup.escapeMarkdown(AIChat.oneLine(summary)) + "**" }
            // Thoughts are Markdown; raw HTML in them is text, as in an answer.
            if !AIChat.isBlank(text) { piece += (piece.isEmpty ? "" : "\n\n") + AIChat.escapeHTMLOutsideCode(text) }
            if !piece.isEmpty { pieces.append(piece) }
        }
        let parts = partsText(record.content)
        if !AIChat.isBlank(parts) { pieces.append(AIChat.escapeHTMLOutsideCode(parts)) }
        guard !pieces.isEmpty else { return .leftOut("reasoning with no text (empty thoughts)") }
        var label = record.recapText ?? ""
        if label.isEmpty, let seconds = record.metadata?["finished_duration_sec"]?.number, seconds.isFinite {
            label = "Thought for \(Int(seconds.rounded())) s"
        }
        return .collapsed(summary: label.isEmpty ? "Thoughts" : label, markdown: pieces.joined(separator: "\n\n"))
    }

    /// An assistant's message to a tool: a one-line note for a search, else a closed block with
    /// what it sent.
    static func toolCall(recipient: String, text: String) -> Body {
        if let note = searchNote(recipient: recipient, text: text) { return note }
        guard !AIChat.isBlank(text) else { return .leftOut("a call to \(recipient) with nothing in it") }
        return .collapsed(summary: "Called \(recipient)", markdown: AIChat.fence(text, language: ""))
    }

    /// "Searched the web: …" or "Opened …" when `text` is a search or open request's JSON.
    static func searchNote(recipient: String, text: String) -> Body? {
        guard text.utf8.first == UInt8(ascii: "{"),
            let node = try? JSONParser.parse(Array(text.utf8), file: recipient),
            let note = AIChat.searchNote(tool: recipient, input: node)
        else { return nil }
        return .markdown(note)
    }

    /// The first of `keys` whose value is a string with text in it; empty when none is.
    static func firstText(_ content: JSONNode?, _ keys: [String]) -> String {
        keys.lazy.compactMap { content?[$0]?.string }.first { !AIChat.isBlank($0) } ?? ""
    }
}
