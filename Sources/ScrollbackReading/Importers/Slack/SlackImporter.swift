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
/// participants named by `bot_profile`, `username` or the export's bot list, never by a raw
/// `B…` id. `blocks` are shown when every element is understood (`SlackBlocks`), else `text`;
/// text without formatting is plain text, mrkdwn with formatting Markdown for cmark-gfm by
/// Slack's own emphasis rules (`SlackMrkdwn`); `:shortcode:` emoji come from Slack's table
/// (`SlackEmoji`). Names from the export's data (conversation folders, file names) are one path
/// component and stay inside the export (`SlackExportPaths`). Every record of a day file becomes
/// a message or is left out with its reason (the ledger). Files: one file is a `file` (or `photo`)
/// message, the text sent with it its caption; several files are lines naming each under the
/// text. Slack exports hold no file bytes, so a file is found only where slackdump puts it
/// (`<folder>/attachments/<id>-<name>`) and otherwise shows the placeholder naming it. The first
/// legacy `attachments` unfurl becomes a link preview. `me`: nothing in a workspace export says
/// which user made it (`users.json` lists everyone alike), so no conversation has one; the
/// config's `me:` (a user id such as `U012AB3CD`, or a name) or `--me` sets it, and a direct
/// message of two people without it gets the build's one-to-one warning.
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
        /// The index section, named as Slack's sidebar names it.
        var section: String
        /// What its list file says it is; `nil` for a folder no list names.
        var chatType: ChatType? = nil
    }

    /// The kind of chat each list file holds: a DM is one to one, a group DM (`mpims.json`) a
    /// group, public and private channels (`channels.json`, `groups.json`) channels.
    static func chatType(ofList list: String) -> ChatType {
        switch list {
        case "dms.json": .direct
        case "mpims.json": .group
        default: .channel
        }
    }

    /// The index section of the conversations each list file holds.
    static func section(ofList list: String) -> String {
        switch list {
        case "groups.json": "Private channels"
        case "dms.json": "Direct messages"
        case "mpims.json": "Group messages"
        default: "Channels"
        }
    }

    public static func read(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic] {
        guard let folder = export.items.first else { return [] }
        var diagnostics: [Diagnostic] = []
        func load(_ name: String) -> JSONNode? {
            let url = folder.appendingPathComponent(name, isDirectory: false)
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            guard SlackExportPaths.isContained(url, in: folder) else {
                diagnostics.append(
                    escapes(name, at: SourceLocation(file: context.displayPath(url), line: 1, column: 1)))
                return nil
            }
            return context.parseJSON(url, shown: context.displayPath(url), report: { diagnostics.append($0) })
        }
        let (users, bots) = Self.people(load("users.json"), bots: load("bots.json"))
        var channels: [Channel] = []
        var listed: Set<String> = []
        for list in listFiles {
            guard let node = load(list) else { continue }
            let shownList = context.displayPath(folder.appendingPathComponent(list))
            guard let elements = node.elements else {
                diagnostics.append(
                    .error(
                        .wrongType(field: "(top level)", expected: "an array of conversations, not \(node.typeName)"),
                        at: node.location(in: shownList)))
                continue
            }
            for (position, element) in elements.enumerated() {
                guard let id = element["id"]?.string else { continue }
                let members = element["members"]?.elements?.compactMap(\.string) ?? []
                let memberNames = members.map { users[$0] ?? $0 }
                let name = element["name"]?.string
                let channel: Channel
                switch list {
                case "dms.json":
                    let title = memberNames.joined(separator: ", ")
                    channel = Channel(
                        id: id, folder: id, slug: "dm-" + title, title: title, members: members,
                        section: section(ofList: list), chatType: chatType(ofList: list))
                case "mpims.json":
                    let title = memberNames.joined(separator: ", ")
                    channel = Channel(
                        id: id, folder: name ?? id, slug: "group-" + title, title: title, members: members,
                        section: section(ofList: list), chatType: chatType(ofList: list))
                default:
                    let shownName = name ?? id
                    channel = Channel(
                        id: id, folder: shownName, slug: shownName, title: "#" + shownName, members: members,
                        section: section(ofList: list), chatType: chatType(ofList: list))
                }
                // The folder name comes from the export's data: one name inside the export, never a path.
                if let reason = SlackExportPaths.refusal(channel.folder) {
                    let field = channel.folder == name ? "name" : "id"
                    diagnostics.append(
                        .error(
                            .wrongType(
                                field: "[\(position)].\(field)",
                                expected:
                                    "a folder name inside the export, not '\(channel.folder)' (\(reason)); conversation '\(id)' of \(list) is left out"
                            ), at: (element[field] ?? element).location(in: shownList)))
                    continue
                }
                listed.insert(channel.folder)
                channels.append(channel)
            }
        }
        // Folders of messages the metadata does not list are still conversations: nothing is lost.
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        // (`emojis/` holds the workspace's custom emoji, as slackdump saves them: no conversation.)
        for name in entries.sorted() where !listed.contains(name) && !name.hasPrefix(".") && name != "emojis" {
            if SlackExportPaths.isFolder(folder.appendingPathComponent(name).path) {
                channels.append(
                    Channel(
                        id: name, folder: name, slug: name, title: "#" + name, members: [],
                        section: section(ofList: "channels.json")))
            }
        }
        // Each conversation's day files, listed here (not on the reading threads) so that a folder
        // or a day file that leads out of the export is refused with the export's diagnostics.
        var reading: [(channel: Channel, days: [String])] = []
        for channel in channels {
            let channelFolder = folder.appendingPathComponent(channel.folder)
            guard FileManager.default.fileExists(atPath: channelFolder.path) else { continue }
            let shown = context.displayPath(channelFolder)
            guard SlackExportPaths.isContained(channelFolder, in: folder) else {
                diagnostics.append(escapes(channel.folder, at: SourceLocation(file: shown, line: 1, column: 1)))
                continue
            }
            var days: [String] = []
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: channelFolder.path)) ?? [])
                .filter { $0.lowercased().hasSuffix(".json") }.sorted()
            for day in names {
                let path = channelFolder.path + "/" + day
                if SlackExportPaths.isSymlink(path), !InputContainment.resolves(path, inside: folder.path) {
                    diagnostics.append(escapes(day, at: SourceLocation(file: shown + "/" + day, line: 1, column: 1)))
                    continue
                }
                days.append(day)
            }
            guard !days.isEmpty else { continue }  // listed, but no messages exported
            reading.append((channel, days))
        }
        var channelNames: [String: String] = [:]
        for channel in channels
        where channel.section == section(ofList: "channels.json")
            || channel.section == section(ofList: "groups.json")
        {
            channelNames[channel.id] = channel.folder
        }
        let directory = SlackDirectory(
            users: users, bots: bots,
            customEmoji: SlackEmoji.custom(in: folder, context: context, report: { diagnostics.append($0) }),
            channels: channelNames)
        ReadAhead.run(
            reading,
            read: { item in
                let reader = SlackConversationReader(
                    channel: item.channel, folder: folder.appendingPathComponent(item.channel.folder),
                    directory: directory, context: context, exportFolder: folder)
                return reader.read(days: item.days)
            }, emit: emit)
        return diagnostics
    }

    /// Users (id → the name Slack shows) from `users.json`, and bots (bot id → name) from the
    /// bot users' `profile.bot_id` and from a `bots.json` list (`[{"id": "B…", "name": …}]`) where
    /// the export has one: what names a bot whose message carries neither `bot_profile` nor
    /// `username`, never its raw `B…` id.
    static func people(
        _ usersList: JSONNode?, bots botsList: JSONNode?
    ) -> (
        users: [String: String], bots: [String: String]
    ) {
        var users: [String: String] = [:]
        var bots: [String: String] = [:]
        func nonEmpty(_ text: String?) -> String? { text?.isEmpty == false ? text : nil }
        for user in usersList?.elements ?? [] {
            guard let id = user["id"]?.string else { continue }
            let profile = user["profile"]
            let name = [
                profile?["display_name"]?.string, profile?["real_name"]?.string, user["real_name"]?.string,
                user["name"]?.string,
            ].lazy.compactMap(nonEmpty).first
            users[id] = name ?? id
            if let botID = nonEmpty(profile?["bot_id"]?.string), let name { bots[botID] = name }
        }
        for bot in botsList?.elements ?? [] {
            guard let id = bot["id"]?.string, let name = nonEmpty(bot["name"]?.string) else { continue }
            bots[id] = bots[id] ?? name
        }
        return (users, bots)
    }

    /// The error for a file or folder of the export that is a link leading out of it.
    static func escapes(_ name: String, at location: SourceLocation) -> Diagnostic {
        .error(
            .fileSystem("'\(name)' leads out of the export (a link to elsewhere); expected a file inside it; not read"),
            at: location)
    }
}

/// Who and what an export's messages may name: users, bots and the workspace's custom emoji.
struct SlackDirectory: Sendable {
    /// User id → the name Slack shows.
    var users: [String: String]
    /// Bot id → its name.
    var bots: [String: String]
    /// Custom emoji name → its image's path in the export (empty when the export has none).
    var customEmoji: [String: String] = [:]
    /// Channel id → name (public and private channels), for mentions in blocks.
    var channels: [String: String] = [:]
}
