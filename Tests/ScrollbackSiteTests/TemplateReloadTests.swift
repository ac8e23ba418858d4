import Foundation
import ScrollbackTemplates
import Testing

@testable import ScrollbackSite

/// Templates are parsed once per process (`TemplateLibraryCache`), as `serve` rebuilds on every
/// save: a second build of the same files gives the same site, and an edited template is still
/// seen by the next build.
@Suite("template reload")
struct TemplateReloadTests {
    @Test("two builds in one process give byte-identical sites; each edit of a site template shows in the next build")
    func editedTemplateIsPickedUp() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 3), to: "logs/trip.json")
        let logs = folder.url.appendingPathComponent("logs")
        let out = folder.url.appendingPathComponent("out")
        try build(logs, out)
        let first = try snapshot(out)
        try build(logs, folder.url.appendingPathComponent("again"))
        #expect(try snapshot(folder.url.appendingPathComponent("again")) == first)

        let shipped = try #require(ShippedTemplates.embedded.first { $0.path == "conversation.mustache" })
        let page = String(decoding: shipped.contents, as: UTF8.self)
        for edit in ["first-edit", "second-edit"] {
            // What `serve` does on a save: build again into the same output, in the same process.
            try folder.write("<i>\(edit)</i>" + page, to: "logs/templates/conversation.mustache")
            try build(logs, out)
            let built = try #require(try snapshot(out)["trip/index.html"])
            let text = String(decoding: built, as: UTF8.self)
            #expect(text.contains("<i>\(edit)</i>"))
            #expect(!text.contains(edit == "first-edit" ? "second-edit" : "first-edit"))
        }
        try FileManager.default.removeItem(atPath: folder.path + "/logs/templates")
        try build(logs, out)
        #expect(try snapshot(out) == first)
    }
}
