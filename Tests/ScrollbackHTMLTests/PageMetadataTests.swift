import Foundation
import Testing

@testable import ScrollbackHTML

@Suite("PageMetadata")
struct PageMetadataTests {
    @Test("Open Graph tags win over Twitter tags and <title>")
    func openGraph() {
        let page = """
            <!DOCTYPE html>
            <html><head>
            <meta charset="utf-8">
            <title>Document title</title>
            <meta name="twitter:title" content="Twitter title">
            <meta property="og:title" content="  OG   title
               &amp; more ">
            <meta property="og:description" content="OG description">
            <meta name="description" content="Plain description">
            <meta property="og:url" content="https://example.org/post">
            <link rel="canonical" href="https://example.org/post/">
            <meta property="og:image" content="https://example.org/cover.jpg">
            <meta name="twitter:image" content="https://example.org/tw.jpg">
            <meta property="og:site_name" content="Example Blog">
            <script>document.title = "<b>script</b>"</script>
            </head><body onload="alert(1)"><h1>Body</h1></body></html>
            """
        let metadata = PageMetadata(parsingPage: page)
        #expect(metadata.title == "OG title & more")
        #expect(metadata.description == "OG description")
        #expect(metadata.url == "https://example.org/post")
        #expect(metadata.canonicalURL == "https://example.org/post/")
        #expect(metadata.imageURL == "https://example.org/cover.jpg")
        #expect(metadata.siteName == "Example Blog")
    }

    @Test("Falls back to Twitter cards, then <title> and meta description")
    func fallbacks() {
        let twitter = PageMetadata(
            parsingPage: """
                <head><title>Doc</title><meta name="twitter:title" content="TW"><meta name="twitter:description" content="TW desc">
                <meta name="description" content="desc"><meta name="twitter:image" content="/img.png"></head>
                """)
        #expect(twitter.title == "TW")
        #expect(twitter.description == "TW desc")
        #expect(twitter.imageURL == "/img.png")
        let plain = PageMetadata(
            parsingPage: """
                <html><head><TITLE>
                   Plain   <b>page</b> title
                </TITLE><META NAME="Description" CONTENT="The description"><LINK REL="Canonical Alternate" HREF=" https://e.org/x "></head></html>
                """)
        #expect(plain.title == "Plain page title")
        #expect(plain.description == "The description")
        #expect(plain.canonicalURL == "https://e.org/x")
        #expect(plain.url == nil)
        #expect(plain.siteName == nil)
        #expect(plain.imageURL == nil)
    }

    @Test("First value wins; empty values are ignored")
    func firstValue() {
        let metadata = PageMetadata(
            parsingPage: """
                <meta property="og:title" content="   "><meta property="og:title" content="First"><meta property="og:title" content="Second">
                """)
        #expect(metadata.title == "First")
    }

    @Test("Script, style and SVG text never reach a field")
    func noScriptText() {
        let metadata = PageMetadata(
            parsingPage: """
                <html><head><script>var title = "<title>Injected</title>";</script><style>title{}</style></head>
                <body><svg><title>Icon</title></svg><title>Real <script>evil()</script>title</title></body></html>
                """)
        #expect(metadata.title == "Real title")
        #expect(PageMetadata(parsingPage: "<svg><title>Icon</title></svg>").title == nil)
    }

    @Test("Page bytes honour <meta charset> and default to UTF-8")
    func encodings() {
        let latin1: [UInt8] =
            Array("<html><head><meta charset=\"iso-8859-1\"><title>Caf".utf8) + [0xE9]
            + Array("</title></head></html>".utf8)
        #expect(PageMetadata(parsingPageBytes: latin1).title == "Café")
        let utf8 = Array("<html><head><title>Café 日本</title></head></html>".utf8)
        #expect(PageMetadata(parsingPageBytes: utf8).title == "Café 日本")
        #expect(PageMetadata(parsingPageBytes: []) == PageMetadata())
        #expect(PageMetadata(parsingPage: "") == PageMetadata())
    }
}
