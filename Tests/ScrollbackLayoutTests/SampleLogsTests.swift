import Foundation
import Testing

/// The JSON showcase in `sample-logs/` is the first thing a new user builds: these checks keep its
/// references intact (the reader's own tests cover the format; these cover the samples' content).
@Suite("sample-logs showcase")
struct SampleLogsTests {
    static let sampleFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("sample-logs")

    static let jsonLogs = ["design-team.json", "alex-and-sam.json", "game-night.json"]

    private func load(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: Self.sampleFolder.appendingPathComponent(name))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test(arguments: jsonLogs)
    func everyReferenceResolves(name: String) throws {
        let log = try load(name)
        let participants = try #require(log["participants"] as? [[String: Any]])
        let participantIDs = Set(participants.compactMap { $0["id"] as? String })
        #expect(participantIDs.count == participants.count)
        var mediaPaths = participants.compactMap { $0["avatar"] as? String }

        var seen = Set<String>()
        for message in try #require(log["messages"] as? [[String: Any]]) {
            let id = try #require(message["id"] as? String)
            #expect(seen.insert(id).inserted, "duplicate id \(id)")
            if message["kind"] as? String != "system" {
                #expect(participantIDs.contains(message["sender"] as? String ?? ""), "unknown sender in \(id)")
            }
            if let target = message["replyTo"] as? String {
                #expect(seen.contains(target), "\(id) replies to \(target)")
            }
            for reaction in message["reactions"] as? [[String: Any]] ?? [] {
                for sender in reaction["senders"] as? [String] ?? [] { #expect(participantIDs.contains(sender)) }
            }
            if message["status"] != nil { #expect(message["sender"] as? String == log["me"] as? String) }
            if let media = message["media"] as? [String: Any] {
                mediaPaths += ["url", "poster"].compactMap { media[$0] as? String }
            }
            if let link = message["link"] as? [String: Any], let thumbnail = link["thumbnail"] as? String {
                mediaPaths.append(thumbnail)
            }
        }
        for path in mediaPaths {
            #expect(!path.hasPrefix("http"), "samples must build offline: \(path)")
            let attributes = try FileManager.default.attributesOfItem(
                atPath: Self.sampleFolder.appendingPathComponent(path).path)
            #expect((attributes[.size] as? Int ?? .max) < 50_000, "\(path) should stay small")
        }
    }

    @Test func theShowcaseCoversEveryKind() throws {
        var kinds = Set<String>()
        var customIDs = Set<String>()
        for name in Self.jsonLogs {
            for message in try load(name)["messages"] as? [[String: Any]] ?? [] {
                kinds.insert(message["kind"] as? String ?? "text")
                if let custom = message["custom"] as? [String: Any], let id = custom["id"] as? String {
                    customIDs.insert(id)
                }
            }
        }
        #expect(
            kinds == [
                "text", "attributedText", "emoji", "photo", "video", "audio", "location", "contact", "linkPreview",
                "system", "custom",
            ])
        #expect(customIDs == ["poll", "dice", "scoreboard"])
    }
}
