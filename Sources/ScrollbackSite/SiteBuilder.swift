import Dispatch
import Foundation
import ScrollbackCache
import ScrollbackLayout
import ScrollbackModel
import ScrollbackReading
import ScrollbackRendering
import ScrollbackSearch
import ScrollbackTemplates

/// The build pipeline: turns an input folder of logs into a site folder.
///
/// The steps, in order (each a method below, timed in `BuildReport.stepDurations`):
/// 1. `checkFolders` — the input exists; the output may be replaced (`OutputFolder`).
/// 2. `discoverInputs` — the logs, sorted (`InputDiscovery`).
/// 3. `readConfig` — `scrollback.yml`, the templates (shipped, with the site's `templates/`
///    overrides) and the settings fingerprint (config, templates, previews, generator); a config
///    error stops the build.
/// 4. `buildConversations` — per log, `Options.jobs` at once: reuse the previous build's pages when the
///    log, its media and the settings are unchanged, else read → lay out → render → write into a
///    private part of the staging folder.
/// 5. `placeConversations` — in input order: refuse duplicate and reserved conversation ids
///    (naming both files), move each conversation's folder into the site.
/// 6. `copyMedia` — every `.local` asset of a published conversation, once per content hash,
///    copied from the input (or linked from the previous output) to `media/<hash>.<ext>`, and the
///    `.m4a` copy of each Ogg voice note beside it (made by `AudioTranscoder` before the pages).
/// 7. `writeIndexAndAssets` — the index (summaries newest first, then by id) and the
///    renderer's static files.
/// 8. `writeSearchIndex` — `search/`: the conversations' search parts merged (`SearchStep`);
///    nothing with `search: false`.
/// 9. `writeManifest` — the cache's `manifest.json`, for the next build.
/// 10. `publish` — move the staged cache out of the staging folder, swap the staging folder in
///    for the output in one rename, then the cache in for the previous one (`CacheFolder`).
///
/// Any thrown error deletes the staging folder and leaves the previous output as it was.
/// A log with errors keeps the pages (and index entry) of the last build that read it without
/// errors, or is left out when there was none; the others are published, and the report's
/// `hasErrors` makes the CLI exit non-zero.
public struct SiteBuilder: Sendable {
    /// The generator's version; part of the settings fingerprint.
    public static let version = "0.1.0"

    /// What to build and how.
    public struct Options: Sendable {
        /// The folder of logs.
        public var input: URL
        /// The site folder to create or replace.
        public var output: URL
        /// Ignore the previous build's cache and rebuild every conversation (`--clean`).
        public var ignoresCache = false
        /// `--cache-dir`: the folder of the build cache; `nil`: the user's cache folder
        /// (`CacheLocation.resolve`). Never inside the output.
        public var cacheDirectory: URL?
        /// The published address (`--base-url`); overrides the config's `baseURL`.
        public var baseURL: String?
        /// `--format`: read exports only as this format (spec §6); `nil` detects each by structure.
        public var format: ExportFormat?
        /// `--me` (repeatable): who "me" is in every conversation a name matches, over the
        /// config's `me:` and a log's own `me` (`MeSetting.overrides`).
        public var me: [String] = []
        /// `--jobs`: how many conversations are read, laid out and rendered at once (and how many
        /// threads decode an export's files); `nil`: one per active processor. The site does not
        /// depend on it.
        public var jobs: Int?
        /// How long a build waits for another build writing to the same output to finish
        /// (`OutputLock`) before it gives up with `SiteBuildError.outputLocked`.
        public var lockWaitSeconds: Double = 30
        /// Whether a build that finds nothing publishes the empty site, with the reason as an
        /// error in its report, instead of failing: `serve` does, so a new folder is previewed
        /// and its first log shows up when it is saved.
        public var publishesEmptySite = false
        /// Called once at the end of a build (also a failed one) with all its diagnostics, sorted by
        /// file, line and column.
        public var onDiagnostics: (@Sendable ([Diagnostic]) -> Void)?
        /// Counts sources, conversations and messages as they are built, for a progress line
        /// (`scrollback build` on a terminal); `nil`: not counted.
        public var progress: BuildProgress?
        /// Which ffmpeg makes the `.m4a` copies of Ogg voice notes (`AudioTranscoder`); by
        /// default `SCROLLBACK_FFMPEG` or `ffmpeg` on `PATH` (tests name one, or none).
        var ffmpeg: AudioTranscoder.Executable = .fromEnvironment
        /// Test seam: runs ffmpeg instead of `AudioTranscoder.processRunner` (tests count the runs).
        var ffmpegRunner: AudioTranscoder.Runner?
        /// Test seam: runs just before the staged site is published; throwing aborts the build.
        var beforePublish: (@Sendable (_ stagingPath: String) throws -> Void)?
        /// Test seam: runs before each named step; throwing there aborts the build, as a
        /// disk-full or permission error would.
        var faultInjection: (@Sendable (_ step: String) throws -> Void)?
        /// Test seam: where highlight.js is installed (`nil`: `HighlightAssets.folder`), so a test
        /// builds with or without it whatever the machine has.
        var highlighterFolder: String?

        /// Options to build `input` into `output`.
        public init(input: URL, output: URL, ignoresCache: Bool = false) {
            self.input = input
            self.output = output
            self.ignoresCache = ignoresCache
        }
    }

    /// What this builder does.
    public var options: Options

    /// Creates a builder.
    public init(options: Options) {
        self.options = options
    }

    /// The pipeline's steps, in order.
    public static let stepNames = [
        "checkFolders", "discoverInputs", "readConfig", "buildConversations", "placeConversations", "copyMedia",
        "writeIndexAndAssets", "writeSearchIndex", "writeManifest", "publish",
    ]

    /// Builds the site; returns the report. Throws `SiteBuildError` when nothing could be published.
    public func build() throws -> BuildReport {
        let start = DispatchTime.now()
        var run = BuildRun(options: options)
        // Released after the staging folder is gone (defers run last first).
        defer { run.lock?.release() }
        defer { run.output.map { $0.discardStaging() } }
        defer { run.cacheFolder?.discardStaging() }
        defer { if run.output != nil { FileSystem.removeTree(run.unpackFolder.path) } }
        // Every diagnostic at once, sorted by file, line and column: the same input prints the
        // same lines in the same order, whichever worker finished first (also when a step throws).
        defer { if !run.report.diagnostics.isEmpty { options.onDiagnostics?(run.report.diagnostics.sorted()) } }
        try run.step("checkFolders") { try $0.checkFolders() }
        try run.step("discoverInputs") { $0.discoverInputs() }
        try run.step("readConfig") { try $0.readConfig() }
        try run.step("buildConversations") { try $0.buildConversations() }
        try run.step("placeConversations") { try $0.placeConversations() }
        try run.step("copyMedia") { try $0.copyMedia() }
        try run.step("writeIndexAndAssets") { try $0.writeIndexAndAssets() }
        try run.step("writeSearchIndex") { try $0.writeSearchIndex() }
        try run.step("writeManifest") { try $0.writeManifest() }
        try run.step("publish") { try $0.publish() }
        run.report.diagnostics.sort()
        run.report.elapsedSeconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        return run.report
    }
}

/// The state of one build as it moves through the steps.
struct BuildRun {
    let options: SiteBuilder.Options
    var report = BuildReport()
    var output: OutputFolder?
    /// The output's lock, held from `checkFolders` to the end of the build.
    var lock: OutputLock?
    /// The build cache (`nil`: none could be used; the build goes on without one).
    var cacheFolder: CacheFolder?
    /// The previous build's site and cache, when its manifest was read.
    var previousTree: BuildTree?
    var inputs: [InputDiscovery.Input] = []
    /// Exports of other apps found under the input (spec §6).
    var exports: [ExportDiscovery.Found] = []
    /// Files under the input that no importer reads and what discovery says about each
    /// (`ExportDiscovery.Findings.unreadFiles`): reported unless a conversation ships it as media.
    var unreadFiles: [(path: String, diagnostic: Diagnostic)] = []
    var config = SiteConfig()
    /// The renderer with the shipped templates and the site's `templates/` overrides, made by
    /// `readConfig` (no placeholder before it: loading the templates is a fifth of an append).
    var renderer: SiteRenderer!
    var settingsFingerprint = ""
    var previousManifest: BuildManifest?
    /// The previous build's manifest even when its settings differ (`nil` for `--clean`): the
    /// pages a log with errors keeps.
    var lastGoodManifest: BuildManifest?
    var outcomes: [ConversationOutcome] = []
    /// The worker that built the conversations (`placeConversations` builds an imported one
    /// again under a derived id).
    var worker: ConversationWorker?
    /// Site paths of the renderer's own files; no conversation may claim their top folder.
    var assetFiles: [RenderedFile] = []
    /// Makes the `.m4a` copies of Ogg voice notes (made by `readConfig`).
    var transcoder: AudioTranscoder?

    init(options: SiteBuilder.Options) {
        self.options = options
    }

    /// Runs one named step and records its duration.
    mutating func step(_ name: String, _ body: (inout BuildRun) throws -> Void) throws {
        let start = DispatchTime.now()
        let startCPU = Self.processCPUSeconds()
        try options.faultInjection?(name)
        try body(&self)
        report.stepDurations.append(
            (
                name, Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9,
                Self.processCPUSeconds() - startCPU
            ))
    }

    /// User and system CPU seconds of the whole process so far.
    private static func processCPUSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The input folder, absolute and symlink-free: discovery, the readers' containment checks
    /// and diagnostics all see the same paths.
    /// A single file given as INPUT is read in its folder (which bounds its media).
    var inputRoot: URL {
        let path = FileSystem.canonicalPath(options.input.path)
        if FileSystem.kind(path) == .file { return URL(fileURLWithPath: PathText.parent(path)) }
        return URL(fileURLWithPath: path)
    }

    /// The INPUT when it is a single file.
    var inputFile: String? {
        let path = FileSystem.canonicalPath(options.input.path)
        return FileSystem.kind(path) == .file ? path : nil
    }

    /// Where zip exports are unpacked for this build: a private sibling of the staging folder
    /// (`.<name>.tmp-<pid>-<n>.unpack`), never inside the site; deleted when the build ends, and by
    /// the next build's sweep of abandoned staging folders when a killed build left it.
    var unpackFolder: URL { URL(fileURLWithPath: staging + ".unpack") }

    /// The path of the staging folder.
    var staging: String { output!.stagingPath }

    /// How many conversations are built at once (`Options.jobs`, at least 1).
    var jobs: Int { max(options.jobs ?? Parallel.defaultJobs, 1) }

    /// Keeps diagnostics for the report (printed, sorted, when the build ends).
    mutating func record(_ diagnostics: [Diagnostic]) {
        report.diagnostics += diagnostics
    }

    /// How a diagnostic names a log: relative to the input folder's parent (`sample-logs/a.json`),
    /// as the readers do.
    func displayPath(_ input: InputDiscovery.Input) -> String {
        PathText.lastComponent(inputRoot.path) + "/" + input.relativePath
    }

    // MARK: Steps

    /// Step 1: the input must be a folder; the output must be safe to replace.
    mutating func checkFolders() throws {
        guard FileSystem.kind(inputRoot.path) == .directory else {
            throw SiteBuildError.inputNotFound(options.input.path)
        }
        let folder = try OutputFolder(output: options.output, input: inputRoot)
        // Before the previous manifest is read: another build may be about to replace it.
        lock = try OutputLock(outputPath: folder.path, wait: options.lockWaitSeconds)
        openCache(outputPath: folder.path)
        lastGoodManifest = previousManifest
        try folder.createStaging()
        output = folder
    }

    /// Opens the build cache (`CacheLocation`) and reads the previous build's manifest from it,
    /// or from the `.scrollback` folder of an output built before the cache moved out (issue 44).
    /// A cache that cannot be used is never a failure: the build is a clean one, and says why.
    mutating func openCache(outputPath: String) {
        let location = CacheLocation.resolve(
            cacheDirectory: options.cacheDirectory, input: options.input, output: URL(fileURLWithPath: outputPath))
        var refusal: CacheRefusal
        do throws(CacheRefusal) {
            guard let location else {
                throw CacheRefusal("no cache folder: neither XDG_CACHE_HOME nor HOME is set (use --cache-dir)")
            }
            // The output is swapped out whole by every build, and holds only the site.
            if location.folder == outputPath || location.folder.hasPrefix(outputPath + "/") {
                throw CacheRefusal("\(location.folder) is inside the output folder, which holds only the site")
            }
            let opened = try CacheFolder(location: location)
            cacheFolder = opened
            refusal = CacheRefusal("--clean")
            if options.ignoresCache { return }
            switch opened.previous(outputPath: outputPath) {
            case .success(let previous):
                previousTree = previous.tree
                previousManifest = previous.manifest
                return
            case .failure(let reason): refusal = reason
            }
        } catch {
            refusal = error
            record([.warning(.other("cannot use the build cache: \(error.reason); building without one"), at: nil)])
            report.summaryNotes.append(
                "built without a cache (\(error.reason)): the next build rebuilds every conversation too")
        }
        if options.ignoresCache { return }
        let legacy = CacheLocation.legacyTree(ofOutput: outputPath)
        if case .success(let manifest) = BuildManifest.load(in: legacy) {
            previousTree = legacy
            previousManifest = manifest
            return
        }
        // A first build into a new folder is clean as a matter of course; say why only otherwise.
        if cacheFolder != nil, !FileSystem.entries(outputPath).isEmpty {
            report.summaryNotes.append(
                "clean build: \(refusal.reason) (cache: \(cacheFolder!.location.folder))")
        }
    }

    /// Step 2: the exports (spec §6) and the logs, sorted; the output folder is never walked
    /// even when inside the input. Files an export claims are not read as logs.
    mutating func discoverInputs() {
        // The cache too, when `--cache-dir` puts it inside the input: its files are no logs.
        let outputURL = URL(fileURLWithPath: output!.path)
        let excluded = [outputURL] + (cacheFolder.map { [URL(fileURLWithPath: $0.location.folder)] } ?? [])
        let found = ExportDiscovery(
            inputRoot: inputFile.map { URL(fileURLWithPath: $0) } ?? inputRoot, format: options.format,
            unpackFolder: unpackFolder, excluding: excluded
        ).findings()
        exports = found.exports
        // A file the last good build published as a log is read as one again, even where
        // discovery would pass it over as an export's side file (a log broken to `{` beside a
        // WhatsApp chat): its error is then reported and its pages kept, never a quiet note.
        let lastGoodLogs = Set(
            Self.entriesByPath(lastGoodManifest).filter { $0.value.export == nil }.keys.map {
                FileSystem.canonicalPath(inputRoot.path + "/" + $0)
            })
        var claimed = found.claimed
        // What is said about a file no importer reads waits for the conversations: a log or an
        // export may attach it (`media/notes.txt`), and then it is media, not a stray file.
        for (index, diagnostic) in found.diagnostics.enumerated() {
            if let path = found.unreadFiles[index] {
                if diagnostic.severity == .note, lastGoodLogs.contains(path) {
                    claimed.remove(path)
                    continue
                }
                unreadFiles.append((path, diagnostic))
            } else {
                record([diagnostic])
            }
        }
        // A claimed folder is an export's (a Slack workspace holds thousands of day files): never walked.
        let claimedFolders = claimed.sorted().map { URL(fileURLWithPath: $0) }
        var logs = InputDiscovery(inputRoot: inputRoot, excluding: excluded + claimedFolders).logs()
        if let inputFile {
            logs = logs.filter { FileSystem.canonicalPath($0.url.path) == inputFile }
        }
        inputs = logs.filter { log in
            let path = FileSystem.canonicalPath(log.url.path)
            return !claimed.contains(path) && !claimed.contains { path.hasPrefix($0 + "/") }
        }
        options.progress?.found(sources: inputs.count + exports.count)
    }

    /// Step 3: the site config, and the fingerprint of everything that affects every page.
    mutating func readConfig() throws {
        var (config, diagnostics) = ConfigReader.read(inputRoot: inputRoot)
        record(diagnostics)
        if diagnostics.contains(where: { $0.severity == .error }) { throw SiteBuildError.invalidConfig }
        if let baseURL = options.baseURL {
            guard let normalized = SiteConfig.normalizedBaseURL(baseURL) else {
                throw SiteBuildError.fileSystem(
                    "invalid base URL '\(baseURL)'; expected an absolute http or https URL such as https://example.com/chats/"
                )
            }
            config.baseURL = normalized
        }
        config.me.overrides = options.me
        self.config = config
        let templates = TemplateLibrary(
            siteTemplatesDirectory: inputRoot.appendingPathComponent("templates").path,
            highlighterFolder: options.highlighterFolder ?? HighlightAssets.folder)
        record(templates.diagnostics)
        // A template that fails to load would print empty pages: publish nothing instead.
        if templates.diagnostics.contains(where: { $0.severity == .error }) { throw SiteBuildError.invalidTemplates }
        renderer = SiteRenderer(config: config, templates: templates)
        let allAssets = renderer.assetFiles()
        let transcoder = AudioTranscoder(
            ffmpeg: AudioTranscoder.locate(options.ffmpeg), siteRoot: BuildTree(staging: staging),
            previousSiteRoot: options.ignoresCache ? nil : previousTree, maximumBytes: config.maxMediaBytes,
            runner: options.ffmpegRunner)
        self.transcoder = transcoder
        settingsFingerprint = SettingsFingerprint.compute(
            inputRoot: inputRoot, generator: SiteBuilder.version,
            shippedTemplates: (try? ShippedTemplates.files()) ?? [],
            highlighter: allAssets.filter { HighlightAssets.sitePaths.contains($0.path) },
            transcodesAudio: transcoder.ffmpeg != nil)
        // The base URL may come from the command line: pages built for another one are not reused.
        settingsFingerprint = ContentFingerprint.hex(of: settingsFingerprint + "\nbaseURL:" + (config.baseURL ?? ""))
        // So may `--me`: pages built with other messages on the right are not reused.
        if !options.me.isEmpty {
            settingsFingerprint = ContentFingerprint.hex(
                of: settingsFingerprint + "\nme:" + options.me.joined(separator: "\u{1F}"))
        }
        if previousManifest?.settingsFingerprint != settingsFingerprint { previousManifest = nil }
        assetFiles = allAssets.filter { config.search || !SearchIndex.isSearchFile($0.path) }
            .sorted { $0.path < $1.path }
    }

    /// Step 4: every log, reused or built, in parallel. Results land in input order.
    mutating func buildConversations() throws {
        try FileSystem.makeDirectory(ConversationWorker.partsRoot(in: staging))
        let worker = ConversationWorker(
            inputRoot: inputRoot, config: config, renderer: renderer, stagingRoot: staging,
            previousOutput: previousTree ?? CacheLocation.legacyTree(ofOutput: output!.path),
            previousEntries: previousEntriesByPath(),
            lastGoodEntries: Self.entriesByPath(lastGoodManifest),
            reservedTopLevelNames: reservedTopLevelNames(), jobs: jobs, transcoder: transcoder,
            faultInjection: options.faultInjection)
        let slots = ConcurrentSlots<ConversationOutcome>(count: inputs.count)
        let inputs = self.inputs
        let displayPaths = inputs.map(displayPath)
        let progress = options.progress
        Parallel.forEach(inputs.count, jobs: jobs) { index in
            let outcome = worker.build(inputs[index], number: index, displayPath: displayPaths[index])
            slots.store(outcome, at: index)
            if let progress {
                if let entry = outcome.entry { progress.builtConversation(messages: entry.summary.messageCount) }
                progress.finishedSource()
            }
        }
        outcomes = slots.values().map { $0! }
        for index in outcomes.indices {
            // A log's ledger is its message count: every message element is on its pages, or the
            // log has an error.
            guard let entry = outcomes[index].entry, !outcomes[index].kept else { continue }
            let count = entry.summary.messageCount
            outcomes[index].source = SourceCount(
                format: Self.isMarkdown(outcomes[index].input) ? "markdown" : "json",
                source: displayPath(outcomes[index].input), conversationID: entry.conversationID,
                ledger: ImportLedger(recordsRead: count, messagesBuilt: count), isImported: false)
        }
        self.worker = worker
        outcomes += importedOutcomes(worker: worker, firstNumber: inputs.count)
        for outcome in outcomes { report.diagnostics += outcome.diagnostics }
        // What discovery said about files no importer reads, now that every conversation's media
        // are known: a file one of them ships is media.
        let attached = Set(
            outcomes.flatMap { $0.entry?.media ?? [] }.map {
                FileSystem.canonicalPath(BuildManifest.absoluteSource($0.sourcePath, inputRoot: inputRoot))
            })
        record(unreadFiles.filter { !attached.contains($0.path) }.map(\.diagnostic))
        // One warning for every one-to-one chat with no `me`, not one per chat (issue 42.4).
        let unresolved = outcomes.compactMap { outcome in
            outcome.entry.flatMap { entry in entry.meChoices.map { (id: entry.conversationID, choices: $0) } }
        }
        if let warning = MeSetting.unresolvedWarning(unresolved) { record([warning]) }
        // A page that could not be written is no fault of the log: publishing the site without
        // that conversation would delete it. The previous site stays as it was.
        if let failure = outcomes.lazy.compactMap(\.writeFailure).first { throw SiteBuildError.fileSystem(failure) }
        // Issue 41.4: an empty site is never published in silence. (Errors were said: a log
        // with errors and no last good pages is left out, and the build fails as it is.)
        if !outcomes.contains(where: { $0.entry != nil }), !report.hasErrors {
            let error = SiteBuildError.nothingToBuild(path: options.input.relativePath, detail: nothingFoundDetail())
            guard options.publishesEmptySite else { throw error }
            record([.error(.other("\(error)"), at: nil)])
        }
    }

    /// What a build that found nothing to build looked at, for its error.
    func nothingFoundDetail() -> String {
        if let inputFile {
            return "'\(PathText.lastComponent(inputFile))' is not a log or an export Scrollback reads"
        }
        var found: [String] = []
        if !inputs.isEmpty {
            found.append(
                "\(inputs.count) file\(inputs.count == 1 ? "" : "s") looked at, none a log (--verbose says why)")
        }
        if !exports.isEmpty {
            let formats = exports.map(\.export.format.rawValue)
            found.append(
                "\(exports.count) export\(exports.count == 1 ? "" : "s") (\(formats.joined(separator: ", "))) "
                    + "with no conversation in \(exports.count == 1 ? "it" : "them")")
        }
        return found.joined(separator: "; ")
    }

    /// Whether `input` is a Markdown log.
    static func isMarkdown(_ input: InputDiscovery.Input) -> Bool { !ConversationWorker.isJSON(input) }

    // MARK: Helpers

    /// The previous build's entries by input path (empty after `--clean` or a settings change).
    func previousEntriesByPath() -> [String: BuildManifest.Entry] {
        Self.entriesByPath(previousManifest)
    }

    /// A manifest's entries by input path.
    static func entriesByPath(_ manifest: BuildManifest?) -> [String: BuildManifest.Entry] {
        var entries: [String: BuildManifest.Entry] = [:]
        for entry in manifest?.entries ?? [] { entries[entry.path] = entry }
        return entries
    }

    /// Top-level names of the site that belong to the site, not to a conversation.
    func reservedTopLevelNames() -> Set<String> {
        Set(
            [
                "index.html", "404.html", "sitemap.xml", "robots.txt", SitePublishing.feedFileName, "media",
                CacheLocation.stagedName,
            ] + (config.search ? [SearchIndex.folder] : [])
                + assetFiles.map { BuildManifest.topLevelName($0.path) })
    }

}
