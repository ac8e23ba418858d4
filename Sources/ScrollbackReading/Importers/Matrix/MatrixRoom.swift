import Foundation
import ScrollbackModel

/// One exported room's events, read in two passes: the first finds what other events change
/// (edits, reactions, redactions) and the members' display names; the second makes each
/// remaining event one message (`MatrixEvent`).
struct MatrixRoom {
    /// One element of `messages` that is an event.
    struct Event {
        let index: Int
        let node: JSONNode
        let type: String
        let sender: String
        let id: String
        /// Milliseconds since 1970, `nil` when unreadable.
        let milliseconds: Double?
        var content: JSONNode? { node["content"] }
        /// `content["m.relates_to"]`.
        var relation: JSONNode? { content?["m.relates_to"] }
        var relationType: String? { relation?["rel_type"]?.string }
        var relationTarget: String? { relation?["event_id"]?.string }
        /// Redacted: the server says so (`unsigned.redacted_because`) or a message lost its content.
        var isRedacted: Bool { node["unsigned"]?["redacted_because"] != nil }
        var isState: Bool { node["state_key"] != nil }
    }

    /// The newest edit of an event: its new content and when it was made.
    struct Edit {
        let content: JSONNode
        let milliseconds: Double
    }

    let file: URL
    let shown: String
    let context: ImportContext
    /// The files of Element's zip beside the JSON.
    let media: MatrixMedia
    /// Each element of `messages`: an event, or the reason it is not one.
    private(set) var entries: [Result<Event, Skipped>] = []
    /// Event ids in the export.
    private var known: Set<String> = []
    /// Newest edit by the event it edits.
    private(set) var edits: [String: Edit] = [:]
    /// Reactions by the event they annotate, in export order.
    private(set) var reactions: [String: [Reaction]] = [:]
    /// Events a redaction names.
    private(set) var redacted: Set<String> = []
    /// Each event folded into another, by index, with why.
    private var folded: [Int: String] = [:]
    /// The ids of the events folded so far: a reaction to one of them has no message to be shown on.
    private var foldedIDs: Set<String> = []
    /// User id → display name (the newest `m.room.member` one), in the order met.
    private(set) var participants: [(String, String)] = []
    /// Every display name a user had, for `me`.
    private var namesByUser: [String: Set<String>] = [:]

    /// Why an element of `messages` is no event.
    struct Skipped: Error {
        let node: JSONNode
        let warning: String
        let reason: String
    }

    init(events: [JSONNode], file: URL, shown: String, context: ImportContext) {
        self.file = file
        self.shown = shown
        self.context = context
        self.media = MatrixMedia(folder: file.deletingLastPathComponent())
        for (index, node) in events.enumerated() {
            entries.append(Self.event(node, index: index))
        }
        for case .success(let event) in entries where !event.id.isEmpty { known.insert(event.id) }
        findRelations()
    }

    /// Element `index` of `messages` as an event.
    static func event(_ node: JSONNode, index: Int) -> Result<Event, Skipped> {
        guard node.members != nil else {
            return .failure(
                Skipped(
                    node: node,
                    warning: "entry \(index + 1) of 'messages' is a \(node.typeName), not an event; expected an "
                        + "object with type, sender and origin_server_ts; it is left out",
                    reason: "an entry of 'messages' that is not an event object"))
        }
        guard let type = node["type"]?.string, !type.isEmpty else {
            return .failure(
                Skipped(
                    node: node,
                    warning: "entry \(index + 1) of 'messages' has no event type; expected a 'type' such as "
                        + "m.room.message; it is left out", reason: "an event without a type"))
        }
        return .success(
            Event(
                index: index, node: node, type: type, sender: node["sender"]?.string ?? "",
                id: node["event_id"]?.string ?? "",
                milliseconds: node["origin_server_ts"]?.number(in: -9e15...9e15)))
    }

    /// The first pass: edits, reactions and redactions, and the members' names.
    private mutating func findRelations() {
        var order: [String] = []
        var names: [String: String] = [:]
        for case .success(let event) in entries {
            if !event.sender.isEmpty { order.append(event.sender) }
            if event.type == "m.room.member", let user = event.node["state_key"]?.string, !user.isEmpty {
                order.append(user)
                if let name = event.content?["displayname"]?.string, !name.isEmpty {
                    names[user] = name
                    namesByUser[user, default: []].insert(name)
                }
            }
            fold(event)
            if folded[event.index] != nil, !event.id.isEmpty { foldedIDs.insert(event.id) }
        }
        var seen: Set<String> = []
        participants = order.filter { seen.insert($0).inserted }.map { ($0, names[$0] ?? $0) }
    }

    /// Folds `event` into the event it changes, when it is an edit, a reaction or a redaction.
    private mutating func fold(_ event: Event) {
        if event.type == "m.room.redaction" {
            let target = (event.node["redacts"] ?? event.content?["redacts"])?.string ?? ""
            if foldedIDs.contains(target) {
                folded[event.index] = "a redaction of an edit or a reaction (also left out)"
            } else if known.contains(target) {
                redacted.insert(target)
                folded[event.index] = "a redaction, shown as the event it removed marked deleted"
            } else {
                folded[event.index] = "a redaction of an event not in this export"
            }
            return
        }
        if event.type == "m.reaction" {
            guard event.relationType == "m.annotation", let target = event.relationTarget, known.contains(target),
                !foldedIDs.contains(target), let key = event.relation?["key"]?.string, !key.isEmpty, !event.isRedacted
            else {
                folded[event.index] =
                    event.isRedacted
                    ? "a reaction that was taken back (redacted)"
                    : "a reaction to an event not in this export (or to an edit or a reaction)"
                return
            }
            var list = reactions[target, default: []]
            let sender = event.sender.isEmpty ? nil : event.sender
            if let at = list.firstIndex(where: { $0.emoji == key }) {
                if let sender {
                    if !list[at].senders.contains(sender) { list[at].senders.append(sender) }
                } else {
                    list[at].unnamedCount += 1
                }
            } else {
                list.append(Reaction(emoji: key, senders: sender.map { [$0] } ?? [], count: sender == nil ? 1 : nil))
            }
            reactions[target] = list
            folded[event.index] = "a reaction (m.annotation), counted on the message it reacts to"
            return
        }
        if event.relationType == "m.replace", let target = event.relationTarget, known.contains(target),
            target != event.id
        {
            if event.isRedacted {
                folded[event.index] = "an edit that was redacted"
                return
            }
            guard let new = event.content?["m.new_content"], new.members != nil else { return }
            let time = event.milliseconds ?? 0
            if let old = edits[target], old.milliseconds > time {
                folded[event.index] = "an older edit (m.replace), replaced by a newer one"
                return
            }
            edits[target] = Edit(content: new, milliseconds: time)
            folded[event.index] = "an edit (m.replace), shown as the text of the message it edits"
        }
    }

    /// The second pass: every element of `messages` onto `assembler`.
    func read(into assembler: inout ConversationAssembler) {
        // System lines name members by their newest name, updated as member events pass.
        var names = Dictionary(participants, uniquingKeysWith: { first, _ in first })
        for entry in entries {
            switch entry {
            case .failure(let skipped):
                let location = skipped.node.location(in: shown)
                assembler.report(.warning(.other(skipped.warning), at: location))
                assembler.leaveOut(reason: skipped.reason, at: location)
            case .success(let event):
                let location = event.node.location(in: shown)
                if let reason = folded[event.index] {
                    assembler.leaveOut(reason: reason, at: location)
                    continue
                }
                guard let milliseconds = event.milliseconds else {
                    let stamp = event.node["origin_server_ts"]
                    assembler.report(
                        .warning(
                            .invalidDate(
                                stamp.map { $0.string ?? $0.typeName } ?? "(none)",
                                expected: "origin_server_ts, milliseconds since 1970 as a number"),
                            at: stamp?.location(in: shown) ?? location))
                    assembler.leaveOut(reason: "an event without a readable origin_server_ts", at: location)
                    continue
                }
                var reader = MatrixEvent(event: event, room: self, names: names, location: location)
                if let message = reader.message(milliseconds: milliseconds) {
                    for diagnostic in reader.diagnostics { assembler.report(diagnostic) }
                    assembler.append(message)
                } else {
                    for diagnostic in reader.diagnostics { assembler.report(diagnostic) }
                    assembler.leaveOut(reason: reader.leftOutReason, at: location)
                }
                if event.type == "m.room.member", let user = event.node["state_key"]?.string,
                    let name = event.content?["displayname"]?.string, !name.isEmpty
                {
                    names[user] = name
                }
            }
        }
    }

    /// The exporter: `exported_by` when it is a user id of the room, else the one member who had
    /// that display name (Element writes the exporter's display name when there is one).
    func me(exportedBy: String?) -> String? {
        guard let exportedBy, !exportedBy.isEmpty else { return nil }
        if participants.contains(where: { $0.0 == exportedBy }) { return exportedBy }
        let named = participants.filter { namesByUser[$0.0]?.contains(exportedBy) == true || $0.1 == exportedBy }
        return named.count == 1 ? named[0].0 : nil
    }
}
