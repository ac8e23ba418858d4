import Foundation
import ScrollbackModel

/// Signal's own export: the frames of Signal's backup format (`Backup.proto`, in signalapp's
/// Signal-Android, `app/src/main/protowire/Backup.proto`) written as JSON, one a line, in
/// `main.jsonl` beside a `files/` folder, as Signal Desktop's plaintext export writes it.
/// Read from the documented shape; no real export has been met yet (README).
///
/// What the format says: the first line is a `BackupInfo` (`version`, `backupTimeMs`); every other
/// line is one `Frame`: `account`, `recipient`, `chat`, `chatItem`, or a frame that holds no
/// message (sticker packs, call links, chat folders, notification profiles). A frame refers only
/// to frames before it. 64-bit numbers are JSON strings (protobuf's JSON mapping) or numbers.
///
/// Choices where it leaves room:
/// - A conversation per `Chat`, in the order of the chats' frames, titled by its recipient: a
///   group's title; a contact's nickname, system name, profile name, user name or phone number;
///   "Note to Self" for the exporter's own chat.
/// - The exporter is `me`: the `account`'s given and family name, else "Me"; an item the
///   `self` recipient wrote is theirs.
/// - A message's id is its author's recipient id and its `dateSent`, which is how Signal names a
///   message (a quote points at the pair): a newer export keeps every permalink, and a reply
///   links to its message when that message is in the chat.
/// - `dateSent` is an instant (milliseconds since 1970).
/// - Files lie in `files/` under names made of hashes this importer does not resolve: each is
///   named, with its type, as not linked.
/// - The latest revision's text is shown, marked edited at the item's own date.
enum SignalBackup {
    /// Whether the JSON lines at the head of `candidate` are backup frames: the `BackupInfo` line
    /// (`backupTimeMs`), or, past a missing first line, recipient and chat-item frames together
    /// (an `account` key alone is common: Claude's conversations have one).
    static func isBackup(_ candidate: ExportCandidate) -> Bool {
        let keys = candidate.topLevelJSONKeys
        return candidate.trimmedHead.first == UInt8(ascii: "{")
            && (keys.contains("backupTimeMs") || keys.isSuperset(of: ["recipient", "chatItem"]))
            && keys.isDisjoint(with: ["sender", "body", "type", "uuid", "chat_messages"])
    }

    /// A recipient as the chats and items name it.
    struct Recipient {
        enum Kind { case contact, group, own, other }
        var kind: Kind
        var name: String
    }

    /// The frames that name things, read before the items: the exporter, recipients and chats.
    struct Names {
        var exporter = "Me"
        var recipients: [String: Recipient] = [:]
        /// A contact's ACI (base64, as mentions name it) → their name.
        var recipientsByACI: [String: String] = [:]
        /// Chat id → its recipient id, in the order of the chats' frames.
        var chats: [(id: String, recipient: String)] = []
    }

    /// Reads `file`, emitting a conversation per chat; returns the problems of the file itself
    /// (lines that are no frame, items of no chat), each with its place.
    static func read(_ file: URL, context: ImportContext, emit: (ImportedConversation) -> Void) -> [Diagnostic] {
        let shown = context.displayPath(file)
        let start = SourceLocation(file: shown, line: 1, column: 1)
        var problems: [Diagnostic] = []
        guard let bytes = context.contents(of: file, shown: shown, report: { problems.append($0) }) else {
            return problems
        }
        if let tooLarge = LogReader.sizeProblem(size: Int64(bytes.count), limit: context.config.maxLogBytes) {
            return problems + [.error(tooLarge, at: start)]
        }
        // Pass 1: the names (the items, most of the file, are not parsed). Pass 2: the items, each
        // into its chat's conversation (the names' frames are not parsed again).
        var names = Names()
        forEachFrame(bytes, shown: shown, skipping: ["chatItem"]) { key, frame, _ in
            if let frame { readName(key, frame, into: &names) }
        }
        let titles = names.chats.map { title(of: names.recipients[$0.recipient]) }
        let ids = ConversationIDs.resolve(
            zip(titles, names.chats).map {
                ConversationIDs.Claim(
                    slug: ConversationSlug.make(from: $0.0), sourceID: context.relativePath(file) + "#chat-" + $0.1.id)
            })
        var chats: [ConversationAssembler] = []
        var chatIndex: [String: Int] = [:]
        var readers: [SignalMessage] = []
        for (index, chat) in names.chats.enumerated() where chatIndex[chat.id] == nil {
            var assembler = ConversationAssembler(
                format: .signal, id: ids[index], title: titles[index], key: shown + "#chat-" + chat.id,
                sourceFiles: [shown], location: start)
            assembler.me = names.exporter
            switch names.recipients[chat.recipient]?.kind {
            case .group: assembler.chatType = .group
            case .contact, .own: assembler.chatType = .direct
            default: break
            }
            chatIndex[chat.id] = chats.count
            chats.append(assembler)
            readers.append(SignalMessage(file: file, sourceFile: context.relativePath(file), context: context))
        }
        forEachFrame(bytes, shown: shown, skipping: ["account", "recipient", "chat"]) { key, frame, location in
            guard let key, let frame else {
                problems.append(
                    .warning(.other("a line that is not a backup frame (a JSON object); left out"), at: location))
                return
            }
            guard key == "chatItem" else { return }
            let chatID = number(frame["chatId"]) ?? "(none)"
            guard let index = chatIndex[chatID] else {
                problems.append(
                    .warning(
                        .other("an item of chat \(chatID), which no chat frame before it names; left out"),
                        at: location))
                return
            }
            guard let record = record(frame, names: names, location: location, into: &chats[index]) else { return }
            readers[index].append(record, to: &chats[index])
        }
        for chat in chats { emit(chat.finish()) }
        return problems
    }

    /// Calls `body` with each line's frame key (the one key of a `Frame` object, whose value is
    /// an object; `backupInfo` for the `BackupInfo` line), its value and its place; with `nil`s for
    /// a line that is no object. An empty frame (`{}`) holds nothing: the format says to skip it.
    /// A line whose first key is in `skipping` is passed over unparsed.
    static func forEachFrame(
        _ bytes: [UInt8], shown: String, skipping: Set<String> = [],
        _ body: (String?, JSONNode?, SourceLocation) -> Void
    ) {
        var lines = WhatsAppLineReader(bytes: bytes)
        var number = 0
        while let (line, _) = lines.nextLine() {
            number += 1
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            if let key = firstKey(line), skipping.contains(key) { continue }
            let location = SourceLocation(file: shown, line: number, column: 1)
            guard let node = try? JSONParser.parse(Array(line.utf8), file: shown, firstLine: number),
                let members = node.members
            else {
                body(nil, nil, location)
                continue
            }
            if node["backupTimeMs"] != nil {
                body("backupInfo", node, location)
            } else if let frame = members.first(where: { $0.value.members != nil }) {
                body(frame.key, frame.value, location)
            } else if !members.isEmpty {
                body(nil, nil, location)
            }
        }
    }

    /// The first key of a line `{ "key": …`, read without parsing the line (no escapes: frame
    /// keys have none); `nil` for any other line.
    static func firstKey(_ line: String) -> String? {
        let text = line.drop { $0.isWhitespace }
        guard text.first == "{" else { return nil }
        let rest = text.dropFirst().drop { $0.isWhitespace }
        guard rest.first == "\"" else { return nil }
        let key = rest.dropFirst().prefix { $0 != "\"" && $0 != "\\" }
        return String(key)
    }

    /// Takes the exporter, a recipient or a chat from a frame.
    static func readName(_ key: String?, _ frame: JSONNode, into names: inout Names) {
        switch key {
        case "account":
            let name = [frame["givenName"]?.string, frame["familyName"]?.string].compactMap { $0 }
                .filter { !$0.isEmpty }.joined(separator: " ")
            if !name.isEmpty { names.exporter = name }
        case "recipient":
            guard let id = number(frame["id"]) else { return }
            let recipient = recipient(frame)
            names.recipients[id] = recipient
            if let aci = frame["contact"]?["aci"]?.string, !recipient.name.isEmpty {
                names.recipientsByACI[aci] = recipient.name
            }
        case "chat":
            guard let id = number(frame["id"]), let recipient = number(frame["recipientId"]) else { return }
            names.chats.append((id, recipient))
        default: break
        }
    }

    /// A recipient frame's kind and name.
    static func recipient(_ frame: JSONNode) -> Recipient {
        if let contact = frame["contact"] {
            let nickname = [contact["nickname"]?["given"]?.string, contact["nickname"]?["family"]?.string]
            let system = [contact["systemGivenName"]?.string, contact["systemFamilyName"]?.string]
            let profile = [contact["profileGivenName"]?.string, contact["profileFamilyName"]?.string]
            for parts in [nickname, system, profile] {
                let name = parts.compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
                if !name.isEmpty { return Recipient(kind: .contact, name: name) }
            }
            if let username = contact["username"]?.string, !username.isEmpty {
                return Recipient(kind: .contact, name: username)
            }
            if let phone = number(contact["e164"]) { return Recipient(kind: .contact, name: "+" + phone) }
            return Recipient(kind: .contact, name: "")
        }
        if let group = frame["group"] {
            return Recipient(kind: .group, name: group["snapshot"]?["title"]?["title"]?.string ?? "")
        }
        if frame["self"] != nil { return Recipient(kind: .own, name: "") }
        if frame["releaseNotes"] != nil { return Recipient(kind: .other, name: "Signal") }
        return Recipient(kind: .other, name: "")
    }

    /// A chat's title, from its recipient.
    static func title(of recipient: Recipient?) -> String {
        guard let recipient else { return "Signal chat" }
        if recipient.kind == .own { return "Note to Self" }
        if !recipient.name.isEmpty { return recipient.name }
        return recipient.kind == .group ? "Signal group" : "Signal contact"
    }

    /// A 64-bit number as protobuf's JSON mapping writes it (a string) or as a number, as text.
    static func number(_ node: JSONNode?) -> String? {
        guard let node else { return nil }
        if let text = node.string, !text.isEmpty, text.allSatisfy(\.isASCII), UInt64(text) != nil { return text }
        if let value = node.number, value >= 0, value < 1.8e19, value.rounded() == value {
            return String(UInt64(value))
        }
        return nil
    }

    /// A recipient's name as a sender: the exporter's for their own, "Unknown" for none.
    static func sender(_ id: String?, names: Names) -> String {
        guard let id, let recipient = names.recipients[id] else { return "Unknown" }
        if recipient.kind == .own { return names.exporter }
        return recipient.name.isEmpty ? "Unknown" : recipient.name
    }

    /// The record of one `ChatItem`, or `nil` when it is left out (with its reason, in `chat`).
    static func record(
        _ item: JSONNode, names: Names, location: SourceLocation, into chat: inout ConversationAssembler
    ) -> SignalRecord? {
        guard let sent = number(item["dateSent"]), let milliseconds = Double(sent) else {
            chat.report(
                .warning(
                    .invalidDate(item["dateSent"]?.string ?? "(none)", expected: "dateSent, milliseconds since 1970"),
                    at: location))
            chat.leaveOut(reason: "an item without a readable dateSent", at: location)
            return nil
        }
        let author = number(item["authorId"])
        var record = SignalRecord(
            stamp: sent, date: Date(timeIntervalSince1970: milliseconds / 1000), sender: sender(author, names: names),
            body: "", location: location, line: location.line)
        record.id = "\(author ?? "0")-\(sent)"
        if let revisions = item["revisions"]?.elements, !revisions.isEmpty { record.edited = record.date }
        if let message = item["standardMessage"] {
            record.body = text(message["text"], names: names)
            if let quote = message["quote"] {
                if let target = number(quote["targetSentTimestamp"]) {
                    record.replyTo = "\(number(quote["authorId"]) ?? "0")-\(target)"
                }
                let quoted = text(quote["text"], names: names)
                record.quote = quoted.isEmpty ? "(a message)" : quoted
            }
            for attachment in message["attachments"]?.elements ?? [] {
                let pointer = attachment["pointer"]
                let name = pointer?["fileName"]?.string ?? ""
                let type = pointer?["contentType"]?.string ?? "a file"
                record.attachments.append(
                    SignalRecord.Attachment(
                        name: name, path: "", missingKind: nil,
                        unlinked: name.isEmpty ? type : name + ", " + type))
            }
            record.reactions = reactions(message["reactions"], names: names)
        } else if let sticker = item["stickerMessage"] {
            let emoji = sticker["sticker"]?["emoji"]?.string ?? ""
            record.sticker = (emoji.isEmpty ? "sticker" : emoji, nil)
            record.reactions = reactions(sticker["reactions"], names: names)
        } else if item["remoteDeletedMessage"] != nil {
            record.deleted = true
        } else if let contact = item["contactMessage"] {
            let name = contact["contact"]?["name"]
            let full = [name?["givenName"]?.string, name?["familyName"]?.string].compactMap { $0 }
                .filter { !$0.isEmpty }.joined(separator: " ")
            record.body = "👤 " + (full.isEmpty ? "A contact" : full)
            record.reactions = reactions(contact["reactions"], names: names)
        } else if let reply = item["directStoryReplyMessage"] {
            let text = text(reply["textReply"]?["text"], names: names)
            record.body = "Replied to a story: " + (text.isEmpty ? reply["emoji"]?.string ?? "" : text)
            record.reactions = reactions(reply["reactions"], names: names)
        } else if item["viewOnceMessage"] != nil {
            record.notice = true
            record.body = record.sender + " sent a view-once message (not kept in exports)"
        } else if let payment = item["paymentNotification"] {
            record.notice = true
            record.body =
                record.sender + " sent a payment" + (payment["amountMob"]?.string.map { " of \($0) MOB" } ?? "")
        } else if item["giftBadge"] != nil {
            record.notice = true
            record.body = record.sender + " sent a gift badge"
        } else if let update = item["updateMessage"] {
            record.notice = true
            record.body = updateText(update, sender: record.sender)
        } else {
            let kinds = (item.members ?? []).map(\.key).filter { !commonItemKeys.contains($0) }
            chat.report(
                .warning(.other("a chat item of a kind this importer does not read; left out"), at: location))
            chat.leaveOut(
                reason: "a chat item of a kind not read (\(kinds.isEmpty ? "none" : kinds.joined(separator: ", ")))",
                at: location)
            return nil
        }
        return record
    }

    /// The fields every `ChatItem` may have besides its kind.
    static let commonItemKeys: Set<String> = [
        "chatId", "authorId", "dateSent", "expireStartDate", "expiresInMs", "revisions", "sms", "incoming",
        "outgoing", "directionless",
    ]

    /// A `Text`'s body, each mention (U+FFFC with a mention range) as `@name`.
    static func text(_ node: JSONNode?, names: Names) -> String {
        guard let body = node?["body"]?.string else { return "" }
        guard body.contains("\u{FFFC}") else { return body.trimmingCharacters(in: .whitespacesAndNewlines) }
        var mentioned: [String] = []
        for range in node?["bodyRanges"]?.elements ?? [] where range["mentionAci"] != nil {
            let aci = range["mentionAci"]?.string ?? ""
            mentioned.append(names.recipientsByACI[aci] ?? "someone")
        }
        var result = ""
        var next = 0
        for character in body {
            if character == "\u{FFFC}" {
                result += "@" + (next < mentioned.count ? mentioned[next] : "someone")
                next += 1
            } else {
                result.append(character)
            }
        }
        return result.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The reactions of an item: who reacted with what.
    static func reactions(_ node: JSONNode?, names: Names) -> [(name: String, emoji: String)] {
        (node?.elements ?? []).compactMap { reaction in
            guard let emoji = reaction["emoji"]?.string, !emoji.isEmpty else { return nil }
            return (sender(number(reaction["authorId"]), names: names), emoji)
        }
    }

    /// A `ChatUpdateMessage` in words: its kind ("simple update", "group change", …) and, where
    /// it has one, what it names.
    static func updateText(_ update: JSONNode, sender: String) -> String {
        guard let (kind, body) = update.members?.first.map({ ($0.key, $0.value) }) else {
            return sender + ": a chat update"
        }
        switch kind {
        case "profileChange":
            let new = body["newName"]?.string ?? ""
            return new.isEmpty ? sender + " changed their profile" : "\(sender) changed their name to \(new)"
        case "individualCall", "groupCall":
            return sender + ": a call"
        case "simpleUpdate":
            let type = (body["type"]?.string ?? "").lowercased().replacingOccurrences(of: "_", with: " ")
            return sender + ": " + (type.isEmpty ? "a chat update" : type)
        case "expirationTimerChange":
            return sender + " changed the disappearing-message timer"
        case "groupChange":
            let count = body["updates"]?.elements?.count ?? 0
            return sender + ": " + (count == 1 ? "a group change" : "\(count) group changes")
        default:
            let words = kind.reduce(into: "") { words, character in
                if character.isUppercase { words += " " + character.lowercased() } else { words.append(character) }
            }
            return sender + ": " + words
        }
    }
}
