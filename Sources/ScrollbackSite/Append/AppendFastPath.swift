import Foundation
import ScrollbackCache
import ScrollbackLayout
import ScrollbackModel
import ScrollbackReading
import ScrollbackRendering
import ScrollbackSearch

// The append fast path: a JSON log that only gained messages at the end is rebuilt by reading
// those and the few old ones the last pages need, through the same public calls of the reader,
// the layouter and the renderer as a full build (`ConversationWorker.render`), and linking every
// other file from the previous output. Its checkpoint (`AppendCheckpoint`) is written by every
// full read of a JSON log.

extension ConversationWorker {
    /// Rebuilds a JSON log that only gained messages at the end of its `messages` array since
    /// the previous build, re-rendering only the pages from the one that held the previous last
    /// message; every other file is linked from the previous output. `nil` means "take the full
    /// path" (which is always right, only slower): the caller then rebuilds from scratch, and
    /// `--explain` says which check sent it there (`AppendFallback`).
    ///
    /// The log is never held whole: its fingerprints are taken a chunk at a time, and the reader
    /// reads its unchanged head, the old messages the re-rendered pages need (their own, the one
    /// before them, the first message and reply targets, by the byte ranges of the checkpoint)
    /// and the new tail (`LogReader.read(_:of:arrayOpenOffset:messageRanges:tailStart:)`); the layouter plans
    /// that subset with global positions, and the renderer renders the pages from the old last
    /// message's on, as the full build does. Anything unusual falls back: no checkpoint, a
    /// changed head or tail, a diagnostic, a new message dated before the old last one, a new id
    /// that may clash with an old one, a new id an old reply was waiting for, ids that are not
    /// their own anchors, or a new page (every page's pagination links the last page: the full
    /// path renders them all).
    ///
    /// Returns the entry, and the conversation's search part before and after (the search step
    /// updates the index from them).
    func appendFast(
        _ input: InputDiscovery.Input, previous: BuildManifest.Entry, stamp: FileSystem.Stamp, into parts: String
    ) -> AppendAttempt {
        // A published site's feed lists the latest messages: that takes the full path.
        guard config.baseURL == nil else { return .fallback(.publishedFeed) }
        guard Self.isJSON(input) else { return .fallback(.notJSON) }
        guard previous.checkpoint != nil else { return .fallback(.noCheckpoint) }
        guard let checkpoint = AppendCheckpoint.read(conversationID: previous.conversationID, in: previousOutput),
            !checkpoint.records.isEmpty
        else { return .fallback(.checkpointUnreadable) }
        guard checkpoint.idsAreOwnAnchors else { return .fallback(.idsNotOwnAnchors) }
        // The log was just measured (`stamp`): one that cannot be opened now is the full read's to report.
        guard let log = LogFile(path: input.url.path) else { return .fallback(.newDiagnostics) }
        for media in previous.media {
            guard
                FileSystem.stamp(BuildManifest.absoluteSource(media.sourcePath, inputRoot: inputRoot))
                    == FileSystem.Stamp(size: media.size, modifiedNanoseconds: media.modifiedNanoseconds)
            else { return .fallback(.mediaChanged) }
        }
        // An append keeps what followed the last message, so the new messages end where that
        // suffix starts: one pass fingerprints the old part, the new part and the whole log.
        let newPrefixLength = log.size - checkpoint.suffixLength
        // (The log grew and the checkpoint matched its previous size: only a damaged one fails this.)
        guard newPrefixLength > checkpoint.prefixLength, checkpoint.arrayOpenOffset < checkpoint.prefixLength
        else { return .fallback(.checkpointUnreadable) }
        // The new tail must go on with `,` (then the new messages): anything else is no append.
        // (Checked before the fingerprints: it costs nothing, they read the whole log.)
        // (Whitespace that long is no append a tool makes: the full path takes it.)
        guard let between = log.bytes(checkpoint.prefixLength..<min(newPrefixLength, checkpoint.prefixLength + 4096)),
            let comma = between.firstIndex(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
            between[comma] == UInt8(ascii: ",")
        else { return .fallback(.notAddedAtEnd) }
        let tailStart = checkpoint.prefixLength + comma
        // The fingerprints read the whole log: an idle thread takes them while the messages are
        // read, laid out and rendered into `parts`, and nothing is kept until the old part's
        // matches (`appendedEntry`).
        let prefixes = [checkpoint.prefixLength, newPrefixLength, log.size]
        let fingerprints = Pending(concurrently: threads.available > 1) {
            ContentFingerprint.hexes(ofPrefixes: prefixes, of: log)
        }
        defer { _ = fingerprints.result() }

        let oldCount = checkpoint.records.count
        let perPage = config.pageSize
        let firstPage = (oldCount - 1) / perPage
        var fileIndexOfSorted = [Int](repeating: 0, count: oldCount)
        for (fileIndex, record) in checkpoint.records.enumerated() {
            guard record.sortedIndex < oldCount else { return .fallback(.checkpointUnreadable) }
            fileIndexOfSorted[record.sortedIndex] = fileIndex
        }
        var subset = Set<Int>()
        subset.insert(fileIndexOfSorted[0])
        if firstPage > 0 { subset.insert(fileIndexOfSorted[firstPage * perPage - 1]) }
        for position in (firstPage * perPage)..<oldCount { subset.insert(fileIndexOfSorted[position]) }
        for fileIndex in Array(subset) {
            if let target = checkpoint.records[fileIndex].replyTarget, target < oldCount { subset.insert(target) }
        }

        // Read the head, those messages and the tail; a reply to an old message left out is added, once.
        let previousWarnings = Set(previous.warnings.map(\.message))
        var attempt = 0
        while true {
            attempt += 1
            let chosen = subset.sorted()
            let ranges = chosen.map { fileIndex in
                let record = checkpoint.records[fileIndex]
                return record.start..<(record.start + record.length)
            }
            guard
                let read = reader.read(
                    log, of: input.url, arrayOpenOffset: checkpoint.arrayOpenOffset, messageRanges: ranges,
                    tailStart: tailStart)
            else { return .fallback(.newDiagnostics) }
            // An unknown field is reported once per file, at its first use: when the previous
            // build reported it, that first use is in the unchanged head, and a full read reports
            // it there again (the previous warnings are kept as they are).
            let diagnostics = read.diagnostics.filter { diagnostic in
                guard diagnostic.severity == .warning, case .unknownField = diagnostic.problem else { return true }
                return !previousWarnings.contains(diagnostic.problem.message)
            }
            if attempt == 1, !diagnostics.isEmpty {
                // Only warnings about reply targets that are old messages left out: add them.
                var added = false
                for diagnostic in diagnostics {
                    guard diagnostic.severity == .warning, case .unknownReplyTarget(let id) = diagnostic.problem,
                        let fileIndex = checkpoint.records.indices.first(where: {
                            checkpoint.records[$0].idHash == AppendCheckpoint.idHash(id)
                        }),
                        !subset.contains(fileIndex)
                    else { return .fallback(.newDiagnostics) }
                    subset.insert(fileIndex)
                    added = true
                }
                if added { continue }
            }
            guard diagnostics.isEmpty, let conversation = read.conversation, let trace = read.messageTrace
            else { return .fallback(.newDiagnostics) }
            return appendedEntry(
                input, previous: previous, stamp: stamp, log: log, checkpoint: consume checkpoint,
                fingerprints: fingerprints, chosen: chosen,
                conversation: conversation, trace: trace, firstPage: firstPage, into: parts)
        }
    }

    /// The fast path once the messages were read: checks, layout of the subset,
    /// rendering of the last pages, the other files linked, the merged entry and checkpoint.
    private func appendedEntry(
        _ input: InputDiscovery.Input, previous: BuildManifest.Entry, stamp: FileSystem.Stamp, log: LogFile,
        checkpoint: consuming AppendCheckpoint, fingerprints: Pending<[String]?>, chosen: [Int],
        conversation: Conversation, trace: JSONMessageTrace,
        firstPage: Int, into parts: String
    ) -> AppendAttempt {
        let oldCount = checkpoint.records.count
        let chosenCount = chosen.count
        let messages = conversation.messages
        let newCount = messages.count - chosenCount
        // The same conversation (its cached files are named by its id), before any work.
        guard conversation.id == previous.conversationID else { return .fallback(.conversationIDChanged) }
        guard newCount > 0, trace.elementRanges.count == messages.count,
            trace.elementRanges[chosenCount].lowerBound > checkpoint.prefixLength
        else { return .fallback(.notAddedAtEnd) }
        // The new messages must sort after every old one: dated no earlier than the old last one
        // (ties keep file order, and they come last in the file).
        let sortedPosition = { (readIndex: Int) in trace.sortedPositions?[readIndex] ?? readIndex }
        let previousWarnings = Set(previous.warnings.map(\.message))
        var newHashes = Set<UInt64>()
        for readIndex in chosenCount..<messages.count {
            let position = sortedPosition(readIndex)
            guard position >= chosenCount else { return .fallback(.earlierDate) }
            let message = messages[position]
            guard message.date.timeIntervalSinceReferenceDate >= checkpoint.maxDate else {
                return .fallback(.earlierDate)
            }
            guard SiteRenderer.hasOwnAnchor(message.id) else { return .fallback(.idsNotOwnAnchors) }
            guard !previousWarnings.contains(Problem.unknownReplyTarget(message.id).message) else {
                return .fallback(.idSeenBefore)
            }
            newHashes.insert(AppendCheckpoint.idHash(message.id))
        }
        // One pass over the old records (a set of every old id would cost more than the append).
        guard !checkpoint.records.contains(where: { newHashes.contains($0.idHash) }) else {
            return .fallback(.idSeenBefore)
        }
        for message in messages where !SiteRenderer.hasOwnAnchor(message.id) { return .fallback(.idsNotOwnAnchors) }
        guard !Self.reachesBack(messages) else { return .fallback(.reachesBack) }
        // The rest of the file after the last message must be what followed the old last one.
        let newPrefixLength = trace.elementRanges[messages.count - 1].upperBound
        guard log.size - newPrefixLength == checkpoint.suffixLength,
            let suffix = log.bytes(newPrefixLength..<log.size),
            ContentFingerprint.hex(of: suffix[...]) == checkpoint.suffixFingerprint
        else { return .fallback(.tailChanged) }
        let totalCount = oldCount + newCount
        let perPage = config.pageSize
        let pageCount = (totalCount + perPage - 1) / perPage
        // More pages change the pagination of every earlier page (it links the last page): then
        // the full path renders them all.
        guard pageCount == previous.pageCount else { return .fallback(.newPage) }

        // The voice notes of the messages read (cached copies are linked, new ones made); a
        // failed copy's warning is the full path's to give.
        let audio = transcoder?.prepare(conversation) ?? AudioTranscoder.Prepared()
        guard audio.warnings.isEmpty else { return .fallback(.audioWarnings) }

        // Global positions: old messages keep theirs, new ones follow in their own order.
        var globalIndexes = chosen.map { checkpoint.records[$0].sortedIndex }.sorted()
        globalIndexes += (0..<newCount).map { oldCount + $0 }
        // `me` as the full path chooses it (`render`): a log's own, unless `--me` or the config says.
        let plan = layouter.plan(
            config.me.applied(to: conversation, keepsOwn: true), globalIndexes: globalIndexes,
            totalMessageCount: totalCount, pageDays: previous.pageDays)

        // The checkpoint again, with the new messages' records.
        var fileIndexOfReadSorted = [Int](repeating: 0, count: messages.count)
        for readIndex in 0..<messages.count {
            fileIndexOfReadSorted[sortedPosition(readIndex)] =
                readIndex < chosenCount ? chosen[readIndex] : oldCount + readIndex - chosenCount
        }
        // Taken out of the old checkpoint, not copied: a large log has millions of records.
        var newRecords: [AppendCheckpoint.Record] = []
        swap(&newRecords, &checkpoint.records)
        newRecords.reserveCapacity(totalCount)
        for readIndex in chosenCount..<messages.count {
            let position = sortedPosition(readIndex)
            let range = trace.elementRanges[readIndex]
            var target: Int?
            if let replyTo = messages[position].replyTo, let targetPosition = plan.messageIndex(ofMessage: replyTo) {
                target = fileIndexOfReadSorted[targetPosition]
            }
            newRecords.append(
                AppendCheckpoint.Record(
                    start: range.lowerBound, length: range.count, sortedIndex: globalIndexes[position],
                    idHash: AppendCheckpoint.idHash(messages[position].id), replyTarget: target))
        }

        // The previous search part's pages from the first one rendered again, and those of its
        // file before it (written again with it): read before any file is written (a damaged
        // cache takes the full path).
        let id = conversation.id
        let fileStart = SearchPageFiles.firstPage(ofFileHolding: firstPage)
        guard previous.searchPart != nil,
            var part = SearchPartFiles.readPart(conversationID: id, in: previousOutput, fromPage: fileStart)
        else { return .fallback(.searchPartUnreadable) }
        let leadingPages = part.encodedPages(from: part.firstLoadedPage).prefix(firstPage - part.firstLoadedPage)
        part.forgetPages(before: part.firstLoadedPage + leadingPages.count)
        let previousSearchPart = part
        part.removePages(from: firstPage)

        // The last pages, the search part's pages from `firstPage` on and its date list, the
        // checkpoint's header and last blocks; every other file is the previous build's, linked.
        var written: [String] = []
        var folder = StagedFolder(root: parts)
        let searchPageCount: Int
        let hexes: [String]
        let newCheckpoint: AppendCheckpoint
        // Whether the pages rendered again have a code block (the earlier pages are as they were).
        var renderedCode = false
        do {
            // Every id is its own anchor here.
            let newest = part.add(
                plan, pages: firstPage..<pageCount, anchor: { "m-" + messages[$0].id }, sender: SearchStep.sender,
                tokenizesText: config.search)
            // The date list, the largest file of a long conversation, is rendered on an idle
            // thread while the rest is written; it is written last.
            let dateList = Pending(concurrently: threads.available > 1) { [part] in
                renderDateList(of: part, newest: newest, locale: plan.options.locale)
            }
            defer { _ = dateList.result() }
            let dateListPath = SiteRenderer.dateListPath(conversationID: id)
            written.append(dateListPath)
            let rendering = try renderer.renderConversation(
                plan, pages: firstPage..<pageCount, audioAlternatives: audio.alternatives
            ) { path, bytes in
                try faultInjection?("write " + path)
                try folder.writeRendered(bytes, at: path)
                written.append(path)
            }
            renderedCode = rendering.hasCode
            guard rendering.diagnostics.isEmpty else {
                FileSystem.removeTree(parts)
                return .fallback(.newDiagnostics)
            }
            try SearchPartFiles.writePages(
                of: part, from: firstPage, after: leadingPages, finished: true, into: &folder)
            // What was read is the log's only if its old part is the one the checkpoint knew.
            guard let fingerprinted = fingerprints.result(), fingerprinted[0] == checkpoint.prefixFingerprint else {
                FileSystem.removeTree(parts)
                return .fallback(.headChanged)
            }
            hexes = fingerprinted
            newCheckpoint = AppendCheckpoint(
                prefixLength: newPrefixLength, prefixFingerprint: hexes[1],
                suffixLength: checkpoint.suffixLength, suffixFingerprint: checkpoint.suffixFingerprint,
                arrayOpenOffset: checkpoint.arrayOpenOffset,
                maxDate: messages[messages.count - 1].date.timeIntervalSinceReferenceDate, idsAreOwnAnchors: true,
                records: newRecords)
            // The blocks before the one the new records start in are the previous ones.
            let keptBlocks = oldCount / AppendCheckpoint.blockSize
            try newCheckpoint.write(conversationID: id, fromBlock: keptBlocks, into: &folder)
            searchPageCount = try writeSearchPart(part, into: &folder).pageCount
            let writtenSet = Set(written)
            let kept =
                previous.files.filter { !writtenSet.contains($0) }
                + (0..<SearchPageFiles.fileCount(pageCount: min(fileStart, searchPageCount))).map {
                    SearchPageFiles.path(conversationID: id, file: $0)
                }
                + (0..<keptBlocks).map { AppendCheckpoint.blockPath(conversationID: id, block: $0) }
            guard try folder.link(kept, from: previousOutput) else {
                FileSystem.removeTree(parts)
                return .fallback(.previousFilesMissing)
            }
            try folder.write(dateList.result().contents, at: dateListPath)
        } catch {
            FileSystem.removeTree(parts)
            return .fallback(.writeFailed)
        }

        // Media: the previous ones, and those of the messages read now (the same site path keeps
        // its first source, which is the previous one: new messages come last).
        var sitePaths = Set(previous.media.map(\.sitePath))
        let media =
            previous.media
            + audio.annotated(
                BuildManifest.media(
                    of: conversation.localAssets.filter { sitePaths.insert($0.sitePath).inserted },
                    inputRoot: inputRoot))

        var entry = previous
        entry.hasCode = previous.hasCode == true || renderedCode ? true : nil
        entry.size = stamp.size
        entry.modifiedNanoseconds = stamp.modifiedNanoseconds
        entry.contentHash = hexes[2]
        entry.summary = BuildManifest.Summary(plan.summary)
        entry.lastMessageDate = messages[messages.count - 1].date.timeIntervalSince1970
        entry.pageCount = pageCount
        entry.pageDays = plan.pageDays
        entry.files = Array(Set(previous.files).union(written)).sorted()
        entry.media = media.sorted { $0.sitePath < $1.sitePath }
        entry.checkpoint = AppendCheckpoint.relativePath(conversationID: id)
        entry.checkpointBlocks = newCheckpoint.blockCount
        entry.searchPart = SearchPartFiles.partPath(conversationID: id)
        entry.searchPageCount = searchPageCount
        return .appended(entry: entry, search: .changed(previous: previousSearchPart, current: part))
    }
}
