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

    /// Where the date order comes from when the file leaves it open: the site's locale.
    let localeOrder: WhatsAppChatText.DateOrder

    /// Reads the chat's lines into `assembler`: participants, `me`, a title when the file name
    /// had none, and every message. A text with no timestamp at all is an error, or, when its
    /// lines look like a chat in a date format not recognised, a warning quoting the first one.
    func read(_ lines: inout WhatsAppLineReader, into assembler: inout ConversationAssembler) {
        let start = SourceLocation(file: file, line: 1, column: 1)
        var chat = WhatsAppChatText(reading: &lines, localeOrder: localeOrder)
        for line in chat.invalidUTF8Lines.prefix(20) {
            assembler.report(
                .warning(
                    .other("bytes that are not UTF-8 are shown as U+FFFD; expected UTF-8 or UTF-16 text"),
                    at: SourceLocation(file: file, line: line, column: 1)))
        }
        guard !chat.entries.isEmpty else {
            if let first = chat.firstLine,
                WhatsAppChatText.looksLikeUnrecognisedExport(head: Array(first.utf8))
            {
                assembler.report(.warning(Self.unrecognisedFormat(first), at: start))
            } else {
                assembler.report(
                    .error(
                        .other(
                            "no line starts with a WhatsApp timestamp; expected lines like '1/29/18, 23:46 - Name: text'"
                        ),
                        at: start))
            }
            return
        }
        let calendars = WhatsAppChatText.Calendars(timeZone: timeZone)
        if chat.orderEvidence == .locale, chat.entries.contains(where: { $0.header.firstDigits < 3 }) {
            assembler.report(
                .warning(
                    .other(
                        "every date reads both as day/month and as month/day, in time order either way; read as "
                            + "\(chat.order.rawValue) (the site locale's order, or D/M for dotted dates); "
                            + "expected a date with a day above 12 to settle it"),
                    at: SourceLocation(file: file, line: chat.entries[0].line, column: chat.entries[0].column)))
        }
        // Every message's date; a timestamp that does not read in the file's order is read in
        // the other one, else takes the date of the message before it (or after it), with a
        // warning: one bad line never costs the conversation.
        var dates: [Date?] = chat.entries.map {
            WhatsAppChatText.date(of: $0.header, order: chat.order, calendars: calendars)
        }
        let other: WhatsAppChatText.DateOrder = chat.order == .monthDayYear ? .dayMonthYear : .monthDayYear
        var lastGood: Date?
        var unread: [Int] = []
        for index in dates.indices {
            if let date = dates[index] {
                lastGood = date
                continue
            }
            let entry = chat.entries[index]
            let location = SourceLocation(file: file, line: entry.line, column: entry.column)
            if chat.order != .yearMonthDay,
                let date = WhatsAppChatText.date(of: entry.header, order: other, calendars: calendars)
            {
                dates[index] = date
                lastGood = date
                assembler.report(
                    .warning(
                        .invalidDate(
                            entry.stamp,
                            expected:
                                "a date in the order \(chat.order.rawValue) (detected from the whole file); "
                                + "read as \(other.rawValue)"),
                        at: location))
            } else {
                dates[index] = lastGood
                unread.append(index)
                assembler.report(
                    .warning(
                        .invalidDate(
                            entry.stamp,
                            expected:
                                "a valid date in the order \(chat.order.rawValue) (detected from the whole file) "
                                + "and a valid time; the message is kept with the date of the one before it"),
                        at: location))
            }
        }
        // The first messages, when unreadable, take the first readable date after them.
        if let firstGood = dates.firstIndex(where: { $0 != nil }) {
            for index in unread where index < firstGood { dates[index] = dates[firstGood] }
        } else {
            assembler.report(
                .error(
                    .other("no timestamp of the chat is a valid date; expected a date like '1/29/18, 23:46'"),
                    at: start))
            return
        }

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
        var signs = WhatsAppChatSigns()
        if let preamble = chat.preamble {
            let location = SourceLocation(file: file, line: preamble.line, column: 1)
            assembler.report(
                .warning(
                    .other(
                        "text before the first message is kept as a system line; expected a WhatsApp timestamp first"),
                    at: location))
            let firstDate = dates[0] ?? Date(timeIntervalSince1970: 0)
            assembler.append(
                Message(
                    id: "preamble", sender: nil, date: firstDate, kind: .system(WhatsAppBody.clean(preamble.text)),
                    source: ExportSource(format: "whatsapp", file: sourceFile, line: preamble.line), location: location)
            )
        }
        for index in chat.entries.indices {
            let entry = chat.entries[index]
            chat.entries[index].text = ""  // read once: the message keeps its own copy
            let location = SourceLocation(file: file, line: entry.line, column: entry.column)
            let date = dates[index] ?? Date(timeIntervalSince1970: 0)
            let id = WhatsAppChatReader.stableID(stamp: entry.stamp, text: entry.text)
            let source = ExportSource(format: "whatsapp", file: sourceFile, line: entry.line)
            guard let (senderName, rawBody) = WhatsAppBody.split(entry.text[...], knownSenders: knownSenders) else {
                let text = WhatsAppBody.clean(entry.text)
                if let name = WhatsAppChatReader.groupName(in: text) { groupName = name }
                signs.readSystemLine(text)
                assembler.append(
                    Message(id: id, sender: nil, date: date, kind: .system(text), source: source, location: location))
                continue
            }
            if WhatsAppBody.isSystemBody(rawBody) {
                // iOS: a notice under the group's (or the other person's) name, not a message of theirs.
                let text = WhatsAppBody.clean(String(rawBody))
                if let name = WhatsAppChatReader.groupName(in: text) { groupName = name }
                signs.readSystemLine(text, under: senderName)
                assembler.append(
                    Message(id: id, sender: nil, date: date, kind: .system(text), source: source, location: location))
                continue
            }
            let sender = participantID(senderName)
            if WhatsAppBody.exporterNames.contains(senderName) { assembler.me = sender }
            var body = WhatsAppBody.clean(String(rawBody))
            var edited: Date?
            if let marker = WhatsAppBody.editedMarker(endingAt: body) {
                body = String(body.dropLast(marker.count)).trimmingCharacters(in: .whitespacesAndNewlines)
                edited = date  // the export does not say when; the marker is what matters
            }
            var message = Message(
                id: id, sender: sender, date: date, kind: .text(body), edited: edited, source: source,
                location: location)
            let trimmed = ChatMarkup.trimming(body, in: .whitespacesAndNewlines)
            let deletion = WhatsAppBody.deletion(trimmed)
            if deletion.deleted {
                message.deleted = true
                message.kind = .text("")
                if deletion.byExporter { signs.readExporterDeletion(by: sender) }
            } else {
                var diagnostics: [Diagnostic] = []
                message.kind = kind(of: body, at: location, diagnostics: &diagnostics)
                diagnostics.forEach { assembler.report($0) }
            }
            assembler.append(message)
        }
        let chatType = signs.chatType(senders: participantIDs.count)
        assembler.chatType = chatType
        if assembler.me == nil, let exporter = signs.exporterByDeletion { assembler.me = exporter }
        // "WhatsApp Chat with Bob" names the other side: in a chat of two (not a group, which
        // has group lines), the sender who is not Bob exported it (issue 42.4).
        if groupName == nil, let other = assembler.title, let otherID = participantIDs[other] {
            assembler.setMe(oppositeOf: otherID)
        }
        // So does a notice naming one of the two (`Bob's security code changed`), or iOS writing
        // its notices under Bob's name, when the other is never named.
        if chatType == .direct {
            let named = signs.namedByNotices(participantIDs.map { (id: $0.value, name: $0.key) })
            if named.count == 1 { assembler.setMe(oppositeOf: named[0]) }
        }
        if assembler.title == nil { assembler.title = groupName }
    }

    /// The warning for a text that looks like a WhatsApp chat whose timestamps are in a format
    /// this reader does not know, quoting the first line's timestamp part.
    static func unrecognisedFormat(_ firstLine: String) -> Problem {
        let scalars = firstLine.unicodeScalars.filter { !WhatsAppChatText.isDirectionMark($0) && $0 != "\u{FEFF}" }
        var text = String(String.UnicodeScalarView(scalars))
        if let end = text.range(of: "] ") {
            text = String(text[..<end.upperBound].dropLast())
        } else if let end = text.range(of: " - ") {
            text = String(text[..<end.lowerBound])
        }
        return .other(
            "a WhatsApp chat in a date format not recognised: `\(text.prefix(60))`; expected a timestamp like "
                + "'1/29/18, 23:46 - ' or '[29.01.18, 23:46:03] ', so no message of it is read")
    }

    /// A message's id: 12 hex digits of a 64-bit FNV-1a hash of its timestamp as written and
    /// its text (sender and body). Stable across exports of the same chat, whatever comes before.
    static func stableID(stamp: String, text: String) -> String {
        // The bytes in sequence, without a copy of the text (a message may be very long).
        let hash = StableHash.fnv1a64(
            [AnySequence(Array(stamp.utf8) + [0x1F]), AnySequence(text.utf8)].joined())
        let hex = String(hash, radix: 16)
        return String((String(repeating: "0", count: max(0, 16 - hex.count)) + hex).prefix(12))
    }

    /// The kind of a message body: omitted or attached media, a location, emoji only, or text.
    func kind(of body: String, at location: SourceLocation, diagnostics: inout [Diagnostic]) -> MessageKind {
        // A marker or a file name is a short first line: a long one is text, never copied here.
        let firstLineEnd = body.utf8.prefix(4096).firstIndex(of: UInt8(ascii: "\n")) ?? body.endIndex
        guard body.utf8.distance(from: body.startIndex, to: firstLineEnd) < 4096 else {
            return textKind(of: body, at: location, diagnostics: &diagnostics)
        }
        let firstLine = ChatMarkup.trimming(String(body[..<firstLineEnd]), in: .whitespaces)
        let rest = ChatMarkup.trimming(String(body[firstLineEnd...]), in: .whitespacesAndNewlines)
        let caption = rest.isEmpty ? nil : rest
        if let (omitted, name) = WhatsAppBody.omittedMedia(firstLine) {
            let source = MediaSource.unavailable(original: firstLine)
            diagnostics.append(
                .warning(
                    .other("media not included in the export ('\(firstLine)'); a placeholder is shown"), at: location))
            switch omitted {
            case .image: return .photo(MediaItem(source: source, caption: caption))
            // "Sticker": the alternative text that marks a sticker (its chip says so).
            case .sticker: return .photo(MediaItem(source: source, alt: "Sticker", caption: caption))
            case .video, .gif: return .video(MediaItem(source: source, caption: caption))
            case .audio: return .audio(MediaItem(source: source, caption: caption))
            // The file name iOS puts before "document omitted", else none: the marker names no
            // file (the chip says "Media"; the source keeps the marker).
            case .any, .document, .contact: return .file(FileItem(source: source, name: name, caption: caption))
            }
        }
        if let name = WhatsAppBody.attachedFileName(firstLine) {
            let source = media(name, location, &diagnostics)
            switch WhatsAppBody.mediaKind(fileName: name) {
            case .photo:
                // Its size from the file's header, as the log `import` writes has it: without it
                // the export's site and the imported log's would differ (issue 43).
                var size: PixelSize?
                if case .local(let asset) = source { size = asset.pixelSize }
                return .photo(MediaItem(source: source, size: size, alt: name, caption: caption))
            case .video: return .video(MediaItem(source: source, caption: caption, title: name))
            case .audio: return .audio(MediaItem(source: source, caption: caption, title: name))
            default: return .file(FileItem(source: source, name: name, caption: caption))
            }
        }
        if let point = WhatsAppBody.location(firstLine) {
            return .location(LocationItem(latitude: point.latitude, longitude: point.longitude, name: caption))
        }
        return textKind(of: body, at: location, diagnostics: &diagnostics)
    }

    /// Emoji only, formatted text or plain text.
    func textKind(of body: String, at location: SourceLocation, diagnostics: inout [Diagnostic]) -> MessageKind {
        let trimmed = ChatMarkup.trimming(body, in: .whitespacesAndNewlines)
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
            // Russian and Brazilian file names, from mlomb/chat-analytics' WhatsApp file-name patterns.
            "Чат WhatsApp с ", "Conversa no WhatsApp com ",
        ] where base.hasPrefix(prefix) {
            let title = String(base.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
            return title.isEmpty ? nil : title
        }
        return nil
    }
}
