import Foundation
import ScrollbackLayout
import ScrollbackModel
import Testing

@testable import ScrollbackRendering

/// Media that is not in the export (issue 42.2) is one compact chip: an icon, the kind, the file
/// name when known and "not in this export"; and custom-emoji reactions are their images
/// (issue 41.8/9).
@Suite struct MissingMediaTests {
    func render(_ kind: MessageKind, reactions: [ReactionSummary] = [], config: SiteConfig = SiteConfig()) -> String {
        let (pages, _) = Inspect.render(
            Fixture.layout(pages: [[.message(Fixture.row("x", kind, reactions: reactions))]]), config: config)
        return Inspect.messages(pages["trip/index.html"]!).first!.html
    }

    func occurrences(of needle: String, in html: String) -> Int { html.components(separatedBy: needle).count - 1 }

    /// A Telegram photo whose file was not exported: a chip naming it, no picture-sized box even
    /// though its size is known (only a present file keeps a box of its aspect ratio).
    @Test func aMissingPhotoIsOneChipWithItsName() {
        let html = render(
            .photo(
                MediaItem(
                    source: .unavailable(original: "IMG_0042.jpg (not included in the export)"),
                    size: PixelSize(width: 1280, height: 960), caption: "Sunset")))
        #expect(html.contains("<figure class=\"md mm\" data-part=\"bubble\"><span class=\"ph0\""))
        #expect(html.contains("<svg class=\"phi\""), "an inline icon, no emoji")
        #expect(
            html.contains(
                "<span class=\"phk\">Photo</span><span class=\"phn\" dir=\"auto\" title=\"IMG_0042.jpg\">IMG_0042.jpg</span><span class=\"phm\">not in this export</span></span>"
            ))
        #expect(!html.contains("width=\"1280\"") && !html.contains("<code>"))
        #expect(occurrences(of: ">IMG_0042.jpg<", in: html) == 1)
        #expect(html.contains("<figcaption dir=\"auto\">Sunset</figcaption>"))
    }

    /// WhatsApp's `<Media omitted>` (a file with no name, the marker its reference) is a "Media"
    /// chip, not a file card and a placeholder repeating the marker.
    @Test func whatsAppMediaOmittedIsNotShownTwice() {
        let html = render(.file(FileItem(source: .unavailable(original: "<Media omitted>"))))
        #expect(html.contains("<div class=\"fc mm\" data-part=\"bubble\"><span class=\"ph0\""))
        #expect(html.contains("<span class=\"phk\">Media</span><span class=\"phm\">not in this export</span>"))
        #expect(!html.contains("Media omitted"), "the marker is no file name")
        #expect(!html.contains("class=\"fn\"") && !html.contains("class=\"fi\""))
        let named = render(
            .file(
                FileItem(
                    source: .unavailable(original: "files/report.pdf"), name: "report.pdf", size: 2048,
                    mimeType: "application/pdf")))
        #expect(
            named.contains(
                "<span class=\"phk\">File</span><span class=\"phn\" dir=\"auto\" title=\"report.pdf\">report.pdf</span>"
            ))
        #expect(occurrences(of: ">report.pdf<", in: named) == 1)
    }

    /// A sticker without its image or emoji is a "Sticker" chip; a voice message a "Voice
    /// message" chip without its title line above it.
    @Test func stickersAndVoiceMessagesSayWhatTheyAre() {
        let sticker = render(
            .photo(MediaItem(source: .unavailable(original: "sticker (not included)"), alt: "Sticker")))
        #expect(sticker.contains("<span class=\"phk\">Sticker</span><span class=\"phm\">"))
        let voice = render(
            .audio(
                MediaItem(
                    source: .unavailable(original: "voice message (not included in the export)"), duration: 7,
                    title: "Voice message")))
        #expect(voice.contains("<span class=\"phk\">Voice message</span><span class=\"phm\">not in this export</span>"))
        #expect(occurrences(of: "Voice message", in: voice) == 1)
        let video = render(.video(MediaItem(source: .unavailable(original: "chats/clip.mp4"))))
        #expect(
            video.contains(
                "<span class=\"phk\">Video</span><span class=\"phn\" dir=\"auto\" title=\"clip.mp4\">clip.mp4</span>"))
    }

    /// The file name a reference names, and none for an exporter's marker.
    @Test func fileNamesOfReferences() {
        #expect(MessageRenderer.fileName(inReference: "photos/a b.png") == "a b.png")
        #expect(MessageRenderer.fileName(inReference: "report.pdf (not included in the export)") == "report.pdf")
        #expect(MessageRenderer.fileName(inReference: "remote only: https://cdn.example/x/cat.webp?ex=1") == "cat.webp")
        for marker in [
            "<Media omitted>", "image omitted", "(File not included. Change data exporting settings to download.)",
            "photo (not included in the export)", "(no file name)", "", ".hidden", "sticker 😀 (not included)",
        ] {
            #expect(MessageRenderer.fileName(inReference: marker) == nil, "\(marker)")
        }
    }

    /// A custom emoji is a small image with `:name:` as its text inside the pill; one the page
    /// cannot load (missing, or remote with remote media off) is its text.
    @Test func customEmojiReactionsAreImagesInThePill() {
        let local = CustomEmoji(
            name: "party", image: .local(LocalAsset(sourcePath: "/in/party.png", sitePath: "media/0123.png")))
        let remote = CustomEmoji(name: "cdn", image: .remote("https://cdn.discordapp.com/emojis/92.png"))
        let gone = CustomEmoji(name: "gone", image: .unavailable(original: "emoji/gone.png"))
        let reactions = [
            ReactionSummary(emoji: ":party:", count: 2, senderNames: ["Alice Nguyen"], customEmoji: local),
            ReactionSummary(emoji: ":cdn:", count: 1, senderNames: ["Alice Nguyen"], customEmoji: remote),
            ReactionSummary(emoji: ":gone:", count: 1, senderNames: ["Alice Nguyen"], customEmoji: gone),
        ]
        let html = render(.text("hi"), reactions: reactions)
        #expect(
            html.contains(
                "<img class=\"rxe\" src=\"../media/0123.png\" alt=\":party:\" width=\"18\" height=\"18\" loading=\"lazy\" decoding=\"async\"> 2"
            ))
        #expect(html.contains("src=\"https://cdn.discordapp.com/emojis/92.png\" alt=\":cdn:\""))
        #expect(html.contains(">:gone: 1<"))
        var config = SiteConfig()
        config.remoteMedia = false
        let off = render(.text("hi"), reactions: reactions, config: config)
        #expect(!off.contains("cdn.discordapp.com"), "remote media off loads nothing remote")
        #expect(off.contains(">:cdn: 1<") && off.contains("alt=\":party:\""))
    }
}
