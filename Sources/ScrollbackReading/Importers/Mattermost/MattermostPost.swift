import Foundation
import ScrollbackModel

/// One Mattermost post or reply (`MattermostImporter`) onto the model: sender, kind, reactions,
/// edit date and pin.
///
/// - `message` is Mattermost Markdown: rendered by cmark-gfm when it holds markup, else plain
///   text; a `:shortcode:` the emoji table knows becomes its emoji (not where the text has code).
/// - `type: system_*` (joins, leaves, header changes): a system line with the message's text.
/// - `attachments`: one is its photo, video, audio or file, the text its caption; several are
///   listed under the text, images inline; a file the export does not hold is named with
///   "(file not in this export)" (an export made without `--attachments` holds none).
/// - `props.attachments` (an integration's message attachments): their text when the post has
///   no message of its own.
struct MattermostPost {
    let node: JSONNode
    let location: SourceLocation
    let file: URL
    let directory: MattermostDirectory
    let context: ImportContext

    /// The message, with the diagnostics reading it gave handed to `assembler`.
    func message(
        id: String, date: Date, thread: String?, source: ExportSource, assembler: inout ConversationAssembler
    ) -> Message {
        var diagnostics: [Diagnostic] = []
        var sender = node["user"]?.string ?? ""
        if sender.isEmpty {
            sender = "unknown"
            diagnostics.append(
                .warning(.other("the post names no user; it is kept as sent by 'unknown'"), at: location))
        }
        if !assembler.hasParticipant(sender) {
            assembler.addParticipant(Participant(id: sender, name: directory.name(sender)))
        }
        var message = Message(
            id: id, sender: sender, date: date, kind: .text(""), thread: thread, source: source, location: location)
        message.reactions = reactions(assembler: &assembler)
        if let edited = node["edit_at"]?.number(in: 1...9e15), edited >= date.timeIntervalSince1970 * 1000 {
            message.edited = Date(timeIntervalSince1970: edited / 1000)
        }
        message.pinned = node["is_pinned"]?.bool == true
        let text = node["message"]?.string ?? ""
        if let type = node["type"]?.string, type.hasPrefix("system_") {
            message.kind = .system(text.isEmpty ? directory.name(sender) + ": " + type : text)
            message.sender = nil
        } else {
            message.kind = kind(text: text, diagnostics: &diagnostics)
        }
        for diagnostic in diagnostics { assembler.report(diagnostic) }
        return message
    }

    /// The reactions, one per emoji in the order first given, each with its users.
    func reactions(assembler: inout ConversationAssembler) -> [Reaction] {
        var reactions: [Reaction] = []
        for item in node["reactions"]?.elements ?? [] {
            guard let name = item["emoji_name"]?.string, !name.isEmpty else { continue }
            let user = item["user"]?.string.flatMap { $0.isEmpty ? nil : $0 }
            if let user, !assembler.hasParticipant(user) {
                assembler.addParticipant(Participant(id: user, name: directory.name(user)))
            }
            if let index = reactions.firstIndex(where: { $0.emoji == Self.emoji(name) }) {
                if let user { reactions[index].senders.append(user) } else { reactions[index].unnamedCount += 1 }
                continue
            }
            var reaction = Reaction(
                emoji: Self.emoji(name), senders: user.map { [$0] } ?? [], count: user == nil ? 1 : nil)
            if SlackEmoji.emoji(name) == nil, let image = customEmojiImage(name) {
                reaction.customEmoji = CustomEmoji(name: name, image: image)
            }
            reactions.append(reaction)
        }
        return reactions
    }

    /// The emoji of `name`, or `:name:` for one the table does not know (a custom emoji).
    static func emoji(_ name: String) -> String { SlackEmoji.emoji(name) ?? ":" + name + ":" }

    /// A custom emoji's image, only when the export holds the file (inside the export): an export
    /// lists its custom emoji whether or not their images were copied beside it.
    func customEmojiImage(_ name: String) -> MediaSource? {
        guard let path = directory.emoji[name], let local = existing(path) else { return nil }
        var ignored: [Diagnostic] = []
        let source = context.media(localPath: local, relativeTo: file, at: location, diagnostics: &ignored)
        if case .local = source { return source }
        return nil
    }

    /// `path` (from the export file's folder) when a file is there, inside the export.
    func existing(_ path: String) -> String? {
        guard !path.isEmpty, !path.hasPrefix("/") else { return nil }
        let full = PathText.parent(file.path) + "/" + path
        return InputContainment.resolves(full, inside: context.root.path) ? path : nil
    }

    /// The message's kind: its attachments with the text, or the text.
    func kind(text: String, diagnostics: inout [Diagnostic]) -> MessageKind {
        var text = text
        if text.isEmpty {
            text = (node["props"]?["attachments"]?.elements ?? []).compactMap { attachment in
                [attachment["pretext"], attachment["title"], attachment["text"] ?? attachment["fallback"]]
                    .compactMap { $0?.string }.filter { !$0.isEmpty }.joined(separator: "\n")
            }.filter { !$0.isEmpty }.joined(separator: "\n\n")
        }
        let paths = (node["attachments"]?.elements ?? []).compactMap { $0["path"]?.string }.filter { !$0.isEmpty }
        if paths.isEmpty {
            guard !text.isEmpty else {
                // In italics, so it does not read as something the sender wrote.
                return .attributedText(
                    context.richText(
                        markdown: "*No content in this export*", relativeTo: file, at: location,
                        diagnostics: &diagnostics))
            }
            return body(text, diagnostics: &diagnostics)
        }
        let resolved = paths.map { ($0, media($0, diagnostics: &diagnostics)) }
        if resolved.count == 1 {
            let single = kind(of: resolved[0].0, source: resolved[0].1.source)
            if text.isEmpty { return single }
            // A caption is plain text: Markdown is read for it (its text, not its markup).
            let caption =
                Self.needsMarkdown(text)
                ? context.richText(
                    markdown: Self.markdown(text), relativeTo: file, at: location, diagnostics: &diagnostics
                ).plainText : Self.withEmoji(text)
            if let captioned = single.withCaption(caption) { return captioned }
        }
        var markdown = Self.markdown(Self.needsMarkdown(text) ? text : ChatMarkup.escapeMarkdown(Self.withEmoji(text)))
        var linked: [LocalAsset] = []
        for (path, found) in resolved {
            let name = ChatMarkup.escapeMarkdown(PathText.lastComponent(path))
            if !markdown.isEmpty { markdown += "\n\n" }
            switch found.source {
            case .local(let asset):
                if asset.pixelSize != nil, !found.path.contains(where: { $0 == "<" || $0 == ">" || $0.isNewline }) {
                    markdown += "![" + name + "](<" + found.path + ">)"
                } else {
                    markdown += "📎 [" + name + "](@root/" + asset.sitePath + ")"
                    linked.append(asset)
                }
            default: markdown += "📎 " + name + " (file not in this export)"
            }
        }
        return .attributedText(
            context.richText(
                markdown: markdown, relativeTo: file, at: location, linked: linked, diagnostics: &diagnostics))
    }

    /// The text as plain text, or as Markdown when it holds markup.
    func body(_ text: String, diagnostics: inout [Diagnostic]) -> MessageKind {
        guard Self.needsMarkdown(text) else { return .text(Self.withEmoji(text)) }
        return .attributedText(
            context.richText(markdown: Self.markdown(text), relativeTo: file, at: location, diagnostics: &diagnostics))
    }

    /// An attachment's file: `data/<path>` beside the export file, as `--attachments` writes it
    /// (or `<path>` itself when only that is there); a placeholder naming it otherwise.
    func media(_ path: String, diagnostics: inout [Diagnostic]) -> (path: String, source: MediaSource) {
        let local = existing("data/" + path) ?? existing(path) ?? "data/" + path
        return (local, context.media(localPath: local, relativeTo: file, at: location, diagnostics: &diagnostics))
    }

    /// The kind of a message that is only the file at `path`: by the type its bytes gave it.
    func kind(of path: String, source: MediaSource) -> MessageKind {
        let name = PathText.lastComponent(path)
        guard case .local(let asset) = source else { return .file(FileItem(source: source, name: name)) }
        let type = PathText.pathExtension(asset.sitePath).lowercased()
        if let size = asset.pixelSize { return .photo(MediaItem(source: source, size: size, alt: name)) }
        if MarkdownKindInference.videoExtensions.contains(type) {
            return .video(MediaItem(source: source, title: name))
        }
        if MarkdownKindInference.audioExtensions.contains(type) {
            return .audio(MediaItem(source: source, title: name))
        }
        return .file(FileItem(source: source, name: name))
    }

    /// Whether `text` holds anything Markdown would read as markup (plain text is linkified and
    /// keeps its line breaks as it is).
    static func needsMarkdown(_ text: String) -> Bool {
        let markup = text.utf8.contains { byte in
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: "<"), UInt8(ascii: "&"), UInt8(ascii: "["), UInt8(ascii: "*"),
                UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "`"), UInt8(ascii: "#"), UInt8(ascii: "|"),
                UInt8(ascii: ">"):
                true
            default: false
            }
        }
        return markup
            || text.split(separator: "\n").contains {
                $0.hasPrefix("- ") || $0.hasPrefix("+ ") || $0.prefixMatch(of: Self.orderedItem) != nil
            }
    }

    /// An ordered list item's start (`1. `, `12) `), compiled once: as a literal in the test above
    /// it was compiled at every line, 24% of the CPU of the benchmark's Mattermost build (issue 43).
    nonisolated(unsafe) static let orderedItem = #/\d{1,9}[.)] /#

    /// Mattermost Markdown for cmark-gfm: a line break is a line break (Mattermost shows it so),
    /// except inside fenced code, and known `:shortcode:`s are their emoji.
    static func markdown(_ text: String) -> String {
        guard text.contains("\n") else { return withEmoji(text) }
        var inFence = false
        var lines: [Substring] = []
        for line in withEmoji(text).split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") { inFence.toggle() }
            lines.append(
                !inFence && !line.isEmpty && !(trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~"))
                    ? line + "  " : line)
        }
        return lines.joined(separator: "\n")
    }

    /// `text` with each `:shortcode:` the emoji table knows as its emoji; text with code (a
    /// backtick) is left as written, so a shortcode inside code stays one.
    static func withEmoji(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.filter({ $0 == UInt8(ascii: ":") }).count >= 2, !bytes.contains(UInt8(ascii: "`")) else {
            return text
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: ":"),
                let (emoji, end) = ChatMarkup.shortcode(atColon: index, in: bytes, emoji: SlackEmoji.emoji)
            {
                out += emoji.utf8
                index = end + 1
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
