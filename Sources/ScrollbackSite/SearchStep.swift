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
/// as `.scrollback/search/<id>.bin`; a reused conversation links the cached part, an appended one
/// updates it. The `writeSearchIndex` step merges the published parts into `search/`.
enum SearchStep {
    /// Where a conversation's part is cached, relative to the output.
    static func partPath(conversationID: String) -> String {
        BuildManifest.folderName + "/search/" + conversationID + ".bin"
    }

    /// How results show `participant`.
    static func sender(_ participant: Participant) -> SearchPart.Sender {
        var avatar: String?
        if case .local(let asset)? = participant.avatar { avatar = asset.sitePath }
        return SearchPart.Sender(
            name: participant.name, initials: SiteRenderer.initials(of: participant.name), avatar: avatar)
    }
}

extension ConversationWorker {
    /// Adds pages `pages` of `plan` to `part`, then writes the conversation's date list and the
    /// part into `folder`; returns the date list's site path and the part's cache path.
    func writeSearchPart(
        _ part: inout SearchPart, plan: ConversationPlan, pages: Range<Int>, anchor: (Int) -> String,
        into folder: inout StagedFolder
    ) throws -> (dateList: String, part: String) {
        part.add(plan, pages: pages, anchor: anchor, sender: SearchStep.sender, tokenizesText: config.search)
        // The date list's "newest" is the timeline's last message.
        let newest = part.documents.last
        // Thread replies are drawn on their root's page or on the thread's own pages: indexed with
        // the files that hold them, but not in the date list (it follows the timeline).
        for thread in config.search ? plan.threads(rootedOnPages: pages) : [] {
            let replies = thread.replies
            part.add(
                replies, pages: 0..<replies.pageCount,
                anchor: { replies.anchors.anchor(replies.conversation.messages[$0].id) },
                sender: SearchStep.sender, recordsDays: false)
        }
        let dateList = renderer.renderDateList(
            conversationID: part.conversationID, title: part.title,
            days: part.days.map { .init(iso: $0.iso, text: $0.text, file: $0.file, anchor: $0.anchor) },
            newest: newest.map { ($0.file, $0.anchor) }, locale: plan.options.locale)
        try folder.write(dateList.contents, at: dateList.path)
        let partPath = SearchStep.partPath(conversationID: part.conversationID)
        try folder.write(part.encoded(), at: partPath)
        return (dateList.path, partPath)
    }
}

extension BuildRun {
    /// Step: merges the parts of the published conversations into `search/` (nothing when
    /// `search: false`).
    mutating func writeSearchIndex() throws {
        guard config.search else { return }
        if try linkPreviousSearchIndex() { return }
        var parts: [SearchPart] = []
        for entry in outcomes.compactMap(\.entry) {
            guard let path = entry.searchPart,
                let bytes = LogReader.contents(ofFile: staging + "/" + path),
                let part = SearchPart(decoding: bytes)
            else {
                throw SiteBuildError.fileSystem("the search data of '\(entry.conversationID)' is missing or damaged")
            }
            parts.append(part)
        }
        let root = staging
        for folder in SearchIndex.folders { try FileSystem.makeDirectory(root + "/" + folder) }
        try SearchIndex.build(parts: parts, jobs: jobs) { path, bytes in
            try FileSystem.writeFile(bytes, to: root + "/" + path)
        }
    }

    /// When every published conversation is the previous build's, reused as it was (same
    /// settings, same logs, same parts), the index is the one that build published: its files
    /// are linked instead of merged again, so a rebuild with nothing changed stays quick.
    /// `false` (merge) when anything differs or a file of the previous index is gone.
    private func linkPreviousSearchIndex() throws -> Bool {
        guard let previous = previousManifest, !outcomes.isEmpty, outcomes.allSatisfy(\.reused) else { return false }
        // A reused conversation is its previous entry as it was: the same logs is the same parts.
        guard outcomes.compactMap(\.entry).map(\.path).sorted() == previous.entries.map(\.path).sorted() else {
            return false
        }
        let source = output!.path
        var files: [String] = []
        for folder in SearchIndex.folders {
            for name in FileSystem.entries(source + "/" + folder)
            where FileSystem.kind(source + "/" + folder + "/" + name) == .file {
                files.append(folder + "/" + name)
            }
        }
        guard files.contains(SearchIndex.folder + "/manifest.json") else { return false }
        var folder = StagedFolder(root: staging)
        guard try folder.link(files, from: source) else {
            FileSystem.removeTree(staging + "/" + SearchIndex.folder)
            return false
        }
        return true
    }
}
