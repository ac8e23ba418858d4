import Foundation
import ScrollbackModel

/// Slack's Block Kit (`blocks`) as what a message shows (issue 41, point 7).
///
/// Messages sent from Slack's editor carry `rich_text` blocks (sections, lists, quotes, code,
/// styled text, links, mentions, emoji); apps send `header`, `section`, `context`, `divider`,
/// `image`, `actions` and `table` blocks, and a poll is such blocks (the question in a section,
/// each option a section with the voters and count in a context). The blocks say more than the
/// `text` Slack writes beside them (for apps `text` is often only a notification line), so they
/// are preferred, but only when every element is understood: anything else falls back to
/// `text`, which Slack keeps as the message's readable form. Interactive elements (buttons,
/// menus, date pickers) are controls, not content: they are passed over.
extension SlackText {
    /// What a message's blocks show.
    enum BlocksContent: Equatable {
        /// Text without formatting, as a text message shows it (no Markdown needed).
        case plain(String)
        /// Markdown for cmark-gfm.
        case markdown(String)
    }

    /// The content of `blocks`, or `nil` when an element is not understood (then `text` is
    /// shown) or nothing is left. `partial`: render what is understood anyway (a message
    /// without `text` has nothing else).
    func content(ofBlocks blocks: [JSONNode], partial: Bool = false) -> BlocksContent? {
        var writer = BlockWriter(text: self)
        for block in blocks { writer.block(block) }
        guard partial || writer.understood else { return nil }
        let markdown = writer.paragraphs.filter { !$0.isEmpty }.joined(separator: "\n\n")
        guard !markdown.isEmpty else { return nil }
        if !writer.needsMarkdown, let plain = writer.plain { return .plain(plain) }
        return .markdown(markdown)
    }

    /// A link as Markdown: web and mail addresses only (anything else is its label as text).
    static func linkMarkdown(label: String, url: String) -> String {
        guard url.hasPrefix("http://") || url.hasPrefix("https://") || url.hasPrefix("mailto:") else {
            return ChatMarkup.escapeMarkdown(label)
        }
        // In `<…>` a destination may hold neither `<`, `>` nor a line break.
        var target = url
        if target.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == 0x0A }) {
            target = target.replacingOccurrences(of: "<", with: "%3C").replacingOccurrences(of: ">", with: "%3E")
                .replacingOccurrences(of: "\n", with: "%0A")
        }
        return "[" + ChatMarkup.escapeMarkdown(label) + "](<" + target + ">)"
    }

    /// `1f44d` or `1f468-200d-1f4bb` as the emoji.
    static func unicodeEmoji(_ hex: String) -> String? {
        var out = ""
        for part in hex.split(separator: "-") {
            guard let value = UInt32(part, radix: 16), let scalar = Unicode.Scalar(value) else { return nil }
            out.unicodeScalars.append(scalar)
        }
        return out.isEmpty ? nil : out
    }
}

/// Writes blocks as Markdown paragraphs, keeping the plain text beside while nothing needs
/// Markdown, and noting whether every element was understood.
struct BlockWriter {
    let text: SlackText
    /// The blocks' Markdown paragraphs.
    var paragraphs: [String] = []
    /// The same as plain text while nothing needs Markdown (one `rich_text` of sections).
    var plain: String? = ""
    /// Whether an element needs Markdown (styles, lists, quotes, code, labelled links, app blocks).
    var needsMarkdown = false
    /// Whether every element was understood.
    var understood = true

    /// Holds at most this many table columns (a table's Markdown grows with columns × rows).
    static let maxTableColumns = 64

    mutating func block(_ block: JSONNode) {
        let type = block["type"]?.string
        if type != "rich_text" { needsMarkdown = true }
        switch type {
        case "rich_text":
            // A list Slack splits at each change of indent is one Markdown list: its parts
            // follow each other without a blank line.
            var markdown = ""
            var previousIsList = false
            for element in block["elements"]?.elements ?? [] {
                let isList = element["type"]?.string == "rich_text_list"
                let part = richElement(element, depth: 0)
                if !markdown.isEmpty { markdown += isList && previousIsList ? "\n" : "\n\n" }
                markdown += part
                previousIsList = isList
            }
            paragraphs.append(markdown)
        case "header":
            paragraphs.append(textObject(block["text"]).map { $0.isEmpty ? "" : "**" + $0 + "**" } ?? "")
        case "section":
            var parts: [String] = []
            if let text = textObject(block["text"]) { parts.append(text) }
            for field in block["fields"]?.elements ?? [] {
                if let text = textObject(field) { parts.append(text) }
            }
            if let accessory = block["accessory"], accessory["type"]?.string == "image" {
                parts.append(image(accessory))
            }
            paragraphs.append(parts.filter { !$0.isEmpty }.joined(separator: "  \n"))
        case "context":
            let parts = (block["elements"]?.elements ?? []).map { element in
                element["type"]?.string == "image"
                    ? ChatMarkup.escapeMarkdown(element["alt_text"]?.string ?? "") : textObject(element) ?? ""
            }
            paragraphs.append(parts.filter { !$0.isEmpty }.joined(separator: " · "))
        case "divider":
            paragraphs.append("---")
        case "image":
            paragraphs.append(image(block))
        case "actions", "input":
            break  // controls: buttons, menus, pickers
        case "table":
            paragraphs.append(table(block))
        case "markdown":
            // Standard Markdown an app sent: cmark-gfm's safe mode reads it as any Markdown.
            paragraphs.append(block["text"]?.string ?? "")
        default:
            understood = false
        }
    }

    /// A text object (`plain_text` or `mrkdwn`) as Markdown; `nil` when there is none.
    mutating func textObject(_ node: JSONNode?) -> String? {
        guard let node, let value = node["text"]?.string else { return nil }
        switch node["type"]?.string {
        case "mrkdwn": return text.markdown(mrkdwn: value)
        case "plain_text":
            // Slack replaces `:shortcode:` in plain text when `emoji` is true (its default).
            return node["emoji"]?.bool == false
                ? ChatMarkup.escapeMarkdown(value) : ChatMarkup.escapeMarkdown(SlackText.replacingShortcodes(value))
        default:
            understood = false
            return nil
        }
    }

    /// An image block or element: a link to it, named by its title or alt text (remote images
    /// are not loaded; an export's URLs need a login or expire).
    func image(_ node: JSONNode) -> String {
        let label = node["title"]?["text"]?.string ?? node["alt_text"]?.string ?? "image"
        guard let url = node["image_url"]?.string else { return ChatMarkup.escapeMarkdown("🖼 " + label) }
        return "🖼 " + SlackText.linkMarkdown(label: label.isEmpty ? "image" : label, url: url)
    }

    /// A `table` block as a GFM table (its first row the header).
    mutating func table(_ block: JSONNode) -> String {
        let rows: [[String]] = (block["rows"]?.elements ?? []).map { row in
            (row.elements ?? []).prefix(Self.maxTableColumns).map { cell in
                let markdown: String
                switch cell["type"]?.string {
                case "raw_text": markdown = ChatMarkup.escapeMarkdown(cell["text"]?.string ?? "")
                case "rich_text":
                    markdown = (cell["elements"]?.elements ?? []).map { richElement($0, depth: 0) }.joined(
                        separator: " ")
                default:
                    understood = false
                    markdown = ChatMarkup.escapeMarkdown(cell["text"]?.string ?? "")
                }
                // A cell is one line.
                return markdown.replacingOccurrences(of: "  \n", with: " ").replacingOccurrences(of: "\n", with: " ")
            }
        }
        let columns = rows.map(\.count).max() ?? 0
        guard columns > 0 else { return "" }
        func line(_ cells: [String]) -> String {
            "| " + (cells + Array(repeating: "", count: columns - cells.count)).joined(separator: " | ") + " |"
        }
        return ([line(rows[0]), line(Array(repeating: "---", count: columns))] + rows.dropFirst().map(line))
            .joined(separator: "\n")
    }

    /// A `rich_text` element: a section, list, quote or preformatted block.
    mutating func richElement(_ element: JSONNode, depth: Int) -> String {
        let children = element["elements"]?.elements ?? []
        switch element["type"]?.string {
        case "rich_text_section":
            if plain != nil {
                // Sections of plain text stay plain text, one line after another.
                if let last = plain, !last.isEmpty, !last.hasSuffix("\n") { plain = last + "\n" }
            }
            return children.map { inline($0) }.joined()
        case "rich_text_preformatted":
            needsMarkdown = true
            let code = children.map { $0["text"]?.string ?? $0["url"]?.string ?? "" }.joined()
            return ChatMarkup.codeBlock(code).trimmingCharacters(in: .newlines)
        case "rich_text_quote":
            needsMarkdown = true
            let body = children.map { inline($0) }.joined()
            return body.split(separator: "\n", omittingEmptySubsequences: false).map { "> " + $0 }.joined(
                separator: "\n")
        case "rich_text_list":
            needsMarkdown = true
            let ordered = element["style"]?.string == "ordered"
            let first = (element["offset"]?.number(in: 0...1_000_000)).map { Int($0) } ?? 0
            let indent = (element["indent"]?.number(in: 0...8)).map { Int($0) } ?? 0
            let padding = String(repeating: " ", count: 4 * indent)
            return children.enumerated().map { offset, item in
                padding + (ordered ? "\(first + offset + 1). " : "- ") + richElement(item, depth: depth + 1)
            }.joined(separator: "\n")
        default:
            understood = false
            return children.map { inline($0) }.joined()
        }
    }

    /// An inline element as Markdown (and as plain text while that lasts).
    mutating func inline(_ element: JSONNode) -> String {
        let shown: String
        switch element["type"]?.string {
        case "text":
            let value = element["text"]?.string ?? ""
            let style = element["style"]
            let styled = ["bold", "italic", "strike", "code"].filter { style?[$0]?.bool == true }
            guard !styled.isEmpty else {
                shown = value
                break
            }
            needsMarkdown = true
            return Self.styled(
                value, bold: styled.contains("bold"), italic: styled.contains("italic"),
                strike: styled.contains("strike"), code: styled.contains("code"))
        case "link":
            guard let url = element["url"]?.string else {
                understood = false
                return ""
            }
            let label = element["text"]?.string ?? ""
            if label.isEmpty || label == url {
                shown = url  // a bare URL: text messages link it
            } else {
                needsMarkdown = true
                return SlackText.linkMarkdown(label: label, url: url)
            }
        case "user":
            let id = element["user_id"]?.string ?? ""
            shown = "@" + (text.users[id] ?? id)
        case "channel":
            guard let id = element["channel_id"]?.string, let name = text.channels[id] else {
                understood = false  // `text` names it (`<#C…|name>`)
                return ""
            }
            shown = "#" + name
        case "broadcast":
            shown = "@" + (element["range"]?.string ?? "here")
        case "emoji":
            let name = element["name"]?.string ?? ""
            let tone = element["skin_tone"]?.number(in: 2...6).map { "::skin-tone-\(Int($0))" } ?? ""
            if let emoji = SlackText.emoji(name + tone) ?? element["unicode"]?.string.flatMap(SlackText.unicodeEmoji) {
                shown = emoji
            } else if let custom = text.emojiMarkdown(name) {
                needsMarkdown = true
                return custom
            } else {
                shown = ":" + name + ":"
            }
        case "date":
            shown = element["fallback"]?.string ?? ""
        case "color":
            shown = element["value"]?.string ?? ""
        default:
            understood = false
            return ""
        }
        if plain != nil { plain! += shown }
        return ChatMarkup.escapeMarkdown(shown).replacingOccurrences(of: "\n", with: "  \n")
    }

    /// Styled text as Markdown: spaces at either end stay outside the markers (`**bold **`
    /// would not close), and `*` (not `_`) makes italics, which may stand inside a word.
    static func styled(_ value: String, bold: Bool, italic: Bool, strike: Bool, code: Bool) -> String {
        let scalars = value.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return ChatMarkup.escapeMarkdown(value).replacingOccurrences(of: "\n", with: "  \n") }
        let lead = String(scalars[..<first])
        let core = String(scalars[first...last])
        let trail = String(scalars[scalars.index(after: last)...])
        var out =
            code
            ? ChatMarkup.codeSpan(core) : ChatMarkup.escapeMarkdown(core).replacingOccurrences(of: "\n", with: "  \n")
        if italic { out = "*" + out + "*" }
        if bold { out = "**" + out + "**" }
        if strike { out = "~~" + out + "~~" }
        func spaces(_ text: String) -> String { text.replacingOccurrences(of: "\n", with: "  \n") }
        return spaces(lead) + out + spaces(trail)
    }
}
