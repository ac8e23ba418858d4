import Foundation
import ScrollbackModel

/// One `SignalRecord` onto the model (`SignalImporter`).
///
/// - Id: 12 hex digits of a hash of the time stamp as written, the sender and the text (the
///   export has no message id), so a newer export of the same chat keeps every permalink.
/// - A reply (`quote`) points at the latest earlier message whose text is the quoted text; when
///   there is none (a reply to a photo, to a message before the export), the quote is shown
///   above the text as a Markdown quote.
/// - Files: a file of the chat's folder is its photo, video, audio or file message, the text
///   its caption; several are shown in rich text; a file the export left out is named so.
/// - A sticker is its exported image, else its emoji in italics saying it is a sticker.
/// - Calls and notices are system lines; a deleted message stays a deleted message.
/// - `Me` is the exporter (signal-export writes the exporter's messages and reactions so).
struct SignalMessage {
    let file: URL
    let sourceFile: String
    let context: ImportContext
    /// The exporter's name in signal-export's output.
    static let exporterName = "Me"
    /// The latest message of each text, for replies (`quote`).
    private var byText: [String: String] = [:]
    /// The ids of the messages added, for replies by id (`SignalRecord.replyTo`).
    private var ids: Set<String> = []

    init(file: URL, sourceFile: String, context: ImportContext) {
        self.file = file
        self.sourceFile = sourceFile
        self.context = context
    }

    /// Adds `record` to `assembler` as one message.
    mutating func append(_ record: SignalRecord, to assembler: inout ConversationAssembler) {
        let id =
            record.id
            ?? WhatsAppChatReader.stableID(
                stamp: record.stamp, text: record.sender + "\u{1F}" + record.body + "\u{1F}" + (record.quote ?? ""))
        let source = ExportSource(format: "signal", file: sourceFile, line: record.line)
        var diagnostics: [Diagnostic] = []
        var message = Message(
            id: id, sender: nil, date: record.date, kind: .text(record.body), source: source,
            location: record.location)
        // signal-export's name for a sender it could not find.
        let sender = record.sender == "No-Sender" ? "" : record.sender
        if record.notice || record.call || !hasContent(record) {
            // A call names its sender; a record with nothing of a message is a notice signal-export
            // keeps no text of (a group change, a timer change, a safety number change).
            let text: String
            if record.call {
                text = (sender.isEmpty ? "" : sender + ": ") + (record.body.isEmpty ? "Call" : record.body)
            } else if !record.body.isEmpty {
                text = record.body
            } else {
                text = (sender.isEmpty ? "" : sender + ": ") + "a notice this export keeps no text of"
            }
            message.kind = .system(text)
            ids.insert(id)
            assembler.append(message)
            return
        }
        if sender.isEmpty {
            diagnostics.append(
                .warning(.other("the message names no sender; it is kept as sent by 'Unknown'"), at: record.location))
        }
        message.sender = sender.isEmpty ? "Unknown" : sender
        if message.sender == Self.exporterName { assembler.me = Self.exporterName }
        message.reactions = reactions(record)
        message.edited = record.edited
        if record.deleted {
            message.deleted = true
            message.kind = .text("")
        } else {
            var quote = record.quote
            if let target = record.replyTo, ids.contains(target) {
                message.replyTo = target
                quote = nil
            } else if let quoted = quote, let target = byText[Self.normalized(quoted)] {
                message.replyTo = target
                quote = nil
            }
            message.kind = kind(record, quote: quote, diagnostics: &diagnostics)
            if !record.body.isEmpty { byText[Self.normalized(record.body)] = id }
        }
        diagnostics.forEach { assembler.report($0) }
        ids.insert(id)
        assembler.append(message)
    }

    /// Whether the record has anything of a message: text, files or a sticker.
    private func hasContent(_ record: SignalRecord) -> Bool {
        !record.body.isEmpty || !record.attachments.isEmpty || record.sticker != nil || record.deleted
    }

    /// Text compared for replies: signal-export takes backticks out of bodies and trims them.
    static func normalized(_ text: String) -> String {
        text.replacingOccurrences(of: "`", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The reactions, one per emoji in the order first given.
    private func reactions(_ record: SignalRecord) -> [Reaction] {
        var reactions: [Reaction] = []
        for (name, emoji) in record.reactions {
            if let index = reactions.firstIndex(where: { $0.emoji == emoji }) {
                if name.isEmpty { reactions[index].unnamedCount += 1 } else { reactions[index].senders.append(name) }
            } else {
                reactions.append(
                    Reaction(emoji: emoji, senders: name.isEmpty ? [] : [name], count: name.isEmpty ? 1 : nil))
            }
        }
        return reactions
    }

    /// The message's kind: a file, a sticker, rich text, or its text.
    private func kind(_ record: SignalRecord, quote: String?, diagnostics: inout [Diagnostic]) -> MessageKind {
        var files: [(name: String, path: String, source: MediaSource)] = []
        var missing: [String] = []
        for attachment in record.attachments {
            if let kind = attachment.missingKind {
                missing.append("📎 *A file (\(ChatMarkup.escapeMarkdown(kind))) the export left out*")
                continue
            }
            if let named = attachment.unlinked {
                missing.append("📎 *\(ChatMarkup.escapeMarkdown(named)): in the export's files, not linked*")
                continue
            }
            // signal-export writes each blank of a file's name as `%20` in its path.
            let path = attachment.path.replacingOccurrences(of: "%20", with: " ")
            let source = context.media(
                localPath: path, relativeTo: file, at: record.location, diagnostics: &diagnostics)
            files.append((attachment.name.isEmpty ? PathText.lastComponent(path) : attachment.name, path, source))
        }
        if let sticker = record.sticker {
            if let path = sticker.path {
                // Stickers lie in the export's top folder, beside the chat folders.
                let source = context.media(
                    localPath: "../" + path, relativeTo: file, at: record.location, diagnostics: &diagnostics)
                if case .local(let asset) = source, files.isEmpty, missing.isEmpty, record.body.isEmpty, quote == nil {
                    return .photo(MediaItem(source: source, size: asset.pixelSize, alt: "Sticker " + sticker.label))
                }
            }
            if files.isEmpty, missing.isEmpty, record.body.isEmpty, quote == nil {
                return .attributedText(
                    context.richText(
                        markdown: "*Sticker* " + ChatMarkup.escapeMarkdown(sticker.label), relativeTo: file,
                        at: record.location, diagnostics: &diagnostics))
            }
        }
        if files.count == 1, missing.isEmpty, record.sticker == nil, quote == nil {
            let single = Self.kind(name: files[0].name, source: files[0].source)
            if record.body.isEmpty { return single }
            if let captioned = single.withCaption(record.body) { return captioned }
        }
        if files.isEmpty, missing.isEmpty, record.sticker == nil, quote == nil { return .text(record.body) }
        var parts: [String] = []
        if let quote {
            parts.append(
                quote.split(separator: "\n", omittingEmptySubsequences: false).map {
                    "> " + ChatMarkup.escapeMarkdown(String($0))
                }.joined(separator: "\n"))
        }
        if !record.body.isEmpty { parts.append(ChatMarkup.escapeMarkdown(record.body)) }
        var linked: [LocalAsset] = []
        for (name, path, source) in files {
            if case .local(let asset) = source {
                if asset.pixelSize != nil, !path.contains(where: { $0 == "<" || $0 == ">" || $0.isNewline }) {
                    parts.append("![" + ChatMarkup.escapeMarkdown(name) + "](<" + path + ">)")
                } else {
                    parts.append("📎 [" + ChatMarkup.escapeMarkdown(name) + "](@root/" + asset.sitePath + ")")
                    linked.append(asset)
                }
            } else {
                parts.append("📎 " + ChatMarkup.escapeMarkdown(name) + " (file not in this export)")
            }
        }
        parts += missing
        if let sticker = record.sticker { parts.append("*Sticker* " + ChatMarkup.escapeMarkdown(sticker.label)) }
        return .attributedText(
            context.richText(
                markdown: parts.joined(separator: "\n\n"), relativeTo: file, at: record.location, linked: linked,
                diagnostics: &diagnostics))
    }

    /// The kind of a message that is only the file `name`: by the type its bytes gave it.
    static func kind(name: String, source: MediaSource) -> MessageKind {
        guard case .local(let asset) = source else { return .file(FileItem(source: source, name: name)) }
        if let size = asset.pixelSize { return .photo(MediaItem(source: source, size: size, alt: name)) }
        let type = PathText.pathExtension(asset.sitePath).lowercased()
        if MarkdownKindInference.videoExtensions.contains(type) {
            return .video(MediaItem(source: source, title: name))
        }
        if MarkdownKindInference.audioExtensions.contains(type) {
            return .audio(MediaItem(source: source, title: name))
        }
        return .file(FileItem(source: source, name: name))
    }
}
