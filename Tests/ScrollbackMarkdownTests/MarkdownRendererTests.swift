import Testing

@testable import ScrollbackMarkdown

@Suite struct MarkdownRendererTests {
    let renderer = MarkdownRenderer()

    @Test func rendersTables() {
        let result = renderer.render("| a | b |\n|---|--:|\n| 1 | 2 |\n")
        #expect(result.html.contains("<table>"))
        #expect(result.html.contains("<th>a</th>"))
        #expect(result.html.contains("<td align=\"right\">2</td>"))
    }

    @Test func rendersStrikethrough() {
        #expect(renderer.render("~~gone~~ here").html == "<p><del>gone</del> here</p>\n")
    }

    @Test func autolinksBareURLsAndAddresses() {
        let html = renderer.render("see https://example.com/x and www.example.org or a@b.co").html
        #expect(html.contains("<a href=\"https://example.com/x\">https://example.com/x</a>"))
        #expect(html.contains("<a href=\"http://www.example.org\">www.example.org</a>"))
        #expect(html.contains("<a href=\"mailto:a@b.co\">a@b.co</a>"))
    }

    @Test func rendersTaskLists() {
        let html = renderer.render("- [x] tickets\n- [ ] hotel\n").html
        #expect(html.contains("<input type=\"checkbox\" checked=\"\" disabled=\"\" /> tickets"))
        #expect(html.contains("<input type=\"checkbox\" disabled=\"\" /> hotel"))
    }

    @Test func keepsLineBreaks() {
        #expect(renderer.render("one\ntwo").html == "<p>one<br />\ntwo</p>\n")
    }

    @Test func omitsRawHTML() {
        let html = renderer.render("<script>alert(1)</script>\n\nhi <img src=x onerror=alert(1)> <b>b</b>").html
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
        #expect(!html.contains("onerror"))
        #expect(!html.contains("<b>"))
        #expect(html.contains("raw HTML omitted"))
    }

    @Test(arguments: [
        "[x](javascript:alert(1))", "[x](JAVASCRIPT:alert(1))", "[x](vbscript:msgbox)", "[x](file:///etc/passwd)",
        "[x](data:text/html;base64,PHNjcmlwdD4=)", "![x](javascript:alert(1))", "<javascript:alert(1)>",
        // cmark-gfm's safe mode keeps `data:image/…` links; the renderer empties them, however spelt.
        "[x](data:image/png;base64,AAAA)", "[x](DaTa:image/png;base64,AAAA)", "[x](&#100;ata:image/png;base64,AAAA)",
        "[x](&#x20;data:image/png;base64,AAAA)", "<data:image/png;base64,AAAA>",
    ])
    func dropsUnsafeURLs(_ markdown: String) {
        let html = renderer.render(markdown).html.lowercased()
        #expect(!html.contains("href=\"javascript:"))
        #expect(!html.contains("src=\"javascript:"))
        #expect(!html.contains("href=\"vbscript:"))
        #expect(!html.contains("href=\"file:"))
        #expect(!html.contains("href=\"data:"))
    }

    @Test func keepsLinksThatOnlyMentionData() {
        for url in ["https://example.com/?q=data:", "datasheet.pdf", "da/ta:x"] {
            #expect(renderer.render("[x](\(url))").html.contains("href=\"\(url)\""))
        }
    }

    @Test func filteredTagsNeverReachTheOutput() {
        // In safe mode raw HTML is omitted before the tag filter would see it; the filter is the
        // second line of defence. Either way none of the tags GFM filters may come out as a tag.
        for tag in ["title", "textarea", "style", "xmp", "iframe", "noembed", "noframes", "script", "plaintext"] {
            let html = renderer.render("x <\(tag)>y</\(tag)>\n\n<\(tag)>\nz\n</\(tag)>\n").html
            #expect(!html.contains("<\(tag)"), "tag \(tag) leaked: \(html)")
        }
    }

    @Test func everyExtensionReachesTheRenderer() {
        // The tag filter only works when the parser's extension list is passed to cmark_render_html.
        #expect(MarkdownDocument("a").attachedExtensionCount == CMarkEnvironment.extensionNames.count)
    }

    @Test func plainTextCollapsesWhitespace() {
        let result = renderer.render("# Title\n\nSome *emphasis*\nand `code`.\n\n- one\n- two\n")
        #expect(result.plainText == "Title Some emphasis and code. one two")
    }

    /// The byte scan for ASCII text and the `Character` walk for the rest agree with the definition:
    /// runs of `Character.isWhitespace` become one space, ends trimmed.
    @Test func collapsingWhitespaceMatchesCharacterIsWhitespace() {
        func reference(_ text: String) -> String {
            text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        let samples = [
            "", " ", "a", "  a  b\t\tc\n", "\r\n x \r\n", "\u{0B}v\u{0C}f\u{1C}not\u{1F}space",
            "caf\u{E9}\u{A0}\u{2003}tea\u{3000}", " \u{301}combining after a space", "emoji 🎉  🎉 ", "\u{85}next line",
        ]
        for sample in samples {
            #expect(MarkdownDocument.collapsingWhitespace(sample) == reference(sample), "\(sample.debugDescription)")
        }
    }

    @Test func rewritesImageURLs() {
        let result = renderer.render("![Pass](media/pass.jpg \"Gate\") and ![Map](https://x.org/m.png)") { url in
            url.hasPrefix("media/") ? "@root/media/abc.jpg" : url
        }
        #expect(result.html.contains("<img src=\"@root/media/abc.jpg\" alt=\"Pass\" title=\"Gate\" />"))
        #expect(result.html.contains("<img src=\"https://x.org/m.png\" alt=\"Map\" />"))
    }

    @Test func dropsImagesTheCallbackRefuses() {
        let result = renderer.render("look: ![the *boarding* pass](../../etc/passwd) ok") { _ in nil }
        #expect(!result.html.contains("<img"))
        #expect(result.html == "<p>look: the boarding pass ok</p>\n")
    }

    @Test func concurrentRenderingMatchesSerialRendering() async {
        let inputs = (0..<64).map { index in
            """
            | n | v |
            |---|---|
            | \(index) | ~~old~~ new https://example.com/\(index) |

            - [x] done \(index) with www.example.org/\(index) and *emphasis* and `code`
            - [ ] ~~x~~ a@b.example ~one~ **strong** ~~**both**~~

            ![img \(index)](p\(index).png) text:with:colons wwwx w:w http://a.b/c~d
            """
        }
        let serial = inputs.map { renderer.render($0) }
        let concurrent = await withTaskGroup(of: [(Int, RenderedMarkdown)].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var results: [(Int, RenderedMarkdown)] = []
                    for round in 0..<16 {
                        for index in inputs.indices where (index + round) % 8 == worker {
                            results.append((index, MarkdownRenderer().render(inputs[index])))
                        }
                    }
                    return results
                }
            }
            var all: [(Int, RenderedMarkdown)] = []
            for await results in group { all += results }
            return all
        }
        #expect(concurrent.count == inputs.count * 16)
        for (index, result) in concurrent {
            #expect(result == serial[index], "input \(index) rendered differently under concurrency")
        }
    }
}

@Suite struct MarkdownDocumentTests {
    let source = """
        # 2024-05-03

        **alice** 09:41
        Did you book the *flights*?

        ```custom poll
        {"q": 1}
        ```

        > **bob** 09:50
        > quoted

        - item ![i](a.png)
        """

    @Test func exposesTopLevelBlocksWithPositions() {
        let document = MarkdownDocument(source)
        #expect(document.blocks.map(\.kind) == [.heading, .paragraph, .codeBlock, .blockQuote, .list])
        let heading = document.blocks[0]
        #expect(heading.headingLevel == 1)
        #expect(heading.plainText == "2024-05-03")
        #expect(heading.start == MarkdownPosition(line: 1, column: 1))
        let paragraph = document.blocks[1]
        #expect(paragraph.start == MarkdownPosition(line: 3, column: 1))
        #expect(paragraph.end.line == 4)
        #expect(paragraph.inlines.map(\.kind) == [.strong, .text, .softBreak, .text, .emphasis, .text])
        #expect(paragraph.inlines[0].plainText == "alice")
        #expect(paragraph.inlines[0].start == MarkdownPosition(line: 3, column: 1))
        let code = document.blocks[2]
        #expect(code.fenceInfo == "custom poll")
        #expect(code.literal == "{\"q\": 1}\n")
        #expect(code.start == MarkdownPosition(line: 6, column: 1))
        #expect(code.end.line == 8)
        #expect(document.blocks[3].children.first?.kind == .paragraph)
        #expect(document.blocks[3].start.line == 10)
        let item = document.blocks[4].children[0]
        #expect(item.kind == .listItem)
        #expect(item.children[0].inlines.last?.kind == .image)
        #expect(item.children[0].inlines.last?.url == "a.png")
    }

    @Test func indentedCodeHasNoFenceInfo() {
        let document = MarkdownDocument("    code\n")
        #expect(document.blocks[0].kind == .codeBlock)
        #expect(document.blocks[0].fenceInfo == nil)
    }

    @Test func rendersBlockRangesDroppingTheHeaderLine() {
        let document = MarkdownDocument(source)
        let body = document.render(blocks: 1..<3, droppingFirstLine: true)
        #expect(
            body.html
                == "<p>Did you book the <em>flights</em>?</p>\n<pre><code class=\"language-custom\">{&quot;q&quot;: 1}\n</code></pre>\n"
        )
        #expect(body.plainText == "Did you book the flights? {\"q\": 1}")
        // Rendering does not change the document.
        let again = document.render(blocks: 1..<2)
        #expect(again.html == "<p><strong>alice</strong> 09:41<br />\nDid you book the <em>flights</em>?</p>\n")
    }

    @Test func aParagraphThatIsOnlyAHeaderRendersNothing() {
        let document = MarkdownDocument("**bob** 09:44\n\n![Pass](pass.jpg)\n")
        #expect(document.render(blocks: 0..<1, droppingFirstLine: true).html == "")
        let body = document.render(blocks: 0..<2, droppingFirstLine: true) { _ in "@root/media/p.jpg" }
        #expect(body.html == "<p><img src=\"@root/media/p.jpg\" alt=\"Pass\" /></p>\n")
        // Images are restored after rendering.
        #expect(document.render(blocks: 1..<2).html == "<p><img src=\"pass.jpg\" alt=\"Pass\" /></p>\n")
    }

    @Test func droppedImagesAreRestored() {
        let document = MarkdownDocument("a ![alt](x.png) b")
        #expect(document.render(imageURL: { _ in nil }).html == "<p>a alt b</p>\n")
        #expect(document.render().html == "<p>a <img src=\"x.png\" alt=\"alt\" /> b</p>\n")
    }
}
