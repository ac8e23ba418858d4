import Dispatch
import Foundation
import ScrollbackCache
import ScrollbackModel
import ScrollbackReading
import ScrollbackRendering

/// Gives every Ogg voice note (Opus or Vorbis: WhatsApp's `.opus`, Telegram's `.ogg`) a copy in
/// AAC-in-MP4 (`.m4a`), which Safari plays: Safari plays no Ogg at all. The copy is made with
/// `ffmpeg` when the machine has it; the page's `<audio>` then lists both files.
///
/// One job: decide which voice notes are Ogg (from their bytes), run ffmpeg on them, and keep
/// the results in the build cache (`<cache>/audio/<key>.m4a`, the key a fingerprint of the
/// source bytes and the ffmpeg recipe), so the next build links them instead of running it again.
/// Shared by the parallel conversation workers: each voice note is looked at once per build.
///
/// Logs are untrusted, so ffmpeg never sees a name from them: the build opens the file itself
/// (it was resolved inside the input by `MediaResolver`) and hands ffmpeg the open file as its
/// standard input, forced to be read as Ogg; ffmpeg's arguments are an array, never a shell line.
final class AudioTranscoder: @unchecked Sendable {
    /// How ffmpeg ended, as a runner reports it.
    enum RunResult: Sendable, Equatable {
        /// It exited with `status`; `message` is the end of what it wrote on standard error.
        case finished(status: Int32, message: String)
        /// It ran past the time limit and was killed.
        case timedOut
        /// It could not be started.
        case notStarted(String)
    }

    /// Runs `executable` with `arguments`, `input` as its standard input, for at most `timeout`
    /// seconds (a test seam: tests count the runs).
    typealias Runner =
        @Sendable (_ executable: String, _ arguments: [String], _ input: FileHandle, _ timeout: Double) -> RunResult

    /// Which ffmpeg a build uses.
    enum Executable: Sendable, Equatable {
        /// `SCROLLBACK_FFMPEG` when set (empty: none), else `ffmpeg` on `PATH`.
        case fromEnvironment
        /// This one.
        case path(String)
        /// None: voice notes are published as they are.
        case none
    }

    /// What one Ogg voice note got.
    struct Outcome: Sendable, Equatable {
        /// The original's MIME type with its codec (`audio/ogg; codecs=opus`).
        var audioType: String
        /// The cache key of its `.m4a`, when there is one.
        var key: String?
        /// Why there is none although ffmpeg is there.
        var failure: String?
    }

    /// A conversation's Ogg voice notes: what its pages and its manifest entry need.
    struct Prepared: Sendable {
        /// The voice notes with a copy, by the original's site path (for the renderer).
        var alternatives: [String: AudioAlternative] = [:]
        /// Every Ogg voice note, by site path.
        var outcomes: [String: Outcome] = [:]
        /// A warning per voice note ffmpeg failed on, at its message.
        var warnings: [Diagnostic] = []

        /// `media` with each Ogg voice note's type and copy noted (`copyMedia` publishes the copies).
        func annotated(_ media: [BuildManifest.Media]) -> [BuildManifest.Media] {
            media.map { record in
                guard let outcome = outcomes[record.sitePath] else { return record }
                var record = record
                record.audioType = outcome.audioType
                record.transcoded = outcome.key
                return record
            }
        }
    }

    /// The environment variable naming the ffmpeg to use; set and empty, no ffmpeg is used.
    static let environmentVariable = "SCROLLBACK_FFMPEG"
    /// The cache's folder inside the build cache.
    static let cacheSubfolder = "audio"
    /// How long one file may take before ffmpeg is killed (a voice note takes well under a second).
    static let defaultTimeoutSeconds = 60.0

    /// The ffmpeg in use; `nil`: none (the voice notes are still found, for the build's note).
    let ffmpeg: String?
    /// Where this build keeps its copies (inside the staging folder's cache).
    let cacheFolder: String
    /// The previous build's copies (`nil` with `--clean`).
    let previousCacheFolder: String?
    /// The largest file handed to ffmpeg (config `maxMediaBytes`).
    let maximumBytes: Int64
    let timeoutSeconds: Double
    let runner: Runner

    /// A voice note being looked at, or done (`nil`: not an Ogg voice note).
    private enum State {
        case running
        case done(Outcome?)
    }

    private let condition = NSCondition()
    /// Per site path: two conversations sharing a file wait for one run.
    private var states: [String: State] = [:]

    /// A transcoder whose copies go to the cache of the build `siteRoot` (the staging folder),
    /// reusing those of `previousSiteRoot`.
    init(
        ffmpeg: String?, siteRoot: BuildTree, previousSiteRoot: BuildTree?, maximumBytes: Int64,
        timeoutSeconds: Double = AudioTranscoder.defaultTimeoutSeconds, runner: Runner? = nil
    ) {
        self.ffmpeg = ffmpeg
        self.cacheFolder = Self.cacheFolder(in: siteRoot)
        self.previousCacheFolder = previousSiteRoot.map(Self.cacheFolder(in:))
        self.maximumBytes = maximumBytes
        self.timeoutSeconds = timeoutSeconds
        self.runner = runner ?? Self.processRunner
    }

    /// The copies' folder in the cache of the build `siteRoot`.
    static func cacheFolder(in siteRoot: BuildTree) -> String {
        siteRoot.cache + "/" + cacheSubfolder
    }

    /// The cached copy of key `key` in the cache of the build `siteRoot`.
    static func cachedCopy(key: String, in siteRoot: BuildTree) -> String {
        cacheFolder(in: siteRoot) + "/" + key + ".m4a"
    }

    /// Where the copy of the voice note at site path `sitePath` is published: beside it, with
    /// the extension `.m4a` (`media/<hash>.ogg` → `media/<hash>.m4a`).
    static func copySitePath(of sitePath: String) -> String {
        PathText.deletingExtension(sitePath) + ".m4a"
    }

    /// The ffmpeg `executable` names: `SCROLLBACK_FFMPEG` (empty: none) or `ffmpeg` on `PATH`;
    /// `nil` when there is none that can be run.
    static func locate(
        _ executable: Executable, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        func runnable(_ path: String) -> Bool { FileSystem.kind(path) == .file && access(path, X_OK) == 0 }
        switch executable {
        case .none: return nil
        case .path(let path): return runnable(path) ? path : nil
        case .fromEnvironment:
            if let named = environment[environmentVariable] { return named.isEmpty || !runnable(named) ? nil : named }
            for folder in (environment["PATH"] ?? "").split(separator: ":") where folder.hasPrefix("/") {
                let candidate = String(folder) + "/ffmpeg"
                if runnable(candidate) { return candidate }
            }
            return nil
        }
    }

    /// ffmpeg's arguments, writing to `output`. The input is standard input read as Ogg, so
    /// nothing from a log is an argument; `bitexact` and no metadata make the same input give the
    /// same bytes (no encoder version or creation time in the file), so the site stays deterministic.
    static func arguments(output: String) -> [String] {
        [
            "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "ogg", "-i", "pipe:0", "-vn", "-c:a", "aac",
            "-b:a", "64k", "-map_metadata", "-1", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-f", "mp4",
            "file:" + output,
        ]
    }

    /// The MIME type (with codec) of an Ogg stream whose first page holds an audio codec's
    /// header, from the file's first bytes `head`; `nil` for anything else (Theora video, not Ogg).
    static func oggAudioType(_ head: [UInt8]) -> String? {
        // An Ogg page: "OggS", 22 bytes of header, the segment count at 26, the segment table,
        // then the first packet, which names the codec.
        guard head.count > 27, head.starts(with: Array("OggS".utf8)) else { return nil }
        let packet = head.dropFirst(27 + Int(head[26]))
        let codecs: [(magic: [UInt8], codec: String)] = [
            (Array("OpusHead".utf8), "opus"), ([1] + Array("vorbis".utf8), "vorbis"),
            (Array("Speex   ".utf8), "speex"), ([0x7F] + Array("FLAC".utf8), "flac"),
        ]
        guard let codec = codecs.first(where: { packet.starts(with: $0.magic) })?.codec else { return nil }
        return "audio/ogg; codecs=" + codec
    }

    /// The Ogg voice notes of `conversation` (its audio messages' local files), each made a copy
    /// of when ffmpeg is there and the cache does not already hold it.
    func prepare(_ conversation: Conversation) -> Prepared {
        var prepared = Prepared()
        for index in conversation.messages.indices {
            guard case .audio(let media) = conversation.messages[index].kind, case .local(let asset) = media.source,
                prepared.outcomes[asset.sitePath] == nil, let outcome = outcome(for: asset)
            else { continue }
            prepared.outcomes[asset.sitePath] = outcome
            if outcome.key != nil {
                prepared.alternatives[asset.sitePath] = AudioAlternative(
                    originalType: outcome.audioType, sitePath: Self.copySitePath(of: asset.sitePath))
            }
            if let failure = outcome.failure {
                prepared.warnings.append(
                    .warning(
                        .other(
                            "voice note '\(PathText.lastComponent(asset.sourcePath))' has no copy Safari can play: "
                                + "\(failure); the original is published (other browsers play it)"),
                        at: conversation.messages[index].location))
            }
        }
        return prepared
    }

    /// The outcome for `asset`, made once per build whichever conversations share it.
    func outcome(for asset: LocalAsset) -> Outcome? {
        condition.lock()
        while let state = states[asset.sitePath] {
            if case .done(let outcome) = state {
                condition.unlock()
                return outcome
            }
            condition.wait()
        }
        states[asset.sitePath] = .running
        condition.unlock()
        let outcome = make(asset)
        condition.lock()
        states[asset.sitePath] = .done(outcome)
        condition.broadcast()
        condition.unlock()
        return outcome
    }

    /// Looks at `asset`'s bytes and, for an Ogg voice note, finds or makes its copy.
    private func make(_ asset: LocalAsset) -> Outcome? {
        // A file gone since it was read is reported by `copyMedia`.
        guard let file = FileHandle(forReadingAtPath: asset.sourcePath) else { return nil }
        defer { try? file.close() }
        guard let head = try? file.read(upToCount: 512), let type = Self.oggAudioType(Array(head)) else { return nil }
        var outcome = Outcome(audioType: type)
        guard let ffmpeg else { return outcome }
        // The reader refused larger files; this one may have grown since.
        guard let size = try? file.seekToEnd() else {
            outcome.failure = "it cannot be read"
            return outcome
        }
        guard size <= maximumBytes else {
            outcome.failure = "it is over the limit of \(maximumBytes) bytes (config 'maxMediaBytes')"
            return outcome
        }
        // The site path is already named by the bytes' hash (`MediaResolver`): the key needs no
        // second read of the file.
        let key = ContentFingerprint.hex(
            of: Self.arguments(output: "").joined(separator: " ") + "\n" + asset.sitePath)
        let cached = cacheFolder + "/" + key + ".m4a"
        if FileSystem.kind(cached) == .file {
            outcome.key = key
            return outcome
        }
        do {
            try FileSystem.makeDirectory(cacheFolder)
            if let previousCacheFolder, try FileSystem.linkOrCopy(previousCacheFolder + "/" + key + ".m4a", to: cached)
            {
                outcome.key = key
                return outcome
            }
        } catch {
            outcome.failure = "the cache cannot be written (\(error))"
            return outcome
        }
        // ffmpeg writes beside the cache entry, which appears only once it is whole.
        let partial = cacheFolder + "/.partial-" + key + ".m4a"
        defer { FileSystem.removeTree(partial) }
        guard (try? file.seek(toOffset: 0)) != nil else {
            outcome.failure = "it cannot be read"
            return outcome
        }
        switch runner(ffmpeg, Self.arguments(output: partial), file, timeoutSeconds) {
        case .finished(0, _) where Self.isMP4(partial):
            do {
                try FileSystem.move(partial, to: cached)
                outcome.key = key
            } catch {
                outcome.failure = "the cache cannot be written (\(error))"
            }
        case .finished(0, _): outcome.failure = "ffmpeg wrote no MP4 file"
        case .finished(let status, let message):
            outcome.failure = "ffmpeg failed (exit status \(status))" + (message.isEmpty ? "" : ": " + message)
        case .timedOut: outcome.failure = "ffmpeg took over \(Int(timeoutSeconds)) s and was stopped"
        case .notStarted(let reason): outcome.failure = "ffmpeg could not be started (\(reason))"
        }
        return outcome
    }

    /// Whether the file at `path` starts with an MP4 `ftyp` box.
    static func isMP4(_ path: String) -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        guard let head = try? file.read(upToCount: 8), head.count == 8 else { return false }
        return Array(head[4..<8]) == Array("ftyp".utf8)
    }

    /// The ffmpeg process: standard output discarded, the end of standard error kept for the
    /// warning, killed when it runs past `timeout`.
    static let processRunner: Runner = { executable, arguments, input, timeout in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        // Drained as it comes (a full pipe would stall ffmpeg), keeping only the end.
        let tail = ErrorTail()
        let drained = DispatchSemaphore(value: 0)
        do {
            try process.run()
        } catch {
            return .notStarted("\(error)")
        }
        DispatchQueue.global().async {
            let reader = errors.fileHandleForReading
            while let chunk = try? reader.read(upToCount: 4096), !chunk.isEmpty { tail.append(chunk) }
            drained.signal()
        }
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
            drained.wait()
            return .timedOut
        }
        drained.wait()
        return .finished(status: process.terminationStatus, message: tail.lastLine)
    }

    /// The last kilobyte ffmpeg wrote on standard error.
    private final class ErrorTail: @unchecked Sendable {
        private var bytes: [UInt8] = []
        private let lock = NSLock()

        func append(_ data: Data) {
            lock.lock()
            defer { lock.unlock() }
            bytes += data
            if bytes.count > 1024 { bytes.removeFirst(bytes.count - 1024) }
        }

        /// Its last non-empty line, without control characters (it is printed on a terminal).
        var lastLine: String {
            lock.lock()
            defer { lock.unlock() }
            let text = String(decoding: bytes, as: UTF8.self)
            let line = text.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
            return String(
                String.UnicodeScalarView(line.unicodeScalars.filter { $0.properties.generalCategory != .control }))
        }
    }
}
