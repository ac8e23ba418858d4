import Foundation
import ScrollbackReading
import ScrollbackTestSupport
import Testing

@testable import ScrollbackCache

@Suite("Output folder")
struct OutputFolderTests {
    @Test("publishing swaps the staged site in and leaves nothing beside it", arguments: [true, false])
    func publish(usesExchange: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.url.appendingPathComponent("logs")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try folder.write("old", to: "site/old.html")
        // An output built before the cache moved out (issue 44): known by its cache manifest.
        try folder.write("{}", to: "site/.scrollback/manifest.json")
        let output = try OutputFolder(output: folder.url.appendingPathComponent("site"), input: input)
        try output.createStaging()
        try "new".write(toFile: output.stagingPath + "/new.html", atomically: false, encoding: .utf8)
        try output.publishStaging(usesExchange: usesExchange)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/site") == ["new.html"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["logs", "site"])
    }

    @Test("deleting a tree deletes links, never what they point to, with one or more jobs", arguments: [1, 3])
    func removeTreeKeepsLinkTargets(jobs: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("keep", to: "outside/keep.txt")
        for n in 0..<40 { try folder.write("\(n)", to: "tree/d\(n % 4)/sub/\(n).bin") }
        try folder.write("top", to: "tree/top.html")
        let tree = folder.path + "/tree"
        try FileManager.default.createSymbolicLink(
            atPath: tree + "/d0/to-outside", withDestinationPath: folder.path + "/outside")
        try FileManager.default.createSymbolicLink(
            atPath: tree + "/d1/to-file", withDestinationPath: folder.path + "/outside/keep.txt")
        FileSystem.removeTree(tree, jobs: jobs)
        #expect(!FileManager.default.fileExists(atPath: tree))
        #expect(try String(contentsOfFile: folder.path + "/outside/keep.txt", encoding: .utf8) == "keep")
        // A link given as the tree itself: the link goes, its target stays.
        try FileManager.default.createSymbolicLink(atPath: tree, withDestinationPath: folder.path + "/outside")
        FileSystem.removeTree(tree, jobs: jobs)
        #expect(FileSystem.isSymlink(tree) == false)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/outside/keep.txt"))
        FileSystem.removeTree(tree, jobs: jobs)  // missing: nothing to do
    }

    @Test("staging folders of builds that died are cleaned up; a live build's are not")
    func abandonedStaging() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.url.appendingPathComponent("logs")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        // PID 2^22+1 is above Linux's pid_max limit, so no process has it.
        try folder.write("x", to: ".site.tmp-4194305-1/index.html")
        try folder.write("x", to: ".site.tmp-1-1/index.html")  // PID 1 is always alive.
        let output = try OutputFolder(output: folder.url.appendingPathComponent("site"), input: input)
        try output.createStaging()
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!names.contains(".site.tmp-4194305-1"))
        #expect(names.contains(".site.tmp-1-1"))
        output.discardStaging()
    }

    @Test("the content fingerprint changes with any byte, including the tail and the length")
    func fingerprint() {
        let base = Array("0123456789abcdefXYZ".utf8)
        var seen: Set<String> = []
        for index in base.indices {
            var changed = base
            changed[index] ^= 1
            seen.insert(changed.withUnsafeBytes { ContentFingerprint.hex(of: $0) })
        }
        seen.insert(base.withUnsafeBytes { ContentFingerprint.hex(of: $0) })
        seen.insert((base + [0]).withUnsafeBytes { ContentFingerprint.hex(of: $0) })
        seen.insert(ContentFingerprint.hex(of: ""))
        #expect(seen.count == base.count + 3)
        #expect(ContentFingerprint.hex(of: "abc") == ContentFingerprint.hex(of: Data("abc".utf8)))
        #expect(ContentFingerprint.hex(of: "abc").count == 32)
        // Trailing zero bytes still change it: the length is part of it.
        #expect(ContentFingerprint.hex(of: "ab\u{0}") != ContentFingerprint.hex(of: "ab"))
    }

    @Test("one pass fingerprints several prefixes, each as hex(of:) does alone")
    func prefixFingerprints() {
        let bytes = Array("0123456789abcdefXYZ-the rest of a longer log".utf8)
        let lengths = [0, 3, 8, 8, 19, 24, bytes.count]
        let together = bytes.withUnsafeBytes { ContentFingerprint.hexes(ofPrefixes: lengths, of: $0) }
        #expect(together == lengths.map { ContentFingerprint.hex(of: bytes[0..<$0]) })
        #expect(Set(together).count == lengths.count - 1)  // 8 twice
    }

    @Test("a file fingerprinted a chunk at a time gives the fingerprints of its bytes in memory")
    func fileFingerprints() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Over two 1 MiB chunks, with prefixes ending before, on and after a chunk's end.
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<((2 << 20) + 13)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let file = try folder.write(Data(bytes), to: "log.json")
        let chunk = 1 << 20
        let lengths = [0, 5, chunk - 3, chunk, chunk + 7, 2 * chunk + 1, bytes.count]
        let log = try #require(LogFile(path: file.path))
        #expect(log.size == bytes.count)
        let fromFile = try #require(ContentFingerprint.hexes(ofPrefixes: lengths, of: log))
        #expect(fromFile == bytes.withUnsafeBytes { ContentFingerprint.hexes(ofPrefixes: lengths, of: $0) })
        #expect(log.bytes(chunk..<(chunk + 4)) == Array(bytes[chunk..<(chunk + 4)]))

        // A file that shrinks after it was opened gives no fingerprint and no bytes past its end.
        try Data(bytes.prefix(100)).write(to: file)
        #expect(ContentFingerprint.hexes(ofPrefixes: [bytes.count], of: log) == nil)
        #expect(log.bytes(90..<110) == nil)
        var buffer: [UInt8] = [1, 2]
        #expect(!log.read(90..<110, appendingTo: &buffer))
        #expect(buffer == [1, 2])
    }
}
