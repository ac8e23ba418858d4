import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackSite

/// Issue 42.3: an Ogg voice note (Opus, Vorbis), which Safari cannot play, gets an `.m4a` copy
/// made by ffmpeg at build time, listed after the original in its `<audio>`; without ffmpeg the
/// build says so once. The voice notes are made here with ffmpeg (CI installs it); the tests that
/// need it are skipped, saying why, on a machine without it.
@Suite struct VoiceNoteTests {
    /// The machine's ffmpeg (`SCROLLBACK_FFMPEG` aside, which tests set to turn it off).
    static let ffmpeg = AudioTranscoder.locate(
        .fromEnvironment, environment: ProcessInfo.processInfo.environment.filter { $0.key == "PATH" })
    static let skipMessage: Comment = "ffmpeg is not installed: install it (scripts/install-deps.sh) to run this test"

    /// A one-second sine tone at `frequency` Hz as Ogg/Opus at `path`.
    static func makeVoiceNote(at path: String, frequency: Int = 440) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg!)
        process.arguments = [
            "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=\(frequency):duration=1",
            "-c:a", "libopus", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-f", "ogg", "file:" + path,
        ]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
    }

    /// A log whose messages are voice notes at `files` (relative to the log), one a minute.
    static func log(_ files: [String], title: String = "Voices") throws -> String {
        let messages = try files.enumerated().map { index, file in
            let url = String(
                decoding: try JSONSerialization.data(withJSONObject: file, options: .fragmentsAllowed), as: UTF8.self)
            return
                #"{"id": "v\#(index)", "sender": "bob", "date": "2024-05-03T09:0\#(index):00Z", "kind": "audio", "media": {"url": \#(url), "duration": 1, "title": "Voice message"}}"#
        }
        return """
            {
              "version": 1, "id": "voices", "title": "\(title)", "me": "alice",
              "participants": [{"id": "alice", "name": "Alice"}, {"id": "bob", "name": "Bob"}],
              "messages": [
                \(messages.joined(separator: ",\n    "))
              ]
            }

            """
    }

    /// Counts ffmpeg runs, running the real one.
    final class RunCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var runs: Int { lock.withLock { count } }
        var runner: AudioTranscoder.Runner {
            { executable, arguments, input, timeout in
                self.lock.withLock { self.count += 1 }
                return AudioTranscoder.processRunner(executable, arguments, input, timeout)
            }
        }
    }

    static func build(
        _ input: URL, _ output: URL, ffmpeg: AudioTranscoder.Executable, runner: AudioTranscoder.Runner? = nil,
        clean: Bool = false
    ) throws -> BuildReport {
        var options = SiteBuilder.Options.test(input: input, output: output, ignoresCache: clean)
        options.ffmpeg = ffmpeg
        options.ffmpegRunner = runner
        return try SiteBuilder(options: options).build()
    }

    /// `logs/` in `folder` with two voice notes, `a.opus` and `b.opus`, and a log naming only the
    /// first (a test appends the second); and where its site goes.
    static func twoVoiceNotes(in folder: TemporaryFolder) throws -> (input: URL, site: URL) {
        let input = folder.url.appendingPathComponent("logs")
        try FileManager.default.createDirectory(atPath: input.path + "/media", withIntermediateDirectories: true)
        try makeVoiceNote(at: input.path + "/media/a.opus")
        try makeVoiceNote(at: input.path + "/media/b.opus", frequency: 880)
        try folder.write(try log(["media/a.opus"]), to: "logs/voices.json")
        return (input, folder.url.appendingPathComponent("site"))
    }

    /// The site path of the published original (`media/<hash>.ogg`).
    static func oggSitePath(in site: URL) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: site.appendingPathComponent("media").path)
        return "media/" + (try #require(names.first { $0.hasSuffix(".ogg") }))
    }

    @Test(.enabled(if: ffmpeg != nil, skipMessage))
    func oggVoiceNoteGetsAnM4ACopyListedAfterTheOriginal() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(
            atPath: folder.path + "/logs/media", withIntermediateDirectories: true)
        try Self.makeVoiceNote(at: folder.path + "/logs/media/voice.opus")
        try folder.write(try Self.log(["media/voice.opus"]), to: "logs/voices.json")
        let counter = RunCounter()
        let report = try Self.build(
            folder.url.appendingPathComponent("logs"), folder.url.appendingPathComponent("site"),
            ffmpeg: .path(Self.ffmpeg!), runner: counter.runner)
        #expect(report.warningCount == 0)
        #expect(report.summaryNotes.isEmpty)
        #expect(counter.runs == 1)

        let site = folder.url.appendingPathComponent("site")
        let ogg = try Self.oggSitePath(in: site)
        let m4a = AudioTranscoder.copySitePath(of: ogg)
        let copy = try Data(contentsOf: site.appendingPathComponent(m4a))
        #expect(copy.count > 1000)
        #expect(Array(copy[4..<8]) == Array("ftyp".utf8))
        let page = try String(contentsOf: site.appendingPathComponent("voices/index.html"), encoding: .utf8)
        #expect(
            page.contains(
                #"<audio controls preload="none"><source src="../\#(ogg)" type="audio/ogg; codecs=opus">"#
                    + #"<source src="../\#(m4a)" type="audio/mp4"></audio>"#))

        // Made again from nothing (no cache), the copy is the same bytes: the site is deterministic.
        let again = folder.url.appendingPathComponent("again")
        _ = try Self.build(
            folder.url.appendingPathComponent("logs"), again, ffmpeg: .path(Self.ffmpeg!), runner: counter.runner,
            clean: true)
        #expect(counter.runs == 2)
        #expect(try Data(contentsOf: again.appendingPathComponent(m4a)) == copy)
        #expect(try snapshot(again) == snapshot(site))
    }

    @Test(.enabled(if: ffmpeg != nil, skipMessage))
    func theNextBuildTakesTheCopyFromTheCache() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.url.appendingPathComponent("logs")
        let site = folder.url.appendingPathComponent("site")
        try FileManager.default.createDirectory(atPath: input.path + "/media", withIntermediateDirectories: true)
        try Self.makeVoiceNote(at: input.path + "/media/voice.ogg")
        try folder.write(try Self.log(["media/voice.ogg"]), to: "logs/voices.json")
        let counter = RunCounter()
        _ = try Self.build(input, site, ffmpeg: .path(Self.ffmpeg!), runner: counter.runner)
        #expect(counter.runs == 1)
        let m4a = AudioTranscoder.copySitePath(of: try Self.oggSitePath(in: site))
        let first = try snapshot(site)

        // The log changed (its pages are rendered again), the voice note did not.
        try folder.write(try Self.log(["media/voice.ogg"], title: "Voices again"), to: "logs/voices.json")
        let rebuilt = try Self.build(input, site, ffmpeg: .path(Self.ffmpeg!), runner: counter.runner)
        #expect(rebuilt.rebuiltConversations == 1)
        #expect(counter.runs == 1)
        #expect(try snapshot(site)[m4a] == first[m4a])
        #expect(try String(contentsOf: site.appendingPathComponent("voices/index.html"), encoding: .utf8).contains(m4a))

        // Nothing changed: the conversation is reused, and its copy is still published.
        let reused = try Self.build(input, site, ffmpeg: .path(Self.ffmpeg!), runner: counter.runner)
        #expect(reused.reusedConversations == 1)
        #expect(counter.runs == 1)
        let files = try snapshot(site)
        #expect(files[m4a] == first[m4a])
        #expect(try FileManager.default.contentsOfDirectory(atPath: testCacheTree(of: site) + "/audio").count == 1)
    }

    @Test(.enabled(if: ffmpeg != nil, skipMessage))
    func aVoiceNoteAppendedToALogGetsItsCopy() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (input, site) = try Self.twoVoiceNotes(in: folder)
        let counter = RunCounter()
        _ = try Self.build(input, site, ffmpeg: .path(Self.ffmpeg!), runner: counter.runner)
        try folder.write(try Self.log(["media/a.opus", "media/b.opus"]), to: "logs/voices.json")
        let appended = try Self.build(input, site, ffmpeg: .path(Self.ffmpeg!), runner: counter.runner)
        #expect(appended.appendedConversations == 1)
        // Only the new voice note is transcoded; both players list their copies.
        #expect(counter.runs == 2)
        let files = try snapshot(site)
        #expect(files.keys.filter { $0.hasPrefix("media/") && $0.hasSuffix(".m4a") }.count == 2)
        #expect(
            String(decoding: files["voices/index.html"]!, as: UTF8.self).components(separatedBy: #"type="audio/mp4""#)
                .count == 3)
        // The same as a clean build of the longer log.
        let clean = folder.url.appendingPathComponent("clean")
        _ = try Self.build(input, clean, ffmpeg: .path(Self.ffmpeg!), clean: true)
        #expect(try snapshot(clean) == files)
    }

    @Test(.enabled(if: ffmpeg != nil, skipMessage))
    func withoutFFmpegTheBuildSaysSoOnceThenAddsTheCopiesWhenItIsThere() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.url.appendingPathComponent("logs")
        let site = folder.url.appendingPathComponent("site")
        try FileManager.default.createDirectory(atPath: input.path + "/media", withIntermediateDirectories: true)
        for (index, frequency) in [440, 550, 660].enumerated() {
            try Self.makeVoiceNote(at: input.path + "/media/v\(index).opus", frequency: frequency)
        }
        // The same file twice is one voice note of the site.
        try folder.write(
            try Self.log(["media/v0.opus", "media/v1.opus", "media/v2.opus", "media/v0.opus"]), to: "logs/voices.json")
        // `SCROLLBACK_FFMPEG=` turns ffmpeg off, whatever `PATH` has.
        let path = ["PATH": PathText.parent(Self.ffmpeg!)]
        #expect(AudioTranscoder.locate(.fromEnvironment, environment: path) == Self.ffmpeg)
        #expect(
            AudioTranscoder.locate(.fromEnvironment, environment: path.merging(["SCROLLBACK_FFMPEG": ""]) { $1 }) == nil
        )
        let off = AudioTranscoder.locate(.fromEnvironment, environment: path.merging(["SCROLLBACK_FFMPEG": ""]) { $1 })
        let report = try Self.build(input, site, ffmpeg: off.map { .path($0) } ?? .none)
        #expect(
            report.summaryNotes == [
                "3 voice notes in Ogg (.opus, .ogg) will not play in Safari: install ffmpeg to add an .m4a copy"
            ])
        #expect(report.warningCount == 0)
        var files = try snapshot(site)
        #expect(!files.keys.contains { $0.hasSuffix(".m4a") })
        #expect(!String(decoding: files["voices/index.html"]!, as: UTF8.self).contains("<source"))

        // The same site is reused as it is without ffmpeg (still one note), and gets its copies on
        // the first build with ffmpeg, without --clean.
        let reused = try Self.build(input, site, ffmpeg: .none)
        #expect(reused.reusedConversations == 1)
        #expect(reused.summaryNotes.count == 1)
        let installed = try Self.build(input, site, ffmpeg: .path(Self.ffmpeg!))
        #expect(installed.summaryNotes.isEmpty)
        files = try snapshot(site)
        #expect(files.keys.filter { $0.hasPrefix("media/") && $0.hasSuffix(".m4a") }.count == 3)
        #expect(
            String(decoding: files["voices/index.html"]!, as: UTF8.self).components(separatedBy: #"type="audio/mp4""#)
                .count == 5)
    }

    @Test(.enabled(if: ffmpeg != nil, skipMessage))
    func aHostileFileNameNeverReachesFFmpeg() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.url.appendingPathComponent("logs")
        try FileManager.default.createDirectory(atPath: input.path + "/media", withIntermediateDirectories: true)
        let name = #"-y 'it"s' ; $(touch pwned) ü 🎙.opus"#
        try Self.makeVoiceNote(at: folder.path + "/plain.opus")
        try FileManager.default.copyItem(atPath: folder.path + "/plain.opus", toPath: input.path + "/media/" + name)
        try folder.write(try Self.log(["media/" + name]), to: "logs/voices.json")
        let arguments = ArgumentLog()
        let report = try Self.build(
            input, folder.url.appendingPathComponent("site"), ffmpeg: .path(Self.ffmpeg!),
            runner: { executable, args, file, timeout in
                arguments.append(args)
                return AudioTranscoder.processRunner(executable, args, file, timeout)
            })
        #expect(report.warningCount == 0)
        let site = folder.url.appendingPathComponent("site")
        let m4a = AudioTranscoder.copySitePath(of: try Self.oggSitePath(in: site))
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent(m4a).path))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/pwned"))
        #expect(!FileManager.default.fileExists(atPath: input.path + "/pwned"))
        let runs = arguments.all
        #expect(runs.count == 1)
        #expect(!runs.joined().joined().contains("it\"s"))
        #expect(runs.first?.contains("pipe:0") == true)
    }

    /// The arguments each run got.
    final class ArgumentLog: @unchecked Sendable {
        private let lock = NSLock()
        private var runs: [[String]] = []
        func append(_ arguments: [String]) { lock.withLock { runs.append(arguments) } }
        var all: [[String]] { lock.withLock { runs } }
    }

    @Test(.enabled(if: ffmpeg != nil, skipMessage))
    func anAppendedVoiceNoteWhoseCopyFailsTakesTheFullPathAndSaysWhy() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (input, site) = try Self.twoVoiceNotes(in: folder)
        _ = try Self.build(input, site, ffmpeg: .path(Self.ffmpeg!))
        try folder.write(try Self.log(["media/a.opus", "media/b.opus"]), to: "logs/voices.json")
        let failing: AudioTranscoder.Runner = { _, _, _, _ in .finished(status: 1, message: "Invalid data found") }
        let report = try Self.build(input, site, ffmpeg: .path(Self.ffmpeg!), runner: failing)
        #expect(report.appendedConversations == 0)
        #expect(report.work.first { $0.source == "voices.json" }?.work == .built(.append(.audioWarnings)))
        #expect(report.diagnostics.contains { $0.problem.message.contains("'b.opus'") })
    }

    @Test(.enabled(if: ffmpeg != nil, skipMessage))
    func aFailedCopyIsAWarningAtTheMessageAndTheOriginalStays() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.url.appendingPathComponent("logs")
        try FileManager.default.createDirectory(atPath: input.path + "/media", withIntermediateDirectories: true)
        try Self.makeVoiceNote(at: input.path + "/media/voice.opus")
        try folder.write(try Self.log(["media/voice.opus"]), to: "logs/voices.json")
        for (result, expected) in [
            (AudioTranscoder.RunResult.finished(status: 1, message: "Invalid data found"), "exit status 1"),
            (.timedOut, "was stopped"),
        ] {
            let site = folder.url.appendingPathComponent("site-\(expected.count)")
            let report = try Self.build(input, site, ffmpeg: .path(Self.ffmpeg!), runner: { _, _, _, _ in result })
            let warnings = report.diagnostics.filter { $0.severity == .warning }
            #expect(warnings.count == 1)
            #expect(warnings.first?.problem.message.contains(expected) == true)
            #expect(warnings.first?.problem.message.contains("'voice.opus'") == true)
            #expect(warnings.first?.location?.file.hasSuffix("voices.json") == true)
            #expect(warnings.first?.location?.line == 5)
            let files = try snapshot(site)
            #expect(files.keys.contains { $0.hasPrefix("media/") && $0.hasSuffix(".ogg") })
            #expect(!files.keys.contains { $0.hasSuffix(".m4a") })
            #expect(!String(decoding: files["voices/index.html"]!, as: UTF8.self).contains("<source"))
        }
    }

    /// Real exports' voice notes: WhatsApp's `PTT-….opus` and Telegram's `voice_messages/….ogg`,
    /// as the shared samples name them (the samples hold no audio: the files are made here).
    @Test(.enabled(if: ffmpeg != nil, skipMessage))
    func whatsAppAndTelegramVoiceNotesGetCopies() throws {
        let samples = try SharedSamples.folder()
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.url.appendingPathComponent("exports")
        try FileManager.default.createDirectory(atPath: input.path + "/wa", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: input.path + "/tg/voice_messages", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: samples.appendingPathComponent("whatsapp/gesiscss-WhatsR/englishandroid24h.txt"),
            to: input.appendingPathComponent("wa/WhatsApp Chat with WhatsAppParserTest.txt"))
        try Self.makeVoiceNote(at: input.path + "/wa/PTT-20180129-WA0025.opus")
        try FileManager.default.copyItem(
            at: samples.appendingPathComponent("telegram/innerdvations-telegram-chat-parser/saved.json"),
            to: input.appendingPathComponent("tg/result.json"))
        try Self.makeVoiceNote(at: input.path + "/tg/voice_messages/audio_1@06-10-2020_00-33-06.ogg", frequency: 330)
        let site = folder.url.appendingPathComponent("site")
        let report = try Self.build(input, site, ffmpeg: .path(Self.ffmpeg!))
        #expect(report.summaryNotes.isEmpty)
        let files = try snapshot(site)
        let copies = files.keys.filter { $0.hasPrefix("media/") && $0.hasSuffix(".m4a") }.sorted()
        #expect(copies.count == 2)
        let pages = files.filter { $0.key.hasSuffix(".html") }.values.map { String(decoding: $0, as: UTF8.self) }
        for copy in copies {
            let original = PathText.deletingExtension(copy) + ".ogg"
            #expect(
                pages.contains {
                    $0.contains(
                        #"<source src="../\#(original)" type="audio/ogg; codecs=opus"><source src="../\#(copy)" type="audio/mp4">"#
                    )
                })
        }
    }

    @Test func ffmpegPastItsTimeLimitIsKilled() throws {
        let start = Date()
        let input = try #require(FileHandle(forReadingAtPath: "/dev/null"))
        let result = AudioTranscoder.processRunner("/bin/sleep", ["30"], input, 0.5)
        #expect(result == .timedOut)
        #expect(Date().timeIntervalSince(start) < 10)
    }

    @Test func ffmpegsLastErrorLineIsKeptWithoutControlCharacters() throws {
        let input = try #require(FileHandle(forReadingAtPath: "/dev/null"))
        let result = AudioTranscoder.processRunner(
            "/bin/sh", ["-c", #"printf 'first\n\033[31mpipe:0: Invalid data\a\n' >&2; exit 3"#], input, 30)
        #expect(result == .finished(status: 3, message: "[31mpipe:0: Invalid data"))
    }

    @Test func onlyOggAudioIsTranscoded() {
        func page(_ packet: [UInt8]) -> [UInt8] {
            Array("OggS".utf8) + [UInt8](repeating: 0, count: 22) + [1, UInt8(packet.count)] + packet
        }
        #expect(AudioTranscoder.oggAudioType(page(Array("OpusHead".utf8) + [1, 1])) == "audio/ogg; codecs=opus")
        #expect(AudioTranscoder.oggAudioType(page([1] + Array("vorbis".utf8))) == "audio/ogg; codecs=vorbis")
        #expect(AudioTranscoder.oggAudioType(page([0x80] + Array("theora".utf8))) == nil)
        #expect(AudioTranscoder.oggAudioType(Array("ID3\u{3}".utf8) + [UInt8](repeating: 0, count: 40)) == nil)
        #expect(AudioTranscoder.oggAudioType(Array("OggS".utf8)) == nil)
    }
}
