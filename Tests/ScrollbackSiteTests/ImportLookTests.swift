import Foundation
import Testing

@testable import ScrollbackSite

/// The samples of `../shared/samples` read like the apps' own histories (issue #10): nothing
/// invented, files shown as files, notes without a time line, one hue per person.
@Suite struct ImportLookTests {
    /// The built site of the sample folder `format/name`, as the text of its conversation pages.
    static func site(_ format: String, _ name: String) throws -> [String] {
        let folder = try SharedSamples.folder().appendingPathComponent(format).appendingPathComponent(name)
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let output = scratch.url.appendingPathComponent("site")
        let report = try build(folder, output)
        #expect(!report.hasErrors, "\(report.diagnostics)")
        return try ImportTests.pages(output)
    }

    /// The one message element with `id` (a row is one line of the page).
    static func element(_ id: String, in pages: [String]) -> String? {
        for page in pages {
            guard let start = page.range(of: "data-message-id=\"\(id)\"") else { continue }
            let lineStart = page[..<start.lowerBound].lastIndex(of: "\n").map(page.index(after:)) ?? page.startIndex
            let lineEnd = page[start.upperBound...].firstIndex(of: "\n") ?? page.endIndex
            return String(page[lineStart..<lineEnd])
        }
        return nil
    }

    /// The page header (title, participant list) of a conversation page.
    static func header(_ page: String) -> String {
        page.range(of: "</header>").map { String(page[..<$0.lowerBound]) } ?? ""
    }

    /// DiscordChatExporter without user lists gives a reaction's count only: the chip keeps the
    /// count and says how many, and nobody named "Someone" joins the conversation.
    @Test func discordCountOnlyReactionsInventNoParticipant() throws {
        let pages = try Self.site("discord", "mlomb-chat-analytics")
        for page in pages {
            #expect(!Self.header(page).contains(">Someone<"))
            #expect(!page.contains("Someone, Someone"))
        }
        // DM_2A_2M.json: message 538148765782114306… has 👆 with `"count": 42` and no users.
        let reacted = try #require(pages.first { $0.contains("👆 42") })
        #expect(reacted.contains("<li title=\"42 people\">👆 42<span class=\"vh\"> from 42 people</span></li>"))
    }

    /// Slack: text sent with one file is the file's card with the text as its caption, in the
    /// one message element (the sample's 1736560990.444379 shares a Google document with text).
    @Test func slackTextWithOneFileIsAFileCard() throws {
        let pages = try Self.site("slack", "rusq-slackdump-source_export_dir")
        let message = try #require(Self.element("1736560990.444379", in: pages))
        #expect(message.contains("data-kind=\"file\""))
        // The file is not in the export: its card is the chip naming it.
        #expect(message.contains("class=\"fc mm\" data-part=\"bubble\"><span class=\"ph0\""))
        #expect(message.contains("<p class=\"file-caption\" dir=\"auto\">cZKd73xRR8vIPEV5c60tVwk"))
        #expect(!message.contains("📎"))
    }

    /// Discord: text sent with one image or file is that image or card with the text as its
    /// caption; with several files, each file that is not an image is a link to its copy.
    @Test func discordTextWithOneFileIsItsCardAndFilesAreLinks() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let files = "G - general [2].json_Files/"
        try folder.write(Logs.png, to: files + "cat-1A2B.png")
        try folder.write(Data("notes".utf8), to: files + "notes-3C4D.txt")
        try folder.write(Data("more".utf8), to: files + "more-5E6F.txt")
        func attachment(_ name: String, _ stored: String) -> String {
            #"{"id": "\#(stored)", "url": "\#(files)\#(stored)", "fileName": "\#(name)", "fileSizeBytes": 5}"#
        }
        func message(_ id: String, _ content: String, _ attachments: [String]) -> String {
            #"{"id": "\#(id)", "type": "Default", "timestamp": "2024-05-03T09:0\#(id):00Z", "content": "\#(content)", "author": {"id": "10", "name": "Ann"}, "attachments": [\#(attachments.joined(separator: ","))]}"#
        }
        let export = """
            {"guild": {"id": "1", "name": "G"}, "channel": {"id": "2", "name": "general"}, "messages": [
            \(message("1", "Look at **this** cat", [attachment("cat.png", "cat-1A2B.png")])),
            \(message("2", "The notes", [attachment("notes.txt", "notes-3C4D.txt")])),
            \(message("3", "Both files", [attachment("notes.txt", "notes-3C4D.txt"), attachment("more.txt", "more-5E6F.txt")]))
            ]}
            """
        _ = try folder.write(Data(export.utf8), to: "G - general [2].json")
        let output = folder.url.appendingPathComponent("site")
        let report = try build(folder.url, output)
        #expect(!report.hasErrors, "\(report.diagnostics)")
        let pages = try ImportTests.pages(output)
        let photo = try #require(Self.element("1", in: pages))
        #expect(photo.contains("data-kind=\"photo\""))
        #expect(photo.contains("<figcaption dir=\"auto\">Look at this cat</figcaption>"))
        let card = try #require(Self.element("2", in: pages))
        #expect(card.contains("data-kind=\"file\""))
        #expect(card.contains("<p class=\"file-caption\" dir=\"auto\">The notes</p>"))
        // Rich text spans lines: the files follow the text's paragraph.
        let page = try #require(pages.first { $0.contains("data-message-id=\"3\"") })
        let start = try #require(page.range(of: "data-message-id=\"3\"")).lowerBound
        let both = String(page[start...].prefix(600))
        #expect(both.contains("<p>Both files</p>"))
        #expect(
            both.contains("📎 <a href=\"../media/") && both.contains(">notes.txt</a>") && both.contains(">more.txt</a>"))
        #expect(!pages.joined().contains(files), "files are linked at their copies in the site")
    }

    /// WhatsApp's notices ("Messages and calls are end-to-end encrypted", "… added …") are
    /// centred notes without a time line; a screen reader still hears when.
    @Test func whatsAppSystemLinesShowNoTime() throws {
        let pages = try Self.site("whatsapp", "gesiscss-WhatsR")
        var notes = 0
        for page in pages {
            for part in page.components(separatedBy: "data-kind=\"system\"").dropFirst() {
                let row = String(part.prefix { $0 != "\n" })
                notes += 1
                #expect(!row.contains("data-part=\"timestamp\""), "\(row)")
                #expect(row.contains("<span class=\"vh\">"), "\(row)")
            }
        }
        #expect(notes > 0)
    }

    /// ChatGPT: "You" and "ChatGPT" are the two people of a conversation and must not share a hue.
    @Test func chatGPTParticipantsHaveDistinctColours() throws {
        let pages = try Self.site("chatgpt", "mitkury-chatgpt-export-parser")
        let first = try #require(pages.first { Self.header($0).contains("class=\"who\"") })
        let classes = Self.header(first).components(separatedBy: "<span class=\"av ").dropFirst().map {
            String($0.prefix { $0 != "\"" })
        }
        #expect(classes.count == 2, "\(classes)")
        #expect(Set(classes).count == classes.count, "\(classes)")
    }
}
