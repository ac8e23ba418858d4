import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading
@testable import ScrollbackSite

/// Meta's "Download your information" (Messenger, Instagram; issue 43) built as a site: from a
/// folder, a zip and a single file; every record a message element or left out; `import` +
/// `build` gives the site `build` gives.
@Suite struct MetaImportSiteTests {
    /// A Facebook download (the newer layout) holding one thread in two parts and a photo.
    static func facebookDownload(in folder: TemporaryFolder, at path: String) throws -> URL {
        let thread = "your_activity_across_facebook/messages/inbox/ana_42"
        func part(_ messages: String) -> String {
            #"{"participants": [{"name": "Ana"}, {"name": "Bo Gr\u00c3\u00bcn"}], "messages": [\#(messages)], "#
                + #""title": "Ana", "is_still_participant": true, "thread_path": "inbox/ana_42", "magic_words": []}"#
        }
        try folder.write(
            part(
                #"{"sender_name": "Bo Gr\u00c3\u00bcn", "timestamp_ms": 1714557720000, "photos": [{"uri": "\#(thread)/photos/1.png"}]},"#
                    + #"{"sender_name": "Ana", "timestamp_ms": 1714557660000, "content": "ol\u00c3\u00a1", "reactions": [{"reaction": "\u00e2\u009d\u00a4", "actor": "Bo Gr\u00c3\u00bcn"}]}"#
            ), to: path + "/" + thread + "/message_1.json")
        try folder.write(
            part(
                #"{"sender_name": "Ana", "timestamp_ms": 1714557600000, "content": "Ana started a call.", "call_duration": 61},"#
                    + #"{"sender_name": "Ana", "timestamp_ms": 1714557500000, "is_unsent": true}, 7"#
            ), to: path + "/" + thread + "/message_2.json")
        try folder.write(Logs.png, to: path + "/" + thread + "/photos/1.png")
        return folder.url.appendingPathComponent(path)
    }

    @Test("a folder, a zip and a single file build; message elements = the ledger's messages; the app pill")
    func folderZipAndFile() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        let download = try Self.facebookDownload(in: base, at: "input/facebook-ana")
        let site = base.url.appendingPathComponent("site")
        let report = try build(base.url.appendingPathComponent("input"), site)
        #expect(!report.hasErrors, "\(report.diagnostics)")
        let counts = ExportFixtures.ledger(report)
        #expect(counts.read == 5 && counts.built == 4 && counts.leftOut == 1)
        #expect(try ExportFixtures.messageElements(in: site) == counts.built)
        let page = try String(contentsOf: site.appendingPathComponent("ana-42/index.html"), encoding: .utf8)
        #expect(page.contains("Bo Grün") && page.contains("olá"))
        #expect(page.contains("media/"), "the photo is copied")
        let index = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains(#"<span class="app app-messenger">Messenger</span>"#))

        // The same download as a zip gives the same pages.
        let zip = try ExportFixtures.zip(download, as: "facebook-ana.zip", in: base)
        try ExportFixtures.expectBuildsAlike(
            zip.deletingLastPathComponent(), into: "zip-site", in: base, counts: counts)

        // A single thread file as the input: the shared Instagram sample.
        let sample = try SharedSamples.folder().appendingPathComponent("instagram/joweich-chat-miner/testlog.json")
        let fileSite = base.url.appendingPathComponent("file-site")
        let fileReport = try build(sample, fileSite)
        #expect(!fileReport.hasErrors, "\(fileReport.diagnostics)")
        #expect(ExportFixtures.ledger(fileReport).read == 13)
        #expect(try ExportFixtures.messageElements(in: fileSite) == ExportFixtures.ledger(fileReport).built)
        let fileIndex = try String(contentsOf: fileSite.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(fileIndex.contains(#"<span class="app app-instagram">Instagram</span>"#))
    }

    @Test("a whole download's profile and settings files are noted, not read as broken logs")
    func downloadSideFiles() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        _ = try Self.facebookDownload(in: base, at: "input/facebook-ana")
        try base.write(
            #"{"profile_v2": {"name": {"full_name": "Bo"}}}"#,
            to: "input/facebook-ana/personal_information/profile_information/profile_information.json")
        // Outside the download, the same file is still a log that does not read.
        try base.write(#"{"profile_v2": {}}"#, to: "input/elsewhere.json")
        let report = try build(base.url.appendingPathComponent("input"), base.url.appendingPathComponent("site"))
        #expect(report.conversations == 1)
        let profile = report.diagnostics.filter { $0.location?.file.hasSuffix("profile_information.json") == true }
        #expect(profile.map(\.severity) == [.note], "\(profile)")
        #expect(
            report.diagnostics.contains {
                $0.severity == .error && $0.location?.file.hasSuffix("elsewhere.json") == true
            })
    }

    @Test(
        "`scrollback import` takes the format as meta or by an app's name",
        arguments: ["meta", "messenger", "Instagram", "facebook"])
    func importNames(name: String) throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        _ = try Self.facebookDownload(in: base, at: "download")
        let run = try ScrollbackProcess.run(["import", name, "download", "-o", "logs"], in: base.url)
        #expect(run.status == 0, "\(run.errors)")
        #expect(FileManager.default.fileExists(atPath: base.url.appendingPathComponent("logs/ana-42.json").path))
        #expect(try ScrollbackProcess.run(["import", "myspace", "download", "-o", "other"], in: base.url).status != 0)
    }

    @Test("every shared Messenger and Instagram sample: records = message elements + left out")
    func sharedSamples() throws {
        for format in ["messenger", "instagram"] {
            for folder in try ImportTests.sampleFolders(format) {
                try ExportFixtures.expectSampleAddsUp(folder)
            }
        }
    }

    @Test("`import meta` then `build` gives the site `build` gives, byte for byte")
    func importThenBuildIsBuild() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        let input = base.url.appendingPathComponent("input")
        _ = try Self.facebookDownload(in: base, at: "input/facebook-ana")
        let sample = try SharedSamples.folder().appendingPathComponent("instagram/joweich-chat-miner/testlog.json")
        try base.write(
            try Data(contentsOf: sample), to: "input/instagram/messages/inbox/testlog_2765720812686121/message_1.json")
        try ExportFixtures.expectImportThenBuildIsBuild(input, format: .meta, in: base, logs: 2)
    }
}
