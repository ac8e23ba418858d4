import Foundation
import ScrollbackModel

/// The text of a Teams system event (`<systemEventMessage/>`, `From: null`), from its
/// `EventDetail`: Graph's event message details, as the export writes them — one member per
/// kind (`MembersAdded`, `ChannelRenamed`, …) of which the one that is not null holds the
/// details, and an `Initiator` — or as Graph returns them (camelCase, kind in `@odata.type`).
///
/// The sentence names who did it (the initiator, by the export's names) and what: "Ana added
/// Bo", "Ana renamed the channel to Plans". An event whose details are all null (the export
/// does not always fill them) says who made a change and that the export does not say which.
enum TeamsEvent {
    /// The event's line, naming people through `name` (user id → name).
    static func text(_ detail: JSONNode?, name: (String) -> String) -> String {
        guard let detail, detail.members != nil else { return "A Teams event (not described in this export)" }
        let (kind, fields) = Self.kind(of: detail)
        let initiator = Self.initiator(detail["Initiator"] ?? detail["initiator"] ?? fields?["Initiator"], name: name)
        let who = initiator ?? "Someone"
        func value(_ key: String) -> String? {
            guard let fields else { return nil }
            let node = fields[key] ?? fields[lowerFirst(key)]
            return node?.string.flatMap { $0.isEmpty ? nil : $0 }
        }
        func members(_ key: String = "Members") -> String {
            let list = (fields?[key] ?? fields?[lowerFirst(key)])?.elements ?? []
            let names = list.compactMap { member -> String? in
                if let id = member["Id"]?.string ?? member["id"]?.string, !id.isEmpty { return name(id) }
                return member["DisplayName"]?.string ?? member["displayName"]?.string
            }
            return names.isEmpty ? "a member" : names.joined(separator: ", ")
        }
        func named(_ text: String, _ key: String) -> String {
            value(key).map { text + " " + $0 } ?? text
        }
        switch kind {
        case "MembersAdded": return who + " added " + members()
        case "MembersDeleted": return who + " removed " + members()
        case "MembersJoined": return members() + " joined"
        case "MembersLeft": return members() + " left"
        case "ChannelAdded": return who + " " + named("created the channel", "ChannelDisplayName")
        case "ChannelDeleted": return who + " " + named("deleted the channel", "ChannelDisplayName")
        case "ChannelRenamed": return who + " " + named("renamed the channel to", "ChannelDisplayName")
        case "ChannelDescriptionUpdated": return who + " changed the channel's description"
        case "ChannelSetAsFavoriteByDefault": return who + " made the channel a favourite for everyone"
        case "ChannelUnsetAsFavoriteByDefault": return who + " stopped making the channel a favourite for everyone"
        case "ChatRenamed": return who + " " + named("renamed the chat to", "ChatDisplayName")
        case "ConversationMemberRoleUpdated": return who + " changed a member's role"
        case "MeetingPolicyUpdated": return who + " changed the meeting's chat settings"
        case "MessagePinned": return who + " pinned a message"
        case "MessageUnpinned": return who + " unpinned a message"
        case "TabUpdated": return who + " updated a tab"
        case "TeamArchived": return who + " archived the team"
        case "TeamUnarchived": return who + " restored the team"
        case "TeamCreated": return who + " " + named("created the team", "TeamDisplayName")
        case "TeamRenamed": return who + " " + named("renamed the team to", "TeamDisplayName")
        case "TeamDescriptionUpdated": return who + " changed the team's description"
        case "TeamJoiningDisabled": return who + " turned off joining the team"
        case "TeamJoiningEnabled": return who + " turned on joining the team"
        case "TeamsAppInstalled": return who + " " + named("added the app", "TeamsAppDisplayName")
        case "TeamsAppRemoved": return who + " " + named("removed the app", "TeamsAppDisplayName")
        case "TeamsAppUpgraded": return who + " " + named("upgraded the app", "TeamsAppDisplayName")
        case "CallStarted": return who + " started a call"
        case "CallEnded":
            return value("CallDuration").flatMap(Self.duration).map { "Call ended (\($0))" } ?? "Call ended"
        case "CallRecording": return named("Call recording", "CallRecordingDisplayName")
        case "CallTranscript": return "Call transcript"
        case .some(let other): return who + ": " + other + " (an event)"
        case nil:
            return initiator.map { $0 + " made a change (the export does not say which)" }
                ?? "A Teams event (not described in this export)"
        }
    }

    /// The kinds of event the export writes a member for, in Graph's PascalCase.
    static let kinds = [
        "MembersAdded", "MembersDeleted", "MembersJoined", "MembersLeft", "ChannelAdded", "ChannelDeleted",
        "ChannelRenamed", "ChannelDescriptionUpdated", "ChannelSetAsFavoriteByDefault",
        "ChannelUnsetAsFavoriteByDefault", "ChatRenamed", "ConversationMemberRoleUpdated", "MeetingPolicyUpdated",
        "MessagePinned", "MessageUnpinned", "TabUpdated", "TeamArchived", "TeamUnarchived", "TeamCreated",
        "TeamRenamed", "TeamDescriptionUpdated", "TeamJoiningDisabled", "TeamJoiningEnabled", "TeamsAppInstalled",
        "TeamsAppRemoved", "TeamsAppUpgraded", "CallStarted", "CallEnded", "CallRecording", "CallTranscript",
    ]

    /// The event's kind and the object holding its details: the first kind member that is an
    /// object, or Graph's `@odata.type` (`#microsoft.graph.membersAddedEventMessageDetail`).
    static func kind(of detail: JSONNode) -> (String?, JSONNode?) {
        for kind in kinds {
            if let fields = detail[kind], fields.members != nil { return (kind, fields) }
        }
        if let type = detail["@odata.type"]?.string, type.hasSuffix("EventMessageDetail") {
            let name = type.split(separator: ".").last.map(String.init) ?? type
            let bare = String(name.dropLast("EventMessageDetail".count))
            guard let first = bare.first else { return (nil, detail) }
            return (first.uppercased() + bare.dropFirst(), detail)
        }
        return (nil, nil)
    }

    /// Who started the event: a user (named by the export), an app, or `nil`.
    static func initiator(_ node: JSONNode?, name: (String) -> String) -> String? {
        guard let node else { return nil }
        if let user = node["User"] ?? node["user"], user.members != nil {
            if let id = (user["Id"] ?? user["id"])?.string, !id.isEmpty { return name(id) }
            if let shown = (user["DisplayName"] ?? user["displayName"])?.string, !shown.isEmpty { return shown }
        }
        if let app = node["Application"] ?? node["application"], app.members != nil {
            if let shown = (app["DisplayName"] ?? app["displayName"])?.string, !shown.isEmpty { return shown }
            return "An app"
        }
        return nil
    }

    /// `PT1H2M3S` (an ISO 8601 duration, as Graph writes a call's) as `1:02:03`; `nil` otherwise.
    static func duration(_ text: String) -> String? {
        guard text.hasPrefix("PT") else { return nil }
        var seconds = 0.0
        var number = ""
        for character in text.dropFirst(2) {
            if character.isASCII, character.isNumber || character == "." {
                number.append(character)
                continue
            }
            guard let value = Double(number), value.isFinite, value >= 0, value < 1e9 else { return nil }
            switch character {
            case "H": seconds += value * 3600
            case "M": seconds += value * 60
            case "S": seconds += value
            default: return nil
            }
            number = ""
        }
        guard number.isEmpty else { return nil }
        return MetaText.duration(Int(seconds))
    }

    static func lowerFirst(_ key: String) -> String {
        guard let first = key.first else { return key }
        return first.lowercased() + key.dropFirst()
    }
}
