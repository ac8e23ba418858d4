import Foundation
import ScrollbackCache
import ScrollbackModel
import Testing

@testable import ScrollbackReading
@testable import ScrollbackSite

/// The exports of `../shared/samples` (spec §6), built as a user would build them.
@Suite struct ImportTests {

    static func sampleFolders(_ format: String) throws -> [URL] {
        let root = try SharedSamples.folder().appendingPathComponent(format)
        return try FileManager.default.contentsOfDirectory(atPath: root.path).sorted().map {
            root.appendingPathComponent($0)
        }
    }

    static func json(_ url: URL) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: url))
    }

    static func files(under folder: URL, ending suffix: String) -> [URL] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var found: [URL] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(suffix) { found.append(folder.appendingPathComponent(path)) }
        }
        return found.sorted { $0.path < $1.path }
    }

    /// Messages in the raw export, counted with Foundation's JSON parser (not the importers),
    /// minus what spec §6 leaves out on purpose (ChatGPT's empty system messages), and the
    /// file names of the media the messages name.
    static func rawCount(_ folder: URL, format: String) throws -> (messages: Int, media: [String]) {
        var count = 0
        var media: [String] = []
        switch format {
        case "slack":
            // Per-day files sit one level down, in conversation folders.
            for day in files(under: folder, ending: ".json")
            where day.pathComponents.count > folder.pathComponents.count + 1 {
                let messages = try json(day) as? [[String: Any]] ?? []
                count += messages.count
                for message in messages {
                    for file in message["files"] as? [[String: Any]] ?? [] {
                        media.append(file["name"] as? String ?? "")
                    }
                }
            }
        case "discord":
            for file in files(under: folder, ending: ".json") {
                guard let root = try json(file) as? [String: Any], root["guild"] != nil else { continue }
                let messages = root["messages"] as? [[String: Any]] ?? []
                count += messages.count
                for message in messages {
                    for attachment in message["attachments"] as? [[String: Any]] ?? [] {
                        media.append(attachment["fileName"] as? String ?? "")
                    }
                }
            }
        default:
            for file in files(under: folder, ending: ".json") {
                // An array of conversations, or one conversation object on its own.
                let root = try json(file)
                let conversations = root as? [[String: Any]] ?? (root as? [String: Any]).map { [$0] } ?? []
                for conversation in conversations where conversation["mapping"] != nil {
                    let mapping = conversation["mapping"] as? [String: [String: Any]] ?? [:]
                    var cursor = conversation["current_node"] as? String
                    // Walked from the leaf up: a recap seen before (below) thoughts with text
                    // heads those thoughts and is no message of its own (issue 41, acceptance 4).
                    var recapBelow = false
                    while let id = cursor, let node = mapping[id] {
                        if let message = node["message"] as? [String: Any] {
                            let role = (message["author"] as? [String: Any])?["role"] as? String
                            let content = message["content"] as? [String: Any]
                            let parts = content?["parts"] as? [Any] ?? []
                            let empty =
                                parts.allSatisfy { ($0 as? String)?.isEmpty == true }
                                && (content?["text"] as? String ?? "").isEmpty
                            // Empty system messages, and text messages of any role with no text
                            // (issue 41.12), are left out.
                            let type = content?["content_type"] as? String ?? "text"
                            let thoughts = content?["thoughts"] as? [Any] ?? []
                            if type == "reasoning_recap" {
                                recapBelow = true
                            } else if type == "thoughts", !(empty && thoughts.isEmpty), recapBelow {
                                count -= 1
                                recapBelow = false
                            } else if role == "user" {
                                recapBelow = false
                            }
                            if type == "thoughts", empty, thoughts.isEmpty {
                                // Thoughts with no text are left out.
                            } else if !(empty && (role == "system" || type == "text" || type == "multimodal_text")) {
                                count += 1
                            }
                        }
                        cursor = node["parent"] as? String
                    }
                }
            }
        }
        return (count, media)
    }

    /// The text of every HTML page of a site but the index.
    static func pages(_ site: URL) throws -> [String] {
        try files(under: site, ending: ".html").filter {
            $0.lastPathComponent != "index.html" || $0.pathComponents.count > site.pathComponents.count + 1
        }
        .map { try String(contentsOf: $0, encoding: .utf8) }
    }

    /// Builds a sample, or `nil` for one with no message at all (slackdump's metadata-only
    /// export), which must fail as having nothing to build (issue 41.4), never give an empty site.
    static func buildSample(_ folder: URL, format: String, into output: URL) throws -> BuildReport? {
        do {
            return try build(folder, output)
        } catch SiteBuildError.nothingToBuild {
            #expect(try rawCount(folder, format: format).messages == 0, "\(folder.lastPathComponent)")
            return nil
        }
    }

    static func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test(arguments: ["slack", "discord", "chatgpt"])
    func everyMessageOfEverySampleIsOneElement(format: String) throws {
        for folder in try Self.sampleFolders(format) {
            let scratch = try TemporaryFolder()
            defer { scratch.remove() }
            let output = scratch.url.appendingPathComponent("site")
            guard let report = try Self.buildSample(folder, format: format, into: output) else { continue }
            #expect(!report.hasErrors, "\(folder.lastPathComponent): \(report.diagnostics)")
            let (expected, media) = try Self.rawCount(folder, format: format)
            let html = try Self.pages(output).joined()
            let elements = Self.occurrences(of: "data-message-id=\"", in: html)
            #expect(
                elements == expected, "\(folder.lastPathComponent): \(elements) elements, \(expected) in the export")
            // Each medium resolved (copied into media/) or named by its placeholder or card.
            for name in media {
                let escaped = name.replacingOccurrences(of: "&", with: "&amp;")
                #expect(html.contains(escaped), "\(folder.lastPathComponent): \(name) neither shown nor named")
            }
            for source in html.components(separatedBy: "src=\"").dropFirst() {
                let path = String(source.prefix { $0 != "\"" })
                guard !path.hasPrefix("http"), path.contains("media/") else { continue }
                let relative = path.replacingOccurrences(of: "../", with: "")
                #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(relative).path), "\(path)")
            }
            #expect(report.importCounts.count == report.conversations)
        }
    }

    @Test(arguments: ["slack", "discord", "chatgpt"])
    func importThenBuildGivesTheSameSite(format: String) throws {
        for folder in try Self.sampleFolders(format) {
            let scratch = try TemporaryFolder()
            defer { scratch.remove() }
            let base = scratch.url
            let direct = base.appendingPathComponent("direct")
            guard try Self.buildSample(folder, format: format, into: direct) != nil else { continue }
            let logs = base.appendingPathComponent("logs")
            let imported = try ExportWriter(
                input: folder, format: ExportFormat(rawValue: format)!, output: logs, onDiagnostics: { _ in }
            ).write()
            #expect(!imported.hasErrors)
            let viaLogs = base.appendingPathComponent("via-logs")
            let report = try build(logs, viaLogs)
            #expect(!report.hasErrors, "\(report.diagnostics)")
            let left = try snapshot(direct).filter { !$0.key.hasPrefix(".scrollback") }
            let right = try snapshot(viaLogs).filter { !$0.key.hasPrefix(".scrollback") }
            #expect(left.keys.sorted() == right.keys.sorted(), "\(folder.lastPathComponent)")
            for (path, bytes) in left where right[path] != bytes {
                Issue.record("\(folder.lastPathComponent): \(path) differs")
            }
        }
    }

    @Test func aNewerExportKeepsEveryPermalink() throws {
        let sample = try Self.sampleFolders("discord").first { $0.lastPathComponent == "mlomb-chat-analytics" }!
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let base = scratch.url
        let input = base.appendingPathComponent("export")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let file = input.appendingPathComponent("GC_3A_5M.json")
        try FileManager.default.copyItem(at: sample.appendingPathComponent("GC_3A_5M.json"), to: file)
        let output = base.appendingPathComponent("site")
        try build(input, output)
        func anchors() throws -> Set<String> {
            var found: Set<String> = []
            for page in try Self.pages(output) {
                for part in page.components(separatedBy: "data-message-id=\"").dropFirst() {
                    found.insert(String(part.prefix { $0 != "\"" }))
                }
            }
            return found
        }
        let before = try anchors()
        var root = try Self.json(file) as! [String: Any]
        var messages = root["messages"] as! [[String: Any]]
        var extra = messages.last!
        extra["id"] = "1999999999999999999"
        extra["type"] = "Default"
        extra["timestamp"] = "2024-01-01T10:00:00.000+00:00"
        extra["content"] = "one more message"
        messages.append(extra)
        root["messages"] = messages
        try JSONSerialization.data(withJSONObject: root).write(to: file)
        try build(input, output)
        let after = try anchors()
        #expect(before.isSubset(of: after))
        #expect(after.subtracting(before) == ["1999999999999999999"])
    }

    /// A Slack workspace's channels and direct messages are listed under their own headings, and
    /// the section survives `import` (the JSON log's `section`).
    @Test func slackChannelsAndDirectMessagesAreIndexSections() throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let base = scratch.url
        let input = base.appendingPathComponent("export")
        func write(_ path: String, _ text: String) throws {
            let file = input.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        try write("users.json", #"[{"id": "U1", "name": "ada"}, {"id": "U2", "name": "grace"}]"#)
        try write("channels.json", #"[{"id": "C1", "name": "general", "members": ["U1", "U2"]}]"#)
        try write("dms.json", #"[{"id": "D1", "members": ["U1", "U2"]}]"#)
        try write("groups.json", "[]")
        try write("mpims.json", "[]")
        try write(
            "general/2024-06-10.json",
            #"[{"type": "message", "user": "U1", "text": "morning", "ts": "1718010000.000100"}]"#)
        try write(
            "D1/2024-06-11.json", #"[{"type": "message", "user": "U2", "text": "lunch?", "ts": "1718100000.000100"}]"#)
        let direct = base.appendingPathComponent("direct")
        #expect(try !build(input, direct).hasErrors)
        let index = try String(contentsOf: direct.appendingPathComponent("index.html"), encoding: .utf8)
        let directMessages = try #require(index.range(of: ">Direct messages <"))
        let channels = try #require(index.range(of: ">Channels <"))
        #expect(directMessages.lowerBound < channels.lowerBound, "the section of the newest conversation first")
        #expect(index.contains("<h3>#general</h3>"))

        let logs = base.appendingPathComponent("logs")
        _ = try ExportWriter(input: input, format: .slack, output: logs, onDiagnostics: { _ in }).write()
        let written = Self.files(under: logs, ending: ".json").map { try? String(contentsOf: $0, encoding: .utf8) }
        #expect(written.contains { $0?.contains(#""section": "Direct messages""#) == true })
        let viaLogs = base.appendingPathComponent("via-logs")
        #expect(try !build(logs, viaLogs).hasErrors)
        #expect(try Data(contentsOf: viaLogs.appendingPathComponent("index.html")) == Data(index.utf8))
    }

    @Test func aZipExportIsReadAndEntriesCannotEscape() throws {
        #expect(ExportArchive.safeComponents("../evil") == nil)
        #expect(ExportArchive.safeComponents("/etc/passwd") == nil)
        #expect(ExportArchive.safeComponents("a/../../b") == nil)
        #expect(ExportArchive.safeComponents("a\\..\\b") == nil)
        #expect(ExportArchive.safeComponents("channel/2025-01-10.json") == ["channel", "2025-01-10.json"])
    }
}
