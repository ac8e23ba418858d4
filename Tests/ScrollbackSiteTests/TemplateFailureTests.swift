import Foundation
import ScrollbackCache
import ScrollbackModel
import ScrollbackTemplates
import Testing

@testable import ScrollbackSite

/// A missing or broken template never replaces a good site: the build fails before it publishes,
/// with a located error, and the previous output stays byte for byte.
@Suite("template failures")
struct TemplateFailureTests {
    /// A folder with one good log built into `out/`; returns the folder and the output's snapshot.
    func builtSite() throws -> (TemporaryFolder, [String: Data]) {
        let folder = try TemporaryFolder()
        try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 3), to: "logs/trip.json")
        try build(folder.url.appendingPathComponent("logs"), folder.url.appendingPathComponent("out"))
        let before = try snapshot(folder.url.appendingPathComponent("out"))
        #expect(before["trip/index.html"] != nil)
        return (folder, before)
    }

    /// Builds again; expects `invalidTemplates` and returns the diagnostics it reported.
    func failingBuild(_ folder: TemporaryFolder) throws -> [Diagnostic] {
        let reported = DiagnosticLog()
        var options = SiteBuilder.Options.test(
            input: folder.url.appendingPathComponent("logs"), output: folder.url.appendingPathComponent("out"))
        options.onDiagnostics = { reported.append($0) }
        #expect(throws: SiteBuildError.invalidTemplates) { try SiteBuilder(options: options).build() }
        return reported.all
    }

    @Test("a site template with a syntax error fails the build at its line and column; output unchanged")
    func syntaxError() throws {
        let (folder, before) = try builtSite()
        defer { folder.remove() }
        try folder.write("<header>\n{{#title}}{{title}}</header>\n", to: "logs/templates/header.mustache")
        let diagnostics = try failingBuild(folder)
        let error = try #require(diagnostics.first { $0.severity == .error })
        #expect(error.location?.file == "templates/header.mustache")
        #expect((error.location?.line ?? 0) >= 1)
        #expect(try snapshot(folder.url.appendingPathComponent("out")) == before)
    }

    @Test("a site template naming a partial no folder holds fails the build at the tag; output unchanged")
    func missingPartial() throws {
        let (folder, before) = try builtSite()
        defer { folder.remove() }
        let shipped = try #require(ShippedTemplates.embedded.first { $0.path == "footer.mustache" })
        let footer = "{{> badge}}\n" + String(decoding: shipped.contents, as: UTF8.self)
        try folder.write(footer, to: "logs/templates/footer.mustache")
        let diagnostics = try failingBuild(folder)
        let error = try #require(diagnostics.first { $0.severity == .error })
        #expect(error.location == SourceLocation(file: "templates/footer.mustache", line: 1, column: 1))
        #expect(try snapshot(folder.url.appendingPathComponent("out")) == before)
    }

    @Test("SCROLLBACK_TEMPLATES: a copy of the shipped files builds the same site; one missing a partial fails")
    func overrideFolder() throws {
        let (folder, before) = try builtSite()
        defer { folder.remove() }
        for file in ShippedTemplates.embedded {
            try folder.write(Data(file.contents), to: "shipped/" + file.path)
        }
        let environment = ["SCROLLBACK_TEMPLATES": folder.path + "/shipped"]
        let same = try ScrollbackProcess.run(
            ["build", "logs", "-o", "copy", "--quiet"], in: folder.url, environment: environment)
        #expect(same.status == 0)
        var expected = try snapshot(folder.url.appendingPathComponent("copy"))
        var built = before
        expected[".scrollback/manifest.json"] = nil
        built[".scrollback/manifest.json"] = nil
        #expect(expected == built)

        try FileManager.default.removeItem(atPath: folder.path + "/shipped/avatar.mustache")
        let missing = try ScrollbackProcess.run(
            ["build", "logs", "-o", "out"], in: folder.url, environment: environment)
        #expect(missing.status == 1)
        #expect(missing.errors.contains("SCROLLBACK_TEMPLATES/message.mustache:1:"))
        #expect(missing.errors.contains("partial “avatar” names no template"))
        #expect(missing.errors.contains("SCROLLBACK_TEMPLATES/avatar.mustache:1:1: error:"))
        #expect(try snapshot(folder.url.appendingPathComponent("out")) == before)

        let absent = ["SCROLLBACK_TEMPLATES": folder.path + "/nowhere"]
        let none = try ScrollbackProcess.run(["build", "logs", "-o", "out"], in: folder.url, environment: absent)
        #expect(none.status == 1)
        #expect(none.errors.contains("is not a folder"))
        #expect(try snapshot(folder.url.appendingPathComponent("out")) == before)
    }
}

/// Diagnostics reported from the build's worker threads.
final class DiagnosticLog: @unchecked Sendable {
    private let lock = NSLock()
    private var diagnostics: [Diagnostic] = []

    func append(_ new: [Diagnostic]) {
        lock.lock()
        diagnostics += new
        lock.unlock()
    }

    var all: [Diagnostic] {
        lock.lock()
        defer { lock.unlock() }
        return diagnostics
    }
}
