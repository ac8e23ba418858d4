import Foundation
import ScrollbackMarkdown
import ScrollbackModel

/// The kinds of a message, one reader each.
extension JSONLogSession {
    // MARK: kinds

    mutating func kind(_ name: MessageKind.Name, _ object: MessageFields) -> MessageKind? {
        switch name {
        case .text: return string(object, .text, required: true).map(MessageKind.text)
        case .emoji: return string(object, .text, required: true).map(MessageKind.emoji)
        case .system: return string(object, .text, required: true).map(MessageKind.system)
        case .attributedText: return attributedText(object)
        case .photo: return mediaItem(object, kind: name).map(MessageKind.photo)
        case .video: return mediaItem(object, kind: name).map(MessageKind.video)
        case .audio: return mediaItem(object, kind: name).map(MessageKind.audio)
        case .location: return location(object)
        case .contact: return contact(object)
        case .linkPreview: return linkPreview(object)
        case .custom: return custom(object)
        case .file: return fileItem(object).map(MessageKind.file)
        }
    }

    mutating func fileItem(_ object: MessageFields) -> FileItem? {
        guard let media = self.object(object, .media, required: true) else { return nil }
        guard let source = self.media(media, "url", required: true) else { return nil }
        var size: Int64?
        if let sizeNode = member(media, "size", required: false) {
            if let value = sizeNode.number, value.isFinite, value >= 0, value <= 9e15, value == value.rounded() {
                size = Int64(value)
            } else {
                error(
                    .wrongType(field: "size", expected: "a whole number of bytes, not \(sizeNode.typeName)"), sizeNode)
            }
        }
        return FileItem(
            source: source, name: string(media, "name"), size: size, mimeType: string(media, "mimeType"),
            caption: string(media, "caption"))
    }

    mutating func attributedText(_ object: MessageFields) -> MessageKind? {
        if let markdownNode = object.value(.markdown) {
            guard let markdown = string(object, .markdown) else { return nil }
            if let exceeded = MarkdownLimits.exceededLimit(inMarkdown: markdown) {
                warning(.other("the markdown exceeds a limit (\(exceeded)); it is shown as plain text"), markdownNode)
                return .text(markdown)
            }
            let images = RichTextImages(context: context, file: file, location: at(markdownNode))
            let result = context.markdown.render(markdown, imageURL: images.url(for:))
            diagnostics.append(contentsOf: images.warnings)
            var rich = RichText(sanitizedHTML: result.html, plainText: result.plainText)
            rich.assets = images.assets  // the site copies the images it shows
            return .attributedText(rich)
        }
        if let htmlNode = object.value(.html) {
            guard let html = string(object, .html) else { return nil }
            if let exceeded = MarkdownLimits.exceededLimit(inHTML: html) {
                warning(.other("the html exceeds a limit (\(exceeded)); it is shown as plain text"), htmlNode)
                return .text(html)
            }
            let images = RichTextImages(context: context, file: file, location: at(htmlNode))
            let result = context.sanitizer.sanitize(html, imageURL: images.url(for:))
            diagnostics.append(contentsOf: images.warnings)
            var rich = RichText(sanitizedHTML: result.html, plainText: result.plainText)
            rich.assets = images.assets  // the site copies the images it shows
            return .attributedText(rich)
        }
        diagnostics.append(.error(.missingField("markdown' or 'html"), at: at(object)))
        return nil
    }

    mutating func mediaItem(_ object: MessageFields, kind: MessageKind.Name) -> MediaItem? {
        guard let media = self.object(object, .media, required: true) else { return nil }
        checkFields(media, known: KnownJSONFields.media, in: "media")
        guard let source = self.media(media, "url", required: true) else { return nil }
        let width = positiveInteger(media, "width")
        let height = positiveInteger(media, "height")
        var size: PixelSize?
        if let width, let height {
            size = PixelSize(width: width, height: height)
        } else if case .local(let asset) = source {
            size = asset.pixelSize
        }
        let poster = kind == .video ? self.media(media, "poster") : nil
        let duration = number(media, "duration", in: 0...1e9)
        return MediaItem(
            source: source, size: size, alt: string(media, "alt"), caption: string(media, "caption"),
            poster: poster, duration: duration, title: string(media, "title"))
    }

    mutating func location(_ object: MessageFields) -> MessageKind? {
        guard let location = self.object(object, .location, required: true) else { return nil }
        checkFields(location, known: KnownJSONFields.location, in: "location")
        let latitude = number(location, "latitude", required: true, in: -90...90)
        let longitude = number(location, "longitude", required: true, in: -180...180)
        let name = string(location, "name")
        let address = string(location, "address")
        guard let latitude, let longitude else { return nil }
        return .location(LocationItem(latitude: latitude, longitude: longitude, name: name, address: address))
    }

    mutating func contact(_ object: MessageFields) -> MessageKind? {
        guard let contact = self.object(object, .contact, required: true) else { return nil }
        checkFields(contact, known: KnownJSONFields.contact, in: "contact")
        let name = string(contact, "name", required: true)
        let phones = stringArray(contact, "phones")
        let emails = stringArray(contact, "emails")
        guard let name else { return nil }
        return .contact(ContactItem(name: name, phones: phones, emails: emails))
    }

    mutating func linkPreview(_ object: MessageFields) -> MessageKind? {
        let text = string(object, .text) ?? ""
        guard let link = self.object(object, .link, required: true) else { return nil }
        checkFields(link, known: KnownJSONFields.link, in: "link")
        guard let urlNode = member(link, "url", required: true) else { return nil }
        guard let url = urlNode.string else {
            error(.wrongType(field: "url", expected: "an http(s) URL string, not \(urlNode.typeName)"), urlNode)
            return nil
        }
        let scheme = MediaResolver.scheme(of: url)
        guard scheme == "http" || scheme == "https",
            PlainHTTPURL.isPlain(url) || URL(string: url)?.host?.isEmpty == false
        else {
            warning(
                .invalidOption(name: "url", value: url, expected: "an http(s) URL; the preview card is left out"),
                urlNode)
            return .text(text)
        }
        var item = LinkItem(
            url: url, title: string(link, "title"), teaser: string(link, "teaser"),
            thumbnail: media(link, "thumbnail"), siteName: string(link, "siteName"))
        if item.title == nil || item.teaser == nil || item.thumbnail == nil || item.siteName == nil,
            let saved = context.previews.linkPreview(for: url)
        {
            item.title = item.title ?? saved.title
            item.teaser = item.teaser ?? saved.teaser
            item.siteName = item.siteName ?? saved.siteName
            if item.thumbnail == nil, let image = saved.imageURL {
                // A saved page's relative image path is relative to the page, in `previews/`.
                item.thumbnail = context.media.resolve(
                    image, relativeTo: saved.pageFile, at: at(urlNode), diagnostics: &diagnostics)
            }
        }
        return .linkPreview(text: text, link: item)
    }

    mutating func custom(_ object: MessageFields) -> MessageKind? {
        guard let custom = self.object(object, .custom, required: true) else { return nil }
        checkFields(custom, known: KnownJSONFields.custom, in: "custom")
        guard let id = string(custom, "id", required: true) else { return nil }
        let data = custom["data"]?.jsonValue ?? .null
        return .custom(CustomItem(id: id, data: data))
    }
}
