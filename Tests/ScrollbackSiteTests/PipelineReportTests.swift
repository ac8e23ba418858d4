import Foundation
import ScrollbackModel
import ScrollbackReading
import ScrollbackRendering
import Testing

@testable import ScrollbackCache
@testable import ScrollbackSite

#if canImport(Glibc)
import Glibc
#endif

/// Issue 41 ("nothing lost, never silent") and issue 40 (broken exports, two builds at once),
/// as the pipeline sees them: the ledger in the report, no silent empty build, the output lock,
/// ids that two sources share.
@Suite("Build report and pipeline rules")
struct PipelineReportTests {
    // MARK: The ledger in the report (41, "make loss structural")

    @Test("every source has its line: an export's records, messages and records left out, a log's messages")
    func ledgerLinePerSource() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 5), to: "in/trip.json")
        try folder.write(ExportFixtures.chatGPT, to: "in/chatgpt/conversations.json")
        let report = try build(folder.url.appendingPathComponent("in"), folder.url.appendingPathComponent("site"))
        #expect(!report.hasErrors, "\(report.diagnostics)")
        let lines = report.sources.map(\.line)
        #expect(lines.contains("json in/trip.json (trip): 5 records → 5 messages, 0 left out"), "\(lines)")
        let chat = try #require(report.sources.first { $0.conversationID == "trip-plans-abcdef12" }, "\(lines)")
        #expect(chat.isImported)
        #expect(
            chat.line
                == "chatgpt in/chatgpt/conversations.json (trip-plans-abcdef12): 4 records → 2 messages, 2 left out")
        #expect(report.importCounts.contains(chat.line))
        #expect(
            chat.leftOutLines.sorted() == [
                "left out 1 × a hidden or empty system message (first at in/chatgpt/conversations.json:5:23)",
                "left out 1 × an empty assistant message (no text, no attachment) (first at in/chatgpt/conversations.json:10:23)",
            ])
    }

    @Test(
        "on real samples, each source's ledger adds up and its messages are the conversation's elements",
        arguments: ["whatsapp/gesiscss-WhatsR", "chatgpt"])
    func ledgerMatchesTheSite(sample: String) throws {
        let input = try SharedSamples.folder().appendingPathComponent(sample)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.url.appendingPathComponent("site")
        let report = try build(input, output)
        #expect(!report.hasErrors, "\(report.diagnostics.filter { $0.severity == .error })")
        #expect(report.sources.count == report.conversations)
        #expect(report.sources.count >= 2)
        for source in report.sources {
            #expect(source.ledger.unexplained == 0, "\(source.line)")
            #expect(source.ledger.messagesBuilt > 0, "\(source.line)")
            #expect(
                try ExportFixtures.messageElements(in: output, conversation: source.conversationID)
                    == source.ledger.messagesBuilt, "\(source.line)")
        }
    }

    /// A worker for one conversation: the shipped templates, nothing before it.
    static func worker(staging: String) -> ConversationWorker {
        let config = SiteConfig()
        let renderer = SiteRenderer(config: config, templates: TemplateLibrary(siteTemplatesDirectory: nil))
        return ConversationWorker(
            inputRoot: URL(fileURLWithPath: staging), config: config, renderer: renderer, stagingRoot: staging,
            previousOutput: BuildTree(staging: staging + "/none"), previousEntries: [:], reservedTopLevelNames: [])
    }

    @Test("a record neither built nor left out with a reason is an error that names the source")
    func unexplainedRecordsAreAnError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let worker = Self.worker(staging: folder.path)
        let location = SourceLocation(file: "in/chat.txt", line: 1, column: 1)
        let message = Message(
            id: "1", sender: "ana", date: Date(timeIntervalSince1970: 1_718_010_000), kind: .text("hi"),
            location: location)
        let conversation = Conversation(
            id: "chat", participants: [Participant(id: "ana", name: "Ana")], messages: [message], source: location)
        // 5 read, 1 built, 1 left out: 3 lost without a word.
        let lossy = ImportedConversation(
            conversation: conversation, diagnostics: [],
            ledger: ImportLedger(
                recordsRead: 5, messagesBuilt: 1, leftOut: [ImportLedger.LeftOut(reason: "no date", location: nil)]),
            key: "chat.txt", sourceFiles: ["in/chat.txt"])
        let outcome = worker.build(imported: lossy, number: 0, relativePath: "import:chat.txt")
        let errors = outcome.diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 1)
        #expect(
            errors.first?.description
                == "in/chat.txt:1:1: error: 3 records of in/chat.txt were neither built nor left out with a reason: a bug; expected every record read to be a message or left out"
        )
        // The same conversation with its counts right is built without an error.
        var balanced = lossy
        balanced.ledger = ImportLedger(recordsRead: 1, messagesBuilt: 1)
        let fine = worker.build(imported: balanced, number: 1, relativePath: "import:chat.txt")
        #expect(fine.entry != nil)
        #expect(!fine.diagnostics.contains { $0.severity == .error })
    }

    @Test("build --verbose lists what each source left out, grouped by reason")
    func verboseListsLeftOut() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(ExportFixtures.chatGPT, to: "in/conversations.json")
        let quiet = try ScrollbackProcess.run(["build", "in", "-o", "site"], in: folder.url)
        #expect(quiet.status == 0, "\(quiet.errors)")
        #expect(
            quiet.output.contains(
                "  chatgpt in/conversations.json (trip-plans-abcdef12): 4 records → 2 messages, 2 left out"))
        #expect(!quiet.output.contains("left out 1 ×"))
        let verbose = try ScrollbackProcess.run(["build", "in", "-o", "site", "--verbose"], in: folder.url)
        #expect(verbose.status == 0, "\(verbose.errors)")
        #expect(
            verbose.output.contains(
                "      left out 1 × an empty assistant message (no text, no attachment) (first at in/conversations.json:10:23)"
            ), "\(verbose.output)")
    }

    // MARK: No silent empty build (41.4)

    @Test("a folder with nothing to build, or only files that are not logs, fails and says what Scrollback reads")
    func nothingToBuild() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let output = folder.url.appendingPathComponent("site")
        #expect {
            try build(input, output)
        } throws: { error in
            guard case SiteBuildError.nothingToBuild(let path, _) = error else { return false }
            return path == input.path && "\(error)".contains("Scrollback reads JSON and Markdown logs")
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
        try folder.write("# Notes\n\nnot a log\n", to: "in/README.md")
        try folder.write("hello", to: "in/notes.txt")
        #expect {
            try build(input, output)
        } throws: { error in
            "\(error)".hasPrefix(
                "nothing to build under '\(input.path)': 1 file looked at, none a log (--verbose says why);")
        }
    }

    @Test("serve's builds publish an empty folder's site with the reason as an error, to show in the page")
    func nothingToBuildWhileServing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let output = folder.url.appendingPathComponent("site")
        var options = SiteBuilder.Options.test(input: input, output: output)
        options.publishesEmptySite = true
        let report = try SiteBuilder(options: options).build()
        #expect(report.conversations == 0)
        #expect(report.diagnostics.contains { $0.severity == .error && "\($0)".contains("no logs or exports found") })
        #expect(FileManager.default.fileExists(atPath: output.path + "/index.html"))
        // The first log saved into the folder then builds as usual.
        try folder.write(Logs.conversation(id: "first", title: "First", count: 1), to: "in/first.json")
        let second = try SiteBuilder(options: options).build()
        #expect(second.conversations == 1 && !second.hasErrors)
    }

    @Test("build: an empty folder, or a file named as INPUT that is not read, exits 1 with a message")
    func nothingToBuildOnTheCommandLine() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("empty"), withIntermediateDirectories: true)
        let empty = try ScrollbackProcess.run(["build", "empty", "-o", "site"], in: folder.url)
        #expect(empty.status == 1)
        #expect(empty.errors.contains("error: no logs or exports found under 'empty'"), "\(empty.errors)")
        try folder.write("just some text\n", to: "docs/notes.txt")
        let file = try ScrollbackProcess.run(["build", "docs/notes.txt", "-o", "site"], in: folder.url)
        #expect(file.status == 1)
        #expect(file.errors.contains("'notes.txt' is not a log or an export Scrollback reads"), "\(file.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/site"))
    }

    // MARK: ChatGPT (41.12)

    @Test("ChatGPT: an empty assistant node is no bubble, a conversation with no message no page")
    func chatGPTEmptyNodesAndConversations() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(ExportFixtures.chatGPT, to: "in/conversations.json")
        let output = folder.url.appendingPathComponent("site")
        let report = try build(folder.url.appendingPathComponent("in"), output)
        #expect(!report.hasErrors)
        #expect(report.conversations == 1)
        #expect(try ExportFixtures.messageElements(in: output) == 2)
        let index = String(decoding: try #require(try snapshot(output)["index.html"]), as: UTF8.self)
        #expect(index.contains("Trip plans"))
        #expect(!index.contains("Nothing here"))
        #expect(
            report.diagnostics.contains {
                $0.severity == .warning
                    && $0.description.contains(
                        "conversation 'Nothing here' has no message to show (1 left out, none built); it is left out of the site"
                    )
            }, "\(report.diagnostics)")
    }

    // MARK: One output, one build at a time (40.7)

    @Test("a build whose output another build holds says so and fails; the output stays as it was")
    func lockedOutput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 3), to: "in/trip.json")
        let input = folder.url.appendingPathComponent("in")
        let output = folder.url.appendingPathComponent("site")
        try build(input, output)
        let before = try snapshot(output)
        // Another build, as a second process would hold it: flock on the lock file.
        let lockPath = OutputLock.lockPath(forOutput: FileSystem.canonicalPath(output.path))
        let held = open(lockPath, O_RDWR | O_CREAT, 0o644)
        #expect(held >= 0)
        #expect(flock(held, LOCK_EX) == 0)
        _ = "4242\n".withCString { write(held, $0, 5) }
        try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 4), to: "in/trip.json")
        var options = SiteBuilder.Options.test(input: input, output: output)
        options.lockWaitSeconds = 0.2
        #expect {
            try SiteBuilder(options: options).build()
        } throws: { error in
            "\(error)"
                == "another build is writing to '\(output.path)' (process 4242); nothing was built. Try again when it has finished."
        }
        #expect(try snapshot(output) == before)
        flock(held, LOCK_UN)
        close(held)
        // Once the other build is done, this one goes through, and leaves no lock file behind.
        #expect(try SiteBuilder(options: options).build().conversations == 1)
        #expect(!FileManager.default.fileExists(atPath: lockPath))
        // An output whose parent does not exist yet gets its lock beside it all the same.
        let nested = folder.url.appendingPathComponent("new/deeper/site")
        options.output = nested
        #expect(try SiteBuilder(options: options).build().conversations == 1)
        #expect(FileManager.default.fileExists(atPath: nested.path + "/index.html"))
    }

    /// Set by the thread that releases the first build's lock.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() {
            lock.lock()
            value = true
            lock.unlock()
        }
        var isSet: Bool {
            lock.lock()
            defer { lock.unlock() }
            return value
        }
    }

    @Test("a second build waits for the first one's lock, and publishes only once it is released")
    func waitsForTheLock() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 3), to: "in/trip.json")
        let output = folder.url.appendingPathComponent("site")
        let first = try OutputLock(outputPath: FileSystem.canonicalPath(output.path), wait: 0)
        let released = Flag()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) {
            released.set()
            first.release()
            done.signal()
        }
        var options = SiteBuilder.Options.test(input: folder.url.appendingPathComponent("in"), output: output)
        options.lockWaitSeconds = 30
        let publishedAfterRelease = Flag()
        options.beforePublish = { _ in if released.isSet { publishedAfterRelease.set() } }
        #expect(try SiteBuilder(options: options).build().conversations == 1)
        #expect(publishedAfterRelease.isSet)
        done.wait()
    }

    // MARK: Ids two sources share (41.3)

    @Test("an imported conversation whose id an earlier source has gets <id>-2, with a warning naming both")
    func importedDuplicateIDsAreDerived() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Logs.conversation(id: "general", title: "Our general", count: 2), to: "in/a-general.json")
        try ExportFixtures.slack(in: folder, at: "in/b-slack", count: 3)
        try ExportFixtures.slack(in: folder, at: "in/c-slack", count: 4)
        let input = folder.url.appendingPathComponent("in")
        let output = folder.url.appendingPathComponent("site")
        let report = try build(input, output)
        #expect(!report.hasErrors, "\(report.diagnostics.filter { $0.severity == .error })")
        #expect(report.conversations == 5)
        #expect(try ExportFixtures.messageElements(in: output, conversation: "general") == 2)
        #expect(try ExportFixtures.messageElements(in: output, conversation: "general-2") == 3)
        #expect(try ExportFixtures.messageElements(in: output, conversation: "general-3") == 4)
        #expect(try ExportFixtures.messageElements(in: output, conversation: "random") == 1)
        #expect(try ExportFixtures.messageElements(in: output, conversation: "random-2") == 1)
        let warnings = report.diagnostics.filter { $0.description.contains("is also the id of") }
        #expect(
            warnings.map(\.description).contains(
                "in/b-slack/general/2024-06-10.json:1:1: warning: conversation id 'general' is also the id of in/a-general.json; this conversation is published as 'general-2'"
            ), "\(warnings)")
        #expect(warnings.count == 3)
        // The same ids on every build.
        let first = try snapshot(output)
        try build(input, output, clean: true)
        #expect(try snapshot(output) == first)
    }

    @Test("two logs that share an id stay an error: the id is the user's to change")
    func logDuplicateIDsStayAnError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 2), to: "in/a.json")
        try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 3), to: "in/b.json")
        let report = try build(folder.url.appendingPathComponent("in"), folder.url.appendingPathComponent("site"))
        #expect(report.hasErrors)
        #expect(report.diagnostics.contains { $0.description.contains("duplicate conversation id") })
    }
}
