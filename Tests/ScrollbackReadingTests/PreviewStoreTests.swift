import Foundation
import Testing

@testable import ScrollbackReading

@Suite("LinkPreviewStore")
struct PreviewStoreTests {
    /// `Tests/Fixtures/previews`, found from this file's path.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/previews")

    let store = LinkPreviewStore(folder: Self.fixtures)

    @Test("A saved page gives its Open Graph fields, and none of its script")
    func savedPage() throws {
        let preview = try #require(store.linkPreview(for: "https://example.com/posts/preview-fixture"))
        #expect(preview.title == "A saved page with & entities <b>not bold</b>")
        #expect(preview.teaser == "What the card should say.")
        #expect(preview.siteName == "Fixture Blog")
        #expect(preview.imageURL == "https://example.com/images/fixture-cover.png")
        #expect(preview.url == "https://example.com/posts/preview-fixture/")
        #expect(preview.pageFile.lastPathComponent == "blog-post.html")
        for field in [preview.title, preview.teaser, preview.siteName, preview.imageURL, preview.url].compactMap({ $0 })
        {
            #expect(!field.contains("LEAK"), "\(field)")
            #expect(!field.contains("SCRIPT"), "\(field)")
            #expect(!field.lowercased().contains("alert"), "\(field)")
            #expect(!field.contains("NOSCRIPT"), "\(field)")
        }
    }

    @Test("URLs match by og:url and canonical URL after normalization")
    func matching() throws {
        for url in [
            "https://example.com/posts/preview-fixture", "https://example.com/posts/preview-fixture/",
            "HTTPS://EXAMPLE.COM/posts/preview-fixture#top", " https://example.com/posts/preview-fixture// ",
            "https://example.com/posts/preview-fixture-canonical",
        ] {
            #expect(store.linkPreview(for: url)?.siteName == "Fixture Blog", "\(url)")
        }
        #expect(store.linkPreview(for: "https://example.com/posts/PREVIEW-fixture") == nil)
        #expect(store.linkPreview(for: "https://example.com/posts/preview-fixture?page=2") == nil)
        #expect(store.linkPreview(for: "https://example.com/notes") == nil)
        #expect(store.linkPreview(for: "not a url") == nil)
    }

    @Test("The tuple API answers the same")
    func tupleAPI() throws {
        let preview = try #require(store.preview(for: "https://example.com/posts/preview-fixture"))
        #expect(preview.title == "A saved page with & entities <b>not bold</b>")
        #expect(preview.teaser == "What the card should say.")
        #expect(preview.imageURL == "https://example.com/images/fixture-cover.png")
        #expect(preview.siteName == "Fixture Blog")
    }

    @Test("A page in a declared legacy encoding, with only a canonical link and <title>")
    func legacyEncoding() throws {
        let preview = try #require(store.linkPreview(for: "http://café.example.org/menu"))
        #expect(preview.title == "Café crème à la carte")
        #expect(preview.teaser == "Un café")
        #expect(preview.siteName == nil)
        #expect(preview.imageURL == "menu_files/cover.jpg")
        #expect(preview.pageFile.lastPathComponent == "latin1-canonical.htm")
    }

    @Test("A missing folder gives no previews")
    func missingFolder() {
        let empty = LinkPreviewStore(folder: Self.fixtures.appendingPathComponent("does-not-exist"))
        #expect(empty.linkPreview(for: "https://example.com/posts/preview-fixture") == nil)
    }

    @Test("URL normalization")
    func normalization() {
        #expect(LinkPreviewStore.normalizedURL("HTTPS://Example.ORG/Blog/Post/#x") == "https://example.org/Blog/Post")
        #expect(LinkPreviewStore.normalizedURL("https://example.org/") == "https://example.org")
        #expect(LinkPreviewStore.normalizedURL("https://example.org/a/?q=B/") == "https://example.org/a?q=B/")
        #expect(LinkPreviewStore.normalizedURL("https://example.org?x") == "https://example.org?x")
        #expect(
            LinkPreviewStore.absoluteImageURL("//cdn.example/x.png", pageURL: "https://e.org/a")
                == "https://cdn.example/x.png")
        #expect(LinkPreviewStore.absoluteImageURL("/x.png", pageURL: "https://e.org/a/b?c") == "https://e.org/x.png")
        #expect(LinkPreviewStore.absoluteImageURL("x.png", pageURL: "https://e.org/a") == "x.png")
    }

    @Test("Many threads asking at once read the folder once and agree")
    func concurrentQuestions() {
        let shared = LinkPreviewStore(folder: Self.fixtures)
        let answers = Answers()
        DispatchQueue.concurrentPerform(iterations: 32) { _ in
            answers.record(shared.linkPreview(for: "https://example.com/posts/preview-fixture")?.title)
        }
        #expect(answers.all.count == 32)
        #expect(Set(answers.all) == ["A saved page with & entities <b>not bold</b>"])
    }
}

/// Titles recorded from several threads.
final class Answers: @unchecked Sendable {
    private let lock = NSLock()
    private var titles: [String?] = []
    func record(_ title: String?) { lock.withLock { titles.append(title) } }
    var all: [String?] { lock.withLock { titles } }
}

@Suite("Sample site previews")
struct SamplePreviewTests {
    /// `sample-logs/previews` of this repository.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("sample-logs/previews")

    @Test("The sample blog post is found by the URL the sample conversations link to")
    func sampleBlogPost() throws {
        let store = LinkPreviewStore(folder: Self.folder)
        let preview = try #require(store.linkPreview(for: "https://example.org/blog/static-sites-for-chat-archives"))
        #expect(preview.title == "Static sites for chat archives")
        #expect(preview.siteName == "The Example Blog")
        #expect(preview.teaser?.hasPrefix("Chat apps come and go") == true)
        #expect(preview.imageURL == "static-sites-for-chat-archives_files/cover.png")
        let image = preview.pageFile.deletingLastPathComponent().appendingPathComponent(try #require(preview.imageURL))
        #expect(FileManager.default.fileExists(atPath: image.path))
        for field in [preview.title, preview.teaser, preview.siteName].compactMap({ $0 }) {
            #expect(!field.contains("track") && !field.contains("Tracked"))
        }
    }
}
