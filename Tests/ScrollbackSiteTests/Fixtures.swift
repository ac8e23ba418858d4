import Foundation
import Testing

@testable import ScrollbackSite

/// A fresh folder under the system temporary folder, deleted by `remove()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "scrollback-site-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var path: String { url.path }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `text` to `relativePath`, creating folders.
    @discardableResult
    func write(_ text: String, to relativePath: String) throws -> URL {
        try write(Data(text.utf8), to: relativePath)
    }

    /// Writes `data` to `relativePath`, creating folders.
    @discardableResult
    func write(_ data: Data, to relativePath: String) throws -> URL {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }
}

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

/// The environment of a `scrollback` process a test runs in `folder`, with `extra`: its cache
/// (`XDG_CACHE_HOME`) in `folder/.cache`, never the user's.
func commandEnvironment(in folder: URL, _ extra: [String: String] = [:]) -> [String: String] {
    ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": folder.path + "/.cache"]) { $1 }
        .merging(extra) { $1 }
}

/// The last build's cache tree of test builds into `output` (`CacheLocation.current`).
func testCacheTree(of output: URL) -> String {
    CacheLocation(folder: FileSystem.canonicalPath(testCacheFolder(of: output).path)).current
}
