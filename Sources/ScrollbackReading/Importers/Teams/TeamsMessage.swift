import Foundation
import ScrollbackModel

/// One Graph chat message of a Teams export (`TeamsImporter`) onto the model.
///
/// - id: `Id` (the creation time in milliseconds, unique within its channel or chat);
/// - date: `CreatedDateTime`, an instant with its offset (a record without one is left out);
/// - sender: `From.User.Id` (named by `usersList.json`, else by the name the message carries),
///   or `From.Application` for an app;
/// - `ReplyToId`: a reply in the channel thread of that root message; a quoted message
///   (`messageReference`) in a chat: a reply to it;
/// - `LastEditedDateTime`: the edited mark; `DeletedDateTime`: a deleted message;
/// - `Reactions`: one per `ReactionType` (the emoji itself in today's exports), with who gave it;
/// - a system event (`MessageType` `systemEventMessage`, or `unknownFutureValue` with no `From`,
///   or an `EventDetail`): a system line whose text `TeamsEvent` derives from `EventDetail`;
/// - the body, subject and attachments: `TeamsBody`.
enum TeamsMessage {
    /// Reads `node`, element `index` of `source`, into `assembler`: one message, or one record
    /// left out with its reason.
    static func read(
        _ node: JSONNode, index: Int, source: TeamsSource, directory: TeamsDirectory, context: ImportContext,
        into assembler: inout ConversationAssembler
    ) {
        let location = node.location(in: source.shown)
        guard node.members != nil else {
            leaveOutNonObject(node, index: index, source: source, into: &assembler)
            return
        }
        let created = node["CreatedDateTime"]
        guard let stamp = created?.string, let date = ISO8601DateParser.parse(stamp) else {
            assembler.report(
                .warning(
                    .invalidDate(
                        created.map { $0.string ?? $0.typeName } ?? "(none)",
                        expected: "CreatedDateTime, " + ISO8601DateParser.expectedForm + "; the message is left out"),
                    at: created?.location(in: source.shown) ?? location))
            assembler.leaveOut(reason: "a message without a readable CreatedDateTime", at: location)
            return
        }
        let sourceID = node["Id"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        let id = sourceID ?? String(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
        if sourceID == nil {
            assembler.report(
                .warning(
                    .other("the message has no Id; it is named by its CreatedDateTime in milliseconds (\(id))"),
                    at: location))
        }
        var diagnostics: [Diagnostic] = []
        var message = Message(
            id: id, sender: nil, date: date, kind: .text(""),
            source: ExportSource(format: "teams", file: source.relative, path: "$[\(index)]", id: sourceID),
            location: location)
        if let edited = node["LastEditedDateTime"]?.string.flatMap(ISO8601DateParser.parse) { message.edited = edited }
        if let root = node["ReplyToId"]?.string, !root.isEmpty, root != id { message.thread = root }
        message.reactions = reactions(node, directory: directory, into: &assembler)
        let from = node["From"]
        let event = node["EventDetail"].flatMap { $0.members != nil ? $0 : nil }
        let type = node["MessageType"]?.string ?? "message"
        let isEvent =
            type == "systemEventMessage" || type == "chatEvent" || event != nil
            || type == "unknownFutureValue" && from?.members == nil
        if isEvent {
            message.kind = .system(TeamsEvent.text(event, name: directory.name))
        } else {
            let sender = self.sender(from, directory: directory, into: &assembler)
            message.sender = sender
            if node["DeletedDateTime"]?.string != nil {
                message.deleted = true
            } else {
                let body = TeamsBody(node: node, file: source.file, location: location, context: context)
                message.kind = body.kind(diagnostics: &diagnostics)
                if message.thread == nil, let quoted = body.quotedMessage, quoted != id { message.replyTo = quoted }
            }
        }
        for diagnostic in diagnostics { assembler.report(diagnostic) }
        assembler.append(message)
    }

    /// Leaves out an element of the array that is not a message object, with a warning.
    static func leaveOutNonObject(
        _ node: JSONNode, index: Int, source: TeamsSource, into assembler: inout ConversationAssembler
    ) {
        let location = node.location(in: source.shown)
        assembler.report(
            .warning(
                .wrongType(
                    field: "[\(index)]", expected: "a chat message object, not \(node.typeName); it is left out"),
                at: location))
        assembler.leaveOut(reason: "an entry that is not a message object", at: location)
    }

    /// Leaves out a message that names neither a channel nor a chat, with a warning.
    static func leaveOutUnplaced(
        _ node: JSONNode, index: Int, source: TeamsSource, into assembler: inout ConversationAssembler
    ) {
        guard node.members != nil else {
            leaveOutNonObject(node, index: index, source: source, into: &assembler)
            return
        }
        let location = node.location(in: source.shown)
        assembler.report(
            .warning(
                .wrongType(
                    field: "[\(index)]",
                    expected: "a message naming its ChannelIdentity.ChannelId or ChatId; it is left out"),
                at: location))
        assembler.leaveOut(reason: "a message naming neither ChannelIdentity nor ChatId", at: location)
    }

    /// The sender's participant id (named on first sight), or "unknown" for a message naming none.
    static func sender(
        _ from: JSONNode?, directory: TeamsDirectory, into assembler: inout ConversationAssembler
    ) -> String {
        let identity = TeamsDirectory.identity(from)
        let id = identity?.id ?? "unknown"
        if !assembler.hasParticipant(id) {
            assembler.addParticipant(Participant(id: id, name: identity == nil ? "Unknown" : directory.name(id)))
        }
        return id
    }

    /// The reactions, one per `ReactionType` in the order first given, with the users who gave it.
    static func reactions(
        _ node: JSONNode, directory: TeamsDirectory, into assembler: inout ConversationAssembler
    ) -> [Reaction] {
        var reactions: [Reaction] = []
        for item in node["Reactions"]?.elements ?? [] {
            guard let emoji = item["ReactionType"]?.string, !emoji.isEmpty else { continue }
            let user = TeamsDirectory.identity(item["User"])?.id
            if let user, !assembler.hasParticipant(user) {
                assembler.addParticipant(Participant(id: user, name: directory.name(user)))
            }
            if let index = reactions.firstIndex(where: { $0.emoji == emoji }) {
                if let user { reactions[index].senders.append(user) } else { reactions[index].unnamedCount += 1 }
            } else {
                reactions.append(Reaction(emoji: emoji, senders: user.map { [$0] } ?? [], count: user == nil ? 1 : nil))
            }
        }
        return reactions
    }
}
