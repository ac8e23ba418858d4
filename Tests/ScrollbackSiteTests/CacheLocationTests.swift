import Foundation
import Testing

@testable import ScrollbackCache
@testable import ScrollbackSite

/// Issue 44: the cache leaves the output folder.
@Suite("Build cache location (issue 44)")
struct CacheLocationTests {
    /// A folder with two logs under `logs/`.
    static func project() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write(Logs.conversation(id: "home", title: "Home", count: 3), to: "logs/home.json")
        try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 5), to: "logs/trip.json")
        return folder
    }

    /// What `find <folder> -name '.*'` prints.
    static func hiddenNames(in folder: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/find")
        process.arguments = [folder.path, "-name", ".*"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test("after a build, `find site -name '.*'` prints nothing; the cache is in the cache folder")
    func outputHoldsOnlyTheSite() throws {
        let folder = try Self.project()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("site")
        try build(folder.url.appendingPathComponent("logs"), site)
        try build(folder.url.appendingPathComponent("logs"), site)
        #expect(try Self.hiddenNames(in: site) == "")
        #expect(FileManager.default.fileExists(atPath: site.path + "/home/index.html"))
        #expect(FileManager.default.fileExists(atPath: testCacheTree(of: site) + "/manifest.json"))
        let tag = try String(contentsOfFile: testCacheFolder(of: site).path + "/CACHEDIR.TAG", encoding: .utf8)
        #expect(tag.hasPrefix("Signature: 8a477f597d28d172789f06886806bc55\n"))
        // Nothing but the cache and its tag: no staging folder left behind.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: testCacheFolder(of: site).path).sorted()
                == ["CACHEDIR.TAG", "current"])
    }

    @Test("a second build reuses every conversation from the cache outside the output, and says so")
    func secondBuildReuses() throws {
        let folder = try Self.project()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("site")
        let first = try build(folder.url.appendingPathComponent("logs"), site)
        #expect(first.reusedConversations == 0)
        let second = try build(folder.url.appendingPathComponent("logs"), site)
        #expect(second.reusedConversations == 2)
        #expect(second.summaryLine.contains("(2 reused)"))
        #expect(second.summaryNotes.isEmpty, "\(second.summaryNotes)")
        // One log grows: the append fast path reads its checkpoint from the cache.
        try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 6), to: "logs/trip.json")
        let third = try build(folder.url.appendingPathComponent("logs"), site)
        #expect(third.reusedConversations == 1)
        #expect(third.rebuiltConversations == 1)
    }

    @Test("an old .scrollback folder in an output is used once, then removed with a note")
    func oldCacheFolderIsRemoved() throws {
        let folder = try Self.project()
        defer { folder.remove() }
        let logs = folder.url.appendingPathComponent("logs")
        let site = folder.url.appendingPathComponent("site")
        try build(logs, site)
        // The layout of an output built before issue 44: the cache inside it, none elsewhere.
        try FileManager.default.moveItem(atPath: testCacheTree(of: site), toPath: site.path + "/.scrollback")
        try FileManager.default.removeItem(at: testCacheFolder(of: site))
        let report = try build(logs, site)
        #expect(report.reusedConversations == 2, "the old cache still spares the work once")
        let cache = FileSystem.canonicalPath(testCacheFolder(of: site).path)
        #expect(
            report.summaryNotes == [
                "removed the old cache folder \(FileSystem.canonicalPath(site.path))/.scrollback from the output; "
                    + "the cache now lives in \(cache)"
            ])
        #expect(try Self.hiddenNames(in: site) == "")
        #expect(FileManager.default.fileExists(atPath: testCacheTree(of: site) + "/manifest.json"))
        #expect(try build(logs, site).summaryNotes.isEmpty)
    }

    @Test("a folder holding a .scrollback folder but no Scrollback site is not replaced")
    func foreignDotFolderIsKept() throws {
        let folder = try Self.project()
        defer { folder.remove() }
        try folder.write("mine", to: "notes/.scrollback/todo.txt")
        try folder.write("mine too", to: "notes/plan.txt")
        #expect(throws: SiteBuildError.self) {
            try build(folder.url.appendingPathComponent("logs"), folder.url.appendingPathComponent("notes"))
        }
        #expect(
            try String(contentsOfFile: folder.path + "/notes/.scrollback/todo.txt", encoding: .utf8) == "mine")
    }

    @Test("scrollback build: the cache in XDG_CACHE_HOME, or where --cache-dir says; never in the output")
    func commandLineCacheFolder() throws {
        let folder = try Self.project()
        defer { folder.remove() }
        let first = try ScrollbackProcess.run(["build", "logs", "-o", "site"], in: folder.url)
        #expect(first.status == 0, "\(first.errors)")
        let caches = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/.cache/scrollback")
        #expect(caches.count == 1 && caches[0].hasPrefix("site-"), "\(caches)")
        #expect(
            FileManager.default.fileExists(
                atPath: folder.path + "/.cache/scrollback/\(caches[0])/current/manifest.json"))
        let second = try ScrollbackProcess.run(["build", "logs", "-o", "site"], in: folder.url)
        #expect(second.output.contains("(2 reused)"), "\(second.output)")

        let given = try ScrollbackProcess.run(
            ["build", "logs", "-o", "other", "--cache-dir", "my-cache"], in: folder.url)
        #expect(given.status == 0, "\(given.errors)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/my-cache/current/manifest.json"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/.cache/scrollback") == caches)
        let again = try ScrollbackProcess.run(
            ["build", "logs", "-o", "other", "--cache-dir", "my-cache"], in: folder.url)
        #expect(again.output.contains("(2 reused)"), "\(again.output)")
        #expect(try Self.hiddenNames(in: folder.url.appendingPathComponent("other")) == "")
    }

    @Test("a damaged cache, one of another version or of another site: a clean build that says why")
    func unusableCacheMeansCleanBuild() throws {
        let folder = try Self.project()
        defer { folder.remove() }
        let logs = folder.url.appendingPathComponent("logs")
        let site = folder.url.appendingPathComponent("site")
        let manifest = testCacheTree(of: site) + "/manifest.json"
        let cases: [(String, () throws -> Void)] = [
            (
                "its manifest is damaged",
                { try Data("{\"format\": 5, ".utf8).write(to: URL(fileURLWithPath: manifest)) }
            ),
            (
                "it is from another version of Scrollback",
                { try Data("{\"format\": 4, \"entries\": 3}".utf8).write(to: URL(fileURLWithPath: manifest)) }
            ),
            ("there is no cache yet", { try FileManager.default.removeItem(atPath: testCacheTree(of: site)) }),
            (
                "the cache was written for another site",
                { try Data("1:2\n".utf8).write(to: URL(fileURLWithPath: testCacheTree(of: site) + "/output-stamp")) }
            ),
        ]
        for (reason, damage) in cases {
            try build(logs, site)
            try damage()
            let report = try build(logs, site)
            #expect(report.reusedConversations == 0, "\(reason)")
            #expect(report.conversations == 2, "\(reason)")
            #expect(!report.hasErrors, "\(reason)")
            #expect(
                report.summaryNotes.count == 1 && report.summaryNotes[0].hasPrefix("clean build: " + reason),
                "\(report.summaryNotes)")
            #expect(try build(logs, site).reusedConversations == 2, "\(reason): the cache is whole again")
        }
    }

    @Test("a cache folder that cannot be made or is not ours: a warning, and the site is built without a cache")
    func cacheFolderUnavailable() throws {
        let folder = try Self.project()
        defer { folder.remove() }
        let logs = folder.url.appendingPathComponent("logs")
        let site = folder.url.appendingPathComponent("site")
        try folder.write("a file", to: "file")
        try folder.write("precious", to: "mine/thesis.txt")
        for cache in ["file/cache", "mine", "site/cache"] {
            var options = SiteBuilder.Options(input: logs, output: site)
            options.cacheDirectory = folder.url.appendingPathComponent(cache)
            for _ in 0..<2 {
                let report = try SiteBuilder(options: options).build()
                #expect(report.conversations == 2)
                #expect(report.reusedConversations == 0, "\(cache)")
                #expect(
                    report.diagnostics.contains {
                        $0.severity == .warning && $0.problem.message.hasPrefix("cannot use the build cache: ")
                    }, "\(report.diagnostics)")
                #expect(
                    report.summaryNotes.contains { $0.hasPrefix("built without a cache") }, "\(report.summaryNotes)")
                #expect(try Self.hiddenNames(in: site) == "")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/mine") == ["thesis.txt"])
        #expect(try String(contentsOfFile: folder.path + "/file", encoding: .utf8) == "a file")
    }

    @Test("a cache folder inside the input is not read as logs")
    func cacheInsideInput() throws {
        let folder = try Self.project()
        defer { folder.remove() }
        let logs = folder.url.appendingPathComponent("logs")
        var options = SiteBuilder.Options(input: logs, output: folder.url.appendingPathComponent("site"))
        options.cacheDirectory = logs.appendingPathComponent("cache")
        #expect(try SiteBuilder(options: options).build().diagnostics.isEmpty)
        let second = try SiteBuilder(options: options).build()
        #expect(second.diagnostics.isEmpty, "\(second.diagnostics)")
        #expect(second.reusedConversations == 2)
    }
}
