import Dispatch
import Foundation
import ScrollbackCache
import ScrollbackLayout
import ScrollbackModel
import ScrollbackReading
import ScrollbackRendering
import ScrollbackSearch
import ScrollbackTemplates

// Steps 5–9 of a build: the conversations placed, the media, the index and assets, the
// cache for the next build, and the swap that publishes the site.

extension BuildRun {
    /// Step 5: first log (in path order) to claim an id keeps it; later ones get an error naming
    /// the first. Winners' folders move from their parts into the site.
    mutating func placeConversations() throws {
        renameImportedDuplicates()
        for source in outcomes.compactMap(\.source) {
            report.sources.append(source)
            if source.isImported { report.importCounts.append(source.line) }
        }
        var claimedBy: [String: String] = [:]
        let reserved = reservedTopLevelNames()
        // Who keeps an id is decided first, in input order: a reused log linked straight into
        // its place that loses its id to a log before it must make way before that log moves in.
        var placed: [Int] = []
        for index in outcomes.indices {
            guard let entry = outcomes[index].entry else { continue }
            let input = outcomes[index].input
            let location = SourceLocation(file: displayPath(input), line: 1, column: 1)
            var problem: Problem?
            if let first = claimedBy[entry.conversationID] {
                problem = .duplicateConversationID(entry.conversationID, firstIn: first)
            } else if let clash = Set(entry.files.map(BuildManifest.topLevelName)).intersection(reserved).sorted().first
            {
                problem = .other(
                    "conversation id '\(entry.conversationID)' would overwrite the site's own '\(clash)'; expected another id"
                )
            }
            if let problem {
                if outcomes[index].stagedDirectly { ConversationWorker.removeStaged(entry, from: staging) }
                let diagnostic = Diagnostic.error(problem, at: location)
                outcomes[index].entry = nil
                outcomes[index].diagnostics.append(diagnostic)
                record([diagnostic])
                continue
            }
            claimedBy[entry.conversationID] = displayPath(input)
            if !outcomes[index].stagedDirectly { placed.append(index) }
        }
        var madeFolders: Set<String> = []
        for index in placed {
            let entry = outcomes[index].entry!
            let parts = outcomes[index].partsFolder
            // A conversation's folder of cached pages or blocks moves in one rename, not file by file.
            for unit in entry.placementUnits {
                let folder = PathText.parent(unit)
                if !folder.isEmpty, madeFolders.insert(folder).inserted {
                    try FileSystem.makeDirectory(staging + "/" + folder)
                }
                try FileSystem.move(parts + "/" + unit, to: staging + "/" + unit)
            }
        }
        FileSystem.removeTree(ConversationWorker.partsRoot(in: staging))
        report.work = outcomes.map(workLine)
        for outcome in outcomes {
            guard let entry = outcome.entry else { continue }
            report.conversations += 1
            report.messages += entry.summary.messageCount
            report.pages += entry.pageCount
            if outcome.kept {
                report.keptConversations += 1
            } else if outcome.reused {
                report.reusedConversations += 1
            } else {
                report.rebuiltConversations += 1
            }
            if outcome.appended { report.appendedConversations += 1 }
        }
    }

    /// `outcome`'s line of `build --explain`.
    func workLine(_ outcome: ConversationOutcome) -> ConversationWorkLine {
        let work: ConversationWork
        if outcome.entry == nil {
            work = .leftOut
        } else if outcome.kept {
            work = .keptLastGood
        } else if outcome.reused {
            work = .reused
        } else if outcome.appended {
            work = .appended
        } else {
            work = .built(outcome.rebuildReason ?? .exportRead)
        }
        // An export's conversation is named as its ledger line names it (`whatsapp chats/_chat.txt`).
        let source =
            outcome.exportIndex == nil
            ? outcome.input.relativePath
            : outcome.source.map { $0.format + " " + $0.source }
                ?? outcome.exportIndex.map { importStep.exportIdentity($0) } ?? outcome.input.relativePath
        return ConversationWorkLine(source: source, conversationID: outcome.entry?.conversationID, work: work)
    }

    /// Step 6: the media of published conversations, each site path once, in sorted order.
    mutating func copyMedia() throws {
        var sources: [String: String] = [:]
        for outcome in outcomes {
            for media in outcome.entry?.media ?? [] where sources[media.sitePath] == nil {
                sources[media.sitePath] = BuildManifest.absoluteSource(media.sourcePath, inputRoot: inputRoot)
            }
        }
        var folder = StagedFolder(root: staging)
        for sitePath in sources.keys.sorted() {
            let destination = try folder.prepare(sitePath)
            // Site paths are content-hashed, so a file the previous output already has is the
            // same bytes: link it. A file from the input is copied, never linked, so the
            // published site and the user's originals never share an inode.
            let previous = output!.path + "/" + sitePath
            let published =
                FileSystem.kind(previous) == .file
                ? try FileSystem.linkOrCopy(previous, to: destination)
                : try FileSystem.copy(sources[sitePath]!, to: destination)
            if !published {
                record([
                    .warning(.fileSystem("media file '\(sources[sitePath]!)' disappeared during the build"), at: nil)
                ])
            } else {
                report.mediaFiles += 1
            }
        }
        try publishAudioCopies(into: &folder)
    }

    /// Step 7: the index, newest conversation first (ties by id), and the renderer's own files.
    mutating func writeIndexAndAssets() throws {
        let published = outcomes.compactMap(\.entry).sorted { left, right in
            switch (left.lastMessageDate, right.lastMessageDate) {
            case let (l?, r?) where l != r: return l > r
            case (_?, nil): return true
            case (nil, _?): return false
            default: return left.conversationID < right.conversationID
            }
        }
        let index = renderer.renderIndex(published.map(\.indexSummary))
        var folder = StagedFolder(root: staging)
        // The highlighter (846 kB) ships only with a page that loads it; a conversation reused
        // from the cache says so in its manifest entry, as it is not rendered again.
        let hasCode = published.contains { $0.hasCode == true }
        let shipped = assetFiles.filter { hasCode || !HighlightAssets.sitePaths.contains($0.path) }
        for file in [index, renderer.renderNotFound(folders: published.map(\.conversationID))] + shipped {
            try folder.write(file.contents, at: file.path)
        }
        if let baseURL = config.baseURL {
            let pages = ["index.html"] + published.flatMap { $0.files.filter { $0.hasSuffix(".html") } }
            let extra: [(String, String)] = [
                ("sitemap.xml", SitePublishing.sitemap(baseURL: baseURL, pagePaths: pages)),
                ("robots.txt", SitePublishing.robots(baseURL: baseURL)),
                (
                    SitePublishing.feedFileName,
                    SitePublishing.siteFeed(config: config, baseURL: baseURL, entries: published)
                ),
            ]
            for (path, text) in extra { try folder.write(Array(text.utf8), at: path) }
        }
        report.pages += 1
    }

    /// Step 8: the cache for the next build, deterministic for a given input.
    mutating func writeManifest() throws {
        let manifest = BuildManifest(settingsFingerprint: settingsFingerprint, entries: outcomes.compactMap(\.entry))
        try FileSystem.writeFile(try manifest.encoded(), to: BuildManifest.path(in: BuildTree(staging: staging)))
    }

    /// Step 9: the staged cache leaves the staging folder (the output holds only the site), the
    /// staged site is swapped in, then the cache. A cache that cannot be kept is a warning: the
    /// site is published all the same.
    mutating func publish() throws {
        try options.beforePublish?(staging)
        let stagedCache = BuildTree(staging: staging).cache
        var cacheStaged = false
        if let cacheFolder {
            do {
                try cacheFolder.stage(stagedCache, stagingSite: staging)
                cacheStaged = true
            } catch {
                keptNoCache("\(error)")
            }
        }
        FileSystem.removeTree(stagedCache)
        let legacy = CacheLocation.legacyTree(ofOutput: output!.path).cache
        let hadLegacy = FileSystem.kind(legacy) == .directory
        try output!.publishStaging(jobs: jobs)
        if hadLegacy {
            report.summaryNotes.append(
                "removed the old cache folder \(legacy) from the output; the cache now lives in "
                    + (cacheFolder?.location.folder ?? "the user's cache folder (none this time)"))
        }
        if cacheStaged, let cacheFolder {
            do { try cacheFolder.publish() } catch { keptNoCache("\(error)") }
        }
    }

    /// Reports that this build's cache could not be kept (the next build is then a clean one).
    private mutating func keptNoCache(_ reason: String) {
        record([.warning(.other("cannot keep the build cache: \(reason)"), at: nil)])
        report.summaryNotes.append("the build cache was not kept: the next build rebuilds every conversation")
    }
}
