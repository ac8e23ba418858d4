import Foundation
import ScrollbackModel

/// The rules every importer follows (spec §6), in one place: an importer adds what it read,
/// message by message, and gets back a conversation of the model with its counts.
///
/// - Duplicate source ids: both messages are kept; the later gets a derived id (`<id>-2`,
///   `-3`, …, skipping ids in use), the same on every build, with a warning.
/// - Messages in / out: every `append` and `leaveOut` counts as a message in.
/// - Unknown senders: a participant is added (named by its id), so nothing is dropped.
/// - Replies and thread roots naming a message that is not in the export stay as they are:
///   the layout shows them as "not in this archive".
/// - Order: by date, ties keep the order messages were appended.
public struct ConversationAssembler {
    /// The format, for `source.format`.
    public let format: ExportFormat
    /// The conversation's URL slug.
    public var id: String
    public var title: String?
    public var description: String?
    /// The index section ("Channels", "Direct messages"), when the export sorts chats that way.
    public var section: String?
    /// What kind of chat the export says it is; `nil` when it does not say.
    public var chatType: ChatType?
    public var me: String?
    public var timeZone: String?
    /// Key of this conversation within the input (see `ImportedConversation.key`).
    public var key: String
    /// Export files read, as shown in diagnostics.
    public var sourceFiles: [String]
    /// Problems met so far; errors make the conversation unusable.
    public var diagnostics: [Diagnostic] = []
    /// Where the conversation starts (its first file), for conversation-level problems.
    public var location: SourceLocation

    private var participants: [Participant] = []
    private var participantIndex: [String: Int] = [:]
    private var messages: [Message] = []
    /// Each id given out, with the position in `messages` of the message that has it.
    private var usedIDs: [String: Int] = [:]
    private var messagesIn = 0
    private var leftOutRecords: [ImportLedger.LeftOut] = []

    /// Starts a conversation.
    public init(
        format: ExportFormat, id: String, title: String? = nil, key: String, sourceFiles: [String],
        location: SourceLocation
    ) {
        self.format = format
        self.id = ConversationSlug.make(from: id)
        self.title = title
        self.key = key
        self.sourceFiles = sourceFiles
        self.location = location
    }

    /// Adds (or updates the name and avatar of) a participant.
    public mutating func addParticipant(_ participant: Participant) {
        if let index = participantIndex[participant.id] {
            participants[index] = participant
        } else {
            participantIndex[participant.id] = participants.count
            participants.append(participant)
        }
    }

    /// The name of the participant with `id`, if known.
    public func participantName(_ id: String) -> String? { participantIndex[id].map { participants[$0].name } }

    /// Whether a participant with `id` is known.
    public func hasParticipant(_ id: String) -> Bool { participantIndex[id] != nil }

    /// In a chat of exactly two participants, one of them `other`, makes the one who is not
    /// `other` `me`: an export that names the other side of a one-to-one chat (WhatsApp's
    /// "WhatsApp Chat with Bob", Telegram's personal chat id) names the exporter by elimination.
    /// Does nothing otherwise, and never replaces a `me` already found.
    public mutating func setMe(oppositeOf other: String) {
        guard me == nil, participants.count == 2, participantIndex[other] != nil else { return }
        me = participants.first { $0.id != other }?.id
    }

    /// The unique id a message with source id `sourceID` gets: the source id itself, or for a
    /// repeated one a derived id (with a warning at `location`). Deterministic: depends only on
    /// the order ids are asked for.
    private mutating func uniqueID(for sourceID: String, at location: SourceLocation) -> String {
        let base = sourceID.isEmpty ? "message" : sourceID
        // One hash when the id is new (the usual case); a repeated id puts its first owner back.
        guard let firstIndex = usedIDs.updateValue(messages.count, forKey: base) else { return base }
        usedIDs[base] = firstIndex
        let first = messages[firstIndex].location
        var number = 2
        while usedIDs["\(base)-\(number)"] != nil { number += 1 }
        let derived = "\(base)-\(number)"
        usedIDs[derived] = messages.count
        diagnostics.append(
            .warning(
                .other(
                    "duplicate message id '\(base)' (first at \(first)); both are kept, this one as '\(derived)'"),
                at: location))
        return derived
    }

    /// The dates a message may carry: the years 1 to 9999, as the ISO 8601 dates of a log. An
    /// export's Unix time (`"ts": "1e300"`) outside them is an error at the message, never a date
    /// later stages cannot convert to `Int` or format.
    static let validDates = Date(timeIntervalSince1970: -62_135_596_800)...Date(timeIntervalSince1970: 253_402_300_799)

    /// Adds a message read from the export: its id (the source id) is made unique, and
    /// unknown senders become participants.
    public mutating func append(_ message: consuming Message) {
        var message = message
        messagesIn += 1
        if !Self.validDates.contains(message.date) {
            diagnostics.append(
                .error(
                    .invalidDate(
                        "\(message.date.timeIntervalSince1970) seconds since 1970",
                        expected: "a date between the years 1 and 9999"), at: message.location))
        }
        if let edited = message.edited, !Self.validDates.contains(edited) {
            diagnostics.append(
                .warning(.other("the edit date is outside the years 1 to 9999; it is left out"), at: message.location))
            message.edited = nil
        }
        message.id = uniqueID(for: message.id, at: message.location)
        if let sender = message.sender, participantIndex[sender] == nil {
            addParticipant(Participant(id: sender, name: sender))
        }
        for reaction in message.reactions {
            for sender in reaction.senders where participantIndex[sender] == nil {
                addParticipant(Participant(id: sender, name: sender))
            }
        }
        messages.append(message)
    }

    /// Makes room for `count` more messages (an importer that knows how many saves the regrowing).
    public mutating func reserveCapacity(_ count: Int) {
        messages.reserveCapacity(messages.count + count)
        usedIDs.reserveCapacity(usedIDs.count + count)
    }

    /// Counts one record of the export that is left out of the site, with the reason the build
    /// reports (`--verbose`) and where it is: the one way a record may stay off the site.
    public mutating func leaveOut(reason: String, at location: SourceLocation?) {
        messagesIn += 1
        leftOutRecords.append(ImportLedger.LeftOut(reason: reason, location: location))
    }

    /// Adds a diagnostic.
    public mutating func report(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }

    /// The messages appended so far (in append order).
    public var appendedMessages: [Message] { messages }

    /// The finished conversation with its counts; `nil` conversation when an error was reported.
    public func finish() -> ImportedConversation {
        let hasError = diagnostics.contains { $0.severity == .error }
        // Stable sort by date: ties keep the order of the export. Exports are usually in order
        // already, and then the messages are not copied.
        let isOrdered = messages.indices.dropFirst().allSatisfy { messages[$0 - 1].date <= messages[$0].date }
        let ordered =
            isOrdered
            ? messages
            : messages.enumerated().sorted { left, right in
                left.element.date != right.element.date
                    ? left.element.date < right.element.date : left.offset < right.offset
            }.map(\.element)
        let conversation = Conversation(
            id: id, title: title, description: description, section: section, chatType: chatType, me: me,
            timeZone: timeZone, participants: participants,
            messages: ordered, source: location)
        return ImportedConversation(
            conversation: hasError ? nil : conversation, diagnostics: diagnostics,
            ledger: ImportLedger(
                recordsRead: messagesIn, messagesBuilt: hasError ? 0 : ordered.count, leftOut: leftOutRecords),
            key: key, sourceFiles: sourceFiles)
    }
}

/// Conversation ids from what is unique in the source (issue 41.3), the one rule every importer
/// follows when one input holds several conversations (Discord channels, Slack channels,
/// Telegram chats): two conversations never share an id, and an id does not change when the
/// export is made again.
///
/// The id is the readable slug of the conversation's name while no other conversation of the
/// input has that slug. When several do (a new Discord server's text `#general` and voice
/// `General`), the one with the lowest source id keeps the plain slug (Discord snowflakes and
/// Telegram ids grow with time, so that is the oldest channel, whose permalinks are the oldest)
/// and each other gets `<slug>-<source id>`. The answer depends on the names and source ids
/// only, never on the order files are read in, so `build` and `import` agree.
public enum ConversationIDs {
    /// For importers of one chat per file whose ids come from the file names (WhatsApp, LINE):
    /// gives `imported` an id no conversation in `used` has (`<id>-2`, `-3`, … in read order, as
    /// two chat files of one folder whose names slug alike both build), with a warning naming
    /// both; adds it to `used`.
    public static func takeDistinct(_ imported: inout ImportedConversation, used: inout Set<String>) {
        guard var conversation = imported.conversation else { return }
        let base = conversation.id
        var number = 2
        while used.contains(conversation.id) {
            conversation.id = "\(base)-\(number)"
            number += 1
        }
        if conversation.id != base {
            imported.diagnostics.append(
                .warning(
                    .other(
                        "conversation id '\(base)' is taken by another chat of this folder; this one is '\(conversation.id)'"
                    ),
                    at: conversation.source))
        }
        used.insert(conversation.id)
        imported.conversation = conversation
    }

    /// One conversation asking for an id: the slug of its name and the id its source gives it.
    public struct Claim: Hashable, Sendable {
        /// The readable slug (`ConversationSlug.make` of the name).
        public var slug: String
        /// What the source names the conversation by (a channel or chat id).
        public var sourceID: String

        /// Creates a claim.
        public init(slug: String, sourceID: String) {
            self.slug = slug
            self.sourceID = sourceID
        }
    }

    /// The id of each claim, in the order of `claims`: all different from each other.
    public static func resolve(_ claims: [Claim]) -> [String] {
        var ids = claims.map(\.slug)
        var bySlug: [String: [Int]] = [:]
        for (index, claim) in claims.enumerated() { bySlug[claim.slug, default: []].append(index) }
        // Ids kept as they are; a derived id never takes one of them.
        var taken = Set(bySlug.keys)
        var derived: [Int] = []
        for slug in bySlug.keys.sorted() {
            let owners = bySlug[slug]!.sorted { precedes(claims[$0].sourceID, claims[$1].sourceID, $0, $1) }
            derived += owners.dropFirst()
        }
        // In a fixed order (slug, then source id), so a clash between derived ids is settled the
        // same way on every build.
        derived.sort {
            claims[$0].slug != claims[$1].slug
                ? claims[$0].slug < claims[$1].slug : precedes(claims[$0].sourceID, claims[$1].sourceID, $0, $1)
        }
        for index in derived {
            let base = ConversationSlug.make(from: claims[index].slug + "-" + claims[index].sourceID)
            var id = base
            var number = 2
            while taken.contains(id) {
                id = base + "-\(number)"
                number += 1
            }
            taken.insert(id)
            ids[index] = id
        }
        return ids
    }

    /// Whether source id `left` (of claim `leftIndex`) comes before `right`: numbers (Discord
    /// snowflakes, Telegram's signed ids) by value, other ids (Slack's `C024BE91L`) as text;
    /// equal ids by their place in the input.
    static func precedes(_ left: String, _ right: String, _ leftIndex: Int, _ rightIndex: Int) -> Bool {
        let order: Int
        if let a = Number(left), let b = Number(right) {
            order = a.compare(b)
        } else {
            order = left == right ? 0 : (left < right ? -1 : 1)
        }
        return order != 0 ? order < 0 : leftIndex < rightIndex
    }

    /// An integer written in decimal, of any length (no `Int64` limit to trip on).
    private struct Number {
        /// -1, 0 or 1.
        let sign: Int
        /// The digits without leading zeros.
        let magnitude: Substring

        init?(_ text: String) {
            var digits = Substring(text)
            let negative = digits.first == "-"
            if negative { digits = digits.dropFirst() }
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 &- 0x30 < 10 }) else { return nil }
            magnitude = digits.drop { $0 == "0" }
            sign = magnitude.isEmpty ? 0 : (negative ? -1 : 1)
        }

        /// -1, 0 or 1 as `self` is below, equal to or above `other`.
        func compare(_ other: Number) -> Int {
            if sign != other.sign { return sign < other.sign ? -1 : 1 }
            let byMagnitude =
                magnitude.count != other.magnitude.count
                ? (magnitude.count < other.magnitude.count ? -1 : 1)
                : (magnitude == other.magnitude ? 0 : (magnitude < other.magnitude ? -1 : 1))
            return sign * byMagnitude
        }
    }
}

/// The importers this build knows, in the order detection asks them.
public enum ExportImporters {
    /// Every importer (one per format).
    public static let all: [any ExportImporter.Type] = [
        SlackImporter.self,
        DiscordImporter.self,
        TelegramImporter.self,
        // Before WhatsApp: Signal's `[2019-12-24, 12:23] Name:` lines are a shape WhatsApp's
        // detection would take too.
        SignalImporter.self,
        WhatsAppImporter.self,
        ChatGPTImporter.self,
        MetaImporter.self,
        ClaudeImporter.self,
        TeamsImporter.self,
        TeamsFileImporter.self,
        MattermostImporter.self,
        MatrixImporter.self,
        GoogleChatImporter.self,
        LineImporter.self,
        IrcImporter.self,
        IMessageImporter.self,
    ]

    /// The importer of `format`, if this build has one.
    public static func importer(for format: ExportFormat) -> (any ExportImporter.Type)? {
        all.first { $0.format == format }
    }
}
