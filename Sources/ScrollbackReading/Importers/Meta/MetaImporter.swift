import Foundation
import ScrollbackModel

/// Meta's "Download your information" JSON, from Facebook Messenger and from Instagram (spec §6,
/// issue 43): one folder per thread (`messages/inbox/<name>_<id>/`, under
/// `your_activity_across_facebook/` or `your_instagram_activity/` in newer downloads) holding
/// `message_1.json`, `message_2.json`, … (newest first, split across parts) and the thread's
/// media; and Messenger's separate end-to-end encrypted download (one `<Name>_<n>.json` per
/// chat, camelCase keys, media in a shared `media/` folder).
///
/// Mapping: the parts of one thread (same `thread_path`, or the same file) are one conversation,
/// oldest first; its id is the last part of `thread_path` (`ana_12345` → `ana-12345`), which a
/// later download of the same chat keeps, else the E2EE `threadName`, else the file name.
/// Message ids are the `timestamp_ms` (`-2`, `-3` for a second message of the same millisecond,
/// in time order), so a newer export keeps every permalink. Text is undone from Meta's
/// byte-per-scalar mojibake (`MetaText.decoded`). Photos, gifs, videos, audio, files, stickers
/// and E2EE `media` are the export's files, resolved inside the thread's folder; shares are link
/// cards; reactions keep their `actor`; unsent messages are deleted messages (their reactions
/// stay); calls, added and removed members, and third-person notices ("Ana named the group …")
/// are system lines. In a chat of two whose title names one of them, the other is `me` (Meta
/// titles a one-to-one chat after the other person). The app pill says Messenger or Instagram
/// (`MetaText.product`).
///
/// Every element of `messages` is one message, or left out with its reason in the ledger and a
/// located warning (not an object, no readable timestamp).
public enum MetaImporter: ExportImporter {
    public static let format = ExportFormat.meta
    public static let shape = ExportShape.file

    /// A JSON object with `messages` whose first bytes name `sender_name` and `timestamp_ms` (or
    /// `thread_path`, for a thread with no message), or the E2EE download's `threadName` or
    /// `senderName` with `isUnsent`.
    public static func detect(_ candidate: ExportCandidate) -> Bool {
        guard !candidate.isDirectory else { return false }
        let keys = candidate.topLevelJSONKeys
        guard !keys.contains("version") else { return false }  // a Scrollback log
        let head = candidate.trimmedHead
        func mentions(_ key: String) -> Bool { head.firstRange(of: Array("\"\(key)\"".utf8)) != nil }
        if keys.contains("messages"),
            keys.contains("thread_path") || mentions("sender_name") && mentions("timestamp_ms")
        {
            return true
        }
        return keys.contains("threadName") && keys.contains("participants")
            || keys.contains("messages") && mentions("senderName") && mentions("isUnsent")
    }

    /// One file of a thread, parsed.
    struct Part {
        let file: URL
        let shown: String
        let root: JSONNode
        /// `N` of `message_N.json` (the larger, the older), 0 for other names.
        let number: Int
    }

    public static func read(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var order: [String] = []
        var threads: [String: [Part]] = [:]
        for file in export.items {
            let shown = context.displayPath(file)
            guard let root = context.parseJSON(file, shown: shown, report: { diagnostics.append($0) }) else {
                continue
            }
            guard root.members != nil else {
                diagnostics.append(
                    .error(
                        .wrongType(
                            field: "(top level)", expected: "a thread object with messages, not \(root.typeName)"),
                        at: root.location(in: shown)))
                continue
            }
            // The parts of one thread name the same `thread_path`; a file without one is its own thread.
            let thread = root["thread_path"]?.string.map { "thread:" + $0 } ?? "file:" + file.path
            if threads[thread] == nil { order.append(thread) }
            threads[thread, default: []].append(
                Part(file: file, shown: shown, root: root, number: partNumber(file.lastPathComponent)))
        }
        for thread in order {
            // Oldest part first: `message_2.json` holds what came before `message_1.json`.
            let parts = threads[thread]!.sorted {
                $0.number != $1.number ? $0.number > $1.number : $0.file.path < $1.file.path
            }
            emit(conversation(parts, context: context))
        }
        return diagnostics
    }

    /// `N` of `message_N.json`, else 0.
    static func partNumber(_ name: String) -> Int {
        guard name.hasPrefix("message_"), name.hasSuffix(".json") else { return 0 }
        return Int(name.dropFirst("message_".count).dropLast(".json".count)) ?? 0
    }

    /// The conversation of one thread's parts (oldest first).
    static func conversation(_ parts: [Part], context: ImportContext) -> ImportedConversation {
        let first = parts[0]
        let root = first.root
        let threadPath = root["thread_path"]?.string
        let e2eeName = root["threadName"]?.string
        let title = (root["title"]?.string).map(MetaText.decoded) ?? e2eeName.map { Self.e2eeTitle($0) }
        let fileStem = PathText.deletingExtension(first.file.lastPathComponent)
        let idSource = threadPath.map { PathText.lastComponent($0) } ?? e2eeName ?? title ?? fileStem
        var assembler = ConversationAssembler(
            format: .meta, id: idSource.isEmpty ? fileStem : idSource, title: title,
            key: context.relativePath(first.file.deletingLastPathComponent()) + "/meta-"
                + (threadPath ?? first.file.lastPathComponent),
            sourceFiles: parts.map(\.shown), location: SourceLocation(file: first.shown, line: 1, column: 1))
        for participant in root["participants"]?.elements ?? [] {
            guard let name = (participant["name"]?.string ?? participant.string).map(MetaText.decoded) else { continue }
            assembler.addParticipant(Participant(id: name, name: name))
        }
        // Meta says which kind of thread it is (the E2EE download does not): `Regular` is two
        // people, `RegularGroup` a group.
        switch root["thread_type"]?.string {
        case "Regular": assembler.chatType = .direct
        case "RegularGroup": assembler.chatType = .group
        default: break
        }
        let product = MetaText.product(
            paths: parts.flatMap { [$0.file.path, $0.shown] }, groupLink: root["joinable_mode"]?["link"]?.string)
        var ids = MetaMessage.IDs()
        for part in parts {
            guard let messages = part.root["messages"]?.elements else {
                assembler.report(.error(.missingField("messages"), at: part.root.location(in: part.shown)))
                continue
            }
            let place = MetaMessage.Place(
                file: part.file, shown: part.shown, context: context, product: product,
                folderComponents: part.file.deletingLastPathComponent().standardizedFileURL.pathComponents)
            assembler.reserveCapacity(messages.count)
            // In time order, so a second message of one millisecond gets `-2` on every export:
            // Meta writes newest first (a part whose times are all equal too); the E2EE download
            // (`timestamp`, not `timestamp_ms`) may not.
            let firstTime = messages.first.flatMap(MetaMessage.timestamp) ?? 0
            let lastTime = messages.last.flatMap(MetaMessage.timestamp) ?? 0
            let newestFirst = firstTime > lastTime || firstTime == lastTime && root["threadName"] == nil
            for index in newestFirst ? Array(messages.indices.reversed()) : Array(messages.indices) {
                MetaMessage.read(messages[index], index: index, in: place, ids: &ids, into: &assembler)
            }
        }
        // Meta titles a one-to-one chat after the other person: the exporter is the other one.
        if let title { assembler.setMe(oppositeOf: title) }
        return assembler.finish()
    }

    /// The folders a newer download puts `messages/` in.
    static let activityFolders = [
        "your_activity_across_facebook/", "your_facebook_activity/", "your_instagram_activity/",
    ]

    /// Whether the file at `path` lies in an unpacked Meta download: a folder above it, up to and
    /// including `root`, holds `messages/inbox/` (directly or in one of `activityFolders`). The
    /// download's other JSON files (profile, settings, activity) hold no chat: discovery notes
    /// them instead of reading them as broken logs.
    public static func liesInDownload(_ path: String, within root: String) -> Bool {
        var folder = PathText.parent(path)
        while folder == root || folder.hasPrefix(root == "/" ? "/" : root + "/") {
            for prefix in [""] + activityFolders {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(
                    atPath: folder + "/" + prefix + "messages/inbox", isDirectory: &isFolder),
                    isFolder.boolValue
                {
                    return true
                }
            }
            if folder == root || folder == "/" { break }
            folder = PathText.parent(folder)
        }
        return false
    }

    /// The E2EE download's `threadName` (`Ana Silva_40`) without the number Meta adds.
    static func e2eeTitle(_ name: String) -> String {
        guard let underscore = name.lastIndex(of: "_"),
            !name[name.index(after: underscore)...].isEmpty,
            name[name.index(after: underscore)...].allSatisfy(\.isASCII),
            name[name.index(after: underscore)...].allSatisfy(\.isNumber), underscore != name.startIndex
        else { return name }
        return String(name[..<underscore])
    }
}
