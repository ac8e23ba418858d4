import Foundation
import ScrollbackModel

/// What a WhatsApp chat text says about itself as it is read (issue 42.4): whether it is a
/// group, and who exported it. An export never names its exporter, but WhatsApp writes some
/// lines in the exporter's own voice, and its notices name only other people.
///
/// - A group: a group line (`You created group "X"`, `Ana added Ben`, `You were added`: a
///   notice of the phrase table that is the exporter's own, or names no one or two or more) or
///   more than two senders. A notice naming one person (`Ben left`, `Your security code with
///   Ben changed`) is not enough: security codes change in one-to-one chats too.
/// - The exporter: the sender of `You deleted this message` (WhatsApp writes it under the
///   exporter's own name; in every language of the phrase table). When two senders write it,
///   someone typed the phrase, and it says nothing.
/// - Not the exporter: whoever a notice names (`Ben's security code changed`, `Ben left`), and
///   the name iOS writes its notices under (the other person's in a one-to-one chat, as
///   Pustur/whatsapp-chat-parser#258 shows). In a one-to-one chat, naming one of the two names
///   the other.
struct WhatsAppChatSigns {
    /// Whether a group line was read.
    private(set) var hasGroupLine = false
    /// Participant ids of the senders of the exporter's own deletions, in the order first met.
    private(set) var exporterDeleters: [String] = []
    /// Names (in `WhatsAppPhrases.normalized` form) that notices name, or iOS writes them under.
    private(set) var notExporter: Set<String> = []

    /// Reads a system line (the whole line, or an iOS notice's body under `under`, the name it
    /// is written under).
    mutating func readSystemLine(_ text: String, under: String? = nil) {
        // Names count only in a one-to-one chat: a group's later lines need no lookup.
        guard !hasGroupLine else { return }
        // iOS writes the encryption notice after the chat's name (`Ben: ‎Messages and calls …`).
        if under == nil, let separator = text.range(of: ": "),
            WhatsAppBody.isEncryptionNotice(text[separator.upperBound...])
        {
            notExporter.insert(WhatsAppPhrases.normalized(WhatsAppBody.cleanSender(text[..<separator.lowerBound])))
            return
        }
        if WhatsAppChatReader.groupName(in: text) != nil { hasGroupLine = true }
        let template = WhatsAppPhrases.systemTemplate(text)
        // Newer iOS exports put a notice under the chat's name, or under whoever did what it
        // says (`Boris: Boris created group …`): never the exporter, unless in the exporter's
        // own voice (`You created group …`), which is not taken as a sign either way.
        if let under, template?.byExporter != true { notExporter.insert(WhatsAppPhrases.normalized(under)) }
        guard let template else { return }
        // One name: a person (or a group's subject, in lines that are group lines all the same).
        if template.parts.count == 2, let name = Self.name(in: text, template: template) {
            notExporter.insert(name)
        }
        if template.byExporter || template.parts.count != 2 { hasGroupLine = true }
    }

    /// Reads a message of `senderID` that is the exporter deleting it (`You deleted this message`).
    mutating func readExporterDeletion(by senderID: String) {
        if !exporterDeleters.contains(senderID) { exporterDeleters.append(senderID) }
    }

    /// The chat's type: a group with group lines or more than two `senders`, else one to one.
    func chatType(senders: Int) -> ChatType {
        hasGroupLine || senders > 2 ? .group : .direct
    }

    /// The exporter's participant id by their own deletions: one sender only.
    var exporterByDeletion: String? { exporterDeleters.count == 1 ? exporterDeleters[0] : nil }

    /// In a chat of `participants`, the ids the notices name (never the exporter).
    func namedByNotices(_ participants: [(id: String, name: String)]) -> [String] {
        participants.filter { notExporter.contains(WhatsAppPhrases.normalized($0.name)) }.map(\.id)
    }

    /// The name a one-name notice gives, normalized: the line (or its first sentence, as
    /// `… changed. Tap for more info.` may follow) less the template's own words.
    static func name(in line: String, template: WhatsAppPhrases.Template) -> String? {
        let text = WhatsAppPhrases.normalized(line)
        let (head, tail) = (template.parts[0], template.parts[1])
        var sentences = [text]
        if let stop = template.sentenceEnd, !tail.isEmpty {
            var searchStart = text.startIndex
            while let range = text.range(of: tail + String(stop), range: searchStart..<text.endIndex) {
                sentences.append(String(text[..<text.index(before: range.upperBound)]))
                searchStart = text.index(after: range.lowerBound)
            }
        }
        for sentence in sentences where template.matches(sentence) {
            let name = String(sentence.dropFirst(head.count).dropLast(tail.count))
            return name.isEmpty ? nil : name
        }
        return nil
    }
}
