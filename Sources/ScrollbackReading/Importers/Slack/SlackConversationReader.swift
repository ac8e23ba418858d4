import Foundation
import ScrollbackModel

/// The members of a Slack message the importer reads: the slots the parser fills
/// (`JSONParser.parse(_:file:streamingObjectsOfTopLevelArrayWith:to:otherElements:)`). Every
/// other member (Slack repeats `user_profile`, team ids, `client_msg_id`, reply lists… on each
/// message) is checked and skipped without being built.
enum SlackField: Int, CaseIterable {
    case ts, user, botID, botProfile, subtype, text, blocks, threadTS, replyBroadcast, root, edited, pinnedTo,
        reactions, files, attachments, username

    /// The member names, in slot order.
    static let names: [String] = allCases.map(\.name)

    /// The member name.
    var name: String {
        switch self {
        case .ts: "ts"
        case .user: "user"
        case .botID: "bot_id"
        case .botProfile: "bot_profile"
        case .subtype: "subtype"
        case .text: "text"
        case .blocks: "blocks"
        case .threadTS: "thread_ts"
        case .replyBroadcast: "reply_broadcast"
        case .root: "root"
        case .edited: "edited"
        case .pinnedTo: "pinned_to"
        case .reactions: "reactions"
        case .files: "files"
        case .attachments: "attachments"
        case .username: "username"
        }
    }
}

extension JSONStreamedObject {
    /// The first member named `field`, if the message has one.
    subscript(field: SlackField) -> JSONNode? { values[field.rawValue] }
}

/// Reads one Slack conversation's per-day files.
///
/// Day files are decoded in parallel, each on its own (`DecodedDay`: its messages, the
/// participants they name and their diagnostics, with no conversation state), and handed to the
/// assembler in file order: the conversation is the same as reading them one by one.
struct SlackConversationReader {
    let channel: SlackImporter.Channel
    let folder: URL
    /// The export's users and bots.
    let directory: SlackDirectory
    /// User id → the name Slack shows.
    var users: [String: String] { directory.users }
    let context: ImportContext
    let exportFolder: URL
    /// Files of this conversation found in the export, by their path in it.
    let foundFiles = FoundFiles()

    /// The files a conversation reader found, shared by the day files decoded at once.
    final class FoundFiles: @unchecked Sendable {
        private var sources: [String: MediaSource] = [:]
        private let lock = NSLock()

        subscript(path: String) -> MediaSource? {
            get { lock.withLock { sources[path] } }
            set { lock.withLock { sources[path] = newValue } }
        }
    }

    /// A participant a message names, to be added in message order: unless one with its id is
    /// already known, or (`renames`, a bot not in `users.json`) always, taking the bot's name.
    struct ParticipantNamed {
        var participant: Participant
        var renames = false
    }

    /// What one day file holds, decoded without the conversation's state.
    struct DecodedDay {
        var messages: [Message] = []
        var participants: [ParticipantNamed] = []
        /// Each diagnostic with how many of `messages` come before it (reported in that order).
        var diagnostics: [(messagesBefore: Int, diagnostic: Diagnostic)] = []
        /// Ids `participants` already names: a later "unless known" for them changes nothing.
        var named: Set<String> = []
        /// The name each bot was last given in this day: a bot renamed only when its name changes.
        var botNames: [String: String] = [:]

        /// Records of the day file left out, each with how many of `messages` come before it,
        /// the reason and where it is (`ConversationAssembler.leaveOut`, in that order).
        var leftOut: [(messagesBefore: Int, reason: String, location: SourceLocation)] = []

        mutating func report(_ diagnostic: Diagnostic) { diagnostics.append((messages.count, diagnostic)) }

        /// Leaves one record out with its reason, and says so where it is (a warning: one bad
        /// record never sinks the conversation).
        mutating func leaveOut(_ reason: String, problem: Problem, at location: SourceLocation) {
            leftOut.append((messages.count, reason, location))
            report(.warning(problem, at: location))
        }

        /// The id `name(_:_:)` was last asked for: senders come in runs, and a repeat needs no hash.
        var lastNamed: String?

        /// Names `id` unless this day already did (then it is known by the time this message is added).
        mutating func name(_ id: String, _ name: @autoclosure () -> String) {
            guard id != lastNamed else { return }
            lastNamed = id
            guard named.insert(id).inserted else { return }
            participants.append(ParticipantNamed(participant: Participant(id: id, name: name())))
        }
    }

    /// A conversation folder's path on disk, in diagnostics (`ImportContext.displayPath`) and in
    /// the export (`ImportContext.relativePath`).
    struct FolderPaths: Sendable {
        var file: String
        var shown: String
        var relative: String
    }

    func read(days: [String]) -> ImportedConversation {
        // A day file's paths are its folder's plus its name (names come from listing the folder):
        // URL work once per conversation, not per file.
        let paths = FolderPaths(
            file: folder.path, shown: context.displayPath(folder), relative: context.relativePath(folder))
        var assembler = ConversationAssembler(
            format: .slack, id: channel.slug, title: channel.title,
            key: context.relativePath(exportFolder) + "/" + channel.folder,
            sourceFiles: days.map { paths.shown + "/" + $0 },
            location: SourceLocation(file: paths.shown + "/" + days[0], line: 1, column: 1))
        assembler.section = channel.section
        assembler.chatType = channel.chatType
        for member in channel.members {
            assembler.addParticipant(Participant(id: member, name: users[member] ?? member))
        }
        let text = SlackText(users: users, customEmoji: directory.customEmoji, channels: directory.channels)
        let decoded = ConcurrentSlots<DecodedDay>(count: days.count)
        Parallel.forEach(days.count, jobs: context.jobs) { index in
            decoded.store(decode(day: days[index], in: paths, text: text), at: index)
        }
        assembler.reserveCapacity(decoded.total { $0.messages.count })
        for index in days.indices {
            // Taken from its slot: its messages move on to the assembler.
            let day = decoded.take(index) ?? DecodedDay()
            for named in day.participants
            where named.renames || !assembler.hasParticipant(named.participant.id) {
                assembler.addParticipant(named.participant)
            }
            var next = 0
            var nextLeftOut = 0
            for (position, message) in day.messages.enumerated() {
                while next < day.diagnostics.count, day.diagnostics[next].messagesBefore <= position {
                    assembler.report(day.diagnostics[next].diagnostic)
                    next += 1
                }
                while nextLeftOut < day.leftOut.count, day.leftOut[nextLeftOut].messagesBefore <= position {
                    assembler.leaveOut(reason: day.leftOut[nextLeftOut].reason, at: day.leftOut[nextLeftOut].location)
                    nextLeftOut += 1
                }
                assembler.append(message)
            }
            for remaining in day.diagnostics[next...] { assembler.report(remaining.diagnostic) }
            for remaining in day.leftOut[nextLeftOut...] {
                assembler.leaveOut(reason: remaining.reason, at: remaining.location)
            }
        }
        return assembler.finish()
    }

    /// One day file's messages, participants and diagnostics. A file that is not JSON, or not an
    /// array, gives only its error: none of its messages count.
    func decode(day: String, in paths: FolderPaths, text: SlackText) -> DecodedDay {
        // (Named a file: without the hint, Foundation asks the file system whether it is a folder.)
        let file = folder.appendingPathComponent(day, isDirectory: false)
        let shown = paths.shown + "/" + day
        var decoded = DecodedDay()
        guard let bytes = context.contents(of: file, shown: shown, report: { decoded.report($0) }) else {
            return decoded
        }
        let relative = paths.relative + "/" + day
        var index = 0
        do {
            let root = try JSONParser.parse(
                bytes, file: shown, streamingObjectsOfTopLevelArrayWith: SlackField.names,
                to: { object, range in
                    message(
                        &object, index: index, element: bytes[range], file: file, relative: relative, shown: shown,
                        text: text, into: &decoded)
                    index += 1
                },
                otherElements: { node, _ in
                    decoded.leaveOut(
                        "not a message object",
                        problem: .wrongType(
                            field: "[\(index)]", expected: "a message object, not \(node.typeName); it is left out"),
                        at: node.location(in: shown))
                    index += 1
                })
            guard root.elements != nil else {
                return DecodedDay(diagnostics: [
                    (
                        0,
                        .error(
                            .wrongType(field: "(top level)", expected: "an array of messages, not \(root.typeName)"),
                            at: root.location(in: shown))
                    )
                ])
            }
        } catch {
            return DecodedDay(diagnostics: [(0, error)])
        }
        return decoded
    }

    func message(
        _ node: inout JSONStreamedObject, index: Int, element: ArraySlice<UInt8>, file: URL, relative: String,
        shown: String, text: SlackText, into day: inout DecodedDay
    ) {
        let location = SourceLocation(file: shown, line: node.line, column: node.column)
        var diagnostics: [Diagnostic] = []
        guard let ts = node[.ts]?.string, let seconds = Double(ts), seconds.isFinite else {
            day.leaveOut(
                node[.ts] == nil ? "no ts (no date)" : "a ts that is not a Slack timestamp",
                problem: .wrongType(
                    field: "ts",
                    expected: "a Slack timestamp string such as \"1736478514.897649\"; the message is left out"),
                at: node[.ts]?.location(in: shown) ?? location)
            return
        }
        let date = Date(timeIntervalSince1970: seconds)
        guard ConversationAssembler.validDates.contains(date) else {
            day.leaveOut(
                "a ts outside the years 1 to 9999",
                problem: .invalidDate(
                    ts, expected: "a Slack timestamp between the years 1 and 9999; the message is left out"),
                at: node[.ts]?.location(in: shown) ?? location)
            return
        }
        let subtype = node[.subtype]?.string
        let userID = node[.user]?.string
        let botProfile = node[.botProfile]
        let botID = node[.botID]?.string ?? botProfile?["id"]?.string
        var sender = userID ?? botID
        if let senderID = sender, let botID, botProfile != nil || userID == nil {
            // A bot (an app's `bot_profile`, or a webhook's `username`): named as Slack shows it,
            // never by its raw `B…` id.
            func nonEmpty(_ text: String?) -> String? { text?.isEmpty == false ? text : nil }
            let name =
                nonEmpty(botProfile?["name"]?.string) ?? nonEmpty(userID == nil ? node[.username]?.string : nil)
                ?? directory.bots[botID] ?? users[senderID] ?? "Unknown bot"
            if users[senderID] == nil {
                // Not in users.json: the name its messages carry, the latest winning.
                if day.botNames[senderID] != name {
                    day.botNames[senderID] = name
                    day.named.insert(senderID)
                    day.lastNamed = nil
                    day.participants.append(
                        ParticipantNamed(participant: Participant(id: senderID, name: name), renames: true))
                }
            } else {
                day.name(senderID, name)
            }
        } else if let senderID = sender {
            day.name(
                senderID,
                {
                    let name =
                        users[senderID] ?? Self.profileDisplayName(element, file: shown)
                        ?? node[.username]?.string
                    return (name?.isEmpty == false ? name : nil) ?? senderID
                }())
        }
        let mrkdwn = node[.text]?.string ?? ""
        // Blocks when every element is understood (or there is no text), else the text.
        let blocks = node[.blocks]?.elements.flatMap {
            $0.isEmpty ? nil : text.content(ofBlocks: $0, partial: mrkdwn.isEmpty)
        }
        // Plain text (most messages) needs neither Markdown nor cmark-gfm.
        let plain: String?
        switch blocks {
        case .plain(let shown)?: plain = subtype == "me_message" ? nil : shown
        case .markdown?: plain = nil
        case nil: plain = subtype == "me_message" ? nil : text.plainText(ifSimple: mrkdwn)
        }
        func markdown() -> String {
            switch blocks {
            case .plain(let shown)?: ChatMarkup.escapeMarkdown(shown).replacingOccurrences(of: "\n", with: "  \n")
            case .markdown(let markdown)?: markdown
            case nil: text.markdown(mrkdwn: mrkdwn)
            }
        }
        let source = ExportSource(format: "slack", file: relative, path: "$[\(index)]", id: ts)
        var message = Message(id: ts, sender: sender, date: date, kind: .text(""), source: source, location: location)
        if let threadTS = node[.threadTS]?.string, threadTS != ts { message.thread = threadTS }
        if subtype == "thread_broadcast" || node[.replyBroadcast]?.bool == true {
            message.broadcast = true
            if message.thread == nil, let root = node[.root]?["ts"]?.string { message.thread = root }
        }
        if let edited = node[.edited]?["ts"]?.string, let editSeconds = Double(edited) {
            message.edited = Date(timeIntervalSince1970: editSeconds)
        }
        if node[.pinnedTo]?.elements?.isEmpty == false { message.pinned = true }
        for reaction in node[.reactions]?.elements ?? [] {
            guard let name = reaction["name"]?.string else { continue }
            let senders = reaction["users"]?.elements?.compactMap(\.string) ?? []
            for user in senders { day.name(user, users[user] ?? user) }
            message.reactions.append(Reaction(emoji: SlackText.emoji(name) ?? ":\(name):", senders: senders))
        }
        switch subtype {
        case "tombstone":
            message.deleted = true
            message.kind = .text("")
        case nil, "thread_broadcast", "bot_message", "file_share", "me_message", "reply_broadcast":
            if let plain, !plain.isEmpty, node[.files] == nil, node[.attachments] == nil {
                // Emoji hold no ASCII but spaces: a cheap test before the per-character one.
                if !plain.utf8.contains(where: { $0 < 0x80 && $0 != 0x20 }),
                    case let trimmed = ChatMarkup.trimming(plain, in: .whitespaces), !trimmed.isEmpty,
                    trimmed.allSatisfy({ $0.isWhitespace || MarkdownKindInference.isEmoji($0) })
                {
                    message.kind = .emoji(trimmed)
                } else {
                    message.kind = .text(plain)
                }
            } else {
                // Plain text is already Markdown once escaped (and needs no mrkdwn conversion).
                let raw = plain.map(ChatMarkup.escapeMarkdown) ?? markdown()
                message.kind = body(
                    node, markdown: subtype == "me_message" ? "_" + raw + "_" : raw, plain: plain, file: file,
                    location: location, diagnostics: &diagnostics)
            }
        default:
            // Joins, leaves, topic, purpose, renames, pins…: a note about the conversation.
            let plain = text.plain(mrkdwn: node[.text]?.string ?? subtype ?? "")
            message.kind = .system(plain.isEmpty ? (subtype ?? "event") : plain)
            message.sender = nil
        }
        if message.sender == nil, message.kind.name != .system {
            message.sender = "unknown"
            day.name("unknown", "Unknown")
        }
        for diagnostic in diagnostics { day.report(diagnostic) }
        day.messages.append(message)
    }

    /// `user_profile.display_name` of a message (its bytes, already checked): only asked for a
    /// sender that `users.json` does not name, once per day file, so the profile Slack repeats
    /// on every message is otherwise never built.
    static func profileDisplayName(_ element: ArraySlice<UInt8>, file: String) -> String? {
        (try? JSONParser.parse(Array(element), file: file))?["user_profile"]?["display_name"]?.string
    }

    /// The kind of an ordinary message: its text, files and unfurls.
    /// `plain` is the text when it holds no formatting (`SlackText.plainText(ifSimple:)`).
    func body(
        _ node: JSONStreamedObject, markdown: String, plain: String?, file: URL, location: SourceLocation,
        diagnostics: inout [Diagnostic]
    ) -> MessageKind {
        let files = node[.files]?.elements ?? []
        // (A printable ASCII byte answers at once; only other text asks Unicode's properties.)
        let hasText =
            markdown.utf8.contains { $0 > 0x20 && $0 < 0x80 }
            || markdown.unicodeScalars.contains { !$0.properties.isWhitespace }
        if files.count == 1 {
            // One file is its card (or image), as Slack shows it; the text sent with it is the
            // caption, as plain text (as a link preview's text is).
            let kind = fileKind(files[0], location: location, diagnostics: &diagnostics)
            guard hasText else { return kind }
            let caption =
                plain
                ?? context.richText(markdown: markdown, relativeTo: file, at: location, diagnostics: &diagnostics)
                .plainText
            // (`fileKind` makes only photos and file cards, which both show a caption.)
            return kind.withCaption(caption) ?? kind
        }
        var lines = markdown
        for item in files {
            let name = item["name"]?.string ?? item["title"]?.string ?? item["id"]?.string ?? "file"
            let source = fileSource(item, location: location, diagnostics: &diagnostics)
            switch source {
            case .local(let asset):
                lines += "\n\n📎 [" + ChatMarkup.escapeMarkdown(name) + "](@root/" + asset.sitePath + ")"
            default:
                lines += "\n\n📎 " + ChatMarkup.escapeMarkdown(name) + " (file not in this export)"
            }
        }
        if files.isEmpty, let attachment = node[.attachments]?.elements?.first,
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
        if files.isEmpty, let attachments = node[.attachments]?.elements, !attachments.isEmpty {
            for attachment in attachments {
                let parts = [
                    attachment["pretext"]?.string, attachment["title"]?.string, attachment["text"]?.string,
                    attachment["fallback"]?.string,
                ]
                .compactMap { $0 }.filter { !$0.isEmpty }
                if let first = parts.first { lines += "\n\n> " + ChatMarkup.escapeMarkdown(first) }
            }
        }
        let rich = context.richText(markdown: lines, relativeTo: file, at: location, diagnostics: &diagnostics)
        return .attributedText(rich)
    }

    func fileSource(_ item: JSONNode, location: SourceLocation, diagnostics: inout [Diagnostic]) -> MediaSource {
        let id = item["id"]?.string ?? ""
        let name = item["name"]?.string ?? ""
        // The file's id and name make one file name in `attachments/`: never a path out of it.
        let local =
            SlackExportPaths.refusal(id) != nil || SlackExportPaths.refusal(name) != nil
            ? nil : "attachments/\(id)-\(name)"
        // A file shared in many messages is looked up once (path work and a stat per message otherwise).
        if let local, let found = foundFiles[local] { return found }
        let remote = item["url_private_download"]?.string ?? item["url_private"]?.string ?? item["permalink"]?.string
        if let local,
            FileManager.default.fileExists(atPath: folder.appendingPathComponent(local, isDirectory: false).path)
        {
            let source = context.media(
                localPath: local, relativeTo: folder.appendingPathComponent("day.json", isDirectory: false),
                at: location,
                diagnostics: &diagnostics)
            if case .local = source { foundFiles[local] = source }
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
