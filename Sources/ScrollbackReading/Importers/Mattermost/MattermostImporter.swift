import Foundation
import ScrollbackModel

/// Mattermost's bulk export (spec §6, issue 43): one JSON object a line (`mattermost export bulk`,
/// `mmctl export create`; `import.jsonl` in the zip, beside `data/` with the attachments when
/// made with `--attachments`). The first line is `{"type": "version", …}`; then `team`,
/// `channel`, `user`, `post` (a channel's root post, its `replies` and `reactions` inline),
/// `direct_channel`, `direct_post` and `emoji` lines, in no promised order.
///
/// Mapping: one conversation per channel, its id the slug of team and channel name
/// (`gryffindor-dumbledores-army`), and one per direct channel, its id from the sorted member
/// names (`dm-harry-ron`, `group-ginny-harry-ron`): names a newer export of the same server keeps
/// (`ConversationIDs` settles a clash). The export has no post ids: a message's id is its
/// `create_at` in milliseconds (`-2`, `-3` for a second message of the same millisecond, in
/// time order), so permalinks survive a re-export. Replies are a thread under their root post
/// (`Message.thread`, as Slack's); reactions keep their users (`emoji_name` through the emoji
/// table Slack and Mattermost share; a custom emoji is its `:name:`, with its image when the
/// export holds it); `type: system_*` posts are system lines; attachments are the files under
/// `data/` beside the export file (inside the export), else the "not in this export" chip.
/// `me`: a bulk export is made by an administrator and says nothing of who, so no conversation
/// has one; the config's `me:` or `--me` sets it.
///
/// Every post and reply is one message, or left out with its reason in the ledger and a located
/// warning (no readable `create_at`); a line that is not JSON, or a post that names no channel,
/// is a located error of the export, and the rest is built.
public enum MattermostImporter: ExportImporter {
    public static let format = ExportFormat.mattermost
    public static let shape = ExportShape.file

    /// A file whose first line is the JSON object `{"type": "version", …}` and whose next line
    /// starts another object: the bulk export's first line, whatever the file is named.
    public static func detect(_ candidate: ExportCandidate) -> Bool {
        guard !candidate.isDirectory else { return false }
        let keys = candidate.topLevelJSONKeys
        guard keys.contains("type"), keys.contains("version"), keys.isSubset(of: ["type", "version", "info"]) else {
            return false
        }
        let head = candidate.trimmedHead
        guard let end = head.firstIndex(of: 0x0A), let first = try? JSONParser.parse(Array(head[..<end]), file: "")
        else { return false }
        let rest = head[(end + 1)...].drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        return first["type"]?.string == "version" && (rest.isEmpty || rest.first == UInt8(ascii: "{"))
    }

    public static func read(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for file in export.items {
            let shown = context.displayPath(file)
            guard let bytes = context.contents(of: file, shown: shown, report: { diagnostics.append($0) }) else {
                continue
            }
            let scan = MattermostScan(bytes: bytes, shown: shown)
            diagnostics += scan.diagnostics
            let ids = ConversationIDs.resolve(
                scan.channels.map { ConversationIDs.Claim(slug: $0.slug, sourceID: $0.key) })
            let items = Array(zip(scan.channels, ids))
            let directory = scan.directory
            ReadAhead.run(
                items,
                read: { item in
                    MattermostConversation(
                        channel: item.0, id: item.1, bytes: bytes, file: file, shown: shown, directory: directory,
                        context: context
                    ).read()
                }, emit: emit)
        }
        return diagnostics
    }
}

/// What the export says about teams, channels, users and custom emoji: what names a
/// conversation and its people.
struct MattermostDirectory: Sendable {
    /// Team name → display name.
    var teams: [String: String] = [:]
    /// `team/channel` → the channel line.
    var channels: [String: JSONNode] = [:]
    /// Username → the name shown (first and last name, else nickname, else the username).
    var users: [String: String] = [:]
    /// Sorted members joined by `,` → the direct channel line.
    var directChannels: [String: JSONNode] = [:]
    /// Custom emoji name → its image's path from the export file's folder.
    var emoji: [String: String] = [:]

    /// The name shown for `username`.
    func name(_ username: String) -> String { users[username] ?? username }
}

/// One conversation of the export, as the first pass finds it: which lines hold its posts.
struct MattermostChannel: Sendable {
    /// A team's channel (open or private), a direct channel of two, or of more.
    enum Kind: Sendable { case open, direct, group }
    /// `team/channel` or, for a direct channel, the sorted members joined by `,`.
    var key: String
    /// The readable id asked for (`ConversationIDs.Claim.slug`).
    var slug: String
    var kind: Kind
    var team: String?
    var channel: String?
    var members: [String]
    /// The byte ranges of its `post`/`direct_post` lines in the file, with their line numbers.
    var lines: [(range: Range<Int>, line: Int)] = []
}

/// The first pass over the file: every line parsed once, the directory kept, each post's line
/// given to its conversation (the posts themselves are parsed again, one conversation at a time).
struct MattermostScan {
    var directory = MattermostDirectory()
    var channels: [MattermostChannel] = []
    var diagnostics: [Diagnostic] = []
    private var index: [String: Int] = [:]

    init(bytes: [UInt8], shown: String) {
        var start = 0
        var line = 0
        while start < bytes.count {
            line += 1
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            defer { start = end + 1 }
            var range = start..<end
            while let last = range.last, bytes[last] == 0x0D || bytes[last] == 0x20 || bytes[last] == 0x09 {
                range = range.lowerBound..<last
            }
            if line == 1, bytes[range].starts(with: [0xEF, 0xBB, 0xBF]) {
                range = (range.lowerBound + 3)..<range.upperBound
            }
            guard bytes[range].contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
            let node: JSONNode
            do {
                node = try JSONParser.parse(Array(bytes[range]), file: shown, firstLine: line)
            } catch {
                diagnostics.append(error)
                continue
            }
            take(node, range: range, line: line, shown: shown)
        }
    }

    /// Files one line's object.
    private mutating func take(_ node: JSONNode, range: Range<Int>, line: Int, shown: String) {
        guard node.members != nil, let type = node["type"]?.string else {
            diagnostics.append(
                .error(
                    .wrongType(
                        field: "(line \(line))",
                        expected:
                            "an object with a \"type\" (version, team, channel, user, post, …), not \(node.typeName)"
                    ), at: node.location(in: shown)))
            return
        }
        let body = node[type]
        switch type {
        case "team":
            if let name = body?["name"]?.string {
                directory.teams[name] = Self.nonEmpty(body?["display_name"]?.string) ?? name
            }
        case "channel":
            if let team = body?["team"]?.string, let name = body?["name"]?.string {
                directory.channels[team + "/" + name] = body
            }
        case "user":
            if let username = body?["username"]?.string { directory.users[username] = Self.displayName(body!) }
        case "emoji":
            if let name = body?["name"]?.string, let image = Self.nonEmpty(body?["image"]?.string) {
                directory.emoji[name] = image
            }
        case "direct_channel":
            let members = Self.members(body?["members"]) ?? Self.members(body?["participants"]) ?? []
            if !members.isEmpty { directory.directChannels[members.joined(separator: ",")] = body }
        case "post", "direct_post":
            guard let channel = Self.channel(of: body, direct: type == "direct_post") else {
                let expected =
                    type == "post"
                    ? "a post object with \"team\" and \"channel\"" : "a direct_post object with \"channel_members\""
                diagnostics.append(
                    .error(
                        .wrongType(field: type, expected: expected + "; this post and its replies are not built"),
                        at: (body ?? node).location(in: shown)))
                return
            }
            if index[channel.key] == nil {
                index[channel.key] = channels.count
                channels.append(channel)
            }
            channels[index[channel.key]!].lines.append((range, line))
        default: break  // version, scheme, role, bot, …: nothing to show
        }
    }

    /// The conversation a post belongs to, or `nil` when it names none.
    static func channel(of body: JSONNode?, direct: Bool) -> MattermostChannel? {
        guard let body, body.members != nil else { return nil }
        if direct {
            guard let members = members(body["channel_members"]), !members.isEmpty else { return nil }
            let isGroup = members.count > 2
            return MattermostChannel(
                key: members.joined(separator: ","),
                slug: (isGroup ? "group-" : "dm-") + members.joined(separator: "-"), kind: isGroup ? .group : .direct,
                members: members)
        }
        guard let team = nonEmpty(body["team"]?.string), let name = nonEmpty(body["channel"]?.string) else {
            return nil
        }
        return MattermostChannel(
            key: team + "/" + name, slug: team + "-" + name, kind: .open, team: team, channel: name, members: [])
    }

    /// The usernames of a member list (strings, or `{"username": …}` objects), sorted, each once.
    static func members(_ node: JSONNode?) -> [String]? {
        guard let elements = node?.elements else { return nil }
        let names = elements.compactMap { $0.string ?? $0["username"]?.string }.filter { !$0.isEmpty }
        return Array(Set(names)).sorted()
    }

    /// First and last name, else nickname, else the username.
    static func displayName(_ user: JSONNode) -> String {
        let username = user["username"]?.string ?? ""
        let full = [user["first_name"]?.string, user["last_name"]?.string].compactMap { nonEmpty($0) }
            .joined(separator: " ")
        return nonEmpty(full) ?? nonEmpty(user["nickname"]?.string) ?? username
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return text
    }
}
