import Foundation

/// Who "me" is, whose messages go on the right (issue 42.4): the `me:` of `scrollback.yml`
/// (for every conversation, or per conversation under `conversations:`) and `--me`.
///
/// Each is a list of names: a participant id or display name matches, an exact match before a
/// case-insensitive one, the first name of the list before the next. A name that matches no
/// participant of a conversation leaves it as it was, so one list can name the exporter of
/// several exports (`me: [Alice, alice.b, user1234]`).
///
/// Precedence, strongest first: `--me`; the `me` a log writes itself (JSON or Markdown);
/// the conversation's own `conversations.<id>.me`; the top-level `me`; what an importer
/// detected in the export (WhatsApp's "You …" lines, Telegram's `personal_information`).
public struct MeSetting: Hashable, Sendable {
    /// `--me` (repeatable): wins over everything, a log's own `me` too.
    public var overrides: [String] = []
    /// The top-level `me:` of the config.
    public var names: [String] = []
    /// `conversations: { <id>: { me: … } }`: by conversation id.
    public var byConversation: [String: [String]] = [:]

    /// Nothing set: each conversation keeps the `me` it was read with.
    public init() {}

    /// Whether nothing is set.
    public var isEmpty: Bool { overrides.isEmpty && names.isEmpty && byConversation.isEmpty }

    /// `conversation` with its `me` chosen by the precedence above. `keepsOwn`: the conversation
    /// is a log whose `me` was written by hand (it wins over the config); an importer's `me` is
    /// only detected, so the config wins over it.
    public func applied(to conversation: Conversation, keepsOwn: Bool) -> Conversation {
        var result = conversation
        if let chosen = Self.match(overrides, in: conversation.participants) {
            result.me = chosen
            return result
        }
        if keepsOwn, conversation.me != nil { return result }
        if let chosen = Self.match(byConversation[conversation.id] ?? [], in: conversation.participants)
            ?? Self.match(names, in: conversation.participants)
        {
            result.me = chosen
        }
        return result
    }

    /// The id of the participant the first of `names` matches: by id or display name, exactly,
    /// and only then ignoring case (so `alice` never takes `Alice`'s place from `alice`).
    public static func match(_ names: [String], in participants: [Participant]) -> String? {
        for name in names {
            if let exact = participants.first(where: { $0.id == name || $0.name == name }) { return exact.id }
            if let folded = participants.first(where: {
                $0.id.compare(name, options: .caseInsensitive) == .orderedSame
                    || $0.name.compare(name, options: .caseInsensitive) == .orderedSame
            }) {
                return folded.id
            }
        }
        return nil
    }

    /// The names to choose `me` from when `conversation` is a one-to-one chat with no `me`: its
    /// two display names (ids when the names are the same); `nil` otherwise. One-to-one is what
    /// the source says (`chatType` `direct`, with two participants); a group or a channel where
    /// only two people wrote is not asked about. When the source does not say, a conversation of
    /// two participants is taken for one.
    public static func choices(for conversation: Conversation) -> [String]? {
        guard conversation.me == nil, conversation.participants.count == 2,
            conversation.chatType == nil || conversation.chatType == .direct
        else { return nil }
        let names = conversation.participants.map(\.name)
        return names[0] == names[1] ? conversation.participants.map(\.id) : names
    }

    /// The one warning of a build (or import) for every one-to-one chat with no `me`: which
    /// conversations, the names to choose from, and the `me:` line to add. `chats` holds each
    /// such conversation's id and `choices(for:)`, in the build's order; `nil` when there is none.
    public static func unresolvedWarning(_ chats: [(id: String, choices: [String])]) -> Diagnostic? {
        guard let first = chats.first else { return nil }
        let listed = chats.prefix(5).map { "\($0.id) (\($0.choices.joined(separator: " or ")))" }
        let more = chats.count > 5 ? " and \(chats.count - 5) more" : ""
        if chats.count == 1 {
            let lines = first.choices.map { "`me: \(yamlScalar($0))`" }.joined(separator: " or ")
            return .warning(
                .other(
                    "the one-to-one chat \(listed[0]) does not say who you are, so every message is on the left; "
                        + "expected \(lines) in scrollback.yml, or --me NAME"),
                at: nil)
        }
        let example = chats.prefix(5).map { yamlScalar($0.choices[0]) }.joined(separator: ", ")
        return .warning(
            .other(
                "\(chats.count) one-to-one chats do not say who you are, so every message is on the left: "
                    + "\(listed.joined(separator: ", "))\(more); expected a `me:` list in scrollback.yml naming you "
                    + "in each, such as `me: [\(example)]`, `conversations: {\(first.id): {me: NAME}}` for one chat, "
                    + "or --me NAME (repeated)"),
            at: nil)
    }

    /// `text` as a YAML scalar someone can paste: quoted when plain YAML would read it otherwise.
    static func yamlScalar(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) || $0 == " " || $0 == "." || $0 == "_" || $0 == "-"
        }
        if plain, !text.isEmpty, text.first != " ", text.last != " ", text.first != "-" { return text }
        // Double-quoted YAML: backslash, quote and control characters escaped (`\u008D`).
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": quoted += "\\\\"
            case "\"": quoted += "\\\""
            case _ where scalar.properties.generalCategory == .control:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                quoted += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}
