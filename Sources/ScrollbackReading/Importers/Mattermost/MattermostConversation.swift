import Foundation
import ScrollbackModel

/// One Mattermost conversation (a channel or a direct channel, `MattermostImporter`): its posts'
/// lines parsed again, each post and each of its replies one message.
struct MattermostConversation {
    let channel: MattermostChannel
    let id: String
    let bytes: [UInt8]
    let file: URL
    let shown: String
    let directory: MattermostDirectory
    let context: ImportContext

    /// A post or a reply, before it gets its id.
    struct Record {
        let node: JSONNode
        /// Milliseconds since 1970, `nil` when the record has none readable.
        let milliseconds: Double?
        /// The root post's record index, for a reply.
        let root: Int?
        /// Where it is: `post.replies[2]`.
        let path: String
        let line: Int
    }

    func read() -> ImportedConversation {
        var assembler = ConversationAssembler(
            format: .mattermost, id: id, title: title,
            key: context.relativePath(file) + "/mattermost-" + channel.key, sourceFiles: [shown],
            location: SourceLocation(file: shown, line: channel.lines.first?.line ?? 1, column: 1))
        assembler.section = section
        assembler.description = description
        switch channel.kind {
        case .open: assembler.chatType = .channel
        case .direct: assembler.chatType = .direct
        case .group: assembler.chatType = .group
        }
        for member in channel.members {
            assembler.addParticipant(Participant(id: member, name: directory.name(member)))
        }
        var records: [Record] = []
        for (range, line) in channel.lines {
            // Parsed once already by the scan, so it parses again.
            guard let node = try? JSONParser.parse(Array(bytes[range]), file: shown, firstLine: line),
                let type = node["type"]?.string, let post = node[type]
            else { continue }
            let rootIndex = records.count
            records.append(
                Record(node: post, milliseconds: Self.milliseconds(post), root: nil, path: type, line: line))
            for (number, reply) in (post["replies"]?.elements ?? []).enumerated() {
                records.append(
                    Record(
                        node: reply, milliseconds: Self.milliseconds(reply), root: rootIndex,
                        path: type + ".replies[\(number)]", line: reply.line))
            }
        }
        // Ids in time order, ties by sender and text (then file order), so a second post of one
        // millisecond is `-2` on every export whatever order its lines come in; a reply names its
        // root by the root's id. Messages are appended in that order too; the ones without a
        // readable time are left out after them.
        func tie(_ index: Int) -> (String, String) {
            (records[index].node["user"]?.string ?? "", records[index].node["message"]?.string ?? "")
        }
        let order = records.indices.filter { records[$0].milliseconds != nil }.sorted {
            if records[$0].milliseconds! != records[$1].milliseconds! {
                return records[$0].milliseconds! < records[$1].milliseconds!
            }
            return tie($0) != tie($1) ? tie($0) < tie($1) : $0 < $1
        }
        var ids = MetaMessage.IDs()
        var given: [Int: String] = [:]
        for index in order {
            given[index] = ids.next(String(Int64(records[index].milliseconds!.rounded(.down))))
        }
        assembler.reserveCapacity(records.count)
        for index in order + records.indices.filter({ given[$0] == nil }) {
            let record = records[index]
            let location = record.node.location(in: shown)
            guard record.node.members != nil else {
                assembler.report(
                    .warning(
                        .wrongType(
                            field: record.path, expected: "a reply object, not \(record.node.typeName); it is left out"),
                        at: location))
                assembler.leaveOut(reason: "a reply that is not an object", at: location)
                continue
            }
            guard let messageID = given[index] else {
                let stamp = record.node["create_at"]
                assembler.report(
                    .warning(
                        .invalidDate(
                            stamp.map { $0.string ?? $0.typeName } ?? "(none)",
                            expected: "create_at, milliseconds since 1970 as a number; the post is left out"),
                        at: stamp?.location(in: shown) ?? location))
                assembler.leaveOut(reason: "a post without a readable create_at", at: location)
                continue
            }
            let message = MattermostPost(
                node: record.node, location: location, file: file, directory: directory, context: context
            ).message(
                id: messageID, date: Date(timeIntervalSince1970: record.milliseconds! / 1000),
                thread: record.root.flatMap { given[$0] },
                source: ExportSource(
                    format: ExportFormat.mattermost.rawValue, file: context.relativePath(file), line: record.line,
                    path: record.path, id: messageID),
                assembler: &assembler)
            assembler.append(message)
        }
        return assembler.finish()
    }

    /// `create_at` in milliseconds when it is a date of the years 1 to 9999 (outside them, the
    /// post is left out, not the conversation lost).
    static func milliseconds(_ node: JSONNode) -> Double? {
        let dates = ConversationAssembler.validDates
        return node["create_at"]?.number(
            in: dates.lowerBound.timeIntervalSince1970 * 1000...dates.upperBound.timeIntervalSince1970 * 1000)
    }

    var channelLine: JSONNode? {
        guard let team = channel.team, let name = channel.channel else { return nil }
        return directory.channels[team + "/" + name]
    }

    var title: String {
        switch channel.kind {
        case .direct, .group: return channel.members.map(directory.name).joined(separator: ", ")
        case .open:
            return MattermostScan.nonEmpty(channelLine?["display_name"]?.string) ?? channel.channel ?? channel.key
        }
    }

    var description: String? {
        let line = channelLine ?? directory.directChannels[channel.key]
        return MattermostScan.nonEmpty(line?["purpose"]?.string) ?? MattermostScan.nonEmpty(line?["header"]?.string)
    }

    /// "Channels", "Private channels", "Direct messages" or "Group messages"; a channel's section
    /// names its team when the export holds several.
    var section: String {
        switch channel.kind {
        case .direct: return "Direct messages"
        case .group: return "Group messages"
        case .open:
            let kind = channelLine?["type"]?.string == "P" ? "Private channels" : "Channels"
            guard directory.teams.count > 1, let team = channel.team else { return kind }
            return (directory.teams[team] ?? team) + " · " + kind
        }
    }
}
