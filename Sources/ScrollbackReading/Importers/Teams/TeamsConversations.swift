import Foundation
import ScrollbackModel

/// One `messages_<id>.json` of a Teams export, parsed.
struct TeamsSource: Sendable {
    let file: URL
    let shown: String
    /// Its path in the export (`ExportSource.file`).
    let relative: String
    /// The `<id>` of its name: the team, or the user whose chats a user folder's file holds.
    let owner: String?
    let records: [JSONNode]
}

/// Who and what a Teams export names: users, teams and channels.
struct TeamsDirectory: Sendable {
    /// User or app id → name: `usersList.json` first, then the first name the messages carry.
    var users: [String: String] = [:]
    /// Team id (`GroupsId`) → name.
    var teams: [String: String] = [:]
    /// Channel id → its name and, in the export's order, its place.
    var channels: [String: String] = [:]

    /// The name of user `id`, or the id.
    func name(_ id: String) -> String { users[id] ?? id }

    mutating func addUsers(_ list: JSONNode) {
        for user in list.elements ?? [] {
            guard let id = nonEmpty(user["Id"]?.string), users[id] == nil else { continue }
            users[id] =
                nonEmpty(user["DisplayName"]?.string) ?? nonEmpty(user["Mail"]?.string)
                ?? nonEmpty(user["UserPrincipalName"]?.string) ?? id
        }
    }

    mutating func addTeams(_ list: JSONNode) {
        for team in list.elements ?? [] {
            guard let id = nonEmpty(team["GroupsId"]?.string ?? team["Id"]?.string) else { continue }
            teams[id] = nonEmpty(team["Name"]?.string ?? team["DisplayName"]?.string) ?? teams[id]
        }
    }

    mutating func addChannels(_ list: JSONNode, teamID: String) {
        for channel in list.elements ?? [] {
            guard let id = nonEmpty(channel["Id"]?.string), let name = nonEmpty(channel["DisplayName"]?.string) else {
                continue
            }
            channels[id] = name
        }
    }

    /// Names the senders and reactors of `records` that `usersList.json` does not (a deactivated
    /// user, an app), by the first name a message gives them.
    mutating func addNames(from records: [JSONNode]) {
        func note(_ identity: (id: String, name: String?)?) {
            guard let identity, users[identity.id] == nil, let name = identity.name else { return }
            users[identity.id] = name
        }
        for record in records {
            note(Self.identity(record["From"]))
            for reaction in record["Reactions"]?.elements ?? [] { note(Self.identity(reaction["User"])) }
        }
    }

    /// The user (or app) of an identity set (`From`, a reaction's `User`): its id and name.
    static func identity(_ set: JSONNode?) -> (id: String, name: String?)? {
        guard let set else { return nil }
        for key in ["User", "Application", "Device"] {
            guard let identity = set[key], let id = nonEmpty(identity["Id"]?.string) else { continue }
            return (id, nonEmpty(identity["DisplayName"]?.string))
        }
        return nil
    }
}

private func nonEmpty(_ text: String?) -> String? {
    guard let text, !ChatMarkup.trimming(text, in: .whitespacesAndNewlines).isEmpty else { return nil }
    return text
}

/// One conversation of the export: a channel or a chat, and where its records are.
struct TeamsChat: Sendable {
    enum Place: Sendable {
        case channel(team: String, channel: String)
        case chat(String)
    }

    /// A record: its file (index into the sources) and place in the file's array; `placed` is
    /// false for a record that names no channel or chat, kept with its neighbours to be left out.
    struct Ref: Sendable {
        var source: Int
        var index: Int
        var placed: Bool
    }

    let place: Place
    /// `channel:<team>/<channel>` or `chat:<ChatId>`: the conversation's key in the export.
    let key: String
    var refs: [Ref] = []
    /// A chat's `me`: the owner of the first user folder it was read from.
    var owner: String?

    /// Whether a chat is one to one: Teams names those `19:<user>_<user>@unq.gbl.spaces`.
    var isDirect: Bool {
        if case .chat(let id) = place { return id.hasSuffix("@unq.gbl.spaces") }
        return false
    }

    /// The two users of a one-to-one chat, from its id.
    var pair: [String] {
        guard case .chat(let id) = place, isDirect else { return [] }
        var core = Substring(id.dropLast("@unq.gbl.spaces".count))
        if core.hasPrefix("19:") { core = core.dropFirst(3) }
        return core.split(separator: "_").map(String.init)
    }

    /// The title: "team › channel", the other person of a one-to-one chat, or a group's people.
    func title(_ directory: TeamsDirectory, senders: [String]) -> String {
        switch place {
        case .channel(let team, let channel):
            return (directory.teams[team] ?? team) + " › " + (directory.channels[channel] ?? channel)
        case .chat:
            let others = (isDirect ? pair : senders).filter { $0 != owner }
            let names = (others.isEmpty ? pair : others).map(directory.name)
            return names.isEmpty ? "Group chat" : names.joined(separator: ", ")
        }
    }

    /// What this conversation asks `ConversationIDs` for: the team and channel names; the other
    /// person of a one-to-one chat; a group chat's own id (its people change, its id does not).
    func claim(_ directory: TeamsDirectory) -> ConversationIDs.Claim {
        switch place {
        case .channel(let team, let channel):
            let name = (directory.teams[team] ?? team) + " " + (directory.channels[channel] ?? channel)
            return ConversationIDs.Claim(slug: ConversationSlug.make(from: name), sourceID: channel)
        case .chat(let id):
            if isDirect {
                return ConversationIDs.Claim(
                    slug: ConversationSlug.make(from: "dm " + title(directory, senders: [])), sourceID: id)
            }
            var core = Substring(id)
            if core.hasPrefix("19:") { core = core.dropFirst(3) }
            if let at = core.firstIndex(of: "@") { core = core[..<at] }
            return ConversationIDs.Claim(slug: ConversationSlug.make(from: "group " + core.prefix(8)), sourceID: id)
        }
    }
}

/// The export's records sorted into conversations, in the order each first appears.
struct TeamsGrouping {
    var conversations: [TeamsChat] = []
    var diagnostics: [Diagnostic] = []

    init(sources: [TeamsSource], directory: TeamsDirectory) {
        var byKey: [String: Int] = [:]
        for (number, source) in sources.enumerated() {
            var unplaced: [Int] = []
            var last: Int?
            for (index, record) in source.records.enumerated() {
                guard let place = Self.place(of: record, fileOwner: source.owner) else {
                    if let last {
                        conversations[last].refs.append(TeamsChat.Ref(source: number, index: index, placed: false))
                    } else {
                        unplaced.append(index)
                    }
                    continue
                }
                let key: String
                switch place {
                case .channel(let team, let channel): key = "channel:" + team + "/" + channel
                case .chat(let id): key = "chat:" + id
                }
                let position: Int
                if let known = byKey[key] {
                    position = known
                } else {
                    position = conversations.count
                    byKey[key] = position
                    var chat = TeamsChat(place: place, key: key)
                    if case .chat = place { chat.owner = source.owner }
                    conversations.append(chat)
                }
                // Records before the first placed one go with it: each is in some conversation's ledger.
                for earlier in unplaced {
                    conversations[position].refs.append(TeamsChat.Ref(source: number, index: earlier, placed: false))
                }
                unplaced = []
                conversations[position].refs.append(TeamsChat.Ref(source: number, index: index, placed: true))
                last = position
            }
            if let first = unplaced.first {
                diagnostics.append(
                    .error(
                        .wrongType(
                            field: "[\(first)]",
                            expected:
                                "chat messages naming their ChannelIdentity or ChatId; none of the \(unplaced.count) "
                                + "records of this file does, so none is read"),
                        at: source.records[first].location(in: source.shown)))
            }
        }
    }

    /// The channel or chat a record belongs to; `nil` when it names neither.
    static func place(of record: JSONNode, fileOwner: String?) -> TeamsChat.Place? {
        if let identity = record["ChannelIdentity"], let channel = identity["ChannelId"]?.string, !channel.isEmpty {
            let team = identity["TeamId"]?.string.flatMap { $0.isEmpty ? nil : $0 } ?? fileOwner ?? ""
            return .channel(team: team, channel: channel)
        }
        if let chat = record["ChatId"]?.string, !chat.isEmpty { return .chat(chat) }
        return nil
    }
}

/// Reads one conversation's records into the model.
struct TeamsConversationReader {
    let chat: TeamsChat
    let id: String
    /// The export's key prefix (its folder or file within the input).
    let exportKey: String
    let directory: TeamsDirectory
    let sources: [TeamsSource]
    let context: ImportContext

    func read() -> ImportedConversation {
        let first = sources[chat.refs[0].source]
        var shownFiles: [String] = []
        for ref in chat.refs where !shownFiles.contains(sources[ref.source].shown) {
            shownFiles.append(sources[ref.source].shown)
        }
        var senders: [String] = []
        var seen: Set<String> = []
        for ref in chat.refs where ref.placed {
            if let sender = TeamsDirectory.identity(sources[ref.source].records[ref.index]["From"])?.id,
                seen.insert(sender).inserted
            {
                senders.append(sender)
            }
        }
        var assembler = ConversationAssembler(
            format: .teams, id: id, title: chat.title(directory, senders: senders),
            key: exportKey + "/" + chat.key, sourceFiles: shownFiles,
            location: SourceLocation(file: first.shown, line: 1, column: 1))
        switch chat.place {
        case .channel:
            assembler.section = "Channels"
            assembler.chatType = .channel
        case .chat:
            assembler.section = chat.isDirect ? "Direct messages" : "Group chats"
            assembler.chatType = chat.isDirect ? .direct : .group
            for user in [chat.owner].compactMap({ $0 }) + chat.pair where !assembler.hasParticipant(user) {
                assembler.addParticipant(Participant(id: user, name: directory.name(user)))
            }
            assembler.me = chat.owner
        }
        assembler.reserveCapacity(chat.refs.count)
        // A message of a chat two users' folders both hold is read from the first folder.
        var readFrom: [String: Int] = [:]
        for ref in chat.refs {
            let source = sources[ref.source]
            let record = source.records[ref.index]
            guard ref.placed else {
                TeamsMessage.leaveOutUnplaced(record, index: ref.index, source: source, into: &assembler)
                continue
            }
            if let messageID = record["Id"]?.string, !messageID.isEmpty {
                if let earlier = readFrom[messageID], earlier != ref.source {
                    assembler.leaveOut(
                        reason: "the same message as in \(sources[earlier].shown) (another user's copy of the chat)",
                        at: record.location(in: source.shown))
                    continue
                }
                readFrom[messageID] = ref.source
            }
            TeamsMessage.read(
                record, index: ref.index, source: source, directory: directory, context: context, into: &assembler)
        }
        return assembler.finish()
    }
}
