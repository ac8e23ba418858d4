import Foundation
import ScrollbackModel

/// Reads a Telegram Desktop `result.json` in bounded windows (`ImportContext.forEachChunk`,
/// `JSONChunkedReader`): memory holds one message's bytes and nodes at a time, plus the
/// conversations being built, never the file or its whole tree (a 100 MB export read as one tree
/// peaked at 594 MB).
///
/// Two passes over the file, as a chat's messages refer forward (pins, replies, to-do
/// completions) and its time zone is the most frequent offset of all of them:
/// 1. every small field (a chat's `name`, `id`, `type`; `personal_information`) is kept, and each
///    message is surveyed (`TelegramChatReader.Survey`) and dropped;
/// 2. each message is converted (`TelegramChatReader.add`) and dropped; a chat is handed on when
///    its object ends.
///
/// The conversations, counts and diagnostics are those of reading the file as one tree
/// (`TelegramImporter.readTree`): the same `TelegramChatReader` converts each message, and every
/// value keeps the line and column it has in the file.
struct TelegramStreamReader {
    let context: ImportContext
    let file: URL
    /// How diagnostics name the file.
    let shown: String
    /// The window the file is read in.
    var chunkSize = 1 << 20

    /// One chat of the file, as the first pass finds it.
    struct Chat {
        /// `$` (a one-chat export), `$.chats.list[3]` or `$.left_chats.list[0]`.
        var path: String
        var line = 1
        var column = 1
        /// The chat's members, its first `messages` array standing as an empty array where it is.
        var members: [JSONMember] = []
        /// The whole chat when it is not an object (nothing is streamed from it).
        var node: JSONNode?
        /// How many `messages` members the chat has had so far (only the first is read, as
        /// `JSONNode`'s subscript does).
        var messagesMembers = 0
        var survey = TelegramChatReader.Survey()

        /// The chat as `TelegramChatReader` reads it.
        var header: JSONNode { node ?? JSONNode(.object(members), line: line, column: column) }
    }

    /// What the first pass found.
    final class Survey {
        var root = Chat(path: "$")
        /// The whole document, when it is not an object (read as a tree, as small as it must be).
        var wholeRoot: JSONNode?
        var chats: [Chat] = []
        /// Which chat a path (`chats.list[3]`) names, in `chats`.
        var chatIndex: [String: Int] = [:]
        /// Whether `chats.list` and `left_chats.list` are arrays.
        var hasChatList = false
        var hasLeftChatList = false
    }

    /// The chat a value belongs to: the root's members and `messages`, or those of an element of
    /// `chats.list` / `left_chats.list`; with the path inside the chat.
    static func chatKey(_ path: [JSONPathStep]) -> (key: String, rest: ArraySlice<JSONPathStep>)? {
        if path.count >= 3, case .key(let group) = path[0], group == "chats" || group == "left_chats",
            path[1] == .key("list"), case .index(let index) = path[2]
        {
            return ("$.\(group).list[\(index)]", path[3...])
        }
        if path.count >= 1, path[0] != .key("chats"), path[0] != .key("left_chats") {
            return ("$", path[0...])
        }
        return nil
    }

    /// The containers the reader goes into: the root object, `chats` and `left_chats`, their
    /// `list`, each chat object, and each chat's `messages` array (whose elements are the values
    /// handed over one at a time). Everything else is parsed whole.
    static func descends(_ path: [JSONPathStep], isObject: Bool) -> Bool {
        switch path.count {
        case 0: return isObject
        case 1:
            if path[0] == .key("messages") { return !isObject }
            return isObject && (path[0] == .key("chats") || path[0] == .key("left_chats"))
        case 2: return !isObject && path[1] == .key("list") && path[0] != .key("messages")
        case 3: return isObject && chatKey(path) != nil
        case 4: return !isObject && path[3] == .key("messages") && chatKey(path) != nil
        default: return false
        }
    }

    /// Runs `handler` over the events of the whole file; `false` when it could not be read to
    /// its end (the located error went to `report`).
    func pass(report: (Diagnostic) -> Void, _ handler: @escaping (JSONChunkEvent) -> Void) -> Bool {
        var reader = JSONChunkedReader(file: shown, descends: Self.descends, handler: handler)
        do throws(Diagnostic) {
            let complete = try context.forEachChunk(of: file, shown: shown, chunkSize: chunkSize, report: report) {
                (chunk) throws(Diagnostic) in try reader.feed(chunk)
            }
            guard complete else { return false }
            try reader.finish()
            return true
        } catch {
            report(error)
            return false
        }
    }

    /// Reads the file's chats, handing each conversation to `emit` in the order the tree reader
    /// does (`chats.list`, then `left_chats.list`); problems of the file as a whole go to `report`.
    func read(report: (Diagnostic) -> Void, emit: (ImportedConversation) -> Void) {
        let survey = Survey()
        guard pass(report: report, { Self.survey($0, into: survey) }) else { return }
        if let whole = survey.wholeRoot {
            TelegramImporter.read(root: whole, file: file, shown: shown, context: context, report: report, emit: emit)
            return
        }
        let root = survey.root.header
        var order: [Int] = []
        if survey.hasChatList {
            order = survey.chats.indices.filter { survey.chats[$0].path.hasPrefix("$.chats.") }
            if survey.hasLeftChatList {
                order += survey.chats.indices.filter { survey.chats[$0].path.hasPrefix("$.left_chats.") }
            }
        } else if root["messages"] != nil {
            survey.chats = [survey.root]
            survey.chatIndex = ["$": 0]
            order = [0]
        } else {
            report(.error(.missingField("messages"), at: root.location(in: shown)))
            return
        }
        let owner =
            root["personal_information"]?["user_id"].flatMap(TelegramChatReader.idText)
            ?? (survey.hasChatList ? TelegramChatReader.owner(of: survey.chats.map { ($0.header, $0.survey) }) : nil)
        let readers = survey.chats.map { chat in
            TelegramChatReader(
                context: context, file: file, shownFile: shown, chat: chat.header, path: chat.path, owner: owner)
        }
        // Second pass: each chat's conversion, handed on in `order` as the chats end.
        final class Conversions {
            var open: [TelegramChatReader.Conversion?] = []
            var done: [Int: ImportedConversation] = [:]
            var messagesMembers: [Int] = []
        }
        let state = Conversions()
        state.open = survey.chats.indices.map { readers[$0].start(survey.chats[$0].survey) }
        state.messagesMembers = Array(repeating: 0, count: survey.chats.count)
        let wanted = Set(order)
        let chatIndex = survey.chatIndex
        let read = pass(report: report) { event in
            switch event {
            case .open(let path, _, _, _, _):
                guard let (key, rest) = Self.chatKey(path), rest.count == 1, rest.first == .key("messages"),
                    let index = chatIndex[key]
                else { return }
                state.messagesMembers[index] += 1
            case .value(let path, let node, _):
                guard let (key, rest) = Self.chatKey(path), let index = chatIndex[key], wanted.contains(index)
                else { return }
                if rest.count == 1, rest.first == .key("messages") { state.messagesMembers[index] += 1 }
                guard rest.count == 2, rest.first == .key("messages"), case .index(let position) = rest.last,
                    state.messagesMembers[index] == 1, state.open[index] != nil
                else { return }
                readers[index].add(node, at: position, to: &state.open[index]!)
            case .close(let path):
                let key = path.isEmpty ? "$" : Self.chatKey(path).flatMap { $0.rest.isEmpty ? $0.key : nil }
                guard let key, let index = chatIndex[key], wanted.contains(index), let conversion = state.open[index]
                else { return }
                state.open[index] = nil
                state.done[index] = readers[index].finish(conversion)
            }
        }
        guard read else { return }
        for index in order {
            if let conversation = state.done.removeValue(forKey: index) {
                emit(conversation)
            } else if let conversion = state.open[index] {
                // A chat that is not an object: nothing streamed, its error is in the conversion.
                state.open[index] = nil
                emit(readers[index].finish(conversion))
            }
        }
    }

    /// The first pass: keeps the small fields of the root and of each chat, surveys each message.
    static func survey(_ event: JSONChunkEvent, into survey: Survey) {
        switch event {
        case .open(let path, _, let line, let column, let key):
            if path.isEmpty {
                (survey.root.line, survey.root.column) = (line, column)
                return
            }
            if path.count == 2, path[1] == .key("list") {
                if path[0] == .key("chats") { survey.hasChatList = true }
                if path[0] == .key("left_chats") { survey.hasLeftChatList = true }
                return
            }
            guard let (chatKey, rest) = chatKey(path) else { return }
            if rest.isEmpty {
                survey.chatIndex[chatKey] = survey.chats.count
                survey.chats.append(Chat(path: chatKey, line: line, column: column))
                return
            }
            guard rest.count == 1, rest.first == .key("messages"), let key else { return }
            // A `messages` array: an empty one stands for it among the chat's members.
            update(chatKey, in: survey) { chat in
                chat.members.append(
                    JSONMember(
                        key: key.name, value: JSONNode(.array([]), line: line, column: column), keyLine: key.line,
                        keyColumn: key.column))
                chat.messagesMembers += 1
            }
        case .value(let path, let node, let key):
            if path.isEmpty {
                survey.wholeRoot = node
                return
            }
            guard let (chatKey, rest) = chatKey(path) else { return }
            if rest.isEmpty {
                // An element of `chats.list` that is not an object.
                survey.chatIndex[chatKey] = survey.chats.count
                survey.chats.append(Chat(path: chatKey, line: node.line, column: node.column, node: node))
                return
            }
            update(chatKey, in: survey) { chat in
                if rest.count == 1, let key {
                    chat.members.append(
                        JSONMember(key: key.name, value: node, keyLine: key.line, keyColumn: key.column))
                    if key.name == "messages" { chat.messagesMembers += 1 }
                } else if rest.count == 2, rest.first == .key("messages"), chat.messagesMembers == 1 {
                    chat.survey.add(node)
                }
            }
        case .close:
            return
        }
    }

    /// Changes the chat `key` names (the root's members are `$`'s).
    private static func update(_ key: String, in survey: Survey, _ change: (inout Chat) -> Void) {
        if key == "$" {
            change(&survey.root)
        } else if let index = survey.chatIndex[key] {
            change(&survey.chats[index])
        }
    }
}
