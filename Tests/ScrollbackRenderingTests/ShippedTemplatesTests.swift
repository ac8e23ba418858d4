import Foundation
import Testing

@testable import ScrollbackRendering
@testable import ScrollbackTemplates

extension TemplateLibrary {
    /// The repository's `Templates/` folder: the source the binary's embedded templates are
    /// generated from (tests copy shipped templates from here into site overrides).
    static var defaultTemplatesDirectory: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Templates").path
    }
}

@Suite("shipped templates")
struct ShippedTemplatesTests {
    @Test("the embedded files are the repository's Templates/ folder, byte for byte")
    func embeddedFilesMatchTheFolder() throws {
        let folder = try ShippedTemplates.files(inFolder: TemplateLibrary.defaultTemplatesDirectory)
        #expect(folder.map(\.path).contains("message.mustache"))
        #expect(folder.map(\.path).contains("assets/scrollback.css"))
        #expect(ShippedTemplates.embedded.map(\.path) == folder.map(\.path))
        for (embedded, file) in zip(ShippedTemplates.embedded, folder) {
            #expect(embedded.contents == file.contents, "\(file.path)")
        }
    }

    @Test("without SCROLLBACK_TEMPLATES the build uses the embedded files and they load cleanly")
    func shippedLibraryLoads() throws {
        #expect(ShippedTemplates.overrideDirectory == nil)
        #expect(try ShippedTemplates.files() == ShippedTemplates.embedded)
        #expect(TemplateLibrary.shipped.diagnostics.isEmpty)
        for file in ShippedTemplates.embedded where file.path.hasSuffix(".mustache") {
            #expect(TemplateLibrary.shipped.contains(String(file.path.dropLast(".mustache".count))), "\(file.path)")
        }
        let css = try #require(TemplateLibrary.shipped.assetFiles.first { $0.path == "assets/scrollback.css" })
        #expect(css.contents == ShippedTemplates.embedded.first { $0.path == "assets/scrollback.css" }?.contents)
    }

    @Test("the same template files are parsed once per process; changed ones again; assets on every load")
    func libraryCache() throws {
        let cache = TemplateLibraryCache()
        let shipped = TemplateSources(shipped: ShippedTemplates.embedded)
        let first = cache.library(for: shipped, highlight: [:])
        let again = cache.library(for: shipped, highlight: ["assets/highlight.min.js": [1]])
        #expect(cache.parses == 1)
        #expect(first.assets["assets/highlight.min.js"] == nil)
        #expect(again.assets["assets/highlight.min.js"] == [1])
        #expect(again.diagnostics == first.diagnostics)
        let emptyFooter = TemplateSources(
            shipped: ShippedTemplates.embedded, site: [.init(path: "footer.mustache", contents: Array(" \n".utf8))])
        let edited = cache.library(for: emptyFooter, highlight: [:])
        #expect(cache.parses == 2)
        #expect(edited.isEmpty("footer"))
        #expect(!first.isEmpty("footer"))
        #expect(!cache.library(for: shipped, highlight: [:]).isEmpty("footer"))
        #expect(cache.parses == 2)
    }

    @Test("partial tags are found with their line and column, across set-delimiter tags")
    func partialScanner() {
        let text = "<p>{{> avatar}}</p>\n  {{#a}}{{>header}}{{/a}}{{=<% %>=}}<%> footer %>{{>notATag}}<%>*dynamic%>"
        let found = TemplateReferences.partials(in: text)
        #expect(found.map(\.name) == ["avatar", "header", "footer"])
        #expect(found.map(\.line) == [1, 2, 2])
        #expect(found.map(\.column) == [4, 9, 37])
    }

    @Test("a site template naming a partial that does not exist is a located error")
    func missingPartialIsAnError() throws {
        let directory = try Inspect.siteTemplates(["message.mustache": "<div>\n  {{>avatar}}{{> badge}}</div>\n"])
        let library = TemplateLibrary(siteTemplatesDirectory: directory)
        let diagnostic = try #require(library.diagnostics.first)
        #expect(library.diagnostics.count == 1)
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.location?.file == "templates/message.mustache")
        #expect(diagnostic.location?.line == 2)
        #expect(diagnostic.location?.column == 14)
        #expect("\(diagnostic)".contains("badge"))
    }

    @Test("a folder replacing the shipped set must hold every template the binary ships")
    func missingShippedTemplate() throws {
        var files = ShippedTemplates.embedded
        files.removeAll { $0.path == "avatar.mustache" }
        let diagnostics = TemplateReferences.missingShippedTemplates(in: files, label: "SCROLLBACK_TEMPLATES")
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.location?.file == "SCROLLBACK_TEMPLATES/avatar.mustache")
        #expect(TemplateReferences.missingShippedTemplates(in: ShippedTemplates.embedded, label: "x").isEmpty)
    }
}
