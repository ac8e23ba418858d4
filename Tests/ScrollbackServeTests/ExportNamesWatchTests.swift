import Foundation
import ScrollbackSite
import Testing

@testable import ScrollbackServe

/// Issue 41.1 in `serve`: a save to an export file whose name starts with `_` (iOS WhatsApp's
/// `_chat.txt`) rebuilds the site, with inotify and with the poll.
@Suite("Watching export files named with _")
struct ExportNamesWatchTests {
    @Test("a save to `_chat.txt` rebuilds", arguments: [true, false])
    func underscoreExportFileRebuilds(inotify: Bool) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let chat = "[1/2/21, 10:00:00] Ana: Hi\n[1/2/21, 10:01:00] Ben: Hello\n"
        try folder.write(chat, to: "logs/WhatsApp Chat - Ana/_chat.txt")
        let options = SiteBuilder.Options.test(
            input: folder.url.appendingPathComponent("logs"), output: folder.url.appendingPathComponent("site"))
        let builds = BuildCounter()
        let preview = LivePreview(options: options) { _ in builds.increment() }
        preview.build()
        preview.startWatching(preferInotify: inotify)
        defer { preview.stop() }
        try await Task.sleep(for: .milliseconds(600))
        try folder.write(chat + "[1/2/21, 10:02:00] Ana: Bye\n", to: "logs/WhatsApp Chat - Ana/_chat.txt")
        for _ in 0..<100 where builds.count < 2 { try await Task.sleep(for: .milliseconds(50)) }
        #expect(builds.count == 2)
    }
}
