import Foundation
import ScrollbackModel

extension TelegramChatReader {
    /// A service record as one sentence (`Joseph created the group “Sample”`): its `action` with
    /// the fields Telegram Desktop writes for it, or its `information_text` (a bot's or the
    /// server's own words, written without an `action`).
    func serviceText(
        _ node: JSONNode, index: TelegramChatIndex, position: Int, diagnostics: inout [Diagnostic],
        at location: SourceLocation
    ) -> String {
        let actor = node["actor"]?.string ?? node["from"]?.string ?? "Someone"
        let action = node["action"]?.string ?? ""
        let title = node["title"]?.string
        let members = (node["members"]?.elements ?? []).compactMap { $0.string ?? "Deleted Account" }
        let memberList = members.isEmpty ? "someone" : members.joined(separator: ", ")
        func number(_ key: String) -> Int? { node[key]?.number(in: -9e15...9e15).map { Int($0) } }
        func quotedList(_ texts: [String]) -> String { texts.map { "“\($0)”" }.joined(separator: ", ") }
        switch action {
        case "":
            if let information = node["information_text"]?.string, !information.isEmpty { return information }
            diagnostics.append(
                .warning(.other("Telegram service message without 'action' or 'information_text'"), at: location))
            return "\(actor): service message"
        case "create_group", "create_channel":
            return "\(actor) created the \(action == "create_channel" ? "channel" : "group")"
                + (title.map { " “\($0)”" } ?? "")
        case "invite_members": return "\(actor) added \(memberList)"
        case "remove_members": return "\(actor) removed \(memberList)"
        case "join_group_by_link": return "\(actor) joined the group via invite link"
        case "join_group_by_request": return "\(actor) joined the group"
        case "pin_message": return "\(actor) pinned a message"
        case "edit_group_title": return "\(actor) changed the group name to “\(title ?? "")”"
        case "edit_group_photo": return "\(actor) changed the group photo"
        case "delete_group_photo": return "\(actor) removed the group photo"
        case "migrate_to_supergroup": return "\(actor) converted this group to a supergroup"
        case "migrate_from_group": return "\(actor) converted the group “\(title ?? "")” to this supergroup"
        case "clear_history": return "History was cleared"
        case "phone_call", "group_call", "conference_call":
            var text = "\(actor) \(action == "phone_call" ? "called" : "started a group call")"
            if let seconds = number("duration_seconds") ?? number("duration") { text += " (\(seconds) s)" }
            if let reason = node["discard_reason"]?.string, reason != "hangup" { text += " — \(reason)" }
            return text
        case "topic_created": return "\(actor) created the topic “\(title ?? "")”"
        case "topic_edit":
            return "\(actor) edited the topic" + (node["new_title"]?.string.map { ": “\($0)”" } ?? "")
        case "set_messages_ttl": return "\(actor) changed the auto-delete timer"
        case "score_in_game": return "\(actor) scored \(number("score").map(String.init) ?? "") in a game"
        case "take_screenshot": return "\(actor) took a screenshot"
        case "joined_telegram": return "\(actor) joined Telegram"
        case "send_payment":
            return "Payment sent"
                + (number("amount").map { " (" + Self.money(minorUnits: $0, currency: node["currency"]?.string) + ")" }
                    ?? "")
        case "giveaway_launch": return "A giveaway was launched"
        case "giveaway_results":
            return "Giveaway results: \(number("winners") ?? 0) winner(s)"
                + ((number("unclaimed") ?? 0) > 0 ? ", \(number("unclaimed")!) prize(s) unclaimed" : "")
        case "todo_completions":
            let texts = index.completionTexts[position] ?? ([], [])
            var parts: [String] = []
            if !texts.done.isEmpty { parts.append("marked \(quotedList(texts.done)) as done") }
            if !texts.undone.isEmpty { parts.append("marked \(quotedList(texts.undone)) as not done") }
            return "\(actor) " + (parts.isEmpty ? "changed a to-do list" : parts.joined(separator: " and "))
        case "todo_append_tasks":
            let items = (node["items"]?.elements ?? []).compactMap {
                $0["text"].flatMap(TelegramText.pieces)?.map(\.text).joined()
            }
            return "\(actor) added \(items.isEmpty ? "tasks" : quotedList(items)) to a to-do list"
        default:
            diagnostics.append(
                .warning(.other("Telegram service action '\(action)' is shown as its name"), at: location))
            let readable = action.replacingOccurrences(of: "_", with: " ")
            return "\(actor): \(readable)" + (title.map { " “\($0)”" } ?? "")
        }
    }

    /// `amount` in a currency's minor units (as Telegram's payments write it) in major units and
    /// the currency code: `150`, `USD` → `1.50 USD`. The number of decimals is the currency's
    /// own, from ICU through Foundation (ISO 4217); Telegram Stars (`XTR`) are whole.
    static func money(minorUnits amount: Int, currency: String?) -> String {
        guard let currency, !currency.isEmpty else { return String(amount) }
        if currency == "XTR" { return "\(amount) Stars" }
        let formatter = NumberFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.numberStyle = .currency
        formatter.currencyCode = currency
        let digits = max(0, min(4, formatter.maximumFractionDigits))
        var divisor = 1
        for _ in 0..<digits { divisor *= 10 }
        let whole = abs(amount) / divisor
        let fraction = String(abs(amount) % divisor)
        let sign = amount < 0 ? "-" : ""
        let decimals =
            digits == 0 ? "" : "." + String(repeating: "0", count: max(0, digits - fraction.count)) + fraction
        return "\(sign)\(whole)\(decimals) \(currency)"
    }
}
