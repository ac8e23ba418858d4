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
    /// Test seam (`SiteBuilder.Options.faultInjection`): runs before each page is written, with
    /// `write <site path>`; throwing there is a failed write, as a full disk would give.
    var faultInjection: (@Sendable (_ step: String) throws -> Void)?

    init(
        inputRoot: URL, config: SiteConfig, renderer: SiteRenderer, partsRoot: String, previousOutput: String,
        previousEntries: [String: BuildManifest.Entry], reservedTopLevelNames: Set<String>,
        faultInjection: (@Sendable (_ step: String) throws -> Void)? = nil
    ) {
        self.faultInjection = faultInjection
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
        if let tooLarge = LogReader.sizeProblem(size: stamp.size, limit: config.maxLogBytes) {
            outcome.diagnostics = [.error(tooLarge, at: location)]
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
            // The output side failed (a full disk, permissions), not the log: the whole build
            // stops, so the previous site keeps this conversation (`SiteBuilder` checks this).
            FileSystem.removeTree(parts)
            outcome.entry = nil
            outcome.writeFailure = "cannot write the pages of \(displayPath): \(error)"
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

    // MARK: Append fast path

    /// Rebuilds a JSON log that only gained messages at the end of its `messages` array since
    /// the previous build, re-rendering only the pages from the one that held the previous last
    /// message; every other file is linked from the previous output. `nil` means "take the full
    /// path" (which is always right, only slower): the caller then rebuilds from scratch.
    ///
    /// The log is not read in full: a synthetic document made of the file's unchanged head (up to
    /// the array's `[`), the old messages the re-rendered pages need (their own, the one before
    /// them, the first message and reply targets, by the byte ranges of the checkpoint) and the
    /// file's new tail (`,` new messages `]` and the rest of the object) goes through the normal
    /// reader. Anything unusual falls back: no checkpoint, a changed head or tail, a diagnostic
    /// (positions in the synthetic document are not the file's), a new message dated before the
    /// old last one, a new id that may clash with an old one, a new id an old reply was waiting
    /// for, ids that are not their own anchors, or a new page when the site's own templates
    /// print the pagination.
    private func appendFast(
        _ input: InputDiscovery.Input, bytes: [UInt8], previous: BuildManifest.Entry, stamp: FileSystem.Stamp,
        into parts: String
    ) -> BuildManifest.Entry? {
        guard Self.isJSON(input), let checkpointPath = previous.checkpoint, config.pageSize > 0,
            let stored = LogReader.contents(ofFile: previousOutput + "/" + checkpointPath),
            let checkpoint = AppendCheckpoint(decoding: stored), checkpoint.idsAreOwnAnchors,
            !checkpoint.records.isEmpty
        else { return nil }
        for media in previous.media {
            guard
                FileSystem.stamp(media.sourcePath)
                    == FileSystem.Stamp(size: media.size, modifiedNanoseconds: media.modifiedNanoseconds)
            else { return nil }
        }
        guard bytes.count > checkpoint.prefixLength,
            checkpoint.arrayOpenOffset < checkpoint.prefixLength,
            ContentFingerprint.hex(of: bytes[0..<checkpoint.prefixLength]) == checkpoint.prefixFingerprint
        else { return nil }
        // The new tail must go on with `,` (then the new messages): anything else is no append.
        var tailStart = checkpoint.prefixLength
        while tailStart < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[tailStart]) { tailStart += 1 }
        guard tailStart < bytes.count, bytes[tailStart] == UInt8(ascii: ",") else { return nil }

        let records = checkpoint.records
        let oldCount = records.count
        let perPage = config.pageSize
        let firstPage = (oldCount - 1) / perPage
        var fileIndexOfSorted = [Int](repeating: 0, count: oldCount)
        for (fileIndex, record) in records.enumerated() {
            guard record.sortedIndex < oldCount else { return nil }
            fileIndexOfSorted[record.sortedIndex] = fileIndex
        }
        var subset = Set<Int>()
        subset.insert(fileIndexOfSorted[0])
        if firstPage > 0 { subset.insert(fileIndexOfSorted[firstPage * perPage - 1]) }
        for position in (firstPage * perPage)..<oldCount { subset.insert(fileIndexOfSorted[position]) }
        for fileIndex in Array(subset) {
            if let target = records[fileIndex].replyTarget, target < oldCount { subset.insert(target) }
        }

        // Read the synthetic document; a reply to an old message left out is added, once.
        var attempt = 0
        while true {
            attempt += 1
            let chosen = subset.sorted()
            var synthetic: [UInt8] = []
            synthetic.reserveCapacity(
                checkpoint.arrayOpenOffset + chosen.reduce(0) { $0 + records[$1].length + 1 }
                    + bytes.count - checkpoint.prefixLength)
            synthetic += bytes[0...checkpoint.arrayOpenOffset]
            for (number, fileIndex) in chosen.enumerated() {
                if number > 0 { synthetic.append(UInt8(ascii: ",")) }
                let record = records[fileIndex]
                guard record.start + record.length <= checkpoint.prefixLength else { return nil }
                synthetic += bytes[record.start..<(record.start + record.length)]
            }
            let shift = checkpoint.prefixLength - synthetic.count  // synthetic offset + shift = file offset
            synthetic += bytes[checkpoint.prefixLength...]
            let read = reader.read(contents: synthetic, of: input.url, tracingMessages: true)
            if attempt == 1, !read.diagnostics.isEmpty {
                // Only warnings about reply targets that are old messages left out: add them.
                var added = false
                for diagnostic in read.diagnostics {
                    guard diagnostic.severity == .warning, case .unknownReplyTarget(let id) = diagnostic.problem,
                        let fileIndex = records.indices.first(where: {
                            records[$0].idHash == AppendCheckpoint.idHash(id)
                        }),
                        !subset.contains(fileIndex)
                    else { return nil }
                    subset.insert(fileIndex)
                    added = true
                }
                if added { continue }
            }
            guard read.diagnostics.isEmpty, let conversation = read.conversation, let trace = read.messageTrace
            else { return nil }
            return appendedEntry(
                input, previous: previous, stamp: stamp, bytes: bytes, checkpoint: checkpoint, chosen: chosen,
                conversation: conversation, trace: trace, shift: shift, firstPage: firstPage, into: parts)
        }
    }

    /// The fast path once the synthetic document was read: checks, layout of the subset,
    /// rendering of the last pages, the other files linked, the merged entry and checkpoint.
    private func appendedEntry(
        _ input: InputDiscovery.Input, previous: BuildManifest.Entry, stamp: FileSystem.Stamp, bytes: [UInt8],
        checkpoint: AppendCheckpoint, chosen: [Int], conversation: Conversation, trace: JSONMessageTrace, shift: Int,
        firstPage: Int, into parts: String
    ) -> BuildManifest.Entry? {
        let records = checkpoint.records
        let oldCount = records.count
        let chosenCount = chosen.count
        let messages = conversation.messages
        let newCount = messages.count - chosenCount
        guard newCount > 0, trace.elementRanges.count == messages.count,
            trace.elementRanges[chosenCount].lowerBound + shift > checkpoint.prefixLength
        else { return nil }
        // The new messages must sort after every old one: dated no earlier than the old last one
        // (ties keep file order, and they come last in the file).
        let sortedPosition = { (syntheticIndex: Int) in trace.sortedPositions?[syntheticIndex] ?? syntheticIndex }
        let oldHashes = Set(records.map(\.idHash))
        let previousWarnings = Set(previous.warnings.map(\.message))
        for syntheticIndex in chosenCount..<messages.count {
            let position = sortedPosition(syntheticIndex)
            guard position >= chosenCount else { return nil }
            let message = messages[position]
            guard message.date.timeIntervalSinceReferenceDate >= checkpoint.maxDate,
                !oldHashes.contains(AppendCheckpoint.idHash(message.id)), SiteRenderer.hasOwnAnchor(message.id),
                !previousWarnings.contains(Problem.unknownReplyTarget(message.id).message)
            else { return nil }
        }
        for message in messages where !SiteRenderer.hasOwnAnchor(message.id) { return nil }
        // The rest of the file after the last message must be what followed the old last one.
        let newPrefixLength = trace.elementRanges[messages.count - 1].upperBound + shift
        guard bytes.count - newPrefixLength == checkpoint.suffixLength,
            ContentFingerprint.hex(of: bytes[newPrefixLength..<bytes.count]) == checkpoint.suffixFingerprint
        else { return nil }
        let totalCount = oldCount + newCount
        let perPage = config.pageSize
        let pageCount = (totalCount + perPage - 1) / perPage
        // More pages change the pagination of every earlier page (it links the last page): those
        // pages get the previous build's bytes with their pagination swapped, when the renderer
        // can say exactly what it wrote there; otherwise the full path renders them.
        guard pageCount >= previous.pageCount else { return nil }
        let pagesToSplice = pageCount == previous.pageCount ? 0..<0 : 0..<min(firstPage, previous.pageCount)

        // Global positions: old messages keep theirs, new ones follow in their own order.
        var globalIndexes = chosen.map { records[$0].sortedIndex }.sorted()
        globalIndexes += (0..<newCount).map { oldCount + $0 }
        let plan = layouter.plan(conversation, globalIndexes: globalIndexes, totalMessageCount: totalCount)

        var written: [String] = []
        var folder = StagedFolder(root: parts)
        do {
            let diagnostics = try renderer.renderConversation(plan, pages: firstPage..<pageCount) { path, bytes in
                try faultInjection?("write " + path)
                try folder.writeRendered(bytes, at: path)
                written.append(path)
            }
            guard diagnostics.isEmpty else {
                FileSystem.removeTree(parts)
                return nil
            }
            for pageIndex in pagesToSplice {
                let path = conversation.id + "/" + SiteRenderer.pageFileName(pageIndex)
                guard let old = renderer.paginationMarkup(current: pageIndex, count: previous.pageCount),
                    let new = renderer.paginationMarkup(current: pageIndex, count: pageCount),
                    let page = LogReader.contents(ofFile: previousOutput + "/" + path),
                    let spliced = Self.replacingPagination(in: page, old: old, new: new)
                else {
                    FileSystem.removeTree(parts)
                    return nil
                }
                try folder.write(spliced, at: path)
                written.append(path)
            }
            let writtenSet = Set(written)
            guard try folder.link(previous.files.filter { !writtenSet.contains($0) }, from: previousOutput) else {
                FileSystem.removeTree(parts)
                return nil
            }
        } catch {
            FileSystem.removeTree(parts)
            return nil
        }

        // Media: the previous ones, and those of the messages read now (the same site path keeps
        // its first source, which is the previous one: new messages come last).
        var media = previous.media
        var sitePaths = Set(media.map(\.sitePath))
        for asset in conversation.localAssets where sitePaths.insert(asset.sitePath).inserted {
            guard let assetStamp = FileSystem.stamp(asset.sourcePath) else { continue }
            media.append(
                BuildManifest.Media(
                    sourcePath: asset.sourcePath, sitePath: asset.sitePath, size: assetStamp.size,
                    modifiedNanoseconds: assetStamp.modifiedNanoseconds))
        }

        // The checkpoint again, with the new messages' records.
        var fileIndexOfSyntheticSorted = [Int](repeating: 0, count: messages.count)
        for syntheticIndex in 0..<messages.count {
            fileIndexOfSyntheticSorted[sortedPosition(syntheticIndex)] =
                syntheticIndex < chosenCount ? chosen[syntheticIndex] : oldCount + syntheticIndex - chosenCount
        }
        var newRecords = records
        newRecords.reserveCapacity(totalCount)
        for syntheticIndex in chosenCount..<messages.count {
            let position = sortedPosition(syntheticIndex)
            let range = trace.elementRanges[syntheticIndex]
            var target: Int?
            if let replyTo = messages[position].replyTo, let targetPosition = plan.messageIndex(ofMessage: replyTo) {
                target = fileIndexOfSyntheticSorted[targetPosition]
            }
            newRecords.append(
                AppendCheckpoint.Record(
                    start: range.lowerBound + shift, length: range.count, sortedIndex: globalIndexes[position],
                    idHash: AppendCheckpoint.idHash(messages[position].id), replyTarget: target))
        }
        let newCheckpoint = AppendCheckpoint(
            prefixLength: newPrefixLength, prefixFingerprint: ContentFingerprint.hex(of: bytes[0..<newPrefixLength]),
            suffixLength: checkpoint.suffixLength, suffixFingerprint: checkpoint.suffixFingerprint,
            arrayOpenOffset: checkpoint.arrayOpenOffset,
            maxDate: messages[messages.count - 1].date.timeIntervalSinceReferenceDate, idsAreOwnAnchors: true,
            records: newRecords)
        let checkpointPath = AppendCheckpoint.relativePath(conversationID: conversation.id)
        guard conversation.id == previous.conversationID else {
            FileSystem.removeTree(parts)
            return nil
        }
        do {
            try folder.write(newCheckpoint.encoded(), at: checkpointPath)
        } catch {
            FileSystem.removeTree(parts)
            return nil
        }

        var entry = previous
        entry.size = stamp.size
        entry.modifiedNanoseconds = stamp.modifiedNanoseconds
        entry.contentHash = ContentFingerprint.hex(of: bytes[0..<bytes.count])
        entry.summary = BuildManifest.Summary(plan.summary)
        entry.lastMessageDate = messages[messages.count - 1].date.timeIntervalSince1970
        entry.pageCount = pageCount
        entry.files = Array(Set(previous.files).union(written)).sorted()
        entry.media = media.sorted { $0.sitePath < $1.sitePath }
        entry.checkpoint = checkpointPath
        return entry
    }

    /// `page` with its top pagination (the first occurrence of `old.top`) and its bottom one (the
    /// last occurrence of `old.bottom`, after the top one) replaced by `new`'s; `nil` when either
    /// is missing. Log text cannot hold either span (`<nav class="pg" …`): text is escaped and the
    /// sanitizer drops every `class` attribute, so the first and last occurrences are the page's own.
    static func replacingPagination(
        in page: [UInt8], old: (top: [UInt8], bottom: [UInt8]), new: (top: [UInt8], bottom: [UInt8])
    ) -> [UInt8]? {
        guard let top = page.firstRange(of: old.top), let bottom = lastRange(of: old.bottom, in: page),
            top.upperBound <= bottom.lowerBound
        else { return nil }
        var spliced: [UInt8] = []
        spliced.reserveCapacity(page.count - old.top.count - old.bottom.count + new.top.count + new.bottom.count)
        spliced += page[..<top.lowerBound]
        spliced += new.top
        spliced += page[top.upperBound..<bottom.lowerBound]
        spliced += new.bottom
        spliced += page[bottom.upperBound...]
        return spliced
    }

    /// The last range of `bytes` equal to `needle`, searched from the end (the bottom pagination
    /// sits a few bytes before a page's end).
    static func lastRange(of needle: [UInt8], in bytes: [UInt8]) -> Range<Int>? {
        guard !needle.isEmpty, needle.count <= bytes.count else { return nil }
        var start = bytes.count - needle.count
        while start >= 0 {
            if bytes[start] == needle[0], bytes[start..<(start + needle.count)].elementsEqual(needle) {
                return start..<(start + needle.count)
            }
            start -= 1
        }
        return nil
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
            try faultInjection?("write " + path)
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
