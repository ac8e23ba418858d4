import Foundation
import ScrollbackLayout
import ScrollbackModel
import ScrollbackReading
import ScrollbackRendering
import Testing

@testable import ScrollbackSite

/// `--jobs` (issue 15, acceptance 2): the site is byte-identical whatever the number of threads.
@Suite("Jobs")
struct JobsTests {
    @Test("a site of logs, a Slack and a Discord export is byte-identical built with 1 and with 4 jobs")
    func sameSiteWhateverTheJobs() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // The repository's samples (config, templates, media, previews), the shared samples'
        // Slack and Discord exports, and logs of several sizes: conversations that take different
        // times, so with 4 jobs they finish out of order.
        let input = folder.url.appendingPathComponent("input")
        try FileManager.default.copyItem(at: sampleLogs, to: input)
        let samples = try SharedSamples.folder()
        try FileManager.default.copyItem(
            at: samples.appendingPathComponent("slack/rusq-slackdump-source_export_dir"),
            to: input.appendingPathComponent("slack-export"))
        try FileManager.default.copyItem(
            at: samples.appendingPathComponent("discord/mlomb-chat-analytics"),
            to: input.appendingPathComponent("discord"))
        for (number, count) in [900, 3, 450, 1, 700, 60].enumerated() {
            try folder.write(
                Logs.conversation(
                    id: "chat-\(number)", title: "Chat \(number)", count: count, day: "2024-05-0\(number + 1)"),
                to: "input/chats/chat-\(number).json")
        }

        let (oneReport, one) = try Self.site(of: input, in: folder, jobs: 1)
        let (fourReport, four) = try Self.site(of: input, in: folder, jobs: 4)

        // 5 sample logs + 6 chats + the Slack channel + 3 Discord conversations.
        #expect(oneReport.conversations == 15, "\(oneReport.diagnostics)")
        #expect(fourReport.conversations == oneReport.conversations)
        #expect(fourReport.diagnostics == oneReport.diagnostics)
        #expect(one[Self.cacheManifest] != nil, "the cache's manifest is compared too")
        #expect(one.keys.contains { $0.hasPrefix("search/d/") }, "the search index is compared too")
        #expect(one.count > 50)
        Self.expectSameFiles(four, one)
    }

    /// Builds `input` into `site-<jobs>` of `folder` with `jobs` threads: the report and every file.
    static func site(of input: URL, in folder: TemporaryFolder, jobs: Int) throws -> (BuildReport, [String: Data]) {
        let output = folder.url.appendingPathComponent("site-\(jobs)")
        var options = SiteBuilder.Options.test(input: input, output: output, ignoresCache: true)
        options.jobs = jobs
        let report = try SiteBuilder(options: options).build()
        var files = try snapshot(output)
        files[cacheManifest] = FileManager.default.contents(atPath: testCacheTree(of: output) + "/manifest.json")
        return (report, files)
    }

    /// The key of the cache's manifest among a site's files (the cache is not in the output).
    static let cacheManifest = "(cache)/manifest.json"

    /// Expects the files of the site built with 4 jobs to be those built with 1, byte for byte.
    static func expectSameFiles(_ four: [String: Data], _ one: [String: Data]) {
        #expect(Set(four.keys) == Set(one.keys))
        for (path, bytes) in one.sorted(by: { $0.key < $1.key }) {
            #expect(four[path] == bytes, "\(path) differs between 1 and 4 jobs")
        }
    }

    @Test("a long conversation's runs of pages, rendered on idle threads at once, give the same site as one by one")
    func longConversationRunsGiveTheSameSite() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // 1,400 messages at 5 a page: 280 pages, five runs. Senders change every 7 messages and
        // days every 150 (groups and days across page and run boundaries), every 40th message
        // replies to one 300 earlier (a reply across runs), and every 9th has a reaction.
        let count = 1_400
        var messages: [String] = []
        for index in 0..<count {
            let sender = ["alice", "bob", "cleo"][index / 7 % 3]
            let day = String(format: "%02d", 1 + index / 150)
            let time = String(format: "%02d:%02d", 8 + index % 150 / 60, index % 60)
            let reply = index % 40 == 39 && index >= 300 ? #", "replyTo": "m\#(index - 300)""# : ""
            let reaction = index % 9 == 0 ? #", "reactions": [{"emoji": "👍", "senders": ["cleo"]}]"# : ""
            messages.append(
                #"{"id": "m\#(index)", "sender": "\#(sender)", "date": "2024-05-\#(day)T\#(time):00Z", "text": "Message \#(index)"\#(reply)\#(reaction)}"#
            )
        }
        try folder.write(
            """
            {"version": 1, "id": "long", "title": "Long", "me": "alice",
             "participants": [{"id": "alice", "name": "Alice"}, {"id": "bob", "name": "Bob"}, {"id": "cleo", "name": "Cleo"}],
             "messages": [\(messages.joined(separator: ",\n"))]}
            """, to: "input/long.json")
        try folder.write(Logs.conversation(id: "short", title: "Short", count: 12), to: "input/short.json")
        try folder.write("pageSize: 5\n", to: "input/scrollback.yml")
        #expect(ConversationWorker.renderRuns(pageCount: count / 5).count == 5)
        #expect(ConversationWorker.renderRuns(pageCount: 0) == [0..<0])

        let input = folder.url.appendingPathComponent("input")
        let (oneReport, one) = try Self.site(of: input, in: folder, jobs: 1)
        let (fourReport, four) = try Self.site(of: input, in: folder, jobs: 4)
        #expect(oneReport.conversations == 2, "\(oneReport.diagnostics)")
        #expect(fourReport.diagnostics == oneReport.diagnostics)
        #expect(one["long/page-280.html"] != nil && one["long/page-281.html"] == nil)
        Self.expectSameFiles(four, one)

        // The runs' pages are the pages of one rendering of the whole conversation.
        let (config, _) = ConfigReader.read(inputRoot: input)
        let log = input.appendingPathComponent("long.json")
        let conversation = try #require(
            LogReader(inputRoot: input, config: config).read(contents: Array(try Data(contentsOf: log)), of: log)
                .conversation)
        let plan = ConversationLayouter(options: config.layout, pageSize: config.pageSize).plan(conversation)
        var whole: [String: Data] = [:]
        _ = SiteRenderer(config: config).renderConversation(plan) { path, bytes in whole[path] = Data(bytes) }
        #expect(whole.count == 280)
        for (path, bytes) in whole.sorted(by: { $0.key < $1.key }) {
            #expect(one[path] == bytes, "\(path) differs from the whole conversation's rendering")
        }
    }

    @Test("scrollback build --jobs N builds; --jobs 0 is refused with a message")
    func jobsOption() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Logs.conversation(id: "trip", title: "Trip", count: 3), to: "logs/trip.json")
        let one = try ScrollbackProcess.run(["build", "logs", "-o", "out", "--jobs", "1"], in: folder.url)
        #expect(one.status == 0, "\(one.errors)")
        #expect(one.output.contains("built 1 conversation, 3 messages"))
        let none = try ScrollbackProcess.run(["build", "logs", "-o", "out", "--jobs", "0"], in: folder.url)
        #expect(none.status != 0)
        #expect(none.errors.contains("--jobs must be at least 1, got 0"))
        let help = try ScrollbackProcess.run(["serve", "--help"], in: folder.url)
        #expect(help.output.contains("--jobs <N>"))
    }

    @Test("Parallel.forEach runs every index once, with jobs threads at once, or in order on the caller's with 1")
    func parallelForEach() {
        let seen = ConcurrentSlots<Int>(count: 100)
        Parallel.forEach(100, jobs: 4) { seen.store($0 * 2, at: $0) }
        #expect(seen.values() == (0..<100).map { $0 * 2 })

        // Four bodies that each wait until all four have started: only four threads at once get there.
        let condition = NSCondition()
        var arrived = 0
        let allStarted = ConcurrentSlots<Bool>(count: 4)
        Parallel.forEach(4, jobs: 4) { index in
            condition.lock()
            arrived += 1
            condition.broadcast()
            let deadline = Date() + 10
            while arrived < 4, condition.wait(until: deadline) {}
            let met = arrived == 4
            condition.unlock()
            allStarted.store(met, at: index)
        }
        #expect(allStarted.values() == [true, true, true, true])

        var order: [Int] = []
        let caller = Thread.current
        Parallel.forEach(5, jobs: 1) { index in
            #expect(Thread.current == caller)
            order.append(index)
        }
        #expect(order == [0, 1, 2, 3, 4])
    }
}
