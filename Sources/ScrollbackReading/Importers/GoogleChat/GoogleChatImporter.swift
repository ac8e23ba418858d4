import Foundation
import ScrollbackModel

/// Google Chat from Google Takeout (issue 43): a `Google Chat` folder holding `Groups/` (one
/// folder per conversation, `DM <id>` or `Space <id>`, each with `messages.json`,
/// `group_info.json` and the attachments) and `Users/User <id>/user_info.json` (the account
/// that made the Takeout).
///
/// Mapping: each `Groups/<name>` folder is one conversation, titled by `group_info.json`'s
/// `name` (a Space), else by its other members' names (a DM); its id is the slug of that title,
/// or `<slug>-<folder>` when two conversations share it (`ConversationIDs`). Members are keyed by
/// e-mail (by name when a deleted account has none); `user_info.json`'s `user` is `me`, so a
/// Takeout read without its `Users/` folder has no `me`. Messages (`GoogleChatMessage`) keep
/// their `message_id`'s last part as id, which a newer Takeout keeps; a reply in a threaded
/// Space names its topic (`topic_id`) as its thread.
///
/// Detected as a folder: the `Google Chat` folder itself (it holds `Groups/`), or one
/// conversation's folder on its own (it holds a Google Chat `messages.json`). A lone
/// `messages.json` given as INPUT is not read: its folder is the export.
public enum GoogleChatImporter: ExportImporter {
    public static let format = ExportFormat.googlechat
    public static let shape = ExportShape.folder

    public static func detect(_ candidate: ExportCandidate) -> Bool {
        guard candidate.isDirectory else { return false }
        let names = candidate.entryNames()
        if names.contains("messages.json") {
            return isMessagesFile(candidate.url.appendingPathComponent("messages.json"))
        }
        guard names.contains("Groups") else { return false }
        return groupFolders(in: candidate.url.appendingPathComponent("Groups")).contains {
            isMessagesFile($0.appendingPathComponent("messages.json"))
        }
    }

    /// Whether `file` starts as Google Chat's `messages.json`: an object whose `messages` hold
    /// a `creator` with a `created_date` or a `topic_id` (or no message at all).
    static func isMessagesFile(_ file: URL) -> Bool {
        let candidate = ExportCandidate(url: file)
        guard candidate.topLevelJSONKeys.contains("messages") else { return false }
        let head = candidate.trimmedHead
        func mentions(_ key: String) -> Bool { head.firstRange(of: Array("\"\(key)\"".utf8)) != nil }
        let empty = head.firstRange(of: Array(#""messages": []"#.utf8)) != nil
        return empty || mentions("creator") && (mentions("created_date") || mentions("topic_id"))
    }

    /// The conversation folders under `groups`, sorted by name.
    static func groupFolders(in groups: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: groups.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { groups.appendingPathComponent($0) }.filter {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: $0.path, isDirectory: &isFolder) && isFolder.boolValue
        }
    }

    /// One conversation folder, with what its `group_info.json` says.
    struct Group {
        let folder: URL
        let messages: URL
        let shown: String
        let title: String
        let isSpace: Bool
        let members: [Participant]
    }

    public static func read(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        guard let folder = export.items.first else { return [] }
        let groupsFolder = folder.appendingPathComponent("Groups")
        let holdsGroups = FileManager.default.fileExists(atPath: groupsFolder.path)
        let folders = holdsGroups ? groupFolders(in: groupsFolder) : [folder]
        let me = holdsGroups ? owner(of: folder, context: context, diagnostics: &diagnostics) : nil
        var groups: [Group] = []
        for each in folders {
            let messages = each.appendingPathComponent("messages.json")
            guard FileManager.default.fileExists(atPath: messages.path) || !context.readsFromDisk else {
                // A group folder without messages (Takeout writes one for a chat with none kept).
                diagnostics.append(
                    Diagnostic(
                        .note, .other("a Google Chat conversation folder without messages.json; skipped"),
                        at: SourceLocation(file: context.displayPath(each), line: 1, column: 1)))
                continue
            }
            groups.append(group(each, messages: messages, me: me, context: context, diagnostics: &diagnostics))
        }
        let ids = ConversationIDs.resolve(
            groups.map { .init(slug: ConversationSlug.make(from: $0.title), sourceID: $0.folder.lastPathComponent) })
        for (group, id) in zip(groups, ids) {
            emit(GoogleChatMessage.conversation(group, id: id, me: me, context: context))
        }
        return diagnostics
    }

    /// The e-mail (else the name) of the Takeout's owner: `Users/<one folder>/user_info.json`'s
    /// `user`. `nil` without one, or when several users' folders leave it open.
    static func owner(of folder: URL, context: ImportContext, diagnostics: inout [Diagnostic]) -> String? {
        let users = groupFolders(in: folder.appendingPathComponent("Users"))
            .map { $0.appendingPathComponent("user_info.json") }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
        guard users.count == 1, let file = users.first else { return nil }
        let shown = context.displayPath(file)
        guard let root = context.parseJSON(file, shown: shown, report: { diagnostics.append($0) }) else { return nil }
        let user = root["user"]
        return (user?["email"]?.string).flatMap { $0.isEmpty ? nil : $0 } ?? user?["name"]?.string
    }

    /// A member's id: the e-mail, else the name (a deleted account keeps only its name).
    static func memberID(_ node: JSONNode?) -> String? {
        if let email = node?["email"]?.string, !email.isEmpty { return email }
        if let name = node?["name"]?.string, !name.isEmpty { return name }
        return nil
    }

    /// The group in `folder`: its title and members from `group_info.json` (missing: the folder's
    /// name, members as they write).
    static func group(
        _ folder: URL, messages: URL, me: String?, context: ImportContext, diagnostics: inout [Diagnostic]
    ) -> Group {
        let infoFile = folder.appendingPathComponent("group_info.json")
        var members: [Participant] = []
        var name: String?
        if FileManager.default.fileExists(atPath: infoFile.path) || !context.readsFromDisk,
            let info = context.parseJSON(
                infoFile, shown: context.displayPath(infoFile),
                report: { if context.readsFromDisk { diagnostics.append($0) } })
        {
            name = info["name"]?.string.flatMap { $0.isEmpty ? nil : $0 }
            for member in info["members"]?.elements ?? [] {
                guard let id = memberID(member) else { continue }
                members.append(
                    Participant(id: id, name: member["name"]?.string.flatMap { $0.isEmpty ? nil : $0 } ?? id))
            }
        }
        let others = members.filter { $0.id != me }.map(\.name)
        let folderName = folder.lastPathComponent
        let title =
            name
            ?? (others.isEmpty
                ? (members.isEmpty ? folderName : members.map(\.name).joined(separator: ", "))
                : others.joined(separator: ", "))
        return Group(
            folder: folder, messages: messages, shown: context.displayPath(messages), title: title,
            isSpace: name != nil || folderName.hasPrefix("Space "), members: members)
    }
}
