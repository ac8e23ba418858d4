import Foundation
import ScrollbackModel
import ScrollbackReading
import Testing
import ZIPFoundation

@testable import ScrollbackCache
@testable import ScrollbackSite

#if canImport(Glibc)
import Glibc
#endif

/// Issue 41.1, 41.4 and 40.5, 40.6, 40.10: what discovery finds, says, unpacks and skips.
@Suite("Export discovery")
struct ExportDiscoveryTests {
    /// Three messages as the iOS app writes them (`_chat.txt`).
    static let iOSChat = """
        [1/2/21, 10:00:00] Ana: Hi
        [1/2/21, 10:01:00] Ben: Hello
        [1/2/21, 10:02:00] Ana: <attached: 00000003-PHOTO-2021-01-02-10-02-00.jpg>

        """

    /// A DiscordChatExporter file with one message.
    static let dceChannel = """
        {"guild": {"id": "1", "name": "G"}, "channel": {"id": "2", "type": "GuildTextChat", "name": "t"},
         "messages": [{"id": "3", "type": "Default", "timestamp": "2024-01-01T00:00:00+00:00",
                       "content": "hi", "author": {"id": "4", "name": "a"}}]}
        """

    func find(
        _ input: URL, unpackInto folder: URL, budget: ExportArchive.Budget = ExportArchive.Budget()
    )
        -> (exports: [ExportDiscovery.Found], claimed: Set<String>, diagnostics: [Diagnostic])
    {
        var discovery = ExportDiscovery(inputRoot: input, unpackFolder: folder)
        discovery.unpackBudget = budget
        return discovery.find()
    }

    /// Writes a zip at `url` holding `entries` (name → bytes), in order.
    static func zip(_ url: URL, _ entries: [(String, Data)]) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let archive = try Archive(url: url, accessMode: .create)
        for (name, data) in entries {
            try archive.addEntry(
                with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate
            ) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
    }

    // MARK: 41.1: `_` names inside exports

    @Test("iOS `_chat.txt` in a folder, in a share-sheet zip, and DCE `_threads/` are all found")
    func underscoreNamesOfExportsAreFound() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Self.iOSChat, to: "input/WhatsApp Chat - Ben/_chat.txt")
        try Self.zip(
            folder.url.appendingPathComponent("input/WhatsApp Chat - Ana.zip"),
            [
                ("_chat.txt", Data(Self.iOSChat.utf8)),
                ("00000003-PHOTO-2021-01-02-10-02-00.jpg", Data([0xFF, 0xD8, 0xFF])),
            ])
        try folder.write(Self.dceChannel, to: "input/_threads/G - t [2].json")
        try folder.write(Self.dceChannel, to: "input/guild/_threads/G - t [5].json")
        let found = find(
            folder.url.appendingPathComponent("input"), unpackInto: folder.url.appendingPathComponent("unpack"))
        let whatsapp = found.exports.filter { $0.export.format == .whatsapp }
        #expect(whatsapp.count == 2)
        #expect(whatsapp.contains { $0.zip?.lastPathComponent == "WhatsApp Chat - Ana.zip" })
        #expect(whatsapp.allSatisfy { $0.export.items.map(\.lastPathComponent) == ["_chat.txt"] })
        let discord = found.exports.filter { $0.export.format == .discord }.flatMap(\.export.items)
        #expect(discord.map(\.lastPathComponent).sorted() == ["G - t [2].json", "G - t [5].json"])
        #expect(found.claimed.contains { $0.hasSuffix("/WhatsApp Chat - Ana.zip") })
        #expect(!found.diagnostics.contains { $0.severity != .note }, "\(found.diagnostics)")
    }

    @Test("the log walk skips `_` names at the top only, and hidden names everywhere")
    func logWalkSkipsSiteOwnNamesAtTheTop() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for path in ["_drafts/a.json", "_b.json", "c/_d.json", "c/.e.json", "c/_f/g.json"] {
            try folder.write("{}", to: path)
        }
        let found = InputDiscovery(inputRoot: folder.url).logs().map(\.relativePath)
        #expect(found == ["c/_d.json", "c/_f/g.json"])
    }

    // MARK: 41.4: unrecognised input is named

    @Test("the documented shapes of LINE and IRC are named; other chats (Google Chat: read) are not")
    func sniffedShapes() {
        func sniff(_ text: String, _ name: String = "x.json") -> UnsupportedFormat? {
            UnsupportedFormat.recognise(
                ExportCandidate(url: URL(fileURLWithPath: "/in/" + name), isDirectory: false, head: Array(text.utf8)))
        }
        #expect(
            sniff(
                #"{"messages": [{"creator": {"name": "A", "email": "a@x", "user_type": "Human"}, "#
                    + #""created_date": "Monday, January 1, 2024 at 10:00:00 AM UTC", "text": "hi", "topic_id": "t"}]}"#
            ) == nil)
        #expect(sniff(#"{"members": [{"name": "A", "email": "a@x", "user_type": "Human"}]}"#) == nil)
        #expect(sniff("[LINE] Chat history with Ana\nSaved on: 2024/01/01 10:00\n", "a.txt") == .textLog)
        #expect(sniff("2024/01/01(Mon)\n10:00\tAna\tHello\n", "a.txt") == .textLog)
        #expect(sniff("--- Log opened Mon Jan 01 10:00:00 2024\n10:00 <ana> hi\n", "a.txt") == .textLog)
        #expect(sniff("[10:00:01] <@ana> hi\n", "a.txt") == .textLog)
        #expect(sniff(#"{"version": 1, "participants": [], "messages": []}"#) == nil)
        #expect(sniff(#"{"name": "C", "type": "personal_chat", "id": 1, "messages": []}"#) == nil)
        #expect(sniff("1/2/21, 10:00 - Ana: hi\n", "a.txt") == nil)
        #expect(sniff("Just some notes\n", "a.txt") == nil)
        #expect(NotAChatFile.isDocumentation("README.txt") && NotAChatFile.isDocumentation("LICENSE-MIT.txt"))
        #expect(!NotAChatFile.isDocumentation("WhatsApp Chat with Ana.txt"))
    }

    @Test("an unsupported export in a folder of logs builds no error, one warning, and the logs")
    func unsupportedExportBesideLogsIsOneWarning() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sample = try SharedSamples.folder().appendingPathComponent(
            "mattermost/zulip-mattermost_fixtures/direct_channel/export.json")
        try folder.write(try Data(contentsOf: sample), to: "input/mattermost/export.json")
        try folder.write(Logs.conversation(id: "home", title: "Home", count: 2), to: "input/home.json")
        try folder.write("Read me", to: "input/README.txt")
        try folder.write("shopping: eggs, milk", to: "input/notes.txt")
        try folder.write("\u{200F}[Day 3 of 18, 14:56] Ana: hi\n", to: "input/thai.txt")
        let report = try build(folder.url.appendingPathComponent("input"), folder.url.appendingPathComponent("site"))
        // The Mattermost export is read now (issue 43): its five conversations and the log; its
        // own warnings (missing attachments, DMs without `me`) are not this test's.
        #expect(report.conversations == 6)
        #expect(!report.hasErrors, "\(report.diagnostics)")
        let warnings = report.diagnostics.filter {
            $0.severity == .warning && $0.location != nil && $0.location?.file.hasPrefix("input/mattermost/") != true
        }.map(\.description)
        #expect(!report.diagnostics.contains { $0.description.contains("not supported yet") })
        #expect(
            warnings == [
                "input/notes.txt:1:1: warning: not a chat export Scrollback reads; it is not built",
                "input/thai.txt:1:1: warning: a WhatsApp chat in a date format not recognised: "
                    + "`[Day 3 of 18, 14:56]`; expected a timestamp like '1/29/18, 23:46 - ' or "
                    + "'[29.01.18, 23:46:03] ', so no message of it is read",
            ])
        #expect(report.diagnostics.contains { $0.severity == .note && $0.location?.file == "input/README.txt" })
    }

    @Test("the side files of a ChatGPT export are noted, not read as broken logs")
    func sideFilesOfAnExportAreNoted() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sample = try SharedSamples.folder().appendingPathComponent(
            "chatgpt/mitkury-chatgpt-export-parser/example-conversation.json")
        try folder.write(try Data(contentsOf: sample), to: "input/chatgpt/conversations.json")
        try folder.write(
            #"{"id": "user-1", "email": "a@example.com", "chatgpt_plus_user": false}"#, to: "input/chatgpt/user.json")
        try folder.write(
            #"[{"id": "f1", "conversation_id": "c1", "rating": "thumbsUp"}]"#, to: "input/chatgpt/message_feedback.json"
        )
        let report = try build(folder.url.appendingPathComponent("input"), folder.url.appendingPathComponent("site"))
        #expect(!report.hasErrors, "\(report.diagnostics.filter { $0.severity == .error })")
        #expect(report.conversations >= 1)
        let notes = report.diagnostics.filter { $0.severity == .note }.compactMap(\.location?.file)
        #expect(notes == ["input/chatgpt/message_feedback.json", "input/chatgpt/user.json"])
        #expect(
            !report.diagnostics.contains {
                $0.severity == .warning && $0.location?.file.hasPrefix("input/chatgpt/m") == true
            })
    }

    @Test("a zip of photos is named, not unpacked")
    func zipWithoutExportIsNotUnpacked() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.zip(
            folder.url.appendingPathComponent("input/photos.zip"),
            [("a.jpg", Data([0xFF, 0xD8, 0xFF])), ("b.jpg", Data([0xFF, 0xD8, 0xFF]))])
        let unpack = folder.url.appendingPathComponent("unpack")
        let found = find(folder.url.appendingPathComponent("input"), unpackInto: unpack)
        #expect(found.exports.isEmpty)
        #expect(
            found.diagnostics.map(\.description).first?.hasPrefix("input/photos.zip:1:1: warning: a zip with no export")
                == true)
        #expect(FileSystem.kind(unpack.path) == .missing)
    }

    // MARK: 40.5: one budget per input

    @Test("nested zips share one budget: over it, a located error and nothing half-read")
    func nestedZipsShareOneBudget() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let megabyte = Data(repeating: 0x41, count: 1 << 20)
        var inner: [(String, Data)] = []
        for number in 1...3 {
            let url = folder.url.appendingPathComponent("inner/\(number).zip")
            try Self.zip(url, [("chat-\(number).txt", megabyte)])
            inner.append(("\(number).zip", try Data(contentsOf: url)))
        }
        try Self.zip(folder.url.appendingPathComponent("input/outer.zip"), inner)
        // Each inner zip alone fits in 1.5 MiB; together they do not.
        let budget = ExportArchive.Budget(maximumBytes: 3 << 19, maximumEntries: 100)
        let unpack = folder.url.appendingPathComponent("unpack")
        let found = find(folder.url.appendingPathComponent("input"), unpackInto: unpack, budget: budget)
        let errors = found.diagnostics.filter { $0.severity == .error }
        #expect(errors.count >= 1, "\(found.diagnostics)")
        #expect(errors.allSatisfy { $0.location?.file.hasPrefix("input/outer.zip") == true && $0.location?.line == 1 })
        #expect(errors.first?.problem.message.contains("nested zips count together") == true)
        // Entries count across zips too.
        let few = ExportArchive.Budget(maximumBytes: 1 << 30, maximumEntries: 3)
        let counted = find(
            folder.url.appendingPathComponent("input"), unpackInto: folder.url.appendingPathComponent("u2"), budget: few
        )
        #expect(counted.diagnostics.contains { $0.severity == .error && $0.problem.message.contains("3 entries") })
    }

    @Test("a zip without an export costs its export-like files, not its photos")
    func mediaOfAZipWithoutExportIsNotUnpacked() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let photo = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 7, count: 1 << 20)
        try Self.zip(
            folder.url.appendingPathComponent("input/holiday.zip"),
            [("notes.txt", Data("eggs, milk".utf8)), ("photo.jpg", photo)])
        try Self.zip(
            folder.url.appendingPathComponent("input/WhatsApp Chat - Ana.zip"),
            [("_chat.txt", Data(Self.iOSChat.utf8)), ("00000003-PHOTO-2021-01-02-10-02-00.jpg", photo)])
        // Room for the text files and one photo, not two.
        let budget = ExportArchive.Budget(maximumBytes: (3 << 19), maximumEntries: 100)
        let unpack = folder.url.appendingPathComponent("unpack")
        let found = find(folder.url.appendingPathComponent("input"), unpackInto: unpack, budget: budget)
        #expect(!found.diagnostics.contains { $0.severity == .error }, "\(found.diagnostics)")
        #expect(found.exports.map(\.export.format) == [.whatsapp])
        #expect(found.diagnostics.contains { $0.location?.file == "input/holiday.zip/notes.txt" })
        let photos = ImportTests.files(under: unpack, ending: ".jpg")
        #expect(photos.map(\.lastPathComponent) == ["00000003-PHOTO-2021-01-02-10-02-00.jpg"])
    }

    @Test("a build of a zip publishes no unpacked files and leaves no private folder behind")
    func unpackedFilesStayOutOfTheSite() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.zip(
            folder.url.appendingPathComponent("input/WhatsApp Chat - Ana.zip"),
            [
                ("_chat.txt", Data(Self.iOSChat.utf8)),
                ("00000003-PHOTO-2021-01-02-10-02-00.jpg", Data([0xFF, 0xD8, 0xFF, 0xE0])),
            ])
        let output = folder.url.appendingPathComponent("site")
        _ = try build(folder.url.appendingPathComponent("input"), output)
        let site = try snapshot(output)
        #expect(!site.keys.contains { $0.contains("unpack") }, "\(site.keys.sorted())")
        #expect(!site.keys.contains { $0.hasSuffix("_chat.txt") })
        #expect(FileSystem.entries(folder.path).sorted() == [".site.cache", "input", "site"])
    }

    @Test("import unpacks into a folder of its own, not one an earlier import left behind")
    func importUnpacksIntoAFreshFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // What a killed import of this process id would have left.
        let stale = FileManager.default.temporaryDirectory.appendingPathComponent(
            "scrollback-import-\(ProcessInfo.processInfo.processIdentifier)/1/_chat.txt")
        try FileManager.default.createDirectory(
            at: stale.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("[1/2/21, 09:00:00] Mallory: stale\n".utf8).write(to: stale)
        defer { try? FileManager.default.removeItem(at: stale.deletingLastPathComponent().deletingLastPathComponent()) }
        let zip = folder.url.appendingPathComponent("in/WhatsApp Chat - Ana.zip")
        try Self.zip(zip, [("_chat.txt", Data(Self.iOSChat.utf8))])
        var diagnostics: [Diagnostic] = []
        let report = try ExportWriter(
            input: zip, format: .whatsapp, output: folder.url.appendingPathComponent("logs"),
            onDiagnostics: { diagnostics += $0 }
        ).write()
        #expect(report.logs == 1)
        #expect(!diagnostics.contains { $0.problem.message.contains("cannot be unpacked") }, "\(diagnostics)")
        let logs = ImportTests.files(under: folder.url.appendingPathComponent("logs"), ending: ".json")
        let text = try logs.map { try String(contentsOf: $0, encoding: .utf8) }.joined()
        #expect(text.contains("Hello") && !text.contains("stale"))
    }

    // MARK: 40.6: a failed write is an error, not a trap

    @Test("a full disk while unpacking is a located error")
    func fullDiskIsALocatedError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let zip = folder.url.appendingPathComponent("chat.zip")
        try Self.zip(zip, [("_chat.txt", Data(Self.iOSChat.utf8))])
        var budget = ExportArchive.Budget()
        do {
            _ = try ExportArchive.unpack(
                zip, into: folder.url.appendingPathComponent("out"), shownAs: "chat.zip", budget: &budget,
                open: { _ in Glibc.open("/dev/full", O_WRONLY | O_CLOEXEC) })
            Issue.record("a write to a full disk was not reported")
        } catch {
            #expect(error.severity == .error)
            #expect(error.location == SourceLocation(file: "chat.zip/_chat.txt", line: 1, column: 1))
            #expect(error.problem.message.contains("No space left"), "\(error)")
        }
    }

    @Test("a full standard error does not crash `scrollback build`")
    func fullStandardErrorIsNoCrash() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Logs.conversation(id: "home", title: "Home", count: 2), to: "logs/home.json")
        try folder.write("shopping: eggs, milk", to: "logs/notes.txt")
        let process = Process()
        process.executableURL = try ScrollbackProcess.executable()
        process.arguments = ["build", "logs", "-o", "out", "--quiet"]
        process.currentDirectoryURL = folder.url
        process.environment = ScrollbackProcess.environment(in: folder.url)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/out/home/index.html"))
    }

    @Test("unpacking where a file stands in for the folder is a located error")
    func unwritableTargetIsALocatedError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let zip = folder.url.appendingPathComponent("chat.zip")
        try Self.zip(zip, [("a/_chat.txt", Data(Self.iOSChat.utf8))])
        try folder.write("not a folder", to: "blocked")
        var budget = ExportArchive.Budget()
        #expect(throws: Diagnostic.self) {
            _ = try ExportArchive.unpack(
                zip, into: folder.url.appendingPathComponent("blocked/out"), shownAs: "chat.zip", budget: &budget)
        }
    }

    @Test("a zip entry whose bytes do not match its CRC-32 is left out with a warning, its file deleted")
    func damagedEntryIsLeftOut() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let zip = folder.url.appendingPathComponent("chat.zip")
        // Stored, not deflated: one changed byte still reads, and only the checksum tells.
        let archive = try Archive(url: zip, accessMode: .create)
        for (name, text) in [("_chat.txt", Self.iOSChat), ("photo.txt", "intact")] {
            let data = Data(text.utf8)
            try archive.addEntry(
                with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .none
            ) { position, size in data.subdata(in: Int(position)..<Int(position) + size) }
        }
        var bytes = try Data(contentsOf: zip)
        let chat = try #require(bytes.firstRange(of: Data(Self.iOSChat.utf8)))
        bytes[chat.lowerBound] ^= 0x01
        try bytes.write(to: zip)
        var budget = ExportArchive.Budget()
        let out = folder.url.appendingPathComponent("out")
        let result = try ExportArchive.unpack(zip, into: out, shownAs: "chat.zip", budget: &budget)
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.location == SourceLocation(file: "chat.zip/_chat.txt", line: 1, column: 1))
        #expect(result.warnings.first?.problem.message.contains("'_chat.txt' cannot be unpacked") == true)
        #expect(!FileManager.default.fileExists(atPath: out.path + "/_chat.txt"))
        #expect(try String(contentsOf: out.appendingPathComponent("photo.txt"), encoding: .utf8) == "intact")
    }

    // MARK: 40.10: duplicate entries, earlier sites, media outside the export

    @Test("two zip entries of one name: the first is kept and the second named in a warning")
    func duplicateEntriesAreNamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let zip = folder.url.appendingPathComponent("chat.zip")
        try Self.zip(
            zip,
            [("_chat.txt", Data(Self.iOSChat.utf8)), ("_chat.txt", Data("[1/2/21, 11:00:00] Eve: swapped\n".utf8))])
        var budget = ExportArchive.Budget()
        let out = folder.url.appendingPathComponent("out")
        let result = try ExportArchive.unpack(zip, into: out, shownAs: "chat.zip", budget: &budget)
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.location == SourceLocation(file: "chat.zip", line: 1, column: 1))
        #expect(result.warnings.first?.problem.message.contains("'_chat.txt' appears twice") == true)
        #expect(try String(contentsOf: out.appendingPathComponent("_chat.txt"), encoding: .utf8) == Self.iOSChat)
    }

    @Test("an earlier output inside the input is not read as logs, with a note")
    func earlierSitesAreSkipped() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Logs.conversation(id: "home", title: "Home", count: 2), to: "input/home.json")
        let first = try build(
            folder.url.appendingPathComponent("input"), folder.url.appendingPathComponent("input/old-site"))
        #expect(first.conversations == 1)
        // A copy is known by its index beside the stylesheet (the cache is not in the output).
        try FileManager.default.copyItem(
            at: folder.url.appendingPathComponent("input/old-site"), to: folder.url.appendingPathComponent("input/copy")
        )
        let logs = InputDiscovery(inputRoot: folder.url.appendingPathComponent("input")).logs().map(\.relativePath)
        #expect(logs == ["home.json"])
        let report = try build(folder.url.appendingPathComponent("input"), folder.url.appendingPathComponent("site"))
        #expect(report.conversations == 1)
        #expect(!report.hasErrors, "\(report.diagnostics)")
        let notes = report.diagnostics.filter { $0.severity == .note }.compactMap(\.location?.file)
        #expect(notes == ["input/copy", "input/old-site"])
    }

    @Test("a Telegram photo outside its export's folder is not read, even inside the input")
    func exportMediaStaysInItsExport() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let secret = Data("SCROLLBACK-SECRET-PHOTO".utf8) + Data([0xFF, 0xD8, 0xFF, 0xE0])
        try folder.write(secret, to: "input/other/secret.jpg")
        try folder.write(Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]), to: "input/export/photos/ok.jpg")
        try folder.write(
            """
            {"name": "Chat", "type": "personal_chat", "id": 7, "messages": [
             {"id": 1, "type": "message", "date": "2024-01-01T10:00:00", "date_unixtime": "1704103200",
              "from": "Ana", "from_id": "user1", "photo": "../other/secret.jpg", "text": ""},
             {"id": 2, "type": "message", "date": "2024-01-01T10:01:00", "date_unixtime": "1704103260",
              "from": "Ana", "from_id": "user1", "photo": "photos/ok.jpg", "text": ""}]}
            """, to: "input/export/result.json")
        let found = find(folder.url.appendingPathComponent("input"), unpackInto: folder.url.appendingPathComponent("u"))
        #expect(found.exports.map(\.export.root.lastPathComponent) == ["export"])
        let output = folder.url.appendingPathComponent("site")
        let report = try build(folder.url.appendingPathComponent("input"), output)
        let site = try snapshot(output)
        #expect(!site.values.contains { $0.range(of: Data("SCROLLBACK-SECRET-PHOTO".utf8)) != nil })
        #expect(site.keys.filter { $0.hasPrefix("media/") }.count == 1, "\(site.keys.sorted())")
        #expect(report.diagnostics.contains { $0.description.contains("secret.jpg") && $0.severity != .note })
    }
}
