import Foundation
import ScrollbackModel

/// The body of one DCE message: its kind (text, a file, a photo, a link preview), with custom
/// emoji, spoilers, attachments, stickers and a forwarded message; and its reactions.
///
/// - One file is its card (or image, or video), as Discord shows it; text sent with it is the
///   caption. With a sticker or a link preview as well, or as an audio player (which shows no
///   caption), the text stays a text bubble and the file follows it.
/// - Several files: images shown, other files linked to their copy in the site (`RichText.assets`
///   makes the site copy them); a file the export does not hold is named with "(file not in this
///   export)" and a warning says why.
/// - Stickers: their image when the export has it (`--media`; Lottie stickers are animation
///   data, not images, so named), else "Sticker: name".
/// - A forwarded message (`forwardedMessage`): its text, files, stickers and link after the
///   message's own; the message is marked "Forwarded" (`Message.forwardedFrom`).
struct DiscordBody {
    let node: JSONNode
    let place: DiscordImporter.Place

    var context: ImportContext { place.context }
    var location: SourceLocation { node.location(in: place.shown) }

    /// The reactions, each user who reacted a participant (`count` alone names nobody).
    func reactions(adding assembler: inout ConversationAssembler, diagnostics: inout [Diagnostic]) -> [Reaction] {
        var reactions: [Reaction] = []
        for reaction in node["reactions"]?.elements ?? [] {
            let emoji = reaction["emoji"]
            let name = emoji?["name"]?.string ?? "?"
            // A custom emoji (an id) by its name; a Unicode one (no id, or DCE's `""`) as itself.
            let isCustom = emoji?["id"]?.string.map { !$0.isEmpty } ?? false
            var senders: [String] = []
            for user in reaction["users"]?.elements ?? [] {
                guard let userID = user["id"]?.string else { continue }
                if !assembler.hasParticipant(userID) {
                    assembler.addParticipant(
                        Participant(id: userID, name: DiscordImporter.displayName(user) ?? userID))
                }
                senders.append(userID)
            }
            // DCE without user lists gives only the count: kept as a count, nobody invented.
            let count = reaction["count"]?.number(in: 0...1e9).map { Int($0) }
            reactions.append(
                Reaction(
                    emoji: isCustom ? ":" + name + ":" : name, senders: senders, count: count,
                    customEmoji: isCustom ? emoji.flatMap { customEmoji($0, name: name) } : nil))
        }
        return reactions
    }

    /// A custom emoji's image: the file the export downloaded (`--media`). Only a CDN URL (an
    /// export without media) is kept as "remote only", as an export's other remote media: the
    /// site loads nothing from Discord, and the pill shows `:name:`. `nil` without `imageUrl`.
    func customEmoji(_ emoji: JSONNode, name: String) -> CustomEmoji? {
        guard let url = emoji["imageUrl"]?.string, !url.isEmpty else { return nil }
        let isAnimated = emoji["isAnimated"]?.bool ?? false
        guard !DiscordImporter.isRemote(url) else {
            // The text `:name:` is what shows; no warning per reaction (inline emoji get none either).
            return CustomEmoji(name: name, image: .unavailable(original: "remote only: " + url), isAnimated: isAnimated)
        }
        // A missing or refused local file was reported once by `emojiFiles`: not again here.
        var reported: [Diagnostic] = []
        let image = context.media(
            localPath: DiscordImporter.localPath(url), relativeTo: place.file, at: location, diagnostics: &reported)
        return CustomEmoji(name: name, image: image, isAnimated: isAnimated)
    }

    /// The message's kind, from its content and `forwarded` (DCE's `forwardedMessage`).
    func kind(content: String, forwarded: JSONNode?, diagnostics: inout [Diagnostic]) -> MessageKind {
        let parts = [node] + (forwarded?.members != nil ? [forwarded!] : [])
        let texts = parts.compactMap { $0["content"]?.string }.filter {
            !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }
        let attachments = parts.flatMap { $0["attachments"]?.elements ?? [] }
        let stickers = parts.flatMap { $0["stickers"]?.elements ?? [] }
        let embed = parts.lazy.compactMap { part in
            part["embeds"]?.elements?.first { $0["url"]?.string.map(DiscordImporter.isRemote) == true }
        }.first
        var converter = DiscordMarkdown(emojiFiles: emojiFiles(diagnostics: &diagnostics))
        for user in node["mentions"]?.elements ?? [] {
            if let id = user["id"]?.string, let name = DiscordImporter.displayName(user) {
                converter.mentionNames[id] = name
            }
        }
        let converted = texts.map(converter.convert)
        var markdown = converted.map(\.markdown).joined(separator: "\n\n")
        let hasSpoilers = converted.contains { $0.hasSpoilers }
        let hasText = !texts.isEmpty
        if attachments.count == 1, stickers.isEmpty, !hasText || embed == nil {
            let kind = attachmentKind(attachments[0], diagnostics: &diagnostics)
            guard hasText else { return kind }
            let caption = richText(markdown, hasSpoilers: hasSpoilers, diagnostics: &diagnostics).plainText
            if let captioned = kind.withCaption(caption) { return captioned }
        }
        if !hasText, attachments.isEmpty, embed == nil, stickers.count == 1,
            let image = stickerImage(stickers[0], diagnostics: &diagnostics)
        {
            return .photo(
                MediaItem(source: .local(image.asset), size: image.asset.pixelSize, alt: stickerName(stickers[0])))
        }
        var linked: [LocalAsset] = []
        for attachment in attachments {
            let name = attachment["fileName"]?.string ?? "attachment"
            switch source(attachment, diagnostics: &diagnostics) {
            case .local(let asset):
                let path = DiscordImporter.localPath(attachment["url"]?.string ?? "")
                if Self.imageExtensions.contains(PathText.pathExtension(name).lowercased()),
                    !path.contains(where: { $0 == "<" || $0 == ">" || $0.isNewline })
                {
                    markdown += "\n\n![" + ChatMarkup.escapeMarkdown(name) + "](<" + path + ">)"
                } else {
                    markdown += "\n\n📎 [" + ChatMarkup.escapeMarkdown(name) + "](@root/" + asset.sitePath + ")"
                    linked.append(asset)
                }
            default: markdown += "\n\n📎 " + ChatMarkup.escapeMarkdown(name) + " (file not in this export)"
            }
        }
        for sticker in stickers {
            if let image = stickerImage(sticker, diagnostics: &diagnostics),
                !image.path.contains(where: { $0 == "<" || $0 == ">" || $0.isNewline })
            {
                markdown += "\n\n![" + ChatMarkup.escapeMarkdown(stickerName(sticker)) + "](<" + image.path + ">)"
            } else {
                markdown += "\n\nSticker: " + ChatMarkup.escapeMarkdown(stickerName(sticker))
            }
        }
        let rich = richText(markdown, hasSpoilers: hasSpoilers, linked: linked, diagnostics: &diagnostics)
        if let embed, let url = embed["url"]?.string {
            var link = LinkItem(url: url, title: embed["title"]?.string, teaser: embed["description"]?.string)
            if let thumb = embed["thumbnail"]?["url"]?.string {
                link.thumbnail = media(thumb, diagnostics: &diagnostics)
            }
            return .linkPreview(text: rich.plainText, link: link)
        }
        return .attributedText(rich)
    }

    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp"]

    /// Rich text of `markdown`; with spoilers, cmark-gfm's HTML with each made a `<details>`
    /// and checked by the sanitizer (such HTML has no Markdown source, so `import` writes it as
    /// HTML).
    func richText(
        _ markdown: String, hasSpoilers: Bool, linked: [LocalAsset] = [], diagnostics: inout [Diagnostic]
    ) -> RichText {
        let rich = context.richText(
            markdown: markdown, relativeTo: place.file, at: location, linked: linked, diagnostics: &diagnostics)
        guard hasSpoilers else { return rich }
        let sanitized = context.sanitizedHTML(DiscordMarkdown.spoilerHTML(rich.html))
        var result = RichText(
            sanitizedHTML: sanitized.html, plainText: DiscordMarkdown.spoilerPlainText(rich.plainText))
        result.assets = rich.assets
        return result
    }

    /// The local image files of the message's custom emoji (`inlineEmojis`, and reactions, which
    /// name the same emoji), by `id:` and `name:`; only files inside the export that are images.
    func emojiFiles(diagnostics: inout [Diagnostic]) -> [String: String] {
        var files: [String: String] = [:]
        let emoji =
            (node["inlineEmojis"]?.elements ?? []) + (node["reactions"]?.elements ?? []).compactMap { $0["emoji"] }
        for item in emoji {
            guard let id = item["id"]?.string, !id.isEmpty, let name = item["name"]?.string,
                let url = item["imageUrl"]?.string, !DiscordImporter.isRemote(url), files["id:" + id] == nil
            else { continue }
            let path = DiscordImporter.localPath(url)
            // Asked once here so a missing or refused file is a warning, and never shown broken.
            guard
                case .local = context.media(
                    localPath: path, relativeTo: place.file, at: location, diagnostics: &diagnostics)
            else { continue }
            files["id:" + id] = path
            if files["name:" + name] == nil { files["name:" + name] = path }
        }
        return files
    }

    func stickerName(_ sticker: JSONNode) -> String { sticker["name"]?.string ?? "sticker" }

    /// A sticker's image and its path in the export, when the export holds it as an image (a
    /// Lottie sticker is animation data, named instead).
    func stickerImage(_ sticker: JSONNode, diagnostics: inout [Diagnostic]) -> (asset: LocalAsset, path: String)? {
        guard sticker["format"]?.string != "Lottie", let url = sticker["sourceUrl"]?.string,
            !DiscordImporter.isRemote(url)
        else { return nil }
        let path = DiscordImporter.localPath(url)
        guard
            case .local(let asset) = context.media(
                localPath: path, relativeTo: place.file, at: location, diagnostics: &diagnostics),
            asset.pixelSize != nil
        else { return nil }
        return (asset, path)
    }

    /// An attachment's file: the copy the export holds, else a placeholder naming it.
    func source(_ attachment: JSONNode, diagnostics: inout [Diagnostic]) -> MediaSource {
        media(attachment["url"]?.string ?? "", diagnostics: &diagnostics)
    }

    /// A URL or local path DCE wrote, resolved inside the export.
    func media(_ url: String, diagnostics: inout [Diagnostic]) -> MediaSource {
        if DiscordImporter.isRemote(url) {
            return context.media(
                localPath: nil, remoteURL: url, relativeTo: place.file, at: location, diagnostics: &diagnostics)
        }
        return context.media(
            localPath: DiscordImporter.localPath(url), relativeTo: place.file, at: location, diagnostics: &diagnostics)
    }

    /// The kind of a message that is only `attachment`.
    func attachmentKind(_ attachment: JSONNode, diagnostics: inout [Diagnostic]) -> MessageKind {
        let media = source(attachment, diagnostics: &diagnostics)
        let name = attachment["fileName"]?.string
        let ext = PathText.pathExtension(name ?? "").lowercased()
        var size: PixelSize?
        if let width = attachment["width"]?.number(in: 1...1_000_000),
            let height = attachment["height"]?.number(in: 1...1_000_000)
        {
            size = PixelSize(width: Int(width), height: Int(height))
        } else if case .local(let asset) = media {
            size = asset.pixelSize
        }
        if case .local = media {
            switch ext {
            case "png", "jpg", "jpeg", "gif", "webp": return .photo(MediaItem(source: media, size: size, alt: name))
            case "mp4", "webm", "mov": return .video(MediaItem(source: media, size: size, title: name))
            case "mp3", "ogg", "wav", "m4a", "opus", "flac": return .audio(MediaItem(source: media, title: name))
            default: break
            }
        }
        return .file(
            FileItem(
                source: media, name: name, size: attachment["fileSizeBytes"]?.number(in: 0...9e15).map { Int64($0) }))
    }
}
