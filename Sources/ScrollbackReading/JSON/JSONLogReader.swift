import Foundation
import ScrollbackMarkdown
import ScrollbackModel

/// Reads a JSON conversation log (spec §1) with a position-tracking parser, so every error
/// names its line and column.
///
/// Every error in the file is collected (each with its location); any error makes the
/// conversation `nil`, warnings do not. An unknown field is ignored with a warning at its key that
/// names the known field it most likely meant (`replyto` → `replyTo`), once per object type and
/// name in a file; a misspelled `kind` is an error at that key.
struct JSONLogReader {
    let context: ReadingContext

    /// Reads the log at `file`, whose bytes are `data`.
    ///
    /// Messages are converted one by one as the parser meets them (`streamingElementsOf:`), so
    /// the whole file's JSON tree never exists at once; checks that need the participants
    /// (which may come after the messages) run once the file is read.
    ///
    /// With `tracingMessages`, the result also says where each message was written
    /// (`JSONMessageTrace`), for the build cache.
    ///
    /// With `threads` above 1, a large log's later messages are read on another thread
    /// (`readInTwoParts`); the result is the same.
    func read(_ data: [UInt8], file: URL, tracingMessages: Bool = false, threads: Int = 1) -> ReadResult {
        let path = context.displayPath(file)
        var sink = MessageSink(
            session: JSONLogSession(context: context, file: file, path: path), tracing: tracingMessages)
        // A guess: messages are rarely smaller (the benchmark's average 177 bytes). Growing these
        // would copy every message, or hash every id again; room no message fills is address
        // space, not memory.
        let expectedCount = data.count / 128
        sink.session.firstIDPositions.reserveCapacity(expectedCount)
        sink.session.messages.reserveCapacity(expectedCount)
        sink.session.dates.reserveCapacity(expectedCount)
        if tracingMessages { sink.ranges.reserveCapacity(expectedCount) }
        let root: JSONNode
        var arrayOpenOffsets: [Int] = []
        do {
            if threads > 1, data.count >= Self.twoPartMinimumBytes, let cut = Self.laterPartStart(in: data) {
                (root, arrayOpenOffsets) = try readInTwoParts(data, cut: cut, into: &sink)
            } else {
                (root, arrayOpenOffsets) = try Self.parseMessages(data, path: path, into: &sink)
            }
        } catch {
            return ReadResult(conversation: nil, diagnostics: [error])
        }
        var trace: JSONMessageTrace?
        if tracingMessages, arrayOpenOffsets.count == 1, sink.ranges.count == sink.session.dates.count {
            trace = JSONMessageTrace(
                arrayOpenOffset: arrayOpenOffsets[0], elementRanges: sink.ranges,
                sortedPositions: JSONLogSession.sortedPositions(of: sink.session.dates))
        }
        let conversation = sink.session.conversation(from: root)
        let hasError = sink.session.diagnostics.contains { $0.severity == .error }
        // File order, whatever order the checks ran in; equal locations keep their order.
        let ordered = sink.session.diagnostics.enumerated().sorted { left, right in
            left.element.location == right.element.location
                ? left.offset < right.offset : left.element < right.element
        }.map(\.element)
        var result = ReadResult(conversation: hasError ? nil : conversation, diagnostics: ordered)
        if !hasError, trace?.elementRanges.count == conversation?.messages.count { result.messageTrace = trace }
        return result
    }
}

extension JSONLogReader {
    /// The smallest log read in two parts: below it, a second thread costs more than it saves.
    static let twoPartMinimumBytes = 1 << 20
    static let dateFields: Set<String> = ["date", "edited"]

    /// Where a log's later part may start: the first line after the middle of the file that
    /// opens with `{` (after blanks) right after a line ending in `,` (looked for over 1,000
    /// lines): in a log written one message per line, or pretty-printed, that is a message of
    /// `messages`. Only a guess: the parse of the earlier part takes it only if its `,` is one
    /// between two messages.
    static func laterPartStart(in data: [UInt8]) -> (comma: Int, start: Int, lineStart: Int)? {
        let newline = UInt8(ascii: "\n")
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
        var lineStart = data.count / 2
        for _ in 0..<1000 {
            guard let next = data[lineStart...].firstIndex(of: newline) else { return nil }
            lineStart = next + 1
            var start = lineStart
            while start < data.count, isBlank(data[start]) { start += 1 }
            guard start < data.count, data[start] == UInt8(ascii: "{") else { continue }
            var comma = next - 1
            while comma > 0, isBlank(data[comma]) { comma -= 1 }
            if data[comma] == UInt8(ascii: ",") { return (comma, start, lineStart) }
        }
        return nil
    }

    /// Parses a log, handing each element of `messages` to `sink`; with `cut`, see
    /// `JSONParser.parse(_:file:streamingObjectsOf:fields:dateFields:cut:resumingAfterCut:to:otherElements:)`.
    private static func parseMessages(
        _ data: [UInt8], path: String, into sink: inout MessageSink, cut: Int? = nil,
        resumingAfterCut resume: (inout MessageSink) throws(Diagnostic) -> (offset: Int, line: Int, lineStart: Int) = {
            _ in (0, 0, 0)
        }
    ) throws(Diagnostic) -> (root: JSONNode, arrayOpenOffsets: [Int]) {
        try JSONParser.parse(
            data, file: path, streamingObjectsOf: "messages", fields: MessageField.names, dateFields: dateFields,
            cut: cut, resumingAfterCut: { () throws(Diagnostic) in try resume(&sink) },
            to: { sink.take($0, $1) }, otherElements: { sink.take($0, $1) })
    }

    /// Reads a log in two parts: this thread parses the document up to the `,` at `cut.comma`,
    /// and from the end of the `messages` array on, while another parses and converts the
    /// messages after it (with a session of its own, `convertsLaterPart`); its session is merged
    /// in when this one reaches the `,`. When that `,` turns out not to separate two messages,
    /// this thread reads the whole log and the other part is dropped.
    private func readInTwoParts(
        _ data: [UInt8], cut: (comma: Int, start: Int, lineStart: Int), into sink: inout MessageSink
    ) throws(Diagnostic) -> (root: JSONNode, arrayOpenOffsets: [Int]) {
        let path = sink.session.path
        var laterSession = JSONLogSession(context: context, file: sink.session.file, path: path)
        laterSession.convertsLaterPart = true
        let later = LaterPart(sink: MessageSink(session: laterSession, tracing: sink.tracing))
        let done = DispatchSemaphore(value: 0)
        Parallel.start {
            // Lines before the part: counted here, off the other thread's way.
            let line = data.withUnsafeBufferPointer { bytes in
                1 + bytes[..<cut.lineStart].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            }
            later.close = Result { () throws(Diagnostic) in
                try JSONParser.parse(
                    data, file: path, streamedElementsFrom: cut.start, line: line, lineStart: cut.lineStart,
                    fields: MessageField.names, dateFields: Self.dateFields,
                    to: { later.sink.take($0, $1) }, otherElements: { later.sink.take($0, $1) })
            }
            done.signal()
        }
        var merged = false
        let parsed = Result { () throws(Diagnostic) in
            try Self.parseMessages(data, path: path, into: &sink, cut: cut.comma) { (sink) throws(Diagnostic) in
                done.wait()
                merged = true
                sink.session.merge(later.sink.session)
                sink.ranges += later.sink.ranges
                return try later.close!.get()
            }
        }
        // The other thread reads `data` until it signals: wait for it whatever happened here.
        if !merged { done.wait() }
        return try parsed.get()
    }
}

/// Where the parser's streamed elements go: the session converts them, and their byte ranges
/// are kept when the read is traced.
private struct MessageSink {
    var session: JSONLogSession
    let tracing: Bool
    var ranges: [Range<Int>] = []

    init(session: JSONLogSession, tracing: Bool) {
        self.session = session
        self.tracing = tracing
    }

    mutating func take(_ object: JSONStreamedObject, _ range: Range<Int>) {
        if tracing { ranges.append(range) }
        session.collect(MessageFields(object: object))
    }

    mutating func take(_ node: JSONNode, _ range: Range<Int>) {
        if tracing { ranges.append(range) }
        session.collect(node)
    }
}

/// What the thread reading a log's later part makes; read only after it signals.
private final class LaterPart: @unchecked Sendable {
    var sink: MessageSink
    /// Where the `messages` array's `]` is, or the error that stopped the part.
    var close: Result<(offset: Int, line: Int, lineStart: Int), Diagnostic>?
    init(sink: MessageSink) { self.sink = sink }
}

/// Where a JSON log's messages were written: what an incremental build needs to re-read some of
/// them without reading the whole file (`ReadResult.messageTrace`).
public struct JSONMessageTrace: Sendable {
    /// Byte offset of the `messages` array's `[`.
    public var arrayOpenOffset: Int
    /// Each message's byte range `[start, end)`, in file order.
    public var elementRanges: [Range<Int>]
    /// Each message's (file order) position among the date-sorted messages; `nil` when the
    /// file order is already sorted.
    public var sortedPositions: [Int]?
}

/// An object whose members the session reads: a parsed `JSONNode`, or a message's fields as
/// the parser streamed them (`MessageFields`), looked up by slot instead of by key string.
protocol JSONObjectFields {
    /// What names a member.
    associatedtype Key
    /// The value of the first member named `key`.
    func value(_ key: Key) -> JSONNode?
    /// The member name `key` stands for, for messages.
    func name(_ key: Key) -> String
    /// 1-based line of the object.
    var line: Int { get }
    /// 1-based column of the object.
    var column: Int { get }
}

extension JSONNode: JSONObjectFields {
    func value(_ key: String) -> JSONNode? { self[key] }
    func name(_ key: String) -> String { key }
}

/// The members of a message object the reader knows; each is a slot of `MessageFields`.
enum MessageField: Int, CaseIterable {
    case id, kind, sender, date, edited, status, replyTo, reactions, text, markdown, html, media, location, contact,
        link, custom, thread, broadcast, forwardedFrom, deleted, pinned, source

    /// The member names, in slot order.
    static let names: [String] = allCases.map(\.name)

    /// The member name.
    var name: String {
        switch self {
        case .id: "id"
        case .kind: "kind"
        case .sender: "sender"
        case .date: "date"
        case .edited: "edited"
        case .status: "status"
        case .replyTo: "replyTo"
        case .reactions: "reactions"
        case .text: "text"
        case .markdown: "markdown"
        case .html: "html"
        case .media: "media"
        case .location: "location"
        case .contact: "contact"
        case .link: "link"
        case .custom: "custom"
        case .thread: "thread"
        case .broadcast: "broadcast"
        case .forwardedFrom: "forwardedFrom"
        case .deleted: "deleted"
        case .pinned: "pinned"
        case .source: "source"
        }
    }
}

/// The member names each object of a JSON log may hold (spec §1 and §1.1), for unknown-field
/// warnings. Fields the reader does not use yet (the v1.1 thread, broadcast, forwarded, deleted,
/// pinned and source fields) are known all the same: a log using them is not mistaken.
enum KnownJSONFields {
    static let root = [
        "version", "id", "title", "description", "section", "chatType", "me", "timezone", "participants", "messages",
        "layout",
    ]
    static let participant = ["id", "name", "avatar", "color"]
    static let message = unique(
        MessageField.names + ["thread", "broadcast", "forwardedFrom", "deleted", "pinned", "source"])
    static let reaction = ["emoji", "senders", "count", "customEmoji"]
    static let customEmoji = ["name", "url", "animated"]
    static let media = [
        "url", "width", "height", "alt", "caption", "poster", "duration", "title", "name", "size", "mimeType",
    ]
    static let location = ["latitude", "longitude", "name", "address"]
    static let contact = ["name", "phones", "emails"]
    static let link = ["url", "title", "teaser", "thumbnail", "siteName"]
    static let custom = ["id", "data"]

    private static func unique(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }
}

/// A message object's known members, by slot.
struct MessageFields: JSONObjectFields {
    var object: JSONStreamedObject

    /// The fields of a message parsed as a tree (an object node): the first member of each name.
    init(node: JSONNode) {
        object = JSONStreamedObject(slotCount: MessageField.allCases.count)
        object.line = node.line
        object.column = node.column
        for member in node.members ?? [] {
            if let field = MessageField.names.firstIndex(of: member.key) {
                if object.values[field] == nil { object.values[field] = member.value }
            } else {
                object.otherKeys.append(member)
            }
        }
    }

    init(object: JSONStreamedObject) { self.object = object }

    func value(_ key: MessageField) -> JSONNode? { object.values[key.rawValue] }
    func name(_ key: MessageField) -> String { key.name }
    var line: Int { object.line }
    var column: Int { object.column }
}

/// The state of reading one file: where it is and what went wrong so far.
private struct JSONLogSession {
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

    // MARK: kinds

    mutating func kind(_ name: MessageKind.Name, _ object: MessageFields) -> MessageKind? {
        switch name {
        case .text: return string(object, .text, required: true).map(MessageKind.text)
        case .emoji: return string(object, .text, required: true).map(MessageKind.emoji)
        case .system: return string(object, .text, required: true).map(MessageKind.system)
        case .attributedText: return attributedText(object)
        case .photo: return mediaItem(object, kind: name).map(MessageKind.photo)
        case .video: return mediaItem(object, kind: name).map(MessageKind.video)
        case .audio: return mediaItem(object, kind: name).map(MessageKind.audio)
        case .location: return location(object)
        case .contact: return contact(object)
        case .linkPreview: return linkPreview(object)
        case .custom: return custom(object)
        case .file: return fileItem(object).map(MessageKind.file)
        }
    }

    mutating func fileItem(_ object: MessageFields) -> FileItem? {
        guard let media = self.object(object, .media, required: true) else { return nil }
        guard let source = self.media(media, "url", required: true) else { return nil }
        var size: Int64?
        if let sizeNode = member(media, "size", required: false) {
            if let value = sizeNode.number, value.isFinite, value >= 0, value <= 9e15, value == value.rounded() {
                size = Int64(value)
            } else {
                error(
                    .wrongType(field: "size", expected: "a whole number of bytes, not \(sizeNode.typeName)"), sizeNode)
            }
        }
        return FileItem(
            source: source, name: string(media, "name"), size: size, mimeType: string(media, "mimeType"),
            caption: string(media, "caption"))
    }

    mutating func attributedText(_ object: MessageFields) -> MessageKind? {
        if let markdownNode = object.value(.markdown) {
            guard let markdown = string(object, .markdown) else { return nil }
            if let exceeded = MarkdownLimits.exceededLimit(inMarkdown: markdown) {
                warning(.other("the markdown exceeds a limit (\(exceeded)); it is shown as plain text"), markdownNode)
                return .text(markdown)
            }
            let images = RichTextImages(context: context, file: file, location: at(markdownNode))
            let result = context.markdown.render(markdown, imageURL: images.url(for:))
            diagnostics.append(contentsOf: images.warnings)
            var rich = RichText(sanitizedHTML: result.html, plainText: result.plainText)
            rich.assets = images.assets  // the site copies the images it shows
            return .attributedText(rich)
        }
        if let htmlNode = object.value(.html) {
            guard let html = string(object, .html) else { return nil }
            if let exceeded = MarkdownLimits.exceededLimit(inHTML: html) {
                warning(.other("the html exceeds a limit (\(exceeded)); it is shown as plain text"), htmlNode)
                return .text(html)
            }
            let images = RichTextImages(context: context, file: file, location: at(htmlNode))
            let result = context.sanitizer.sanitize(html, imageURL: images.url(for:))
            diagnostics.append(contentsOf: images.warnings)
            var rich = RichText(sanitizedHTML: result.html, plainText: result.plainText)
            rich.assets = images.assets  // the site copies the images it shows
            return .attributedText(rich)
        }
        diagnostics.append(.error(.missingField("markdown' or 'html"), at: at(object)))
        return nil
    }

    mutating func mediaItem(_ object: MessageFields, kind: MessageKind.Name) -> MediaItem? {
        guard let media = self.object(object, .media, required: true) else { return nil }
        checkFields(media, known: KnownJSONFields.media, in: "media")
        guard let source = self.media(media, "url", required: true) else { return nil }
        let width = positiveInteger(media, "width")
        let height = positiveInteger(media, "height")
        var size: PixelSize?
        if let width, let height {
            size = PixelSize(width: width, height: height)
        } else if case .local(let asset) = source {
            size = asset.pixelSize
        }
        let poster = kind == .video ? self.media(media, "poster") : nil
        let duration = number(media, "duration", in: 0...1e9)
        return MediaItem(
            source: source, size: size, alt: string(media, "alt"), caption: string(media, "caption"),
            poster: poster, duration: duration, title: string(media, "title"))
    }

    mutating func location(_ object: MessageFields) -> MessageKind? {
        guard let location = self.object(object, .location, required: true) else { return nil }
        checkFields(location, known: KnownJSONFields.location, in: "location")
        let latitude = number(location, "latitude", required: true, in: -90...90)
        let longitude = number(location, "longitude", required: true, in: -180...180)
        let name = string(location, "name")
        let address = string(location, "address")
        guard let latitude, let longitude else { return nil }
        return .location(LocationItem(latitude: latitude, longitude: longitude, name: name, address: address))
    }

    mutating func contact(_ object: MessageFields) -> MessageKind? {
        guard let contact = self.object(object, .contact, required: true) else { return nil }
        checkFields(contact, known: KnownJSONFields.contact, in: "contact")
        let name = string(contact, "name", required: true)
        let phones = stringArray(contact, "phones")
        let emails = stringArray(contact, "emails")
        guard let name else { return nil }
        return .contact(ContactItem(name: name, phones: phones, emails: emails))
    }

    mutating func linkPreview(_ object: MessageFields) -> MessageKind? {
        let text = string(object, .text) ?? ""
        guard let link = self.object(object, .link, required: true) else { return nil }
        checkFields(link, known: KnownJSONFields.link, in: "link")
        guard let urlNode = member(link, "url", required: true) else { return nil }
        guard let url = urlNode.string else {
            error(.wrongType(field: "url", expected: "an http(s) URL string, not \(urlNode.typeName)"), urlNode)
            return nil
        }
        let scheme = MediaResolver.scheme(of: url)
        guard scheme == "http" || scheme == "https",
            PlainHTTPURL.isPlain(url) || URL(string: url)?.host?.isEmpty == false
        else {
            warning(
                .invalidOption(name: "url", value: url, expected: "an http(s) URL; the preview card is left out"),
                urlNode)
            return .text(text)
        }
        var item = LinkItem(
            url: url, title: string(link, "title"), teaser: string(link, "teaser"),
            thumbnail: media(link, "thumbnail"), siteName: string(link, "siteName"))
        if item.title == nil || item.teaser == nil || item.thumbnail == nil || item.siteName == nil,
            let saved = context.previews.linkPreview(for: url)
        {
            item.title = item.title ?? saved.title
            item.teaser = item.teaser ?? saved.teaser
            item.siteName = item.siteName ?? saved.siteName
            if item.thumbnail == nil, let image = saved.imageURL {
                // A saved page's relative image path is relative to the page, in `previews/`.
                item.thumbnail = context.media.resolve(
                    image, relativeTo: saved.pageFile, at: at(urlNode), diagnostics: &diagnostics)
            }
        }
        return .linkPreview(text: text, link: item)
    }

    mutating func custom(_ object: MessageFields) -> MessageKind? {
        guard let custom = self.object(object, .custom, required: true) else { return nil }
        checkFields(custom, known: KnownJSONFields.custom, in: "custom")
        guard let id = string(custom, "id", required: true) else { return nil }
        let data = custom["data"]?.jsonValue ?? .null
        return .custom(CustomItem(id: id, data: data))
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

/// The common shape of a link: `http(s)://host/path` with a lowercase host of letters, digits,
/// dots and dashes and a path of unreserved characters. `URL(string:)` accepts every such
/// text with that non-empty host, so a link of this shape skips its (costly) parse.
enum PlainHTTPURL {
    /// Whether `url` has exactly that shape; `false` says nothing (the caller parses the URL).
    static func isPlain(_ url: String) -> Bool {
        var url = url
        return url.withUTF8 { bytes in
            let prefixLength: Int
            if bytes.starts(with: "https://".utf8) {
                prefixLength = 8
            } else if bytes.starts(with: "http://".utf8) {
                prefixLength = 7
            } else {
                return false
            }
            var index = prefixLength
            while index < bytes.count, isHostByte(bytes[index]) { index += 1 }
            // The host starts with a letter or digit.
            guard index > prefixLength, isLowercaseAlphanumeric(bytes[prefixLength]) else { return false }
            guard index < bytes.count else { return true }
            guard bytes[index] == UInt8(ascii: "/") else { return false }
            while index < bytes.count, isPathByte(bytes[index]) { index += 1 }
            return index == bytes.count
        }
    }

    private static func isLowercaseAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        isLowercaseAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }

    private static func isPathByte(_ byte: UInt8) -> Bool {
        isLowercaseAlphanumeric(byte) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/")
    }
}

/// `#rgb` / `#rrggbb` colours: the only form a participant colour may take, so it cannot carry CSS.
enum ParticipantColor {
    static func isValid(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard utf8.count == 4 || utf8.count == 7, utf8[0] == UInt8(ascii: "#") else { return false }
        return utf8.dropFirst().allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
        }
    }
}

/// The image-URL mapping rich text uses: a local file becomes `@root/<sitePath>` (the renderer
/// turns `@root/` into the relative path to the site root), a remote URL stays as it is, and a
/// refused or missing one drops the image. Collects the resolver's warnings.
final class RichTextImages {
    let context: ReadingContext
    let file: URL
    let location: SourceLocation
    /// Warnings about the images met so far.
    private(set) var warnings: [Diagnostic] = []
    /// The local files the images shown so far are, each once: what the site must copy.
    private(set) var assets: [LocalAsset] = []

    init(context: ReadingContext, file: URL, location: SourceLocation) {
        self.context = context
        self.file = file
        self.location = location
    }

    /// The URL the page should use for the image `reference`, or `nil` to drop it.
    func url(for reference: String) -> String? {
        switch context.media.resolve(reference, relativeTo: file, at: location, diagnostics: &warnings) {
        case .local(let asset):
            if !assets.contains(asset) { assets.append(asset) }
            return "@root/" + asset.sitePath
        case .remote(let url): return url
        case .unavailable: return nil
        }
    }
}
