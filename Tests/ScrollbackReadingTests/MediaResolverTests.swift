import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading

@Suite struct MediaResolverTests {
    let here = SourceLocation(file: "log.json", line: 3, column: 7)

    /// An input folder `root/input` with a log in `input/logs/`, and a secret next to the input.
    func makeInput() throws -> (base: URL, input: URL, log: URL) {
        let base = try makeTemporaryFolder()
        let input = base.appendingPathComponent("input")
        let log = try write("{}", to: "logs/chat.json", in: input)
        try write("secret", to: "secret.txt", in: base)
        return (base, input, log)
    }

    func resolve(_ reference: String, in input: URL, log: URL, remote: Bool = true) -> (MediaSource, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        let source = MediaResolver(inputRoot: input, allowsRemoteMedia: remote)
            .resolve(reference, relativeTo: log, at: here, diagnostics: &diagnostics)
        return (source, diagnostics)
    }

    func isRefusal(_ diagnostics: [Diagnostic]) -> Bool {
        guard diagnostics.count == 1, diagnostics[0].severity == .warning, diagnostics[0].location == here,
            case .refusedMediaReference = diagnostics[0].problem
        else { return false }
        return true
    }

    @Test func escapeThroughDotDotIsRefused() throws {
        let (base, input, log) = try makeInput()
        defer { try? FileManager.default.removeItem(at: base) }
        let (source, diagnostics) = resolve("../../secret.txt", in: input, log: log)
        #expect(source == .unavailable(original: "../../secret.txt"))
        #expect(isRefusal(diagnostics), "\(diagnostics)")
        // Going up and back in is fine.
        try write("x", to: "logs/a.txt", in: input)
        let (inside, insideDiagnostics) = resolve("../logs/./a.txt", in: input, log: log)
        #expect(insideDiagnostics.isEmpty)
        guard case .local = inside else {
            Issue.record("expected local, got \(inside)")
            return
        }
    }

    @Test func absolutePathsAndOtherSchemesAreRefused() throws {
        let (base, input, log) = try makeInput()
        defer { try? FileManager.default.removeItem(at: base) }
        for reference in [
            base.appendingPathComponent("secret.txt").path, input.appendingPathComponent("logs/chat.json").path,
            "file:///etc/passwd", "javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,<script>",
            "data:image/png;base64,iVBORw0KGgo=", "//evil.example/x.png", "ftp://example.com/x.png", "",
        ] {
            let (source, diagnostics) = resolve(reference, in: input, log: log)
            #expect(source == .unavailable(original: reference), "\(reference)")
            #expect(isRefusal(diagnostics), "\(reference): \(diagnostics)")
        }
    }

    @Test func symlinkPointingOutsideIsRefused() throws {
        let (base, input, log) = try makeInput()
        defer { try? FileManager.default.removeItem(at: base) }
        try FileManager.default.createSymbolicLink(
            atPath: input.appendingPathComponent("logs/link.txt").path,
            withDestinationPath: base.appendingPathComponent("secret.txt").path)
        try FileManager.default.createSymbolicLink(
            atPath: input.appendingPathComponent("logs/dir").path, withDestinationPath: base.path)
        for reference in ["link.txt", "dir/secret.txt"] {
            let (source, diagnostics) = resolve(reference, in: input, log: log)
            #expect(source == .unavailable(original: reference))
            #expect(isRefusal(diagnostics), "\(diagnostics)")
        }
        // A symlink that stays inside is followed.
        try write("inside", to: "media/real.txt", in: input)
        try FileManager.default.createSymbolicLink(
            atPath: input.appendingPathComponent("logs/ok.txt").path, withDestinationPath: "../media/real.txt")
        let (source, diagnostics) = resolve("ok.txt", in: input, log: log)
        #expect(diagnostics.isEmpty)
        #expect(source.localAsset?.sourcePath == input.appendingPathComponent("media/real.txt").path)
    }

    @Test func missingFileIsAWarning() throws {
        let (base, input, log) = try makeInput()
        defer { try? FileManager.default.removeItem(at: base) }
        let (source, diagnostics) = resolve("nope.png", in: input, log: log)
        #expect(source == .unavailable(original: "nope.png"))
        #expect(diagnostics == [.warning(.missingMediaFile("nope.png"), at: here)])
    }

    /// Answers are kept by log and reference, but each use still reports its own warning at its own place.
    @Test func repeatedReferencesWarnAtEachPlace() throws {
        let (base, input, log) = try makeInput()
        defer { try? FileManager.default.removeItem(at: base) }
        let resolver = MediaResolver(inputRoot: input, allowsRemoteMedia: true)
        let elsewhere = SourceLocation(file: "log.json", line: 9, column: 2)
        var diagnostics: [Diagnostic] = []
        for location in [here, elsewhere] {
            #expect(
                resolver.resolve("nope.png", relativeTo: log, at: location, diagnostics: &diagnostics)
                    == .unavailable(original: "nope.png"))
            #expect(
                resolver.resolve("../../secret.txt", relativeTo: log, at: location, diagnostics: &diagnostics)
                    == .unavailable(original: "../../secret.txt"))
        }
        #expect(diagnostics.map(\.location) == [here, here, elsewhere, elsewhere])
        #expect(diagnostics[0] == .warning(.missingMediaFile("nope.png"), at: here))
        #expect(diagnostics[2] == .warning(.missingMediaFile("nope.png"), at: elsewhere))
        #expect(diagnostics[1].problem == diagnostics[3].problem)
        // The same text in a log in another folder names another file.
        try write("photo", to: "logs/p.png", in: input)
        let other = try write("{}", to: "other/chat.json", in: input)
        #expect(resolver.resolve("p.png", relativeTo: log, at: here, diagnostics: &diagnostics).localAsset != nil)
        #expect(resolver.resolve("p.png", relativeTo: other, at: here, diagnostics: &diagnostics).localAsset == nil)
    }

    @Test func remoteURLs() throws {
        let (base, input, log) = try makeInput()
        defer { try? FileManager.default.removeItem(at: base) }
        let (source, diagnostics) = resolve("https://example.com/a.png", in: input, log: log)
        #expect(source == .remote("https://example.com/a.png"))
        #expect(diagnostics.isEmpty)
        let (off, offDiagnostics) = resolve("http://example.com/a.png", in: input, log: log, remote: false)
        #expect(off == .unavailable(original: "http://example.com/a.png"))
        #expect(offDiagnostics.isEmpty)
    }

    @Test func localFilesAreHashedByContentAndCachedOnce() throws {
        let (base, input, log) = try makeInput()
        defer { try? FileManager.default.removeItem(at: base) }
        try write("same bytes", to: "logs/A.PNG", in: input)
        try write("same bytes", to: "logs/copy.png", in: input)
        try write("other bytes", to: "logs/b.png", in: input)
        let resolver = MediaResolver(inputRoot: input, allowsRemoteMedia: true)
        var diagnostics: [Diagnostic] = []
        func asset(_ reference: String) -> LocalAsset? {
            resolver.resolve(reference, relativeTo: log, at: here, diagnostics: &diagnostics).localAsset
        }
        let a = try #require(asset("A.PNG"))
        let copy = try #require(asset("copy.png"))
        let b = try #require(asset("b.png"))
        #expect(a.sitePath == copy.sitePath)
        #expect(a.sitePath != b.sitePath)
        #expect(a.sitePath.range(of: #"^media/[0-9a-f]{16}\.png$"#, options: .regularExpression) != nil)
        // The FNV-1a 64 of "same bytes", computed independently.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "same bytes".utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        #expect(a.sitePath == "media/" + String(format: "%016llx", hash) + ".png")
        // Changing the file after the first read does not change the answer: it is read once.
        try write("changed", to: "logs/A.PNG", in: input)
        #expect(asset("A.PNG") == a)
        #expect(asset("./A.PNG") == a)
        #expect(diagnostics.isEmpty)
        #expect(resolver.resolvedAssets().count == 3)
    }

    @Test func percentEncodedPathsFallBackToTheDecodedName() throws {
        let (base, input, log) = try makeInput()
        defer { try? FileManager.default.removeItem(at: base) }
        try write("x", to: "logs/my photo.jpg", in: input)
        let (source, diagnostics) = resolve("my%20photo.jpg", in: input, log: log)
        #expect(diagnostics.isEmpty)
        #expect(source.localAsset?.sitePath.hasSuffix(".jpg") == true)
    }

    // MARK: image headers

    func size(_ bytes: [UInt8]) -> PixelSize? {
        bytes.withUnsafeBytes { ImageHeader.pixelSize(of: $0) }
    }

    func bigEndian(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(value >> ($0 * 8) & 0xFF) }
    }
    func littleEndian(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(value >> ($0 * 8) & 0xFF) } }

    @Test func pngSize() {
        let png: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bigEndian(13, 4) + Array("IHDR".utf8)
            + bigEndian(1920, 4) + bigEndian(1080, 4) + [8, 6, 0, 0, 0]
        #expect(size(png) == PixelSize(width: 1920, height: 1080))
        #expect(size(Array(png.prefix(20))) == nil)
    }

    @Test func gifSize() {
        #expect(
            size(Array("GIF89a".utf8) + littleEndian(500, 2) + littleEndian(300, 2) + [0, 0, 0])
                == PixelSize(width: 500, height: 300))
    }

    @Test func jpegSizeSkipsSegmentsBeforeTheFrame() {
        let app0: [UInt8] = [0xFF, 0xE0] + bigEndian(16, 2) + Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0]
        let dqt: [UInt8] = [0xFF, 0xDB] + bigEndian(5, 2) + [0, 1, 2]
        let dht: [UInt8] = [0xFF, 0xC4] + bigEndian(4, 2) + [0, 0]  // C4 is a table, not a frame
        let sof2: [UInt8] =
            [0xFF, 0xC2] + bigEndian(11, 2) + [8] + bigEndian(768, 2) + bigEndian(1024, 2) + [1, 1, 0x11, 0]
        let jpeg = [0xFF, 0xD8] + app0 + dqt + [0xFF] + dht + sof2 + [0xFF, 0xD9]
        #expect(size(jpeg) == PixelSize(width: 1024, height: 768))
        #expect(size([0xFF, 0xD8] + app0 + [0xFF, 0xD9]) == nil)
    }

    @Test func webpSizes() {
        func riff(_ chunk: String, _ payload: [UInt8]) -> [UInt8] {
            Array("RIFF".utf8) + littleEndian(4 + 8 + payload.count, 4) + Array("WEBP".utf8) + Array(chunk.utf8)
                + littleEndian(payload.count, 4) + payload
        }
        let lossy = riff(
            "VP8 ", [0x30, 0x01, 0x00, 0x9D, 0x01, 0x2A] + littleEndian(640, 2) + littleEndian(480, 2) + [0, 0])
        #expect(size(lossy) == PixelSize(width: 640, height: 480))
        let bits = (400 - 1) | (225 - 1) << 14
        let lossless = riff("VP8L", [0x2F] + littleEndian(bits, 4) + [0])
        #expect(size(lossless) == PixelSize(width: 400, height: 225))
        let extended = riff("VP8X", [0x10, 0, 0, 0] + littleEndian(4000 - 1, 3) + littleEndian(3000 - 1, 3))
        #expect(size(extended) == PixelSize(width: 4000, height: 3000))
    }

    @Test func sizeComesFromTheFileWhenTheLogGivesNone() throws {
        let base = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: base) }
        let gif = Data(Array("GIF87a".utf8) + littleEndian(12, 2) + littleEndian(34, 2) + [0, 0, 0])
        try write(gif, to: "pics/a.gif", in: base)
        let file = try write(
            log(
                messages:
                    #"{"id": "1", "sender": "alice", "date": "2024-01-01T00:00:00Z", "kind": "photo", "media": {"url": "pics/a.gif"}}"#
            ),
            to: "chat.json", in: base)
        let result = LogReader(inputRoot: base, config: SiteConfig()).read(file)
        guard case .photo(let item)? = result.conversation?.messages.first?.kind else {
            Issue.record("expected a photo: \(result.diagnostics)")
            return
        }
        #expect(item.size == PixelSize(width: 12, height: 34))
    }

    /// Schemes are found on bytes; a colon joined by a combining mark is not a colon, as with characters.
    @Test func schemesFoundOnBytesMatchCharacters() {
        #expect(MediaResolver.scheme(of: "HTTPS://example.com/a.png") == "https")
        #expect(MediaResolver.scheme(of: "data:image/png;base64,AAAA") == "data")
        #expect(MediaResolver.scheme(of: "svn+ssh:x") == "svn+ssh")
        #expect(MediaResolver.scheme(of: "photos/a.png") == nil)
        #expect(MediaResolver.scheme(of: "a/b:c") == nil)
        #expect(MediaResolver.scheme(of: "1http:x") == nil)
        #expect(MediaResolver.scheme(of: ":x") == nil)
        #expect(MediaResolver.scheme(of: "mailto:") == "mailto")
        #expect(MediaResolver.scheme(of: "x:\u{301}y") == nil)  // ":" + U+0301 is one character, not ":"
        #expect(MediaResolver.scheme(of: "x:\u{301}y:z") == nil)  // the first colon character follows "x:́y"
        #expect(MediaResolver.scheme(of: "javascript:é") == "javascript")
        #expect(MediaResolver.scheme(of: "jävascript:x") == nil)
    }
}

extension MediaSource {
    var localAsset: LocalAsset? {
        if case .local(let asset) = self { return asset }
        return nil
    }
}
