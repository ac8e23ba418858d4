import Foundation
import ScrollbackMarkdown
import ScrollbackModel

/// The state of reading one file: where it is and what went wrong so far.
struct JSONLogSession {
    let context: ReadingContext
    let file: URL
    let path: String
    /// `file.path`, asked once: the media resolver keys references by it.
    let filePath: String
    var diagnostics: [Diagnostic] = []

    // Messages as they are read, and what must be checked once the participants are known.
    // Positions are packed (`line << 32 | column`): a million messages need compact side tables.
    var messages: [Message] = []
    /// Each message's date, parallel to `messages`: sorting reads these, not the large messages.
    var dates: [Date] = []
    /// Every message sender and where it was written.
    var senders: [(sender: String, position: UInt64)] = []
    /// Every reaction sender and where it was written.
    var reactionSenders: [(sender: String, position: UInt64)] = []
    /// Where each message id was first written.
    var firstIDPositions: [String: UInt64] = [:]
    /// Messages with a `replyTo`, and where it was written.
    var replies: [(index: Int, position: UInt64)] = []
    /// Unknown fields reported so far, as `object.name`: each is reported once per file.
    var reportedUnknownFields: Set<String> = []

    /// Whether this session converts the later messages of a log read in two parts
    /// (`JSONLogReader.readInTwoParts`), to be merged into the session of the earlier ones: the
    /// checks that need the earlier messages are left to the merge, with what they need below.
    var convertsLaterPart = false
    /// The later part's message ids and where each was written, in order.
    var ids: [(id: String, position: UInt64)] = []
    /// The later part's unknown-field warnings: index in `diagnostics` → `object.name`.
    var unknownFieldReports: [Int: String] = [:]

    init(context: ReadingContext, file: URL, path: String) {
        self.context = context
        self.file = file
        self.path = path
        self.filePath = file.path
    }

    // MARK: diagnostics and typed fields

    func at(_ node: JSONNode) -> SourceLocation { node.location(in: path) }

    func at<Object: JSONObjectFields>(_ object: Object) -> SourceLocation {
        SourceLocation(file: path, line: object.line, column: object.column)
    }

    func packed(_ node: JSONNode) -> UInt64 { UInt64(node.line) << 32 | UInt64(node.column) }

    func location(_ position: UInt64) -> SourceLocation {
        SourceLocation(file: path, line: Int(position >> 32), column: Int(position & 0xFFFF_FFFF))
    }

    /// Warns about each member of `node` that is not in `known`, at its key.
    mutating func checkFields(_ node: JSONNode, known: [String], in object: String) {
        for member in node.members ?? [] where !known.contains(member.key) {
            unknownField(member, known: known, in: object)
        }
    }

    /// Reports an unknown field at its key, once per object type and name, suggesting the
    /// nearest known name.
    mutating func unknownField(_ member: JSONMember, known: [String], in object: String) {
        let name = object + "." + member.key
        guard reportedUnknownFields.insert(name).inserted else { return }
        if convertsLaterPart { unknownFieldReports[diagnostics.count] = name }
        let suggestion = NearestName.suggestion(for: member.key, in: known)
        diagnostics.append(
            .warning(
                .unknownField(member.key, in: object, suggestion: suggestion, known: known),
                at: member.keyLocation(in: path)))
    }

    mutating func error(_ problem: Problem, _ node: JSONNode) {
        diagnostics.append(.error(problem, at: at(node)))
    }

    mutating func warning(_ problem: Problem, _ node: JSONNode) {
        diagnostics.append(.warning(problem, at: at(node)))
    }

    /// The member `key` of `object` if present (and not `null`); reports a missing required field at the object.
    mutating func member<Object: JSONObjectFields>(_ object: Object, _ key: Object.Key, required: Bool) -> JSONNode? {
        if let value = object.value(key) {
            if case .null = value.value, !required { return nil }
            return value
        }
        if required { diagnostics.append(.error(.missingField(object.name(key)), at: at(object))) }
        return nil
    }

    mutating func string<Object: JSONObjectFields>(
        _ object: Object, _ key: Object.Key, required: Bool = false
    ) -> String? {
        guard let node = member(object, key, required: required) else { return nil }
        guard let text = node.string else {
            error(.wrongType(field: object.name(key), expected: "a string, not \(node.typeName)"), node)
            return nil
        }
        return text
    }

    mutating func bool<Object: JSONObjectFields>(_ object: Object, _ key: Object.Key) -> Bool? {
        guard let node = member(object, key, required: false) else { return nil }
        guard let flag = node.bool else {
            error(.wrongType(field: object.name(key), expected: "true or false, not \(node.typeName)"), node)
            return nil
        }
        return flag
    }

    mutating func number<Object: JSONObjectFields>(
        _ object: Object, _ key: Object.Key, required: Bool = false, in range: ClosedRange<Double>? = nil
    ) -> Double? {
        guard let node = member(object, key, required: required) else { return nil }
        guard let value = node.number, value.isFinite, range.map({ $0.contains(value) }) ?? true else {
            let expected =
                range.map { "a number from \(format($0.lowerBound)) to \(format($0.upperBound))" } ?? "a number"
            error(
                .wrongType(
                    field: object.name(key), expected: expected + (node.number == nil ? ", not \(node.typeName)" : "")),
                node)
            return nil
        }
        return value
    }

    mutating func positiveInteger<Object: JSONObjectFields>(_ object: Object, _ key: Object.Key) -> Int? {
        guard let node = member(object, key, required: false) else { return nil }
        guard let value = node.number, value.isFinite, value >= 1, value <= 1_000_000, value == value.rounded() else {
            error(.wrongType(field: object.name(key), expected: "a whole number from 1 to 1000000"), node)
            return nil
        }
        return Int(value)
    }

    mutating func object<Object: JSONObjectFields>(
        _ object: Object, _ key: Object.Key, required: Bool = false
    ) -> JSONNode? {
        guard let node = member(object, key, required: required) else { return nil }
        guard node.members != nil else {
            error(.wrongType(field: object.name(key), expected: "an object, not \(node.typeName)"), node)
            return nil
        }
        return node
    }

    mutating func array<Object: JSONObjectFields>(
        _ object: Object, _ key: Object.Key, required: Bool = false
    ) -> [JSONNode]? {
        guard let node = member(object, key, required: required) else { return nil }
        guard let elements = node.elements else {
            error(.wrongType(field: object.name(key), expected: "an array, not \(node.typeName)"), node)
            return nil
        }
        return elements
    }

    mutating func stringArray<Object: JSONObjectFields>(_ object: Object, _ key: Object.Key) -> [String] {
        guard let elements = array(object, key) else { return [] }
        var result: [String] = []
        for element in elements {
            guard let text = element.string else {
                error(
                    .wrongType(
                        field: object.name(key), expected: "an array of strings, not one holding \(element.typeName)"),
                    element)
                continue
            }
            result.append(text)
        }
        return result
    }

    mutating func dateFromText<Object: JSONObjectFields>(_ object: Object, _ key: Object.Key, required: Bool) -> Date? {
        guard let node = member(object, key, required: required) else { return nil }
        guard let text = node.string else {
            error(.wrongType(field: object.name(key), expected: "an ISO 8601 date string, not \(node.typeName)"), node)
            return nil
        }
        guard let date = ISO8601DateParser.parse(text) else {
            error(.invalidDate(text, expected: ISO8601DateParser.expectedForm), node)
            return nil
        }
        return date
    }

    /// `date(_:_:required:)` for a message, using the date the parser already read when it could.
    mutating func date(_ object: MessageFields, _ key: MessageField, required: Bool) -> Date? {
        if let date = object.object.dates[key.rawValue] { return date }
        return dateFromText(object, key, required: required)
    }

    func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// Resolves a media reference written in `node` (a string member of `object`).
    mutating func media<Object: JSONObjectFields>(
        _ object: Object, _ key: Object.Key, required: Bool = false
    ) -> MediaSource? {
        guard let node = member(object, key, required: required) else { return nil }
        guard let reference = node.string else {
            error(
                .wrongType(
                    field: object.name(key), expected: "a relative path or an http(s) URL, not \(node.typeName)"), node)
            return nil
        }
        return context.media.resolve(
            reference, relativeTo: file, logPath: filePath, at: at(node), diagnostics: &diagnostics)
    }

    // MARK: the conversation

    mutating func conversation(from root: JSONNode) -> Conversation? {
        guard root.members != nil else {
            error(
                .wrongType(
                    field: "(top level)", expected: "an object with 'participants' and 'messages', not \(root.typeName)"
                ), root)
            return nil
        }
        checkFields(root, known: KnownJSONFields.root, in: "the log")
        if let versionNode = member(root, "version", required: false) {
            switch versionNode.value {
            case .number(let text) where Double(text) == 1: break
            case .number(let text): error(.unsupportedVersion(text), versionNode)
            default:
                error(.wrongType(field: "version", expected: "the number 1, not \(versionNode.typeName)"), versionNode)
            }
        }
        let id = conversationID(root)
        let title = string(root, "title")
        let description = string(root, "description")
        let section = string(root, "section")
        // What kind of chat it is only decides who is asked for `me`: a value not known is
        // a warning, read as not said.
        var chatType: ChatType?
        if let typeNode = member(root, "chatType", required: false) {
            if let text = typeNode.string, let type = ChatType(rawValue: text) {
                chatType = type
            } else {
                let written = typeNode.string.map { "'\($0)'" } ?? typeNode.typeName
                let expected = ChatType.allCases.map(\.rawValue).joined(separator: ", ")
                warning(
                    .wrongType(field: "chatType", expected: "one of \(expected), not \(written); it is left out"),
                    typeNode)
            }
        }
        var timeZone: String?
        if let zoneNode = member(root, "timezone", required: false) {
            if let zone = zoneNode.string, LayoutOptionParsing.isTimeZone(zone) {
                timeZone = zone
            } else {
                error(.unknownTimeZone(zoneNode.string ?? zoneNode.typeName), zoneNode)
            }
        }
        let layout = layoutOverrides(root)
        let participants = self.participants(root)
        var me: String?
        if let meNode = member(root, "me", required: false) {
            if let meID = meNode.string {
                if participants.index[meID] != nil {
                    me = meID
                } else {
                    error(.unknownSender(meID), meNode)
                }
            } else {
                error(.wrongType(field: "me", expected: "a participant id string, not \(meNode.typeName)"), meNode)
            }
        }
        if let elements = array(root, "messages", required: true) {
            for element in elements { collect(element) }  // empty when they were streamed
        }
        let messages = checkedMessages(participants: participants.index)
        return Conversation(
            id: id, title: title, description: description, section: section, chatType: chatType, me: me,
            timeZone: timeZone, participants: participants.list, messages: messages, layout: layout,
            source: SourceLocation(file: path, line: 1, column: 1))
    }

    mutating func conversationID(_ root: JSONNode) -> String {
        let fallback = ConversationSlug.make(from: file.deletingPathExtension().lastPathComponent)
        guard let node = member(root, "id", required: false) else { return fallback }
        guard let written = node.string else {
            error(.wrongType(field: "id", expected: "a string, not \(node.typeName)"), node)
            return fallback
        }
        let slug = ConversationSlug.make(from: written)
        if slug != written {
            warning(
                .invalidOption(
                    name: "id", value: written,
                    expected:
                        "a URL slug of lowercase letters (any script), digits and '-', at most \(ConversationSlug.maximumBytes) bytes; using '\(slug)'"
                ), node)
        }
        return slug
    }

    mutating func layoutOverrides(_ root: JSONNode) -> LayoutOverrides {
        var overrides = LayoutOverrides()
        guard let layout = object(root, "layout"), let members = layout.members else { return overrides }
        for member in members {
            let value: LayoutOptionValue
            switch member.value.value {
            case .bool(let flag): value = .bool(flag)
            case .number(let text): value = .number(text)
            case .string(let text): value = .string(text)
            default:
                error(
                    .wrongType(
                        field: member.key, expected: "a string, number or boolean, not \(member.value.typeName)"),
                    member.value)
                continue
            }
            guard LayoutOptionParsing.isOption(member.key) else {
                diagnostics.append(
                    .warning(LayoutOptionParsing.unknownOption(member.key), at: member.keyLocation(in: path)))
                continue
            }
            if let problem = LayoutOptionParsing.apply(member.key, value, to: &overrides) {
                error(problem, member.value)
            }
        }
        return overrides
    }

    // MARK: participants

    mutating func participants(_ root: JSONNode) -> (list: [Participant], index: [String: Int]) {
        var list: [Participant] = []
        var index: [String: Int] = [:]
        var firstSeen: [String: SourceLocation] = [:]
        guard let elements = array(root, "participants", required: true) else { return (list, index) }
        for element in elements {
            guard element.members != nil else {
                error(
                    .wrongType(
                        field: "participants",
                        expected: "an array of objects { \"id\", \"name\" }, not one holding \(element.typeName)"),
                    element)
                continue
            }
            checkFields(element, known: KnownJSONFields.participant, in: "a participant")
            let idNode = element["id"]
            guard let id = string(element, "id", required: true) else { continue }
            let name = string(element, "name", required: true) ?? id
            let avatar = media(element, "avatar")
            var color: String?
            if let colorNode = member(element, "color", required: false) {
                if let text = colorNode.string, ParticipantColor.isValid(text) {
                    color = text.lowercased()
                } else {
                    warning(
                        .invalidOption(
                            name: "color", value: colorNode.string ?? colorNode.typeName,
                            expected: "a colour #rgb or #rrggbb; a colour derived from the id is used"), colorNode)
                }
            }
            if let first = firstSeen[id] {
                error(.duplicateParticipantID(id, firstAt: first), idNode ?? element)
                continue
            }
            firstSeen[id] = at(idNode ?? element)
            index[id] = list.count
            list.append(Participant(id: id, name: name, avatar: avatar, color: color))
        }
        return (list, index)
    }
}

/// Internals of the JSON reader that tests exercise directly.
enum JSONLogSessionTesting {
    /// See `JSONLogSession.sortByDate(_:dates:)`.
    static func sortByDate(_ messages: inout [Message], dates: [Date]) {
        JSONLogSession.sortByDate(&messages, dates: dates)
    }

    /// See `JSONLogSession.kindName(_:)`.
    static func kindName(_ text: String) -> MessageKind.Name? { JSONLogSession.kindName(text) }
}
