import Foundation
import ScrollbackModel

/// What the text after a WhatsApp timestamp means: who wrote it and what it is.
///
/// WhatsApp writes its markers in the phone's language; the tables below are the one place
/// for them: the English and German forms of the samples, the common Romance-language ones,
/// and French iOS media words seen in a parser's fixtures. Anything not recognised stays what
/// it looks like (a text message, or a system line), so nothing is lost.
enum WhatsAppBody {
    /// The sender and body of a message line, or `nil` for a system line.
    ///
    /// `Sender: body` is a message. A line ending in `Sender:` is a message with an empty body
    /// (a view-once photo). `Sender:body` without the space (`John Doe:.`) is a message only
    /// when `Sender` writes elsewhere in the file (`knownSenders`); else it is a system line.
    static func split(_ text: Substring, knownSenders: Set<String>) -> (sender: String, body: Substring)? {
        let firstLineEnd = text.utf8.firstIndex(of: UInt8(ascii: "\n")) ?? text.endIndex
        let firstLine = text[..<firstLineEnd]
        // A sender (at most 80 characters) and a notice are near the start: only that much is
        // searched, so a very long message costs no more than a short one.
        let head = firstLine.prefix(400)
        if isEncryptionNotice(head) { return nil }
        if let separator = head.range(of: ": ") {
            let sender = cleanSender(firstLine[..<separator.lowerBound])
            if isPlausibleSender(sender) { return (sender, text[separator.upperBound...]) }
        }
        if firstLine.hasSuffix(":") {
            let sender = cleanSender(firstLine.dropLast())
            if isPlausibleSender(sender), !sender.contains(":") {
                return (sender, text[firstLineEnd...].drop { $0 == "\n" })
            }
        }
        if let colon = head.firstIndex(of: ":") {
            let sender = cleanSender(firstLine[..<colon])
            if knownSenders.contains(sender) { return (sender, text[text.index(after: colon)...]) }
        }
        return nil
    }

    /// The sender of a `Sender: …` first line, for the pass that collects the file's senders.
    static func plainSender(_ text: Substring) -> String? {
        let firstLine = text[..<(text.utf8.firstIndex(of: UInt8(ascii: "\n")) ?? text.endIndex)].prefix(400)
        guard !isEncryptionNotice(firstLine), let separator = firstLine.range(of: ": ") else { return nil }
        let sender = cleanSender(firstLine[..<separator.lowerBound])
        return isPlausibleSender(sender) ? sender : nil
    }

    /// A name as a sender: direction marks and a leading `~` (non-contacts on newer exports) dropped.
    static func cleanSender(_ text: Substring) -> String {
        var name = String(
            String.UnicodeScalarView(text.unicodeScalars.filter { !WhatsAppChatText.isDirectionMark($0) }))
        name = name.trimmingCharacters(in: .whitespaces)
        if name.hasPrefix("~") {
            name = String(name.dropFirst()).trimmingCharacters(
                in: CharacterSet.whitespaces.union(["\u{202F}", "\u{00A0}"]))
        }
        return name
    }

    /// A sender name: not empty, not overly long, no quotes (system lines quote group names:
    /// `You changed the subject from "a: b"`).
    static func isPlausibleSender(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 80 && !name.contains(where: { "\"“”„«»".contains($0) })
    }

    /// The end-to-end encryption notice, in any language: it never has a sender, whatever it contains.
    static func isEncryptionNotice(_ line: Substring) -> Bool {
        let lowered = line.lowercased()
        return encryptionMarkers.contains { lowered.contains($0) }
    }

    static let encryptionMarkers = [
        "end-to-end encrypted", "ende-zu-ende-verschlüsselt", "cifrados de extremo a extremo",
        "chiffrés de bout en bout", "criptografia de ponta a ponta", "crittografia end-to-end",
        "end-to-end versleuteld",
    ]

    /// Whether a system line says the exporter did something (`You added Bob`, `Du hast …`).
    static func isExporterAction(_ line: String) -> Bool {
        exporterPrefixes.contains { line.hasPrefix($0) }
    }

    static let exporterPrefixes = ["You ", "Du hast ", "Du bist ", "Has ", "Vous ", "Você ", "Hai "]
    /// Sender names the exporter's own messages carry in some exports.
    static let exporterNames: Set<String> = ["You", "Du", "Tú", "Vous", "Você", "Tu", "Jij"]

    // MARK: - Markers

    /// Body text WhatsApp writes for a deleted message. The exporter's own deletions say so.
    static let deletedMarkers: [(text: String, byExporter: Bool)] = [
        ("This message was deleted", false), ("You deleted this message", true),
        ("Diese Nachricht wurde gelöscht", false), ("Du hast diese Nachricht gelöscht", true),
        ("Se eliminó este mensaje", false), ("Eliminaste este mensaje", true),
        ("Ce message a été supprimé", false), ("Vous avez supprimé ce message", true),
        ("Essa mensagem foi apagada", false), ("Você apagou esta mensagem", true),
        ("Questo messaggio è stato eliminato", false), ("Hai eliminato questo messaggio", true),
    ]

    /// The marker at the end of an edited message's body.
    static let editedMarkers = [
        "<This message was edited>", "<Diese Nachricht wurde bearbeitet>", "<Se editó este mensaje.>",
        "<Ce message a été modifié>", "<Mensagem editada>", "<Questo messaggio è stato modificato>",
    ]

    /// What media a "not exported" marker stands for.
    enum OmittedMedia { case any, image, video, audio, sticker, gif, document, contact }

    /// Markers of media left out of the export (exported "without media").
    static let omittedMarkers: [String: OmittedMedia] = [
        "<media omitted>": .any, "<medien ausgeschlossen>": .any, "<multimedia omitido>": .any,
        "<médias omis>": .any, "<mídia oculta>": .any, "<media omessi>": .any, "<media weggelaten>": .any,
        "image omitted": .image, "bild weggelassen": .image, "imagen omitida": .image, "image absente": .image,
        "video omitted": .video, "video weggelassen": .video, "vídeo omitido": .video,
        "audio omitted": .audio, "audio weggelassen": .audio, "audio omitido": .audio,
        "sticker omitted": .sticker, "sticker weggelassen": .sticker, "sticker omitido": .sticker,
        "gif omitted": .gif, "gif weggelassen": .gif, "document omitted": .document,
        "dokument weggelassen": .document, "contact card omitted": .contact, "kontaktkarte weggelassen": .contact,
        // French iOS, as a French WhatsApp parser's media list writes them (found through the
        // search index; `image absente` above is the same list's).
        "gif retiré": .gif, "sticker omis": .sticker, "vidéo absente": .video, "audio omis": .audio,
        "document omis": .document,
    ]

    /// The words around an attached file's name: iOS `<attached: NAME>`, Android `NAME (file attached)`.
    static let attachedPrefixes = [
        "<attached: ", "<anhang: ", "<adjunto: ", "<pièce jointe : ", "<anexo: ", "<allegato: ",
    ]
    static let attachedSuffixes = [
        " (file attached)", " (datei angehängt)", " (archivo adjunto)", " (fichier joint)", " (arquivo anexado)",
        " (file allegato)", " (bestand bijgevoegd)",
    ]
    /// How a shared location starts.
    static let locationPrefixes = [
        "location: ", "standort: ", "ubicación: ", "position : ", "localização: ", "posizione: ",
    ]

    /// The attached file named on `line`, if it is an attachment line.
    static func attachedFileName(_ line: String) -> String? {
        let lowered = line.lowercased()
        for prefix in attachedPrefixes where lowered.hasPrefix(prefix) && lowered.hasSuffix(">") {
            return clean(String(line.dropFirst(prefix.count).dropLast()))
        }
        for suffix in attachedSuffixes where lowered.hasSuffix(suffix) {
            return clean(String(line.dropLast(suffix.count)))
        }
        return nil
    }

    /// The coordinates of a `location: https://maps.google.com/?q=LAT,LON` line.
    static func location(_ line: String) -> (latitude: Double, longitude: Double)? {
        let lowered = line.lowercased()
        guard let prefix = locationPrefixes.first(where: { lowered.hasPrefix($0) }) else { return nil }
        let url = line.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
        guard let components = URLComponents(string: url) else { return nil }
        let value = components.queryItems?.first { ["q", "ll", "query"].contains($0.name) }?.value
        guard let pair = value?.split(separator: ","), pair.count == 2,
            let latitude = Double(pair[0].trimmingCharacters(in: .whitespaces)),
            let longitude = Double(pair[1].trimmingCharacters(in: .whitespaces)),
            (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        return (latitude, longitude)
    }

    /// Text without byte order marks and left-to-right marks (WhatsApp puts them before file
    /// names and inside words), trimmed.
    static func clean(_ text: String) -> String {
        // Copied only when there is something to drop: a message may be very long.
        let isMark = { (scalar: Unicode.Scalar) in scalar == "\u{200E}" || scalar == "\u{FEFF}" }
        let kept =
            text.unicodeScalars.contains(where: isMark)
            ? String(String.UnicodeScalarView(text.unicodeScalars.filter { !isMark($0) })) : text
        return ChatMarkup.trimming(kept, in: .whitespaces)
    }

    /// The message kind of a media file by its extension: image → photo, video, audio, else file.
    static func mediaKind(fileName: String) -> MessageKind.Name {
        let fileExtension = PathText.pathExtension(fileName).lowercased()
        if imageExtensions.contains(fileExtension) { return .photo }
        if MarkdownKindInference.videoExtensions.contains(fileExtension) || fileExtension == "3gp" { return .video }
        if MarkdownKindInference.audioExtensions.contains(fileExtension) || fileExtension == "amr" { return .audio }
        return .file
    }

    /// Images a browser shows (`webp`: stickers).
    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "gif", "webp", "avif", "bmp"]
}
