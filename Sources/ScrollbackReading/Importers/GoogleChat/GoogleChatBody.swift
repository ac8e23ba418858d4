import Foundation
import ScrollbackModel

/// The body of one Google Chat message: its text, attachments, a quoted message's text and the
/// link card of a lone web link (`GoogleChatMessage`).
struct GoogleChatBody {
    let node: JSONNode
    let group: GoogleChatImporter.Group
    let context: ImportContext
    let location: SourceLocation

    /// One attached file: its name in the folder, and the name it was sent as.
    struct Attachment {
        let exportName: String?
        let originalName: String
        var shownName: String { originalName.isEmpty ? exportName ?? "file" : originalName }
    }

    var attachments: [Attachment] {
        (node["attached_files"]?.elements ?? []).compactMap { item in
            let export = item["export_name"]?.string.flatMap { $0.isEmpty ? nil : $0 }
            let original = item["original_name"]?.string ?? ""
            guard export != nil || !original.isEmpty else { return nil }
            return Attachment(exportName: export, originalName: original)
        }
    }

    /// The message's kind. `quote`: a quoted message's author and text, shown above.
    func kind(quote: String, diagnostics: inout [Diagnostic]) -> MessageKind {
        let text = node["text"]?.string ?? ""
        let attachments = self.attachments
        if attachments.isEmpty, quote.isEmpty {
            if let card = linkCard(text) { return card }
            if !text.isEmpty { return .text(text) }
            return rich("*No content in this export*", diagnostics: &diagnostics)
        }
        let resolved = attachments.map { ($0, source($0, diagnostics: &diagnostics)) }
        if resolved.count == 1, quote.isEmpty {
            let single = kind(of: resolved[0].0, source: resolved[0].1)
            if text.isEmpty { return single }
            if let captioned = single.withCaption(text) { return captioned }
        }
        var markdown = ""
        if !quote.isEmpty {
            markdown = quote.split(separator: "\n", omittingEmptySubsequences: false)
                .map { "> " + ChatMarkup.escapeMarkdown(String($0)) }.joined(separator: "\n")
        }
        if !text.isEmpty { markdown += (markdown.isEmpty ? "" : "\n\n") + ChatMarkup.escapeMarkdown(text) }
        var linked: [LocalAsset] = []
        for (attachment, source) in resolved {
            if !markdown.isEmpty { markdown += "\n\n" }
            let name = ChatMarkup.escapeMarkdown(attachment.shownName)
            if case .local(let asset) = source {
                markdown += "📎 [" + name + "](@root/" + asset.sitePath + ")"
                linked.append(asset)
            } else {
                markdown += "📎 " + name + " (file not in this export)"
            }
        }
        return .attributedText(
            context.richText(
                markdown: markdown, relativeTo: group.messages, at: location, linked: linked,
                diagnostics: &diagnostics))
    }

    /// A note in italics (Markdown `text`), through the Markdown renderer.
    func rich(_ text: String, diagnostics: inout [Diagnostic]) -> MessageKind {
        .attributedText(
            context.richText(markdown: text, relativeTo: group.messages, at: location, diagnostics: &diagnostics))
    }

    /// A link card, when the text is one web link that an annotation's `url_metadata` titles.
    func linkCard(_ text: String) -> MessageKind? {
        for annotation in node["annotations"]?.elements ?? [] {
            let metadata = annotation["url_metadata"]
            guard
                let url = metadata?["url"]?["private_do_not_access_or_else_safe_url_wrapped_value"]?.string,
                let title = metadata?["title"]?.string, !title.isEmpty,
                url.lowercased().hasPrefix("https://") || url.lowercased().hasPrefix("http://"),
                !url.contains(where: \.isWhitespace)
            else { continue }
            let snippet = metadata?["snippet"]?.string ?? ""
            return .linkPreview(
                text: text, link: LinkItem(url: url, title: title, teaser: snippet.isEmpty ? nil : snippet))
        }
        return nil
    }

    /// The file of `attachment`: in the conversation's folder (Takeout writes a name's `?` as
    /// `_`), else a placeholder naming it.
    func source(_ attachment: Attachment, diagnostics: inout [Diagnostic]) -> MediaSource {
        guard let exportName = attachment.exportName else {
            diagnostics.append(.warning(.missingMediaFile(attachment.originalName), at: location))
            return .unavailable(original: attachment.originalName)
        }
        let onDisk = exportName.replacingOccurrences(of: "?", with: "_")
        // A name with a path in it is no file of this folder.
        guard !onDisk.contains("/"), onDisk != "..", onDisk != "." else {
            diagnostics.append(.warning(.missingMediaFile(exportName), at: location))
            return .unavailable(original: exportName)
        }
        return context.media(
            localPath: onDisk, relativeTo: group.messages, at: location, diagnostics: &diagnostics)
    }

    /// The kind of a message that is only `attachment`: by what its bytes are.
    func kind(of attachment: Attachment, source: MediaSource) -> MessageKind {
        let name = attachment.shownName
        guard case .local(let asset) = source else { return .file(FileItem(source: source, name: name)) }
        if asset.pixelSize != nil { return .photo(MediaItem(source: source, size: asset.pixelSize, alt: name)) }
        let type = PathText.pathExtension(asset.sitePath).lowercased()
        if MarkdownKindInference.videoExtensions.contains(type) {
            return .video(MediaItem(source: source, title: name))
        }
        if MarkdownKindInference.audioExtensions.contains(type) {
            return .audio(MediaItem(source: source, title: name))
        }
        return .file(FileItem(source: source, name: name))
    }
}
