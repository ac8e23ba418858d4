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
        if let ascii = asciiExcerpt(text, limit: limit) { return ascii }
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

    /// `make` for text that is all ASCII, on bytes: there every byte is one character (a
    /// `"\r\n"` pair is one, but it is whitespace and dropped either way) and the whitespace is
    /// exactly tab, line feed, vertical tab, form feed, carriage return and space (Unicode
    /// White_Space). `nil` at a non-ASCII byte before the cut: `make` then walks the characters.
    private static func asciiExcerpt(_ text: String, limit: Int) -> String? {
        var bytes = [UInt8]()
        bytes.reserveCapacity(min(text.utf8.count, limit + 1))
        var pendingSpace = false
        for byte in text.utf8 {
            if byte >= 0x80 { return nil }
            if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                pendingSpace = !bytes.isEmpty
                continue
            }
            if pendingSpace {
                bytes.append(0x20)
                pendingSpace = false
            }
            bytes.append(byte)
            // Cut: what is kept is followed by ASCII, so no later mark can join its characters.
            if bytes.count > limit { break }
        }
        guard bytes.count > limit else { return String(decoding: bytes, as: UTF8.self) }
        // Keep limit - 1 characters and the ellipsis, without a dangling space before it.
        var kept = bytes.prefix(max(0, limit - 1))
        while kept.last == 0x20 { kept.removeLast() }
        return String(decoding: kept, as: UTF8.self) + "…"
    }
}
