import Foundation
import ScrollbackMarkdown
import ScrollbackModel

/// Infers a Markdown message's kind from its body, as spec §2 lists the rules:
///
/// 1. the body is one fenced block `custom ID` holding JSON → `custom`;
///    one fenced block `vcard` → `contact` (FN, TEL and EMAIL lines);
/// 2. the body is a single image → `photo`, or `video` / `audio` by the file extension;
/// 3. the body is one paragraph holding a `geo:` URI (RFC 5870, with its parameters) or a map
///    app's link to a point (`MapLink`), as text or as a link → `location`;
/// 4. the body is emoji only → `emoji`;
/// 5. the body ends in a bare URL whose preview is known (front matter `links:` or a saved page
///    in `previews/`) → `linkPreview`;
/// 6. anything else → `attributedText`, rendered by cmark-gfm in safe mode.
///
/// The body is the header paragraph's lines after the first, then the blocks up to the next start.
struct MarkdownKindInference {
    let session: MarkdownLogSession
    let document: MarkdownDocument
    private(set) var diagnostics: [Diagnostic] = []

    init(session: MarkdownLogSession, document: MarkdownDocument) {
        self.session = session
        self.document = document
    }

    /// One part of a body: the header paragraph's remaining inlines, or a whole block.
    private enum Part {
        case inlines([MarkdownInline], start: MarkdownPosition)
        case block(MarkdownBlock, index: Int)

        /// The inlines, when the part is inline text (the header's rest, or a paragraph).
        var inlines: [MarkdownInline]? {
            switch self {
            case .inlines(let inlines, _): return inlines
            case .block(let block, _): return block.kind == .paragraph ? block.inlines : nil
            }
        }

        var start: MarkdownPosition {
            switch self {
            case .inlines(_, let start): return start
            case .block(let block, _): return block.start
            }
        }
    }

    /// The video and audio file extensions; every other image destination is a photo.
    static let videoExtensions: Set<String> = ["mp4", "m4v", "webm", "mov", "ogv"]
    static let audioExtensions: Set<String> = ["mp3", "m4a", "ogg", "oga", "opus", "wav", "flac", "aac"]

    /// The kind of the message whose header is block `headerBlock` and whose body ends before `bodyEnd`.
    mutating func kind(headerBlock: Int, bodyEnd: Int) -> MessageKind {
        let header = document.blocks[headerBlock]
        var parts: [Part] = []
        if let lineEnd = header.inlines.firstIndex(where: { $0.kind == .softBreak || $0.kind == .lineBreak }) {
            let rest = Array(header.inlines[(lineEnd + 1)...])
            if !rest.isEmpty {
                let start = rest.first.map(\.start).flatMap { $0.line > 0 ? $0 : nil } ?? header.start
                parts.append(.inlines(rest, start: start))
            }
        }
        for index in (headerBlock + 1)..<bodyEnd { parts.append(.block(document.blocks[index], index: index)) }

        if parts.isEmpty {
            warning(
                .other("message has no content; expected text, an image or a block after its header line"),
                at: header.start)
            return .attributedText(RichText(sanitizedHTML: "", plainText: ""))
        }
        if let kind = fencedKind(parts) { return kind }
        if parts.count == 1, let inlines = parts[0].inlines {
            if let kind = mediaKind(inlines, fallback: parts[0].start) { return kind }
            if let kind = locationKind(inlines, at: parts[0].start) { return kind }
            if let kind = emojiKind(inlines) { return kind }
        }
        if let kind = linkPreviewKind(parts) { return kind }
        return attributedText(headerBlock: headerBlock, bodyEnd: bodyEnd)
    }

    // MARK: - Rules

    /// `custom ID` and `vcard` fenced blocks, when they are the whole body.
    private mutating func fencedKind(_ parts: [Part]) -> MessageKind? {
        var fenced: [(block: MarkdownBlock, words: [Substring])] = []
        for part in parts {
            guard case .block(let block, _) = part, let info = block.fenceInfo else { continue }
            let words = info.split(whereSeparator: \.isWhitespace)
            if let word = words.first, word == "custom" || word.lowercased() == "vcard" {
                fenced.append((block, words))
            }
        }
        guard let (block, words) = fenced.first else { return nil }
        guard parts.count == 1 else {
            warning(
                .other(
                    "a '\(words[0])' block shares its message with other content, so it is shown as code; expected it alone after a message header"
                ), at: block.start)
            return nil
        }
        if words[0] == "custom" {
            guard words.count >= 2 else {
                error(.missingField("custom renderer id (write the fence as ```custom ID)"), at: block.start)
                return .custom(CustomItem(id: "", data: .null))
            }
            let id = String(words[1])
            do {
                let node = try JSONParser.parse(block.literal, file: session.path)
                return .custom(CustomItem(id: id, data: node.jsonValue))
            } catch {
                // The JSON starts on the line after the opening fence.
                var where_ = error.location ?? session.location(block.start)
                where_.line += block.start.line
                where_.column += max(0, block.start.column - 1)
                diagnostics.append(.error(.invalidCustomJSON(error.problem.message), at: where_))
                return .custom(CustomItem(id: id, data: .null))
            }
        }
        return contactKind(block)
    }

    /// A vCard's FN (or N), TEL and EMAIL lines.
    private mutating func contactKind(_ block: MarkdownBlock) -> MessageKind? {
        // Unfold continuation lines (RFC 6350 §3.2): a line starting with a space or tab continues the previous one.
        var lines: [String] = []
        for line in block.literal.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            if let first = line.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1] += line.dropFirst()
            } else {
                lines.append(String(line))
            }
        }
        var name: String?
        var structuredName: String?
        var phones: [String] = []
        var emails: [String] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let property = line[..<colon].split(separator: ";").first.map { $0.uppercased() } ?? ""
            // A group prefix (`item1.TEL`) names the same property.
            let bareProperty = property.split(separator: ".").last.map(String.init) ?? property
            let value = Self.unescapeVCard(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            guard !value.isEmpty else { continue }
            switch bareProperty {
            case "FN": name = name ?? value
            case "N":
                let parts = value.split(separator: ";", omittingEmptySubsequences: false).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                let given = parts.count > 1 ? parts[1] : ""
                structuredName = [given, parts[0]].filter { !$0.isEmpty }.joined(separator: " ")
            case "TEL": phones.append(value.hasPrefix("tel:") ? String(value.dropFirst(4)) : value)
            case "EMAIL": emails.append(value.hasPrefix("mailto:") ? String(value.dropFirst(7)) : value)
            default: continue
            }
        }
        guard let contactName = name ?? structuredName.flatMap({ $0.isEmpty ? nil : $0 }) else {
            error(.missingField("FN (the contact's name) in the vcard block"), at: block.start)
            return .contact(ContactItem(name: ""))
        }
        return .contact(ContactItem(name: contactName, phones: phones, emails: emails))
    }

    private static func unescapeVCard(_ text: Substring) -> String {
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The inlines without line breaks and whitespace-only text.
    private static func meaningful(_ inlines: [MarkdownInline]) -> [MarkdownInline] {
        inlines.filter { inline in
            switch inline.kind {
            case .softBreak, .lineBreak: return false
            case .text: return !inline.literal.allSatisfy(\.isWhitespace)
            default: return true
            }
        }
    }

    /// A single image: photo, video or audio.
    private mutating func mediaKind(_ inlines: [MarkdownInline], fallback: MarkdownPosition) -> MessageKind? {
        let content = Self.meaningful(inlines)
        guard content.count == 1, content[0].kind == .image, let reference = content[0].url else { return nil }
        let image = content[0]
        let at = session.location(image.start.line > 0 ? image.start : fallback)
        let source = session.context.media.resolve(
            reference, relativeTo: session.file, at: at, diagnostics: &diagnostics)
        var size: PixelSize?
        if case .local(let asset) = source { size = asset.pixelSize }
        let alt = image.children.plainText.trimmingCharacters(in: .whitespacesAndNewlines)
        let item = MediaItem(
            source: source, size: size, alt: alt.isEmpty ? nil : alt, caption: image.title,
            title: image.title ?? (alt.isEmpty ? nil : alt))
        let fileExtension = Self.pathExtension(of: reference)
        if Self.videoExtensions.contains(fileExtension) {
            return .video(MediaItem(source: source, size: size, alt: item.alt, caption: image.title))
        }
        if Self.audioExtensions.contains(fileExtension) {
            return .audio(MediaItem(source: source, alt: item.alt, title: item.title))
        }
        return .photo(MediaItem(source: source, size: size, alt: item.alt, caption: image.title))
    }

    /// The lowercased extension of a path or URL, ignoring any query or fragment.
    static func pathExtension(of reference: String) -> String {
        let path = reference.split(whereSeparator: { $0 == "?" || $0 == "#" }).first ?? ""
        guard let slash = path.lastIndex(of: "/") else {
            return path.split(separator: ".").count > 1 ? String(path.split(separator: ".").last!).lowercased() : ""
        }
        let name = path[path.index(after: slash)...]
        let pieces = name.split(separator: ".")
        return pieces.count > 1 ? pieces.last!.lowercased() : ""
    }

    /// A `geo:` URI or a map app's link (`MapLink`), as a link (`[Name](geo:48.1,11.5)`,
    /// `<geo:48.1,11.5>`, an autolinked `https://maps.apple.com/?ll=…`) or as text.
    private mutating func locationKind(_ inlines: [MarkdownInline], at start: MarkdownPosition) -> MessageKind? {
        var uri: String
        var name: String?
        var remainder: String
        // A link to a map app's point first, else a `geo:` link (`locationItem` reads either).
        if let linkIndex = inlines.firstIndex(where: { $0.kind == .link && MapLink.point(in: $0.url ?? "") != nil })
            ?? inlines.firstIndex(where: { $0.kind == .link && ($0.url ?? "").lowercased().hasPrefix("geo:") })
        {
            let link = inlines[linkIndex]
            uri = link.url ?? ""
            let text = link.children.plainText.trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty, text != uri { name = text }
            var others = inlines
            others.remove(at: linkIndex)
            remainder = others.plainText
        } else {
            let text = inlines.plainText
            if let word = text.split(whereSeparator: \.isWhitespace).first(where: {
                MapLink.point(in: String($0)) != nil
            }),
                let range = text.range(of: word)
            {
                // A map app's link written as text (not autolinked).
                uri = String(word)
                remainder = String(text[..<range.lowerBound]) + "\n" + String(text[range.upperBound...])
                return locationItem(uri: uri, name: nil, remainder: remainder, at: start)
            }
            guard let range = text.range(of: "geo:", options: .caseInsensitive) else { return nil }
            // The URI is the `geo:` word: from its start up to the next whitespace.
            if range.lowerBound != text.startIndex, !text[text.index(before: range.lowerBound)].isWhitespace {
                return nil
            }
            let end = text[range.lowerBound...].firstIndex(where: \.isWhitespace) ?? text.endIndex
            uri = String(text[range.lowerBound..<end])
            remainder = String(text[..<range.lowerBound]) + "\n" + String(text[end...])
        }
        return locationItem(uri: uri, name: name, remainder: remainder, at: start)
    }

    /// The location a `geo:` URI or map link names, with a name and address from the text around it.
    private mutating func locationItem(
        uri: String, name: String?, remainder: String, at start: MarkdownPosition
    ) -> MessageKind? {
        var name = name
        guard let point = MapLink.point(in: uri) else {
            warning(
                .invalidOption(
                    name: "geo", value: uri,
                    expected:
                        "a geo: URI with latitude -90…90 and longitude -180…180 such as geo:48.137,11.575 or geo:48.2,16.3;u=35;crs=wgs84; shown as text"
                ),
                at: start)
            return nil
        }
        let (latitude, longitude) = (point.latitude, point.longitude)
        if name == nil, let label = point.label { name = label }
        let lines = remainder.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        var address: String?
        if name == nil {
            name = lines.first
            address = lines.count > 1 ? lines.dropFirst().joined(separator: ", ") : nil
        } else if !lines.isEmpty {
            address = lines.joined(separator: ", ")
        }
        return .location(LocationItem(latitude: latitude, longitude: longitude, name: name, address: address))
    }

    /// Emoji only (whitespace between them is allowed).
    private func emojiKind(_ inlines: [MarkdownInline]) -> MessageKind? {
        guard inlines.allSatisfy({ [.text, .softBreak, .lineBreak].contains($0.kind) }) else { return nil }
        let text = inlines.plainText.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, text.allSatisfy({ $0.isWhitespace || Self.isEmoji($0) }) else { return nil }
        return .emoji(text)
    }

    /// Whether `character` is drawn as an emoji: emoji presentation by default, or an emoji
    /// made so by a variation selector, a keycap or a sequence (`❤️`, `1️⃣`, `👍🏽`).
    static func isEmoji(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return false }
        if first.properties.isEmojiPresentation { return true }
        return first.properties.isEmoji && scalars.count > 1
    }

    /// A body ending in a bare URL whose preview is known.
    private mutating func linkPreviewKind(_ parts: [Part]) -> MessageKind? {
        guard let last = parts.last, let inlines = last.inlines, let link = Self.meaningful(inlines).last,
            link.kind == .link, let url = link.url
        else { return nil }
        let text = link.children.plainText
        // Bare: the autolink's text is the URL (or the URL without the `http://` cmark-gfm adds to `www.`).
        guard text == url || "http://" + text == url else { return nil }
        let scheme = MediaResolver.scheme(of: url)
        guard scheme == "http" || scheme == "https" else { return nil }
        var item: LinkItem
        if let known = session.frontMatterLinks[url] ?? session.frontMatterLinks[text] {
            item = known
            item.url = url
        } else if let saved = session.context.previews.preview(for: url) {
            var thumbnail: MediaSource?
            if let image = saved.imageURL {
                // A saved page's relative image path is relative to the page, in `previews/`.
                let page = session.context.inputRoot.appendingPathComponent("previews").appendingPathComponent(
                    "page.html")
                thumbnail = session.context.media.resolve(
                    image, relativeTo: page, at: session.location(link.start.line > 0 ? link.start : last.start),
                    diagnostics: &diagnostics)
            }
            item = LinkItem(
                url: url, title: saved.title, teaser: saved.teaser, thumbnail: thumbnail, siteName: saved.siteName)
        } else {
            return nil
        }
        return .linkPreview(text: plainText(of: parts), link: item)
    }

    /// The body's text: inline parts as written (line breaks kept), other blocks as collapsed plain text.
    private func plainText(of parts: [Part]) -> String {
        parts.map { part -> String in
            if let inlines = part.inlines { return inlines.plainText.trimmingCharacters(in: .whitespacesAndNewlines) }
            if case .block(_, let index) = part { return document.render(blocks: index..<(index + 1)).plainText }
            return ""
        }
        .filter { !$0.isEmpty }
        .joined(separator: "\n")
    }

    /// The body through cmark-gfm's safe renderer; local images become `@root/media/…`.
    private mutating func attributedText(headerBlock: Int, bodyEnd: Int) -> MessageKind {
        let images = RichTextImages(
            context: session.context, file: session.file, location: session.location(document.blocks[headerBlock].start)
        )
        let rendered = document.render(
            blocks: headerBlock..<bodyEnd, droppingFirstLine: true, imageURL: images.url(for:))
        diagnostics += images.warnings
        var rich = RichText(sanitizedHTML: rendered.html, plainText: rendered.plainText)
        rich.assets = images.assets  // the site copies the images it shows
        return .attributedText(rich)
    }

    // MARK: - Diagnostics

    private mutating func error(_ problem: Problem, at position: MarkdownPosition) {
        diagnostics.append(.error(problem, at: session.location(position)))
    }

    private mutating func warning(_ problem: Problem, at position: MarkdownPosition) {
        diagnostics.append(.warning(problem, at: session.location(position)))
    }
}
