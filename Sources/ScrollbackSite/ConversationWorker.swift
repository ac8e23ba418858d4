import Foundation
import ScrollbackCache
import ScrollbackLayout
import ScrollbackModel
import ScrollbackReading
import ScrollbackRendering
import ScrollbackSearch

/// Builds one log into its own part of the staging folder: reusing the previous build's files
/// when nothing it depends on changed, else reading, laying out and rendering it.
///
/// Shared by the parallel workers; everything here is immutable.
struct ConversationWorker: Sendable {
    let inputRoot: URL
    let config: SiteConfig
    /// `parts` in the staging folder's cache: each log writes under `parts/<number>/`.
    let partsRoot: String
    /// The staging folder itself, where a reused log's files are linked straight away (see `reuse`).
    let stagingRoot: String
    /// The conversation ids that more than one of `previousEntries` has (none, unless the
    /// manifest was edited): those logs are not linked straight into the staging folder.
    let sharedPreviousIDs: Set<String>
    /// The previous build (the current output and its cache), whose files a reused log links from.
    let previousOutput: BuildTree
    /// The previous build's entries by input path; empty for a clean build.
    let previousEntries: [String: BuildManifest.Entry]
    /// The previous build's entries by input path even when the settings changed since (empty
    /// for `--clean`): a log that now has errors keeps these pages (`keepLastGood`).
    let lastGoodEntries: [String: BuildManifest.Entry]
    /// Top-level names the site keeps for itself.
    let reservedTopLevelNames: Set<String>
    let reader: LogReader
    let layouter: ConversationLayouter
    let renderer: SiteRenderer
    /// The build's threads (`--jobs`): a large log is read, and a long conversation's pages are
    /// rendered and indexed, on the idle ones too.
    let threads: ThreadBudget
    /// Finds the Ogg voice notes and makes their `.m4a` copies (`nil`: none are looked for).
    let transcoder: AudioTranscoder?
    /// Test seam (`SiteBuilder.Options.faultInjection`): runs before each page is written, with
    /// `write <site path>`; throwing there is a failed write, as a full disk would give.
    var faultInjection: (@Sendable (_ step: String) throws -> Void)?

    /// `parts` in the staging folder's cache.
    static func partsRoot(in stagingRoot: String) -> String {
        BuildTree(staging: stagingRoot).cache + "/parts"
    }

    init(
        inputRoot: URL, config: SiteConfig, renderer: SiteRenderer, stagingRoot: String, previousOutput: BuildTree,
        previousEntries: [String: BuildManifest.Entry], lastGoodEntries: [String: BuildManifest.Entry] = [:],
        reservedTopLevelNames: Set<String>, jobs: Int = 1, transcoder: AudioTranscoder? = nil,
        faultInjection: (@Sendable (_ step: String) throws -> Void)? = nil
    ) {
        self.faultInjection = faultInjection
        self.transcoder = transcoder
        self.threads = ThreadBudget(jobs: jobs)
        self.inputRoot = inputRoot
        self.config = config
        self.stagingRoot = stagingRoot
        self.partsRoot = Self.partsRoot(in: stagingRoot)
        self.sharedPreviousIDs = Set(
            Dictionary(grouping: previousEntries.values, by: \.conversationID).filter { $0.value.count > 1 }.keys)
        self.previousOutput = previousOutput
        self.previousEntries = previousEntries
        self.lastGoodEntries = lastGoodEntries
        self.reservedTopLevelNames = reservedTopLevelNames
        self.reader = LogReader(inputRoot: inputRoot, config: config)
        self.layouter = ConversationLayouter(options: config.layout, pageSize: config.pageSize)
        self.renderer = renderer
    }

    /// Builds `input` (the `number`-th log) and says what happened. A log with errors keeps the
    /// pages of the last build that read it without errors, when there is one.
    func build(_ input: InputDiscovery.Input, number: Int, displayPath: String) -> ConversationOutcome {
        var outcome = threads.working { buildAnew(input, number: number, displayPath: displayPath) }
        // A Markdown log that lost its front matter (a deleted `---`) is a mistake, not a README:
        // it was published last time.
        if outcome.entry == nil, lastGoodEntries[input.relativePath] != nil {
            outcome.diagnostics = outcome.diagnostics.map { diagnostic in
                guard diagnostic.severity == .note, case .notALog = diagnostic.problem else { return diagnostic }
                return Diagnostic(.error, diagnostic.problem, at: diagnostic.location)
            }
        }
        guard outcome.entry == nil, outcome.diagnostics.contains(where: { $0.severity == .error }),
            let lastGood = lastGoodEntries[input.relativePath],
            let kept = keepLastGood(lastGood, input: input, into: outcome.partsFolder)
        else { return outcome }
        outcome.entry = kept
        outcome.kept = true
        outcome.diagnostics.append(
            .warning(
                .keptPreviousPages(conversationID: kept.conversationID),
                at: SourceLocation(file: displayPath, line: 1, column: 1)))
        return outcome
    }

    /// Links the last good build's files of a log that now has errors into `parts`, so the
    /// conversation stays in the site and the index (one typo never unpublishes an archive);
    /// `nil` when those files are gone. Unlike `reuse`, changed media do not matter: the site's
    /// media paths are content hashes, and `copyMedia` links them from the previous output.
    ///
    /// The entry keeps the old log's size and fingerprint, so the next build reads the log again
    /// (and fails again, or builds it once fixed) and the same bytes restored are reused. Pages
    /// made with other settings must never be reused as current ones: their entry gets a size
    /// and fingerprint no file has, and no append checkpoint.
    func keepLastGood(
        _ lastGood: BuildManifest.Entry, input: InputDiscovery.Input, into parts: String
    ) -> BuildManifest.Entry? {
        FileSystem.removeTree(parts)
        var entry = lastGood
        let settingsUnchanged = previousEntries[input.relativePath] == lastGood
        if !settingsUnchanged {
            entry.size = -1
            entry.contentHash = ""
            entry.checkpoint = nil
            entry.checkpointBlocks = nil
        }
        var folder = StagedFolder(root: parts)
        let files = entry.files + entry.cachedFiles
        guard (try? folder.link(files, from: previousOutput)) == true else {
            FileSystem.removeTree(parts)
            return nil
        }
        return entry
    }

    /// Builds `input` from its bytes, or reuses its previous files when nothing changed.
    private func buildAnew(_ input: InputDiscovery.Input, number: Int, displayPath: String) -> ConversationOutcome {
        let parts = partsRoot + "/\(number)"
        var outcome = ConversationOutcome(input: input, entry: nil, diagnostics: [], reused: false, partsFolder: parts)
        let location = SourceLocation(file: displayPath, line: 1, column: 1)
        guard let stamp = FileSystem.stamp(input.url.path) else {
            outcome.diagnostics = [.error(.fileSystem("cannot read file"), at: location)]
            return outcome
        }
        if let tooLarge = LogReader.sizeProblem(size: stamp.size, limit: config.maxLogBytes) {
            outcome.diagnostics = [.error(tooLarge, at: location)]
            return outcome
        }
        // The log's bytes, read at most once: for its fingerprint and the read.
        var bytes: [UInt8]?
        var contentHash: String?
        if let previous = previousEntries[input.relativePath] {
            if stamp.size == previous.size {
                if stamp.modifiedNanoseconds != previous.modifiedNanoseconds {
                    bytes = LogReader.contents(ofFile: input.url.path)
                    contentHash = bytes.map { ContentFingerprint.hex(of: $0[...]) }
                }
                if contentHash == nil || contentHash == previous.contentHash {
                    guard let (entry, stagedDirectly) = reuse(previous, stamp: stamp, into: parts) else {
                        return buildWhole(
                            input, bytes: bytes, contentHash: contentHash, stamp: stamp, displayPath: displayPath,
                            outcome: outcome, reason: .previousPagesUnusable)
                    }
                    outcome.entry = entry
                    outcome.reused = true
                    outcome.stagedDirectly = stagedDirectly
                    outcome.diagnostics = entry.warnings.map(\.diagnostic)
                    return outcome
                }
            }
        }
        var reason = RebuildReason.logChanged
        // A log that grew may only have gained messages: the append path reads just what it needs.
        if let previous = previousEntries[input.relativePath] {
            if stamp.size > previous.size {
                switch appendFast(input, previous: previous, stamp: stamp, into: parts) {
                case .appended(let entry, let searchChange):
                    outcome.entry = entry
                    outcome.appended = true
                    outcome.searchChange = searchChange
                    outcome.diagnostics = entry.warnings.map(\.diagnostic)
                    return outcome
                case .fallback(let fallback):
                    reason = .append(fallback)
                }
            }
        } else {
            // The last good entries outlive a change of settings; the previous entries do not.
            reason = lastGoodEntries[input.relativePath] == nil ? .noPreviousBuild : .settingsChanged
        }
        return buildWhole(
            input, bytes: bytes, contentHash: contentHash, stamp: stamp, displayPath: displayPath, outcome: outcome,
            reason: reason)
    }

    /// Builds `input` from all of its bytes (read now unless `bytes` holds them), for `reason`.
    private func buildWhole(
        _ input: InputDiscovery.Input, bytes: [UInt8]?, contentHash: String?, stamp: FileSystem.Stamp,
        displayPath: String, outcome: ConversationOutcome, reason: RebuildReason
    ) -> ConversationOutcome {
        var outcome = outcome
        outcome.rebuildReason = reason
        let parts = outcome.partsFolder
        let location = SourceLocation(file: displayPath, line: 1, column: 1)
        guard let bytes = bytes ?? LogReader.contents(ofFile: input.url.path) else {
            outcome.diagnostics = [.error(.fileSystem("cannot read file"), at: location)]
            return outcome
        }
        do {
            let (entry, diagnostics) = try render(
                input, bytes: bytes, stamp: stamp, contentHash: contentHash ?? ContentFingerprint.hex(of: bytes[...]),
                into: parts)
            outcome.entry = entry
            outcome.diagnostics = diagnostics
        } catch {
            // The output side failed (a full disk, permissions), not the log: the whole build
            // stops, so the previous site keeps this conversation (`SiteBuilder` checks this).
            FileSystem.removeTree(parts)
            outcome.entry = nil
            outcome.writeFailure = "cannot write the pages of \(displayPath): \(error)"
        }
        return outcome
    }

    /// Links the previous build's files into the staging folder, if the media are unchanged and
    /// every file is still there; `nil` means "build it again". The files go straight to their
    /// place (`stagedDirectly`): the id is the previous build's, which no other previous log
    /// had, so nothing else links there, and `placeConversations` only has to take them out
    /// again if a log before this one now claims the id. Going through `parts` instead cost
    /// seven folders made, four removed and five renames per conversation, a tenth of an append.
    private func reuse(
        _ previous: BuildManifest.Entry, stamp: FileSystem.Stamp, into parts: String
    ) -> (entry: BuildManifest.Entry, stagedDirectly: Bool)? {
        for media in previous.media {
            guard
                FileSystem.stamp(BuildManifest.absoluteSource(media.sourcePath, inputRoot: inputRoot))
                    == FileSystem.Stamp(size: media.size, modifiedNanoseconds: media.modifiedNanoseconds)
            else { return nil }
        }
        let direct = !sharedPreviousIDs.contains(previous.conversationID)
        let root = direct ? stagingRoot : parts
        var folder = StagedFolder(root: root)
        let files = previous.files + previous.cachedFiles
        guard (try? folder.link(files, from: previousOutput)) == true else {
            if direct { Self.removeStaged(previous, from: stagingRoot) } else { FileSystem.removeTree(parts) }
            return nil
        }
        var entry = previous
        entry.modifiedNanoseconds = stamp.modifiedNanoseconds
        return (entry, direct)
    }

    /// Deletes the files of `entry` from `root`, where they were linked straight away.
    static func removeStaged(_ entry: BuildManifest.Entry, from root: String) {
        for unit in entry.placementUnits { FileSystem.removeTree(root + "/" + unit) }
    }

    /// Reads, lays out and renders the log, writing its files into `parts`.
    ///
    /// A JSON log's read also gives where its messages are written: that becomes the log's
    /// append checkpoint (`AppendCheckpoint`), for the next build's fast path. (A Markdown log
    /// has none: its messages are not separate byte ranges, so it always takes this path.)
    private func render(
        _ input: InputDiscovery.Input, bytes: [UInt8], stamp: FileSystem.Stamp, contentHash: String,
        into parts: String
    ) throws -> (BuildManifest.Entry?, [Diagnostic]) {
        // With a thread idle, a large log's later messages are read on it.
        let read = reader.read(
            contents: bytes, of: input.url, tracingMessages: Self.isJSON(input), threads: threads.available)
        var diagnostics = read.diagnostics
        guard let readConversation = read.conversation, !diagnostics.contains(where: { $0.severity == .error })
        else {
            return (nil, diagnostics)
        }
        // A log's own `me` wins over the config; `--me` wins over both.
        let conversation = config.me.applied(to: readConversation, keepsOwn: true)
        guard
            let (rendered, plan) = try renderModel(
                conversation, relativePath: input.relativePath, stamp: stamp, contentHash: contentHash, into: parts,
                diagnostics: &diagnostics)
        else { return (nil, diagnostics) }
        var entry = rendered
        var folder = StagedFolder(root: parts)
        if let trace = read.messageTrace, let checkpoint = Self.checkpoint(of: bytes, trace: trace, plan: plan) {
            try checkpoint.write(conversationID: conversation.id, into: &folder)
            entry.checkpoint = AppendCheckpoint.relativePath(conversationID: conversation.id)
            entry.checkpointBlocks = checkpoint.blockCount
        }
        return (entry, diagnostics)
    }

    /// How many pages one thread renders at a time of a long conversation.
    static let pagesPerRenderRun = 64

    /// The runs of pages `renderModel` renders one by one, or several at once.
    static func renderRuns(pageCount: Int) -> [Range<Int>] {
        stride(from: 0, to: max(pageCount, 1), by: pagesPerRenderRun).map {
            $0..<min($0 + pagesPerRenderRun, pageCount)
        }
    }

    /// Lays out and renders a conversation of the model into `parts`: the part of `render` that
    /// native logs and imported exports share. `nil` when rendering reported an error.
    func renderModel(
        _ conversation: Conversation, relativePath: String, stamp: FileSystem.Stamp, contentHash: String,
        into parts: String, diagnostics: inout [Diagnostic]
    ) throws -> (BuildManifest.Entry, ConversationPlan)? {
        let plan = layouter.plan(conversation)
        var folder = StagedFolder(root: parts)
        var files: [String] = []
        // Before the pages: a voice note's player lists its `.m4a` copy only when there is one.
        let audio = transcoder?.prepare(conversation) ?? AudioTranscoder.Prepared()
        diagnostics += audio.warnings
        // The pages in runs of `pagesPerRenderRun`: a long conversation's runs are rendered at
        // once on the build's idle threads (when it is the only one being built, or the last).
        // The runs depend on the page count only, and their files and warnings are taken back in
        // run order, so the result does not depend on the threads.
        let runs = Self.renderRuns(pageCount: plan.pageCount)
        // The plan's messages are the timeline's (thread replies are in their threads' plans).
        let anchor = { (index: Int) in plan.anchors.anchor(plan.conversation.messages.readInPlace(index) { $0.id }) }
        typealias RenderedRun = (files: [String], warnings: [Diagnostic], hasCode: Bool)
        let rendered = ConcurrentSlots<Result<RenderedRun, any Error>>(count: runs.count)
        let search = SearchPartStream(
            SearchPart(conversationID: conversation.id, title: plan.summary.title), folder: folder,
            writesPages: config.search)
        Parallel.forEach(runs.count, jobs: threads.available) { run in
            var runFolder = folder
            var runFiles: [String] = []
            let result = Result { () throws -> RenderedRun in
                // One page at a time: a large conversation's rows and pages are never all in
                // memory. Each page's bytes go to its file straight from the renderer's buffer.
                let rendering = try renderer.renderConversation(
                    plan, pages: runs[run], audioAlternatives: audio.alternatives
                ) { path, bytes in
                    try faultInjection?("write " + path)
                    try runFolder.writeRendered(bytes, at: path)
                    runFiles.append(path)
                }
                // The run's share of the search index and the date list, while its pages are fresh.
                search.add(
                    SearchPart.Run(
                        plan, pages: runs[run], anchor: anchor, sender: SearchStep.sender,
                        tokenizesText: config.search),
                    number: run)
                return (runFiles, rendering.diagnostics, rendering.hasCode)
            }
            rendered.store(result, at: run)
        }
        var hasCode = false
        for number in runs.indices {
            let (runFiles, warnings, runHasCode) = try rendered.take(number)!.get()
            files += runFiles
            diagnostics += warnings
            hasCode = hasCode || runHasCode
        }
        let (part, newest) = try search.finish()
        let dateList = renderDateList(of: part, newest: newest, locale: plan.options.locale)
        try folder.write(dateList.contents, at: dateList.path)
        files.append(dateList.path)
        let searchFiles = try writeSearchPart(part, into: &folder)
        // Rendering reports warnings only, so nothing written above needs undoing here.
        if diagnostics.contains(where: { $0.severity == .error }) { return nil }
        if let baseURL = config.baseURL {
            let feed = SitePublishing.conversationFeed(conversation, config: config, baseURL: baseURL)
            let path = conversation.id + "/" + SitePublishing.feedFileName
            try folder.write(Array(feed.utf8), at: path)
            files.append(path)
        }
        let media = audio.annotated(BuildManifest.media(of: conversation.localAssets, inputRoot: inputRoot))
        let entry = BuildManifest.Entry(
            path: relativePath, size: stamp.size, modifiedNanoseconds: stamp.modifiedNanoseconds,
            contentHash: contentHash, conversationID: conversation.id,
            summary: BuildManifest.Summary(plan.summary),
            lastMessageDate: conversation.messages.map(\.date).max()?.timeIntervalSince1970,
            pageCount: plan.pageCount, pageDays: plan.pageDays,
            files: files.sorted(), media: media.sorted { $0.sitePath < $1.sitePath },
            warnings: diagnostics.sorted().map(BuildManifest.StoredDiagnostic.init),
            meChoices: MeSetting.choices(for: conversation), searchPart: searchFiles.path,
            searchPageCount: searchFiles.pageCount, hasCode: hasCode ? true : nil)
        return (entry, plan)
    }

    /// Lays out and renders one conversation an importer read (`number`: its parts folder),
    /// under `relativePath` in the manifest (`import:` and where it comes from). Like a log, a
    /// conversation with errors keeps the pages of the last build that read it without errors.
    func build(imported: ImportedConversation, number: Int, relativePath: String) -> ConversationOutcome {
        var outcome = threads.working { buildAnew(imported: imported, number: number, relativePath: relativePath) }
        let location = SourceLocation(file: imported.sourceFiles.first ?? imported.key, line: 1, column: 1)
        // Loss is structural (issue 41): a record neither built nor left out with a reason is a
        // reader's bug, reported as one, never a silent gap.
        let ledger = imported.ledger
        if ledger.unexplained != 0 {
            let source = imported.sourceFiles.first ?? imported.key
            outcome.diagnostics.append(
                .error(
                    .other(
                        ledger.unexplained > 0
                            ? "\(ledger.unexplained) records of \(source) were neither built nor left out with a "
                                + "reason: a bug; expected every record read to be a message or left out"
                            : "the records of \(source) do not add up (\(ledger.recordsRead) read, "
                                + "\(ledger.messagesBuilt) built, \(ledger.leftOut.count) left out): a bug; expected "
                                + "every record read to be counted once"), at: location))
        }
        guard outcome.entry == nil, outcome.diagnostics.contains(where: { $0.severity == .error }),
            let lastGood = lastGoodEntries[relativePath],
            let kept = keepLastGood(lastGood, input: outcome.input, into: outcome.partsFolder)
        else { return outcome }
        outcome.entry = kept
        outcome.kept = true
        outcome.diagnostics.append(.warning(.keptPreviousPages(conversationID: kept.conversationID), at: location))
        return outcome
    }

    /// `build(imported:number:relativePath:)` while the conversation counts as one of the busy threads.
    private func buildAnew(imported: ImportedConversation, number: Int, relativePath: String) -> ConversationOutcome {
        let parts = partsRoot + "/\(number)"
        let input = InputDiscovery.Input(
            relativePath: relativePath, url: URL(fileURLWithPath: imported.sourceFiles.first ?? imported.key))
        var outcome = ConversationOutcome(
            input: input, entry: nil, diagnostics: imported.diagnostics, reused: false, partsFolder: parts)
        outcome.importCount = imported.countLine
        // An importer's `me` is detected, not written by hand: the config's `me` wins over it.
        guard let conversation = imported.conversation.map({ config.me.applied(to: $0, keepsOwn: false) }) else {
            return outcome
        }
        do {
            var diagnostics = imported.diagnostics
            let entry = try renderModel(
                conversation, relativePath: relativePath, stamp: FileSystem.Stamp(size: 0, modifiedNanoseconds: 0),
                contentHash: "", into: parts, diagnostics: &diagnostics)
            outcome.entry = entry?.0
            outcome.diagnostics = diagnostics
        } catch {
            FileSystem.removeTree(parts)
            outcome.diagnostics.append(
                .error(
                    .fileSystem("cannot write the pages: \(error)"),
                    at: SourceLocation(file: imported.sourceFiles.first ?? imported.key, line: 1, column: 1)))
        }
        return outcome
    }

    /// Whether the log is read as JSON (everything but Markdown, as `LogReader` decides).
    static func isJSON(_ input: InputDiscovery.Input) -> Bool {
        let fileExtension = input.url.pathExtension.lowercased()
        return fileExtension != "md" && fileExtension != "markdown"
    }

    /// The checkpoint of a log read in full: `bytes`, where its messages are (`trace`) and its plan.
    static func checkpoint(of bytes: [UInt8], trace: JSONMessageTrace, plan: ConversationPlan) -> AppendCheckpoint? {
        let messages = plan.conversation.messages
        let count = messages.count
        // Threads and pins (spec §1.1) reach back: a new reply changes its root's page, a new pin
        // every page's header. Such logs always take the full path (no checkpoint).
        guard !Self.reachesBack(messages) else { return nil }
        guard count > 0, trace.elementRanges.count == count, count < Int(UInt32.max),
            trace.elementRanges.allSatisfy({ $0.count < Int(UInt32.max) })
        else { return nil }
        var fileIndexOfSorted = Array(0..<count)
        if let positions = trace.sortedPositions {
            for (fileIndex, position) in positions.enumerated() { fileIndexOfSorted[position] = fileIndex }
        }
        var records: [AppendCheckpoint.Record] = []
        records.reserveCapacity(count)
        var idsAreOwnAnchors = true
        for fileIndex in 0..<count {
            let position = trace.sortedPositions?[fileIndex] ?? fileIndex
            let range = trace.elementRanges[fileIndex]
            var target: Int?
            if let replyTo = messages[position].replyTo, let targetPosition = plan.messageIndex(ofMessage: replyTo) {
                target = fileIndexOfSorted[targetPosition]
            }
            if idsAreOwnAnchors, !SiteRenderer.hasOwnAnchor(messages[position].id) { idsAreOwnAnchors = false }
            records.append(
                AppendCheckpoint.Record(
                    start: range.lowerBound, length: range.count, sortedIndex: position,
                    idHash: AppendCheckpoint.idHash(messages[position].id), replyTarget: target))
        }
        let prefixLength = trace.elementRanges[count - 1].upperBound
        return AppendCheckpoint(
            prefixLength: prefixLength, prefixFingerprint: ContentFingerprint.hex(of: bytes[0..<prefixLength]),
            suffixLength: bytes.count - prefixLength,
            suffixFingerprint: ContentFingerprint.hex(of: bytes[prefixLength..<bytes.count]),
            arrayOpenOffset: trace.arrayOpenOffset, maxDate: messages[count - 1].date.timeIntervalSinceReferenceDate,
            idsAreOwnAnchors: idsAreOwnAnchors, records: records)
    }

    /// Whether a message of `messages` changes pages other than its own: a thread reply (its
    /// root's summary), or a pin (every page's header).
    static func reachesBack(_ messages: [Message]) -> Bool {
        messages.contains { $0.thread != nil || $0.pinned }
    }
}
