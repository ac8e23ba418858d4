import Foundation
import ScrollbackModel

/// One iMessage message as a reader found it, before it is put on the model: what imessage-exporter's
/// TXT output says today (`IMessageTextReader`), and what a later reader of macOS `chat.db` would
/// fill from its rows, so both share one mapping (`IMessageMapping`).
struct IMessageRecord {
    /// One part of a message's body (iMessage keeps text, files and apps as separate parts).
    enum Part: Equatable {
        /// Text as written (lines joined by newlines).
        case text(String)
        /// A file: its path as the exporter wrote it, and the transcription of an audio message.
        case attachment(path: String, transcription: String?)
        /// A file the exporter could not find (`Attachment missing!`).
        case missingAttachment(String)
        /// A sticker: the image's path, when written, and the line as the exporter wrote it.
        case sticker(path: String?, label: String)
        /// A part edited after it was sent: its texts, oldest first, and seconds from the first to the last.
        case edited(history: [String], secondsToLastEdit: TimeInterval?)
        /// A part its sender took back ("unsent"), with the exporter's sentence about it.
        case unsent(String)
    }

    /// The time stamp as written (the id hashes it, so a newer export keeps every permalink).
    var stamp: String
    var date: Date
    /// The sender as the export names them: `Me`, a contact's name, a phone number or an e-mail address.
    var sender: String
    var parts: [Part] = []
    /// Tapbacks in the order given: what, by whom, and a sticker tapback's image path.
    var tapbacks: [(tapback: IMessageTapback, by: String, stickerPath: String?)] = []
    /// The message answered an earlier one (an inline reply).
    var isReply = false
    /// The message was read by the other side (a message of the exporter's).
    var readByThem = false
    /// Where the record starts.
    var line: Int
    var location: SourceLocation

    /// What identifies the message across exports and between a reply's two copies in the TXT
    /// output: the time stamp, the sender and the body, not tapbacks or read receipts (they change).
    var identity: String {
        var text = sender
        for part in parts {
            text += "\u{1F}"
            switch part {
            case .text(let value), .missingAttachment(let value), .unsent(let value): text += value
            case .attachment(let path, let transcription): text += path + "\u{1E}" + (transcription ?? "")
            case .sticker(_, let label): text += label
            case .edited(let history, _): text += history.joined(separator: "\u{1E}")
            }
        }
        return WhatsAppChatReader.stableID(stamp: stamp, text: text)
    }
}

/// Apple's tapbacks: the six classic ones (`associated_message_type` 2000…2005 in `chat.db`),
/// any emoji (2006) and stickers (2007), as imessage-exporter names them (its `Tapback` enum).
enum IMessageTapback: Hashable, Sendable {
    case loved, liked, disliked, laughed, emphasized, questioned
    case emoji(String)
    case sticker

    /// The tapback a word of the TXT output names (`Loved` in `Loved by Me`), or an emoji.
    init?(word: Substring) {
        switch word {
        case "Loved": self = .loved
        case "Liked": self = .liked
        case "Disliked": self = .disliked
        case "Laughed": self = .laughed
        case "Emphasized": self = .emphasized
        case "Questioned": self = .questioned
        default:
            let trimmed = word.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, trimmed.allSatisfy(MarkdownKindInference.isEmoji) else { return nil }
            self = .emoji(trimmed)
        }
    }

    /// The emoji a reaction shows: the symbol Messages draws on each classic tapback's bubble
    /// (a heart, thumbs up and down, "HA HA", two exclamation marks, a question mark). These six
    /// are the protocol's closed set, not a table of emoji to keep up to date.
    var emoji: String {
        switch self {
        case .loved: return "\u{2764}\u{FE0F}"
        case .liked: return "\u{1F44D}"
        case .disliked: return "\u{1F44E}"
        case .laughed: return "\u{1F602}"
        case .emphasized: return "\u{203C}\u{FE0F}"
        case .questioned: return "\u{2753}"
        case .emoji(let emoji): return emoji
        case .sticker: return "Sticker"
        }
    }
}

/// An `IMessageRecord` onto the model: one `Message`. Shared by every iMessage reader.
///
/// - Id: 12 hex digits of a hash of the stamp, the sender and the body (`IMessageRecord.identity`).
/// - Files inside the export are copied under the media rules (`ImportContext.media`); a path
///   outside it (`~/Library/Messages/Attachments/…`, written when the exporter did not copy the
///   file) gets a placeholder naming it.
/// - Tapbacks are reactions; a sticker tapback shows its image when the export holds it.
/// - An edited part shows its last text, the message its last edit time; a message whose every
///   part was unsent is a deleted message.
struct IMessageMapping {
    let file: URL
    let sourceFile: String
    let context: ImportContext

    /// The message of `record`; warnings (media outside the export) go to `diagnostics`.
    func message(_ record: IMessageRecord, diagnostics: inout [Diagnostic]) -> Message {
        var message = Message(
            id: record.identity, sender: record.sender, date: record.date, kind: .text(""),
            source: ExportSource(format: ExportFormat.imessage.rawValue, file: sourceFile, line: record.line),
            location: record.location)
        message.reactions = reactions(record, diagnostics: &diagnostics)
        if record.readByThem { message.status = .read }
        if !record.parts.isEmpty, record.parts.allSatisfy({ if case .unsent = $0 { true } else { false } }) {
            message.deleted = true
            return message
        }
        var lastEdit: TimeInterval?
        for case .edited(_, let seconds?) in record.parts { lastEdit = max(lastEdit ?? 0, seconds) }
        if let lastEdit { message.edited = record.date.addingTimeInterval(lastEdit) }
        message.kind = kind(record, diagnostics: &diagnostics)
        return message
    }

    /// A file the exporter names: inside the export, copied under the media rules; a path on the
    /// Mac or in an iOS backup (the exporter did not copy the file) is never read, and its warning
    /// says how to get the file into the export.
    private func media(_ path: String, at location: SourceLocation, diagnostics: inout [Diagnostic]) -> MediaSource {
        guard path.hasPrefix("/") || path.hasPrefix("~") else {
            return context.media(localPath: path, relativeTo: file, at: location, diagnostics: &diagnostics)
        }
        diagnostics.append(
            .warning(
                .other(
                    "the file '\(PathText.lastComponent(path))' is on the exporting machine, not in the export "
                        + "(imessage-exporter copies files into attachments/ with --copy-method); a placeholder is shown"
                ), at: location))
        return .unavailable(original: path)
    }

    /// The reactions, one per emoji in the order first given, with who gave each.
    private func reactions(_ record: IMessageRecord, diagnostics: inout [Diagnostic]) -> [Reaction] {
        var reactions: [Reaction] = []
        for (tapback, by, stickerPath) in record.tapbacks {
            var custom: CustomEmoji?
            if case .sticker = tapback, let stickerPath {
                let source = media(stickerPath, at: record.location, diagnostics: &diagnostics)
                if case .local = source { custom = CustomEmoji(name: stickerPath, image: source) }
            }
            let key = custom?.name ?? tapback.emoji
            // A tapback line naming nobody counts as one unnamed.
            if let index = reactions.firstIndex(where: { ($0.customEmoji?.name ?? $0.emoji) == key }) {
                if by.isEmpty { reactions[index].unnamedCount += 1 } else { reactions[index].senders.append(by) }
            } else {
                reactions.append(
                    Reaction(
                        emoji: tapback.emoji, senders: by.isEmpty ? [] : [by], count: by.isEmpty ? 1 : nil,
                        customEmoji: custom))
            }
        }
        return reactions
    }

    /// The body's kind: its text, one file (its caption the text), a sticker, or rich text of all parts.
    private func kind(_ record: IMessageRecord, diagnostics: inout [Diagnostic]) -> MessageKind {
        // Each file resolved once (a refused path warns once), by its part's place.
        var sources: [Int: MediaSource] = [:]
        var texts: [String] = []
        var files: [(name: String, source: MediaSource, transcription: String?)] = []
        var others = 0
        for (index, part) in record.parts.enumerated() {
            switch part {
            case .text(let text), .unsent(let text): texts.append(text)
            case .edited(let history, _): texts.append(history.last ?? "")
            case .attachment(let path, let transcription):
                let source = media(path, at: record.location, diagnostics: &diagnostics)
                sources[index] = source
                files.append((PathText.lastComponent(path), source, transcription))
            case .sticker(let path?, _):
                sources[index] = media(path, at: record.location, diagnostics: &diagnostics)
                others += 1
            case .missingAttachment, .sticker: others += 1
            }
        }
        if others == 0, files.isEmpty {
            let text = texts.joined(separator: "\n")
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty, trimmed.allSatisfy({ $0.isWhitespace || MarkdownKindInference.isEmoji($0) }) {
                return .emoji(trimmed)
            }
            return .text(text)
        }
        if others == 0, files.count == 1, texts.count <= 1 {
            let single = SignalMessage.kind(name: files[0].name, source: files[0].source)
            let caption = [texts.first, files[0].transcription.map { "Transcription: " + $0 }].compactMap { $0 }
            if caption.isEmpty { return single }
            if let captioned = single.withCaption(caption.joined(separator: "\n")) { return captioned }
        }
        if record.parts.count == 1, case .sticker(_, let label) = record.parts[0], let source = sources[0],
            case .local(let asset) = source, asset.pixelSize != nil
        {
            return .photo(MediaItem(source: source, size: asset.pixelSize, alt: label))
        }
        return richText(record, sources: sources, diagnostics: &diagnostics)
    }

    /// Every part in order as Markdown: text escaped, images shown, other files linked.
    private func richText(
        _ record: IMessageRecord, sources: [Int: MediaSource], diagnostics: inout [Diagnostic]
    ) -> MessageKind {
        var blocks: [String] = []
        var linked: [LocalAsset] = []
        func escaped(_ text: String) -> String {
            // A hard line break keeps the text's own lines.
            text.split(separator: "\n", omittingEmptySubsequences: false).map {
                ChatMarkup.escapeMarkdown(String($0))
            }.joined(separator: "\\\n")
        }
        func fileBlock(_ name: String, _ path: String, _ source: MediaSource) -> String {
            guard case .local(let asset) = source else {
                return "📎 " + ChatMarkup.escapeMarkdown(name) + " (file not in this export)"
            }
            if asset.pixelSize != nil, !path.contains(where: { $0 == "<" || $0 == ">" || $0.isNewline }) {
                return "![" + ChatMarkup.escapeMarkdown(name) + "](<" + path + ">)"
            }
            linked.append(asset)
            return "📎 [" + ChatMarkup.escapeMarkdown(name) + "](@root/" + asset.sitePath + ")"
        }
        for (index, part) in record.parts.enumerated() {
            switch part {
            case .text(let text): blocks.append(escaped(text))
            case .unsent(let text): blocks.append("*" + ChatMarkup.escapeMarkdown(text) + "*")
            case .edited(let history, _): blocks.append(escaped(history.last ?? ""))
            case .attachment(let path, let transcription):
                blocks.append(
                    fileBlock(PathText.lastComponent(path), path, sources[index] ?? .unavailable(original: path)))
                if let transcription { blocks.append("Transcription: " + escaped(transcription)) }
            case .missingAttachment(let text):
                blocks.append("📎 *" + ChatMarkup.escapeMarkdown(text) + "*")
            case .sticker(let path, let label):
                if let path, let source = sources[index], case .local = source {
                    blocks.append(fileBlock(label, path, source))
                } else {
                    blocks.append("*" + ChatMarkup.escapeMarkdown(label) + "*")
                }
            }
        }
        return .attributedText(
            context.richText(
                markdown: blocks.joined(separator: "\n\n"), relativeTo: file, at: record.location, linked: linked,
                diagnostics: &diagnostics))
    }
}
