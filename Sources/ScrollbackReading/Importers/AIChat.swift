import Foundation
import ScrollbackHTML
import ScrollbackModel

/// What the importers of AI chats (ChatGPT, Claude.ai) share, in one place: the Markdown they
/// build answers, tool calls and attachments from, the closed `<details>` blocks thoughts and
/// tool output read as, and how a finished conversation is laid out (issue 42.5).
enum AIChat {
    /// Reads each file of `export` as a `conversations.json` (ChatGPT's and Claude.ai's share the
    /// shape): an array of conversations, or one conversation object, each emitted as
    /// `conversation(node, index, file, shown)` makes it. A file that is neither is a located
    /// error; the other files are still read.
    static func readConversations(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void,
        conversation: (JSONNode, Int, URL, String) -> ImportedConversation
    ) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for file in export.items {
            let shown = context.displayPath(file)
            guard let root = context.parseJSON(file, shown: shown, report: { diagnostics.append($0) }) else {
                continue
            }
            let conversations = root.elements ?? (root.members != nil ? [root] : [])
            if root.elements == nil, root.members == nil {
                diagnostics.append(
                    .error(
                        .wrongType(field: "(top level)", expected: "an array of conversations, not \(root.typeName)"),
                        at: root.location(in: shown)))
            }
            for (index, node) in conversations.enumerated() {
                emit(conversation(node, index, file, shown))
            }
        }
        return diagnostics
    }

    /// `<` outside code fences and spans escaped as `\<`, so cmark-gfm shows it as text: an
    /// answer's raw HTML would be dropped by the safe renderer, and it is text to the reader.
    static func escapeHTMLOutsideCode(_ markdown: String) -> String {
        var out = ""
        var inFence = false
        for (number, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if number > 0 { out += "\n" }
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                out += line
                continue
            }
            if inFence {
                out += line
                continue
            }
            var inSpan = false
            for character in line {
                if character == "`" { inSpan.toggle() }
                out += !inSpan && character == "<" ? "\\<" : String(character)
            }
        }
        return out
    }

    /// A fenced block holding `code` as it is, with `language` as its info string (dropped when it
    /// holds anything but letters, digits and `+#._-`).
    static func fence(_ code: String, language: String) -> String {
        let block = ChatMarkup.codeBlock(code)
        let safe = language.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) || "+#._-".unicodeScalars.contains($0)
        }
        guard !language.isEmpty, safe, let newline = block.dropFirst().firstIndex(of: "\n") else { return block }
        // The opening fence is the first line after the leading newline.
        return String(block[..<newline]) + language + String(block[newline...])
    }

    /// A Markdown link to `url` when it is http(s), else the title as text.
    static func webLink(title: String, url: String) -> String {
        let lower = url.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), !url.contains(where: \.isWhitespace) else {
            return ChatMarkup.escapeMarkdown(oneLine(title))
        }
        let target = url.replacingOccurrences(of: "(", with: "%28").replacingOccurrences(of: ")", with: "%29")
        return "[" + ChatMarkup.escapeMarkdown(oneLine(title)) + "](" + target + ")"
    }

    /// Whether `text` holds nothing but white space.
    static func isBlank(_ text: String) -> Bool {
        text.allSatisfy { $0.isWhitespace }
    }

    /// `text` trimmed, its lines joined by spaces (a summary line, a query).
    static func oneLine(_ text: String) -> String {
        ChatMarkup.trimming(text, in: .whitespacesAndNewlines).split(whereSeparator: \.isNewline).joined(
            separator: " ")
    }

    /// "Searched the web: …" or "Opened …" when `input` (what an assistant sent tool `tool`) is a
    /// search or an open request; `nil` otherwise. Both apps show such a call as one line.
    static func searchNote(tool: String, input: JSONNode) -> String? {
        var queries: [String] = []
        for key in ["query", "q"] { if let query = input[key]?.string { queries.append(query) } }
        for key in ["search_query", "queries"] {
            for element in input[key]?.elements ?? [] {
                if let query = element.string ?? element["q"]?.string { queries.append(query) }
            }
        }
        queries = queries.map(oneLine).filter { !isBlank($0) }
        let what = tool.contains("file") ? "Searched the files" : "Searched the web"
        if !queries.isEmpty {
            return "🔎 *" + what + ":* " + queries.map { ChatMarkup.escapeMarkdown($0) }.joined(separator: " · ")
        }
        var opened: [String] = []
        for key in ["open_url", "url"] { if let url = input[key]?.string { opened.append(url) } }
        for element in input["open"]?.elements ?? [] {
            if let url = element["ref_id"]?.string ?? element.string { opened.append(url) }
        }
        guard !opened.isEmpty else { return nil }
        return "🌐 *Opened:* " + opened.map { webLink(title: $0, url: $0) }.joined(separator: " · ")
    }

    /// The chip a file the export names but does not hold reads as: "📎 Photo (not in this export)".
    static func missingFileChip(_ name: String) -> String {
        "📎 " + ChatMarkup.escapeMarkdown(oneLine(name)) + " (not in this export)"
    }

    /// What an attached file is, by its content or MIME type (`image_asset_pointer`, `image/png`
    /// → "Photo"), in the words the missing-media chip uses.
    static func attachmentKind(_ contentType: String) -> String {
        if contentType.contains("image") { return "Photo" }
        if contentType.contains("video") { return "Video" }
        if contentType.contains("audio") { return "Audio" }
        return "File"
    }

    /// A closed `<details>` headed by `summary` (plain text, escaped here) over `html` (already
    /// sanitized): closed, as the apps show thoughts and tool output; it opens without script.
    static func details(summary: String, html: String) -> String {
        "<details><summary>" + HTMLSanitizer.escape(summary) + "</summary>" + html + "</details>"
    }

    /// An imported AI conversation as the site shows it: the answers read as documents (issue
    /// 42.5, kept by `import`, which writes the option), and a conversation with nothing to show
    /// left out of the site with a warning naming it, never an empty page in the index.
    static func finish(_ imported: inout ImportedConversation, named name: String, at location: SourceLocation) {
        imported.conversation?.layout.presentation = .document
        guard let conversation = imported.conversation, conversation.messages.isEmpty else { return }
        imported.conversation = nil
        let leftOut = imported.ledger.leftOut.count
        imported.diagnostics.append(
            .warning(
                .other(
                    "conversation '\(name)' has no message to show"
                        + (leftOut > 0 ? " (\(leftOut) left out, none built)" : "") + "; it is left out of the site"),
                at: location))
    }
}
