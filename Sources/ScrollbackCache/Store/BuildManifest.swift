import Foundation
import ScrollbackLayout
import ScrollbackModel

/// The build cache's index, `manifest.json` in the cache (`CacheLocation`, never the output).
///
/// Its content is deterministic: entries sorted by path, keys sorted, no build time, no path of
/// the build machine.
package struct BuildManifest: Codable, Equatable {
    /// The manifest's own format; another value means "ignore the cache".
    package static let currentFormat = 5

    /// `a` for `a/b/c.html`.
    package static func topLevelName(_ path: String) -> String {
        path.split(separator: "/", maxSplits: 1).first.map(String.init) ?? path
    }

    package var format = BuildManifest.currentFormat
    /// Fingerprint of everything that affects every page: generator, config, templates, previews.
    package var settingsFingerprint: String
    /// One entry per published conversation, sorted by `path`.
    package var entries: [Entry]

    /// A manifest of the current format.
    package init(format: Int = BuildManifest.currentFormat, settingsFingerprint: String, entries: [Entry]) {
        self.format = format
        self.settingsFingerprint = settingsFingerprint
        self.entries = entries
    }

    /// One input log and what it produced.
    package struct Entry: Codable, Equatable {
        /// Path of the log relative to the input folder.
        package var path: String
        package var size: Int64
        package var modifiedNanoseconds: Int64
        /// `ContentFingerprint` of the log's bytes.
        package var contentHash: String
        package var conversationID: String
        /// What the index shows of the conversation.
        package var summary: Summary
        /// Date of the last message (seconds since 1970), for ordering the index.
        package var lastMessageDate: Double?
        package var pageCount: Int
        /// The first and last day of each page, which the links to a page name: an append that
        /// renders only the last pages names the earlier ones from here.
        package var pageDays: [PageDays?]
        /// Files written, relative to the output, sorted.
        package var files: [String]
        /// Local media the conversation ships, with their stamps (a change means rebuild).
        package var media: [Media]
        /// Warnings the conversation had, re-reported when it is reused.
        package var warnings: [StoredDiagnostic]
        /// A one-to-one chat with no `me`: the two names to choose from (`MeSetting.choices`),
        /// kept so the build's one warning names it when it is reused too.
        package var meChoices: [String]? = nil
        /// The conversation's `AppendCheckpoint` header file, as a cache path (`BuildTree`; JSON logs only).
        package var checkpoint: String?
        /// How many block files the checkpoint has (`AppendCheckpoint.blockPath`).
        package var checkpointBlocks: Int?
        /// The conversation's cached `SearchPart` (messages for the search index, days for the
        /// date list): its head file, as a cache path (`BuildTree`).
        package var searchPart: String?
        /// How many pages the search part has (their files: `SearchPageFiles`).
        package var searchPageCount: Int?
        /// The export an imported conversation came from (`ImportStep.exportIdentity`), so the
        /// conversations of an export that fails as a whole keep their last good pages.
        package var export: String? = nil
        /// `true` when a page of the conversation has a code block (`nil`: none): the site ships
        /// the highlighter (`HighlightAssets`) only then, and a reused conversation is not
        /// rendered again to find out. (Format 5: older manifests did not say, so they are not read.)
        package var hasCode: Bool? = nil

        /// An entry with every field given (the memberwise initializer, visible to the pipeline).
        package init(
            path: String, size: Int64, modifiedNanoseconds: Int64, contentHash: String, conversationID: String,
            summary: Summary, lastMessageDate: Double? = nil, pageCount: Int, pageDays: [PageDays?], files: [String],
            media: [Media], warnings: [StoredDiagnostic], meChoices: [String]? = nil, checkpoint: String? = nil,
            checkpointBlocks: Int? = nil, searchPart: String? = nil, searchPageCount: Int? = nil,
            export: String? = nil, hasCode: Bool? = nil
        ) {
            self.path = path
            self.size = size
            self.modifiedNanoseconds = modifiedNanoseconds
            self.contentHash = contentHash
            self.conversationID = conversationID
            self.summary = summary
            self.lastMessageDate = lastMessageDate
            self.pageCount = pageCount
            self.pageDays = pageDays
            self.files = files
            self.media = media
            self.warnings = warnings
            self.meChoices = meChoices
            self.checkpoint = checkpoint
            self.checkpointBlocks = checkpointBlocks
            self.searchPart = searchPart
            self.searchPageCount = searchPageCount
            self.export = export
            self.hasCode = hasCode
        }

        /// What the index shows of the conversation, with its page count (its card links to the
        /// last page).
        package var indexSummary: ConversationSummary {
            var summary = summary.conversationSummary
            summary.pageCount = pageCount
            return summary
        }

        /// What placing the conversation in the staged site moves, and what taking it out again
        /// removes, sorted: the top-level folders of its files, and the folder (or file) each
        /// cached file goes with (`search/<id>` of the cache for its `search/<id>/3.bin`).
        package var placementUnits: [String] {
            let cacheUnits = cachedFiles.map {
                $0.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false).prefix(3).joined(
                    separator: "/")
            }
            return Set(files.map(BuildManifest.topLevelName) + cacheUnits).sorted()
        }

        /// The files of the cache that are the conversation's: its checkpoint, its search
        /// part's head and pages.
        package var cachedFiles: [String] {
            var files: [String] = []
            if let checkpoint {
                files.append(checkpoint)
                files += (0..<(checkpointBlocks ?? 0)).map {
                    AppendCheckpoint.blockPath(conversationID: conversationID, block: $0)
                }
            }
            if let searchPart {
                files.append(searchPart)
                files += (0..<SearchPageFiles.fileCount(pageCount: searchPageCount ?? 0)).map {
                    SearchPageFiles.path(conversationID: conversationID, file: $0)
                }
            }
            return files
        }
    }

    /// `path` relative to `inputRoot` (media are always inside it; anything else is kept as it is).
    static func relativeSource(_ path: String, inputRoot: URL) -> String {
        let prefix = inputRoot.path + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// The absolute path of a media file the manifest names relative to `inputRoot`.
    package static func absoluteSource(_ path: String, inputRoot: URL) -> String {
        path.hasPrefix("/") ? path : inputRoot.path + "/" + path
    }

    /// A media file of the input and where the site keeps it.
    package struct Media: Codable, Equatable {
        /// The file's path relative to the input folder: the manifest is published with the site,
        /// so it names no path of the build machine.
        package var sourcePath: String
        package var sitePath: String
        package var size: Int64
        package var modifiedNanoseconds: Int64
        /// For an Ogg voice note: its MIME type with its codec (`AudioTranscoder.oggAudioType`),
        /// kept so a reused conversation still counts in the build's "will not play in Safari" note.
        package var audioType: String? = nil
        /// The cache key of its transcoded `.m4a` (`AudioTranscoder`), when the build made one:
        /// `copyMedia` publishes it beside the original, also for a reused conversation.
        package var transcoded: String? = nil
    }

    /// The entries of `assets` that can be stamped (a file gone since it was read is left out;
    /// copying reports it), each with its source relative to `inputRoot`.
    package static func media(of assets: some Sequence<LocalAsset>, inputRoot: URL) -> [Media] {
        assets.compactMap { asset in
            FileSystem.stamp(asset.sourcePath).map { stamp in
                Media(
                    sourcePath: relativeSource(asset.sourcePath, inputRoot: inputRoot), sitePath: asset.sitePath,
                    size: stamp.size, modifiedNanoseconds: stamp.modifiedNanoseconds)
            }
        }
    }

    /// `ConversationSummary` in a codable form.
    package struct Summary: Codable, Equatable {
        package var id: String
        package var title: String
        package var description: String?
        var participantNames: [String]
        package var messageCount: Int
        var firstDate: [String]?
        var lastDate: [String]?
        package var lastMessagePreview: String?
        package var section: String?
        package var app: String?

        package init(_ summary: ConversationSummary) {
            id = summary.id
            title = summary.title
            description = summary.description
            participantNames = summary.participantNames
            messageCount = summary.messageCount
            firstDate = summary.firstDate.map { [$0.text, $0.iso] }
            lastDate = summary.lastDate.map { [$0.text, $0.iso] }
            lastMessagePreview = summary.lastMessagePreview
            section = summary.section
            app = summary.app
        }

        package var conversationSummary: ConversationSummary {
            func date(_ pair: [String]?) -> FormattedDate? {
                guard let pair, pair.count == 2 else { return nil }
                return FormattedDate(text: pair[0], iso: pair[1])
            }
            var summary = ConversationSummary(
                id: id, title: title, description: description, participantNames: participantNames,
                messageCount: messageCount, firstDate: date(firstDate), lastDate: date(lastDate),
                lastMessagePreview: lastMessagePreview, section: section)
            summary.app = app
            return summary
        }
    }

    /// A warning as printed, kept so a reused conversation reports the same warnings.
    package struct StoredDiagnostic: Codable, Equatable {
        package var severity: String
        package var file: String?
        package var line: Int?
        package var column: Int?
        package var message: String

        package init(_ diagnostic: Diagnostic) {
            severity = diagnostic.severity.rawValue
            file = diagnostic.location?.file
            line = diagnostic.location?.line
            column = diagnostic.location?.column
            message = diagnostic.problem.message
        }

        /// The diagnostic again; its problem is `.other` with the same text, so it prints the same.
        package var diagnostic: Diagnostic {
            let location = file.map { SourceLocation(file: $0, line: line ?? 1, column: column ?? 1) }
            return Diagnostic(Diagnostic.Severity(rawValue: severity) ?? .warning, .other(message), at: location)
        }
    }

    /// Where the manifest of the build `tree` is.
    package static func path(in tree: BuildTree) -> String {
        tree.cache + "/" + CacheLocation.manifestName
    }

    /// Reads the manifest of the build `tree`; without one (absent, unreadable, damaged or of
    /// another format: the build is then a clean one), the reason, for the build's summary.
    package static func load(in tree: BuildTree) -> Result<BuildManifest, CacheRefusal> {
        let path = path(in: tree)
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(
                CacheRefusal(
                    FileSystem.kind(path) == .missing ? "there is no cache yet" : "its manifest cannot be read"))
        }
        struct Format: Decodable { var format: Int }
        guard let format = try? JSONDecoder().decode(Format.self, from: data) else {
            return .failure(CacheRefusal("its manifest is damaged"))
        }
        guard format.format == currentFormat else {
            return .failure(
                CacheRefusal(
                    "it is from another version of Scrollback (cache format \(format.format); this one reads \(currentFormat))"
                ))
        }
        guard let manifest = try? JSONDecoder().decode(BuildManifest.self, from: data) else {
            return .failure(CacheRefusal("its manifest is damaged"))
        }
        return .success(manifest)
    }

    /// The manifest's bytes: sorted keys, so equal manifests are equal files.
    package func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [0x0A]
    }
}
