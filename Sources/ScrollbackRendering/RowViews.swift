import Mustache
import ScrollbackLayout

// The view values of a conversation's rows. Each is rendered by its template (through
// swift-mustache, from `context`) or, when the template in use is the shipped one, by `write`,
// a hand-compiled copy of that template: swift-mustache resolves every tag through dynamic
// casts and costs ~200 µs per message row, the compiled copy ~2 µs. `RowTemplates` only uses a
// compiled copy after checking at start-up that it prints the same bytes as the template.

/// The row templates that have a compiled copy; a view names its template by one of these, so
/// choosing between the copy and the template is a bit test, not a string hash per row.
enum RowTemplate: Int, CaseIterable, Sendable {
    case daySeparator, timestamp, avatar, header, footer, reply, message
    case text, attributedText, emoji, system, imagePlaceholder, photo, video, audio, location, contact
    case linkPreview, custom, customFallback

    /// The template's name in the library.
    var name: String {
        switch self {
        case .daySeparator: return "day-separator"
        case .timestamp: return "timestamp"
        case .avatar: return "avatar"
        case .header: return "header"
        case .footer: return "footer"
        case .reply: return "reply"
        case .message: return "message"
        case .text: return "kinds/text"
        case .attributedText: return "kinds/attributedText"
        case .emoji: return "kinds/emoji"
        case .system: return "kinds/system"
        case .imagePlaceholder: return "image-placeholder"
        case .photo: return "kinds/photo"
        case .video: return "kinds/video"
        case .audio: return "kinds/audio"
        case .location: return "kinds/location"
        case .contact: return "kinds/contact"
        case .linkPreview: return "kinds/linkPreview"
        case .custom: return "kinds/custom"
        case .customFallback: return "kinds/custom-fallback"
        }
    }

    /// This template's bit in `RowTemplates`' mask of compiled templates.
    var bit: UInt32 { 1 << UInt32(rawValue) }
}

extension RowView {
    /// The name of the template that draws this view.
    var templateName: String { template.name }
}

/// A view that the template `template` draws.
protocol RowView {
    /// The template that draws this view.
    var template: RowTemplate { get }
    /// The values the template sees (a dictionary, or a `MustacheParent`).
    var context: Any { get }
    /// Appends exactly what the shipped template prints for `context`.
    func write(into output: inout HTMLBuffer, parts: RowTemplates)
}

/// `templates/day-separator`.
struct DayView: RowView {
    var template: RowTemplate { .daySeparator }
    var text: String
    var iso: String
    /// Whether it only repeats, at the top of a page, the day the previous page ended in.
    var repeats: Bool = false
    var context: Any { ["text": text, "iso": iso, "repeats": repeats] }
    func write(into o: inout HTMLBuffer, parts: RowTemplates) {
        o += repeats ? "<h2 class=\"day rep\"" : "<h2 class=\"day\""
        o += " data-part=\"day-separator\"><time datetime=\""
        esc(iso, &o)
        o += "\">"
        esc(text, &o)
        o += "</time></h2>"
    }
}

/// `templates/timestamp`.
struct TimeView: RowView {
    var template: RowTemplate { .timestamp }
    var anchor: String
    var text: String
    /// Held as bytes: a string per message was a tenth of the row's allocations.
    var iso: InlineISOTime
    /// `tt` above the bubble, `tb` below.
    var placement: String
    var context: Any { ["anchor": anchor, "text": text, "iso": iso.text, "where": placement] }
    func write(into o: inout HTMLBuffer, parts: RowTemplates) {
        o += "<a class=\"ts "
        esc(placement, &o)
        o += "\" href=\"#"
        esc(anchor, &o)
        o += "\"><time datetime=\""
        if iso.isPlainASCII {
            iso.withUTF8 { o.append(contentsOf: $0) }  // digits and `-:T+Z`: nothing to escape
        } else {
            esc(iso.text, &o)
        }
        o += "\" data-part=\"timestamp\">"
        esc(text, &o)
        o += "</time></a>"
    }
}

/// `templates/avatar`: an image, or initials on a colour.
struct AvatarView: RowView {
    var template: RowTemplate { .avatar }
    var name: String
    var initials: String
    var colorClass: String
    var colorStyle: String?
    var src: String?
    /// What `RowTemplates.render` drew for this avatar, once per participant (see `MessageRenderer`).
    var rendered: [UInt8]? = nil
    var context: Any {
        var context: [String: Any] = ["name": name, "initials": initials, "colorClass": colorClass]
        if let colorStyle { context["colorStyle"] = colorStyle }
        if let src { context["src"] = src }
        return context
    }
    func write(into o: inout HTMLBuffer, parts: RowTemplates) {
        if let src {
            o += "<img class=\"av\" data-part=\"avatar\" src=\""
            esc(src, &o)
            o += "\" alt=\"\" width=\"32\" height=\"32\" loading=\"lazy\" decoding=\"async\">"
        } else {
            o += "<span class=\"av "
            appendColor(colorClass, colorStyle, to: &o)
            o += " data-part=\"avatar\" aria-hidden=\"true\">"
            esc(initials, &o)
            o += "</span>"
        }
    }
}

/// Ends an open `class="…` attribute with the colour class, then adds `style="--pc:#…"` when a
/// participant has a (validated) colour of their own. Avatars and headers share it.
private func appendColor(_ colorClass: String, _ colorStyle: String?, to o: inout HTMLBuffer) {
    esc(colorClass, &o)
    o += "\""
    if let colorStyle {
        o += " style=\""
        esc(colorStyle, &o)
        o += "\""
    }
}

/// `templates/header`: the sender's name.
struct HeaderView: RowView {
    var template: RowTemplate { .header }
    var name: String
    var anchor: String
    var colorClass: String
    var colorStyle: String?
    /// What `RowTemplates.render` drew for this header, once per participant (see `MessageRenderer`).
    var rendered: [UInt8]? = nil
    var context: Any {
        var context: [String: Any] = ["name": name, "anchor": anchor, "colorClass": colorClass]
        if let colorStyle { context["colorStyle"] = colorStyle }
        return context
    }
    func write(into o: inout HTMLBuffer, parts: RowTemplates) {
        o += "<div class=\"hd "
        appendColor(colorClass, colorStyle, to: &o)
        o += " data-part=\"header\">"
        esc(name, &o)
        o += "</div>"
    }
}

/// `templates/footer`: edited mark and delivery status.
struct FooterView: RowView {
    var template: RowTemplate { .footer }
    var editedText: String?
    var editedISO: String?
    /// Mark, label and class of the delivery status.
    var status: (mark: String, label: String, cls: String)?
    var context: Any {
        var context: [String: Any] = [:]
        if let editedText, let editedISO { context["edited"] = ["text": editedText, "iso": editedISO] }
        if let status { context["status"] = ["mark": status.mark, "label": status.label, "cls": status.cls] }
        return context
    }
    func write(into o: inout HTMLBuffer, parts: RowTemplates) {
        o += "<div class=\"ft\" data-part=\"footer\">"
        if let editedText, editedISO != nil {
            o += "<span class=\"ed\" title=\"Edited "
            esc(editedText, &o)
            o += "\">edited<span class=\"vh\"> "
            esc(editedText, &o)
            o += "</span></span>"
        }
        if let status {
            o += "<span class=\"st "
            esc(status.cls, &o)
            o += "\" title=\""
            esc(status.label, &o)
            o += "\" role=\"img\" aria-label=\""
            esc(status.label, &o)
            o += "\">"
            esc(status.mark, &o)
            o += "</span>"
        }
        o += "</div>"
    }
}

/// `templates/reply`: the quote of the message this one answers (a link, never a message element).
struct ReplyView: RowView {
    var template: RowTemplate { .reply }
    var href: String
    var sender: String?
    var excerpt: String
    var context: Any {
        var context: [String: Any] = ["href": href, "excerpt": excerpt]
        if let sender { context["author"] = sender }
        return context
    }
    func write(into o: inout HTMLBuffer, parts: RowTemplates) {
        o += "<a class=\"rq\" href=\""
        esc(href, &o)
        o += "\">"
        if let sender {
            o += "<b>"
            esc(sender, &o)
            o += "</b>"
        }
        o += "<span dir=\"auto\">"
        esc(excerpt, &o)
        o += "</span></a>"
    }
}

/// One reaction: emoji, count, and who.
struct ReactionView {
    var emoji: String
    var count: Int
    /// Who reacted, in log order; the templates see them joined with ", ".
    var senderNames: [String]
    var names: String { senderNames.joined(separator: ", ") }
    var context: Any { ["emoji": emoji, "count": count, "names": names] }

    /// Appends `names` escaped, without joining them into a new string first.
    func writeNames(into o: inout HTMLBuffer) {
        for (index, name) in senderNames.enumerated() {
            if index > 0 { o += ", " }
            esc(name, &o)
        }
    }
}

/// `templates/message`: one message element with its parts.
struct MessageView: RowView {
    var template: RowTemplate { .message }
    var anchor: String
    var id: String
    var kind: String
    var sender: String?
    var align: String
    var position: String
    /// Shared by reference: made once per participant, each row takes them with one retain each.
    var avatar: SharedView<AvatarView>?
    var header: SharedView<HeaderView>?
    var timestampTop: TimeView?
    var timestampBottom: TimeView?
    var reply: ReplyView?
    /// The bubble, already rendered (empty while `MessageRenderer` writes it between
    /// `writeOpening` and `writeClosing` itself).
    var body: String
    var reactions: [ReactionView]
    var footer: FooterView?
    /// Visually hidden text for screen readers: the sender and time when the header or the
    /// timestamp is not drawn (collapsed in a group), e.g. "Mia Hoffmann, 9:02 AM:".
    var spoken: String? { MessageRenderer.spokenLabel(sender: spokenSender, time: spokenTime) }
    /// The parts of `spoken`, kept apart so the compiled copy writes them without joining them.
    var spokenSender: String? = nil
    var spokenTime: String? = nil
    /// The sender's name over the first message of a page that continues a group from the page
    /// before (whose header is there): not the group's header, a reminder of who is speaking.
    var continuedName: String? = nil
    /// The sender's display name, for `continuedName` (`nil` for system messages and unknown senders).
    var senderName: String? = nil

    /// Itself: swift-mustache asks it by name (`child(named:)`) instead of reflecting.
    var context: Any { self }

    func write(into o: inout HTMLBuffer, parts: RowTemplates) {
        writeOpening(into: &o, parts: parts)
        raw(body, &o)
        writeClosing(into: &o, parts: parts)
    }

    /// Everything the template prints before `{{{body}}}`.
    func writeOpening(into o: inout HTMLBuffer, parts: RowTemplates) {
        o += "<div class=\"m\" id=\""
        esc(anchor, &o)
        o += "\" data-message-id=\""
        esc(id, &o)
        o += "\" data-kind=\""
        esc(kind, &o)
        o += "\""
        if let sender {
            o += " data-sender=\""
            esc(sender, &o)
            o += "\""
        }
        o += " data-align=\""
        esc(align, &o)
        o += "\" data-group-position=\""
        esc(position, &o)
        o += "\">"
        if let avatar {
            if let rendered = avatar.view.rendered {
                o.append(contentsOf: rendered)
            } else {
                parts.render(avatar.view, into: &o)
            }
        }
        if let header {
            if let rendered = header.view.rendered {
                o.append(contentsOf: rendered)
            } else {
                parts.render(header.view, into: &o)
            }
        }
        if let continuedName {
            o += "<div class=\"hd cont\" aria-hidden=\"true\">"
            esc(continuedName, &o)
            o += "</div>"
        }
        if let timestampTop { parts.render(timestampTop, into: &o) }
        if spokenSender != nil || spokenTime != nil {
            o += "<span class=\"vh\">"
            // `spoken`, part by part: escaping works code point by code point, so escaping the
            // parts gives the bytes of escaping the joined text.
            if let spokenSender {
                esc(spokenSender, &o)
                if spokenTime != nil { o += ", " }
            }
            if let spokenTime { esc(spokenTime, &o) }
            o += ":</span>"
        }
        if let reply { parts.render(reply, into: &o) }
    }

    /// Everything the template prints after `{{{body}}}`.
    func writeClosing(into o: inout HTMLBuffer, parts: RowTemplates) {
        if !reactions.isEmpty {
            o += "<ul class=\"rx\">"
            for reaction in reactions {
                o += "<li title=\""
                reaction.writeNames(into: &o)
                o += "\">"
                esc(reaction.emoji, &o)
                o += " "
                appendDecimal(reaction.count, &o)
                o += "<span class=\"vh\"> from "
                reaction.writeNames(into: &o)
                o += "</span></li>"
            }
            o += "</ul>"
        }
        if let footer { parts.render(footer, into: &o) }
        if let timestampBottom { parts.render(timestampBottom, into: &o) }
        o += "</div>"
    }
}

extension MessageView: MustacheParent {
    /// Answers swift-mustache's lookups with a `switch` instead of `Mirror`; parts become
    /// template contexts only when a template asks for them.
    func child(named name: String) -> Any? {
        switch name {
        case "anchor": return anchor
        case "id": return id
        case "kind": return kind
        case "sender": return sender
        case "align": return align
        case "position": return position
        case "avatar": return avatar?.view.context
        case "header": return header?.view.context
        case "timestampTop": return timestampTop?.context
        case "timestampBottom": return timestampBottom?.context
        case "reply": return reply?.context
        case "body": return body
        case "hasReactions": return !reactions.isEmpty
        case "reactions": return reactions.map(\.context)
        case "footer": return footer?.context
        case "spoken": return spoken
        case "continuedName": return continuedName
        default: return nil
        }
    }

}

/// A view made once and drawn in many rows, held by reference: copying it into a row is one
/// retain, where copying the view itself retains each of its strings.
final class SharedView<View: RowView>: @unchecked Sendable {
    /// The view (immutable once shared).
    let view: View

    /// Shares `view`.
    init(_ view: View) {
        self.view = view
    }
}
