import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackCache
@testable import ScrollbackSite

@Suite("Site builder")
struct BuilderTests {
    /// An input folder with three conversations (one with an avatar) and its output beside it.
    struct Project {
        let folder: TemporaryFolder
        var input: URL { folder.url.appendingPathComponent("logs") }
        var output: URL { folder.url.appendingPathComponent("site") }

        init() throws {
            folder = try TemporaryFolder()
            try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 5, avatar: true), to: "logs/trip.json")
            try folder.write(
                Logs.conversation(id: "work", title: "Work", count: 3, day: "2024-06-01"), to: "logs/work.json")
            try folder.write(
                Logs.conversation(id: "old", title: "Old", count: 2, day: "2023-01-01"), to: "logs/more/old.json")
            try folder.write(Logs.png, to: "logs/media/bob.png")
        }
    }

    // MARK: Refusals

    @Test("refuses to write into the input, a folder containing it, a file, or a foreign non-empty folder")
    func refusesDangerousOutputs() throws {
        let project = try Project()
        defer { project.folder.remove() }
        let foreign = project.folder.url.appendingPathComponent("home")
        try project.folder.write("precious", to: "home/thesis.txt")
        let file = try project.folder.write("x", to: "a-file")
        for output in [project.input, project.folder.url, URL(fileURLWithPath: "/"), foreign, file] {
            #expect(throws: SiteBuildError.self) { try build(project.input, output) }
        }
        #expect(try String(contentsOf: foreign.appendingPathComponent("thesis.txt"), encoding: .utf8) == "precious")
        #expect(FileManager.default.fileExists(atPath: project.input.appendingPathComponent("trip.json").path))
        // An empty folder and a previous Scrollback output are accepted.
        try FileManager.default.createDirectory(at: project.output, withIntermediateDirectories: true)
        try build(project.input, project.output)
        try build(project.input, project.output)
        #expect(FileManager.default.fileExists(atPath: testCacheTree(of: project.output) + "/manifest.json"))
    }

    @Test("a missing input folder is an error, not an empty site")
    func missingInput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(throws: SiteBuildError.inputNotFound(folder.path + "/nope")) {
            try build(folder.url.appendingPathComponent("nope"), folder.url.appendingPathComponent("site"))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/site"))
    }

    // MARK: Atomic output

    @Test("a failure before publishing leaves the previous output byte for byte, and no staging folder")
    func failedBuildKeepsPreviousOutput() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try build(project.input, project.output)
        let before = try snapshot(project.output)
        #expect(before["index.html"] != nil)

        try project.folder.write(Logs.conversation(id: "trip", title: "Trip changed", count: 9), to: "logs/trip.json")
        try project.folder.write(Logs.conversation(id: "new", title: "New", count: 1), to: "logs/new.json")
        struct InjectedFailure: Error {}
        var options = SiteBuilder.Options.test(input: project.input, output: project.output)
        options.beforePublish = { staging in
            // The new site is complete in the staging folder when publishing fails.
            #expect(FileManager.default.fileExists(atPath: staging + "/index.html"))
            throw InjectedFailure()
        }
        #expect(throws: InjectedFailure.self) { try SiteBuilder(options: options).build() }
        #expect(try snapshot(project.output) == before)
        // The test's cache folder (`testCacheFolder`) aside, and no staged cache left in it.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: project.folder.path).filter {
            $0.hasPrefix(".") && $0 != ".site.cache"
        }
        #expect(leftovers.isEmpty)
        #expect(FileSystem.entries(testCacheFolder(of: project.output).path).sorted() == ["CACHEDIR.TAG", "current"])
    }

    @Test("a failure at any step leaves the previous output byte for byte, and no staging folder")
    func failureAtEveryStepKeepsPreviousOutput() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try build(project.input, project.output)
        let before = try snapshot(project.output)
        try project.folder.write(
            Logs.conversation(id: "work", title: "Work", count: 4, day: "2024-06-01"), to: "logs/work.json")
        struct InjectedFailure: Error {}
        for step in SiteBuilder.stepNames {
            var options = SiteBuilder.Options.test(input: project.input, output: project.output)
            options.faultInjection = { current in if current == step { throw InjectedFailure() } }
            #expect(throws: InjectedFailure.self, "step \(step)") { try SiteBuilder(options: options).build() }
            #expect(try snapshot(project.output) == before, "step \(step)")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: project.folder.path).filter {
                $0.hasPrefix(".") && $0 != ".site.cache"
            }
            #expect(leftovers.isEmpty, "step \(step)")
            #expect(
                FileSystem.entries(testCacheFolder(of: project.output).path).sorted() == ["CACHEDIR.TAG", "current"],
                "step \(step)")
        }
        // Without a fault the same build goes through.
        #expect(try build(project.input, project.output).rebuiltConversations == 1)
    }

    // MARK: Determinism and incremental builds

    @Test("two clean builds of the same input are byte-identical")
    func cleanBuildsAreIdentical() throws {
        let project = try Project()
        defer { project.folder.remove() }
        let second = project.folder.url.appendingPathComponent("site2")
        try build(project.input, project.output, clean: true)
        try build(project.input, second, clean: true)
        let first = try snapshot(project.output)
        #expect(first.keys.contains("trip/index.html"))
        #expect(try snapshot(second) == first)
    }

    @Test("an incremental build equals a clean build, manifest included, and reuses unchanged conversations")
    func incrementalEqualsClean() throws {
        let project = try Project()
        defer { project.folder.remove() }
        let clean = project.folder.url.appendingPathComponent("clean")

        let first = try build(project.input, project.output)
        #expect(first.rebuiltConversations == 3)
        #expect(first.reusedConversations == 0)
        #expect(first.conversations == 3)
        #expect(first.messages == 10)
        let searchManifest = project.output.appendingPathComponent("search/manifest.json").path
        func inode(_ path: String) throws -> Int? {
            try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        }
        let firstIndex = try inode(searchManifest)

        let unchanged = try build(project.input, project.output)
        #expect(unchanged.reusedConversations == 3)
        #expect(unchanged.rebuiltConversations == 0)
        #expect(unchanged.messages == 10)
        // Nothing changed: the previous search index is linked, not merged again.
        #expect(try inode(searchManifest) == firstIndex)

        // Append one message to one conversation.
        try project.folder.write(
            Logs.conversation(id: "work", title: "Work", count: 4, day: "2024-06-01"), to: "logs/work.json")
        let appended = try build(project.input, project.output)
        #expect(appended.reusedConversations == 2)
        #expect(appended.rebuiltConversations == 1)
        #expect(appended.messages == 11)
        #expect(try inode(searchManifest) != firstIndex)

        try build(project.input, clean, clean: true)
        #expect(try snapshot(project.output) == snapshot(clean))

        // Touching a file without changing it keeps the cache (content hash), and still matches.
        let workPath = project.input.appendingPathComponent("work.json").path
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)], ofItemAtPath: workPath)
        let touched = try build(project.input, project.output)
        #expect(touched.reusedConversations == 3)
        try build(project.input, clean, clean: true)
        #expect(try snapshot(project.output) == snapshot(clean))
    }

    @Test("a changed media file rebuilds the conversations that use it; a removed log disappears")
    func mediaChangeAndRemoval() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try build(project.input, project.output)
        var png = Logs.png
        png.append(0)  // Same image, different bytes: a new content hash.
        try project.folder.write(png, to: "logs/media/bob.png")
        try FileManager.default.removeItem(at: project.input.appendingPathComponent("more/old.json"))
        let report = try build(project.input, project.output)
        #expect(report.rebuiltConversations == 1)
        #expect(report.reusedConversations == 1)
        #expect(report.conversations == 2)
        let site = try snapshot(project.output)
        #expect(!site.keys.contains { $0.hasPrefix("old/") })
        let media = site.keys.filter { $0.hasPrefix("media/") }
        #expect(media.count == 1)
        #expect(media.first.flatMap { site[$0] } == png)
    }

    @Test("media is published once, copied from the input, then linked from the previous output")
    func mediaPublishedOnce() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try project.folder.write(
            Logs.conversation(id: "trip2", title: "Trip again", count: 2, avatar: true), to: "logs/trip2.json")
        let report = try build(project.input, project.output)
        #expect(report.mediaFiles == 1)
        let media = try FileManager.default.contentsOfDirectory(atPath: project.output.path + "/media")
        #expect(media.count == 1)
        let published = project.output.path + "/media/" + media[0]
        func linkCount() throws -> Int? {
            try FileManager.default.attributesOfItem(atPath: published)[.referenceCount] as? Int
        }
        // A copy: the user's original and the published file are not one file.
        #expect(try linkCount() == 1)
        // The next build reuses the previous output's file (same content hash) by linking it.
        try build(project.input, project.output)
        let republished = try FileManager.default.contentsOfDirectory(atPath: project.output.path + "/media")
        #expect(republished == media)
    }

    // MARK: Errors

    @Test("a log with errors is left out, the others are built, and the report has located errors")
    func errorsSkipOnlyTheirConversation() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try project.folder.write(Logs.unknownKind, to: "logs/broken.json")
        try project.folder.write(
            Logs.conversation(id: "trip", title: "Impostor", count: 1), to: "logs/zz-duplicate.json")
        let report = try build(project.input, project.output)
        #expect(report.hasErrors)
        #expect(report.conversations == 3)
        let site = try snapshot(project.output)
        #expect(site["trip/index.html"] != nil)
        #expect(site["work/index.html"] != nil)
        #expect(!site.keys.contains { $0.hasPrefix("broken/") })
        let errors = report.diagnostics.filter { $0.severity == .error }
        let kindError = try #require(errors.first { $0.location?.file == "logs/broken.json" })
        #expect((kindError.location?.line ?? 0) > 1)
        let duplicate = try #require(errors.first { $0.location?.file == "logs/zz-duplicate.json" })
        #expect(duplicate.description.contains("logs/trip.json"))
        #expect(duplicate.description.contains("'trip'"))
        #expect(report.diagnostics == report.diagnostics.sorted())
        // The first file keeps the id: the page is Trip's, not the impostor's.
        let tripPage = String(decoding: try #require(site["trip/index.html"]), as: UTF8.self)
        #expect(tripPage.contains("Trip"))
        #expect(!tripPage.contains("Impostor"))
    }

    @Test("an unchanged log, linked straight into place, makes way for an earlier log that now claims its id")
    func reusedLogLosesItsID() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try project.folder.write(Logs.conversation(id: "later", title: "Later", count: 2), to: "logs/zz-later.json")
        try build(project.input, project.output)
        #expect(try snapshot(project.output)["later/index.html"] != nil)
        // A log before it in input order takes the id; the unchanged one is reused, then refused.
        try project.folder.write(Logs.conversation(id: "later", title: "Earlier", count: 3), to: "logs/aa-earlier.json")
        let report = try build(project.input, project.output)
        let duplicate = try #require(
            report.diagnostics.first { $0.severity == .error && $0.location?.file == "logs/zz-later.json" })
        #expect(duplicate.description.contains("logs/aa-earlier.json"))
        let site = try snapshot(project.output)
        let page = String(decoding: try #require(site["later/index.html"]), as: UTF8.self)
        #expect(page.contains("Earlier"))
        #expect(!page.contains(">Later<"))
        // The same site as a clean build of the same logs.
        let clean = project.folder.url.appendingPathComponent("clean")
        try build(project.input, clean)
        #expect(
            try snapshot(clean).filter { !$0.key.hasPrefix(".scrollback/") }
                == site.filter { !$0.key.hasPrefix(".scrollback/") })
    }

    @Test("a conversation id that would overwrite the site's own files is refused")
    func reservedIDs() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try project.folder.write(Logs.conversation(id: "media", title: "Media", count: 1), to: "logs/media-talk.json")
        let report = try build(project.input, project.output)
        #expect(report.diagnostics.contains { $0.severity == .error && $0.location?.file == "logs/media-talk.json" })
        #expect(report.conversations == 3)
    }
}
