import Foundation
import Mustache
import ScrollbackLayout
import ScrollbackModel

/// `TemplateValue.writer` of a root's thread (`[data-part=thread]`): its summary, and, for a
/// short thread, its replies in place.
final class ThreadBlock: TemplateWriter {
    let thread: ThreadPlan
    unowned let rows: MessageRenderer
    /// The local day of the root: replies on that day need no day separator of their own.
    let rootDay: Int64

    init(thread: ThreadPlan, rows: MessageRenderer, rootDay: Int64) {
        self.thread = thread
        self.rows = rows
        self.rootDay = rootDay
    }

    func write(into output: HTMLBuffer) {
        let summary = thread.summary
        let view = ThreadView()
        view.count = SiteRenderer.countText(summary.replyCount, noun: "reply", plural: "replies")
        view.names = summary.replierNames.joined(separator: ", ")
        view.last = DateView(summary.lastReply)
        view.inline = summary.isInline
        if summary.isInline {
            let child = rows.renderer(of: thread)
            view.replies = .writer(PageRows(rows: child, plan: thread.replies, page: 0, continuing: rootDay))
        } else {
            view.href = summary.firstFile
        }
        rows.templates.compiledTemplate("thread").render(view, into: output)
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

/// Renders the rows of one conversation's pages, messages and day separators, through the
/// compiled row templates, into a page's bytes.
///
/// A class, made once per conversation: it holds the view models every row refills
/// (`MessageRowView`, the timestamps, the bubbles), so a row allocates nothing for its parts.
final class MessageRenderer {
    let templates: TemplateLibrary
    let customRenderers: [String: any CustomMessageRenderer]
    let remoteMedia: Bool
    /// Voice notes with a transcoded copy in the site, by the original's site path.
    var audioAlternatives: [String: AudioAlternative] = [:]
    let plan: ConversationPlan
    let anchors: AnchorTable
    /// Relative path from a conversation page to the site root.
    let root = "../"
    let bubbleMaxWidth: String
    let cornerRadius: String
    let showsAvatars: Bool
    let showsHeaders: Bool
    let showsFooters: Bool
    /// The linkifier, avatar and header views and display names of the participants, shared
    /// with this list's thread renderers.
    let participantViews: ParticipantViews

    /// Warnings found while rendering (unknown custom renderers).
    var diagnostics: [Diagnostic] = []
    /// Extra files the messages need (contact cards' `.vcf`).
    var extraFiles: [RenderedFile] = []
    /// The renderers of this list's threads, by root id, made when first needed.
    private var threadRenderers: [String: MessageRenderer] = [:]
    /// The page of the last row rendered, and whether a message has been rendered on it yet.
    private var currentPage = -1
    private var pageHasMessage = false

    // The compiled templates of a row, and the views they are rendered with, refilled per row.
    private let messageTemplate: CompiledTemplate
    private let dayTemplate: CompiledTemplate
    private let textTemplate: CompiledTemplate
    private let attributedTextTemplate: CompiledTemplate
    private let emojiTemplate: CompiledTemplate
    private let systemTemplate: CompiledTemplate
    /// The context stack's storage, reused from row to row.
    private var stack = TemplateStack()
    private let message = MessageRowView()
    private let day = DayView()
    private let timeTop = TimeView(isTop: true)
    private let timeBottom = TimeView(isTop: false)
    private let htmlBody = HTMLBodyView()
    private let textBody = TextBodyView()
    /// The page file of the row being rendered (links to messages in the same file are `#m-…`).
    private var currentFile = ""
    /// Linkified text of the current row, written in place (`htmlBody.html` points to it).
    private let linkified = HTMLBuffer(capacity: 1024)
    /// Whether the row being rendered is a document (an AI answer): its code blocks and tables
    /// get their bars and scroll boxes (`DocumentBlocks`).
    private var rowIsDocument = false
    /// Whether a document row since the last `resetCode()` had a code block: its page loads
    /// `assets/code.js` (the copy buttons and the highlighter).
    private(set) var sawCode = false

    /// Starts a page: no code block seen on it yet.
    func resetCode() { sawCode = false }

    /// What every list of a conversation shows its participants with: the timeline's renderer
    /// makes them, its threads' renderers share them (a thread's plan has the same participants).
    struct ParticipantViews {
        /// Links URLs, e-mail addresses and `@mentions` of these participants in plain text.
        var linkifier: TextLinkifier
        /// What a row shows of every participant (the first with an id), by id: one lookup per row.
        var senders: [String: Sender] = [:]

        /// A participant's display name, and its avatar and header views.
        struct Sender {
            let name: String
            let avatar: AvatarView
            let header: HeaderView
        }

        init(_ conversation: Conversation, remoteMedia: Bool) {
            linkifier = TextLinkifier(participants: conversation.participants)
            let paletteSlots = MessageRenderer.paletteSlots(conversation.participants, me: conversation.me)
            for participant in conversation.participants where senders[participant.id] == nil {
                let (colorClass, colorStyle) = MessageRenderer.colour(
                    participant, slot: paletteSlots[participant.id] ?? 0)
                var src: String?
                if let source = participant.avatar,
                    case .url(let url) = MessageRenderer.resolve(source, root: "../", remoteMedia: remoteMedia)
                {
                    src = url
                }
                senders[participant.id] = Sender(
                    name: participant.name,
                    avatar: AvatarView(
                        name: participant.name, initials: HTMLText.initials(participant.name),
                        colorClass: colorClass, colorStyle: colorStyle, src: src),
                    header: HeaderView(
                        name: participant.name, anchor: HTMLText.participantAnchor(participant.id),
                        colorClass: colorClass, colorStyle: colorStyle))
            }
        }
    }

    /// A renderer of `plan`'s rows; `participantViews` when the caller already made them for
    /// the same conversation.
    init(
        plan: ConversationPlan, templates: TemplateLibrary, customRenderers: [String: any CustomMessageRenderer],
        remoteMedia: Bool, participantViews: ParticipantViews? = nil
    ) {
        self.plan = plan
        self.templates = templates
        self.customRenderers = customRenderers
        self.remoteMedia = remoteMedia
        self.anchors = plan.anchors
        self.participantViews = participantViews ?? ParticipantViews(plan.conversation, remoteMedia: remoteMedia)
        self.bubbleMaxWidth = plan.options.messageMaxWidth.description
        self.cornerRadius = plan.options.messageCornerRadius.description
        self.showsAvatars = !templates.isEmpty("avatar")
        self.showsHeaders = !templates.isEmpty("header")
        self.showsFooters = !templates.isEmpty("footer")
        self.messageTemplate = templates.compiledTemplate("message")
        self.dayTemplate = templates.compiledTemplate("day-separator")
        self.textTemplate = templates.compiledTemplate("kinds/text")
        self.attributedTextTemplate = templates.compiledTemplate("kinds/attributedText")
        self.emojiTemplate = templates.compiledTemplate("kinds/emoji")
        self.systemTemplate = templates.compiledTemplate("kinds/system")
    }

    /// Hues in the stylesheet's palette (`c0`…`c9`, ordered so neighbours are far apart).
    static let paletteSize = 10

    /// Each participant's palette slot: the others in the order they are listed, then `me` after
    /// them. `me` comes last so the others' hues do not depend on who `me` is (its own messages
    /// show neither avatar nor name), yet it still gets a hue of its own for where it does show
    /// (the participant list): no two of the first `paletteSize` share one.
    static func paletteSlots(_ participants: [Participant], me: String?) -> [String: Int] {
        var slots: [String: Int] = [:]
        for participant in participants where participant.id != me && slots[participant.id] == nil {
            slots[participant.id] = slots.count
        }
        if let me { slots[me] = slots.count }
        return slots
    }

    /// Palette class `c<slot>` (a slot of `paletteSlots`), or `cx`
    /// with the participant's validated colour as `--pc` (plus `lt` when the colour is too light
    /// for white initials, so the CSS keeps AA contrast).
    static func colour(_ participant: Participant, slot: Int) -> (colorClass: String, colorStyle: String?) {
        if let colour = participant.color, HTMLText.isHexColor(colour) {
            return (isLight(colour) ? "cx lt" : "cx", "--pc:\(colour)")
        }
        return ("c\(slot % paletteSize)", nil)
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

    /// Appends row `row` of page `pageIndex` and a line feed to `output`.
    func render(_ row: PlannedRow, pageIndex: Int, into output: HTMLBuffer) {
        if pageIndex != currentPage {
            currentPage = pageIndex
            pageHasMessage = false
            currentFile = plan.pageFileName(pageIndex)
        }
        switch row {
        case .daySeparator(let separator):
            day.text = separator.day.text
            day.iso = separator.day.iso
            day.repeats = separator.repeatsPreviousPage
            dayTemplate.render(day, into: output, stack: &stack)
        case .message(let index, let decisions):
            renderMessage(index, decisions: decisions, pageIndex: pageIndex, into: output)
        }
        output.append(UInt8(ascii: "\n"))
    }

    /// What a row reads of its message, besides the body.
    private struct RowSource {
        let id: String, kind: MessageKind.Name, sender: String?, status: DeliveryStatus?
        let hasReactions: Bool, forwardedFrom: String?, deleted: Bool, pinned: Bool
    }

    /// The row of `plan.conversation.messages[index]` (read in place: a copy of a message retains
    /// all it holds).
    private func renderMessage(_ index: Int, decisions: RowDecisions, pageIndex: Int, into output: HTMLBuffer) {
        let messages = plan.conversation.messages
        if plan.isThreadReference(index), let reference = plan.threadReference(ofMessage: index) {
            // A broadcast reply's place in the timeline: a link to its message element.
            templates.compiledTemplate("thread-reference").render(
                ThreadReferenceView(
                    href: link(toMessage: reference.messageID, inFile: reference.fileName),
                    author: reference.senderName, excerpt: reference.excerpt, time: plan.timeText(ofMessage: index),
                    iso: plan.isoTime(ofMessage: index).text), into: output)
            return
        }
        // One read of the fields the row shows: each `messages[index].field` may copy the whole
        // message (and retain all it holds) first.
        let source = messages.readInPlace(index) { message in
            RowSource(
                id: message.id, kind: message.kind.name, sender: message.sender, status: message.status,
                hasReactions: !message.reactions.isEmpty, forwardedFrom: message.forwardedFrom,
                deleted: message.deleted, pinned: message.pinned)
        }
        let anchor = anchors.anchor(source.id)
        let isSystem = source.kind == .system
        let senderID = isSystem ? nil : source.sender
        let sender = senderID.flatMap { participantViews.senders[$0] }
        let senderName = sender?.name
        let timeText = plan.timeText(ofMessage: index)

        message.anchor = anchor
        message.id = source.id
        message.kind = source.kind.rawValue
        message.sender = senderID
        message.align = decisions.alignment.rawValue
        message.position = decisions.groupPosition.rawValue
        message.document = decisions.isDocument
        message.avatar = nil
        message.header = nil
        if let sender {
            if showsAvatars, decisions.showsAvatar { message.avatar = sender.avatar }
            if showsHeaders, decisions.showsHeader { message.header = sender.header }
        }
        message.timestampTop = nil
        message.timestampBottom = nil
        switch decisions.timestamp {
        case .top: message.timestampTop = fill(timeTop, anchor: anchor, text: timeText, index: index)
        case .bottom: message.timestampBottom = fill(timeBottom, anchor: anchor, text: timeText, index: index)
        case .hidden: break
        }
        message.footer = nil
        if showsFooters, decisions.showsFooter, !isSystem {
            let edited = plan.editedTime(ofMessage: index).map(DateView.init)
            var status: StatusView?
            if decisions.alignment == .right, let delivery = source.status {
                switch delivery {
                case .sent: status = .sent
                case .delivered: status = .delivered
                case .read: status = .read
                }
            }
            if edited != nil || status != nil { message.footer = FooterView(edited: edited, status: status) }
        }
        message.editedNote =
            showsFooters && !decisions.showsFooter && !isSystem
            ? plan.editedTime(ofMessage: index).map(DateView.init) : nil
        message.reply = plan.replyPreview(ofMessage: index).map { preview in
            ReplyView(
                href: link(toMessage: preview.messageID, inFile: preview.fileName),
                author: preview.senderName, excerpt: quoteLabel(of: preview) ?? preview.excerpt)
        }
        message.reactions =
            source.hasReactions
            ? plan.reactionSummaries(ofMessage: index).map { ReactionView($0, resolve: resolve) } : []
        let spokenSender = isSystem || message.header != nil ? nil : senderName ?? senderID
        message.spoken = Self.writeSpokenLabel(
            sender: spokenSender, time: decisions.timestamp == .hidden ? timeText : nil, into: message.spokenText)
        message.continuedName = nil
        if !pageHasMessage {
            pageHasMessage = true
            // A group that began on the previous page: say who is speaking here too.
            if pageIndex > 0, message.header == nil, showsHeaders, !isSystem, let senderName {
                message.continuedName = senderName
            }
        }
        message.pinned = source.pinned
        message.forwardedFrom = source.forwardedFrom
        message.orphan = plan.isOrphanedReply(index)
        message.thread =
            plan.thread(ofRoot: index).map {
                .writer(ThreadBlock(thread: $0, rows: self, rootDay: plan.localDay(index)))
            } ?? .absent
        message.body.removeAll()
        if source.deleted {
            textBody.text = MessageNotices.deleted
            templates.compiledTemplate("kinds/deleted").render(textBody, into: message.body)
        } else {
            rowIsDocument = decisions.isDocument
            messages.readInPlace(index) { renderBody($0.kind, messageIndex: index, anchor: anchor, into: message.body) }
        }
        messageTemplate.render(message, into: output, stack: &stack)
    }

    private func fill(_ view: TimeView, anchor: String, text: String, index: Int) -> TimeView {
        view.anchor = anchor
        view.text = text
        view.title = plan.tooltipText(ofMessage: index)
        view.iso = plan.isoTime(ofMessage: index)
        return view
    }

    /// The quote line a custom renderer supplies for the custom message `preview` quotes, if any.
    private func quoteLabel(of preview: ReplyPreview) -> String? {
        guard !customRenderers.isEmpty, let target = plan.messageIndex(ofMessage: preview.messageID),
            case .custom(let item) = plan.conversation.messages[target].kind
        else { return nil }
        return customRenderers[item.id]?.quoteLabel(item: item).map { TextExcerpt.make($0) }
    }

    /// The link to message `id` in page file `file`, from the page being rendered.
    func link(toMessage id: String, inFile file: String) -> String {
        let anchor = anchors.anchor(id)
        if file == currentFile { return "#" + anchor }
        return file + "#" + anchor
    }

    /// The renderer of a thread's replies: the same templates, the thread's plan.
    func renderer(of thread: ThreadPlan) -> MessageRenderer {
        if let child = threadRenderers[thread.rootID] { return child }
        let child = MessageRenderer(
            plan: thread.replies, templates: templates, customRenderers: customRenderers, remoteMedia: remoteMedia,
            participantViews: participantViews)
        threadRenderers[thread.rootID] = child
        return child
    }

    /// The warnings and extra files of this list and of its threads.
    var allDiagnostics: [Diagnostic] {
        diagnostics + threadRenderers.keys.sorted().flatMap { threadRenderers[$0]!.allDiagnostics }
    }
    var allExtraFiles: [RenderedFile] {
        extraFiles + threadRenderers.keys.sorted().flatMap { threadRenderers[$0]!.allExtraFiles }
    }

    /// Writes what a screen reader must hear before the message's text when the page does not
    /// draw it, "Mia Hoffmann, 9:02 AM:", "Mia Hoffmann:" or "9:02 AM:", into `output` (as text,
    /// unescaped); `false` (and nothing written) when both are drawn.
    static func writeSpokenLabel(sender: String?, time: String?, into output: HTMLBuffer) -> Bool {
        output.removeAll()
        guard sender != nil || time != nil else { return false }
        var sink = output.sink
        if let sender {
            raw(sender, &sink)
            if time != nil { sink += ", " }
        }
        if let time { raw(time, &sink) }
        sink += ":"
        return true
    }

    // MARK: - Bodies

    /// The bubble (or, for system messages, the centred note) of `plan.conversation.messages[index]`,
    /// whose kind is `kind`, through its `kinds/…` template.
    func renderBody(_ kind: MessageKind, messageIndex index: Int, anchor: String, into output: HTMLBuffer) {
        switch kind {
        case .text(let text):
            // Linkified in place, then printed by the template from there.
            linkified.removeAll()
            var sink = linkified.sink
            participantViews.linkifier.append(text, to: &sink)
            htmlBody.html = .bytes(linkified)
            textTemplate.render(htmlBody, into: output, stack: &stack)
        case .attributedText(let rich):
            // Sanitized by the reader; most needs no rebasing, labelling or cleaning.
            var html =
                Self.isPlainRichText(rich.html)
                ? rich.html
                : Self.labelTaskCheckboxes(
                    HTMLText.replacingForbiddenCodePoints(Self.rebaseRoot(rich.html, root: root)))
            if rowIsDocument {
                let decorated = DocumentBlocks.decorate(html)
                html = decorated.html
                sawCode = sawCode || decorated.hasCode
            }
            htmlBody.html = .text(html)
            attributedTextTemplate.render(htmlBody, into: output, stack: &stack)
        case .emoji(let text):
            textBody.text = text
            emojiTemplate.render(textBody, into: output, stack: &stack)
        case .system(let text):
            textBody.text = text
            systemTemplate.render(textBody, into: output, stack: &stack)
        case .photo(let media):
            let view = PhotoView()
            view.caption = nonEmpty(media.caption)
            switch resolve(media.source) {
            case .url(let url):
                view.image = ImageView(src: url, alt: media.alt ?? media.caption ?? "", size: SizeView(media.size))
            case .placeholder(let original, let link):
                view.placeholder = placeholder(
                    original: original, link: link, label: Self.isSticker(media) ? "Sticker" : "Photo",
                    name: Self.fileName(inReference: original))
            }
            templates.compiledTemplate("kinds/photo").render(view, into: output)
        case .video(let media):
            let view = VideoView()
            view.caption = nonEmpty(media.caption)
            view.duration = media.duration.flatMap(HTMLText.duration)
            switch resolve(media.source) {
            case .url(let url):
                let video = VideoSourceView()
                video.src = url
                video.size = SizeView(media.size)
                if let poster = media.poster, case .url(let posterURL) = resolve(poster) { video.poster = posterURL }
                video.title = nonEmpty(media.title)
                view.video = video
            case .placeholder(let original, let link):
                view.placeholder = placeholder(
                    original: original, link: link, label: "Video", name: Self.fileName(inReference: original))
            }
            templates.compiledTemplate("kinds/video").render(view, into: output)
        case .audio(let media):
            let view = AudioView()
            view.title = nonEmpty(media.title)
            view.duration = media.duration.flatMap(HTMLText.duration)
            switch resolve(media.source) {
            case .url(let url):
                view.src = url
                // The original first: a browser that plays it keeps it; Safari, which plays no
                // Ogg, skips to the copy.
                if case .local(let asset) = media.source, let alternative = audioAlternatives[asset.sitePath] {
                    view.sources = [
                        AudioSourceView(src: url, type: alternative.originalType),
                        AudioSourceView(src: root + alternative.sitePath, type: alternative.type),
                    ]
                }
            case .placeholder(let original, let link):
                let isVoice = media.title == Self.voiceMessageTitle
                // The chip says what the title said: the title line is not shown again above it.
                view.title = nil
                view.placeholder = placeholder(
                    original: original, link: link, label: isVoice ? Self.voiceMessageTitle : "Audio",
                    name: Self.fileName(inReference: original) ?? (isVoice ? nil : nonEmpty(media.title)))
            }
            templates.compiledTemplate("kinds/audio").render(view, into: output)
        case .location(let location):
            let view = LocationView()
            view.name = nonEmpty(location.name)
            view.address = nonEmpty(location.address)
            if location.latitude.isFinite, location.longitude.isFinite, abs(location.latitude) <= 90,
                abs(location.longitude) <= 180
            {
                let lat = HTMLText.coordinate(location.latitude)
                let lon = HTMLText.coordinate(location.longitude)
                view.coords = "\(lat), \(lon)"
                view.href = "https://www.openstreetmap.org/?mlat=\(lat)&mlon=\(lon)#map=16/\(lat)/\(lon)"
            }
            if view.name == nil, view.address == nil { view.name = "Location" }
            templates.compiledTemplate("kinds/location").render(view, into: output)
        case .contact(let contact):
            extraFiles.append(
                RenderedFile(
                    path: plan.conversation.id + "/" + anchor + ".vcf", contents: Array(Self.vCard(contact).utf8)))
            let view = ContactView()
            view.name = contact.name
            view.initials = HTMLText.initials(contact.name)
            view.phones = contact.phones.map { phone in
                let dialable = String(
                    phone.unicodeScalars.filter { "0123456789+*#".unicodeScalars.contains($0) }.map(Character.init))
                return ContactLinkView(text: phone, href: dialable.isEmpty ? nil : "tel:" + dialable)
            }
            view.emails = contact.emails.map { email in
                ContactLinkView(text: email, href: Self.isPlainEmail(email) ? "mailto:" + email : nil)
            }
            var fileName = Slug.make(contact.name)
            if fileName.isEmpty { fileName = "contact" }
            view.vcf = anchor + ".vcf"
            view.vcfName = fileName + ".vcf"
            templates.compiledTemplate("kinds/contact").render(view, into: output)
        case .linkPreview(let text, let link):
            let view = LinkPreviewView()
            view.html = text.isEmpty ? nil : participantViews.linkifier.html(text)
            view.card.title = nonEmpty(link.title)
            view.card.teaser = nonEmpty(link.teaser)
            view.card.site = nonEmpty(link.siteName)
            if let url = HTMLText.safeLinkURL(link.url) {
                view.card.href = url
                view.card.domain = HTMLText.host(of: url) ?? url
            } else {
                view.card.domain = link.url
            }
            if let thumbnail = link.thumbnail, case .url(let url) = resolve(thumbnail) { view.card.thumb = url }
            templates.compiledTemplate("kinds/linkPreview").render(view, into: output)
        case .custom(let custom):
            renderCustom(custom, messageIndex: index, into: output)
        case .file(let file):
            let view = FileView()
            view.name = file.displayName
            view.icon = Self.fileIcon(mimeType: file.mimeType, name: view.name)
            view.size = file.size.map(HTMLText.humanSize)
            // Text of the log: escaped, under the card, never part of the name.
            view.caption = file.caption.flatMap { $0.isEmpty ? nil : $0 }
            switch resolve(file.source) {
            case .url(let url): view.href = url
            case .placeholder(let original, let link):
                // The chip names the file: the card's name line is not shown again beside it.
                let name = nonEmpty(file.name) ?? Self.fileName(inReference: original)
                view.placeholder = placeholder(
                    original: original, link: link, label: name == nil && file.mimeType == nil ? "Media" : "File",
                    name: name)
            }
            templates.compiledTemplate("kinds/file").render(view, into: output)
        }
    }

    /// An emoji standing for a file's type, by MIME type or extension (the `file` card's icon).
    static func fileIcon(mimeType: String?, name: String) -> String {
        let type = (mimeType ?? "").lowercased()
        let ext = PathText.pathExtension(name).lowercased()
        if type.hasPrefix("image/") || ["png", "jpg", "jpeg", "gif", "webp", "svg"].contains(ext) { return "🖼️" }
        if type.hasPrefix("video/") || ["mp4", "mov", "webm", "mkv"].contains(ext) { return "🎞️" }
        if type.hasPrefix("audio/") || ["mp3", "ogg", "opus", "wav", "m4a"].contains(ext) { return "🎵" }
        if type == "application/pdf" || ext == "pdf" { return "📕" }
        if type.contains("zip") || ["zip", "gz", "tar", "7z", "rar"].contains(ext) { return "🗜️" }
        if type.hasPrefix("text/") || ["txt", "md", "csv", "json", "log"].contains(ext) { return "📝" }
        return "📄"
    }

    /// The bubble of a `custom` message: a custom renderer's, the `custom/<id>` template's, or the
    /// fallback card.
    func renderCustom(_ custom: CustomItem, messageIndex index: Int, into output: HTMLBuffer) {
        if let renderer = customRenderers[custom.id] {
            let info = CustomRendererInfo(
                bubbleMaxWidth: bubbleMaxWidth, cornerRadius: cornerRadius, message: plan.messageLayout(index),
                rootPath: root)
            let html = renderer.render(item: custom, info: info)
            templates.compiledTemplate("kinds/custom").render(CustomBodyView(id: custom.id, html: html), into: output)
            return
        }
        let templateName = "custom/" + custom.id
        if templates.contains(templateName) {
            let message = plan.conversation.messages[index]
            let sender = message.kind.name == .system ? nil : message.sender.flatMap(plan.participant)
            let view = CustomTemplateView(
                id: custom.id,
                message: CustomMessageView(
                    id: message.id, date: plan.timeText(ofMessage: index), iso: plan.isoTime(ofMessage: index).text,
                    sender: sender?.id, senderName: sender?.name),
                bubbleMaxWidth: bubbleMaxWidth, cornerRadius: cornerRadius, data: custom.data)
            // A template's raw `{{{…}}}` may print control characters of the log's data; a page may not.
            let html = HTMLText.replacingForbiddenCodePoints(templates.compiledTemplate(templateName).render(view))
            templates.compiledTemplate("kinds/custom").render(CustomBodyView(id: custom.id, html: html), into: output)
            return
        }
        diagnostics.append(
            .warning(.unknownCustomRenderer(custom.id), at: plan.conversation.messages[index].location))
        templates.compiledTemplate("kinds/custom-fallback").render(
            CustomFallbackView(id: custom.id, json: custom.data.prettyJSON), into: output)
    }

    func resolve(_ source: MediaSource) -> ResolvedMedia {
        Self.resolve(source, root: root, remoteMedia: remoteMedia)
    }

    func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    /// The chip of media the site cannot show (template `image-placeholder`) as HTML: its kind,
    /// its file name when known, and "not in this export" (or, for remote media that is turned
    /// off, a link to open it).
    func placeholder(original: String, link: String?, label: String, name: String?) -> String {
        templates.compiledTemplate("image-placeholder").render(
            PlaceholderView(original: original, link: link, label: label, name: name))
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
