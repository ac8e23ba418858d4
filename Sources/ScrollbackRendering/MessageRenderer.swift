import Foundation
import Mustache
import ScrollbackLayout
import ScrollbackModel

/// A message's view context: answers Mustache lookups with a `switch` instead of `Mirror`.
struct MessageContext: MustacheParent {
    var anchor: String
    var id: String
    var kind: String
    var sender: String?
    var align: String
    var position: String
    var avatar: [String: Any]?
    var header: [String: Any]?
    var timestampTop: [String: Any]?
    var timestampBottom: [String: Any]?
    var reply: [String: Any]?
    var body: String
    var reactions: [[String: Any]]
    var footer: [String: Any]?

    func child(named name: String) -> Any? {
        switch name {
        case "anchor": return anchor
        case "id": return id
        case "kind": return kind
        case "sender": return sender
        case "align": return align
        case "position": return position
        case "avatar": return avatar
        case "header": return header
        case "timestampTop": return timestampTop
        case "timestampBottom": return timestampBottom
        case "reply": return reply
        case "body": return body
        case "hasReactions": return !reactions.isEmpty
        case "reactions": return reactions
        case "footer": return footer
        default: return nil
        }
    }
}

/// Permalink anchors of one conversation: `m-<slug of id>`, made unique when two ids slug alike.
struct AnchorTable: Sendable {
    /// Anchors of ids that are not already slugs; the common case leaves this empty.
    private var slugged: [String: String] = [:]

    init(messages: [Message]) {
        guard messages.contains(where: { !HTMLText.isSlug($0.id) }) else { return }
        var used = Set(messages.lazy.filter { HTMLText.isSlug($0.id) }.map(\.id))
        for message in messages where !HTMLText.isSlug(message.id) && slugged[message.id] == nil {
            var base = HTMLText.slug(message.id)
            if base.isEmpty { base = "x" }
            var candidate = base
            var suffix = 2
            while used.contains(candidate) {
                candidate = "\(base)-\(suffix)"
                suffix += 1
            }
            used.insert(candidate)
            slugged[message.id] = candidate
        }
    }

    /// The element id of message `id`.
    func anchor(_ id: String) -> String {
        "m-" + (slugged[id] ?? id)
    }
}

/// Where a media reference points once the site's rules are applied.
enum ResolvedMedia {
    /// A URL the page may load (relative to the page, or http(s) when remote media is on).
    case url(String)
    /// Not loadable: the original reference (shown as text) and, for remote media that is
    /// turned off, the link to open it.
    case placeholder(original: String, link: String?)
}

/// Renders the rows of one conversation's pages: messages and day separators.
struct MessageRenderer {
    let templates: TemplateLibrary
    let customRenderers: [String: any CustomMessageRenderer]
    let remoteMedia: Bool
    let layout: ConversationLayout
    let anchors: AnchorTable
    let linkifier: TextLinkifier
    /// Relative path from a conversation page to the site root.
    let root = "../"
    let bubbleMaxWidth: String
    let cornerRadius: String
    let showsAvatars: Bool
    let showsHeaders: Bool
    let showsFooters: Bool
    /// Participants by id, with their avatar HTML context precomputed once.
    let avatarContexts: [String: [String: Any]]
    let headerContexts: [String: [String: Any]]

    /// Warnings found while rendering (unknown custom renderers).
    var diagnostics: [Diagnostic] = []
    /// Extra files the messages need (contact cards' `.vcf`).
    var extraFiles: [RenderedFile] = []

    init(
        layout: ConversationLayout, templates: TemplateLibrary, customRenderers: [String: any CustomMessageRenderer],
        remoteMedia: Bool
    ) {
        self.layout = layout
        self.templates = templates
        self.customRenderers = customRenderers
        self.remoteMedia = remoteMedia
        self.anchors = AnchorTable(messages: layout.conversation.messages)
        self.linkifier = TextLinkifier(participants: layout.conversation.participants)
        self.bubbleMaxWidth = layout.options.messageMaxWidth.description
        self.cornerRadius = layout.options.messageCornerRadius.description
        self.showsAvatars = !templates.isEmpty("avatar")
        self.showsHeaders = !templates.isEmpty("header")
        self.showsFooters = !templates.isEmpty("footer")
        var avatars: [String: [String: Any]] = [:]
        var headers: [String: [String: Any]] = [:]
        for participant in layout.conversation.participants {
            let colour = Self.colourAttributes(participant)
            var avatar: [String: Any] = ["name": participant.name, "initials": HTMLText.initials(participant.name)]
            avatar.merge(colour) { $1 }
            if let source = participant.avatar,
                case .url(let url) = Self.resolve(source, root: "../", remoteMedia: remoteMedia)
            {
                avatar["src"] = url
            }
            avatars[participant.id] = avatar
            var header: [String: Any] = ["name": participant.name, "anchor": "p-" + HTMLText.slug(participant.id)]
            header.merge(colour) { $1 }
            headers[participant.id] = header
        }
        self.avatarContexts = avatars
        self.headerContexts = headers
    }

    /// `class` (palette class `c0`…`c11` derived from the id) or `style` (the validated colour).
    static func colourAttributes(_ participant: Participant) -> [String: Any] {
        if let colour = participant.color, HTMLText.isHexColor(colour) {
            return ["colorClass": "cx", "colorStyle": "--pc:\(colour)"]
        }
        return ["colorClass": "c\(HTMLText.stableHash(participant.id) % 12)"]
    }

    /// Applies the site's media rules to `source`, relative to a page whose root is `root`.
    static func resolve(_ source: MediaSource, root: String, remoteMedia: Bool) -> ResolvedMedia {
        switch source {
        case .local(let asset):
            let path = asset.sitePath
            guard !path.isEmpty, !path.hasPrefix("/"), !path.contains(":"), !path.contains("..") else {
                return .placeholder(original: path, link: nil)
            }
            return .url(root + path)
        case .remote(let url):
            guard let safe = HTMLText.safeWebURL(url) else { return .placeholder(original: url, link: nil) }
            return remoteMedia ? .url(safe) : .placeholder(original: url, link: safe)
        case .unavailable(let original):
            return .placeholder(original: original, link: nil)
        }
    }

    /// The HTML of one row, appended to `output`.
    mutating func render(_ item: LayoutItem, pageIndex: Int, into output: inout String) {
        switch item {
        case .daySeparator(let separator):
            output += templates.render("day-separator", ["text": separator.day.text, "iso": separator.day.iso])
        case .message(let message):
            output += renderMessage(message, pageIndex: pageIndex)
        }
        output += "\n"
    }

    /// The link to message `id` on page `targetPage`, from page `pageIndex`.
    func link(toMessage id: String, onPage targetPage: Int, from pageIndex: Int) -> String {
        let anchor = anchors.anchor(id)
        if targetPage == pageIndex { return "#" + anchor }
        return SiteRenderer.pageFileName(targetPage) + "#" + anchor
    }

    mutating func renderMessage(_ item: MessageLayout, pageIndex: Int) -> String {
        let message = item.message
        let anchor = anchors.anchor(message.id)
        let isSystem = message.kind.name == .system
        let senderID = isSystem ? nil : message.sender

        var avatar: [String: Any]?
        if showsAvatars, item.showsAvatar, !isSystem, let senderID {
            avatar = avatarContexts[senderID]
        }
        var header: [String: Any]?
        if showsHeaders, item.showsHeader, !isSystem, let senderID {
            header = headerContexts[senderID]
        }
        var time: [String: Any]?
        if item.timestamp != .hidden {
            time = [
                "anchor": anchor, "text": item.time.text, "iso": item.time.iso,
                "where": item.timestamp == .top ? "tt" : "tb",
            ]
        }
        var footer: [String: Any]?
        if showsFooters, item.showsFooter, !isSystem {
            var parts: [String: Any] = [:]
            if let edited = item.edited { parts["edited"] = ["text": edited.text, "iso": edited.iso] }
            if item.alignment == .right, let status = message.status {
                switch status {
                case .sent: parts["status"] = ["mark": "✓", "label": "Sent", "cls": "sent"]
                case .delivered: parts["status"] = ["mark": "✓✓", "label": "Delivered", "cls": "dlv"]
                case .read: parts["status"] = ["mark": "✓✓", "label": "Read", "cls": "read"]
                }
            }
            if !parts.isEmpty { footer = parts }
        }
        var reply: [String: Any]?
        if let preview = item.reply {
            var context: [String: Any] = [
                "href": link(toMessage: preview.messageID, onPage: preview.pageIndex, from: pageIndex),
                "excerpt": preview.excerpt,
            ]
            if let name = preview.senderName { context["sender"] = name }
            reply = context
        }
        let reactions: [[String: Any]] = item.reactions.map { reaction in
            ["emoji": reaction.emoji, "count": reaction.count, "names": reaction.senderNames.joined(separator: ", ")]
        }
        let context = MessageContext(
            anchor: anchor, id: message.id, kind: message.kind.name.rawValue, sender: senderID,
            align: item.alignment.rawValue, position: item.groupPosition.rawValue, avatar: avatar, header: header,
            timestampTop: item.timestamp == .top ? time : nil, timestampBottom: item.timestamp == .bottom ? time : nil,
            reply: reply, body: renderBody(item, anchor: anchor), reactions: reactions, footer: footer)
        return templates.render("message", context)
    }

    // MARK: - Bodies

    /// The bubble (or, for system messages, the centred note) of `item`.
    mutating func renderBody(_ item: MessageLayout, anchor: String) -> String {
        switch item.message.kind {
        case .text(let text):
            return templates.render("kinds/text", ["html": linkifier.html(text)])
        case .attributedText(let rich):
            return templates.render("kinds/attributedText", ["html": Self.rebaseRoot(rich.html, root: root)])
        case .emoji(let text):
            return templates.render("kinds/emoji", ["text": text])
        case .system(let text):
            return templates.render("kinds/system", ["text": text])
        case .photo(let media):
            var context: [String: Any] = [:]
            if let caption = media.caption, !caption.isEmpty { context["caption"] = caption }
            switch resolve(media.source) {
            case .url(let url):
                var image: [String: Any] = ["src": url, "alt": media.alt ?? media.caption ?? ""]
                if let size = media.size, size.width > 0, size.height > 0 {
                    image["size"] = ["w": size.width, "h": size.height]
                }
                context["image"] = image
            case .placeholder(let original, let link):
                context["placeholder"] = placeholder(original: original, link: link, label: "Image")
            }
            return templates.render("kinds/photo", context)
        case .video(let media):
            var context: [String: Any] = [:]
            if let caption = media.caption, !caption.isEmpty { context["caption"] = caption }
            if let duration = media.duration.flatMap(HTMLText.duration) { context["duration"] = duration }
            switch resolve(media.source) {
            case .url(let url):
                var video: [String: Any] = ["src": url]
                if let size = media.size, size.width > 0, size.height > 0 {
                    video["size"] = ["w": size.width, "h": size.height]
                }
                if let poster = media.poster, case .url(let posterURL) = resolve(poster) { video["poster"] = posterURL }
                if let title = media.title { video["title"] = title }
                context["video"] = video
            case .placeholder(let original, let link):
                context["placeholder"] = placeholder(original: original, link: link, label: "Video")
            }
            return templates.render("kinds/video", context)
        case .audio(let media):
            var context: [String: Any] = [:]
            if let title = media.title, !title.isEmpty { context["title"] = title }
            if let duration = media.duration.flatMap(HTMLText.duration) { context["duration"] = duration }
            switch resolve(media.source) {
            case .url(let url): context["src"] = url
            case .placeholder(let original, let link):
                context["placeholder"] = placeholder(original: original, link: link, label: "Audio")
            }
            return templates.render("kinds/audio", context)
        case .location(let location):
            var context: [String: Any] = [:]
            if let name = location.name, !name.isEmpty { context["name"] = name }
            if let address = location.address, !address.isEmpty { context["address"] = address }
            if location.latitude.isFinite, location.longitude.isFinite, abs(location.latitude) <= 90,
                abs(location.longitude) <= 180
            {
                let lat = HTMLText.coordinate(location.latitude)
                let lon = HTMLText.coordinate(location.longitude)
                context["coords"] = "\(lat), \(lon)"
                context["href"] = "https://www.openstreetmap.org/?mlat=\(lat)&mlon=\(lon)#map=16/\(lat)/\(lon)"
            }
            if context["name"] == nil, context["address"] == nil { context["name"] = "Location" }
            return templates.render("kinds/location", context)
        case .contact(let contact):
            let vcfPath = layout.conversation.id + "/" + anchor + ".vcf"
            extraFiles.append(RenderedFile(path: vcfPath, contents: Array(Self.vCard(contact).utf8)))
            let phones: [[String: Any]] = contact.phones.map { phone in
                let dialable = String(phone.unicodeScalars.filter { "0123456789+*#".unicodeScalars.contains($0) }.map(Character.init))
                var entry: [String: Any] = ["text": phone]
                if !dialable.isEmpty { entry["href"] = "tel:" + dialable }
                return entry
            }
            let emails: [[String: Any]] = contact.emails.map { email in
                var entry: [String: Any] = ["text": email]
                if Self.isPlainEmail(email) { entry["href"] = "mailto:" + email }
                return entry
            }
            var fileName = HTMLText.slug(contact.name)
            if fileName.isEmpty { fileName = "contact" }
            return templates.render(
                "kinds/contact",
                [
                    "name": contact.name, "initials": HTMLText.initials(contact.name), "phones": phones,
                    "emails": emails, "vcf": anchor + ".vcf", "vcfName": fileName + ".vcf",
                ])
        case .linkPreview(let text, let link):
            var card: [String: Any] = [:]
            if let url = HTMLText.safeLinkURL(link.url) {
                card["href"] = url
                if let host = HTMLText.host(of: url) { card["domain"] = host }
            } else {
                card["domain"] = link.url
            }
            if let title = link.title, !title.isEmpty { card["title"] = title }
            if let teaser = link.teaser, !teaser.isEmpty { card["teaser"] = teaser }
            if let site = link.siteName, !site.isEmpty { card["site"] = site }
            if let thumbnail = link.thumbnail, case .url(let url) = resolve(thumbnail) { card["thumb"] = url }
            var context: [String: Any] = ["card": card]
            if !text.isEmpty { context["html"] = linkifier.html(text) }
            return templates.render("kinds/linkPreview", context)
        case .custom(let custom):
            return renderCustom(custom, item: item)
        }
    }

    mutating func renderCustom(_ custom: CustomItem, item: MessageLayout) -> String {
        let info = CustomRendererInfo(
            bubbleMaxWidth: bubbleMaxWidth, cornerRadius: cornerRadius, message: item, rootPath: root)
        if let renderer = customRenderers[custom.id] {
            return templates.render("kinds/custom", ["id": custom.id, "html": renderer.render(item: custom, info: info)])
        }
        let templateName = "custom/" + custom.id
        if !custom.id.contains("/"), templates.contains(templateName) {
            var message: [String: Any] = [
                "id": item.message.id, "date": item.time.text, "iso": item.time.iso,
            ]
            if let sender = item.sender {
                message["sender"] = sender.id
                message["senderName"] = sender.name
            }
            var context: [String: Any] = [
                "id": custom.id, "message": message, "bubbleMaxWidth": bubbleMaxWidth, "cornerRadius": cornerRadius,
            ]
            if let data = custom.data.mustacheValue { context["data"] = data }
            let inner = templates.render(templateName, context)
            return templates.render("kinds/custom", ["id": custom.id, "html": inner])
        }
        diagnostics.append(.warning(.unknownCustomRenderer(custom.id), at: item.message.location))
        return templates.render("kinds/custom-fallback", ["id": custom.id, "json": custom.data.prettyJSON])
    }

    func resolve(_ source: MediaSource) -> ResolvedMedia {
        Self.resolve(source, root: root, remoteMedia: remoteMedia)
    }

    /// The image placeholder (site template `image-placeholder`) as HTML.
    func placeholder(original: String, link: String?, label: String) -> String {
        var context: [String: Any] = ["original": original, "label": label]
        if let link { context["link"] = link }
        return templates.render("image-placeholder", context)
    }

    /// Rich text with the readers' `@root/` prefix (local media) replaced by the page's root.
    static func rebaseRoot(_ html: String, root: String) -> String {
        guard html.contains("@root/") else { return html }
        return html.replacingOccurrences(of: "=\"@root/", with: "=\"" + root)
            .replacingOccurrences(of: "='@root/", with: "='" + root)
    }

    /// An address fit for a `mailto:` link: one `@`, no spaces, quotes, angle brackets or `?`.
    static func isPlainEmail(_ email: String) -> Bool {
        var atCount = 0
        for byte in email.utf8 {
            if byte == UInt8(ascii: "@") { atCount += 1 }
            if byte <= 0x20 || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "\"")
                || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: ":")
                || byte == 0x7F
            {
                return false
            }
        }
        return atCount == 1 && !email.hasPrefix("@") && !email.hasSuffix("@")
    }

    /// A vCard 3.0 for `contact`, with text values escaped per RFC 6350.
    static func vCard(_ contact: ContactItem) -> String {
        func value(_ text: String) -> String {
            var output = ""
            for character in text {
                switch character {
                case "\\": output += "\\\\"
                case ",": output += "\\,"
                case ";": output += "\\;"
                case "\n", "\r\n", "\r": output += "\\n"
                default: output.append(character)
                }
            }
            return output
        }
        var card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:\(value(contact.name))\r\nN:\(value(contact.name));;;;\r\n"
        for phone in contact.phones { card += "TEL:\(value(phone))\r\n" }
        for email in contact.emails { card += "EMAIL:\(value(email))\r\n" }
        card += "END:VCARD\r\n"
        return card
    }
}
