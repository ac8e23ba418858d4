import Foundation
import Mustache
import ScrollbackLayout
import ScrollbackModel

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
    let textTemplate: CompiledTemplate
    let attributedTextTemplate: CompiledTemplate
    let emojiTemplate: CompiledTemplate
    let systemTemplate: CompiledTemplate
    /// The context stack's storage, reused from row to row.
    var stack = TemplateStack()
    let message = MessageRowView()
    private let day = DayView()
    private let timeTop = TimeView(isTop: true)
    private let timeBottom = TimeView(isTop: false)
    let htmlBody = HTMLBodyView()
    let textBody = TextBodyView()
    /// The page file of the row being rendered (links to messages in the same file are `#m-…`).
    private var currentFile = ""
    /// Linkified text of the current row, written in place (`htmlBody.html` points to it).
    let linkified = HTMLBuffer(capacity: 1024)
    /// Whether the row being rendered is a document (an AI answer): its code blocks and tables
    /// get their bars and scroll boxes (`DocumentBlocks`).
    var rowIsDocument = false
    /// Whether a document row since the last `resetCode()` had a code block: its page loads
    /// `assets/code.js` (the copy buttons and the highlighter).
    var sawCode = false

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
}
