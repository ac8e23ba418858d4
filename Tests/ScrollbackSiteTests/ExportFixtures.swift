import Foundation
import ScrollbackReading
import Testing
import ZIPFoundation

@testable import ScrollbackSite

/// Small exports written from each format's documented shape, for the pipeline's tests.
enum ExportFixtures {
    /// The ledger's totals of a build: records read, messages built, records left out.
    static func ledger(_ report: BuildReport) -> (read: Int, built: Int, leftOut: Int) {
        report.sources.reduce((0, 0, 0)) {
            ($0.0 + $1.ledger.recordsRead, $0.1 + $1.ledger.messagesBuilt, $0.2 + $1.ledger.leftOut.count)
        }
    }

    /// Expects the sites in `expected` and `got` to hold the same files, byte for byte (the build
    /// cache lives outside both): what `import` + `build` = `build` means.
    static func expectSameSite(
        _ expected: URL, _ got: URL, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let expectedFiles = try snapshot(expected)
        let gotFiles = try snapshot(got)
        #expect(expectedFiles.keys.sorted() == gotFiles.keys.sorted(), sourceLocation: sourceLocation)
        for (path, data) in expectedFiles { #expect(gotFiles[path] == data, "\(path)", sourceLocation: sourceLocation) }
    }

    /// Expects `import <format>` of `input` then `build` of the logs to give the site `build` of
    /// `input` gives, byte for byte, both without errors (and `logs` logs written, when given).
    /// The sites go to `direct` and `via-logs` in `base`.
    static func expectImportThenBuildIsBuild(
        _ input: URL, format: ExportFormat, in base: TemporaryFolder, logs expectedLogs: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let direct = base.url.appendingPathComponent("direct")
        let directReport = try build(input, direct)
        #expect(!directReport.hasErrors, "\(directReport.diagnostics)", sourceLocation: sourceLocation)
        let logs = base.url.appendingPathComponent("logs")
        let imported = try ExportWriter(input: input, format: format, output: logs, onDiagnostics: { _ in }).write()
        #expect(!imported.hasErrors, "\(imported.diagnostics)", sourceLocation: sourceLocation)
        if let expectedLogs { #expect(imported.logs == expectedLogs, sourceLocation: sourceLocation) }
        let viaLogs = base.url.appendingPathComponent("via-logs")
        let logsReport = try build(logs, viaLogs)
        #expect(!logsReport.hasErrors, "\(logsReport.diagnostics)", sourceLocation: sourceLocation)
        try expectSameSite(direct, viaLogs, sourceLocation: sourceLocation)
    }

    /// `folder` zipped (its contents at the zip's top, or the folder itself with `keepingParent`)
    /// into `zipped/<name>` in `base`, a folder that holds only that zip; returns the zip.
    static func zip(_ folder: URL, as name: String, in base: TemporaryFolder, keepingParent: Bool = false) throws -> URL
    {
        let zip = base.url.appendingPathComponent("zipped/" + name)
        try FileManager.default.createDirectory(at: zip.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.zipItem(at: folder, to: zip, shouldKeepParent: keepingParent)
        return zip
    }

    /// Builds `input` into `<name>` in `base` and expects it to build without errors, with the
    /// ledger totals `counts` and as many message elements as messages built; returns the site.
    @discardableResult
    static func expectBuildsAlike(
        _ input: URL, into name: String, in base: TemporaryFolder, counts: (read: Int, built: Int, leftOut: Int),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> URL {
        let site = base.url.appendingPathComponent(name)
        let report = try build(input, site)
        #expect(!report.hasErrors, "\(report.diagnostics)", sourceLocation: sourceLocation)
        #expect(ledger(report) == counts, sourceLocation: sourceLocation)
        #expect(try messageElements(in: site) == counts.built, sourceLocation: sourceLocation)
        return site
    }

    /// Builds the real export `folder` and expects no error, a ledger that adds up (records read =
    /// messages built + left out, more than none) and one message element per message built;
    /// returns the build's report.
    @discardableResult
    static func expectSampleAddsUp(
        _ folder: URL, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> BuildReport {
        let base = try TemporaryFolder()
        defer { base.remove() }
        let site = base.url.appendingPathComponent("site")
        let report = try build(folder, site)
        #expect(!report.hasErrors, "\(report.diagnostics)", sourceLocation: sourceLocation)
        let counts = ledger(report)
        #expect(counts.read > 0 && counts.read == counts.built + counts.leftOut, sourceLocation: sourceLocation)
        #expect(
            try messageElements(in: site) == counts.built, "\(folder.lastPathComponent)", sourceLocation: sourceLocation
        )
        return report
    }

    /// A Slack workspace export at `path` in `folder`: `#general` with `count` messages on
    /// 2024-06-10 (one day file), `#random` with one.
    static func slack(in folder: TemporaryFolder, at path: String, count: Int = 3) throws {
        try folder.write(#"[{"id": "U1", "name": "ada"}, {"id": "U2", "name": "grace"}]"#, to: path + "/users.json")
        try folder.write(
            #"[{"id": "C1", "name": "general", "members": ["U1", "U2"]}, {"id": "C2", "name": "random", "members": ["U1"]}]"#,
            to: path + "/channels.json")
        let messages = (0..<count).map { index in
            #"{"type": "message", "user": "U\#(index % 2 + 1)", "text": "general \#(index)", "ts": "\#(1_718_010_000 + index * 60).000100"}"#
        }
        try folder.write("[" + messages.joined(separator: ", ") + "]", to: path + "/general/2024-06-10.json")
        try folder.write(
            #"[{"type": "message", "user": "U1", "text": "random", "ts": "1718020000.000100"}]"#,
            to: path + "/random/2024-06-10.json")
    }

    /// A WhatsApp chat as Android writes it: `count` messages from 1/30/18 09:00.
    static func whatsAppText(count: Int) -> String {
        (0..<count).map { index in
            "1/30/18, 09:\(String(format: "%02d", index)) - \(index % 2 == 0 ? "Alice" : "Bob"): line \(index)\n"
        }.joined()
    }

    /// A zip at `path` in `folder` holding `WhatsApp Chat with Alice.txt` (`count` messages).
    @discardableResult
    static func whatsAppZip(in folder: TemporaryFolder, at path: String, count: Int = 4) throws -> URL {
        let staging = folder.url.appendingPathComponent("zip-staging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: staging) }
        try Data(whatsAppText(count: count).utf8).write(
            to: staging.appendingPathComponent("WhatsApp Chat with Alice.txt"))
        let zip = folder.url.appendingPathComponent(path)
        try FileManager.default.createDirectory(
            at: zip.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: zip)
        let archive = try Archive(url: zip, accessMode: .create)
        try archive.addEntry(
            with: "WhatsApp Chat with Alice.txt", relativeTo: staging, compressionMethod: .deflate)
        return zip
    }

    /// A ChatGPT `conversations.json`: "Trip plans" (an empty system root, a question, an
    /// assistant node with only an empty part, the answer) and "Nothing here" (only an empty
    /// system root).
    static let chatGPT = """
        [{"title": "Trip plans", "conversation_id": "abcdef12-0000", "create_time": 1718010000,
          "current_node": "n4",
          "mapping": {
            "n1": {"id": "n1", "parent": null, "children": ["n2"],
                   "message": {"id": "n1", "author": {"role": "system"}, "content": {"content_type": "text", "parts": [""]}}},
            "n2": {"id": "n2", "parent": "n1", "children": ["n3"],
                   "message": {"id": "n2", "author": {"role": "user"}, "create_time": 1718010060,
                               "content": {"content_type": "text", "parts": ["Where to?"]}}},
            "n3": {"id": "n3", "parent": "n2", "children": ["n4"],
                   "message": {"id": "n3", "author": {"role": "assistant"}, "create_time": 1718010070,
                               "content": {"content_type": "text", "parts": [""]}}},
            "n4": {"id": "n4", "parent": "n3", "children": [],
                   "message": {"id": "n4", "author": {"role": "assistant"}, "create_time": 1718010080,
                               "content": {"content_type": "text", "parts": ["Lisbon."]}}}
          }},
         {"title": "Nothing here", "conversation_id": "99999999-0000", "create_time": 1718000000,
          "current_node": "e1",
          "mapping": {
            "e1": {"id": "e1", "parent": null, "children": [],
                   "message": {"id": "e1", "author": {"role": "system"}, "content": {"content_type": "text", "parts": [""]}}}
          }}]
        """

    /// How many message elements the pages under `output` hold (the index left aside).
    static func messageElements(in output: URL, conversation: String? = nil) throws -> Int {
        var count = 0
        for (path, data) in try snapshot(output)
        where path.hasSuffix(".html") && path.contains("/") && !path.hasPrefix(".")
            && (conversation == nil || path.hasPrefix(conversation! + "/"))
        {
            count += String(decoding: data, as: UTF8.self).components(separatedBy: "data-message-id=\"").count - 1
        }
        return count
    }
}
