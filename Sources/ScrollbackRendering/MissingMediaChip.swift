import ScrollbackModel

/// What the chip of media that is not in the export (template `image-placeholder`) says: its
/// kind and the file name, when the reference names one (issue 42.2).
extension MessageRenderer {
    /// The title importers give a voice recording (Telegram's `voice_message`).
    static let voiceMessageTitle = "Voice message"

    /// Whether a photo is a sticker: importers mark one by its alternative text, "Sticker" or
    /// "Sticker 😀" (Telegram, WhatsApp, Discord).
    static func isSticker(_ media: MediaItem) -> Bool {
        guard let alt = media.alt else { return false }
        return alt == "Sticker" || alt.hasPrefix("Sticker ")
    }

    /// The file name a missing media reference names, or `nil` when it names none: a path's or
    /// URL's last part with an extension (`IMG-0001.jpg`, `photos/a b.png`,
    /// `remote only: https://…/x.png?ex=1`), without a note an importer added in parentheses
    /// (Telegram's `report.pdf (not included in the export)`). An exporter's marker
    /// (`<Media omitted>`, `(File not included…)`, `image omitted`) names nothing.
    static func fileName(inReference reference: String) -> String? {
        guard let first = reference.first, first != "(", first != "<" else { return nil }
        var text = Substring(reference)
        if text.hasSuffix(")"), let note = text.range(of: " (", options: .backwards) {
            text = text[..<note.lowerBound]
        }
        if let query = text.firstIndex(where: { $0 == "?" || $0 == "#" }), text.contains("://") {
            text = text[..<query]
        }
        let last = String(text.split(separator: "/").last ?? "")
        let ext = PathText.pathExtension(last)
        guard !ext.isEmpty, ext.count <= 5, ext.allSatisfy({ $0.isLetter || $0.isNumber }),
            last.count > ext.count + 1
        else { return nil }
        return last
    }
}
