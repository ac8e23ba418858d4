import Foundation
import Mustache
import ScrollbackLayout
import ScrollbackModel

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
        if slugged.isEmpty { return "m-" + id }  // no hashing in the common case
        return "m-" + (slugged[id] ?? id)
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
    let rows: RowTemplates
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
    /// Avatar and header views of every participant, made once.
    let avatars: [String: AvatarView]
    let headers: [String: HeaderView]
    /// Both, with what the row templates draw for them, and the display name a row gives the
    /// sender (`MessageLayout.sender`'s: the first participant with the id), by participant id:
    /// one lookup per message.
    let senderParts: [String: SenderParts]

    /// Warnings found while rendering (unknown custom renderers).
    var diagnostics: [Diagnostic] = []
    /// Extra files the messages need (contact cards' `.vcf`).
    var extraFiles: [RenderedFile] = []
    /// The page of the last row rendered, and whether a message has been rendered on it yet.
    private var currentPage = -1
    private var pageHasMessage = false

    init(
        layout: ConversationLayout, rows: RowTemplates, customRenderers: [String: any CustomMessageRenderer],
        remoteMedia: Bool
    ) {
        self.layout = layout
        self.rows = rows
        self.templates = rows.library
        self.customRenderers = customRenderers
        self.remoteMedia = remoteMedia
        self.anchors = AnchorTable(messages: layout.conversation.messages)
        self.linkifier = TextLinkifier(participants: layout.conversation.participants)
        self.bubbleMaxWidth = layout.options.messageMaxWidth.description
        self.cornerRadius = layout.options.messageCornerRadius.description
        self.showsAvatars = !templates.isEmpty("avatar")
        self.showsHeaders = !templates.isEmpty("header")
        self.showsFooters = !templates.isEmpty("footer")
        var avatars: [String: AvatarView] = [:]
        var headers: [String: HeaderView] = [:]
        for participant in layout.conversation.participants {
            let (colorClass, colorStyle) = Self.colour(participant)
            var avatar = AvatarView(
                name: participant.name, initials: HTMLText.initials(participant.name), colorClass: colorClass,
                colorStyle: colorStyle, src: nil)
            if let source = participant.avatar,
                case .url(let url) = Self.resolve(source, root: "../", remoteMedia: remoteMedia)
            {
                avatar.src = url
            }
            avatars[participant.id] = avatar
            headers[participant.id] = HeaderView(
                name: participant.name, anchor: HTMLText.participantAnchor(participant.id), colorClass: colorClass,
                colorStyle: colorStyle)
        }
        self.avatars = avatars
        self.headers = headers
        var names: [String: String] = [:]
        for participant in layout.conversation.participants where names[participant.id] == nil {
            names[participant.id] = participant.name
        }
        var senderParts: [String: SenderParts] = [:]
        for (id, avatar) in avatars {
            guard var header = headers[id], let name = names[id] else { continue }
            var drawnAvatar = avatar
            drawnAvatar.rendered = Array(rows.render(avatar).utf8)
            header.rendered = Array(rows.render(header).utf8)
            senderParts[id] = SenderParts(avatar: SharedView(drawnAvatar), header: SharedView(header), name: name)
        }
        self.senderParts = senderParts
    }

    /// Palette class `c0`…`c11` derived from the id, or `cx` with the participant's validated colour as `--pc`
    /// (plus `lt` when the colour is too light for white initials, so the CSS keeps AA contrast).
    static func colour(_ participant: Participant) -> (colorClass: String, colorStyle: String?) {
        if let colour = participant.color, HTMLText.isHexColor(colour) {
            return (isLight(colour) ? "cx lt" : "cx", "--pc:\(colour)")
        }
        return ("c\(HTMLText.stableHash(participant.id) % 12)", nil)
    }

    /// Whether white text on `hex` (`#rgb`/`#rrggbb`) falls below 4.5:1 (WCAG relative luminance above 0.183).
    static func isLight(_ hex: String) -> Bool {
        var digits = Array(hex.utf8.dropFirst()).map { byte -> Double in
            Double(Int(String(UnicodeScalar(byte)), radix: 16) ?? 0)
        }
        if digits.count == 3 { digits = digits.flatMap { [$0, $0] } }
        func channel(_ index: Int) -> Double {
            let value = (digits[index * 2] * 16 + digits[index * 2 + 1]) / 255
            return value <= 0.03928 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        let luminance = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2)
        return luminance > 0.183
    }

    /// Whether `path` contains `..`: byte by byte for ASCII text, through Foundation otherwise.
    private static func containsDotDot(_ path: String) -> Bool {
        var previousWasDot = false
        var found = false
        for byte in path.utf8 {
            if byte >= 0x80 { return path.contains("..") }
            let isDot = byte == UInt8(ascii: ".")
            if isDot && previousWasDot { found = true }
            previousWasDot = isDot
        }
        return found
    }

    /// Whether `path` contains `:`: byte by byte for ASCII text, through Foundation otherwise (whose
    /// `contains` this replaces on the hot path: every media message asks).
    private static func containsColon(_ path: String) -> Bool {
        var found = false
        for byte in path.utf8 {
            if byte >= 0x80 { return path.contains(":") }
            if byte == UInt8(ascii: ":") { found = true }
        }
        return found
    }

    /// Applies the site's media rules to `source`, relative to a page whose root is `root`.
    static func resolve(_ source: MediaSource, root: String, remoteMedia: Bool) -> ResolvedMedia {
        switch source {
        case .local(let asset):
            let path = asset.sitePath
            guard !path.isEmpty, !path.hasPrefix("/"), !containsColon(path), !containsDotDot(path) else {
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
    mutating func render(_ item: LayoutItem, pageIndex: Int, into output: inout HTMLBuffer) {
        switch item {
        case .daySeparator(let separator):
            renderDay(separator, into: &output)
        case .message(let message):
            renderMessage(
                in: [message.message], at: 0, parts: MessageRowParts(message), pageIndex: pageIndex,
                layout: { message }, into: &output)
        }
        output.append(UInt8(ascii: "\n"))
    }

    /// The HTML of one row of `plan`, appended to `output`: the bytes of `render(_:pageIndex:into:)`
    /// for the same row, with the message read in place in the plan.
    mutating func render(_ row: PlannedRow, of plan: ConversationPlan, pageIndex: Int, into output: inout HTMLBuffer) {
        switch row {
        case .daySeparator(let separator):
            renderDay(separator, into: &output)
        case .message(let index, let decisions):
            renderMessage(
                in: plan.conversation.messages, at: index, parts: MessageRowParts(plan, index, decisions),
                pageIndex: pageIndex, layout: { plan.messageLayout(index) }, into: &output)
        }
        output.append(UInt8(ascii: "\n"))
    }

    private func renderDay(_ separator: DaySeparator, into output: inout HTMLBuffer) {
        rows.render(
            DayView(text: separator.day.text, iso: separator.day.iso, repeats: separator.repeatsPreviousPage),
            into: &output)
    }

    /// The row of `messages[index]` (read in place: a copy of a message retains all it holds);
    /// `layout` makes its whole `MessageLayout`, which only custom renderers and templates need.
    private mutating func renderMessage(
        in messages: [Message], at index: Int, parts: MessageRowParts, pageIndex: Int,
        layout: () -> MessageLayout, into output: inout HTMLBuffer
    ) {
        if pageIndex != currentPage {
            currentPage = pageIndex
            pageHasMessage = false
        }
        var view = messageView(in: messages, at: index, parts: parts, pageIndex: pageIndex)
        if !pageHasMessage {
            pageHasMessage = true
            // A group that began on the previous page: say who is speaking here too.
            if pageIndex > 0, view.header == nil, showsHeaders, let name = view.senderName {
                view.continuedName = name
            }
        }
        if rows.isCompiled(.message) {
            // The bubble goes straight into the page, between the message's opening and closing.
            view.writeOpening(into: &output, parts: rows)
            renderBody(messages[index].kind, layout: layout, anchor: view.anchor, into: &output)
            view.writeClosing(into: &output, parts: rows)
        } else {
            var body = HTMLBuffer(capacity: 1024)
            renderBody(messages[index].kind, layout: layout, anchor: view.anchor, into: &body)
            view.body = body.string
            rows.render(view, into: &output)
        }
    }

    /// The HTML of one row, appended to `output` (see the byte version).
    mutating func render(_ item: LayoutItem, pageIndex: Int, into output: inout String) {
        var bytes = HTMLBuffer(capacity: 1024)
        render(item, pageIndex: pageIndex, into: &bytes)
        output += bytes.string
    }

    /// The link to message `id` on page `targetPage`, from page `pageIndex`.
    func link(toMessage id: String, onPage targetPage: Int, from pageIndex: Int) -> String {
        let anchor = anchors.anchor(id)
        if targetPage == pageIndex { return "#" + anchor }
        return SiteRenderer.pageFileName(targetPage) + "#" + anchor
    }

    /// The view of `messages[index]`; its `body` is left empty (see `renderBody`).
    mutating func messageView(
        in messages: [Message], at index: Int, parts item: MessageRowParts, pageIndex: Int
    )
        -> MessageView
    {
        let anchor = anchors.anchor(messages[index].id)
        let isSystem = messages[index].kind.name == .system
        let senderID = isSystem ? nil : messages[index].sender
        let decisions = item.decisions

        var avatar: SharedView<AvatarView>?
        var header: SharedView<HeaderView>?
        var senderName = isSystem ? nil : item.senderName
        if !isSystem, let senderID, let parts = senderParts[senderID] {
            if showsAvatars, decisions.showsAvatar { avatar = parts.avatar }
            if showsHeaders, decisions.showsHeader { header = parts.header }
            if item.namesSenderByParticipants { senderName = parts.name }
        }
        var timestampTop: TimeView?
        var timestampBottom: TimeView?
        switch decisions.timestamp {
        case .top: timestampTop = TimeView(anchor: anchor, text: item.timeText, iso: item.iso, placement: "tt")
        case .bottom: timestampBottom = TimeView(anchor: anchor, text: item.timeText, iso: item.iso, placement: "tb")
        case .hidden: break
        }
        var footer: FooterView?
        if showsFooters, decisions.showsFooter, !isSystem {
            var view = FooterView(editedText: item.edited?.text, editedISO: item.edited?.iso, status: nil)
            if decisions.alignment == .right, let status = messages[index].status {
                switch status {
                case .sent: view.status = (mark: "✓", label: "Sent", cls: "sent")
                case .delivered: view.status = (mark: "✓✓", label: "Delivered", cls: "dlv")
                case .read: view.status = (mark: "✓✓", label: "Read", cls: "read")
                }
            }
            if view.editedText != nil || view.status != nil { footer = view }
        }
        var reply: ReplyView?
        if let preview = item.reply {
            reply = ReplyView(
                href: link(toMessage: preview.messageID, onPage: preview.pageIndex, from: pageIndex),
                sender: preview.senderName, excerpt: preview.excerpt)
        }
        var reactions: [ReactionView] = []
        if !item.reactions.isEmpty {
            reactions = item.reactions.map { reaction in
                ReactionView(emoji: reaction.emoji, count: reaction.count, senderNames: reaction.senderNames)
            }
        }
        return MessageView(
            anchor: anchor, id: messages[index].id, kind: messages[index].kind.name.rawValue, sender: senderID,
            align: decisions.alignment.rawValue, position: decisions.groupPosition.rawValue, avatar: avatar,
            header: header, timestampTop: timestampTop, timestampBottom: timestampBottom,
            reply: reply, body: "", reactions: reactions, footer: footer,
            spokenSender: isSystem || header != nil ? nil : senderName ?? senderID,
            spokenTime: decisions.timestamp == .hidden ? item.timeText : nil, senderName: senderName)
    }

    /// What a screen reader must hear before the message's text when the page does not draw it:
    /// "Mia Hoffmann, 9:02 AM:", "Mia Hoffmann:" or "9:02 AM:"; `nil` when both are drawn.
    static func spokenLabel(sender: String?, time: String?) -> String? {
        switch (sender, time) {
        case (nil, nil): return nil
        case (let sender?, nil): return sender + ":"
        case (nil, let time?): return time + ":"
        case (let sender?, let time?): return sender + ", " + time + ":"
        }
    }

    // MARK: - Bodies

    /// The bubble (or, for system messages, the centred note) of `item`.
    mutating func renderBody(
        _ kind: MessageKind, layout item: () -> MessageLayout, anchor: String, into output: inout HTMLBuffer
    ) {
        switch kind {
        case .text(let text):
            if rows.isCompiled(.text) {
                // Linkified straight into the page: the view's `write`, with the text in place of `html`.
                let bubble = HTMLBodyView(template: .text, html: "")
                bubble.writeOpening(into: &output)
                linkifier.append(text, to: &output)
                bubble.writeClosing(into: &output)
            } else {
                rows.render(HTMLBodyView(template: .text, html: linkifier.html(text)), into: &output)
            }
        case .attributedText(let rich) where rows.isCompiled(.attributedText) && Self.isPlainRichText(rich.html):
            // Nothing to rebase, label or clean: the sanitized HTML goes straight into the page.
            let bubble = HTMLBodyView(template: .attributedText, html: "")
            bubble.writeOpening(into: &output)
            raw(rich.html, &output)
            bubble.writeClosing(into: &output)
        case .attributedText(let rich):
            rows.render(
                HTMLBodyView(
                    template: .attributedText,
                    html: Self.labelTaskCheckboxes(
                        HTMLText.replacingForbiddenCodePoints(Self.rebaseRoot(rich.html, root: root)))),
                into: &output)
        case .emoji(let text):
            rows.render(TextBodyView(template: .emoji, text: text), into: &output)
        case .system(let text):
            rows.render(TextBodyView(template: .system, text: text), into: &output)
        case .photo(let media):
            var view = PhotoView(src: nil, alt: "", size: nil, placeholder: nil, caption: nonEmpty(media.caption))
            switch resolve(media.source) {
            case .url(let url):
                view.src = url
                view.alt = media.alt ?? media.caption ?? ""
                view.size = sizeView(media.size)
            case .placeholder(let original, let link):
                view.placeholder = placeholder(original: original, link: link, label: "Image")
            }
            rows.render(view, into: &output)
        case .video(let media):
            var view = VideoView(
                src: nil, poster: nil, size: nil, title: nil, placeholder: nil, caption: nonEmpty(media.caption),
                duration: media.duration.flatMap(HTMLText.duration))
            switch resolve(media.source) {
            case .url(let url):
                view.src = url
                view.size = sizeView(media.size)
                if let poster = media.poster, case .url(let posterURL) = resolve(poster) { view.poster = posterURL }
                view.title = nonEmpty(media.title)
            case .placeholder(let original, let link):
                view.placeholder = placeholder(original: original, link: link, label: "Video")
            }
            rows.render(view, into: &output)
        case .audio(let media):
            var view = AudioView(
                title: nonEmpty(media.title), src: nil, placeholder: nil,
                duration: media.duration.flatMap(HTMLText.duration))
            switch resolve(media.source) {
            case .url(let url): view.src = url
            case .placeholder(let original, let link):
                view.placeholder = placeholder(original: original, link: link, label: "Audio")
            }
            rows.render(view, into: &output)
        case .location(let location):
            var view = LocationView(
                name: nonEmpty(location.name), address: nonEmpty(location.address), coords: nil, href: nil)
            if location.latitude.isFinite, location.longitude.isFinite, abs(location.latitude) <= 90,
                abs(location.longitude) <= 180
            {
                let lat = HTMLText.coordinate(location.latitude)
                let lon = HTMLText.coordinate(location.longitude)
                view.coords = "\(lat), \(lon)"
                view.href = "https://www.openstreetmap.org/?mlat=\(lat)&mlon=\(lon)#map=16/\(lat)/\(lon)"
            }
            if view.name == nil, view.address == nil { view.name = "Location" }
            rows.render(view, into: &output)
        case .contact(let contact):
            extraFiles.append(
                RenderedFile(
                    path: layout.conversation.id + "/" + anchor + ".vcf", contents: Array(Self.vCard(contact).utf8)))
            let phones = contact.phones.map { phone in
                let dialable = String(
                    phone.unicodeScalars.filter { "0123456789+*#".unicodeScalars.contains($0) }.map(Character.init))
                return ContactLinkView(text: phone, href: dialable.isEmpty ? nil : "tel:" + dialable)
            }
            let emails = contact.emails.map { email in
                ContactLinkView(text: email, href: Self.isPlainEmail(email) ? "mailto:" + email : nil)
            }
            var fileName = HTMLText.slug(contact.name)
            if fileName.isEmpty { fileName = "contact" }
            rows.render(
                ContactView(
                    name: contact.name, initials: HTMLText.initials(contact.name), phones: phones, emails: emails,
                    vcf: anchor + ".vcf", vcfName: fileName + ".vcf"),
                into: &output)
        case .linkPreview(let text, let link):
            var view = LinkPreviewView(
                html: text.isEmpty ? nil : linkifier.html(text), href: nil, title: nonEmpty(link.title),
                teaser: nonEmpty(link.teaser), site: nonEmpty(link.siteName), domain: nil, thumb: nil)
            if let url = HTMLText.safeLinkURL(link.url) {
                view.href = url
                view.domain = HTMLText.host(of: url) ?? url
            } else {
                view.domain = link.url
            }
            if let thumbnail = link.thumbnail, case .url(let url) = resolve(thumbnail) { view.thumb = url }
            rows.render(view, into: &output)
        case .custom(let custom):
            rows.render(renderCustom(custom, item: item()), into: &output)
        }
    }

    /// The bubble of a `custom` message: a custom renderer's, the template's, or the fallback card.
    mutating func renderCustom(_ custom: CustomItem, item: MessageLayout) -> any RowView {
        let info = CustomRendererInfo(
            bubbleMaxWidth: bubbleMaxWidth, cornerRadius: cornerRadius, message: item, rootPath: root)
        if let renderer = customRenderers[custom.id] {
            return CustomView(id: custom.id, html: renderer.render(item: custom, info: info))
        }
        if rows.compiledPoll, custom.id == "poll", let html = CompiledPollTemplate.render(custom.data) {
            return CustomView(id: custom.id, html: HTMLText.replacingForbiddenCodePoints(html))
        }
        let templateName = "custom/" + custom.id
        if templates.contains(templateName) {
            var message: [String: Any] = ["id": item.message.id, "date": item.time.text, "iso": item.time.iso]
            if let sender = item.sender {
                message["sender"] = sender.id
                message["senderName"] = sender.name
            }
            let context = Self.customTemplateContext(
                id: custom.id, message: message, bubbleMaxWidth: bubbleMaxWidth, cornerRadius: cornerRadius,
                data: custom.data)
            // swift-mustache's escaping keeps control characters of the log's data; a page may not.
            let html = HTMLText.replacingForbiddenCodePoints(templates.render(templateName, context))
            return CustomView(id: custom.id, html: html)
        }
        diagnostics.append(.warning(.unknownCustomRenderer(custom.id), at: item.message.location))
        return CustomFallbackView(id: custom.id, json: custom.data.prettyJSON)
    }

    /// What a `custom/<id>` template is rendered with.
    static func customTemplateContext(
        id: String, message: [String: Any], bubbleMaxWidth: String, cornerRadius: String, data: JSONValue
    ) -> [String: Any] {
        var context: [String: Any] = [
            "id": id, "message": message, "bubbleMaxWidth": bubbleMaxWidth, "cornerRadius": cornerRadius,
        ]
        if let data = data.mustacheValue { context["data"] = data }
        return context
    }

    func resolve(_ source: MediaSource) -> ResolvedMedia {
        Self.resolve(source, root: root, remoteMedia: remoteMedia)
    }

    func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    func sizeView(_ size: PixelSize?) -> SizeView? {
        guard let size, size.width > 0, size.height > 0 else { return nil }
        return SizeView(w: size.width, h: size.height)
    }

    /// The image placeholder (template `image-placeholder`) as HTML.
    func placeholder(original: String, link: String?, label: String) -> String {
        rows.render(PlaceholderView(original: original, link: link, label: label))
    }

    /// Whether `html` comes out of `rebaseRoot`, `labelTaskCheckboxes` and
    /// `HTMLText.replacingForbiddenCodePoints` as it is, by one look at its bytes: no `@` (which
    /// `@root/` needs), no `<in` (which a checkbox needs), and no byte that may start a code point
    /// HTML forbids (a control other than tab, line feed, form feed and carriage return; DEL;
    /// 0xC2; 0xEF and up). Text with any of them takes the three passes.
    static func isPlainRichText(_ html: String) -> Bool {
        var html = html
        return html.withUTF8 { bytes in
            let count = bytes.count
            var index = 0
            while index < count {
                let byte = bytes[index]
                if byte < 0x20 {
                    if byte != 0x09 && byte != 0x0A && byte != 0x0C && byte != 0x0D { return false }
                } else if byte == UInt8(ascii: "@") || byte == 0x7F || byte == 0xC2 || byte >= 0xEF {
                    return false
                } else if byte == UInt8(ascii: "<"), index + 2 < count, bytes[index + 1] == UInt8(ascii: "i"),
                    bytes[index + 2] == UInt8(ascii: "n")
                {
                    return false
                }
                index += 1
            }
            return true
        }
    }

    /// Rich text with the readers' `@root/` prefix (local media) replaced by the page's root:
    /// every `="@root/` becomes `="<root>` and every `='@root/` becomes `='<root>`.
    ///
    /// One pass over the UTF-8 bytes; most rich text has no `@` at all and is returned as it is.
    /// A marker next to a non-ASCII byte goes to Foundation's search, which only matches whole
    /// `Character`s (a combining mark after the `/` makes it no match), so the bytes stay the same.
    static func rebaseRoot(_ html: String, root: String) -> String {
        var bytesOfHTML = html
        let rebased = bytesOfHTML.withUTF8 { bytes -> String? in
            let marker: [UInt8] = Array("@root/".utf8)
            let count = bytes.count
            // Start of each `@root/` that follows `="` or `='`.
            var starts: [Int] = []
            var index = 2
            while index + marker.count <= count {
                if bytes[index] == UInt8(ascii: "@"), bytes[index - 2] == UInt8(ascii: "="),
                    bytes[index - 1] == UInt8(ascii: "\"") || bytes[index - 1] == UInt8(ascii: "'")
                {
                    var matches = true
                    for offset in 1..<marker.count where bytes[index + offset] != marker[offset] {
                        matches = false
                        break
                    }
                    if matches {
                        let before = index - 3
                        let after = index + marker.count
                        if (before >= 0 && bytes[before] >= 0x80) || (after < count && bytes[after] >= 0x80) {
                            return nil  // Foundation decides
                        }
                        starts.append(index)
                        index += marker.count
                        continue
                    }
                }
                index += 1
            }
            if starts.isEmpty { return html }
            var output: [UInt8] = []
            output.reserveCapacity(count + starts.count * root.utf8.count)
            var copied = 0
            for start in starts {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<start]))
                output.append(contentsOf: root.utf8)
                copied = start + marker.count
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<count]))
            return String(decoding: output, as: UTF8.self)
        }
        if let rebased { return rebased }
        return html.replacingOccurrences(of: "=\"@root/", with: "=\"" + root)
            .replacingOccurrences(of: "='@root/", with: "='" + root)
    }

    /// Rich text whose task-list checkboxes have an accessible name: `aria-label="done"` or
    /// `"not done"`. Only the readers' own output holds an `<input>` (cmark-gfm's
    /// `<input type="checkbox" checked="" disabled="" />` and the sanitizer's rewrite of a log's
    /// checkbox, same attributes without the `/`), so matching these exact bytes is enough.
    static func labelTaskCheckboxes(_ html: String) -> String {
        var html = html
        // Byte-level pass: the same non-overlapping, left-to-right replacements as the
        // Foundation fallback below. A match followed by a non-ASCII byte (which could start a
        // combining mark Foundation would treat differently) falls back to Foundation.
        let labelled: String?? = html.withUTF8 { bytes -> String?? in
            let prefix = Array("<input type=\"checkbox\" ".utf8)
            let checked = Array("checked=\"\" disabled=\"\"".utf8)
            let unchecked = Array("disabled=\"\"".utf8)
            let doneLabel = Array(" aria-label=\"done\"".utf8)
            let notDoneLabel = Array(" aria-label=\"not done\"".utf8)
            let count = bytes.count
            func matches(_ needle: [UInt8], at index: Int) -> Bool {
                guard index + needle.count <= count else { return false }
                for offset in 0..<needle.count where bytes[index + offset] != needle[offset] { return false }
                return true
            }
            var output: [UInt8] = []
            var copied = 0
            var index = 0
            while index + prefix.count <= count {
                guard bytes[index] == UInt8(ascii: "<"), matches(prefix, at: index) else {
                    index += 1
                    continue
                }
                let rest = index + prefix.count
                let label: [UInt8]
                let matchEnd: Int
                if matches(checked, at: rest) {
                    label = doneLabel
                    matchEnd = rest + checked.count
                } else if matches(unchecked, at: rest) {
                    label = notDoneLabel
                    matchEnd = rest + unchecked.count
                } else {
                    index += 1
                    continue
                }
                if matchEnd < count, bytes[matchEnd] >= 0x80 { return .some(nil) }
                if output.isEmpty { output.reserveCapacity(count + 64) }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<matchEnd]))
                output.append(contentsOf: label)
                copied = matchEnd
                index = matchEnd
            }
            if copied == 0 { return .none }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<count]))
            return .some(String(decoding: output, as: UTF8.self))
        }
        switch labelled {
        case .none: return html
        case .some(.some(let result)): return result
        case .some(.none): break
        }
        return
            html
            .replacingOccurrences(
                of: "<input type=\"checkbox\" checked=\"\" disabled=\"\"",
                with: "<input type=\"checkbox\" checked=\"\" disabled=\"\" aria-label=\"done\""
            )
            .replacingOccurrences(
                of: "<input type=\"checkbox\" disabled=\"\"",
                with: "<input type=\"checkbox\" disabled=\"\" aria-label=\"not done\"")
    }

    /// An address fit for a `mailto:` link: one `@`, no spaces, quotes, angle brackets, `?` or `:`.
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

/// What a message row shows besides the message itself, from a `MessageLayout` or read from a
/// `ConversationPlan` (which makes no ISO string and copies no message for it).
struct MessageRowParts {
    var decisions: RowDecisions
    /// The sender's display name (`MessageLayout.sender?.name`), unless `namesSenderByParticipants`.
    var senderName: String?
    /// Whether the sender's name is the conversation's first participant with the sender's id,
    /// found with the sender's avatar and header (`MessageRenderer.senderParts`) in one lookup.
    var namesSenderByParticipants = false
    var timeText: String
    var iso: InlineISOTime
    var edited: FormattedDate?
    var reply: ReplyPreview?
    var reactions: [ReactionSummary]

    /// The parts of `row`.
    init(_ row: MessageLayout) {
        decisions = RowDecisions(row)
        senderName = row.sender?.name
        timeText = row.time.text
        iso = InlineISOTime(text: row.time.iso)
        edited = row.edited
        reply = row.reply
        reactions = row.reactions
    }

    /// The parts of `plan.conversation.messages[index]`, whose decisions are `decisions`.
    init(_ plan: ConversationPlan, _ index: Int, _ decisions: RowDecisions) {
        self.decisions = decisions
        namesSenderByParticipants = true
        timeText = plan.timeText(ofMessage: index)
        iso = plan.isoTime(ofMessage: index)
        edited = plan.editedTime(ofMessage: index)
        reply = plan.replyPreview(ofMessage: index)
        reactions = plan.reactionSummaries(ofMessage: index)
    }
}

/// What the row templates draw for one participant, and the name a row gives them, made once per
/// conversation (`MessageRenderer.senderParts`).
final class SenderParts: @unchecked Sendable {
    let avatar: SharedView<AvatarView>
    let header: SharedView<HeaderView>
    /// The display name of the conversation's first participant with this id.
    let name: String

    init(avatar: SharedView<AvatarView>, header: SharedView<HeaderView>, name: String) {
        self.avatar = avatar
        self.header = header
        self.name = name
    }
}
