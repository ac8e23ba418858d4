import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading

private typealias Support = MarkdownTestSupport

/// The kind inference rules of spec §2, one message at a time.
@Suite struct MarkdownKindTests {
    /// Reads a log whose only message is alice's, with `body` under the header line.
    func kind(_ body: String, frontMatter: String = "", file: String = "log.md") throws -> (MessageKind?, [Diagnostic])
    {
        let result = try Support.read(
            Support.log("# 2024-05-03\n\n**alice** 09:41\n\(body)\n", frontMatter: frontMatter), name: file)
        return (result.conversation?.messages.first?.kind, result.diagnostics)
    }

    @Test func emojiOnly() throws {
        #expect(try kind("🎉").0 == .emoji("🎉"))
        #expect(try kind("👍🏽 ❤️ 🇩🇪").0 == .emoji("👍🏽 ❤️ 🇩🇪"))
        #expect(try kind("1️⃣").0 == .emoji("1️⃣"))
        #expect(try kind("🎉 yay").0?.name == .attributedText)
        #expect(try kind("42").0?.name == .attributedText)
        #expect(try kind("**🎉**").0?.name == .attributedText)
    }

    @Test func singleImageIsAPhoto() throws {
        let (kind, diagnostics) = try kind("![Boarding pass](media/dot.png \"Gate B12\")")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        guard case .photo(let item) = kind, case .local(let asset) = item.source else {
            Issue.record("expected a local photo, got \(String(describing: kind))")
            return
        }
        #expect(item.alt == "Boarding pass")
        #expect(item.caption == "Gate B12")
        #expect(item.size == PixelSize(width: 12, height: 8))
        #expect(asset.sitePath.hasPrefix("media/") && asset.sitePath.hasSuffix(".png"))
    }

    @Test func imageInTheHeaderParagraphAfterTheFirstLineIsAPhotoToo() throws {
        let result = try Support.read(Support.log("# 2024-05-03\n\n**alice** 09:41\n![x](https://example.com/a.jpg)\n"))
        #expect(
            result.conversation?.messages.first?.kind
                == .photo(MediaItem(source: .remote("https://example.com/a.jpg"), alt: "x")))
    }

    @Test func videoAndAudioByExtension() throws {
        #expect(try kind("![clip](https://example.com/v/clip.MP4?x=1)").0?.name == .video)
        #expect(try kind("![](https://example.com/clip.webm)").0?.name == .video)
        #expect(try kind("![](https://example.com/clip.mov)").0?.name == .video)
        #expect(
            try kind("![Song](https://example.com/song.mp3)").0
                == .audio(MediaItem(source: .remote("https://example.com/song.mp3"), alt: "Song", title: "Song")))
        #expect(try kind("![](https://example.com/memo.m4a)").0?.name == .audio)
        #expect(try kind("![](https://example.com/memo.opus)").0?.name == .audio)
        #expect(try kind("![](https://example.com/memo.wav)").0?.name == .audio)
    }

    @Test func refusedImageStillRendersWithAPlaceholder() throws {
        let (kind, diagnostics) = try kind("![secret](../../etc/passwd.png)")
        #expect(kind == .photo(MediaItem(source: .unavailable(original: "../../etc/passwd.png"), alt: "secret")))
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.severity == .warning)
    }

    @Test func geoURIIsALocation() throws {
        #expect(try kind("geo:48.137,11.575").0 == .location(LocationItem(latitude: 48.137, longitude: 11.575)))
        #expect(
            try kind("Marienplatz\ngeo:48.137,11.575;u=35\nMunich, Germany").0
                == .location(
                    LocationItem(latitude: 48.137, longitude: 11.575, name: "Marienplatz", address: "Munich, Germany")))
        #expect(
            try kind("[Hotel Adler](geo:-33.8688,151.2093,12)").0
                == .location(LocationItem(latitude: -33.8688, longitude: 151.2093, name: "Hotel Adler")))
        #expect(try kind("<geo:1,2>").0 == .location(LocationItem(latitude: 1, longitude: 2)))
    }

    @Test func outOfRangeGeoURIIsTextWithAWarning() throws {
        let (kind, diagnostics) = try kind("geo:123,11")
        #expect(kind?.name == .attributedText)
        #expect(diagnostics.map(\.severity) == [.warning])
    }

    @Test func vcardIsAContact() throws {
        let (kind, diagnostics) = try kind(
            """
            ```vcard
            BEGIN:VCARD
            VERSION:4.0
            N:Day;Carol;;;
            FN:Carol Day
            TEL;TYPE=cell:+49 151
             000000
            TEL:tel:+1-555-0100
            item1.EMAIL;TYPE=work:carol@example.com
            END:VCARD
            ```
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(
            kind
                == .contact(
                    ContactItem(
                        name: "Carol Day", phones: ["+49 151000000", "+1-555-0100"], emails: ["carol@example.com"])))
        #expect(try self.kind("```vcard\nN:Day;Carol\n```").0 == .contact(ContactItem(name: "Carol Day")))
    }

    @Test func vcardWithoutANameIsAnError() throws {
        let (kind, diagnostics) = try kind("```vcard\nTEL:1\n```")
        #expect(kind == nil)
        #expect(diagnostics.first?.problem == .missingField("FN (the contact's name) in the vcard block"))
    }

    @Test func customBlockIsCustom() throws {
        let (kind, diagnostics) = try kind(
            "```custom poll\n{\"question\": \"Dinner?\", \"options\": [\"Pizza\", 1.50]}\n```")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(
            kind
                == .custom(
                    CustomItem(
                        id: "poll",
                        data: .object([
                            (key: "question", value: .string("Dinner?")),
                            (key: "options", value: .array([.string("Pizza"), .number("1.50")])),
                        ]))))
    }

    @Test func customBlockWithOtherContentIsShownAsCode() throws {
        let (kind, diagnostics) = try kind("Vote:\n\n```custom poll\n{}\n```")
        #expect(kind?.name == .attributedText)
        #expect(diagnostics.map(\.severity) == [.warning])
    }

    @Test func bareURLWithKnownPreviewIsALinkPreview() throws {
        let frontMatter = """
            links:
              https://example.com/booking/123:
                title: Booking 123
                teaser: Your flight
                siteName: Example Air
                thumbnail: media/dot.png
            """
        let (kind, diagnostics) = try kind("Here:\nhttps://example.com/booking/123", frontMatter: frontMatter)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        guard case .linkPreview(let text, let link) = kind else {
            Issue.record("expected linkPreview, got \(String(describing: kind))")
            return
        }
        #expect(text == "Here:\nhttps://example.com/booking/123")
        #expect(link.url == "https://example.com/booking/123")
        #expect(link.title == "Booking 123")
        #expect(link.teaser == "Your flight")
        #expect(link.siteName == "Example Air")
        if case .local = link.thumbnail {
        } else {
            Issue.record("expected a local thumbnail, got \(String(describing: link.thumbnail))")
        }
    }

    @Test func bareURLWithoutPreviewIsRichText() throws {
        let (kind, _) = try kind("Here: https://example.com/unknown")
        guard case .attributedText(let rich) = kind else {
            Issue.record("expected attributedText, got \(String(describing: kind))")
            return
        }
        #expect(rich.html == "<p>Here: <a href=\"https://example.com/unknown\">https://example.com/unknown</a></p>\n")
        // A named link is not a bare URL, even with preview data.
        let frontMatter = "links:\n  https://example.com/x:\n    title: X"
        #expect(try self.kind("[see](https://example.com/x)", frontMatter: frontMatter).0?.name == .attributedText)
    }

    @Test func everythingElseIsSafeRichText() throws {
        let (kind, diagnostics) = try kind(
            """
            Did you book the *flights*? ~~maybe~~ <script>alert(1)</script>
            [x](javascript:alert(1)) ![dot](media/dot.png) ![gone](../../secret.png)

            | day | plan |
            |-----|------|
            | Sat | hike |

            - [x] tickets
            - [ ] hotel
            """)
        guard case .attributedText(let rich) = kind else {
            Issue.record("expected attributedText, got \(String(describing: kind))")
            return
        }
        #expect(rich.html.hasPrefix("<p>Did you book the <em>flights</em>? <del>maybe</del> <!-- raw HTML omitted -->"))
        #expect(!rich.html.contains("<script"))
        #expect(!rich.html.contains("javascript:"))
        #expect(rich.html.contains("<img src=\"@root/media/"))
        #expect(!rich.html.contains("secret"))
        #expect(rich.html.contains(" gone"))
        #expect(rich.html.contains("<table>"))
        #expect(rich.html.contains("<input type=\"checkbox\" checked=\"\" disabled=\"\" /> tickets"))
        // The plain text (reply quotes, previews) is what the rendered message reads, not its source.
        #expect(rich.plainText.hasPrefix("Did you book the flights? maybe alert(1) x dot"))
        #expect(!rich.plainText.contains("~") && !rich.plainText.contains("*") && !rich.plainText.contains("["))
        #expect(diagnostics.map(\.severity) == [.warning], "the refused image is reported")
    }

    @Test func headerWithoutBodyWarns() throws {
        let (kind, diagnostics) = try kind("")
        #expect(kind == .attributedText(RichText(sanitizedHTML: "", plainText: "")))
        #expect(diagnostics.map(\.severity) == [.warning])
    }
}
