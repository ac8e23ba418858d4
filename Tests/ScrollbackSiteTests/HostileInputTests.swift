import Foundation
import ScrollbackCache
import ScrollbackModel
import Testing

@testable import ScrollbackSite

/// Reproductions of issue 11 (hostile and broken input) at the level of a whole build: each
/// test failed before its fix. Reader-, sanitizer- and Markdown-level reproductions sit in
/// their stages' `HostileInputTests` files.
@Suite("Hostile input: builds")
struct HostileInputTests {
    /// An input folder `logs/` with one good conversation, a folder `outside/` beside it with a
    /// secret file and a log, and the output `site/`.
    struct Project {
        let folder: TemporaryFolder
        var input: URL { folder.url.appendingPathComponent("logs") }
        var output: URL { folder.url.appendingPathComponent("site") }
        var outside: URL { folder.url.appendingPathComponent("outside") }
        static let secret = "SCROLLBACK-OUTSIDE-SECRET-7f3a"

        init() throws {
            folder = try TemporaryFolder()
            try folder.write(Logs.conversation(id: "home", title: "Home", count: 2), to: "logs/home.json")
            try folder.write(Logs.conversation(id: "stolen", title: Self.secret, count: 2), to: "outside/stolen.json")
            try folder.write(Self.secret, to: "outside/secret.txt")
            try folder.write("<p>\(Self.secret)</p>", to: "outside/custom.mustache")
        }

        func link(_ relativePath: String, to target: String) throws {
            let link = input.appendingPathComponent(relativePath)
            try FileManager.default.createDirectory(
                at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target)
        }

        /// Whether any published file holds the secret marker.
        func siteHoldsSecret() throws -> Bool {
            try snapshot(output).values.contains { String(decoding: $0, as: UTF8.self).contains(Self.secret) }
        }
    }

    // MARK: Finding 1: symlinks

    @Test("symlinked logs, folders, template assets and templates outside the input are not read")
    func symlinksOutsideTheInputAreNotFollowed() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try project.link("stolen.json", to: project.outside.path + "/stolen.json")
        try project.link("elsewhere", to: project.outside.path)
        try project.link("root", to: "/")
        try project.link("templates/assets/x.txt", to: project.outside.path + "/secret.txt")
        try project.link("templates/custom/poll.mustache", to: project.outside.path + "/custom.mustache")
        try project.link("templates/message.mustache", to: project.outside.path + "/custom.mustache")
        let report = try build(project.input, project.output)
        let site = try snapshot(project.output)
        #expect(report.conversations == 1)
        #expect(site["stolen/index.html"] == nil)
        #expect(site["assets/x.txt"] == nil)
        #expect(try !project.siteHoldsSecret())
        // Each skipped template file is named in a warning.
        #expect(report.diagnostics.contains { $0.location?.file == "templates/message.mustache" })
    }

    @Test("a templates folder that is itself a link outside the input is not read")
    func symlinkedTemplatesFolderIsNotFollowed() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try project.folder.write("<p>\(Project.secret)</p>", to: "outside/templates/message.mustache")
        try project.link("templates", to: project.outside.path + "/templates")
        try build(project.input, project.output)
        #expect(try !project.siteHoldsSecret())
    }

    @Test("links that stay inside the input folder still work")
    func symlinksInsideTheInputAreFollowed() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try project.folder.write(Logs.conversation(id: "real", title: "Real", count: 1), to: "logs/real/real.json")
        try project.link("alias", to: project.input.path + "/real")
        let report = try build(project.input, project.output)
        // The folder and its link name one log twice: one conversation, one duplicate-id error.
        #expect(report.conversations == 2)
    }

    // MARK: Finding 2: names in any script

    @Test("logs named in non-Latin scripts get distinct, readable, stable folders")
    func nonLatinNamesStayDistinct() throws {
        let project = try Project()
        defer { project.folder.remove() }
        for name in ["家族", "友達", "семья", "🎉", "🎊"] {
            let log = Logs.conversation(id: "x", title: name, count: 1).replacingOccurrences(
                of: "\"id\": \"x\",\n", with: "")
            try project.folder.write(log, to: "logs/\(name).json")
        }
        let report = try build(project.input, project.output)
        #expect(report.conversations == 6)
        #expect(!report.hasErrors)
        let site = try snapshot(project.output)
        #expect(site["家族/index.html"] != nil)
        #expect(site["友達/index.html"] != nil)
        #expect(site["семья/index.html"] != nil)
        // Links to them are percent-encoded, so any server and browser follow them.
        let index = String(decoding: site["index.html"]!, as: UTF8.self)
        #expect(index.contains("href=\"%E5%AE%B6%E6%97%8F/index.html"))
        #expect(!site.keys.contains { $0.hasPrefix("conversation/") })
    }

    @Test("a 300-character id gives a shortened, stable slug within file-name limits, with a warning")
    func longIDIsShortened() throws {
        let project = try Project()
        defer { project.folder.remove() }
        let long = String(repeating: "ж", count: 300)
        try project.folder.write(Logs.conversation(id: long, title: "Long", count: 1), to: "logs/long.json")
        let first = try build(project.input, project.output, clean: true)
        #expect(first.conversations == 2)
        let folders = try FileManager.default.contentsOfDirectory(atPath: project.output.path).filter {
            $0.hasPrefix("ж")
        }
        #expect(folders.count == 1)
        #expect(folders.allSatisfy { $0.utf8.count <= 128 })
        #expect(first.diagnostics.contains { $0.location?.file.hasSuffix("long.json") == true })
        try build(project.input, project.output, clean: true)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: project.output.path).filter { $0.hasPrefix("ж") }
                == folders)
    }

    @Test("participants whose ids differ only in case or script never share an element id")
    func participantAnchorsAreDistinct() throws {
        let project = try Project()
        defer { project.folder.remove() }
        let log = """
            {"id": "case", "participants": [{"id": "a", "name": "Small"}, {"id": "A", "name": "Capital"},
                                            {"id": "家族", "name": "Family"}, {"id": "友達", "name": "Friends"}],
             "messages": [{"id": "1", "sender": "a", "date": "2024-05-03T09:00:00Z", "text": "hi"}]}
            """
        try project.folder.write(log, to: "logs/case.json")
        try build(project.input, project.output)
        let page = try String(contentsOf: project.output.appendingPathComponent("case/index.html"), encoding: .utf8)
        let ids = page.components(separatedBy: "id=\"p-").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(ids.count == 4)
        #expect(Set(ids).count == 4)
    }

    // MARK: Finding 10: terminal escapes in diagnostics

    @Test("diagnostics print control characters and terminal escapes from logs as visible escapes")
    func diagnosticsNeutraliseControlCharacters() {
        let diagnostic = Diagnostic.error(
            .other("bad \u{1B}]0;pwned\u{7}\u{1B}[2J text\r\u{9B}31m \u{202E}"),
            at: SourceLocation(file: "logs/\u{1B}[31mred.json", line: 1, column: 1))
        let printed = diagnostic.description
        #expect(!printed.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(!printed.contains("\u{202E}"))
        #expect(printed.contains("\\u{1B}"))
    }

    // MARK: Finding 3: a failed write keeps the previous site

    @Test("a write failure while rebuilding a conversation leaves the previous site as it was")
    func writeFailureKeepsPreviousSite() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try build(project.input, project.output)
        let before = try snapshot(project.output)
        try project.folder.write(Logs.conversation(id: "home", title: "Home", count: 3), to: "logs/home.json")
        struct DiskFull: Error {}
        var options = SiteBuilder.Options.test(input: project.input, output: project.output)
        options.faultInjection = { step in if step.hasPrefix("write home/") { throw DiskFull() } }
        #expect(throws: SiteBuildError.self) { try SiteBuilder(options: options).build() }
        #expect(try snapshot(project.output) == before)
    }

    // MARK: Finding 8: active content and hidden files

    @Test("HTML, SVG and XML media are not published; hidden files are not published")
    func activeMediaIsRefused() throws {
        let project = try Project()
        defer { project.folder.remove() }
        let script = "<script>alert(1)</script>"
        try project.folder.write("<html><body>\(script)</body></html>", to: "logs/media/evil.html")
        try project.folder.write("<svg xmlns='http://www.w3.org/2000/svg'>\(script)</svg>", to: "logs/media/evil.svg")
        try project.folder.write("  <?xml version='1.0'?><x>\(script)</x>", to: "logs/media/evil.png")
        try project.folder.write("SECRET=1", to: "logs/.env")
        try project.folder.write(Logs.png, to: "logs/media/real.html")
        var messages: [String] = []
        for (index, path) in ["media/evil.html", "media/evil.svg", "media/evil.png", ".env", "media/real.html"]
            .enumerated()
        {
            messages.append(
                #"{"id": "p\#(index)", "sender": "alice", "date": "2024-05-03T09:0\#(index):00Z", "kind": "photo", "media": {"url": "\#(path)"}}"#
            )
        }
        let log = """
            {"id": "photos", "participants": [{"id": "alice", "name": "Alice"}],
             "messages": [\(messages.joined(separator: ","))]}
            """
        try project.folder.write(log, to: "logs/photos.json")
        let report = try build(project.input, project.output)
        let site = try snapshot(project.output)
        let media = site.keys.filter { $0.hasPrefix("media/") }
        // Only the real PNG is published, and as a .png whatever its name said.
        #expect(media.count == 1)
        #expect(media.allSatisfy { $0.hasSuffix(".png") })
        #expect(!site.values.contains { String(decoding: $0, as: UTF8.self).contains("SECRET=1") })
        #expect(report.diagnostics.filter { $0.severity == .warning }.count >= 4)
    }

    // MARK: Finding 6: sizes

    @Test("a log over the size limit is refused before it is read, with a located error")
    func oversizedLogIsRefusedUnread() throws {
        let project = try Project()
        defer { project.folder.remove() }
        let huge = project.input.appendingPathComponent("huge.json")
        _ = FileManager.default.createFile(atPath: huge.path, contents: nil)
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 3 << 30)  // 3 GiB, sparse: nothing is written
        try handle.close()
        let report = try build(project.input, project.output)
        #expect(report.conversations == 1)
        let error = report.diagnostics.first { $0.location?.file.hasSuffix("huge.json") == true }
        #expect(error?.severity == .error)
        #expect(error?.problem.message.contains("limit") == true)
    }

    @Test("participants are listed once per conversation (on its first page), not on every page")
    func participantsListedOnce() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try project.folder.write("pageSize: 2\n", to: "logs/scrollback.yml")
        try project.folder.write(Logs.conversation(id: "many", title: "Many", count: 6), to: "logs/many.json")
        try build(project.input, project.output)
        func page(_ name: String) throws -> String {
            try String(contentsOf: project.output.appendingPathComponent("many/" + name), encoding: .utf8)
        }
        #expect(try page("index.html").contains("id=\"p-bob\""))
        for later in ["page-2.html", "page-3.html"] {
            #expect(try !page(later).contains("id=\"p-bob\""), "\(later)")
            #expect(try page(later).contains("2 participants"), "\(later)")
        }
    }

    @Test("a sparse media file over the size limit is refused, not copied whole")
    func oversizedMediaIsRefused() throws {
        let project = try Project()
        defer { project.folder.remove() }
        let huge = project.input.appendingPathComponent("media/huge.mp4")
        try FileManager.default.createDirectory(
            at: huge.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: huge.path, contents: nil)
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 2 << 30)
        try handle.close()
        let log = """
            {"id": "video", "participants": [{"id": "alice", "name": "Alice"}],
             "messages": [{"id": "v", "sender": "alice", "date": "2024-05-03T09:00:00Z", "kind": "video",
                           "media": {"url": "media/huge.mp4"}}]}
            """
        try project.folder.write(log, to: "logs/video.json")
        let report = try build(project.input, project.output)
        #expect(report.mediaFiles == 0)
        #expect(report.diagnostics.contains { $0.severity == .warning && $0.problem.message.contains("limit") })
    }
}
