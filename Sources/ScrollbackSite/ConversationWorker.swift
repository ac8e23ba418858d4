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
        var contentHash: String?
        if let previous = previousEntries[input.relativePath] {
            if stamp.size == previous.size {
                if stamp.modifiedNanoseconds != previous.modifiedNanoseconds {
                    contentHash = ContentFingerprint.hex(ofFileAt: input.url.path)
                }
                if contentHash == nil || contentHash == previous.contentHash, let entry = reuse(previous, stamp: stamp, into: parts) {
                    outcome.entry = entry
                    outcome.reused = true
                    outcome.diagnostics = entry.warnings.map(\.diagnostic)
                    return outcome
                }
            }
        }
        do {
            guard let hash = contentHash ?? ContentFingerprint.hex(ofFileAt: input.url.path) else {
                outcome.diagnostics = [.error(.fileSystem("cannot read file"), at: location)]
                return outcome
            }
            let (entry, diagnostics) = try render(input, stamp: stamp, contentHash: hash, into: parts)
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
    private func reuse(_ previous: BuildManifest.Entry, stamp: FileSystem.Stamp, into parts: String) -> BuildManifest.Entry? {
        for media in previous.media {
            guard FileSystem.stamp(media.sourcePath) == FileSystem.Stamp(size: media.size, modifiedNanoseconds: media.modifiedNanoseconds)
            else { return nil }
        }
        var createdFolders: Set<String> = []
        for file in previous.files {
            let destination = parts + "/" + file
            let folder = (destination as NSString).deletingLastPathComponent
            do {
                if createdFolders.insert(folder).inserted { try FileSystem.makeDirectory(folder) }
                guard try FileSystem.linkOrCopy(previousOutput + "/" + file, to: destination) else {
                    FileSystem.removeTree(parts)
                    return nil
                }
            } catch {
                FileSystem.removeTree(parts)
                return nil
            }
        }
        var entry = previous
        entry.modifiedNanoseconds = stamp.modifiedNanoseconds
        return entry
    }

    /// Reads, lays out and renders the log, writing its files into `parts`.
    private func render(
        _ input: InputDiscovery.Input, stamp: FileSystem.Stamp, contentHash: String, into parts: String
    ) throws -> (BuildManifest.Entry?, [Diagnostic]) {
        let read = reader.read(input.url)
        var diagnostics = read.diagnostics
        guard let conversation = read.conversation, !diagnostics.contains(where: { $0.severity == .error }) else {
            return (nil, diagnostics)
        }
        let plan = layouter.plan(conversation)
        var createdFolders: Set<String> = []
        var files: [String] = []
        // One page at a time: a large conversation's rows and pages are never all in memory.
        diagnostics += try renderer.renderConversation(plan) { file in
            guard Self.isSafeSitePath(file.path) else {
                throw SiteBuildError.fileSystem("the renderer produced an unsafe path '\(file.path)'")
            }
            let destination = parts + "/" + file.path
            let folder = (destination as NSString).deletingLastPathComponent
            if createdFolders.insert(folder).inserted { try FileSystem.makeDirectory(folder) }
            try FileSystem.writeFile(file.contents, to: destination)
            files.append(file.path)
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
        let entry = BuildManifest.Entry(
            path: input.relativePath, size: stamp.size, modifiedNanoseconds: stamp.modifiedNanoseconds,
            contentHash: contentHash, conversationID: conversation.id,
            summary: BuildManifest.Summary(plan.summary),
            lastMessageDate: conversation.messages.map(\.date).max()?.timeIntervalSince1970,
            pageCount: files.filter { $0.hasSuffix(".html") }.count,
            files: files.sorted(), media: media.sorted { $0.sitePath < $1.sitePath },
            warnings: diagnostics.sorted().map(BuildManifest.StoredDiagnostic.init))
        return (entry, diagnostics)
    }

    /// A relative path with no empty, `.` or `..` component: it stays inside the site.
    static func isSafeSitePath(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/")
            && path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
                !$0.isEmpty && $0 != "." && $0 != ".."
            }
    }
}
