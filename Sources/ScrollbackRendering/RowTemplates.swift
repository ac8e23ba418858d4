import Foundation
import ScrollbackLayout

/// Draws row views through their templates, using a compiled copy of a template (`RowView.write`)
/// only for shipped templates the site did not override, and only where it was checked, when the
/// renderer was made, to print the same bytes as the template on probe views.
struct RowTemplates: Sendable {
    let library: TemplateLibrary
    /// Template names whose compiled copy matched the template on every probe.
    let compiled: Set<String>
    /// `compiled` as a mask of `RowTemplate.bit`s, tested once per row part.
    let compiledMask: UInt32
    /// Whether `CompiledPaginationTemplate` stands in for the shipped `pagination` (checked like `compiled`).
    let compiledPagination: Bool
    /// Whether `CompiledPollTemplate` stands in for the shipped `custom/poll` (checked like `compiled`).
    let compiledPoll: Bool

    /// Checks each row template against its compiled copy on probe views (every optional part,
    /// and text that needs escaping).
    init(library: TemplateLibrary, allowCompiled: Bool = true) {
        self.library = library
        guard allowCompiled else {
            self.compiled = []
            self.compiledMask = 0
            self.compiledPoll = false
            self.compiledPagination = false
            return
        }
        self.compiledPoll = Self.pollCopyMatches(library)
        self.compiledPagination = CompiledPaginationTemplate.matches(library)
        let viaTemplates = RowTemplates(library: library, compiled: [])
        var compiled: Set<String> = []
        var failed: Set<String> = []
        for view in Self.probes {
            let name = view.templateName
            // A site's own template is always rendered by swift-mustache: it may print values the
            // probes cannot tell apart (e.g. names found up the context stack).
            guard library.contains(name), !library.overridden.contains(name), !failed.contains(name) else { continue }
            var native = HTMLBuffer()
            view.write(into: &native, parts: viaTemplates)
            let templated = library.render(name, view.context)
            if native.string == templated {
                compiled.insert(name)
            } else {
                failed.insert(name)
                compiled.remove(name)
            }
        }
        // The message template includes its parts as partials, which see the message's values up
        // the context stack; a compiled message renders them alone. So an overridden part keeps
        // the message itself on swift-mustache.
        if !library.overridden.isDisjoint(with: ["avatar", "header", "footer", "timestamp", "reply"]) {
            compiled.remove("message")
        }
        self.compiled = compiled
        self.compiledMask = RowTemplate.allCases.reduce(0) { compiled.contains($1.name) ? $0 | $1.bit : $0 }
    }

    private init(library: TemplateLibrary, compiled: Set<String>) {
        self.library = library
        self.compiled = compiled
        self.compiledMask = RowTemplate.allCases.reduce(0) { compiled.contains($1.name) ? $0 | $1.bit : $0 }
        self.compiledPoll = false
        self.compiledPagination = false
    }

    /// Whether `template` is drawn by its compiled copy.
    @inline(__always)
    func isCompiled(_ template: RowTemplate) -> Bool {
        compiledMask & template.bit != 0
    }

    /// Whether the shipped, not overridden `custom/poll` prints what `CompiledPollTemplate`
    /// prints on every probe it covers.
    private static func pollCopyMatches(_ library: TemplateLibrary) -> Bool {
        let name = CompiledPollTemplate.templateName
        guard library.contains(name), !library.overridden.contains(name) else { return false }
        let message: [String: Any] = ["id": "m1", "date": "9:41 AM", "iso": "2024-05-03T09:41:00Z", "sender": "a"]
        for data in CompiledPollTemplate.probes {
            guard let native = CompiledPollTemplate.render(data) else { continue }
            let context = MessageRenderer.customTemplateContext(
                id: "poll", message: message, bubbleMaxWidth: "75%", cornerRadius: "8px", data: data)
            if native != library.render(name, context) { return false }
        }
        return true
    }

    /// Appends `view` as its template draws it.
    @inline(__always)
    func render(_ view: some RowView, into output: inout HTMLBuffer) {
        if isCompiled(view.template) {
            view.write(into: &output, parts: self)
        } else {
            raw(library.render(view.templateName, view.context), &output)
        }
    }

    /// `view` as its template draws it.
    func render(_ view: some RowView) -> String {
        var output = HTMLBuffer(capacity: 256)
        render(view, into: &output)
        return output.string
    }

    /// Views that exercise every branch of every shipped row template.
    static var probes: [any RowView] {
        let hostile = "<b x=\"1\" y='2'>&amp; é 🎉"
        let avatarA = AvatarView(name: hostile, initials: "A<", colorClass: "c1", colorStyle: nil, src: nil)
        let avatarB = AvatarView(name: "B", initials: "B", colorClass: "cx", colorStyle: "--pc:#abc", src: nil)
        let avatarC = AvatarView(name: "C", initials: "C", colorClass: "c2", colorStyle: nil, src: "../media/a&b.png")
        let headerA = HeaderView(name: hostile, anchor: "p-a", colorClass: "c3", colorStyle: nil)
        let headerB = HeaderView(name: "Bob", anchor: "p-b", colorClass: "cx", colorStyle: "--pc:#abcdef")
        let time = TimeView(
            anchor: "m-1", text: hostile, iso: InlineISOTime(text: "2024-05-03T09:41:00Z"), placement: "tb")
        let inlineTime = TimeView(
            anchor: "m-1", text: "9:41",
            iso: InlineISOTime(
                date: Date(timeIntervalSince1970: 1_714_729_260),
                localSeconds: 1_714_729_260 + 7_200), placement: "tb")
        let footerA = FooterView(
            editedText: hostile, editedISO: "2024", status: (mark: "✓✓", label: "Read", cls: "read"))
        let footerB = FooterView(editedText: nil, editedISO: nil, status: (mark: "✓", label: "Sent", cls: "sent"))
        let footerC = FooterView(editedText: "May 3", editedISO: "2024", status: nil)
        let replyA = ReplyView(href: "page-2.html#m-1", sender: hostile, excerpt: hostile)
        let replyB = ReplyView(href: "#m-1", sender: nil, excerpt: "x")
        let full = MessageView(
            anchor: "m-a", id: hostile, kind: "text", sender: hostile, align: "left", position: "first",
            avatar: SharedView(avatarA), header: SharedView(headerA), timestampTop: time, timestampBottom: inlineTime,
            reply: replyA,
            body: "<div>body</div>",
            reactions: [
                ReactionView(emoji: hostile, count: 3, senderNames: [hostile, "B"]),
                ReactionView(emoji: "👍", count: 12, senderNames: ["C"]),
            ],
            footer: footerA, spokenSender: hostile, spokenTime: "9:41 AM", continuedName: hostile)
        let spokenTimeOnly = MessageView(
            anchor: "m-c", id: "c", kind: "text", sender: "c", align: "right", position: "middle", avatar: nil,
            header: nil, timestampTop: nil, timestampBottom: nil, reply: nil, body: "<p>b</p>", reactions: [],
            footer: nil,
            spokenTime: hostile)
        let spokenSenderOnly = MessageView(
            anchor: "m-d", id: "d", kind: "text", sender: "d", align: "left", position: "last", avatar: nil,
            header: nil, timestampTop: nil, timestampBottom: time, reply: nil, body: "", reactions: [], footer: nil,
            spokenSender: hostile)
        let bare = MessageView(
            anchor: "m-b", id: "b", kind: "system", sender: nil, align: "center", position: "single", avatar: nil,
            header: nil, timestampTop: nil, timestampBottom: nil, reply: nil, body: "", reactions: [], footer: nil)
        let size = SizeView(w: 800, h: 600)
        return [
            DayView(text: hostile, iso: "2024-05-03"), DayView(text: "Mon", iso: "2024-05-06", repeats: true), time,
            avatarA, avatarB, avatarC, headerA, headerB,
            footerA, footerB, footerC, replyA, replyB, full, bare, spokenTimeOnly, spokenSenderOnly,
            HTMLBodyView(template: .text, html: "<a href=\"x\">y</a>"),
            HTMLBodyView(template: .attributedText, html: "<p>z</p>"),
            TextBodyView(template: .emoji, text: hostile),
            TextBodyView(template: .system, text: hostile),
            PlaceholderView(original: hostile, link: nil, label: "Image"),
            PlaceholderView(original: hostile, link: "https://e.com/?a=1&b=2", label: "Video"),
            PhotoView(src: "a&b.png", alt: hostile, size: size, placeholder: nil, caption: hostile),
            PhotoView(src: "a.png", alt: "", size: nil, placeholder: nil, caption: nil),
            PhotoView(src: nil, alt: "", size: nil, placeholder: "<span>ph</span>", caption: nil),
            VideoView(
                src: "v.mp4", poster: "p&.jpg", size: size, title: hostile, placeholder: nil, caption: hostile,
                duration: "1:02"),
            VideoView(
                src: "v.mp4", poster: nil, size: nil, title: nil, placeholder: nil, caption: nil, duration: "0:05"),
            VideoView(
                src: nil, poster: nil, size: nil, title: nil, placeholder: "<span>ph</span>", caption: nil,
                duration: nil),
            AudioView(title: hostile, src: "a&.ogg", placeholder: nil, duration: "1:23"),
            AudioView(title: nil, src: nil, placeholder: "<span>ph</span>", duration: nil),
            LocationView(name: hostile, address: hostile, coords: "1.5, 2", href: "https://osm/?a=1&b=2"),
            LocationView(name: "Location", address: nil, coords: nil, href: nil),
            ContactView(
                name: hostile, initials: "X",
                phones: [ContactLinkView(text: hostile, href: "tel:+1"), ContactLinkView(text: "x", href: nil)],
                emails: [ContactLinkView(text: "a@b.c", href: "mailto:a@b.c")], vcf: "m-a.vcf", vcfName: "a&b.vcf"),
            ContactView(name: "N", initials: "N", phones: [], emails: [], vcf: "m-b.vcf", vcfName: "n.vcf"),
            LinkPreviewView(
                html: "<a>t</a>", href: "https://e.com/?a&b", title: hostile, teaser: hostile, site: hostile,
                domain: "e.com", thumb: "t&.png"),
            LinkPreviewView(html: nil, href: nil, title: nil, teaser: nil, site: nil, domain: hostile, thumb: nil),
            LinkPreviewView(html: nil, href: nil, title: nil, teaser: nil, site: nil, domain: nil, thumb: nil),
            CustomView(id: hostile, html: "<div class=\"poll\"></div>"),
            CustomFallbackView(id: hostile, json: "{\n  \"a\": \"<script>\"\n}"),
        ]
    }
}
