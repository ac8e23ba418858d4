import Foundation
import ScrollbackLayout
import ScrollbackModel
import ScrollbackReading
import ScrollbackRendering

/// Builds one log into its own part of the staging folder: reusing the previous build's files
/// when nothing it depends on changed, else reading, laying out and rendering it.
///
/// Shared by the parallel workers; everything here is immutable.
struct ConversationWorker: Sendable {
    let inputRoot: URL
    let config: SiteConfig
    /// `<staging>/.scrollback/parts`: each log writes under `parts/<number>/`.
    let partsRoot: String
    /// The current output folder, whose files a reused log links from.
    let previousOutput: String
    /// The previous build's entries by input path; empty for a clean build.
    let previousEntries: [String: BuildManifest.Entry]
    /// Top-level names the site keeps for itself.
    let reservedTopLevelNames: Set<String>
    let reader: LogReader
    let layouter: ConversationLayouter
    let renderer: SiteRenderer

    init(
        inputRoot: URL, config: SiteConfig, renderer: SiteRenderer, partsRoot: String, previousOutput: String,
        previousEntries: [String: BuildManifest.Entry], reservedTopLevelNames: Set<String>
    ) {
        self.inputRoot = inputRoot
        self.config = config
        self.partsRoot = partsRoot
        self.previousOutput = previousOutput
        self.previousEntries = previousEntries
        self.reservedTopLevelNames = reservedTopLevelNames
        self.reader = LogReader(inputRoot: inputRoot, config: config)
        self.layouter = ConversationLayouter(options: config.layout, pageSize: config.pageSize)
        self.renderer = renderer
    }

    /// Builds `input` (the `number`-th log) and says what happened.
    func build(_ input: InputDiscovery.Input, number: Int, displayPath: String) -> ConversationOutcome {
        let parts = partsRoot + "/\(number)"
        var outcome = ConversationOutcome(input: input, entry: nil, diagnostics: [], reused: false, partsFolder: parts)
        let location = SourceLocation(file: displayPath, line: 1, column: 1)
        guard let stamp = FileSystem.stamp(input.url.path) else {
            outcome.diagnostics = [.error(.fileSystem("cannot read file"), at: location)]
            return outcome
        }
        // The log's bytes, read at most once: for its fingerprint, the append fast path and the read.
        var bytes: [UInt8]?
        var contentHash: String?
        if let previous = previousEntries[input.relativePath] {
            if stamp.size == previous.size {
                if stamp.modifiedNanoseconds != previous.modifiedNanoseconds {
                    bytes = LogReader.contents(ofFile: input.url.path)
                    contentHash = bytes.map { ContentFingerprint.hex(of: $0[...]) }
                }
                if contentHash == nil || contentHash == previous.contentHash,
                    let entry = reuse(previous, stamp: stamp, into: parts)
                {
                    outcome.entry = entry
                    outcome.reused = true
                    outcome.diagnostics = entry.warnings.map(\.diagnostic)
                    return outcome
                }
            }
        }
        guard let bytes = bytes ?? LogReader.contents(ofFile: input.url.path) else {
            outcome.diagnostics = [.error(.fileSystem("cannot read file"), at: location)]
            return outcome
        }
        if let previous = previousEntries[input.relativePath], contentHash != previous.contentHash,
            let entry = appendFast(input, bytes: bytes, previous: previous, stamp: stamp, into: parts)
        {
            outcome.entry = entry
            outcome.appended = true
            outcome.diagnostics = entry.warnings.map(\.diagnostic)
            return outcome
        }
        do {
            let (entry, diagnostics) = try render(
                input, bytes: bytes, stamp: stamp, contentHash: contentHash ?? ContentFingerprint.hex(of: bytes[...]),
                into: parts)
            outcome.entry = entry
            outcome.diagnostics = diagnostics
        } catch {
            FileSystem.removeTree(parts)
            outcome.entry = nil
            outcome.diagnostics.append(.error(.fileSystem("cannot write the pages: \(error)"), at: location))
        }
        return outcome
    }

    /// Links the previous build's files into `parts`, if the media are unchanged and every file
    /// is still there; `nil` means "build it again".
    private func reuse(
        _ previous: BuildManifest.Entry, stamp: FileSystem.Stamp, into parts: String
    ) -> BuildManifest.Entry? {
        for media in previous.media {
            guard
                FileSystem.stamp(media.sourcePath)
                    == FileSystem.Stamp(size: media.size, modifiedNanoseconds: media.modifiedNanoseconds)
            else { return nil }
        }
        var folder = StagedFolder(root: parts)
        let files = previous.files + (previous.checkpoint.map { [$0] } ?? [])
        guard (try? folder.link(files, from: previousOutput)) == true else {
            FileSystem.removeTree(parts)
            return nil
        }
        var entry = previous
        entry.modifiedNanoseconds = stamp.modifiedNanoseconds
        return entry
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
        let read = reader.read(contents: bytes, of: input.url, tracingMessages: Self.isJSON(input))
        var diagnostics = read.diagnostics
        guard let conversation = read.conversation, !diagnostics.contains(where: { $0.severity == .error }) else {
            return (nil, diagnostics)
        }
        let plan = layouter.plan(conversation)
        var folder = StagedFolder(root: parts)
        var files: [String] = []
        // One page at a time: a large conversation's rows and pages are never all in memory.
        // Each page's bytes go to its file straight from the renderer's buffer.
        diagnostics += try renderer.renderConversation(plan, pages: 0..<plan.pageCount) { path, bytes in
            try folder.writeRendered(bytes, at: path)
            files.append(path)
        }
        // Rendering reports warnings only, so nothing written above needs undoing here.
        if diagnostics.contains(where: { $0.severity == .error }) { return (nil, diagnostics) }
        var media: [BuildManifest.Media] = []
        for asset in conversation.localAssets {
            guard let assetStamp = FileSystem.stamp(asset.sourcePath) else { continue }
            media.append(
                BuildManifest.Media(
                    sourcePath: asset.sourcePath, sitePath: asset.sitePath, size: assetStamp.size,
                    modifiedNanoseconds: assetStamp.modifiedNanoseconds))
        }
        var entry = BuildManifest.Entry(
            path: input.relativePath, size: stamp.size, modifiedNanoseconds: stamp.modifiedNanoseconds,
            contentHash: contentHash, conversationID: conversation.id,
            summary: BuildManifest.Summary(plan.summary),
            lastMessageDate: conversation.messages.map(\.date).max()?.timeIntervalSince1970,
            pageCount: files.filter { $0.hasSuffix(".html") }.count,
            files: files.sorted(), media: media.sorted { $0.sitePath < $1.sitePath },
            warnings: diagnostics.sorted().map(BuildManifest.StoredDiagnostic.init))
        if let trace = read.messageTrace, let checkpoint = Self.checkpoint(of: bytes, trace: trace, plan: plan) {
            let path = AppendCheckpoint.relativePath(conversationID: conversation.id)
            try folder.write(checkpoint.encoded(), at: path)
            entry.checkpoint = path
        }
        return (entry, diagnostics)
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

    /// A relative path with no empty, `.` or `..` component: it stays inside the site.
    static func isSafeSitePath(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/")
            && path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
                !$0.isEmpty && $0 != "." && $0 != ".."
            }
    }
}
