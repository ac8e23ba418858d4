import Foundation
import ScrollbackLayout
import ScrollbackModel
import ScrollbackReading
import ScrollbackRendering
import ScrollbackSearch

/// The search index and the date lists in the pipeline.
///
/// Each conversation's worker makes its `SearchPart` from the plan it renders (its messages and
/// the first message of each day), writes the conversation's date list from it, and caches it
/// as `search/<id>.bin` and its pages' files in `search/<id>/` (in the `CacheLocation`)
/// (`SearchPageFiles`); a reused conversation links the cached part, an appended one writes its
/// last pages' file again and links the others. The `writeSearchIndex` step merges the published
/// parts into `search/`.
enum SearchStep {
    /// Where a conversation's part's head is cached, as a cache path (`BuildTree`).
    static func partPath(conversationID: String) -> String {
        BuildTree.cachePath("search/" + conversationID + ".bin")
    }

    /// The cached part of `conversationID` in the build `tree`, with the documents of pages
    /// `firstPage` and later; `nil` when a file is missing or damaged.
    static func readPart(conversationID: String, in tree: BuildTree, fromPage firstPage: Int = 0) -> SearchPart? {
        guard let head = LogReader.contents(ofFile: tree.path(partPath(conversationID: conversationID))) else {
            return nil
        }
        // Pages are asked for in order: each file is read once, when its first page is.
        var held: (file: Int, pages: [[UInt8]])?
        return SearchPart(decodingHead: head, fromPage: firstPage) { page in
            let (file, index) = page.quotientAndRemainder(dividingBy: SearchPageFiles.pagesPerFile)
            if held?.file != file {
                held = SearchPageFiles.readPages(ofFile: file, conversationID: conversationID, in: tree).map {
                    (file, $0)
                }
            }
            guard let held, index < held.pages.count else { return nil }
            return held.pages[index]
        }
    }

    /// How results show `participant`.
    static func sender(_ participant: Participant) -> SearchPart.Sender {
        var avatar: String?
        if case .local(let asset)? = participant.avatar { avatar = asset.sitePath }
        return SearchPart.Sender(
            name: participant.name, initials: SiteRenderer.initials(of: participant.name), avatar: avatar)
    }

    /// Writes into `folder` the files of `part`'s pages from `page` on, preceded by `leading`
    /// (the pages of `page`'s file before it, from the previous build): each file they fill, and
    /// the last one they start too when `finished` (no page follows). Returns the first page not
    /// written, the first of its file.
    @discardableResult
    static func writePages(
        of part: SearchPart, from page: Int, after leading: ArraySlice<[UInt8]> = [], finished: Bool,
        into folder: inout StagedFolder
    ) throws -> Int {
        let start = page - leading.count
        let perFile = SearchPageFiles.pagesPerFile
        precondition(start % perFile == 0, "a file's pages are written together")
        let pages = Array(leading) + part.encodedPages(from: page)
        var first = 0
        while first < pages.count, finished || pages.count - first >= perFile {
            let end = min(first + perFile, pages.count)
            let path = SearchPageFiles.path(conversationID: part.conversationID, file: (start + first) / perFile)
            try folder.write(SearchPageFiles.encode(pages[first..<end]), at: path)
            first = end
        }
        return start + first
    }
}

/// The cache files of a search part's pages: `pagesPerFile` consecutive pages to a file, so that a
/// long conversation's cache is a few files rather than one per page (a new file costs this
/// machine's ext4 far more than its bytes after many were deleted: scripts/bench/RESULTS.md),
/// while an append still writes again only the file of the pages it renders again.
///
/// A file is `SBF1`, its page count and each page's end offset (32-bit little-endian, counted
/// from the end of this header), then the pages' bytes (`SearchPart.encodedPages`).
enum SearchPageFiles {
    /// How many pages a file holds (the last file of a part: the rest).
    static let pagesPerFile = 16
    private static let magic: [UInt8] = Array("SBF1".utf8)

    /// Where file number `file` of a conversation's pages is cached, as a cache path (`BuildTree`).
    static func path(conversationID: String, file: Int) -> String {
        BuildTree.cachePath("search/" + conversationID + "/\(file).bin")
    }

    /// How many files hold `pageCount` pages.
    static func fileCount(pageCount: Int) -> Int { (pageCount + pagesPerFile - 1) / pagesPerFile }

    /// The first page of the file holding `page`.
    static func firstPage(ofFileHolding page: Int) -> Int { page - page % pagesPerFile }

    /// One file holding `pages`.
    static func encode(_ pages: ArraySlice<[UInt8]>) -> [UInt8] {
        precondition(pages.count <= pagesPerFile, "a file holds at most pagesPerFile pages")
        let headerSize = magic.count + 4 * (1 + pages.count)
        var bytes = magic
        bytes.reserveCapacity(headerSize + pages.reduce(0) { $0 + $1.count })
        bytes.appendLittleEndian(UInt32(pages.count))
        var end = 0
        for page in pages {
            end += page.count
            bytes.appendLittleEndian(UInt32(end))
        }
        for page in pages { bytes += page }
        return bytes
    }

    /// The pages of file number `file` of a conversation in the build `tree`; `nil` when it is
    /// missing or is not such a file.
    static func readPages(ofFile file: Int, conversationID: String, in tree: BuildTree) -> [[UInt8]]? {
        guard let bytes = LogReader.contents(ofFile: tree.path(path(conversationID: conversationID, file: file))),
            let ranges = pageRanges(header: bytes[...], size: bytes.count)
        else { return nil }
        return ranges.map { Array(bytes[$0]) }
    }

    /// Page `page`'s bytes from its file in the build `tree` (the header, then the page alone,
    /// are read); `nil` when the file is missing, is not such a file or holds no such page.
    static func readPage(_ page: Int, conversationID: String, in tree: BuildTree) -> [UInt8]? {
        let (file, index) = page.quotientAndRemainder(dividingBy: pagesPerFile)
        guard let handle = LogFile(path: tree.path(path(conversationID: conversationID, file: file))),
            let header = handle.bytes(0..<min(handle.size, magic.count + 4 * (1 + pagesPerFile))),
            let ranges = pageRanges(header: header[...], size: handle.size), index < ranges.count
        else { return nil }
        return handle.bytes(ranges[index])
    }

    /// Where each page of a file of `size` bytes is in it, from the file's first bytes (at least
    /// its header); `nil` when they are not such a header.
    private static func pageRanges(header: ArraySlice<UInt8>, size: Int) -> [Range<Int>]? {
        func value(at offset: Int) -> Int? {
            guard offset + 4 <= header.count else { return nil }
            return Int(header.withUnsafeBytes { $0.loadLittleEndian(at: offset, as: UInt32.self) })
        }
        guard header.starts(with: magic), let count = value(at: magic.count), (1...pagesPerFile).contains(count)
        else { return nil }
        let dataStart = magic.count + 4 * (1 + count)
        var ranges: [Range<Int>] = []
        var start = dataStart
        for number in 0..<count {
            guard let end = value(at: magic.count + 4 * (1 + number)), end >= start - dataStart else { return nil }
            ranges.append(start..<(dataStart + end))
            start = dataStart + end
        }
        guard start == size else { return nil }
        return ranges
    }
}

extension ConversationWorker {
    /// The conversation's date list from `part` (`newest`: its newest timeline message).
    func renderDateList(of part: SearchPart, newest: SearchPart.Document?, locale: String) -> RenderedFile {
        renderer.renderDateList(
            conversationID: part.conversationID, title: part.title,
            days: part.days.map { .init(iso: $0.iso, text: $0.text, file: $0.file, anchor: $0.anchor) },
            newest: newest.map { ($0.file, $0.anchor) }, locale: locale)
    }

    /// Writes the part's head into `folder` (its pages' files are written as they are added:
    /// `SearchStep.writePages`); returns the head's path and the part's page count.
    func writeSearchPart(_ part: SearchPart, into folder: inout StagedFolder) throws -> (path: String, pageCount: Int) {
        let path = SearchStep.partPath(conversationID: part.conversationID)
        try folder.write(part.encodedHead(), at: path)
        return (path, part.pageDocumentCounts.count)
    }
}

/// A conversation's search part, to which the runs of pages rendered on several threads are
/// added in page order as soon as the runs before them are: the files their pages fill are
/// written and those pages' documents dropped at once, so a long conversation's documents are
/// never all in memory (the part keeps its vocabulary, senders and days for its head and date
/// list, and the pages of a file not yet full).
final class SearchPartStream: @unchecked Sendable {
    private let lock = NSLock()
    private var part: SearchPart
    private var folder: StagedFolder
    private let writesPages: Bool
    private var waiting: [Int: SearchPart.Run] = [:]
    private var next = 0
    private var newest: SearchPart.Document?
    private var error: (any Error)?

    /// A stream into `part` (no pages yet) whose page files go into `folder`; none when
    /// `writesPages` is false (a site without search keeps only its days and newest message).
    init(_ part: SearchPart, folder: StagedFolder, writesPages: Bool) {
        self.part = part
        self.folder = folder
        self.writesPages = writesPages
    }

    /// Adds run number `number` (runs are numbered in page order, from 0), then every waiting
    /// run that now follows the part's pages.
    ///
    /// The run is consumed, here and by the part: its pages' files move on to the part, which
    /// drops them once they are written.
    func add(_ run: consuming SearchPart.Run, number: Int) {
        lock.lock()
        defer { lock.unlock() }
        waiting[number] = consume run
        while let run = waiting.removeValue(forKey: next) {
            next += 1
            if let last = part.append(consume run) { newest = last }
            writeHeldPages(finished: false)
        }
    }

    /// Writes the files the pages held fill (with `finished`, the last one too) and drops their
    /// pages.
    private func writeHeldPages(finished: Bool) {
        guard writesPages, error == nil else { return }
        do {
            let written = try SearchStep.writePages(
                of: part, from: part.firstLoadedPage, finished: finished, into: &folder)
            part.forgetPages(before: written)
        } catch {
            self.error = error
        }
    }

    /// The part (its pages' documents dropped) and its newest timeline message, once every run
    /// was added and the last pages' file is written; rethrows the first error writing a file.
    func finish() throws -> (SearchPart, newest: SearchPart.Document?) {
        try lock.withLock {
            precondition(waiting.isEmpty, "every run is added")
            writeHeldPages(finished: true)
            if let error { throw error }
            return (part, newest)
        }
    }
}

extension BuildRun {
    /// Step: merges the parts of the published conversations into `search/` (nothing when
    /// `search: false`): updates the previous index when it can, else builds it from every part.
    mutating func writeSearchIndex() throws {
        guard config.search else { return }
        let root = staging
        for folder in SearchIndex.folders { try FileSystem.makeDirectory(root + "/" + folder) }
        if try updatePreviousSearchIndex() {
            report.searchIndexUpdated = true
            return
        }
        // The heads first (the vocabularies make the index's); then each page's documents, read
        // just ahead of the merge.
        let entries = outcomes.compactMap(\.entry)
        let read = ConcurrentSlots<SearchPart>(count: entries.count)
        Parallel.forEach(entries.count, jobs: jobs) { number in
            guard entries[number].searchPart != nil,
                let head = SearchStep.readPart(
                    conversationID: entries[number].conversationID, in: BuildTree(staging: root), fromPage: .max)
            else { return }
            read.store(head, at: number)
        }
        let heads = try zip(entries, read.values()).map { entry, head in
            guard let head else { throw Self.damagedSearchPart(entry) }
            return head
        }
        try SearchIndex.build(
            heads: heads,
            page: { part, page throws(any Error) in
                let lowestDate = heads[part].pageLowestDates[page]
                guard
                    let bytes = SearchPageFiles.readPage(
                        page, conversationID: entries[part].conversationID, in: BuildTree(staging: root)),
                    let stored = SearchPart.StoredPage(bytes, tokenCount: heads[part].vocabulary.count),
                    stored.documents.count == heads[part].pageDocumentCounts[page],
                    stored.documents.allSatisfy({ $0.date >= lowestDate })
                else { throw Self.damagedSearchPart(entries[part]) }
                return stored
            }, jobs: jobs
        ) { path, bytes in
            try FileSystem.writeFile(bytes, to: root + "/" + path)
        }
    }

    private static func damagedSearchPart(_ entry: BuildManifest.Entry) -> SiteBuildError {
        .fileSystem("the search data of '\(entry.conversationID)' is missing or damaged")
    }

    /// When the previous build published the same conversations and each is as it was or only
    /// gained messages at the end (a reused log, an appended one), the index is the previous one
    /// with the new messages added (`SearchIndex.update`): its unchanged files are linked, and a
    /// rebuild stays quick. `false` (build it all) for any other change, or when a file of the
    /// previous index is gone.
    private func updatePreviousSearchIndex() throws -> Bool {
        guard let previous = previousManifest, let source = previousTree, !outcomes.isEmpty else { return false }
        let previousParts = Set(previous.entries.filter { $0.searchPart != nil }.map(\.conversationID))
        var changes: [SearchIndex.PartChange] = []
        for outcome in outcomes {
            guard let entry = outcome.entry else { continue }
            if let change = outcome.searchChange {
                changes.append(change)
            } else if outcome.reused || outcome.kept {
                // Its part is the previous one: the previous index has what the update needs of it.
                changes.append(.unchanged(conversationID: entry.conversationID))
            } else {
                // Rebuilt in full (e.g. an append that opened a new page): compared with the
                // previous part, it may still only have gained messages.
                guard previousParts.contains(entry.conversationID),
                    let before = SearchStep.readPart(conversationID: entry.conversationID, in: source)
                else { return false }
                guard entry.searchPart != nil,
                    let now = SearchStep.readPart(conversationID: entry.conversationID, in: BuildTree(staging: staging))
                else { throw Self.damagedSearchPart(entry) }
                changes.append(.changed(previous: before, current: now))
            }
        }
        let root = staging
        var missing = false
        let updated = try SearchIndex.update(
            changes, previous: { LogReader.contents(ofFile: source.path($0)) }, jobs: jobs,
            write: { path, bytes in try FileSystem.writeFile(bytes, to: root + "/" + path) },
            keep: { previousPath, path in
                if !missing, try !FileSystem.linkOrCopy(source.path(previousPath), to: root + "/" + path) {
                    missing = true
                }
            })
        guard updated, !missing else {
            FileSystem.removeTree(root + "/" + SearchIndex.folder)
            for folder in SearchIndex.folders { try FileSystem.makeDirectory(root + "/" + folder) }
            return false
        }
        return true
    }
}
