import Foundation
import Testing
import ZIPFoundation

@testable import ScrollbackSite

/// A WhatsApp chat exported "with media" is a zip: the chat text plus its files. The build
/// unpacks it with ZIPFoundation (no `unzip`), reads every message and copies the media.
@Suite struct WhatsAppZipSiteTests {
    @Test func aZipOfASampleChatAndItsMediaBuildsEveryMessageAndCopiesTheFile() throws {
        guard let samples = TelegramWhatsAppSiteTests.samples() else { return }
        let chat = samples.appendingPathComponent("whatsapp/gesiscss-WhatsR/englishandroid24h.txt")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // The zip as WhatsApp makes it: the chat text and the voice message it names.
        let staging = folder.url.appendingPathComponent("staging")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        // The sample, plus one document sent with a caption.
        var text = try Data(contentsOf: chat)
        text.append(contentsOf: Array("1/30/18, 09:00 - Alice: report.pdf (file attached)\nQ3 <b>figures</b>\n".utf8))
        try text.write(to: staging.appendingPathComponent("WhatsApp Chat with Alice.txt"))
        try Data("%PDF-1.4 fake".utf8).write(to: staging.appendingPathComponent("report.pdf"))
        let media = Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try media.write(to: staging.appendingPathComponent("PTT-20180129-WA0025.opus"))
        let input = folder.url.appendingPathComponent("input")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let zip = input.appendingPathComponent("WhatsApp Chat with Alice.zip")
        let archive = try Archive(url: zip, accessMode: .create)
        for name in ["WhatsApp Chat with Alice.txt", "PTT-20180129-WA0025.opus", "report.pdf"] {
            try archive.addEntry(with: name, relativeTo: staging, compressionMethod: .deflate)
        }
        try FileManager.default.removeItem(at: staging)

        let output = folder.url.appendingPathComponent("site")
        let report = try build(input, output)
        #expect(!report.hasErrors, "\(report.diagnostics.filter { $0.severity == .error })")
        // Messages in (counted from the raw text) = message elements out.
        let expected = try TelegramWhatsAppSiteTests.rawCount(chat) + 1
        var elements = 0
        var pages: [String] = []
        for page in TelegramWhatsAppSiteTests.files(output)
        where page.pathExtension == "html" && page.path != output.appendingPathComponent("index.html").path {
            let html = try String(contentsOf: page, encoding: .utf8)
            elements += html.components(separatedBy: "data-message-id=\"").count - 1
            pages.append(html)
        }
        #expect(expected > 40)
        #expect(elements == expected)
        // The voice message's bytes are in the site, and a page links to that file.
        // (The site's own files, not the build's bookkeeping in hidden folders.)
        let published = TelegramWhatsAppSiteTests.files(output).filter {
            !$0.path.dropFirst(output.path.count).contains("/.")
        }
        let copied = published.filter { $0.pathExtension == "opus" }
        #expect(copied.count == 1, "\(copied)")
        if let file = copied.first {
            #expect(try Data(contentsOf: file) == media)
            #expect(pages.contains { $0.contains(file.lastPathComponent) })
        }
        #expect(!report.diagnostics.contains { $0.description.contains("PTT-20180129-WA0025.opus") })
        // The document's caption shows under its card, escaped, not glued onto its name.
        let card = try #require(pages.first { $0.contains("report.pdf") })
        #expect(card.contains("download=\"report.pdf\" dir=\"auto\">report.pdf</a>"))
        #expect(card.contains("<p class=\"file-caption\" dir=\"auto\">Q3 &lt;b&gt;figures&lt;/b&gt;</p>"))
        #expect(published.contains { $0.pathExtension == "pdf" })
    }

    /// A photo attached to a chat shows at its own size, as the log `import` writes of it does:
    /// building the chat and building its imported log give the same site (issue 43, found by the
    /// benchmark's WhatsApp export: the chat's photos had no width and height, the logs' had).
    @Test func anAttachedPhotoHasItsSizeAndImportThenBuildIsBuild() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        try base.write(
            Data("1/29/18, 12:24 - Alice: IMG-20180129-WA0001.png (file attached)\nthe view\n".utf8),
            to: "export/WhatsApp Chat with Alice.txt")
        try base.write(Logs.png, to: "export/IMG-20180129-WA0001.png")
        let export = base.url.appendingPathComponent("export")
        let direct = base.url.appendingPathComponent("direct")
        #expect(!(try build(export, direct)).hasErrors)
        let logs = base.url.appendingPathComponent("logs")
        let imported = try ExportWriter(input: export, format: .whatsapp, output: logs, onDiagnostics: { _ in }).write()
        #expect(!imported.hasErrors)
        let viaLogs = base.url.appendingPathComponent("via-logs")
        #expect(!(try build(logs, viaLogs)).hasErrors)
        let left = try snapshot(direct).filter { !$0.key.hasPrefix(".scrollback") }
        let right = try snapshot(viaLogs).filter { !$0.key.hasPrefix(".scrollback") }
        #expect(left.keys.sorted() == right.keys.sorted())
        for (path, bytes) in left where right[path] != bytes {
            Issue.record("\(path) differs")
        }
        let page = try #require(left.first { $0.key.hasSuffix("/index.html") && $0.key.contains("alice") }?.value)
        #expect(String(decoding: page, as: UTF8.self).contains(#"width="2" height="1""#))
    }
}
