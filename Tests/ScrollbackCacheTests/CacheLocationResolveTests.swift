import Foundation
import Testing

@testable import ScrollbackCache

/// Where a cache lives, worked out from the paths and the environment alone (moved from the
/// site's `CacheLocationTests`, which build sites with it).
@Suite("Cache location from the environment")
struct CacheLocationResolveTests {
    @Test("by default: $XDG_CACHE_HOME/scrollback/<key>, else ~/.cache; a key per input and output")
    func defaultLocation() throws {
        let input = URL(fileURLWithPath: "/data/logs")
        let site = URL(fileURLWithPath: "/data/site")
        let xdg = CacheLocation.resolve(
            cacheDirectory: nil, input: input, output: site, environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"])
        let home = CacheLocation.resolve(cacheDirectory: nil, input: input, output: site, environment: ["HOME": "/h"])
        let relative = CacheLocation.resolve(
            cacheDirectory: nil, input: input, output: site, environment: ["XDG_CACHE_HOME": "c", "HOME": "/h"])
        let key = try #require(xdg?.folder.split(separator: "/").last.map(String.init))
        #expect(xdg?.folder == "/c/scrollback/" + key)
        #expect(home?.folder == "/h/.cache/scrollback/" + key)
        #expect(relative == home, "a relative XDG_CACHE_HOME is ignored")
        #expect(key.hasPrefix("site-") && key.count == "site-".count + 32)
        #expect(CacheLocation.resolve(cacheDirectory: nil, input: input, output: site, environment: [:]) == nil)
        // Two outputs of one input, or one output of two inputs: two caches.
        let other = CacheLocation.resolve(
            cacheDirectory: nil, input: input, output: URL(fileURLWithPath: "/data/site2"),
            environment: ["HOME": "/h"])
        let otherInput = CacheLocation.resolve(
            cacheDirectory: nil, input: URL(fileURLWithPath: "/data/more"), output: site, environment: ["HOME": "/h"])
        #expect(Set([home, other, otherInput].map(\.?.folder)).count == 3)
        // `--cache-dir` wins.
        let given = CacheLocation.resolve(
            cacheDirectory: URL(fileURLWithPath: "/x/cache"), input: input, output: site, environment: ["HOME": "/h"])
        #expect(given?.folder == "/x/cache")
    }
}
