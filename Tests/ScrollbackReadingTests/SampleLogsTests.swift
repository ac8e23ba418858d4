import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading

/// The repository's own `sample-logs/` archive must read cleanly: config and every JSON log.
@Suite struct SampleLogsTests {
    let folder = fixturesFolder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "sample-logs")

    @Test func configAndJSONLogsReadWithoutDiagnostics() throws {
        let (config, configDiagnostics) = ConfigReader.read(inputRoot: folder)
        #expect(configDiagnostics.isEmpty, "\(configDiagnostics)")
        #expect(config.title == "Scrollback sample archive")
        #expect(config.layout.timeZone == "Europe/Berlin")
        let reader = LogReader(inputRoot: folder, config: config)
        let logs = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
            .sorted()
        #expect(!logs.isEmpty)
        for name in logs {
            let result = reader.read(folder.appendingPathComponent(name))
            #expect(result.diagnostics.isEmpty, "\(name): \(result.diagnostics.map(\.description))")
            #expect(result.conversation?.messages.isEmpty == false, "\(name)")
        }
        // Every local file a sample refers to exists, is hashed and is inside the archive.
        #expect(reader.mediaAssets.allSatisfy { $0.sourcePath.hasPrefix(folder.path + "/") })
    }
}
