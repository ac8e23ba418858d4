import Foundation
import ScrollbackModel

/// Reads one chat of a Telegram export into a conversation.
///
/// Nothing is lost silently: every entry of `messages` becomes one message or is left out with a
/// reason (`ConversationAssembler.leaveOut`), and a record that cannot be read whole is kept as
/// far as it can be, with a located warning, never an error that drops the chat:
/// - `{"id": N, "type": "unsupported"}` (what Telegram Desktop could not export; it has no date)
///   becomes a system line "not included in this export", dated like the message before it (the
///   one after it when it comes first).
/// - A message without a readable date keeps its content and is dated the same way.
/// - An unknown `type` is read as a message; unknown fields are reported once per field name.
/// - An entry that is not an object is left out with its reason.
struct TelegramChatReader {
    let context: ImportContext
    /// The export file and how diagnostics name it.
    let file: URL
    let shownFile: String
    /// The chat object and its JSON path (`$` or `$.chats.list[3]`).
    let chat: JSONNode
    let path: String
    /// The account owner's user id (`personal_information.user_id` of a whole-account export):
    /// the conversation's `me` is `user<id>` (or the bare number older exports write) when the
    /// owner is a participant of this chat.
    let owner: String?

    /// The text Telegram writes in place of a path when it did not export a file.
    static let notIncludedPrefixes = ["(File not included", "(File exceeds maximum size", "(File unavailable"]

    /// The system line standing for a record Telegram Desktop could not export.
    static let unsupportedText = "A message Telegram Desktop could not export: not included in this export"

    /// The index section of a chat type, as Telegram's chat folders name them.
    static func section(ofChatType type: String) -> String? {
        switch type {
        case "personal_chat", "bot_chat", "saved_messages": "Personal chats"
        case "private_group", "private_supergroup", "public_supergroup": "Groups"
        case "public_channel", "private_channel": "Channels"
        default: nil
        }
    }

    /// The kind of chat a Telegram chat `type` is (tdesktop's `export_output_json.cpp` writes
    /// these); `nil` for one it does not know (an empty `type`, a newer one).
    static func chatType(ofChatType type: String) -> ChatType? {
        switch type {
        // Saved Messages is the exporter's own chat: one to one, with themselves.
        case "personal_chat", "bot_chat", "saved_messages": .direct
        // "Replies" gathers the comments answering the exporter from many people.
        case "private_group", "private_supergroup", "public_supergroup", "replies": .group
        case "public_channel", "private_channel": .channel
        default: nil
        }
    }

    /// What the reader carries from message to message: the problems to report once per chat.
    struct Tally {
        /// Media Telegram did not export (its settings), and the first such message.
        var notIncluded: (count: Int, first: SourceLocation)?
        /// Unknown message fields by name, in the order first met, with count and first place.
        var unknownFields: [(name: String, count: Int, first: SourceLocation)] = []
        var unknownFieldIndex: [String: Int] = [:]

        /// Counts one media file Telegram did not export.
        mutating func countNotIncluded(at location: SourceLocation) {
            notIncluded = notIncluded.map { ($0.count + 1, $0.first) } ?? (1, location)
        }
    }

    /// What a chat's messages say before any is converted: their cross references, clocks and
    /// number. A chat streamed from a large export is surveyed in a first pass over its file.
    struct Survey {
        var index = TelegramChatIndex()
        var clock = TelegramClock.Survey()
        var count = 0
        /// The senders' ids (`from_id`), for `TelegramChatReader.owner(of:)`.
        var senders: Set<String> = []

        /// Surveys the next message of the chat.
        mutating func add(_ message: JSONNode) {
            index.add(message, at: count)
            clock.add(message, at: count)
            if let sender = message["from_id"].flatMap(TelegramChatReader.idText) { senders.insert(sender) }
            count += 1
        }
    }

    /// The owner of a whole-account export that leaves out `personal_information` (an export
    /// setting): a personal chat's id is the other person's, so its one other sender is the
    /// owner. Only when every personal chat that has one names the same sender; `nil` otherwise.
    static func owner(of chats: [(chat: JSONNode, survey: Survey)]) -> String? {
        var owner: String?
        for (chat, survey) in chats where chat["type"]?.string == "personal_chat" {
            guard let id = chat["id"].flatMap(idText) else { continue }
            let others = survey.senders.subtracting([id, "user" + id])
            guard others.count == 1, let other = others.first else { continue }
            if let owner, owner != other { return nil }
            owner = other
        }
        return owner
    }

    /// What the conversion of a chat carries from message to message.
    struct Conversion {
        var assembler: ConversationAssembler
        /// `false` when the chat has no `messages` array (an error is reported): nothing to add.
        var hasMessages: Bool
        var clock: TelegramClock
        var index: TelegramChatIndex
        var pinnedIDs: Set<String>
        var tally = Tally()
        /// Messages with no date of their own, waiting for the first dated message (their neighbour).
        var undated: [Message] = []
        var lastDate: Date?
    }

    /// Reads the chat from its tree (`chat` holds its `messages`).
    func read() -> ImportedConversation {
        let messages = chat["messages"]?.elements ?? []
        var survey = Survey()
        for message in messages { survey.add(message) }
        var conversion = start(survey)
        for (position, node) in messages.enumerated() where conversion.hasMessages {
            add(node, at: position, to: &conversion)
        }
        return finish(conversion)
    }

    /// Starts the conversion of the chat whose messages `survey` surveyed; `chat` need not hold
    /// them (a streamed chat's `messages` is an empty array where the real one starts).
    func start(_ survey: Survey) -> Conversion {
        let name = chat["name"]?.string ?? ""
        let chatID = chat["id"].flatMap(TelegramChatReader.idText) ?? ""
        // The chat id is what is unique in the source: chats of one name ("test", a renamed
        // group, two exports side by side) never share a page, and the name keeps the URL readable.
        let slugSource = chatID.isEmpty ? name : "\(name) \(chatID)"
        var assembler = ConversationAssembler(
            format: .telegram, id: slugSource.trimmingCharacters(in: .whitespaces).isEmpty ? "telegram" : slugSource,
            title: name.isEmpty ? nil : name,
            key: path == "$" ? shownFile : "\(shownFile)#\(chatID.isEmpty ? path : chatID)", sourceFiles: [shownFile],
            location: chat.location(in: shownFile))
        assembler.section = chat["type"]?.string.flatMap(Self.section(ofChatType:))
        assembler.chatType = chat["type"]?.string.flatMap(Self.chatType(ofChatType:))
        let clock = TelegramClock(
            survey.clock, siteZone: TimeZone(identifier: context.config.layout.timeZone) ?? TimeZone(identifier: "UTC")!
        )
        guard chat["messages"]?.elements != nil else {
            assembler.report(
                .error(
                    .wrongType(field: "\(path).messages", expected: "an array of messages"),
                    at: (chat["messages"] ?? chat).location(in: shownFile)))
            return Conversion(
                assembler: assembler, hasMessages: false, clock: clock, index: survey.index, pinnedIDs: [])
        }
        assembler.reserveCapacity(survey.count)
        assembler.timeZone = clock.zoneIdentifier
        return Conversion(
            assembler: assembler, hasMessages: true, clock: clock, index: survey.index,
            pinnedIDs: survey.index.pinnedIDs)
    }

    /// Converts the message at `position` of the chat's `messages`.
    func add(_ node: JSONNode, at position: Int, to conversion: inout Conversion) {
        let messagePath = "\(path).messages[\(position)]"
        let location = node.location(in: shownFile)
        guard let members = node.members else {
            conversion.assembler.report(
                .warning(
                    .wrongType(field: messagePath, expected: "a message object; it is left out"), at: location))
            conversion.assembler.leaveOut(reason: "not a message object (\(node.typeName))", at: location)
            return
        }
        Self.countUnknownFields(members, in: &conversion.tally, file: shownFile)
        var diagnostics: [Diagnostic] = []
        let sourceID = node["id"].flatMap(TelegramChatReader.idText)
        if sourceID == nil {
            diagnostics.append(.warning(.missingField("\(messagePath).id"), at: location))
        }
        let type = node["type"]?.string
        let source = ExportSource(
            format: "telegram", file: context.relativePath(file), line: node.line, path: messagePath, id: sourceID)
        var message = Message(
            id: sourceID ?? "message-\(position + 1)", sender: nil, date: Date(timeIntervalSince1970: 0),
            kind: .text(""), source: source, location: location)
        var date: Date?
        switch type {
        case "unsupported":
            message.kind = .system(Self.unsupportedText)
        case "service":
            date = conversion.clock.date(node, field: "date", at: location)
            message.kind = .system(
                serviceText(
                    node, index: conversion.index, position: position, diagnostics: &diagnostics, at: location))
        default:
            if type != "message" {
                diagnostics.append(
                    .warning(
                        .other(
                            "Telegram message type \(type.map { "'\($0)'" } ?? "(none)") is not known; read as a message"
                        ), at: (node["type"] ?? node).location(in: shownFile)))
            }
            date = conversion.clock.date(node, field: "date", at: location)
            readMessage(
                node, into: &message, assembler: &conversion.assembler, index: conversion.index, position: position,
                tally: &conversion.tally, clock: &conversion.clock, diagnostics: &diagnostics)
        }
        if let sourceID, conversion.pinnedIDs.contains(sourceID) {
            message.pinned = true
            conversion.pinnedIDs.remove(sourceID)  // the first message with that id is the pinned one
        }
        if date == nil, type != "unsupported" {
            diagnostics.append(
                .warning(
                    .invalidDate(
                        node["date"]?.string ?? "(none)",
                        expected:
                            "'date' as YYYY-MM-DDTHH:MM:SS or a non-zero 'date_unixtime' at \(messagePath); the message is dated like its neighbour"
                    ), at: (node["date"] ?? node).location(in: shownFile)))
        }
        diagnostics.forEach { conversion.assembler.report($0) }
        if let date {
            conversion.lastDate = date
            message.date = date
            for var waiting in conversion.undated {
                waiting.date = date
                conversion.assembler.append(waiting)
            }
            conversion.undated.removeAll()
            conversion.assembler.append(message)
        } else if let lastDate = conversion.lastDate {
            message.date = lastDate
            conversion.assembler.append(message)
        } else {
            conversion.undated.append(message)
        }
    }

    /// Ends the conversion: messages still undated, the chat-wide warnings, `me`.
    func finish(_ conversion: Conversion) -> ImportedConversation {
        var conversion = conversion
        guard conversion.hasMessages else { return conversion.assembler.finish() }
        for message in conversion.undated {
            conversion.assembler.report(
                .warning(
                    .other("no message of this chat has a date to place this one by; it is left out"),
                    at: message.location))
            conversion.assembler.leaveOut(reason: "no date, and no dated message in the chat", at: message.location)
        }
        report(conversion.tally, clock: conversion.clock, into: &conversion.assembler)
        if let owner {
            conversion.assembler.me = [owner.first?.isNumber == true ? "user" + owner : owner, owner].first {
                conversion.assembler.hasParticipant($0)
            }
        }
        // A one-chat export does not name its owner, but a personal (or bot) chat's id is the
        // other person's (or the bot's) user id: the one who is not them exported it (issue 42.4).
        let chatID = chat["id"].flatMap(TelegramChatReader.idText) ?? ""
        // Saved Messages is the owner's chat with themselves: its id is the owner's own
        // (tdesktop writes the peer's id, and that peer is the owner); the others in it are
        // whoever a saved message came from.
        if conversion.assembler.me == nil, chat["type"]?.string == "saved_messages", !chatID.isEmpty {
            conversion.assembler.me = [chatID.first?.isNumber == true ? "user" + chatID : chatID, chatID].first {
                conversion.assembler.hasParticipant($0)
            }
        }
        if conversion.assembler.me == nil, ["personal_chat", "bot_chat"].contains(chat["type"]?.string),
            !chatID.isEmpty
        {
            for other in [chatID.first?.isNumber == true ? "user" + chatID : chatID, chatID]
            where conversion.assembler.hasParticipant(other) {
                conversion.assembler.setMe(oppositeOf: other)
            }
        }
        return conversion.assembler.finish()
    }

    /// Reads a `message` record's sender, content, edit date, forward, reply and reactions.
    func readMessage(
        _ node: JSONNode, into message: inout Message, assembler: inout ConversationAssembler,
        index: TelegramChatIndex, position: Int, tally: inout Tally, clock: inout TelegramClock,
        diagnostics: inout [Diagnostic]
    ) {
        let location = message.location
        let senderName = node["from"]?.string
        var senderID: String?
        if let fromID = node["from_id"] {
            if let id = Self.idText(fromID), Self.isPeerID(id) {
                senderID = id
            } else {
                diagnostics.append(
                    .warning(
                        .wrongType(
                            field: "from_id",
                            expected:
                                "a Telegram peer id (user…, channel…, chat… or a number); the sender is named by 'from'"
                        ),
                        at: fromID.location(in: shownFile)))
            }
        } else if senderName != nil {
            diagnostics.append(
                .warning(.other("no 'from_id'; the sender is identified by the name in 'from'"), at: location))
        }
        let sender = senderID ?? senderName.map(ConversationSlug.make(from:)) ?? "deleted-account"
        if !assembler.hasParticipant(sender) {
            assembler.addParticipant(Participant(id: sender, name: senderName ?? "Deleted Account"))
        }
        message.sender = sender
        message.kind = kind(
            node, index: index, position: position, at: location, tally: &tally, diagnostics: &diagnostics)
        if node["edited"] != nil || node["edited_unixtime"] != nil {
            message.edited = clock.date(node, field: "edited", at: location)
            if message.edited == nil {
                diagnostics.append(
                    .warning(
                        .invalidDate(
                            node["edited"]?.string ?? "(none)",
                            expected: "YYYY-MM-DDTHH:MM:SS; the edit mark is left out"),
                        at: (node["edited"] ?? node).location(in: shownFile)))
            }
        }
        message.forwardedFrom = node["forwarded_from"]?.string ?? node["saved_from"]?.string
        if let target = node["reply_to_message_id"].flatMap(TelegramChatReader.idText) {
            message.replyTo = target
            if !index.knownIDs.contains(target) {
                diagnostics.append(
                    .warning(
                        .other("reply to message \(target), which is not in this export; the reply is kept"),
                        at: location))
            }
        }
        message.reactions = reactions(node, index: index, assembler: &assembler, diagnostics: &diagnostics)
    }

    /// The chat-wide warnings: media not exported, unknown fields, clocks that disagree.
    func report(_ tally: Tally, clock: TelegramClock, into assembler: inout ConversationAssembler) {
        if let notIncluded = tally.notIncluded {
            assembler.report(
                .warning(
                    .other(
                        "\(notIncluded.count) media file(s) were not included in the export (Telegram's export settings); placeholders name each one"
                    ), at: notIncluded.first))
        }
        for field in tally.unknownFields {
            let suggestion =
                NearestName.suggestion(for: field.name, in: Self.knownFields)
                ?? Self.knownFields.filter { field.name.count > $0.count && field.name.hasSuffix($0) }
                .max { $0.count < $1.count }
            let times = field.count == 1 ? "" : " (\(field.count) messages)"
            if let suggestion {
                assembler.report(
                    .warning(
                        .unknownField(field.name, in: "a Telegram message\(times)", suggestion: suggestion, known: []),
                        at: field.first))
            } else {
                assembler.report(
                    .warning(
                        .other("unknown field '\(field.name)' in a Telegram message\(times) is ignored"),
                        at: field.first))
            }
        }
        if let disagreements = clock.disagreements {
            assembler.report(
                .warning(
                    .other(
                        "\(disagreements.count) message(s) have a 'date_unixtime' more than 14 hours from their 'date'; 'date' is used"
                    ), at: disagreements.first))
        }
    }

    // MARK: - Fields

    /// An id written as a number or a string.
    static func idText(_ node: JSONNode) -> String? {
        switch node.value {
        case .number(let text): return text
        case .string(let text): return text.isEmpty ? nil : text
        default: return nil
        }
    }

    /// Whether `id` is a peer id as Telegram Desktop writes them: `user123`, `channel123`,
    /// `chat123` (letters after the prefix too: pseudonymised exports), or a bare number
    /// (exports before 2021). Anything else is not an id the sender can be known by.
    static func isPeerID(_ id: String) -> Bool {
        for prefix in ["user", "channel", "chat"] where id.hasPrefix(prefix) {
            let rest = id.dropFirst(prefix.count)
            return !rest.isEmpty && rest.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
        let digits = id.first == "-" ? id.dropFirst() : Substring(id)
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Counts the members of a message that Telegram Desktop does not write (misspelt or foreign keys).
    static func countUnknownFields(_ members: [JSONMember], in tally: inout Tally, file: String) {
        for member in members where !knownFieldSet.contains(member.key) {
            if let at = tally.unknownFieldIndex[member.key] {
                tally.unknownFields[at].count += 1
            } else {
                tally.unknownFieldIndex[member.key] = tally.unknownFields.count
                tally.unknownFields.append((member.key, 1, member.keyLocation(in: file)))
            }
        }
    }

    /// The fields Telegram Desktop writes in a message or service record
    /// (`export_output_json.cpp`), and the older per-media keys some tools write.
    static let knownFields = [
        "id", "type", "date", "date_unixtime", "edited", "edited_unixtime", "from", "from_id", "author",
        "forwarded_from", "forwarded_from_id", "saved_from", "reply_to_message_id", "reply_to_peer_id", "via_bot",
        "actor", "actor_id", "action", "title", "members", "inviter", "message_id", "game_message_id", "score",
        "amount", "currency", "invoice_message_id", "recurring", "duration_seconds", "discard_reason", "is_active",
        "is_missed", "information_text", "reason_app_id", "reason_app_name", "reason_domain", "values", "to",
        "to_id", "distance", "duration", "period", "schedule_date", "emoticon", "text", "cost", "days",
        "new_title", "new_icon_emoji_id", "button_id", "peers", "gift_code", "boost_peer_id", "unclaimed",
        "via_giveaway", "winners", "stars", "boosts", "peer_name", "peer_id", "charge_id", "amount_whole",
        "amount_nano", "boost_peer_name", "is_unclaimed", "giveaway_msg_id", "transaction_id", "gift_id",
        "is_limited", "is_anonymous", "gift_text", "messages_count", "stars_count", "price_stars",
        "is_broadcast_messages_allowed", "completed", "incompleted", "items", "rejected", "comment",
        "price_amount_whole", "price_amount_nano", "price_currency", "scheduled_date", "user_initiated", "day",
        "month", "year", "photo", "photo_file_size", "width", "height", "media_spoiler",
        "self_destruct_period_seconds", "file", "file_name", "file_size", "thumbnail", "thumbnail_file_size",
        "media_type", "sticker_emoji", "performer", "mime_type", "contact_information", "contact_vcard",
        "contact_vcard_file_size", "location_information", "live_location_period_seconds", "place_name", "address",
        "game_title", "game_description", "game_link", "invoice_information", "poll", "todo_list",
        "giveaway_information", "giveaway_results", "paid_stars_amount", "text_entities", "inline_bot_buttons",
        "reactions", "rich_message", "dice", "sticker", "voice_message", "video_message", "video_file",
        "audio_file", "animation", "voice_message_duration", "voice_message_file_size", "sticker_file_size",
    ]
    static let knownFieldSet = Set(knownFields)
}

/// What a chat's messages say about each other, read before the messages are: pins name their
/// targets, replies their parents, to-do completions their lists.
struct TelegramChatIndex {
    /// Targets of `pin_message` actions.
    var pinnedIDs = Set<String>()
    /// Every message id of the chat.
    var knownIDs = Set<String>()
    /// The fallback emoji of each custom emoji (`document_id`) as the chat's text entities give it.
    var customEmoji: [String: String] = [:]
    /// Per to-do list (its position in `messages`): the items marked done by later completions.
    var todoDone: [Int: Set<String>] = [:]
    /// Per `todo_completions` service message (its position): the texts of the items it marks
    /// done and not done, where the list that holds them is in the chat.
    var completionTexts: [Int: (done: [String], undone: [String])] = [:]

    /// Each to-do list's item ids and texts, in chat order: a completion belongs to the latest
    /// list before it that has the item (the export does not say which list it names).
    private var lists: [(position: Int, items: [String: String])] = []

    /// Reads the cross references of `messages`.
    init(_ messages: [JSONNode]) {
        for (position, message) in messages.enumerated() { add(message, at: position) }
    }

    /// An index of no message yet: `add` each in chat order.
    init() {}

    /// Reads the cross references of `message`, at `position` of the chat's `messages`.
    mutating func add(_ message: JSONNode, at position: Int) {
        if let id = message["id"].flatMap(TelegramChatReader.idText) { knownIDs.insert(id) }
        let action = message["action"]?.string
        if action == "pin_message", let target = message["message_id"].flatMap(TelegramChatReader.idText) {
            pinnedIDs.insert(target)
        }
        for entity in message["text_entities"]?.elements ?? message["text"]?.elements ?? []
        where entity["type"]?.string == "custom_emoji" {
            if let document = entity["document_id"].flatMap(TelegramChatReader.idText),
                let text = entity["text"]?.string, !text.isEmpty, customEmoji[document] == nil
            {
                customEmoji[document] = text
            }
        }
        if let answers = message["todo_list"]?["answers"]?.elements {
            var items: [String: String] = [:]
            for answer in answers {
                guard let id = answer["id"].flatMap(TelegramChatReader.idText) else { continue }
                items[id] = answer["text"].flatMap(TelegramText.pieces)?.map(\.text).joined() ?? ""
            }
            lists.append((position, items))
        }
        if action == "todo_append_tasks", let last = lists.indices.last {
            for item in message["items"]?.elements ?? [] {
                guard let id = item["id"].flatMap(TelegramChatReader.idText) else { continue }
                lists[last].items[id] = item["text"].flatMap(TelegramText.pieces)?.map(\.text).joined() ?? ""
            }
        }
        if action == "todo_completions" {
            var texts: (done: [String], undone: [String]) = ([], [])
            for (key, done) in [("completed", true), ("incompleted", false)] {
                for item in message[key]?.elements ?? [] {
                    guard let id = TelegramChatReader.idText(item),
                        let list = lists.last(where: { $0.items[id] != nil })
                    else { continue }
                    if done {
                        todoDone[list.position, default: []].insert(id)
                        texts.done.append(list.items[id] ?? id)
                    } else {
                        todoDone[list.position]?.remove(id)
                        texts.undone.append(list.items[id] ?? id)
                    }
                }
            }
            completionTexts[position] = texts
        }
    }
}
