import Foundation
import ScrollbackMarkdown
import ScrollbackModel

/// Messages: collected as the parser streams them, checked once the participants are known.
extension JSONLogSession {
    // MARK: messages

    /// Converts one element of `messages`; checks needing other messages or the participants wait.
    mutating func collect(_ element: JSONNode) {
        guard element.members != nil else {
            error(
                .wrongType(
                    field: "messages", expected: "an array of message objects, not one holding \(element.typeName)"),
                element)
            return
        }
        collect(MessageFields(node: element))
    }

    /// Converts one message object, given by its fields.
    mutating func collect(_ element: MessageFields) {
        let idNode = element.value(.id)
        let id = string(element, .id, required: true)
        if let id, let idNode {
            if convertsLaterPart { ids.append((id, packed(idNode))) } else { checkUnique(id, at: packed(idNode)) }
        }
        // An unknown field is a warning, except one that stands for a missing `kind`: the
        // message's kind is then unknown, and its payload cannot be checked.
        var kindIsMisspelled = false
        for member in element.object.otherKeys where !KnownJSONFields.message.contains(member.key) {
            if element.value(.kind) == nil, NearestName.suggestion(for: member.key, in: ["kind"]) != nil {
                kindIsMisspelled = true
                diagnostics.append(
                    .error(
                        .unknownField(member.key, in: "a message", suggestion: "kind", known: KnownJSONFields.message),
                        at: member.keyLocation(in: path)))
            } else {
                unknownField(member, known: KnownJSONFields.message, in: "a message")
            }
        }
        guard !kindIsMisspelled, let message = message(element, id: id ?? "") else { return }
        if message.replyTo != nil, let node = element.value(.replyTo) { replies.append((messages.count, packed(node))) }
        if let sender = message.sender, let node = element.value(.sender) { senders.append((sender, packed(node))) }
        dates.append(message.date)
        messages.append(message)
    }

    /// Reports `id`, written at `position`, if an earlier message has it.
    mutating func checkUnique(_ id: String, at position: UInt64) {
        // One hash lookup in the common (unique) case; a duplicate puts the first back.
        if let first = firstIDPositions.updateValue(position, forKey: id) {
            firstIDPositions[id] = first
            diagnostics.append(.error(.duplicateMessageID(id, firstAt: location(first)), at: location(position)))
        }
    }

    /// Takes in `later`, the session that converted the messages right after the ones held
    /// (`convertsLaterPart`), as converting them here would have: their ids checked against every
    /// earlier one, each unknown field reported once per file. (Diagnostics are put in file
    /// order at the end of the read: a repeated id's error may come after its part's others.)
    mutating func merge(_ later: JSONLogSession) {
        for (index, diagnostic) in later.diagnostics.enumerated() {
            if let name = later.unknownFieldReports[index], !reportedUnknownFields.insert(name).inserted { continue }
            diagnostics.append(diagnostic)
        }
        for (id, position) in later.ids { checkUnique(id, at: position) }
        let offset = messages.count
        replies += later.replies.map { ($0.index + offset, $0.position) }
        senders += later.senders
        reactionSenders += later.reactionSenders
        dates += later.dates
        messages += later.messages
    }

    /// The messages, after the checks that need all of them and the participants, ordered by date.
    mutating func checkedMessages(participants: [String: Int]) -> [Message] {
        var lastKnown = ""  // senders come in runs: skip the lookup for a repeat
        // Message senders, then reaction senders (not concatenated: a million-entry copy).
        for list in [senders, reactionSenders] {
            for (sender, position) in list where sender != lastKnown {
                if participants[sender] == nil {
                    diagnostics.append(.error(.unknownSender(sender), at: location(position)))
                } else {
                    lastKnown = sender
                }
            }
        }
        // A reply to a message that is not here still renders, without the quote.
        for (index, position) in replies where firstIDPositions[messages[index].replyTo!] == nil {
            diagnostics.append(.warning(.unknownReplyTarget(messages[index].replyTo!), at: location(position)))
            messages[index].replyTo = nil
        }
        var sorted = messages
        messages = []
        JSONLogSession.sortByDate(&sorted, dates: dates)
        return sorted
    }

    /// The position of each message (by `dates`, in file order) once ordered as `sortByDate`
    /// orders them; `nil` when they already are.
    static func sortedPositions(of dates: [Date]) -> [Int]? {
        guard dates.indices.dropFirst().contains(where: { dates[$0] < dates[$0 - 1] }) else { return nil }
        let order = dates.indices.sorted { left, right in
            dates[left] != dates[right] ? dates[left] < dates[right] : left < right
        }
        var positions = [Int](repeating: 0, count: dates.count)
        for (position, index) in order.enumerated() { positions[index] = position }
        return positions
    }

    /// Orders `messages` by `dates` (parallel to it); equal dates keep file order. Sorts indices,
    /// then permutes in place by swapping, so no second copy of the messages is made.
    static func sortByDate(_ messages: inout [Message], dates: [Date]) {
        var isSorted = true
        for index in dates.indices.dropFirst() where dates[index] < dates[index - 1] {
            isSorted = false
            break
        }
        if isSorted { return }
        // order[i]: the index of the message that belongs at position i.
        var order = dates.indices.sorted { left, right in
            dates[left] != dates[right] ? dates[left] < dates[right] : left < right
        }
        messages.withUnsafeMutableBufferPointer { buffer in  // buffer swaps move, without retain/release
            for start in order.indices where order[start] != start {
                // Follow the cycle: each swap puts one message in its place.
                var position = start
                while order[position] != start {
                    let source = order[position]
                    buffer.swapAt(position, source)
                    order[position] = position
                    position = source
                }
                order[position] = position
            }
        }
    }

    mutating func message(_ object: MessageFields, id: String) -> Message? {
        var kindName = MessageKind.Name.text
        var kindIsKnown = true
        if let kindNode = member(object, .kind, required: false) {
            if let text = kindNode.string, let name = JSONLogSession.kindName(text) {
                kindName = name
            } else {
                error(.unknownKind(kindNode.string ?? kindNode.typeName), kindNode)
                kindIsKnown = false
            }
        }
        var sender: String?
        if let senderNode = member(object, .sender, required: kindName != .system && kindIsKnown) {
            if let text = senderNode.string {
                sender = text  // checked against the participants once they are known
            } else {
                error(
                    .wrongType(field: "sender", expected: "a participant id string, not \(senderNode.typeName)"),
                    senderNode)
            }
        }
        let date = self.date(object, .date, required: true)
        let edited = self.date(object, .edited, required: false)
        var status: DeliveryStatus?
        if let statusNode = member(object, .status, required: false) {
            if let text = statusNode.string, let value = DeliveryStatus(rawValue: text) {
                status = value
            } else {
                warning(
                    .invalidOption(
                        name: "status", value: statusNode.string ?? statusNode.typeName,
                        expected: "sent, delivered or read; the mark is left out"), statusNode)
            }
        }
        let replyTo = string(object, .replyTo)
        let reactions = self.reactions(object)
        let thread = string(object, .thread)
        let broadcast = bool(object, .broadcast) ?? false
        let forwardedFrom = string(object, .forwardedFrom)
        let deleted = bool(object, .deleted) ?? false
        let pinned = bool(object, .pinned) ?? false
        let source = exportSource(object)
        guard kindIsKnown else { return nil }
        let kind: MessageKind
        if deleted, !hasPayload(object) {
            kind = .text("")  // spec §1.1: a deleted message's kind and payload may be absent
        } else if let read = self.kind(kindName, object) {
            kind = read
        } else {
            return nil
        }
        guard let date else { return nil }
        return Message(
            id: id, sender: kindName == .system ? nil : sender, date: date, kind: kind, replyTo: replyTo,
            reactions: reactions, edited: edited, status: status, thread: thread, broadcast: broadcast,
            forwardedFrom: forwardedFrom, deleted: deleted, pinned: pinned, source: source, location: at(object))
    }

    /// Whether the message carries any kind payload member.
    func hasPayload(_ object: MessageFields) -> Bool {
        let payloads: [MessageField] = [.text, .markdown, .html, .media, .location, .contact, .link, .custom]
        return payloads.contains { object.value($0) != nil }
    }

    /// The `source` member (spec §1.1): `{ format, file, line?, path?, id? }`.
    mutating func exportSource(_ object: MessageFields) -> ExportSource? {
        guard let node = self.object(object, .source) else { return nil }
        let format = string(node, "format", required: true)
        let file = string(node, "file", required: true)
        var line: Int?
        if let lineNode = member(node, "line", required: false) {
            if let value = lineNode.number, value.isFinite, value >= 1, value <= 9e15, value == value.rounded() {
                line = Int(value)
            } else {
                error(.wrongType(field: "line", expected: "a whole number from 1, not \(lineNode.typeName)"), lineNode)
            }
        }
        let path = string(node, "path")
        let id = string(node, "id")
        guard let format, let file else { return nil }
        return ExportSource(format: format, file: file, line: line, path: path, id: id)
    }

    /// `MessageKind.Name(rawValue:)`, comparing with the one or few names of the same length
    /// instead of all of them in turn (it runs for most messages).
    static func kindName(_ text: String) -> MessageKind.Name? {
        let candidate: MessageKind.Name?
        switch text.utf8.count {
        case 4: candidate = text.utf8.first == UInt8(ascii: "f") ? .file : .text
        case 5:
            switch text.utf8.first {
            case UInt8(ascii: "e"): candidate = .emoji
            case UInt8(ascii: "p"): candidate = .photo
            case UInt8(ascii: "v"): candidate = .video
            case UInt8(ascii: "a"): candidate = .audio
            default: candidate = nil
            }
        case 6: candidate = text.utf8.first == UInt8(ascii: "s") ? .system : .custom
        case 7: candidate = .contact
        case 8: candidate = .location
        case 11: candidate = .linkPreview
        case 14: candidate = .attributedText
        default: candidate = nil
        }
        guard let candidate, candidate.rawValue == text else { return nil }
        return candidate
    }

    mutating func reactions(_ object: MessageFields) -> [Reaction] {
        guard let elements = array(object, .reactions) else { return [] }
        var reactions: [Reaction] = []
        for element in elements {
            guard element.members != nil else {
                error(
                    .wrongType(
                        field: "reactions",
                        expected: "an array of { \"emoji\", \"senders\" } objects, not one holding \(element.typeName)"),
                    element)
                continue
            }
            checkFields(element, known: KnownJSONFields.reaction, in: "a reaction")
            guard let emoji = string(element, "emoji", required: true) else { continue }
            var senders: [String] = []
            if let senderNodes = array(element, "senders", required: true) {
                for node in senderNodes {
                    guard let sender = node.string else {
                        error(
                            .wrongType(field: "senders", expected: "participant id strings, not \(node.typeName)"), node
                        )
                        continue
                    }
                    reactionSenders.append((sender, packed(node)))
                    senders.append(sender)
                }
            }
            var count: Int?
            if let countNode = member(element, "count", required: false) {
                if let value = countNode.number, value.isFinite, value >= 0, value <= 1e9, value == value.rounded() {
                    count = Int(value)
                    if Int(value) < senders.count {
                        warning(
                            .other(
                                "the reaction's count \(Int(value)) is less than its \(senders.count) senders; they are counted"
                            ),
                            countNode)
                    }
                } else {
                    error(
                        .wrongType(field: "count", expected: "a whole number of people, not \(countNode.typeName)"),
                        countNode)
                }
            }
            reactions.append(Reaction(emoji: emoji, senders: senders, count: count, customEmoji: customEmoji(element)))
        }
        return reactions
    }

    /// A reaction's `customEmoji` (`name`, `url`, `animated`): its image resolved as any media
    /// (inside the input folder, or remote when remote media is on).
    mutating func customEmoji(_ reaction: JSONNode) -> CustomEmoji? {
        guard let object = object(reaction, "customEmoji") else { return nil }
        checkFields(object, known: KnownJSONFields.customEmoji, in: "a custom emoji")
        guard let name = string(object, "name", required: true), let image = media(object, "url", required: true)
        else { return nil }
        return CustomEmoji(name: name, image: image, isAnimated: bool(object, "animated") ?? false)
    }
}
