import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackSite

#if canImport(Glibc)
import Glibc
#endif

/// Reproductions of issue 40 (hostile and broken exports) at the level of a whole build: each
/// failed before its fix.
@Suite("Hostile exports: builds")
struct HostileExportTests {
    // MARK: Point 1: a one-character id

    @Test("a log whose id is one character builds instead of trapping", arguments: ["x", "Я", "7"])
    func oneCharacterConversationID(id: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Logs.conversation(id: id, title: "One", count: 2), to: "in/\(id).json")
        let report = try build(folder.url.appendingPathComponent("in"), folder.url.appendingPathComponent("out"))
        #expect(report.conversations == 1)
        let site = try snapshot(folder.url.appendingPathComponent("out"))
        #expect(site.keys.contains { $0.hasSuffix("/index.html") && $0 != "index.html" })
    }

    @Test("the Telegram export of saved messages with id 1 (shared sample) builds")
    func telegramSavedMessagesWithOneCharacterID() throws {
        let sample = try SharedSamples.folder()
            .appendingPathComponent("telegram/innerdvations-telegram-chat-parser/users_test.json")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: sample, to: input.appendingPathComponent("users_test.json"))
        let report = try build(input, folder.url.appendingPathComponent("out"))
        #expect(report.conversations == 1)
    }

    // MARK: Nothing outside the input is opened (found by the SiteBuild fuzz target)

    /// Sets the access time of `path` to 2001 (before its modification time), so that with
    /// `relatime` (the default mount option) any read of the file or listing of the folder moves it.
    private func ageAccessTime(_ path: String) throws {
        // The modification time stays: Linux's UTIME_OMIT, (1 << 30) - 2, which Glibc's module does not export.
        var times = [timespec(tv_sec: 978_307_200, tv_nsec: 0), timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }

    private func accessTime(_ path: String) throws -> Int {
        var info = stat()
        #expect(stat(path, &info) == 0)
        return info.st_atim.tv_sec
    }

    @Test("a templates folder or file linked out of the input is neither listed nor read")
    func templatesLinkedOutOfTheInputAreNotOpened() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.url.appendingPathComponent("in")
        try folder.write(Logs.conversation(id: "home", title: "Home", count: 1), to: "in/home.json")
        let secretFile = try folder.write("SECRET", to: "secret/message.mustache")
        let secretFolder = folder.url.appendingPathComponent("secret").path
        let otherSecret = try folder.write("SECRET", to: "other/footer.mustache")
        for (link, target) in [("in/templates", secretFolder), ("in/previews/page.html", otherSecret.path)] {
            try FileManager.default.createDirectory(
                at: folder.url.appendingPathComponent(link).deletingLastPathComponent(),
                withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: folder.url.appendingPathComponent(link).path, withDestinationPath: target)
        }
        for path in [secretFile.path, secretFolder, otherSecret.path] { try ageAccessTime(path) }
        let report = try build(input, folder.url.appendingPathComponent("out"))
        #expect(report.conversations == 1)
        for path in [secretFile.path, secretFolder, otherSecret.path] {
            #expect(try accessTime(path) == 978_307_200, "\(path) was opened")
        }
        #expect(report.diagnostics.contains { "\($0)".contains("templates/ is a link to a folder outside") })
    }

    @Test("path pieces of one character have a parent, a last component and an extension")
    func pathTextIsTotal() {
        #expect(PathText.parent("x") == "")
        #expect(PathText.parent("Я/") == "")
        #expect(PathText.parent("a/x") == "a")
        #expect(PathText.parent("/x") == "/")
        #expect(PathText.parent("/") == "/")
        #expect(PathText.parent("a//b/") == "a")
        #expect(PathText.lastComponent("a/b.json") == "b.json")
        #expect(PathText.lastComponent("x") == "x")
        #expect(PathText.pathExtension("a/b.tar.gz") == "gz")
        #expect(PathText.pathExtension(".env") == "")
        #expect(PathText.baseName("a/b.json") == "b")
        #expect(PathText.deletingExtension("a/b.json") == "a/b")
        #expect(PathText.appending("c", to: "/") == "/c")
    }
}

/// A broken export beside a good one of its format is a located error, never a quiet side file.
@Suite("Broken exports are said")
struct BrokenExportBesideGoodTests {
    @Test("the shared broken Telegram sample: error.json is a located error")
    func brokenTelegramBesideGood() throws {
        let folder = try SharedSamples.folder().appendingPathComponent("broken")
        let output = try TemporaryFolder()
        defer { output.remove() }
        let report = try build(folder, output.url.appendingPathComponent("site"))
        #expect(
            report.diagnostics.contains {
                $0.severity == .error && $0.location?.file.hasSuffix("error.json") == true
            }, "\(report.diagnostics.filter { $0.location?.file.hasSuffix("error.json") == true })")
    }
}
