import Foundation
import ScrollbackModel

/// Reads one WhatsApp chat text into a conversation (spec §6): the split of
/// `WhatsAppChatText`, the meaning of `WhatsAppBody`, participants, `me`, stable ids.
struct WhatsAppChatReader {
    /// Looks up an attached file by the name the chat gives it: the file next to the chat text
    /// or in its zip, resolved into a media source (missing: `.unavailable` with a warning).
    typealias MediaLookup = (_ name: String, _ location: SourceLocation, _ diagnostics: inout [Diagnostic]) ->
        MediaSource
    /// Renders Markdown through the safe cmark-gfm path (`ImportContext.richText`).
    typealias RichTextRenderer = (_ markdown: String, _ location: SourceLocation, _ diagnostics: inout [Diagnostic])
        -> RichText

    /// The chat file as diagnostics name it, and relative to the export's root (`source.file`).
    let file: String
    let sourceFile: String
    /// The conversation's URL slug.
    let conversationID: String
    /// Where timestamps are read: the site's time zone (WhatsApp writes local wall-clock time).
    let timeZone: TimeZone
    let media: MediaLookup
    let richText: RichTextRenderer

    /// Reads `text` into `assembler`: participants, `me`, a title when the file name had none,
    /// and every message (an error when the text is no WhatsApp chat).
    func read(_ text: String, into assembler: inout ConversationAssembler) {
        let start = SourceLocation(file: file, line: 1, column: 1)
        guard let chat = WhatsAppChatText(text) else {
            assembler.report(
                .error(
                    .other(
                        "no line starts with a WhatsApp timestamp; expected lines like '1/29/18, 23:46 - Name: text'"),
                    at: start))
            return
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone

        var knownSenders = Set<String>()
        for entry in chat.entries {
            if let sender = WhatsAppBody.plainSender(entry.text[...]) { knownSenders.insert(sender) }
        }
        var participantIDs: [String: String] = [:]
        var usedParticipantIDs = Set<String>()
        func participantID(_ name: String) -> String {
            if let id = participantIDs[name] { return id }
            let slug = ConversationSlug.make(from: name)
            let base = slug == "conversation" ? "participant" : slug
            var id = base
            var suffix = 2
            while usedParticipantIDs.contains(id) {
                id = "\(base)-\(suffix)"
                suffix += 1
            }
            usedParticipantIDs.insert(id)
            participantIDs[name] = id
            assembler.addParticipant(Participant(id: id, name: name))
            return id
        }

        var groupName: String?
        if let preamble = chat.preamble {
            let location = SourceLocation(file: file, line: preamble.line, column: 1)
            assembler.report(
                .warning(
                    .other(
                        "text before the first message is kept as a system line; expected a WhatsApp timestamp first"),
                    at: location))
            let firstDate =
                WhatsAppChatText.date(of: chat.entries[0].header, order: chat.order, calendar: calendar)
                ?? Date(timeIntervalSince1970: 0)
            assembler.append(
                Message(
                    id: "preamble", sender: nil, date: firstDate, kind: .system(WhatsAppBody.clean(preamble.text)),
                    source: ExportSource(format: "whatsapp", file: sourceFile, line: preamble.line), location: location)
            )
        }
        for entry in chat.entries {
            let location = SourceLocation(file: file, line: entry.line, column: entry.column)
            guard let date = WhatsAppChatText.date(of: entry.header, order: chat.order, calendar: calendar) else {
                assembler.report(
                    .error(
                        .invalidDate(
                            entry.stamp,
                            expected:
                                "a date in the order \(chat.order.rawValue) (detected from the whole file) and a valid time"
                        ),
                        at: location))
                continue
            }
            let id = WhatsAppChatReader.stableID(stamp: entry.stamp, text: entry.text)
            let source = ExportSource(format: "whatsapp", file: sourceFile, line: entry.line)
            guard let (senderName, rawBody) = WhatsAppBody.split(entry.text[...], knownSenders: knownSenders) else {
                let text = WhatsAppBody.clean(entry.text)
                if let name = WhatsAppChatReader.groupName(in: text) { groupName = name }
                assembler.append(
                    Message(id: id, sender: nil, date: date, kind: .system(text), source: source, location: location))
                continue
            }
            let sender = participantID(senderName)
            if WhatsAppBody.exporterNames.contains(senderName) { assembler.me = sender }
            var body = WhatsAppBody.clean(String(rawBody))
            var edited: Date?
            if let marker = WhatsAppBody.editedMarkers.first(where: { body.hasSuffix($0) }) {
                body = String(body.dropLast(marker.count)).trimmingCharacters(in: .whitespacesAndNewlines)
                edited = date  // the export does not say when; the marker is what matters
            }
            var message = Message(
                id: id, sender: sender, date: date, kind: .text(body), edited: edited, source: source,
                location: location)
            let trimmed = body.trimmingCharacters(in: .whitespacesAndNewlines)
            if let deletion = WhatsAppBody.deletedMarkers.first(where: {
                trimmed == $0.text || trimmed == $0.text + "."
            }) {
                message.deleted = true
                message.kind = .text("")
                if deletion.byExporter { assembler.me = sender }
            } else {
                var diagnostics: [Diagnostic] = []
                message.kind = kind(of: body, at: location, diagnostics: &diagnostics)
                diagnostics.forEach { assembler.report($0) }
            }
            assembler.append(message)
        }
        if assembler.title == nil { assembler.title = groupName }
    }

    /// A message's id: 12 hex digits of a 64-bit FNV-1a hash of its timestamp as written and
    /// its text (sender and body). Stable across exports of the same chat, whatever comes before.
    static func stableID(stamp: String, text: String) -> String {
        var bytes = Array(stamp.utf8)
        bytes.append(0x1F)
        bytes.append(contentsOf: text.utf8)
        let hash = bytes.withUnsafeBytes { StableHash.fnv1a64($0) }
        let hex = String(hash, radix: 16)
        return String((String(repeating: "0", count: max(0, 16 - hex.count)) + hex).prefix(12))
    }

    /// The kind of a message body: omitted or attached media, a location, emoji only, or text.
    func kind(of body: String, at location: SourceLocation, diagnostics: inout [Diagnostic]) -> MessageKind {
        let firstLineEnd = body.firstIndex(of: "\n") ?? body.endIndex
        let firstLine = String(body[..<firstLineEnd]).trimmingCharacters(in: .whitespaces)
        let rest = body[firstLineEnd...].trimmingCharacters(in: .whitespacesAndNewlines)
        let caption = rest.isEmpty ? nil : rest
        if let omitted = WhatsAppBody.omittedMarkers[firstLine.lowercased()] {
            let source = MediaSource.unavailable(original: firstLine)
            diagnostics.append(
                .warning(
                    .other("media not included in the export ('\(firstLine)'); a placeholder is shown"), at: location))
            switch omitted {
            case .image, .sticker: return .photo(MediaItem(source: source, caption: caption))
            case .video, .gif: return .video(MediaItem(source: source, caption: caption))
            case .audio: return .audio(MediaItem(source: source, caption: caption))
            case .any, .document, .contact: return .file(FileItem(source: source, name: firstLine, caption: caption))
            }
        }
        if let name = WhatsAppBody.attachedFileName(firstLine) {
            let source = media(name, location, &diagnostics)
            switch WhatsAppBody.mediaKind(fileName: name) {
            case .photo: return .photo(MediaItem(source: source, alt: name, caption: caption))
            case .video: return .video(MediaItem(source: source, caption: caption, title: name))
            case .audio: return .audio(MediaItem(source: source, caption: caption, title: name))
            default: return .file(FileItem(source: source, name: name, caption: caption))
            }
        }
        if let point = WhatsAppBody.location(firstLine) {
            return .location(LocationItem(latitude: point.latitude, longitude: point.longitude, name: caption))
        }
        let trimmed = body.trimmingCharacters(in: .whitespacesAndNewlines)
        if !trimmed.isEmpty, trimmed.allSatisfy({ $0.isWhitespace || MarkdownKindInference.isEmoji($0) }) {
            return .emoji(trimmed)
        }
        if let markdown = WhatsAppFormatting.markdown(body) {
            return .attributedText(richText(markdown, location, &diagnostics))
        }
        return .text(body)
    }

    /// The group's name from `created group "X"` or `changed the group name … to "X"` lines
    /// (English and German), so a `_chat.txt` gets a title.
    static func groupName(in line: String) -> String? {
        let markers = ["created group \"", "changed the group name to \"", "\" to \"", "die Gruppe \"", " zu \""]
        guard line.hasSuffix("\"") || line.hasSuffix("\" erstellt.") || line.hasSuffix("\" geändert.") else {
            return nil
        }
        for marker in markers {
            guard let range = line.range(of: marker, options: .backwards) else { continue }
            let after = line[range.upperBound...]
            guard let close = after.firstIndex(of: "\"") else { continue }
            let name = String(after[..<close])
            if !name.isEmpty { return name }
        }
        return nil
    }

    /// The chat's title from an export's file name: `WhatsApp Chat with Alice.txt`,
    /// `WhatsApp-Chat mit Alice.txt`, `WhatsApp Chat - Alice.zip`; `nil` for `_chat.txt`.
    static func title(fromFileName name: String) -> String? {
        let base = PathText.deletingExtension(name)
        for prefix in [
            "WhatsApp Chat with ", "WhatsApp Chat mit ", "WhatsApp-Chat mit ", "WhatsApp Chat - ",
            "Chat de WhatsApp con ",
            "Discussion WhatsApp avec ", "Conversa do WhatsApp com ", "Chat WhatsApp con ",
        ] where base.hasPrefix(prefix) {
            let title = String(base.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
            return title.isEmpty ? nil : title
        }
        return nil
    }
}
