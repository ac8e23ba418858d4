import Foundation
import ScrollbackModel

/// DiscordChatExporter JSON (spec §6): `guild`, `channel`, `messages`, with its `*_Files/`
/// media folder; `[part N]` files of one channel merge into one conversation (by channel id).
///
/// Mapping: message ids stay (duplicates get derived ids); `reference.messageId` is `replyTo`
/// (kept when the message is not in the export: the layout shows no quote then);
/// `timestampEdited` the edit date; `isPinned` pinned; reactions keep their `users` and their
/// `count` (a reaction without users is a count of unnamed people, not a participant); `Call`,
/// renames, icon changes, joins, pins and other non-`Default`/`Reply` types are `system`
/// messages; content is Discord Markdown through cmark-gfm (HTML escaped); the first embed with
/// a URL is a link preview; attachments come from the local path DCE wrote (Windows `\`
/// separators accepted) or show the placeholder naming the file; one attachment alone is a
/// photo/video/audio/file message; stickers are named in the text. A thread exported as its own
/// file is its own conversation.
public enum DiscordImporter: ExportImporter {
    public static let format = ExportFormat.discord
    public static let shape = ExportShape.file

    /// A JSON object whose top level has `guild` and `channel` (and `messages`, which may come
    /// after the first bytes).
    public static func detect(_ candidate: ExportCandidate) -> Bool {
        guard !candidate.isDirectory else { return false }
        let keys = candidate.topLevelJSONKeys
        return keys.contains("guild") && keys.contains("channel")
    }

    public static func read(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var order: [String] = []
        var assemblers: [String: ConversationAssembler] = [:]
        for file in export.items {
            let shown = context.displayPath(file)
            guard let root = context.parseJSON(file, shown: shown, report: { diagnostics.append($0) }) else {
                continue
            }
            let channel = root["channel"]
            let guild = root["guild"]
            let channelID = channel?["id"]?.string ?? file.lastPathComponent
            if assemblers[channelID] == nil {
                let channelName = channel?["name"]?.string ?? channelID
                let guildName = guild?["name"]?.string
                let isPrivate = guildName == nil || guildName == "Direct Messages"
                var title = isPrivate ? channelName : "#" + channelName
                if let category = channel?["category"]?.string, !isPrivate, !category.isEmpty {
                    title = category + " / " + title
                }
                var assembler = ConversationAssembler(
                    format: .discord, id: isPrivate ? channelName : (guildName ?? "") + "-" + channelName, title: title,
                    key: context.relativePath(file.deletingLastPathComponent()) + "/discord-" + channelID,
                    sourceFiles: [], location: SourceLocation(file: shown, line: 1, column: 1))
                assembler.description = channel?["topic"]?.string
                // The index lists a server's channels under its name, as Discord's sidebar does.
                assembler.section = isPrivate ? "Direct messages" : guildName
                assemblers[channelID] = assembler
                order.append(channelID)
            }
            assemblers[channelID]!.sourceFiles.append(shown)
            guard let messages = root["messages"]?.elements else {
                assemblers[channelID]!.report(
                    .error(.missingField("messages"), at: root.location(in: shown)))
                continue
            }
            for (index, node) in messages.enumerated() {
                message(node, index: index, file: file, shown: shown, context: context, into: &assemblers[channelID]!)
            }
        }
        for channelID in order { emit(assemblers[channelID]!.finish()) }
        return diagnostics
    }

    static func message(
        _ node: JSONNode, index: Int, file: URL, shown: String, context: ImportContext,
        into assembler: inout ConversationAssembler
    ) {
        let location = node.location(in: shown)
        guard node.members != nil, let id = node["id"]?.string else {
            assembler.report(.error(.missingField("id"), at: location))
            return
        }
        guard let stamp = node["timestamp"]?.string, let date = ISO8601DateParser.parse(stamp) else {
            assembler.report(
                .error(
                    .invalidDate(node["timestamp"]?.string ?? "(none)", expected: ISO8601DateParser.expectedForm),
                    at: node["timestamp"]?.location(in: shown) ?? location))
            return
        }
        var diagnostics: [Diagnostic] = []
        let author = node["author"]
        let senderID = author?["id"]?.string ?? "unknown"
        if !assembler.hasParticipant(senderID) {
            let name = [author?["nickname"]?.string, author?["name"]?.string].compactMap { $0 }.first { !$0.isEmpty }
            var avatar: MediaSource?
            if let url = author?["avatarUrl"]?.string, !isRemote(url) {
                avatar = context.media(
                    localPath: localPath(url), relativeTo: file, at: location, diagnostics: &diagnostics)
            }
            assembler.addParticipant(Participant(id: senderID, name: name ?? senderID, avatar: avatar))
        }
        let type = node["type"]?.string ?? "Default"
        let content = node["content"]?.string ?? ""
        var message = Message(
            id: id, sender: senderID, date: date, kind: .text(""),
            source: ExportSource(
                format: "discord", file: context.relativePath(file), path: "$.messages[\(index)]", id: id),
            location: location)
        if let edited = node["timestampEdited"]?.string { message.edited = ISO8601DateParser.parse(edited) }
        message.pinned = node["isPinned"]?.bool == true
        if let reply = node["reference"]?["messageId"]?.string, type == "Reply" || node["reference"] != nil {
            message.replyTo = reply
        }
        for reaction in node["reactions"]?.elements ?? [] {
            let emoji = reaction["emoji"]
            let name = emoji?["name"]?.string ?? "?"
            // A custom emoji (an id) by its name; a Unicode one (no id, or DCE's `""`) as itself.
            let isCustom = emoji?["id"]?.string.map { !$0.isEmpty } ?? false
            let shownEmoji = isCustom ? ":" + name + ":" : name
            var senders: [String] = []
            for user in reaction["users"]?.elements ?? [] {
                guard let userID = user["id"]?.string else { continue }
                if !assembler.hasParticipant(userID) {
                    let userName = [user["nickname"]?.string, user["name"]?.string].compactMap { $0 }.first {
                        !$0.isEmpty
                    }
                    assembler.addParticipant(Participant(id: userID, name: userName ?? userID))
                }
                senders.append(userID)
            }
            // DCE without user lists gives only the count: kept as a count, nobody invented.
            let count = reaction["count"]?.number(in: 0...1e9).map { Int($0) }
            message.reactions.append(Reaction(emoji: shownEmoji, senders: senders, count: count))
        }
        switch type {
        case "Default", "Reply", "ThreadStarterMessage", "ChatInputCommand", "ContextMenuCommand":
            message.kind = body(
                node, content: content, file: file, location: location, context: context, diagnostics: &diagnostics)
        default:
            let name = assembler.participantName(senderID) ?? senderID
            var text = content.isEmpty ? systemText(type) : content
            if type == "Call", let end = node["callEndedTimestamp"]?.string, let endDate = ISO8601DateParser.parse(end),
                content.isEmpty
            {
                text = "Started a call that lasted \(Int(endDate.timeIntervalSince(date) / 60)) minutes."
            }
            message.kind = .system(name + ": " + text)
            message.sender = nil
        }
        for diagnostic in diagnostics { assembler.report(diagnostic) }
        assembler.append(message)
    }

    static func systemText(_ type: String) -> String {
        switch type {
        case "RecipientAdd": return "Added a member."
        case "RecipientRemove": return "Removed a member."
        case "ChannelNameChange": return "Changed the channel name."
        case "ChannelIconChange": return "Changed the channel icon."
        case "ChannelPinnedMessage": return "Pinned a message."
        case "GuildMemberJoin": return "Joined the server."
        case "ThreadCreated": return "Started a thread."
        case "Call": return "Started a call."
        default: return type
        }
    }

    static func isRemote(_ url: String) -> Bool { url.hasPrefix("http://") || url.hasPrefix("https://") }

    /// A DCE local path: Windows separators turned into `/`, percent-escapes decoded.
    static func localPath(_ path: String) -> String {
        let slashed = path.replacingOccurrences(of: "\\", with: "/")
        return slashed.removingPercentEncoding ?? slashed
    }

    /// Discord Markdown made safe for cmark-gfm: `<` and `&` escaped (raw HTML would be
    /// dropped, and it is text in Discord), custom emoji `<:name:id>` as `:name:`.
    static func markdown(_ content: String) -> String {
        var out = ""
        var rest = Substring(content)
        while let open = rest.firstIndex(of: "<") {
            out += escapeAmpersands(rest[rest.startIndex..<open])
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: ">") {
                let inner = after[after.startIndex..<close]
                let parts = inner.split(separator: ":", omittingEmptySubsequences: false)
                if (inner.hasPrefix(":") || inner.hasPrefix("a:")) && parts.count >= 3 {
                    out += ":" + parts[parts.count - 2] + ":"
                    rest = after[after.index(after: close)...]
                    continue
                }
                if inner.hasPrefix("http://") || inner.hasPrefix("https://") {
                    out += "<" + inner + ">"
                    rest = after[after.index(after: close)...]
                    continue
                }
            }
            out += "\\<"
            rest = after
        }
        return out + escapeAmpersands(rest)
    }

    static func escapeAmpersands(_ text: Substring) -> String {
        text.replacingOccurrences(of: "&", with: "\\&")
    }

    static func body(
        _ node: JSONNode, content: String, file: URL, location: SourceLocation, context: ImportContext,
        diagnostics: inout [Diagnostic]
    ) -> MessageKind {
        let attachments = node["attachments"]?.elements ?? []
        let stickers = node["stickers"]?.elements ?? []
        func source(_ attachment: JSONNode) -> MediaSource {
            let url = attachment["url"]?.string ?? ""
            if isRemote(url) {
                return context.media(
                    localPath: nil, remoteURL: url, relativeTo: file, at: location, diagnostics: &diagnostics)
            }
            return context.media(localPath: localPath(url), relativeTo: file, at: location, diagnostics: &diagnostics)
        }
        // The kind of a message that is only `attachment`.
        func attachmentKind(_ attachment: JSONNode) -> MessageKind {
            let media = source(attachment)
            let name = attachment["fileName"]?.string
            let ext = PathText.pathExtension(name ?? "").lowercased()
            var size: PixelSize?
            if let width = attachment["width"]?.number(in: 1...1_000_000),
                let height = attachment["height"]?.number(in: 1...1_000_000)
            {
                size = PixelSize(width: Int(width), height: Int(height))
            } else if case .local(let asset) = media {
                size = asset.pixelSize
            }
            switch ext {
            case "png", "jpg", "jpeg", "gif", "webp":
                if case .local = media { return .photo(MediaItem(source: media, size: size, alt: name)) }
            case "mp4", "webm", "mov":
                if case .local = media { return .video(MediaItem(source: media, size: size, title: name)) }
            case "mp3", "ogg", "wav", "m4a", "opus", "flac":
                if case .local = media { return .audio(MediaItem(source: media, title: name)) }
            default: break
            }
            return .file(
                FileItem(
                    source: media, name: name, size: attachment["fileSizeBytes"]?.number(in: 0...9e15).map { Int64($0) }
                ))
        }
        let hasText = !content.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        let embed = node["embeds"]?.elements?.first(where: { $0["url"]?.string.map(isRemote) == true })
        // One file is its card (or image, or video), as Discord shows it; text sent with it is the
        // caption, as plain text (as Slack's importer does). With a sticker or a link preview as
        // well, or as an audio player (which shows no caption), the text stays a text bubble.
        if attachments.count == 1, stickers.isEmpty, !hasText || embed == nil {
            let kind = attachmentKind(attachments[0])
            guard hasText else { return kind }
            let caption = context.richText(
                markdown: self.markdown(content), relativeTo: file, at: location, diagnostics: &diagnostics
            ).plainText
            if let captioned = kind.withCaption(caption) { return captioned }
        }
        var markdown = self.markdown(content)
        for attachment in attachments {
            let name = attachment["fileName"]?.string ?? "attachment"
            switch source(attachment) {
            case .local(let asset):
                if ["png", "jpg", "jpeg", "gif", "webp"].contains(PathText.pathExtension(name).lowercased()) {
                    markdown +=
                        "\n\n![" + ChatMarkup.escapeMarkdown(name) + "](<" + localPath(attachment["url"]?.string ?? "")
                        + ">)"
                } else {
                    markdown += "\n\n📎 [" + ChatMarkup.escapeMarkdown(name) + "](@root/" + asset.sitePath + ")"
                }
            default: markdown += "\n\n📎 " + ChatMarkup.escapeMarkdown(name) + " (file not in this export)"
            }
        }
        for sticker in stickers {
            markdown += "\n\nSticker: " + ChatMarkup.escapeMarkdown(sticker["name"]?.string ?? "sticker")
        }
        if let embed, let url = embed["url"]?.string {
            var link = LinkItem(url: url, title: embed["title"]?.string, teaser: embed["description"]?.string)
            if let thumb = embed["thumbnail"]?["url"]?.string {
                link.thumbnail =
                    isRemote(thumb)
                    ? context.media(
                        localPath: nil, remoteURL: thumb, relativeTo: file, at: location, diagnostics: &diagnostics)
                    : context.media(
                        localPath: localPath(thumb), relativeTo: file, at: location, diagnostics: &diagnostics)
            }
            let rich = context.richText(markdown: markdown, relativeTo: file, at: location, diagnostics: &diagnostics)
            return .linkPreview(text: rich.plainText, link: link)
        }
        return .attributedText(
            context.richText(markdown: markdown, relativeTo: file, at: location, diagnostics: &diagnostics))
    }
}
