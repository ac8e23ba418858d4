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
            id: id, title: title, description: description, section: section, me: me, timeZone: timeZone,
            participants: participants,
            messages: ordered, source: location)
        return ImportedConversation(
            conversation: hasError ? nil : conversation, diagnostics: diagnostics,
            ledger: ImportLedger(
                recordsRead: messagesIn, messagesBuilt: hasError ? 0 : ordered.count, leftOut: leftOutRecords),
            key: key, sourceFiles: sourceFiles)
    }
}

/// The importers this build knows, in the order detection asks them.
public enum ExportImporters {
    /// Every importer (one per format).
    public static let all: [any ExportImporter.Type] = [
        SlackImporter.self,
        DiscordImporter.self,
        TelegramImporter.self,
        WhatsAppImporter.self,
        ChatGPTImporter.self,
    ]

    /// The importer of `format`, if this build has one.
    public static func importer(for format: ExportFormat) -> (any ExportImporter.Type)? {
        all.first { $0.format == format }
    }
}
