import Foundation
import ScrollbackModel

/// DiscordChatExporter JSON (spec §6): `guild`, `channel`, `messages`, with its `*_Files/`
/// media folder; `[part N]` files of one channel merge into one conversation (by channel id).
///
/// Mapping: message ids stay (duplicates get derived ids); `reference.messageId` is `replyTo`
/// (kept when the message is not in the export: the layout shows no quote then) unless the
/// reference is a forward (`reference.type` `Forward`: the `forwardedMessage` is shown, marked
/// "Forwarded"); `timestampEdited` the edit date; `isPinned` pinned; reactions keep their
/// `users` and their `count` (a reaction without users is a count of unnamed people, not a
/// participant); `Call`, renames, icon changes, joins, pins and other non-`Default`/`Reply` types
/// are `system` messages; the body is built by `DiscordBody` (Discord Markdown, custom emoji,
/// spoilers, attachments, stickers, link previews).
///
/// Conversations: one per channel; a thread exported as its own file (`GuildPublicThread`, whose
/// `category` DCE fills with the parent channel) is its own conversation titled after its parent.
/// Ids follow `ConversationIDs`: the channel's slug, or `<slug>-<channel id>` for all but the
/// oldest of the channels that share one. The conversation's time zone is the exporter's, from
/// the offsets DCE writes in every timestamp (`DiscordTimeZone`).
///
/// Every element of `messages` is one message, or left out with its reason in the ledger and a
/// located warning (not an object, no readable timestamp).
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

    /// One channel being read: its conversation and the exporter's offsets seen so far.
    struct Channel {
        var assembler: ConversationAssembler
        var zone = DiscordTimeZone()
    }

    /// What reading a message needs to know of the file it is in.
    struct Place {
        let file: URL
        let shown: String
        let context: ImportContext
        /// The channel the file exports (forwards from it name it).
        let channelID: String
        let channelName: String
        let guildID: String?
    }

    public static func read(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var order: [String] = []
        var channels: [String: Channel] = [:]
        for file in export.items {
            let shown = context.displayPath(file)
            guard let root = context.parseJSON(file, shown: shown, report: { diagnostics.append($0) }) else {
                continue
            }
            let channelNode = root["channel"]
            let channelID = channelNode?["id"]?.string ?? file.lastPathComponent
            let channelName = channelNode?["name"]?.string ?? channelID
            if channels[channelID] == nil {
                channels[channelID] = Channel(
                    assembler: assembler(
                        root, channelID: channelID, channelName: channelName, file: file, shown: shown,
                        context: context))
                order.append(channelID)
            }
            channels[channelID]!.assembler.sourceFiles.append(shown)
            guard let messages = root["messages"]?.elements else {
                channels[channelID]!.assembler.report(.error(.missingField("messages"), at: root.location(in: shown)))
                continue
            }
            let place = Place(
                file: file, shown: shown, context: context, channelID: channelID, channelName: channelName,
                guildID: root["guild"]?["id"]?.string)
            channels[channelID]!.assembler.reserveCapacity(messages.count)
            for (index, node) in messages.enumerated() {
                message(node, index: index, in: place, into: &channels[channelID]!)
            }
        }
        // Ids once every channel of the input is known: which one keeps a shared slug depends on
        // the channel ids only, never on the order the files were read in.
        let ids = ConversationIDs.resolve(
            order.map { ConversationIDs.Claim(slug: channels[$0]!.assembler.id, sourceID: $0) })
        for (channelID, id) in zip(order, ids) {
            var channel = channels.removeValue(forKey: channelID)!
            channel.assembler.id = id
            channel.assembler.timeZone = channel.zone.identifier
            emit(channel.assembler.finish())
        }
        return diagnostics
    }

    /// DCE's channel types of threads and forum posts: their `category` is the parent channel.
    static let threadTypes: Set<String> = ["GuildPublicThread", "GuildPrivateThread", "GuildNewsThread"]

    /// The conversation of the channel `root` exports: slug, title, topic and index section.
    static func assembler(
        _ root: JSONNode, channelID: String, channelName: String, file: URL, shown: String, context: ImportContext
    ) -> ConversationAssembler {
        let channel = root["channel"]
        let guildName = root["guild"]?["name"]?.string
        let type = channel?["type"]?.string ?? ""
        let isPrivate =
            guildName == nil || guildName == "Direct Messages" || type == "DirectTextChat"
            || type == "DirectGroupTextChat"
        let category = channel?["category"]?.string ?? ""
        var title: String
        if isPrivate {
            title = channelName
        } else if threadTypes.contains(type) {
            // A thread is named after the channel it was started in, as Discord's header shows it.
            title = category.isEmpty ? channelName : "#" + category + " › " + channelName
        } else {
            title = "#" + channelName
            if !category.isEmpty { title = category + " / " + title }
        }
        var assembler = ConversationAssembler(
            format: .discord, id: isPrivate ? channelName : (guildName ?? "") + "-" + channelName, title: title,
            key: context.relativePath(file.deletingLastPathComponent()) + "/discord-" + channelID,
            sourceFiles: [], location: SourceLocation(file: shown, line: 1, column: 1))
        assembler.description = channel?["topic"]?.string
        // The index lists a server's channels under its name, as Discord's sidebar does.
        assembler.section = isPrivate ? "Direct messages" : guildName
        assembler.chatType = chatType(ofChannelType: type)
        return assembler
    }

    /// The kind of chat a DCE `channel.type` (its `ChannelKind`) is: a DM, a group DM, or a
    /// server's channel, thread or forum post; `nil` for a type it does not name (an old export).
    static func chatType(ofChannelType type: String) -> ChatType? {
        switch type {
        case "DirectTextChat": .direct
        case "DirectGroupTextChat": .group
        case _ where type.hasPrefix("Guild"): .channel
        default: nil
        }
    }

    static func message(_ node: JSONNode, index: Int, in place: Place, into channel: inout Channel) {
        let location = node.location(in: place.shown)
        let context = place.context
        guard node.members != nil else {
            channel.assembler.report(
                .warning(
                    .other(
                        "entry \(index + 1) of 'messages' is a \(node.typeName), not a message; expected an object "
                            + "with id, timestamp and author; it is left out"), at: location))
            channel.assembler.leaveOut(reason: "an entry of 'messages' that is not a message object", at: location)
            return
        }
        guard let stamp = node["timestamp"]?.string, let date = ISO8601DateParser.parse(stamp) else {
            channel.assembler.report(
                .warning(
                    .invalidDate(node["timestamp"]?.string ?? "(none)", expected: ISO8601DateParser.expectedForm),
                    at: node["timestamp"]?.location(in: place.shown) ?? location))
            channel.assembler.leaveOut(reason: "a message without a readable timestamp", at: location)
            return
        }
        channel.zone.note(stamp, at: date)
        var id = node["id"]?.string ?? ""
        if id.isEmpty {
            // Kept: the assembler gives it a derived id, so nothing is lost for a missing key.
            id = "message-\(index + 1)"
            channel.assembler.report(
                .warning(.other("the message has no id; it is kept as '\(id)'"), at: location))
        }
        var diagnostics: [Diagnostic] = []
        let author = node["author"]
        let senderID = author?["id"]?.string ?? "unknown"
        if !channel.assembler.hasParticipant(senderID) {
            var avatar: MediaSource?
            if let url = author?["avatarUrl"]?.string, !isRemote(url) {
                avatar = context.media(
                    localPath: localPath(url), relativeTo: place.file, at: location, diagnostics: &diagnostics)
            }
            channel.assembler.addParticipant(
                Participant(id: senderID, name: displayName(author) ?? senderID, avatar: avatar))
        }
        let type = node["type"]?.string ?? "Default"
        let content = node["content"]?.string ?? ""
        var message = Message(
            id: id, sender: senderID, date: date, kind: .text(""),
            source: ExportSource(
                format: "discord", file: context.relativePath(place.file), path: "$.messages[\(index)]", id: id),
            location: location)
        if let edited = node["timestampEdited"]?.string { message.edited = ISO8601DateParser.parse(edited) }
        message.pinned = node["isPinned"]?.bool == true
        let reference = node["reference"]
        let forwarded = node["forwardedMessage"]
        if reference?["type"]?.string == "Forward" || forwarded?.members != nil {
            message.forwardedFrom = forwardSource(reference, place: place)
        } else if let reply = reference?["messageId"]?.string {
            message.replyTo = reply
        }
        let body = DiscordBody(node: node, place: place)
        message.reactions = body.reactions(adding: &channel.assembler, diagnostics: &diagnostics)
        switch type {
        case "Default", "Reply", "ThreadStarterMessage", "ChatInputCommand", "ContextMenuCommand":
            message.kind = body.kind(content: content, forwarded: forwarded, diagnostics: &diagnostics)
        default:
            let name = channel.assembler.participantName(senderID) ?? senderID
            var text = content.isEmpty ? systemText(type) : content
            if type == "Call", let end = node["callEndedTimestamp"]?.string, let endDate = ISO8601DateParser.parse(end),
                content.isEmpty
            {
                text = "Started a call that lasted \(Int(endDate.timeIntervalSince(date) / 60)) minutes."
            }
            message.kind = .system(name + ": " + text)
            message.sender = nil
        }
        for diagnostic in diagnostics { channel.assembler.report(diagnostic) }
        channel.assembler.append(message)
    }

    /// A user's shown name: the server nickname, else the account name.
    static func displayName(_ user: JSONNode?) -> String? {
        [user?["nickname"]?.string, user?["name"]?.string].compactMap { $0 }.first { !$0.isEmpty }
    }

    /// Where a forwarded message came from, as far as DCE says: its channel, when that is the
    /// channel exported here; otherwise only whether it is another channel of this server.
    static func forwardSource(_ reference: JSONNode?, place: Place) -> String {
        let channelID = reference?["channelId"]?.string
        if channelID == place.channelID { return "#" + place.channelName }
        if let guildID = reference?["guildId"]?.string, guildID == place.guildID { return "another channel" }
        return "another conversation"
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
}
