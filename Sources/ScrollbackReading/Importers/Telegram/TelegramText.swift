import Foundation
import ScrollbackHTML
import ScrollbackModel

/// Telegram Desktop's message text: a plain string, or an array of strings and entity
/// objects (`{"type": "bold", "text": "…"}`, `text_link` with `href`, `pre` with `language`).
/// Formatting becomes the model's rich text (safe HTML through the sanitizer), never raw markup.
enum TelegramText {
    /// One run of text and how it is formatted.
    struct Piece: Equatable {
        var type: String
        var text: String
        var href: String?
    }

    /// The runs of a `text` (or `text_entities`) value; `nil` when it is neither a string nor an array.
    static func pieces(_ node: JSONNode) -> [Piece]? {
        if let text = node.string { return text.isEmpty ? [] : [Piece(type: "plain", text: text)] }
        guard let elements = node.elements else { return nil }
        return elements.compactMap { element in
            if let text = element.string { return Piece(type: "plain", text: text) }
            guard let text = element["text"]?.string else { return nil }
            return Piece(type: element["type"]?.string ?? "plain", text: text, href: element["href"]?.string)
        }
    }

    /// Entity types shown as plain text: the words are the content (`@name`, `#tag`, `/start`).
    static let plainTypes: Set<String> = [
        "plain", "mention", "mention_name", "hashtag", "cashtag", "bot_command", "bank_card", "custom_emoji",
    ]

    /// The message kind for `pieces`: emoji only → `emoji`; no formatting → `text` (whose URLs,
    /// e-mail addresses and mentions the renderer links); anything else → `attributedText`.
    static func kind(_ pieces: [Piece], sanitizer: HTMLSanitizer) -> MessageKind {
        let plain = pieces.map(\.text).joined()
        if pieces.allSatisfy({ plainTypes.contains($0.type) }) {
            let trimmed = plain.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty, trimmed.allSatisfy({ $0.isWhitespace || MarkdownKindInference.isEmoji($0) }) {
                return .emoji(trimmed)
            }
            return .text(plain)
        }
        let sanitized = sanitizer.sanitize(html(pieces))
        // The sanitized HTML's text, not the pieces': the log `import` writes holds the HTML, and
        // its build indexes that text for search (issue 43: the two sites must be the same).
        return .attributedText(RichText(sanitizedHTML: sanitized.html, plainText: sanitized.plainText))
    }

    /// The pieces as an HTML fragment: every text escaped, line breaks as `<br>` outside code blocks.
    static func html(_ pieces: [Piece]) -> String {
        var html = ""
        for piece in pieces {
            let escaped = HTMLSanitizer.escape(piece.text)
            let text = escaped.replacingOccurrences(of: "\n", with: "<br>")
            switch piece.type {
            case "bold": html += "<strong>\(text)</strong>"
            case "italic": html += "<em>\(text)</em>"
            case "underline": html += "<u>\(text)</u>"
            case "strikethrough": html += "<del>\(text)</del>"
            case "code": html += "<code>\(escaped)</code>"
            case "pre": html += "<pre><code>\(escaped)</code></pre>"
            case "blockquote", "expandable_blockquote": html += "<blockquote>\(text)</blockquote>"
            case "spoiler": html += "<span>\(text)</span>"
            case "text_link": html += link(piece.href ?? piece.text, text)
            case "link":
                let target = piece.text.contains("://") ? piece.text : "https://" + piece.text
                html += link(target, text)
            case "email": html += link("mailto:" + piece.text, text)
            case "phone":
                html += link("tel:" + piece.text.filter { $0.isNumber || $0 == "+" }, text)
            default: html += text
            }
        }
        return html
    }

    /// A link; the sanitizer keeps it only for a safe scheme.
    static func link(_ target: String, _ text: String) -> String {
        "<a href=\"\(HTMLSanitizer.escape(target))\">\(text)</a>"
    }
}
