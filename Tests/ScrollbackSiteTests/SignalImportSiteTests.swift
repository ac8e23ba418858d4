import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading
@testable import ScrollbackSite

/// Signal chats (issue 43) built as a site: signal-export's folders from a folder and a zip, the
/// real text sample as a single file; every record a message element or left out; `import` +
/// `build` gives the site `build` gives; WhatsApp's chats beside them stay WhatsApp's.
@Suite struct SignalImportSiteTests {
    /// A signal-export output (the shape its writer makes, field by field): two chat folders, each
    /// with `data.json`, `chat.md` and `media/`.
    static func signalExport(in folder: TemporaryFolder, at path: String) throws -> URL {
        func line(
            _ date: String, _ sender: String, _ body: String, quote: String = "", attachments: String = "[]"
        ) -> String {
            #"{"date": "\#(date)", "sender": "\#(sender)", "body": "\#(body)", "quote": "\#(quote)", "sticker": null, "#
                + #""reactions": [["Me", "❤️"]], "attachments": \#(attachments), "deleted": false, "call": false, "missed": false}"#
        }
        try folder.write(
            [
                line("2024-05-01T12:00:05", "Ana", "Hi there  "),
                line(
                    "2024-05-01T12:01:00", "Me", "look  ", quote: #"\n\n> Hi there\n\n"#,
                    attachments: #"[{"name": "photo 1.png", "path": "media/photo%201.png", "missing_kind": null}]"#),
                "not json",
            ].joined(separator: "\n") + "\n", to: path + "/Ana/data.json")
        try folder.write("[2024-05-01 12:00:05] Ana: Hi there  \n", to: path + "/Ana/chat.md")
        try folder.write(Logs.png, to: path + "/Ana/media/photo 1.png")
        try folder.write(line("2024-06-01T08:00:00", "Bo", "Trip?") + "\n", to: path + "/Trip/data.json")
        return folder.url.appendingPathComponent(path)
    }

    @Test("a folder, a zip and a single file build; message elements = the ledger's messages; the app pill")
    func folderZipAndFile() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        let export = try Self.signalExport(in: base, at: "input/signal-chats")
        let site = base.url.appendingPathComponent("site")
        let report = try build(base.url.appendingPathComponent("input"), site)
        #expect(!report.hasErrors, "\(report.diagnostics)")
        let counts = ExportFixtures.ledger(report)
        #expect(counts.read == 4 && counts.built == 3 && counts.leftOut == 1)
        #expect(try ExportFixtures.messageElements(in: site) == counts.built)
        let page = try String(contentsOf: site.appendingPathComponent("ana/index.html"), encoding: .utf8)
        #expect(page.contains("Hi there") && page.contains("media/"))
        let index = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains(#"<span class="app app-signal">Signal</span>"#))

        let zip = try ExportFixtures.zip(export, as: "signal-chats.zip", in: base)
        try ExportFixtures.expectBuildsAlike(
            zip.deletingLastPathComponent(), into: "zip-site", in: base, counts: counts)

        let sample = try SharedSamples.folder().appendingPathComponent("signal/joweich-chat-miner/test_export.txt")
        let fileSite = base.url.appendingPathComponent("file-site")
        let fileReport = try build(sample, fileSite)
        #expect(!fileReport.hasErrors, "\(fileReport.diagnostics)")
        #expect(ExportFixtures.ledger(fileReport) == (2, 2, 0))
        #expect(try ExportFixtures.messageElements(in: fileSite) == 2)
    }

    @Test("every shared Signal sample: records = message elements + left out")
    func sharedSamples() throws {
        for folder in try ImportTests.sampleFolders("signal") {
            let report = try ExportFixtures.expectSampleAddsUp(folder)
            #expect(report.sources.allSatisfy { $0.format == "signal" })
        }
    }

    @Test("a Signal chat and a WhatsApp chat in one folder: each read by its own importer")
    func besideWhatsApp() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        let samples = try SharedSamples.folder()
        try base.write(
            try Data(contentsOf: samples.appendingPathComponent("signal/joweich-chat-miner/test_export.txt")),
            to: "input/signal.txt")
        try base.write("[2019-12-24 12:23] Jane: Hello\n[2019-12-24 12:24] John: Hi\n", to: "input/whatsapp.txt")
        let report = try build(base.url.appendingPathComponent("input"), base.url.appendingPathComponent("site"))
        #expect(!report.hasErrors, "\(report.diagnostics)")
        #expect(report.sources.map(\.format).sorted() == ["signal", "whatsapp"])
    }

    @Test("Signal's own export (main.jsonl): a folder, a zip and the file build alike; import + build = build")
    func signalBackup() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        let fixture = RepositoryFixtures.folder.appendingPathComponent("signal-backup/main.jsonl")
        try base.write(try Data(contentsOf: fixture), to: "input/signal-export/main.jsonl")
        let input = base.url.appendingPathComponent("input")
        let site = base.url.appendingPathComponent("site")
        let report = try build(input, site)
        #expect(!report.hasErrors, "\(report.diagnostics)")
        // 11 items of known chats: 10 messages and one of a kind not read; the item of no chat
        // and the line that is no frame are the file's warnings.
        let counts = ExportFixtures.ledger(report)
        #expect(counts.read == 11 && counts.built == 10 && counts.leftOut == 1)
        #expect(try ExportFixtures.messageElements(in: site) == counts.built)
        #expect(report.diagnostics.contains { $0.description.contains("main.jsonl:23:1: warning") })
        let page = try String(contentsOf: site.appendingPathComponent("bob-stone/index.html"), encoding: .utf8)
        #expect(page.contains("Hello Bob") && page.contains("#m-2-1715000100000"))

        let zip = try ExportFixtures.zip(input.appendingPathComponent("signal-export"), as: "signal.zip", in: base)
        let zipReport = try build(zip.deletingLastPathComponent(), base.url.appendingPathComponent("zip-site"))
        #expect(ExportFixtures.ledger(zipReport) == counts)
        let fileReport = try build(
            input.appendingPathComponent("signal-export/main.jsonl"), base.url.appendingPathComponent("file-site"))
        #expect(ExportFixtures.ledger(fileReport) == counts)

        let again = try TemporaryFolder()
        defer { again.remove() }
        try again.write(try Data(contentsOf: fixture), to: "input/main.jsonl")
        try ExportFixtures.expectImportThenBuildIsBuild(
            again.url.appendingPathComponent("input"), format: .signal, in: again, logs: 3)
    }

    @Test("`import signal` then `build` gives the site `build` gives, byte for byte")
    func importThenBuildIsBuild() throws {
        let base = try TemporaryFolder()
        defer { base.remove() }
        let input = base.url.appendingPathComponent("input")
        _ = try Self.signalExport(in: base, at: "input/signal-chats")
        let sample = try SharedSamples.folder().appendingPathComponent("signal/joweich-chat-miner/test_export.txt")
        try base.write(try Data(contentsOf: sample), to: "input/text/test_export.txt")
        try ExportFixtures.expectImportThenBuildIsBuild(input, format: .signal, in: base, logs: 3)
        let run = try ScrollbackProcess.run(["import", "signal", "input", "-o", "cli-logs"], in: base.url)
        #expect(run.status == 0, "\(run.errors)")
    }
}
