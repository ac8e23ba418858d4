import Foundation
import ScrollbackCache
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
    /// How results show `participant`.
    static func sender(_ participant: Participant) -> SearchPart.Sender {
        var avatar: String?
        if case .local(let asset)? = participant.avatar { avatar = asset.sitePath }
        return SearchPart.Sender(
            name: participant.name, initials: SiteRenderer.initials(of: participant.name), avatar: avatar)
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
    /// `SearchPartFiles.writePages`); returns the head's path and the part's page count.
    func writeSearchPart(_ part: SearchPart, into folder: inout StagedFolder) throws -> (path: String, pageCount: Int) {
        let path = SearchPartFiles.partPath(conversationID: part.conversationID)
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
            let written = try SearchPartFiles.writePages(
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
                let head = SearchPartFiles.readPart(
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
                    let before = SearchPartFiles.readPart(conversationID: entry.conversationID, in: source)
                else { return false }
                guard entry.searchPart != nil,
                    let now = SearchPartFiles.readPart(
                        conversationID: entry.conversationID, in: BuildTree(staging: staging))
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
