import Foundation
import ScrollbackLayout
import ScrollbackModel
import Testing

@testable import ScrollbackRendering

@Suite struct TextLinkifierTests {
    let linkifier = TextLinkifier(participants: [Fixture.alice, Fixture.bob])

    @Test func escapesAndKeepsLineBreaks() {
        #expect(linkifier.html("a < b & \"c\"\nnext\r\nlast") == "a &lt; b &amp; &quot;c&quot;<br>next<br>last")
    }

    @Test func linksURLsWithoutTrailingPunctuation() {
        #expect(
            linkifier.html("See https://example.com/a?b=1&c=2.")
                == "See <a href=\"https://example.com/a?b=1&amp;c=2\" rel=\"nofollow noopener\">https://example.com/a?b=1&amp;c=2</a>."
        )
        #expect(
            linkifier.html("(www.example.org/x)")
                == "(<a href=\"https://www.example.org/x\" rel=\"nofollow noopener\">www.example.org/x</a>)")
        #expect(
            linkifier.html("wiki https://en.wikipedia.org/wiki/Foo_(bar) ok")
                == "wiki <a href=\"https://en.wikipedia.org/wiki/Foo_(bar)\" rel=\"nofollow noopener\">https://en.wikipedia.org/wiki/Foo_(bar)</a> ok"
        )
    }

    @Test func doesNotLinkOtherSchemesOrFragments() {
        #expect(linkifier.html("javascript:alert(1)") == "javascript:alert(1)")
        #expect(linkifier.html("http:// nothing") == "http:// nothing")
        #expect(linkifier.html("xhttps://a.b") == "xhttps://a.b")
        #expect(linkifier.html("https://a.b/\"onmouseover=x").contains("href=\"https://a.b/\""))
    }

    @Test func linksEmailAddresses() {
        #expect(
            linkifier.html("mail ops@example.com, thanks")
                == "mail <a href=\"mailto:ops@example.com\">ops@example.com</a>, thanks")
        #expect(linkifier.html("not@an address") == "not@an address")
    }

    @Test func linksMentionsOfParticipantsByIdOrName() {
        #expect(linkifier.html("hi @bob!") == "hi <a class=\"mn\" href=\"index.html#p-bob\">@bob</a>!")
        #expect(linkifier.html("@Bob Stone look") == "<a class=\"mn\" href=\"index.html#p-bob\">@Bob Stone</a> look")
        #expect(linkifier.html("@alice") == "<a class=\"mn\" href=\"index.html#p-alice\">@alice</a>")
        #expect(linkifier.html("@bobby and @zed") == "@bobby and @zed")
    }

    @Test func handlesNonASCIIText() {
        #expect(
            linkifier.html("Grüße 🎉 https://ä.example/ü")
                == "Grüße 🎉 <a href=\"https://ä.example/ü\" rel=\"nofollow noopener\">https://ä.example/ü</a>")
    }
}

@Suite struct PaginationAndReplyTests {
    /// Three pages of two messages; the last message replies to the first.
    func threePages() -> ConversationPlan {
        let pages: [[LayoutItem]] = [
            [.message(Fixture.row("a1", .text("one"))), .message(Fixture.row("a2", .text("two")))],
            [
                .message(Fixture.row("b1", .text("three"))),
                .message(
                    Fixture.row(
                        "b2", .text("four"),
                        reply: ReplyPreview(messageID: "b1", pageIndex: 1, senderName: nil, excerpt: "three"))),
            ],
            [
                .message(
                    Fixture.row(
                        "c1", .text("five"),
                        reply: ReplyPreview(messageID: "a1", pageIndex: 0, senderName: "Bob Stone", excerpt: "one")))
            ],
        ]
        return Fixture.layout(pages: pages)
    }

    @Test func pagesAreNamedAndLinked() throws {
        let (pages, _) = Inspect.render(threePages())
        #expect(Set(pages.keys) == ["trip/index.html", "trip/page-2.html", "trip/page-3.html"])
        let middle = try #require(pages["trip/page-2.html"])
        #expect(middle.contains("<a rel=\"prev\" href=\"index.html\">"))
        #expect(middle.contains("<a rel=\"next\" href=\"page-3.html\">"))
        // Every fixture message is sent on May 3, 2024: each link names that day.
        #expect(middle.contains("<a href=\"page-2.html\" aria-current=\"page\" title=\"May 3, 2024\">2</a>"))
        #expect(middle.contains("<a href=\"index.html\" title=\"May 3, 2024\">1</a>"))
        #expect(middle.contains("<title>Weekend trip (page 2) · Scrollback</title>"))
        #expect(!pages["trip/index.html"]!.contains("rel=\"prev\""))
        #expect(!pages["trip/page-3.html"]!.contains("rel=\"next\""))
        #expect(Inspect.messages(middle).map { $0.attributes["id"] } == ["m-b1", "m-b2"])
    }

    @Test func singlePageHasNoPagination() throws {
        let (pages, _) = Inspect.render(Fixture.showcase())
        #expect(!pages["trip/index.html"]!.contains("class=\"pg\""))
    }

    @Test func replyLinksResolveAcrossPages() throws {
        let (pages, _) = Inspect.render(threePages())
        let last = try #require(pages["trip/page-3.html"])
        #expect(
            last.contains("<a class=\"rq\" href=\"index.html#m-a1\"><b>Bob Stone</b><span dir=\"auto\">one</span></a>"))
        // The quote is a link, not a second message element.
        #expect(!last.contains("data-message-id=\"a1\""))
        let middle = try #require(pages["trip/page-2.html"])
        #expect(middle.contains("<a class=\"rq\" href=\"#m-b1\"><b>Bob Stone</b><span dir=\"auto\">three</span></a>"))
    }

    @Test func paginationWindowElidesFarPages() throws {
        let pages = SiteRenderer.paginationEntries(current: 10, count: 30)
        let numbers = pages.map { entry in
            if case .page(let index, _) = entry { String(index + 1) } else { "…" }
        }
        #expect(
            pages.filter { if case .page(_, true) = $0 { true } else { false } } == [.page(index: 10, current: true)])
        #expect(numbers == ["1", "…", "8", "9", "10", "11", "12", "13", "14", "…", "30"])
    }

    @Test func anchorsAreUniqueSlugs() {
        let messages = ["Msg 1", "msg-1", "msg 1", "ok_2"].map {
            Message(
                id: $0, sender: "bob", date: Date(timeIntervalSince1970: 0), kind: .text("x"),
                location: Fixture.location)
        }
        let table = AnchorTable(messages: messages)
        let anchors = messages.map { table.anchor($0.id) }
        #expect(anchors == ["m-msg-1-2", "m-msg-1", "m-msg-1-3", "m-ok_2"])
        #expect(Set(anchors).count == anchors.count)
    }

    /// Ids that are no slugs but slug apart (Slack's `ts`) take the hashed path: each anchor is
    /// its id's slug; one collision anywhere falls back to the exact table.
    @Test func distinctSlugsAreAnchorsAsTheyAre() {
        func anchors(_ ids: [String]) -> [String] {
            let table = AnchorTable(
                messages: ids.map {
                    Message(
                        id: $0, sender: "bob", date: Date(timeIntervalSince1970: 0), kind: .text("x"),
                        location: Fixture.location)
                })
            return ids.map(table.anchor)
        }
        #expect(
            anchors(["1674072438.000100", "1674072439.000200", "m3", " Lead"])
                == ["m-1674072438-000100", "m-1674072439-000200", "m-m3", "m-lead"])
        #expect(anchors(["1.5", "x", "1-5"]) == ["m-1-5-2", "m-x", "m-1-5"])
        #expect(Slug.make("--Ab  c!") == "ab-c")
    }

    @Test func repeatedIdsKeepOneAnchorAndIdsWithoutLettersGetX() {
        let ids = ["1674072438.000100", "!!!", "1674072438.000100", "???", "x", "Msg 1", "Msg 1", "msg-1"]
        let messages = ids.map {
            Message(
                id: $0, sender: "bob", date: Date(timeIntervalSince1970: 0), kind: .text("x"),
                location: Fixture.location)
        }
        let table = AnchorTable(messages: messages)
        #expect(
            ids.map(table.anchor) == [
                "m-1674072438-000100", "m-x-2", "m-1674072438-000100", "m-x-3", "m-x", "m-msg-1-2", "m-msg-1-2",
                "m-msg-1",
            ])
    }
}

@Suite struct MessageBodyTests {
    func render(_ kind: MessageKind, config: SiteConfig = SiteConfig()) -> String {
        let (pages, _) = Inspect.render(Fixture.layout(pages: [[.message(Fixture.row("x", kind))]]), config: config)
        return Inspect.messages(pages["trip/index.html"]!).first!.html
    }

    @Test func photoReservesItsAspectRatio() {
        let sized = render(
            .photo(
                MediaItem(
                    source: .local(LocalAsset(sourcePath: "/a", sitePath: "media/ab.jpg")),
                    size: PixelSize(width: 1200, height: 800), alt: "Alt")))
        #expect(
            sized.contains(
                "<img src=\"../media/ab.jpg\" alt=\"Alt\" width=\"1200\" height=\"800\" loading=\"lazy\" decoding=\"async\">"
            ))
        let unsized = render(.photo(MediaItem(source: .remote("https://e.example/a.png"))))
        #expect(unsized.contains("class=\"u\""))
        #expect(!unsized.contains("<img src=\"https://e.example/a.png\" alt=\"\" style"))
    }

    @Test func unavailablePhotoShowsThePlaceholder() {
        let html = render(.photo(MediaItem(source: .unavailable(original: "../../etc/passwd"))))
        #expect(html.contains("<span class=\"ph0\" data-part=\"missing-media\">"))
        #expect(html.contains("<span class=\"phk\">Photo</span>"))
        #expect(html.contains("<span class=\"phm\">not in this export</span>"))
        #expect(!html.contains("passwd"), "a reference that is no file name is not shown")
        #expect(!html.contains("<img"))
    }

    @Test func videoAndAudioDoNotPreload() {
        let video = render(
            .video(
                MediaItem(
                    source: .remote("https://e.example/v.mp4"), size: PixelSize(width: 16, height: 9),
                    poster: .remote("https://e.example/p.jpg"), duration: 75)))
        #expect(
            video.contains(
                "<video controls preload=\"none\" src=\"https://e.example/v.mp4\" poster=\"https://e.example/p.jpg\" width=\"16\" height=\"9\"></video>"
            ))
        #expect(video.contains("<figcaption>1:15</figcaption>"))
        let audio = render(.audio(MediaItem(source: .remote("https://e.example/a.ogg"), duration: 3725)))
        #expect(
            audio.contains(
                "<audio controls preload=\"none\" src=\"https://e.example/a.ogg\"></audio><span class=\"du\">1:02:05</span>"
            ))
    }

    @Test func locationLinksToOpenStreetMap() {
        let html = render(.location(LocationItem(latitude: -33.8568, longitude: 151.2153, name: "Opera House")))
        #expect(
            html.contains(
                "href=\"https://www.openstreetmap.org/?mlat=-33.8568&amp;mlon=151.2153#map=16/-33.8568/151.2153\""))
        #expect(html.contains("<strong dir=\"auto\">Opera House</strong>"))
    }

    @Test func contactCardHasLinksAndAVCardFile() throws {
        let layout = Fixture.layout(pages: [
            [
                .message(
                    Fixture.row(
                        "c",
                        .contact(
                            ContactItem(
                                name: "Ann; Lee", phones: ["+1 (555) 010-9999"],
                                emails: ["ann@example.com", "bad address"]))))
            ]
        ])
        let renderer = SiteRenderer(config: SiteConfig())
        let (files, _) = renderer.renderFiles(layout)
        let html = Inspect.text(files.first { $0.path == "trip/index.html" }!)
        #expect(html.contains("<a href=\"tel:+15550109999\">+1 (555) 010-9999</a>"))
        #expect(html.contains("<a href=\"mailto:ann@example.com\">ann@example.com</a>"))
        #expect(html.contains("<span>bad address</span>"))
        #expect(html.contains("<a class=\"vcf\" href=\"m-c.vcf\" download=\"ann-lee.vcf\">"))
        let vcf = try #require(files.first { $0.path == "trip/m-c.vcf" })
        #expect(
            Inspect.text(vcf)
                == "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\\; Lee\r\nN:Ann\\; Lee;;;;\r\nTEL:+1 (555) 010-9999\r\nEMAIL:ann@example.com\r\nEMAIL:bad address\r\nEND:VCARD\r\n"
        )
    }

    @Test func linkPreviewShowsTextThenCard() {
        let html = render(
            .linkPreview(
                text: "Look",
                link: LinkItem(
                    url: "https://www.example.com/post?id=1", title: "Title", teaser: "Teaser",
                    thumbnail: .local(LocalAsset(sourcePath: "/t", sitePath: "media/t.png")), siteName: "Example")))
        #expect(
            html.contains(
                "<div dir=\"auto\">Look</div><a class=\"lp\" href=\"https://www.example.com/post?id=1\" rel=\"nofollow noopener noreferrer\"><img src=\"../media/t.png\" alt=\"\" loading=\"lazy\" decoding=\"async\"><span class=\"tx\"><strong dir=\"auto\">Title</strong><span dir=\"auto\">Teaser</span><small>Example · example.com</small></span></a>"
            ))
    }

    @Test func richTextIsWrittenAsIsWithRootRebased() {
        let html = render(
            .attributedText(
                RichText(
                    sanitizedHTML:
                        "<p><img src=\"@root/media/x.png\" alt=\"\"> <a href=\"@root/media/y.pdf\">y</a></p>",
                    plainText: "y")))
        #expect(
            html.contains(
                "<div class=\"rt\" data-part=\"bubble\" dir=\"auto\"><p><img src=\"../media/x.png\" alt=\"\"> <a href=\"../media/y.pdf\">y</a></p></div>"
            ))
    }

    @Test func emojiAndSystemMessages() {
        #expect(render(.emoji("👍")).contains("<div class=\"em\" data-part=\"bubble\">👍</div>"))
        let system = render(.system("Bob joined"))
        #expect(system.contains("<p class=\"sys\" dir=\"auto\">Bob joined</p>"))
        #expect(!system.contains("data-part=\"avatar\""))
        #expect(!system.contains("data-part=\"header\""))
    }

    @Test func reactionsNameWhoReacted() {
        let (pages, _) = Inspect.render(
            Fixture.layout(pages: [
                [
                    .message(
                        Fixture.row(
                            "r", .text("x"),
                            reactions: [ReactionSummary(emoji: "👍", count: 2, senderNames: ["Ann", "Bo"])]))
                ]
            ]))
        #expect(
            pages["trip/index.html"]!.contains("<li title=\"Ann, Bo\">👍 2<span class=\"vh\"> from Ann, Bo</span></li>"))
    }

    /// Reactors an export only counts are said as a number, never as made-up names.
    @Test func reactionsSayHowManyTheLogDoesNotName() {
        #expect(ReactionView.who(["Ann", "Bo"], count: 2) == "Ann, Bo")
        #expect(ReactionView.who([], count: 42) == "42 people")
        #expect(ReactionView.who([], count: 1) == "1 person")
        #expect(ReactionView.who(["Ann"], count: 2) == "Ann and 1 other")
        #expect(ReactionView.who(["Ann", "Bo"], count: 5) == "Ann, Bo and 3 others")
    }

    @Test func participantColoursAreValidatedOrDerived() {
        let custom = Participant(id: "k", name: "K", color: "#A1b2C3")
        let derived = Participant(id: "d", name: "D")
        #expect(MessageRenderer.colour(custom, slot: 0) == ("cx lt", "--pc:#A1b2C3"))
        #expect(
            MessageRenderer.colour(Participant(id: "n", name: "N", color: "#1a237e"), slot: 0) == ("cx", "--pc:#1a237e")
        )
        #expect(MessageRenderer.isLight("#fff"))
        #expect(MessageRenderer.isLight("#e07a5f"))
        #expect(!MessageRenderer.isLight("#0b5fce"))
        let (colorClass, style) = MessageRenderer.colour(derived, slot: 13)
        #expect(style == nil)
        #expect(colorClass == "c3")
        #expect(MessageRenderer.colour(Participant(id: "e", name: "E", color: "#fff;x"), slot: 0).colorStyle == nil)
    }

    /// A ChatGPT conversation lists "You" (`me`) first, then the assistant: the participant list
    /// shows both avatars, and they must not share a hue.
    @Test func meAndTheOtherParticipantNeverShareAColour() {
        let (pages, _) = Inspect.render(
            Fixture.layout(
                participants: [Fixture.alice, Fixture.carol],
                pages: [[.message(Fixture.row("a", .text("hi"), sender: Fixture.carol))]]))
        let page = pages["trip/index.html"]!
        let header = String(page[..<page.range(of: "</header>")!.lowerBound])
        let classes = header.components(separatedBy: "<span class=\"av ").dropFirst().map {
            String($0.prefix { $0 != "\"" })
        }
        #expect(classes.count == 2)
        #expect(Set(classes).count == 2, "\(classes)")
        // The others keep the first hues whoever `me` is.
        #expect(classes == ["c1", "c0"])
        #expect(
            MessageRenderer.paletteSlots(
                [Fixture.alice, Fixture.bob, Fixture.carol, Fixture.bob], me: "alice") == [
                    "bob": 0, "carol": 1, "alice": 2,
                ])
    }
}

/// The byte-level fast paths of the renderer agree with the rules they stand for.
@Suite struct ByteFastPathTests {
    @Test func plainByteMasksMatchTheirDefinition() {
        // Plain: written as it is, and no link starts after it (not a boundary of `isBoundary`).
        let boundaries: Set<UInt8> = Set(Array("([{\"',;:".utf8))
        let special: Set<UInt8> = Set(Array("&<>\"'".utf8))
        var low: UInt64 = 0
        var high: UInt64 = 0
        for byte in UInt8(0)...UInt8(0x7F) {
            let plain = byte > 0x20 && byte != 0x7F && !boundaries.contains(byte) && !special.contains(byte)
            guard plain else { continue }
            if byte < 0x40 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 0x40) }
        }
        #expect(TextLinkifier.plainLow == low)
        #expect(TextLinkifier.plainHigh == high)
    }

    @Test func linkifiedRunsOfPlainTextMatchTheByteByByteRules() {
        let linkifier = TextLinkifier(participants: [Participant(id: "bob", name: "Bob Stone")])
        #expect(
            linkifier.html("see(https://e.com/a)x,www.e.org ;@bob hi@bob a@b.co \u{1}é\u{85}")
                == "see(<a href=\"https://e.com/a\" rel=\"nofollow noopener\">https://e.com/a</a>)x,"
                + "<a href=\"https://www.e.org\" rel=\"nofollow noopener\">www.e.org</a> ;"
                + "<a class=\"mn\" href=\"index.html#p-bob\">@bob</a> hi@bob <a href=\"mailto:a@b.co\">a@b.co</a> \u{FFFD}é\u{FFFD}"
        )
    }

    @Test func escapingIntoBytesMatchesEscape() {
        let noncharacters = String(Unicode.Scalar(0xFDD0)!) + String(Unicode.Scalar(0x10FFFF)!)
        for text in ["", "plain", "a<b>&\"'c", "\u{0}x\u{7F}\u{85}é🎉" + noncharacters + "z", "end&"] {
            var bytes: [UInt8] = []
            HTMLText.appendEscaped(text, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == HTMLText.escape(text))
        }
    }

    @Test func plainRichTextIsWhatTheThreePassesLeaveAsItIs() {
        let samples = [
            "<p>Hello <em>there</em> “quoted” é</p>", "<p><a href=\"@root/media/a.png\">a</a></p>",
            "<ul><li><input type=\"checkbox\" disabled=\"\" /> x</li></ul>", "<p>tab\tline\nend</p>",
            "<p>bell\u{7}</p>", "<p>c1\u{85}</p>", "<p>emoji 🎉</p>", "<p>mail a@b.c</p>", "<p><ins>x</ins></p>", "",
        ]
        var plain = 0
        for html in samples {
            let processed = HTMLText.replacingForbiddenCodePoints(
                MessageRenderer.labelTaskCheckboxes(MessageRenderer.rebaseRoot(html, root: "../")))
            if MessageRenderer.isPlainRichText(html) {
                plain += 1
                #expect(Array(processed.utf8) == Array(html.utf8), "\(html)")
            }
        }
        #expect(plain == 3)
    }

    @Test func hostsOfASCIIURLs() {
        #expect(HTMLText.host(of: "https://User:pw@WWW.Example.com:8080/x?y#z") == "example.com")
        #expect(HTMLText.host(of: "http://[::1]:80/") == "[::1]:80")
        #expect(HTMLText.host(of: "https://a@b@c.org") == "c.org")
        #expect(HTMLText.host(of: "https://www./") == nil)
        #expect(HTMLText.host(of: "no scheme") == nil)
        #expect(HTMLText.host(of: "https://ünï.example/") == "ünï.example")
    }
}
