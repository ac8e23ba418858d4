import Foundation
import Mustache
import ScrollbackLayout
import ScrollbackModel

/// The bodies of a message row: one case of `MessageKind` each, through its `kinds/…` template.
extension MessageRenderer {
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
}
