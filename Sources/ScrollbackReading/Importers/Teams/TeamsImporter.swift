import Foundation
import ScrollbackModel

/// Microsoft Teams tenant exports (issue 43): the folder Microsoft Graph exporters write, with
/// PascalCase keys (Graph's objects as the PowerShell SDK serialises them):
///
/// - `teams/teamsList.json` (the teams: `GroupsId`, `Name`), and per team `teams/<id>/`
///   with `channels_<id>.json` (`Id`, `DisplayName`, `MembershipType`) and `messages_<id>.json`
///   (every channel's messages, each naming its `ChannelIdentity`);
/// - `users/usersList.json` (`Id`, `DisplayName`), and per user `users/<id>/messages_<id>.json`:
///   the chats that user is in, each message naming its `ChatId`.
///
/// Mapping: one conversation per channel (titled "team › channel") and one per chat (`ChatId`),
/// wherever the export holds its messages (a chat in two users' folders is one conversation; the
/// second copy of a message is left out with that reason). Ids come from the source: a channel's
/// from its team and channel names, a one-to-one chat's from the other person's name, a group
/// chat's from its `ChatId` (names change as people join), resolved by `ConversationIDs`; a
/// message's id is its `Id` (its creation in milliseconds), so a newer export keeps every
/// permalink. `me`: the owner of the user folder a chat was read from (`messages_<id>.json` of
/// `users/<id>/` is that user's copy); channels have none (the tenant export is an
/// administrator's, not a member's). Times are Graph's UTC instants: the site's zone shows them.
/// Messages are read by `TeamsMessage`, system events by `TeamsEvent`.
///
/// The folder is found from its root, from `teams/` or `users/` alone, or from one team's or
/// user's folder; a lone `messages_<id>.json` is read by `TeamsFileImporter`. Other files of
/// the export (`teamMembers_…`, `teamsSettings.json`, apps) hold no message and are not read.
public enum TeamsImporter: ExportImporter {
    public static let format = ExportFormat.teams
    public static let shape = ExportShape.folder

    /// A folder holding `teams/teamsList.json` or `users/usersList.json`, that list file itself
    /// (the `teams/` or `users/` folder), or a `messages_<id>.json` / `channels_<id>.json` of
    /// Graph objects (one team's or user's folder). Judged by the lists' first keys.
    public static func detect(_ candidate: ExportCandidate) -> Bool {
        guard candidate.isDirectory else { return false }
        let names = candidate.entryNames()
        let url = candidate.url
        for (folder, list) in [("teams", "teamsList.json"), ("users", "usersList.json")] where names.contains(folder) {
            if isList(url.appendingPathComponent(folder).appendingPathComponent(list), named: list) { return true }
        }
        for list in ["teamsList.json", "usersList.json"] where names.contains(list) {
            if isList(url.appendingPathComponent(list), named: list) { return true }
        }
        for name in names.sorted() where role(ofFile: name) == .messages || role(ofFile: name) == .channels {
            if isList(url.appendingPathComponent(name), named: name) { return true }
        }
        return false
    }

    /// What a file of the export holds, by its name.
    enum FileRole: Equatable {
        case teamsList, usersList, channels, messages, other
    }

    static func role(ofFile name: String) -> FileRole {
        if name == "teamsList.json" { return .teamsList }
        if name == "usersList.json" { return .usersList }
        guard name.hasSuffix(".json") else { return .other }
        if name.hasPrefix("channels_") { return .channels }
        if name.hasPrefix("messages_") { return .messages }
        return .other
    }

    /// The `<id>` of `messages_<id>.json` or `channels_<id>.json`.
    static func ownerID(ofFile name: String) -> String? {
        guard let underscore = name.firstIndex(of: "_"), name.hasSuffix(".json") else { return nil }
        let id = name[name.index(after: underscore)...].dropLast(".json".count)
        return id.isEmpty ? nil : String(id)
    }

    /// The keys a list file's first object has, for each role: Graph's PascalCase names.
    static func isList(_ file: URL, named name: String) -> Bool {
        let keys = JSONSniff.firstArrayElementKeys(ExportCandidate(url: file).trimmedHead)
        return matches(keys, role: role(ofFile: name))
    }

    /// Whether the first element's keys are those of a list of this role.
    static func matches(_ keys: Set<String>, role: FileRole) -> Bool {
        switch role {
        case .teamsList: return keys.contains("GroupsId")
        case .usersList: return keys.contains("Id") && (keys.contains("UserPrincipalName") || keys.contains("Mail"))
        case .channels: return keys.contains("Id") && keys.contains("MembershipType")
        case .messages:
            return keys.contains("Id") && keys.contains("CreatedDateTime")
                && (keys.contains("ChatId") || keys.contains("ChannelIdentity") || keys.contains("MessageType"))
        case .other: return false
        }
    }

    /// The export's files, by role, each with how diagnostics name it.
    struct Files {
        var teamsLists: [URL] = []
        var usersLists: [URL] = []
        var channels: [URL] = []
        var messages: [URL] = []

        mutating func add(_ file: URL) {
            switch TeamsImporter.role(ofFile: file.lastPathComponent) {
            case .teamsList: teamsLists.append(file)
            case .usersList: usersLists.append(file)
            case .channels: channels.append(file)
            case .messages: messages.append(file)
            case .other: break
            }
        }
    }

    public static func read(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var files = Files()
        for item in export.items {
            if SlackExportPaths.isFolder(item.path) {
                collect(folder: item, root: item, depth: 0, into: &files, context: context, diagnostics: &diagnostics)
            } else if role(ofFile: item.lastPathComponent) == .other {
                files.messages.append(item)  // a lone messages file, by its content (`TeamsFileImporter`)
            } else {
                files.add(item)
            }
        }
        func parse(_ file: URL) -> (JSONNode, String)? {
            let shown = context.displayPath(file)
            guard let root = context.parseJSON(file, shown: shown, report: { diagnostics.append($0) }) else {
                return nil
            }
            guard root.elements != nil else {
                diagnostics.append(
                    .error(
                        .wrongType(field: "(top level)", expected: "an array of Graph objects, not \(root.typeName)"),
                        at: root.location(in: shown)))
                return nil
            }
            return (root, shown)
        }
        var directory = TeamsDirectory()
        for file in files.usersLists { if let (root, _) = parse(file) { directory.addUsers(root) } }
        for file in files.teamsLists { if let (root, _) = parse(file) { directory.addTeams(root) } }
        for file in files.channels {
            guard let (root, _) = parse(file) else { continue }
            directory.addChannels(root, teamID: ownerID(ofFile: file.lastPathComponent) ?? "")
        }
        var sources: [TeamsSource] = []
        for file in files.messages {
            guard let (root, shown) = parse(file) else { continue }
            let source = TeamsSource(
                file: file, shown: shown, relative: context.relativePath(file),
                owner: ownerID(ofFile: file.lastPathComponent), records: root.elements ?? [])
            directory.addNames(from: source.records)
            sources.append(source)
        }
        let grouping = TeamsGrouping(sources: sources, directory: directory)
        diagnostics += grouping.diagnostics
        let exportKey = export.items.first.map { context.relativePath($0) } ?? "teams"
        let chats = grouping.conversations
        let ids = ConversationIDs.resolve(chats.map { $0.claim(directory) })
        let items = chats.indices.map { (chats[$0], ids[$0]) }
        let (finalDirectory, finalSources) = (directory, sources)
        ReadAhead.run(
            items,
            read: { item in
                TeamsConversationReader(
                    chat: item.0, id: item.1, exportKey: exportKey, directory: finalDirectory, sources: finalSources,
                    context: context
                ).read()
            }, emit: emit)
        return diagnostics
    }

    /// Adds the export files under `folder` (three levels down at most: `teams/<id>/messages_…`),
    /// in name order. A file or folder that is a link leading out of the export is refused.
    static func collect(
        folder: URL, root: URL, depth: Int, into files: inout Files, context: ImportContext,
        diagnostics: inout [Diagnostic]
    ) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        for name in names where !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            let isFolder = SlackExportPaths.isFolder(url.path)
            guard isFolder || role(ofFile: name) != .other else { continue }
            if SlackExportPaths.isSymlink(url.path), !InputContainment.resolves(url.path, inside: root.path) {
                diagnostics.append(
                    SlackImporter.escapes(name, at: SourceLocation(file: context.displayPath(url), line: 1, column: 1)))
                continue
            }
            if isFolder {
                if depth < 2 {
                    collect(
                        folder: url, root: root, depth: depth + 1, into: &files, context: context,
                        diagnostics: &diagnostics)
                }
            } else {
                files.add(url)
            }
        }
    }
}

/// A lone `messages_<id>.json` of a Teams export (a team's or a user's), given as INPUT or
/// found outside a folder `TeamsImporter` recognises: read by `TeamsImporter.read` (names come
/// from the messages themselves, a channel is titled by its ids).
public enum TeamsFileImporter: ExportImporter {
    public static let format = ExportFormat.teams
    public static let shape = ExportShape.file

    /// A JSON array whose first object has Graph's chat message keys (`Id`, `CreatedDateTime`,
    /// and `ChatId`, `ChannelIdentity` or `MessageType`).
    public static func detect(_ candidate: ExportCandidate) -> Bool {
        guard !candidate.isDirectory else { return false }
        return TeamsImporter.matches(JSONSniff.firstArrayElementKeys(candidate.trimmedHead), role: .messages)
    }

    public static func read(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic] {
        TeamsImporter.read(export, context: context, emit: emit)
    }
}
