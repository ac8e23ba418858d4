import Foundation
import ScrollbackModel

// Where every message is drawn: its anchor (`m-…`) and the page file that holds it, so a permalink
// works from anywhere in the conversation's folder (spec §1.1, §5).

/// URL slugs: ASCII letters and digits lowercased, every other run of characters one `-`.
public enum Slug {
    /// The slug of `text`.
    public static func make(_ text: String) -> String {
        var output = [UInt8]()
        output.reserveCapacity(text.utf8.count)
        append(text, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the slug of `text` to `output` (`make` without the `String`).
    static func append(_ text: String, to output: inout [UInt8]) {
        forEachByte(ofSlugOf: text) { output.append($0) }
    }

    /// Hands out the bytes of `text`'s slug, in order: never more than `text` has.
    @inline(__always)
    static func forEachByte(ofSlugOf text: String, _ emit: (UInt8) -> Void) {
        var pendingDash = false
        var emitted = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                if pendingDash, emitted { emit(UInt8(ascii: "-")) }
                pendingDash = false
                emitted = true
                emit(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                if pendingDash, emitted { emit(UInt8(ascii: "-")) }
                pendingDash = false
                emitted = true
                emit(byte + 32)
            default:
                pendingDash = true
            }
        }
    }

    /// Whether `text` is already its own slug (the common case: ids such as `m42` or `msg-7`).
    public static func isSlug(_ text: String) -> Bool {
        // Over the contiguous bytes: iterating `utf8` of a small string costs ~20 instructions a byte.
        var text = text
        return text.withUTF8 { bytes in
            var previousDash = true
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                    previousDash = false
                case UInt8(ascii: "-"):
                    if previousDash { return false }
                    previousDash = true
                default: return false
                }
            }
            return !previousDash
        }
    }
}

/// Permalink anchors of one conversation: `m-<slug of id>`, made unique when two ids slug alike.
public struct AnchorTable: Sendable {
    /// Whether some id is not its own slug (then anchors are made from slugs).
    private var slugsIDs = false
    /// Anchors that are not `m-<slug of id>`: ids whose slug an earlier id (or an id that is a
    /// slug) already had, or that slug to nothing. Usually empty.
    private var renamed: [String: String] = [:]

    /// The anchors of `messages` (all of a conversation's, so threads and timeline agree).
    public init(messages: [Message]) {
        let ids = messages.indices.map { index in messages.readInPlace(index) { $0.id } }
        let isSlug = ids.map(Slug.isSlug)
        guard isSlug.contains(false) else { return }
        slugsIDs = true
        if Self.slugsAreDistinct(ids, isSlug: isSlug) { return }
        // Which id has each anchor: ids that are slugs first (they keep theirs), then the others
        // in order. One hash per message when nothing collides (a Slack export's `ts` ids).
        var owner = [String: String](minimumCapacity: messages.count)
        for (index, id) in ids.enumerated() where isSlug[index] { owner[id] = id }
        for (index, id) in ids.enumerated() where !isSlug[index] {
            if !renamed.isEmpty, renamed[id] != nil { continue }  // a repeated id keeps its anchor
            var base = Slug.make(id)
            let natural = base
            if base.isEmpty { base = "x" }
            if let earlier = owner.updateValue(id, forKey: base) {
                owner[base] = earlier
                if earlier == id { continue }  // a repeated id
                var suffix = 2
                var candidate = "\(base)-\(suffix)"
                while owner[candidate] != nil {
                    suffix += 1
                    candidate = "\(base)-\(suffix)"
                }
                owner[candidate] = id
                renamed[id] = candidate
            } else if base != natural {
                renamed[id] = base
            }
        }
    }

    /// Whether every id's slug is non-empty and no two are alike: then every anchor is
    /// `m-<slug of id>` and `renamed` stays empty. Checked on 64-bit hashes of the slugs, without
    /// making them (a Slack export's `ts` ids are all distinct): only when two hashes meet, or a
    /// slug is empty, does `init` build the exact table.
    private static func slugsAreDistinct(_ ids: [String], isSlug: [Bool]) -> Bool {
        var seen = Set<UInt64>(minimumCapacity: ids.count)
        var slug: [UInt8] = []
        for (index, id) in ids.enumerated() {
            slug.removeAll(keepingCapacity: true)
            if isSlug[index] { slug.append(contentsOf: id.utf8) } else { Slug.append(id, to: &slug) }
            guard !slug.isEmpty, seen.insert(StableHash.fnv1a64(slug)).inserted else { return false }
        }
        return true
    }

    /// The element id of message `id`.
    public func anchor(_ id: String) -> String {
        guard slugsIDs else { return "m-" + id }  // no hashing in the common case
        if !renamed.isEmpty, let anchor = renamed[id] { return "m-" + anchor }
        // Written straight into the string: one allocation per anchor, which rows ask for often.
        return String(unsafeUninitializedCapacity: id.utf8.count + 2) { buffer in
            buffer[0] = UInt8(ascii: "m")
            buffer[1] = UInt8(ascii: "-")
            var count = 2
            Slug.forEachByte(ofSlugOf: id) { byte in
                buffer[count] = byte
                count += 1
            }
            return count
        }
    }
}

/// Where the pages of a message list live inside the conversation's folder.
public enum PageFiles: Sendable, Hashable {
    /// The conversation's own pages: `index.html`, `page-2.html`, …
    case conversation
    /// A long thread's own pages: `thread-<root>.html`, `thread-<root>-page-2.html`, …
    case thread(stem: String)
    /// A short thread, drawn in place under its root, in the root's page file.
    case inline(file: String)

    /// Whether these are no pages of their own (a thread drawn under its root).
    public var isInline: Bool {
        if case .inline = self { true } else { false }
    }

    /// The file name of page `index` (0-based).
    public func name(ofPage index: Int) -> String {
        switch self {
        case .conversation: return index == 0 ? "index.html" : "page-\(index + 1).html"
        case .thread(let stem): return index == 0 ? stem + ".html" : "\(stem)-page-\(index + 1).html"
        case .inline(let file): return file
        }
    }
}

/// Texts the layout writes in place of a message's own (one place for each).
public enum MessageNotices {
    /// Shown in place of a deleted message's body, and quoted for it.
    public static let deleted = "This message was deleted"

    /// The one-line excerpt of `message` for quotes, previews and lists.
    public static func excerpt(_ message: Message) -> String {
        message.deleted ? deleted : TextExcerpt.make(message.kind.plainText)
    }
}

/// Every message of a conversation with threads or pins, with the page file it is drawn in.
final class MessageDirectory: Sendable {
    /// All the conversation's messages, ordered by date.
    let messages: [Message]
    /// Position in `messages` of every id (the first of a duplicate id).
    let indexOfMessage: [String: Int]
    /// The page files messages are drawn in (inside the conversation's folder), each once.
    let fileNames: [String]
    /// Per message of `messages`: its page file, as an index in `fileNames`. (A name per
    /// message would be a string per message; most share a page.)
    let fileOfMessage: [Int32]
    let participants: [String: Participant]

    init(
        messages: [Message], indexOfMessage: [String: Int], fileNames: [String], fileOfMessage: [Int32],
        participants: [String: Participant]
    ) {
        self.messages = messages
        self.indexOfMessage = indexOfMessage
        self.fileNames = fileNames
        self.fileOfMessage = fileOfMessage
        self.participants = participants
    }

    /// The page file of the message with `id`, if the conversation has one.
    func fileName(ofMessage id: String) -> String? {
        indexOfMessage[id].map(fileName(ofMessageAt:))
    }

    /// The page file of `messages[index]`.
    func fileName(ofMessageAt index: Int) -> String { fileNames[Int(fileOfMessage[index])] }

    func senderName(_ message: Message) -> String? {
        message.kind.name == .system ? nil : message.sender.map { participants[$0]?.name ?? $0 }
    }
}

/// A pinned message, as the conversation's header lists it.
public struct PinnedMessage: Hashable, Sendable {
    /// Its id (a link target, never a `data-message-id`).
    public var messageID: String
    /// The page file that holds it.
    public var fileName: String
    public var senderName: String?
    public var excerpt: String

    /// Creates a pinned-message entry.
    public init(messageID: String, fileName: String, senderName: String?, excerpt: String) {
        self.messageID = messageID
        self.fileName = fileName
        self.senderName = senderName
        self.excerpt = excerpt
    }
}

/// What a thread's root shows of it (`[data-part=thread]`).
public struct ThreadSummary: Hashable, Sendable {
    public var replyCount: Int
    /// Display names of who replied, each once, in the order they first replied.
    public var replierNames: [String]
    /// When the last reply was sent.
    public var lastReply: FormattedDate
    /// Whether the replies open in place under the root; otherwise they have their own pages.
    public var isInline: Bool
    /// The first page file of a thread with its own pages.
    public var firstFile: String

    /// Creates a summary.
    public init(replyCount: Int, replierNames: [String], lastReply: FormattedDate, isInline: Bool, firstFile: String) {
        self.replyCount = replyCount
        self.replierNames = replierNames
        self.lastReply = lastReply
        self.isInline = isInline
        self.firstFile = firstFile
    }
}

/// A thread: its root's id, its replies laid out as a conversation of their own, and its summary.
public struct ThreadPlan: Sendable {
    public let rootID: String
    /// The replies, planned by the same layouter (grouping, days, timestamps, pages).
    public let replies: ConversationPlan
    public let summary: ThreadSummary
}
