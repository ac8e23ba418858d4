import Foundation
import ScrollbackMarkdown
import ScrollbackModel

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
