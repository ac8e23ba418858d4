import Foundation
// The helpers every test target shares (`TemporaryFolder`, `SharedSamples`, `ScrollbackProcess`),
// for every file of this target.
@_exported import ScrollbackTestSupport
import Testing

@testable import ScrollbackCache
@testable import ScrollbackSite

/// Spec §1 JSON logs for the tests.
enum Logs {
    /// A 2×1 PNG, used as an avatar.
    static let png = Data(
        base64Encoded:
            "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAE/wEHAAH/4iOeWQAAAABJRU5ErkJggg==")!

    /// A valid log with `count` text messages, one a minute from `start` (an ISO date at minute 0).
    static func conversation(
        id: String, title: String, count: Int, day: String = "2024-05-03", avatar: Bool = false
    ) -> String {
        var messages: [String] = []
        for index in 0..<count {
            let sender = index % 2 == 0 ? "alice" : "bob"
            let minute = String(format: "%02d", index % 60)
            let hour = String(format: "%02d", 9 + index / 60)
            messages.append(
                #"{"id": "m\#(index)", "sender": "\#(sender)", "date": "\#(day)T\#(hour):\#(minute):00Z", "text": "Message \#(index) of \#(id)"}"#
            )
        }
        let bobAvatar = avatar ? #", "avatar": "media/bob.png""# : ""
        return """
            {
              "version": 1,
              "id": "\(id)",
              "title": "\(title)",
              "me": "alice",
              "participants": [
                {"id": "alice", "name": "Alice"},
                {"id": "bob", "name": "Bob"\(bobAvatar)}
              ],
              "messages": [
                \(messages.joined(separator: ",\n    "))
              ]
            }

            """
    }

    /// A log whose third message has a kind spec §1 does not know.
    static let unknownKind = """
        {
          "id": "broken",
          "participants": [{"id": "alice", "name": "Alice"}],
          "messages": [
            {"id": "1", "sender": "alice", "date": "2024-05-03T09:00:00Z", "text": "fine"},
            {"id": "2", "sender": "alice", "date": "2024-05-03T09:01:00Z", "kind": "hologram", "text": "?"}
          ]
        }

        """
}

/// Every file under `root` (dot folders included) with its bytes, by relative path.
func snapshot(_ root: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let base = root.resolvingSymlinksInPath().path
    guard let walker = FileManager.default.enumerator(atPath: base) else { return files }
    for case let relative as String in walker {
        let path = base + "/" + relative
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            files[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
        }
    }
    return files
}

/// Builds `input` into `output` and returns the report.
@discardableResult
func build(_ input: URL, _ output: URL, clean: Bool = false) throws -> BuildReport {
    try SiteBuilder(options: SiteBuilder.Options.test(input: input, output: output, ignoresCache: clean)).build()
}

extension SiteBuilder.Options {
    /// A test build's options: the cache goes beside the output (`testCacheFolder`), inside the
    /// test's temporary folder and deleted with it, never into the user's cache folder.
    static func test(input: URL, output: URL, ignoresCache: Bool = false) -> SiteBuilder.Options {
        var options = SiteBuilder.Options(input: input, output: output, ignoresCache: ignoresCache)
        options.cacheDirectory = testCacheFolder(of: output)
        return options
    }
}

/// The cache folder of test builds into `output`: `.<name>.cache` beside it.
func testCacheFolder(of output: URL) -> URL {
    output.deletingLastPathComponent().appendingPathComponent("." + output.lastPathComponent + ".cache")
}

/// The last build's cache tree of test builds into `output` (`CacheLocation.current`).
func testCacheTree(of output: URL) -> String {
    CacheLocation(folder: FileSystem.canonicalPath(testCacheFolder(of: output).path)).current
}
