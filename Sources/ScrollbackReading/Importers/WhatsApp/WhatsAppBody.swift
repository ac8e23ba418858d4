import Foundation
import ScrollbackModel

/// What the text after a WhatsApp timestamp means: who wrote it and what it is.
///
/// WhatsApp writes its markers in the phone's language; `WhatsAppPhrases` holds them for every
/// language the apps ship (generated from WhatsApp's own strings). Anything not recognised
/// stays what it looks like (a text message, or a system line), so nothing is lost.
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

    /// The end-to-end encryption notice, in any language: it never has a sender, whatever it
    /// contains. Android writes it as the line; iOS after a name (`Alice: ‎Messages and calls …`).
    static func isEncryptionNotice(_ line: Substring) -> Bool {
        if startsWithEncryptionNotice(line) { return true }
        guard let separator = line.range(of: ": ") else { return false }
        return startsWithEncryptionNotice(line[separator.upperBound...])
    }

    /// Whether `text` opens with an encryption notice (looked up by its first characters, so a
    /// line costs the same however many languages there are).
    private static func startsWithEncryptionNotice(_ text: Substring) -> Bool {
        guard WhatsAppPhrases.mayStart(text, with: WhatsAppPhrases.encryptedFirstScalars) else { return false }
        let start = WhatsAppPhrases.normalized(text.prefix(WhatsAppPhrases.encryptedStartLength + 8))
        guard
            let candidates = WhatsAppPhrases.encryptedByStart[
                String(start.prefix(WhatsAppPhrases.encryptedStartLength))]
        else { return false }
        let head = WhatsAppPhrases.normalized(text.prefix(400))
        return candidates.contains { head.hasPrefix($0) }
    }

    /// Whether a line is in the exporter's own voice: a system line saying the exporter did
    /// something (`You added Bob`, `Du hast die Gruppe „X“ erstellt.`, `आपने %@ को हटाया`) or
    /// the exporter's deletion (`You deleted this message`), in any language of the table.
    /// `You were added` is not: someone else did it.
    static func isExporterVoice(_ line: some StringProtocol) -> Bool {
        if WhatsAppPhrases.deleted[WhatsAppPhrases.normalized(line)] == true { return true }
        return WhatsAppPhrases.systemTemplate(line)?.byExporter == true
    }

    /// Whether a message's body is a system line WhatsApp wrote under a name: iOS puts a group's
    /// (or the other person's) name before its notices and starts them with a direction mark
    /// (`Group: ‎Alice added Bob`). Only such a body is looked up, so a message that merely
    /// reads like a notice stays a message.
    static func isSystemBody(_ rawBody: some StringProtocol) -> Bool {
        guard let first = rawBody.unicodeScalars.first, WhatsAppChatText.isDirectionMark(first) else { return false }
        let firstLineEnd = rawBody.firstIndex(of: "\n") ?? rawBody.endIndex
        guard rawBody.distance(from: rawBody.startIndex, to: firstLineEnd) < 400 else { return false }
        // Deletions and media markers start with the mark too, and some read like a notice of
        // the same language (Russian `Вы удалили это сообщение`, `Вы удалили %@`): they are
        // what they are first.
        let firstLine = String(rawBody[..<firstLineEnd])
        if deletion(firstLine).deleted || omittedMedia(firstLine) != nil || attachedFileName(firstLine) != nil {
            return false
        }
        return WhatsAppPhrases.systemTemplate(firstLine) != nil
            || startsWithEncryptionNotice(Substring(rawBody))
    }

    /// Sender names the exporter's own messages carry in some exports: the app's word for the
    /// exporter in each language of the table (WhatsApp's `you` string).
    static let exporterNames: Set<String> = WhatsAppPhrases.exporterNames

    // MARK: - Markers

    /// Whether a (trimmed) body is a deleted message's text, and if so whether the exporter deleted it.
    static func deletion(_ body: String) -> (deleted: Bool, byExporter: Bool) {
        // Deleted-message texts are short: a longer body is never looked up (marks and a
        // final full stop aside, nothing is longer than the longest phrase).
        guard body.utf8.count <= WhatsAppPhrases.longestDeletedPhrase + 16,
            WhatsAppPhrases.mayStart(body, with: WhatsAppPhrases.deletedFirstScalars),
            let byExporter = WhatsAppPhrases.deleted[WhatsAppPhrases.normalized(body)]
        else {
            return (false, false)
        }
        return (true, byExporter)
    }

    /// The marker at the end of `body` if it is an edited message's (`Hi <This message was
    /// edited>`, `Hallo <Diese Nachricht wurde bearbeitet.>`), in any language of the table.
    static func editedMarker(endingAt body: String) -> String? {
        guard let last = body.unicodeScalars.last, WhatsAppPhrases.editedLastScalars.contains(last) else { return nil }
        return WhatsAppPhrases.edited.first { body.hasSuffix($0) }
    }

    /// What media a "not exported" marker stands for.
    enum OmittedMedia: String { case any, image, video, audio, sticker, gif, document, contact }

    /// The media a first line says was left out of the export (exported "without media"):
    /// `<Media omitted>`, `image omitted`, or iOS `NAME ‎document omitted` (then its name).
    static func omittedMedia(_ firstLine: String) -> (media: OmittedMedia, name: String?)? {
        guard firstLine.utf8.count < 1024 else { return nil }
        let text = WhatsAppPhrases.normalized(firstLine)
        if let media = WhatsAppPhrases.omitted[text] { return (media, nil) }
        guard let last = text.last, WhatsAppPhrases.documentOmittedLastCharacters.contains(last) else { return nil }
        for (length, phrases) in WhatsAppPhrases.documentOmittedByLength where text.count > length + 1 {
            // A name (with an extension: `Report.pdf`), a space, the phrase.
            guard text.dropLast(length).last?.isWhitespace == true, phrases.contains(String(text.suffix(length)))
            else { continue }
            let plain = plainForm(firstLine)
            let name = clean(String(plain.dropLast(length)))
            guard plain.count == text.count, name.contains(".") else { continue }
            return (.document, name)
        }
        return nil
    }

    /// `text` without direction marks, trimmed, without a final full stop: the characters of
    /// `WhatsAppPhrases.normalized(text)` one for one (so a name can be cut out by counts).
    static func plainForm(_ text: String) -> String {
        let scalars = text.unicodeScalars.filter { !WhatsAppChatText.isDirectionMark($0) && $0 != "\u{FEFF}" }
        var plain = String(String.UnicodeScalarView(scalars)).trimmingCharacters(in: .whitespaces)
        if let last = plain.last, ".。।۔".contains(last) {
            plain = String(plain.dropLast()).trimmingCharacters(in: .whitespaces)
        }
        return plain
    }

    /// The attached file named on `line`, if it is an attachment line: iOS `<attached: NAME>`,
    /// Android `NAME (file attached)`, in any language of the table.
    static func attachedFileName(_ line: String) -> String? {
        guard line.utf8.count < 1024 else { return nil }
        let text = WhatsAppPhrases.normalized(line)
        // Only a line that opens or closes as some language's phrase does is looked up.
        guard let first = text.first, let last = text.last,
            WhatsAppPhrases.attachedEdges.first.contains(first) || WhatsAppPhrases.attachedEdges.last.contains(last)
        else { return nil }
        for (prefix, suffix) in WhatsAppPhrases.attached
        where text.count > prefix.count + suffix.count && text.hasSuffix(suffix) && text.hasPrefix(prefix) {
            let plain = plainForm(line)
            guard plain.count == text.count else { return nil }
            let name = clean(String(plain.dropFirst(prefix.count).dropLast(suffix.count)))
            return name.isEmpty ? nil : name
        }
        return nil
    }

    /// The coordinates of a `location: https://maps.google.com/?q=LAT,LON` line.
    static func location(_ line: String) -> (latitude: Double, longitude: Double)? {
        guard line.utf8.count < 1024, line.contains("://") else { return nil }
        let text = WhatsAppPhrases.normalized(line)
        guard let prefix = WhatsAppPhrases.locationPrefixes.first(where: { text.hasPrefix($0) }) else { return nil }
        let plain = plainForm(line)
        guard plain.count == text.count else { return nil }
        let url = plain.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
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
