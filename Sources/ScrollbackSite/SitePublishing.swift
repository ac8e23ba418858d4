import Foundation
import ScrollbackCache
import ScrollbackLayout
import ScrollbackModel
import ScrollbackRendering

/// The files a site needs on a public host, beyond its pages: with a base URL (`--base-url`
/// or `baseURL`), `sitemap.xml` (sitemaps.org 0.9), `robots.txt` and Atom feeds — one for the
/// site (a conversation per entry) and one per conversation (its latest messages). Without a
/// base URL none of them is written: links stay relative and the site works from `file://`.
enum SitePublishing {
    /// Messages in a conversation's feed: the latest ones.
    static let feedMessageCount = 20
    /// The name of a conversation's feed, inside its folder; and of the site's feed.
    static let feedFileName = "feed.xml"

    /// `sitemap.xml`: every page of the site.
    static func sitemap(baseURL: String, pagePaths: [String]) -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"# + "\n"
        for path in pagePaths.sorted() {
            xml += "<url><loc>\(escaped(SiteRenderer.absoluteURL(baseURL: baseURL, sitePath: path)))</loc></url>\n"
        }
        return xml + "</urlset>\n"
    }

    /// `robots.txt`: everything may be crawled; where the sitemap is.
    static func robots(baseURL: String) -> String {
        "User-agent: *\nAllow: /\n\nSitemap: \(baseURL)sitemap.xml\n"
    }

    /// The site's feed: one entry per conversation, updated at its last message.
    static func siteFeed(config: SiteConfig, baseURL: String, entries: [BuildManifest.Entry]) -> String {
        let updated = entries.compactMap(\.lastMessageDate).max() ?? 0
        var xml = feedHead(
            id: baseURL, title: config.title, subtitle: config.description, selfURL: baseURL + feedFileName,
            link: baseURL, updated: updated)
        for entry in entries {
            let url = SiteRenderer.absoluteURL(baseURL: baseURL, sitePath: entry.conversationID + "/index.html")
            let summary = entry.summary.conversationSummary
            let text = [summary.description, summary.lastMessagePreview].compactMap { $0 }.joined(separator: "\n")
            xml += "<entry><id>\(escaped(url))</id><title>\(escaped(summary.title))</title>"
            xml += "<updated>\(timestamp(entry.lastMessageDate ?? 0))</updated>"
            xml += "<link rel=\"alternate\" type=\"text/html\" href=\"\(escaped(url))\"/>"
            if !text.isEmpty { xml += "<summary type=\"text\">\(escaped(text))</summary>" }
            xml += "</entry>\n"
        }
        return xml + "</feed>\n"
    }

    /// A conversation's feed: its latest messages, newest first.
    static func conversationFeed(_ conversation: Conversation, config: SiteConfig, baseURL: String) -> String {
        let pageURL = SiteRenderer.absoluteURL(baseURL: baseURL, sitePath: conversation.id + "/index.html")
        let latest = conversation.messages.enumerated()
            .sorted { ($0.element.date, $0.offset) > ($1.element.date, $1.offset) }
            .prefix(feedMessageCount).map(\.element)
        let names = Dictionary(
            conversation.participants.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        var xml = feedHead(
            id: pageURL, title: "\(conversation.displayTitle) · \(config.title)", subtitle: conversation.description,
            selfURL: pageURL.hasSuffix("/") ? pageURL + feedFileName : pageURL,
            link: pageURL, updated: latest.first?.date.timeIntervalSince1970 ?? 0)
        for message in latest {
            let author = message.sender.map { names[$0] ?? $0 }
            let text = TextExcerpt.make(message.kind.plainText, limit: 280)
            let id = pageURL + "#m-" + (message.id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            xml += "<entry><id>\(escaped(id))</id>"
            xml +=
                "<title>\(escaped(author.map { "\($0): " } ?? "" ))\(escaped(TextExcerpt.make(text, limit: 80)))</title>"
            xml += "<updated>\(timestamp(message.date.timeIntervalSince1970))</updated>"
            if let author { xml += "<author><name>\(escaped(author))</name></author>" }
            xml += "<link rel=\"alternate\" type=\"text/html\" href=\"\(escaped(pageURL))\"/>"
            xml += "<content type=\"text\">\(escaped(text))</content></entry>\n"
        }
        return xml + "</feed>\n"
    }

    private static func feedHead(
        id: String, title: String, subtitle: String?, selfURL: String, link: String, updated: Double
    ) -> String {
        var xml = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n"
        xml += #"<feed xmlns="http://www.w3.org/2005/Atom">"# + "\n"
        xml += "<id>\(escaped(id))</id><title>\(escaped(title))</title>"
        if let subtitle, !subtitle.isEmpty { xml += "<subtitle>\(escaped(subtitle))</subtitle>" }
        xml += "<updated>\(timestamp(updated))</updated>"
        xml += "<link rel=\"self\" type=\"application/atom+xml\" href=\"\(escaped(selfURL))\"/>"
        xml += "<link rel=\"alternate\" type=\"text/html\" href=\"\(escaped(link))\"/>"
        xml += "<generator>Scrollback</generator>\n"
        return xml
    }

    /// An RFC 3339 time in UTC, whole seconds.
    static func timestamp(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: seconds.rounded(.down)))
    }

    /// XML text or attribute value: markup characters escaped, characters XML 1.0 forbids dropped.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                let allowed =
                    (value >= 0x20 && value <= 0xD7FF) || (value >= 0xE000 && value <= 0xFFFD)
                    || (value >= 0x10000 && value <= 0x10FFFF)
                if allowed { result.unicodeScalars.append(scalar) }
            }
        }
        return result
    }
}
