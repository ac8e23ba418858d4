import Foundation
import ScrollbackHTML
import ScrollbackMarkdown
import ScrollbackModel

/// A Teams message's `Body` (HTML or text), `Subject` and `Attachments` onto a message kind.
///
/// HTML goes through the one sanitizer (libxml2, allow-list): Teams' coloured spans lose their
/// `style`, `<at>` mentions and `<attachment>` markers keep their text, `<emoji alt>` is its
/// emoji, a code block keeps its language. Images Teams serves itself are never loaded from
/// another host: an inline image held by Microsoft Graph (`graph.microsoft.com/…/hostedContents/
/// …/$value`, or Skype's media store) needs the tenant's login and is not in the export, so it is
/// the "not in this export" chip, with a warning; an emoji picture from Teams' asset host is its
/// `alt` text (the emoji). Other images follow the site's remote-media rule. A `Subject` is a
/// bold first line. Attachments: a shared file (`reference`, kept in SharePoint or OneDrive) is
/// named with "(file not in this export)"; a quoted message (`messageReference`) makes the
/// message a reply to it; a card is named, its content not carried over.
struct TeamsBody {
    let node: JSONNode
    let file: URL
    let location: SourceLocation
    let context: ImportContext

    /// The message a `messageReference` attachment quotes (what Teams shows as a reply in chats).
    var quotedMessage: String? {
        for attachment in node["Attachments"]?.elements ?? []
        where attachment["ContentType"]?.string == "messageReference" {
            if let id = attachment["Id"]?.string, !id.isEmpty { return id }
        }
        return nil
    }

    /// The message's kind: plain text when the HTML holds no formatting, else rich text.
    func kind(diagnostics: inout [Diagnostic]) -> MessageKind {
        let body = node["Body"]
        let content = body?["Content"]?.string ?? ""
        let isHTML = (body?["ContentType"]?.string ?? "html").lowercased() == "html"
        var html = isHTML ? content : Self.paragraphs(content)
        if let subject = node["Subject"]?.string, !ChatMarkup.trimming(subject, in: .whitespacesAndNewlines).isEmpty {
            html = "<p><strong>" + HTMLSanitizer.escape(subject) + "</strong></p>" + html
        }
        html += attachmentLines(diagnostics: &diagnostics)
        if let exceeded = MarkdownLimits.exceededLimit(inHTML: html) {
            diagnostics.append(
                .warning(.other("the html exceeds a limit (\(exceeded)); it is shown as plain text"), at: location))
            return .text(html)
        }
        let images = RichTextImages(context: context.reading, file: file, location: location)
        var hosted = 0
        let result = context.reading.sanitizer.sanitize(
            html,
            imageURL: { source in
                switch Self.imageHost(source) {
                case .microsoftStore:
                    hosted += 1
                    return nil
                case .teamsAssets: return nil
                case .other: return images.url(for: source)
                }
            },
            droppedImageText: { source, alt in
                guard Self.imageHost(source) == .microsoftStore else { return nil }
                return "📎 " + Self.imageName(alt) + " (not in this export)"
            })
        diagnostics += images.warnings
        if hosted > 0 {
            diagnostics.append(
                .warning(
                    .other(
                        (hosted == 1 ? "an inline image is" : "\(hosted) inline images are")
                            + " held by Microsoft Graph (hostedContents), not in the export; a placeholder is shown"),
                    at: location))
        }
        let plain = result.plainText
        let shownHTML = Self.droppingBlankParagraphs(result.html)
        if plain.isEmpty, !shownHTML.contains("<img") {
            // In italics, so it does not read as something the sender wrote.
            return .attributedText(
                context.richText(
                    markdown: "*No content in this export*", relativeTo: file, at: location, diagnostics: &diagnostics))
        }
        // One paragraph of plain text (most chat messages) needs no rich text.
        if shownHTML == "<p>" + HTMLSanitizer.escape(plain) + "</p>" { return .text(plain) }
        var rich = RichText(sanitizedHTML: shownHTML, plainText: plain)
        rich.assets = images.assets
        return .attributedText(rich)
    }

    /// Where an inline image lives, which decides whether the page may show it.
    enum ImageHost {
        /// Microsoft Graph's hosted contents or Skype's media store: behind the tenant's login.
        case microsoftStore
        /// Teams' own emoji and sticker pictures: the `alt` text is the emoji.
        case teamsAssets
        /// Anywhere else: the site's media rules apply.
        case other
    }

    static func imageHost(_ source: String) -> ImageHost {
        guard let host = URLComponents(string: source)?.host?.lowercased() else { return .other }
        if host == "graph.microsoft.com" || host.hasSuffix(".asm.skype.com") { return .microsoftStore }
        if host.hasSuffix(".teams.cdn.office.net") || host.hasSuffix(".teams.microsoft.com") { return .teamsAssets }
        return .other
    }

    /// The name the chip gives an inline image: its `alt`, or "image".
    static func imageName(_ alt: String?) -> String {
        let alt = ChatMarkup.trimming(alt ?? "", in: .whitespacesAndNewlines)
        return alt.isEmpty ? "image" : alt
    }

    /// The sanitizer's output without paragraphs that hold only spaces: Teams pads a message
    /// with `<p>&nbsp;</p>` (before a code block, after a quote), which would draw empty lines in
    /// the bubble. The sanitizer writes `<p>` with no attribute and escapes every `<` of text,
    /// so each `<p>` … `</p>` found here is one of its paragraphs.
    static func droppingBlankParagraphs(_ html: String) -> String {
        guard html.contains("\u{A0}</p>") else { return html }
        var result = ""
        var rest = Substring(html)
        while let open = rest.range(of: "<p>") {
            result += rest[..<open.lowerBound]
            let inside = rest[open.upperBound...]
            if let close = inside.range(of: "</p>"),
                inside[..<close.lowerBound].allSatisfy({ $0.isWhitespace })
            {
                rest = inside[close.upperBound...]
            } else {
                result += "<p>"
                rest = inside
            }
        }
        return result + rest
    }

    /// Plain text (`ContentType: text`) as HTML paragraphs, its line breaks kept.
    static func paragraphs(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            HTMLSanitizer.escape(String($0))
        }
        return "<p>" + lines.joined(separator: "<br>") + "</p>"
    }

    /// A paragraph per attachment the message shows: shared files and cards, by name.
    func attachmentLines(diagnostics: inout [Diagnostic]) -> String {
        var html = ""
        for attachment in node["Attachments"]?.elements ?? [] {
            let type = attachment["ContentType"]?.string ?? ""
            guard type != "messageReference" else { continue }  // a reply: see `quotedMessage`
            let name = [attachment["Name"]?.string, attachment["ContentUrl"]?.string.map(PathText.lastComponent)]
                .compactMap { $0 }.first { !$0.isEmpty }
            if type.hasPrefix("application/vnd.microsoft.card.") {
                html +=
                    "<p>🗂 " + HTMLSanitizer.escape(name ?? "A card") + " (card; its content is not carried over)</p>"
                continue
            }
            let shown = name ?? "file"
            if let url = attachment["ContentUrl"]?.string, !url.isEmpty {
                diagnostics.append(
                    .warning(
                        .other("file '\(shown)' is not in the export (only at \(url)); a placeholder is shown"),
                        at: location))
            } else {
                diagnostics.append(.warning(.missingMediaFile(shown), at: location))
            }
            html += "<p>📎 " + HTMLSanitizer.escape(shown) + " (file not in this export)</p>"
        }
        return html
    }
}
