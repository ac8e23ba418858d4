import Foundation
import ScrollbackModel

/// Slack workspace exports (spec §6): a folder (or zip) with `users.json`, `channels.json`
/// (and `groups.json`, `dms.json`, `mpims.json`) and one folder of per-day JSON files per
/// conversation.
///
/// Mapping: each message's `ts` is its id (stable across exports); `thread_ts` other than its
/// own `ts` makes it a thread reply (`thread`), `reply_broadcast` / `thread_broadcast` a
/// broadcast one; `edited.ts` the edit date; reactions keep their users; a `tombstone` parent is
/// a deleted message; joins, leaves, topic and other subtypes are `system` messages; bots are
/// participants named by their profile. Text (mrkdwn, or `blocks` rich text when there is no
/// text) becomes Markdown for cmark-gfm (`SlackText`). Files: one file alone is a `file` (or
/// `photo`) message; with text, each file is a line naming it. Slack exports hold no file
/// bytes, so a file is found only where slackdump puts it (`<folder>/attachments/<id>-<name>`)
/// and otherwise shows the placeholder naming it. The first legacy `attachments` unfurl
/// becomes a link preview.
public enum SlackImporter: ExportImporter {
    public static let format = ExportFormat.slack
    public static let shape = ExportShape.folder

    /// A folder holding `users.json` and at least one of `channels.json`, `groups.json`,
    /// `dms.json`, `mpims.json`, each starting as a JSON array.
    public static func detect(_ candidate: ExportCandidate) -> Bool {
        guard candidate.isDirectory else { return false }
        let names = candidate.entryNames()
        guard names.contains("users.json") else { return false }
        let lists = listFiles.filter(names.contains)
        guard !lists.isEmpty else { return false }
        for name in ["users.json"] + lists {
            let head = ExportCandidate(url: candidate.url.appendingPathComponent(name)).trimmedHead
            guard head.first == UInt8(ascii: "[") else { return false }
        }
        return true
    }

    static let listFiles = ["channels.json", "groups.json", "dms.json", "mpims.json"]

    /// A conversation the metadata lists.
    struct Channel {
        var id: String
        var folder: String
        var slug: String
        var title: String
        var members: [String]
    }

    public static func read(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic] {
        guard let folder = export.items.first else { return [] }
        var diagnostics: [Diagnostic] = []
        func load(_ name: String) -> JSONNode? {
            let url = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            return context.parseJSON(url, shown: context.displayPath(url), report: { diagnostics.append($0) })
        }
        // Users and bots: id → name and avatar.
        var users: [String: String] = [:]
        for user in load("users.json")?.elements ?? [] {
            guard let id = user["id"]?.string else { continue }
            let profile = user["profile"]
            let name = [
                profile?["display_name"]?.string, profile?["real_name"]?.string, user["real_name"]?.string,
                user["name"]?.string,
            ].compactMap { $0 }.first { !$0.isEmpty }
            users[id] = name ?? id
        }
        var channels: [Channel] = []
        var listed: Set<String> = []
        for list in listFiles {
            guard let node = load(list) else { continue }
            guard let elements = node.elements else {
                diagnostics.append(
                    .error(
                        .wrongType(field: "(top level)", expected: "an array of conversations, not \(node.typeName)"),
                        at: node.location(in: context.displayPath(folder.appendingPathComponent(list)))))
                continue
            }
            for element in elements {
                guard let id = element["id"]?.string else { continue }
                let members = element["members"]?.elements?.compactMap(\.string) ?? []
                let memberNames = members.map { users[$0] ?? $0 }
                let name = element["name"]?.string
                let channel: Channel
                switch list {
                case "dms.json":
                    let title = memberNames.joined(separator: ", ")
                    channel = Channel(id: id, folder: id, slug: "dm-" + title, title: title, members: members)
                case "mpims.json":
                    let title = memberNames.joined(separator: ", ")
                    channel = Channel(
                        id: id, folder: name ?? id, slug: "group-" + title, title: title, members: members)
                default:
                    let shownName = name ?? id
                    channel = Channel(
                        id: id, folder: shownName, slug: shownName, title: "#" + shownName, members: members)
                }
                listed.insert(channel.folder)
                channels.append(channel)
            }
        }
        // Folders of messages the metadata does not list are still conversations: nothing is lost.
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in entries.sorted() where !listed.contains(name) && !name.hasPrefix(".") {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isFolder),
                isFolder.boolValue
            {
                channels.append(Channel(id: name, folder: name, slug: name, title: "#" + name, members: []))
            }
        }
        let userNames = users
        ReadAhead.run(
            channels,
            read: { channel in
                let channelFolder = folder.appendingPathComponent(channel.folder)
                let days = ((try? FileManager.default.contentsOfDirectory(atPath: channelFolder.path)) ?? [])
                    .filter { $0.lowercased().hasSuffix(".json") }.sorted()
                guard !days.isEmpty else { return nil }  // listed, but no messages exported
                let reader = SlackConversationReader(
                    channel: channel, folder: channelFolder, users: userNames, context: context, exportFolder: folder)
                return reader.read(days: days)
            }, emit: emit)
        return diagnostics
    }
}

/// Reads one Slack conversation's per-day files.
struct SlackConversationReader {
    let channel: SlackImporter.Channel
    let folder: URL
    let users: [String: String]
    let context: ImportContext
    let exportFolder: URL
    /// Files of this conversation found in the export, by their path in it.
    let foundFiles = FoundFiles()

    /// The files a conversation reader found (one reader, one thread).
    final class FoundFiles {
        var sources: [String: MediaSource] = [:]
    }

    func read(days: [String]) -> ImportedConversation {
        let first = folder.appendingPathComponent(days[0])
        var assembler = ConversationAssembler(
            format: .slack, id: channel.slug, title: channel.title,
            key: context.relativePath(exportFolder) + "/" + channel.folder,
            sourceFiles: days.map { context.displayPath(folder.appendingPathComponent($0)) },
            location: SourceLocation(file: context.displayPath(first), line: 1, column: 1))
        for member in channel.members {
            assembler.addParticipant(Participant(id: member, name: users[member] ?? member))
        }
        let text = SlackText(users: users)
        for day in days {
            let file = folder.appendingPathComponent(day)
            let shown = context.displayPath(file)
            guard let root = context.parseJSON(file, shown: shown, report: { assembler.report($0) }) else { continue }
            guard let elements = root.elements else {
                assembler.report(
                    .error(
                        .wrongType(field: "(top level)", expected: "an array of messages, not \(root.typeName)"),
                        at: root.location(in: shown)))
                continue
            }
            let relative = context.relativePath(file)  // once per file, not per message
            for (index, element) in elements.enumerated() {
                message(
                    element, index: index, file: file, relative: relative, shown: shown, text: text, into: &assembler)
            }
        }
        return assembler.finish()
    }

    func message(
        _ node: JSONNode, index: Int, file: URL, relative: String, shown: String, text: SlackText,
        into assembler: inout ConversationAssembler
    ) {
        let location = node.location(in: shown)
        var diagnostics: [Diagnostic] = []
        guard node.members != nil else {
            assembler.report(
                .error(
                    .wrongType(field: "[\(index)]", expected: "a message object, not \(node.typeName)"), at: location))
            return
        }
        guard let ts = node["ts"]?.string, let seconds = Double(ts) else {
            assembler.report(
                .error(
                    .wrongType(field: "ts", expected: "a Slack timestamp string such as \"1736478514.897649\""),
                    at: node["ts"]?.location(in: shown) ?? location))
            return
        }
        let date = Date(timeIntervalSince1970: seconds)
        let subtype = node["subtype"]?.string
        var sender = node["user"]?.string ?? node["bot_id"]?.string
        if let bot = node["bot_profile"], let botID = bot["id"]?.string ?? node["bot_id"]?.string {
            sender = node["user"]?.string ?? botID
            if let senderID = sender, users[senderID] == nil || !assembler.hasParticipant(senderID) {
                assembler.addParticipant(
                    Participant(id: senderID, name: bot["name"]?.string ?? users[senderID] ?? senderID))
            }
        } else if let senderID = sender, !assembler.hasParticipant(senderID) {
            let name = users[senderID] ?? node["user_profile"]?["display_name"]?.string ?? node["username"]?.string
            assembler.addParticipant(Participant(id: senderID, name: (name?.isEmpty == false ? name : nil) ?? senderID))
        }
        let mrkdwn = node["text"]?.string ?? ""
        let blocks = mrkdwn.isEmpty ? node["blocks"]?.elements : nil
        // Plain text (most messages) needs neither Markdown nor cmark-gfm.
        let plain = subtype == "me_message" || blocks != nil ? nil : text.plainText(ifSimple: mrkdwn)
        func markdown() -> String { blocks.map(text.markdown(blocks:)) ?? text.markdown(mrkdwn: mrkdwn) }
        let source = ExportSource(format: "slack", file: relative, path: "$[\(index)]", id: ts)
        var message = Message(id: ts, sender: sender, date: date, kind: .text(""), source: source, location: location)
        if let threadTS = node["thread_ts"]?.string, threadTS != ts { message.thread = threadTS }
        if subtype == "thread_broadcast" || node["reply_broadcast"]?.bool == true {
            message.broadcast = true
            if message.thread == nil, let root = node["root"]?["ts"]?.string { message.thread = root }
        }
        if let edited = node["edited"]?["ts"]?.string, let editSeconds = Double(edited) {
            message.edited = Date(timeIntervalSince1970: editSeconds)
        }
        if node["pinned_to"]?.elements?.isEmpty == false { message.pinned = true }
        for reaction in node["reactions"]?.elements ?? [] {
            guard let name = reaction["name"]?.string else { continue }
            let senders = reaction["users"]?.elements?.compactMap(\.string) ?? []
            for user in senders where !assembler.hasParticipant(user) {
                assembler.addParticipant(Participant(id: user, name: users[user] ?? user))
            }
            message.reactions.append(Reaction(emoji: SlackText.emoji(name) ?? ":\(name):", senders: senders))
        }
        switch subtype {
        case "tombstone":
            message.deleted = true
            message.kind = .text("")
        case nil, "thread_broadcast", "bot_message", "file_share", "me_message", "reply_broadcast":
            if let plain, !plain.isEmpty, node["files"] == nil, node["attachments"] == nil {
                // Emoji hold no ASCII but spaces: a cheap test before the per-character one.
                if !plain.utf8.contains(where: { $0 < 0x80 && $0 != 0x20 }),
                    case let trimmed = plain.trimmingCharacters(in: .whitespaces), !trimmed.isEmpty,
                    trimmed.allSatisfy({ $0.isWhitespace || MarkdownKindInference.isEmoji($0) })
                {
                    message.kind = .emoji(trimmed)
                } else {
                    message.kind = .text(plain)
                }
            } else {
                // Plain text is already Markdown once escaped (and needs no mrkdwn conversion).
                let raw = plain.map(SlackText.escapeMarkdown) ?? markdown()
                message.kind = body(
                    node, markdown: subtype == "me_message" ? "_" + raw + "_" : raw, plain: plain, file: file,
                    location: location, diagnostics: &diagnostics)
            }
        default:
            // Joins, leaves, topic, purpose, renames, pins…: a note about the conversation.
            let plain = text.plain(mrkdwn: node["text"]?.string ?? subtype ?? "")
            message.kind = .system(plain.isEmpty ? (subtype ?? "event") : plain)
            message.sender = nil
        }
        if message.sender == nil, message.kind.name != .system {
            message.sender = "unknown"
            if !assembler.hasParticipant("unknown") {
                assembler.addParticipant(Participant(id: "unknown", name: "Unknown"))
            }
        }
        for diagnostic in diagnostics { assembler.report(diagnostic) }
        assembler.append(message)
    }

    /// The kind of an ordinary message: its text, files and unfurls.
    /// `plain` is the text when it holds no formatting (`SlackText.plainText(ifSimple:)`).
    func body(
        _ node: JSONNode, markdown: String, plain: String?, file: URL, location: SourceLocation,
        diagnostics: inout [Diagnostic]
    ) -> MessageKind {
        let files = node["files"]?.elements ?? []
        let hasText = markdown.unicodeScalars.contains { !$0.properties.isWhitespace }
        if files.count == 1, !hasText {
            return fileKind(files[0], location: location, diagnostics: &diagnostics)
        }
        var lines = markdown
        for item in files {
            let name = item["name"]?.string ?? item["title"]?.string ?? item["id"]?.string ?? "file"
            let source = fileSource(item, location: location, diagnostics: &diagnostics)
            switch source {
            case .local(let asset):
                lines += "\n\n📎 [" + SlackText.escapeMarkdown(name) + "](@root/" + asset.sitePath + ")"
            default:
                lines += "\n\n📎 " + SlackText.escapeMarkdown(name) + " (file not in this export)"
            }
        }
        if files.isEmpty, let attachment = node["attachments"]?.elements?.first,
            let url = attachment["from_url"]?.string ?? attachment["title_link"]?.string
                ?? attachment["original_url"]?.string,
            url.hasPrefix("http://") || url.hasPrefix("https://")
        {
            var link = LinkItem(
                url: url, title: attachment["title"]?.string, teaser: attachment["text"]?.string,
                siteName: attachment["service_name"]?.string)
            if let thumb = attachment["thumb_url"]?.string ?? attachment["image_url"]?.string {
                link.thumbnail = context.media(
                    localPath: nil, remoteURL: thumb, relativeTo: file, at: location, diagnostics: &diagnostics)
            }
            if let plain { return .linkPreview(text: plain, link: link) }
            let rich = context.richText(markdown: lines, relativeTo: file, at: location, diagnostics: &diagnostics)
            return .linkPreview(text: rich.plainText, link: link)
        }
        if files.isEmpty, let attachments = node["attachments"]?.elements, !attachments.isEmpty {
            for attachment in attachments {
                let parts = [
                    attachment["pretext"]?.string, attachment["title"]?.string, attachment["text"]?.string,
                    attachment["fallback"]?.string,
                ]
                .compactMap { $0 }.filter { !$0.isEmpty }
                if let first = parts.first { lines += "\n\n> " + SlackText.escapeMarkdown(first) }
            }
        }
        let rich = context.richText(markdown: lines, relativeTo: file, at: location, diagnostics: &diagnostics)
        return .attributedText(rich)
    }

    func fileSource(_ item: JSONNode, location: SourceLocation, diagnostics: inout [Diagnostic]) -> MediaSource {
        let id = item["id"]?.string ?? ""
        let name = item["name"]?.string ?? ""
        let local = id.isEmpty || name.isEmpty ? nil : "attachments/\(id)-\(name)"
        // A file shared in many messages is looked up once (path work and a stat per message otherwise).
        if let local, let found = foundFiles.sources[local] { return found }
        let remote = item["url_private_download"]?.string ?? item["url_private"]?.string ?? item["permalink"]?.string
        if let local, FileManager.default.fileExists(atPath: folder.appendingPathComponent(local).path) {
            let source = context.media(
                localPath: local, relativeTo: folder.appendingPathComponent("day.json"), at: location,
                diagnostics: &diagnostics)
            if case .local = source { foundFiles.sources[local] = source }
            return source
        }
        if let remote, !remote.isEmpty {
            diagnostics.append(
                .warning(
                    .other(
                        "file '\(name.isEmpty ? id : name)' is not in the export (only at \(remote)); a placeholder is shown"
                    ), at: location))
        } else {
            diagnostics.append(.warning(.missingMediaFile(name.isEmpty ? id : name), at: location))
        }
        return .unavailable(original: name.isEmpty ? (id.isEmpty ? "file" : id) : name)
    }

    func fileKind(_ item: JSONNode, location: SourceLocation, diagnostics: inout [Diagnostic]) -> MessageKind {
        let source = fileSource(item, location: location, diagnostics: &diagnostics)
        let mime = item["mimetype"]?.string
        let title = item["title"]?.string
        if let mime, mime.hasPrefix("image/"), case .local = source {
            var size: PixelSize?
            if let width = item["original_w"]?.number(in: 1...1_000_000),
                let height = item["original_h"]?.number(in: 1...1_000_000)
            {
                size = PixelSize(width: Int(width), height: Int(height))
            }
            return .photo(MediaItem(source: source, size: size, alt: title))
        }
        let size = item["size"]?.number(in: 0...9e15).map { Int64($0) }
        return .file(FileItem(source: source, name: item["name"]?.string ?? title, size: size, mimeType: mime))
    }
}
