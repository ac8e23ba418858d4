import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackSite

/// A file a log attaches is media, not "not a chat export" (`make site` warned about the sample
/// log's `media/release-notes.txt`); a file nothing attaches is still named.
@Suite struct AttachedMediaDiscoveryTests {
    static let log = """
        {"title": "Notes", "participants": [{"id": "u", "name": "You"}],
         "messages": [
          {"id": "1", "sender": "u", "date": "2024-05-03T09:00:00Z", "kind": "file",
           "media": {"url": "media/notes.txt", "name": "notes.txt", "mimeType": "text/plain"}}
         ]}
        """

    /// The diagnostics of the build that name `file` (as shown: `in/…`).
    static func said(about file: String, in report: BuildReport) -> [Diagnostic] {
        report.diagnostics.filter { $0.location?.file == file }
    }

    @Test func aFileALogAttachesGetsNoWarningAndAStrayOneDoes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Self.log, to: "in/notes.json")
        try folder.write("Release notes\n", to: "in/media/notes.txt")
        try folder.write("Nothing attaches me\n", to: "in/notes.txt")
        let site = folder.url.appendingPathComponent("site")
        let report = try build(folder.url.appendingPathComponent("in"), site)
        #expect(!report.hasErrors, "\(report.diagnostics)")
        #expect(Self.said(about: "in/media/notes.txt", in: report) == [], "\(report.diagnostics)")
        let stray = Self.said(about: "in/notes.txt", in: report)
        #expect(stray.count == 1 && stray.first?.severity == .warning, "\(report.diagnostics)")
        #expect(stray.first?.problem.message.contains("not a chat export") == true)
        // The attached file is published, as media.
        let media = try FileManager.default.contentsOfDirectory(atPath: site.path + "/media")
        #expect(media.contains { $0.hasSuffix(".txt") })
        // A second build reuses the conversation: still nothing said about its attachment.
        let again = try build(folder.url.appendingPathComponent("in"), site)
        #expect(again.reusedConversations == 1)
        #expect(Self.said(about: "in/media/notes.txt", in: again) == [])
        #expect(Self.said(about: "in/notes.txt", in: again).count == 1)
    }
}
