/// Short one-line excerpts of message text, for reply quotes and the index's last-message preview.
public enum TextExcerpt {
    /// The default length of an excerpt, in characters (grapheme clusters).
    public static let defaultLimit = 120

    /// `text` on one line (every run of whitespace, line breaks included, becomes one space;
    /// leading and trailing whitespace dropped), cut to at most `limit` characters at a
    /// grapheme-cluster boundary, ending in "…" when it was cut.
    ///
    /// Never splits an emoji or a letter with its accents, since it counts `Character`s.
    public static func make(_ text: String, limit: Int = defaultLimit) -> String {
        var line = ""
        line.reserveCapacity(min(text.utf8.count, limit * 4 + 4))
        var pendingSpace = false
        var characters = 0
        for character in text {
            if character.isWhitespace {
                pendingSpace = !line.isEmpty
                continue
            }
            if pendingSpace {
                line.append(" ")
                characters += 1
                pendingSpace = false
            }
            line.append(character)
            characters += 1
            // One character more than fits tells that the text must be cut.
            if characters > limit { break }
        }
        guard characters > limit else { return line }
        // Keep limit - 1 characters and the ellipsis, without a dangling space before it.
        var kept = String(line.prefix(max(0, limit - 1)))
        while kept.last?.isWhitespace == true { kept.removeLast() }
        return kept + "…"
    }
}
