import Foundation
import ScrollbackModel

/// Telegram Desktop's JSON export (spec §6): `result.json` of one chat (`name`, `type`, `id`,
/// `messages`) or of a whole account (`chats.list`, `left_chats.list`); one conversation per chat.
///
/// Choices where Telegram's format leaves room:
/// - Dates: `date_unixtime` is the instant and `date` the exporter's wall clock; their difference
///   is the conversation's time zone (`TelegramClock`). A fake `date_unixtime` (`"0000000000"`, or
///   one far from `date`) is ignored and `date` read in that zone.
/// - `me`: a whole-account export names its owner (`personal_information.user_id`), who is `me`
///   in each chat where they wrote or reacted; one exported without its account information
///   names them all the same through its personal chats (`TelegramChatReader.owner(of:)`). A
///   one-chat export does not, but in a `personal_chat` (or `bot_chat`) the chat's id is the
///   other person's (the bot's), so the other participant is `me`, and in `saved_messages` it
///   is the owner's own. Otherwise the config's `me:` or `--me` says (a one-to-one chat without
///   gets a warning; groups and channels, by their `type`, do not).
/// - Conversation id: the chat's name and its id as a slug (`sample-chat-group-69420`): the id
///   is unique in Telegram, so chats of one name never collide, across files too.
public enum TelegramImporter: ExportImporter {
    public static let format = ExportFormat.telegram
    public static let shape = ExportShape.file

    /// One chat (`messages` with `type` and `id`, and no `participants` of a native log), or a
    /// whole account (`chats` with `personal_information` or `about`).
    public static func detect(_ candidate: ExportCandidate) -> Bool {
        guard !candidate.isDirectory else { return false }
        let keys = candidate.topLevelJSONKeys
        if keys.contains("chats"), keys.contains("personal_information") || keys.contains("about") { return true }
        guard keys.contains("messages"), !keys.contains("participants"), !keys.contains("guild") else { return false }
        if keys.contains("type") && keys.contains("id") { return true }
        // Keys written in another order (a tool re-saved it): Telegram's own message fields.
        let head = candidate.head
        return ["\"date_unixtime\"", "\"text_entities\""].contains { marker in
            head.firstRange(of: Array(marker.utf8)) != nil
        }
    }

    /// Reads each file in bounded windows (`TelegramStreamReader`): a whole-account export of
    /// hundreds of megabytes is never held in memory whole.
    public static func read(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic] {
        var exportDiagnostics: [Diagnostic] = []
        for file in export.items {
            TelegramStreamReader(context: context, file: file, shown: context.displayPath(file)).read(
                report: { exportDiagnostics.append($0) }, emit: emit)
        }
        return exportDiagnostics
    }

    /// Reads each file as one tree: what the streaming reader is checked against (tests).
    static func readTree(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic] {
        var exportDiagnostics: [Diagnostic] = []
        for file in export.items {
            let shown = context.displayPath(file)
            guard let root = context.parseJSON(file, shown: shown, report: { exportDiagnostics.append($0) }) else {
                continue
            }
            read(
                root: root, file: file, shown: shown, context: context, report: { exportDiagnostics.append($0) },
                emit: emit)
        }
        return exportDiagnostics
    }

    /// Reads the chats of the document `root` of `file`.
    static func read(
        root: JSONNode, file: URL, shown: String, context: ImportContext, report: (Diagnostic) -> Void,
        emit: (ImportedConversation) -> Void
    ) {
        var chats: [(node: JSONNode, path: String)] = []
        if let list = root["chats"]?["list"]?.elements {
            chats += list.enumerated().map { ($0.element, "$.chats.list[\($0.offset)]") }
            if let left = root["left_chats"]?["list"]?.elements {
                chats += left.enumerated().map { ($0.element, "$.left_chats.list[\($0.offset)]") }
            }
        } else if root["messages"] != nil {
            chats.append((root, "$"))
        } else {
            report(.error(.missingField("messages"), at: root.location(in: shown)))
            return
        }
        // The account owner is `me` only in the chats where they are a participant: a log's `me`
        // must name one (a chat they never wrote or reacted in has no right-aligned side).
        let owner =
            root["personal_information"]?["user_id"].flatMap(TelegramChatReader.idText)
            ?? (root["chats"] == nil
                ? nil
                : TelegramChatReader.owner(
                    of: chats.map { chat in
                        var survey = TelegramChatReader.Survey()
                        for message in chat.node["messages"]?.elements ?? [] { survey.add(message) }
                        return (chat.node, survey)
                    }))
        for chat in chats {
            let reader = TelegramChatReader(
                context: context, file: file, shownFile: shown, chat: chat.node, path: chat.path, owner: owner)
            emit(reader.read())
        }
    }
}
