import Foundation
import ScrollbackModel

/// One Google Chat conversation's `messages.json` onto the model (`GoogleChatImporter`).
///
/// - `created_date`: Takeout's English date, month first with U+202F before AM/PM in newer
///   exports ("Tuesday, March 14, 2023 at 10:05:11 AM UTC") or day first with a 24-hour
///   clock ("Tuesday, 14 March 2023 at 10:05:11 UTC"), read by Foundation's `DateFormatter`
///   (en_US_POSIX); its instant is kept, shown in the site's zone.
/// - `updated_date`: the edited mark; `deleted_date` or `message_state: DELETED`: a deleted
///   message (its reactions stay).
/// - `text`, with `attached_files` (each `export_name` a file of the conversation's folder;
///   Takeout writes `?` of a name as `_`): one file is its photo, video, audio or file card with
///   the text as caption; several are listed in rich text; a file not in the export is named
///   with "(file not in this export)".
/// - `quoted_message_metadata`: a reply to its `message_id` when it has one, else the quote
///   shown above the text.
/// - `reactions`: each `emoji.unicode` with its `reactor_emails` as senders.
/// - `topic_id` other than the message's own id: a reply in that topic's thread.
/// - A record with nothing to show keeps its place, with a note in italics.
struct GoogleChatMessage {
    /// The conversation of `group`, with id `id`.
    static func conversation(
        _ group: GoogleChatImporter.Group, id: String, me: String?, context: ImportContext
    ) -> ImportedConversation {
        var assembler = ConversationAssembler(
            format: .googlechat, id: id, title: group.title,
            key: "googlechat:" + context.relativePath(group.folder),
            sourceFiles: [group.shown], location: SourceLocation(file: group.shown, line: 1, column: 1))
        assembler.id = id
        assembler.chatType = group.isSpace ? .group : .direct
        for member in group.members { assembler.addParticipant(member) }
        guard let root = context.parseJSON(group.messages, shown: group.shown, report: { assembler.report($0) })
        else {
            return assembler.finish()
        }
        guard let messages = root["messages"]?.elements else {
            assembler.report(
                .error(.missingField("messages"), at: (root["messages"] ?? root).location(in: group.shown)))
            return assembler.finish()
        }
        let reader = GoogleChatMessage(group: group, context: context)
        assembler.reserveCapacity(messages.count)
        for (index, node) in messages.enumerated() {
            reader.read(node, index: index, into: &assembler)
        }
        if let me, assembler.hasParticipant(me) { assembler.me = me }
        return assembler.finish()
    }

    let group: GoogleChatImporter.Group
    let context: ImportContext
    let dates = GoogleChatDates()

    /// Reads element `index` of `messages`: one message, or one record left out.
    func read(_ node: JSONNode, index: Int, into assembler: inout ConversationAssembler) {
        let location = node.location(in: group.shown)
        guard node.members != nil else {
            assembler.report(
                .warning(
                    .other(
                        "entry \(index + 1) of 'messages' is a \(node.typeName), not a message; expected an object "
                            + "with creator and created_date; it is left out"), at: location))
            assembler.leaveOut(reason: "an entry of 'messages' that is not a message object", at: location)
            return
        }
        let stamp = node["created_date"]
        guard let date = stamp?.string.flatMap(dates.date) else {
            assembler.report(
                .warning(
                    .invalidDate(
                        stamp.map { $0.string ?? $0.typeName } ?? "(none)",
                        expected: "a date such as \"Tuesday, March 14, 2023 at 10:05:11 AM UTC\""),
                    at: stamp?.location(in: group.shown) ?? location))
            assembler.leaveOut(reason: "a message without a readable created_date", at: location)
            return
        }
        var diagnostics: [Diagnostic] = []
        let fullID = node["message_id"]?.string ?? ""
        var id = Self.shortID(fullID)
        if id.isEmpty {
            // Older Takeouts carry no id: the position is stable as long as the export is.
            id = "message-\(index + 1)"
        }
        var sender = GoogleChatImporter.memberID(node["creator"]) ?? ""
        if sender.isEmpty {
            sender = "Unknown"
            diagnostics.append(
                .warning(.other("the message names no creator; it is kept as sent by 'Unknown'"), at: location))
        } else if !assembler.hasParticipant(sender) {
            let name = node["creator"]?["name"]?.string.flatMap { $0.isEmpty ? nil : $0 } ?? sender
            assembler.addParticipant(Participant(id: sender, name: name))
        }
        var message = Message(
            id: id, sender: sender, date: date, kind: .text(""),
            source: ExportSource(
                format: "googlechat", file: context.relativePath(group.messages), path: "$.messages[\(index)]",
                id: fullID.isEmpty ? nil : fullID),
            location: location)
        message.edited = node["updated_date"]?.string.flatMap(dates.date)
        message.reactions = Self.reactions(node)
        if let topic = node["topic_id"]?.string, !topic.isEmpty, topic != id, !fullID.isEmpty {
            message.thread = topic
        }
        if node["deleted_date"] != nil || node["message_state"]?.string == "DELETED" {
            message.deleted = true
        } else {
            var quote = ""
            if let quoted = node["quoted_message_metadata"] {
                let target = Self.shortID(quoted["message_id"]?.string ?? "")
                if !target.isEmpty {
                    message.replyTo = target
                } else if let text = quoted["text"]?.string, !text.isEmpty {
                    let author = quoted["creator"]?["name"]?.string ?? ""
                    quote = (author.isEmpty ? "" : author + ": ") + text
                }
            }
            message.kind = GoogleChatBody(node: node, group: group, context: context, location: location)
                .kind(quote: quote, diagnostics: &diagnostics)
        }
        for diagnostic in diagnostics { assembler.report(diagnostic) }
        assembler.append(message)
    }

    /// The last part of a `message_id` (`<group>/<topic>/<message>`): unique in its conversation.
    static func shortID(_ id: String) -> String {
        guard let slash = id.lastIndex(of: "/") else { return id }
        let last = id[id.index(after: slash)...]
        return last.isEmpty ? id : String(last)
    }

    /// Each emoji with its reactors' e-mails (a reaction of deleted accounts is counted).
    static func reactions(_ node: JSONNode) -> [Reaction] {
        var reactions: [Reaction] = []
        for item in node["reactions"]?.elements ?? [] {
            guard let emoji = item["emoji"]?["unicode"]?.string, !emoji.isEmpty else { continue }
            let senders = (item["reactor_emails"]?.elements ?? []).compactMap(\.string).filter { !$0.isEmpty }
            if let index = reactions.firstIndex(where: { $0.emoji == emoji }) {
                reactions[index].senders += senders.filter { !reactions[index].senders.contains($0) }
            } else {
                reactions.append(Reaction(emoji: emoji, senders: senders, count: senders.isEmpty ? 1 : nil))
            }
        }
        return reactions
    }
}

/// Takeout's English dates, read by Foundation's formatters with a fixed locale: never the
/// machine's.
final class GoogleChatDates: @unchecked Sendable {
    /// "Tuesday, March 14, 2023 at 10:05:11 AM UTC" and "Tuesday, 14 March 2023 at 10:05:11 UTC".
    private let formatters: [DateFormatter] = [
        "EEEE, MMMM d, yyyy 'at' h:mm:ss a zzz", "EEEE, d MMMM yyyy 'at' HH:mm:ss zzz",
    ].map { pattern in
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        return formatter
    }

    /// The instant `text` names, or `nil`. The narrow no-break space (U+202F) newer exports
    /// put before AM/PM, and no-break spaces, read as spaces.
    func date(_ text: String) -> Date? {
        let plain = String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0 == "\u{202F}" || $0 == "\u{00A0}" ? " " : $0 }))
        for formatter in formatters {
            if let date = formatter.date(from: plain) { return date }
        }
        return nil
    }
}
