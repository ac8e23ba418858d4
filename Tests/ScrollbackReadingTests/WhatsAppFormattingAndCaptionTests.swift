import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading

/// WhatsApp's `*bold*`, `_italic_`, `~strike~` and ```` ```mono``` ```` shown as formatting
/// (never as raw markers, never as HTML of the log), and file captions kept apart from the
/// file's name through the importers and the JSON log.
struct WhatsAppFormattingAndCaptionTests {
    func chat(_ lines: [String], files: [String: String] = [:]) throws -> Conversation {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, contents) in files { try write(contents, to: "chat/" + name, in: folder) }
        let file = try write(lines.joined(separator: "\n") + "\n", to: "chat/_chat.txt", in: folder)
        let imported = try #require(TelegramWhatsAppSampleTests.importFile(file, root: folder).conversations.first)
        return try #require(imported.conversation)
    }

    @Test func whatsAppFormattingIsRenderedAndTheRestStaysText() throws {
        let messages = try chat([
            "[13/01/2024, 09:00:00] Ann: this is *bold*, _italic_ and ~gone~ now",
            "[13/01/2024, 09:01:00] Ann: run ```make bench``` please",
            "[13/01/2024, 09:02:00] Ann: ```let a = 1\nlet b = *a*```",
            "[13/01/2024, 09:03:00] Bob: *<script>alert(1)</script>* & <b onclick=x>hi</b> [x](javascript:alert(1))",
            "[13/01/2024, 09:04:00] Bob: snake_case_name and 2*3*4 stay as written",
            "[13/01/2024, 09:05:00] Bob: no markers at all",
        ]).messages
        struct NotFormatted: Error { let kind: MessageKind }
        func html(_ index: Int) throws -> String {
            guard case .attributedText(let rich) = messages[index].kind else {
                throw NotFormatted(kind: messages[index].kind)
            }
            return rich.html
        }
        let first = try html(0)
        #expect(first.contains("<strong>bold</strong>"), Comment(rawValue: first))
        #expect(first.contains("<em>italic</em>"), Comment(rawValue: first))
        #expect(first.contains("<del>gone</del>"), Comment(rawValue: first))
        #expect(!first.contains("*"), Comment(rawValue: first))
        let mono = try html(1)
        #expect(mono.contains("<code>make bench</code>"), Comment(rawValue: mono))
        let block = try html(2)
        #expect(block.contains("<pre><code>let a = 1\nlet b = *a*"), "markers inside mono stay: \(block)")
        let hostile = try html(3)
        #expect(hostile.contains("<strong>&lt;script&gt;alert(1)&lt;/script&gt;</strong>"), Comment(rawValue: hostile))
        #expect(hostile.contains("&lt;b onclick=x&gt;hi&lt;/b&gt;"), Comment(rawValue: hostile))
        #expect(!hostile.contains("<script"), Comment(rawValue: hostile))
        #expect(!hostile.contains("<a "), "no link the log did not write as a URL: \(hostile)")
        #expect(!hostile.lowercased().contains("href=\"javascript"), Comment(rawValue: hostile))
        let plain = try html(4)
        #expect(plain.contains("snake_case_name and 2*3*4 stay as written"), Comment(rawValue: plain))
        #expect(messages[5].kind == .text("no markers at all"))
    }

    @Test func fileCaptionsStayApartFromTheNameInWhatsAppTelegramAndTheJSONLog() throws {
        let messages = try chat(
            [
                "[13/01/2024, 09:00:00] Ann: \u{200E}<attached: 00000001-report.pdf>\nQ3 figures",
                "[13/01/2024, 09:01:00] Ann: \u{200E}<attached: 00000002-notes.txt>",
            ], files: ["00000001-report.pdf": "%PDF-1.4 fake", "00000002-notes.txt": "notes"]
        ).messages
        guard case .file(let report) = messages[0].kind, case .file(let notes) = messages[1].kind else {
            Issue.record("\(messages.map(\.kind))")
            return
        }
        #expect(report.name == "00000001-report.pdf")
        #expect(report.caption == "Q3 figures")
        #expect(notes.caption == nil)

        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try write("%PDF fake", to: "files/plan.pdf", in: folder)
        let telegram = try write(
            """
            {"name": "Trip", "type": "personal_chat", "id": 1, "messages": [
             {"id": 1, "type": "message", "date": "2024-01-13T09:00:00", "date_unixtime": "1705136400",
              "from": "Ann", "from_id": "user1", "file": "files/plan.pdf", "file_name": "plan.pdf",
              "mime_type": "application/pdf", "text": "the plan", "text_entities": [{"type": "plain", "text": "the plan"}]}
            ]}
            """, to: "result.json", in: folder)
        let imported = try #require(TelegramWhatsAppSampleTests.importFile(telegram).conversations.first)
        let conversation = try #require(imported.conversation)
        guard case .file(let plan) = conversation.messages[0].kind else {
            Issue.record("\(conversation.messages[0].kind)")
            return
        }
        #expect(plan.name == "plan.pdf")
        #expect(plan.caption == "the plan")

        // The JSON log keeps the caption: written by `scrollback import`, read back the same.
        let text = JSONLogWriter(mediaPath: { _ in "media/plan.pdf" }).write(conversation)
        #expect(text.contains("\"caption\": \"the plan\""), Comment(rawValue: text))
        let read = try readLog(
            log(
                messages: #"{"id": "m1", "sender": "alice", "date": "2024-01-13T09:00:00Z", "kind": "file", "#
                    + #""media": {"url": "https://example.com/plan.pdf", "name": "plan.pdf", "caption": "the plan"}}"#))
        guard case .file(let readBack) = try #require(read.conversation).messages[0].kind else {
            Issue.record("\(read.diagnostics)")
            return
        }
        #expect(readBack.caption == "the plan")
        #expect(readBack.name == "plan.pdf")
    }
}
