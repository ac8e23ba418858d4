import Foundation
import ScrollbackHTML
import ScrollbackMarkdown
import ScrollbackModel

/// The export formats Scrollback reads besides its own logs (spec §6), by the name `--format`
/// and `scrollback import` take.
public enum ExportFormat: String, CaseIterable, Hashable, Sendable {
    case slack, discord, telegram, whatsapp, chatgpt
    /// Meta's "Download your information": Facebook Messenger and Instagram (`MetaImporter`).
    case meta
    /// Claude.ai's `conversations.json` (`ClaudeImporter`).
    case claude
    /// A Microsoft Teams tenant export: the `teams/` and `users/` folders (`TeamsImporter`).
    case teams
    /// Signal chats exported by signal-export, or in the text layout chat-miner reads (`SignalImporter`).
    case signal
    /// Mattermost's bulk export, one JSON object a line (`MattermostImporter`).
    case mattermost
    /// Element's "Export chat" JSON of a Matrix room (`MatrixImporter`).
    case matrix
    /// Google Takeout's Google Chat folder (`GoogleChatImporter`).
    case googlechat
    /// LINE's "Export chat history" text (`LineImporter`).
    case line
    /// irssi, ZNC, WeeChat and HexChat logs (`IrcImporter`).
    case irc
    /// iMessage chats in imessage-exporter's TXT output (`IMessageImporter`).
    case imessage
}

/// One reader per export format, behind one protocol (like Hugo's converters).
///
/// An importer recognises its exports by their structure (`detect`), never by file name alone,
/// and reads them onto the model (`read`), one conversation at a time, so peak memory follows
/// one conversation. The rules every importer shares (derived ids for duplicates, counts,
/// media, located errors) live in `ConversationAssembler` and `ImportContext`.
public protocol ExportImporter: Sendable {
    /// The format this importer reads.
    static var format: ExportFormat { get }
    /// Whether this format's exports are folders (Slack) or single files (all others).
    static var shape: ExportShape { get }
    /// Whether `candidate` is an export of this format, judged by its structure.
    /// Called for every file (or folder, for `.folder` formats) under the input; keep it cheap
    /// (`ExportCandidate.head` holds the first bytes of a file).
    static func detect(_ candidate: ExportCandidate) -> Bool
    /// Reads `export` and hands each conversation to `emit` as soon as it is complete.
    /// Returns diagnostics that belong to the export as a whole (a bad `users.json`);
    /// a conversation's own problems travel in its `ImportedConversation`, so one broken
    /// conversation never sinks the others.
    static func read(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic]
}

/// Reads an export's conversations one ahead of the one being emitted: while `emit` lays out
/// and renders conversation k on the caller's thread, conversation k+1 is read on another, so
/// an export with many conversations uses two cores as a folder of logs does. Conversations
/// are emitted in order, and at most two are held at once (peak memory still follows one
/// conversation, not the export).
enum ReadAhead {
    /// Calls `read` for every item (each on a background thread) and `emit` with each result, in order.
    static func run<Item: Sendable>(
        _ items: [Item], read: @escaping @Sendable (Item) -> ImportedConversation?,
        emit: (ImportedConversation) -> Void
    ) {
        if items.count == 1 {  // nothing to read ahead of: no thread hop
            if let value = read(items[0]) { emit(value) }
            return
        }
        func start(_ index: Int) -> Pending? {
            guard index < items.count else { return nil }
            let pending = Pending()
            let item = items[index]
            Parallel.start {
                pending.value = read(item)
                pending.done.signal()
            }
            return pending
        }
        var next = start(0)
        var index = 0
        while let current = next {
            current.done.wait()
            index += 1
            next = start(index)  // read the next one while this one is emitted
            if let value = current.value { emit(value) }
        }
    }
}

/// A conversation being read on another thread: `value` is set before `done` is signalled and
/// read only after waiting for it.
private final class Pending: @unchecked Sendable {
    var value: ImportedConversation?
    let done = DispatchSemaphore(value: 0)
}

/// Whether a format's exports are one file or a folder of files.
public enum ExportShape: Sendable {
    /// One file per export (a single file as INPUT works too).
    case file
    /// A folder (or a zip holding one) per export.
    case folder
}

/// A file or folder that an importer may recognise.
public struct ExportCandidate: Sendable {
    /// The file or folder.
    public let url: URL
    /// Whether it is a folder.
    public let isDirectory: Bool
    /// The first bytes of a file (up to `headSize`), empty for folders: what detection looks at.
    public let head: [UInt8]
    /// How many bytes `head` holds at most.
    public static let headSize = 64 * 1024

    /// Looks at `url`, reading the first bytes of a file.
    public init(url: URL) {
        var isFolder: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
        var head: [UInt8] = []
        if !isFolder.boolValue, let handle = FileHandle(forReadingAtPath: url.path) {
            head = [UInt8]((try? handle.read(upToCount: Self.headSize)) ?? Data())
            try? handle.close()
        }
        self.init(url: url, isDirectory: isFolder.boolValue, head: head)
    }

    /// A candidate whose first bytes are already known (the fuzz targets detect from memory).
    public init(url: URL, isDirectory: Bool, head: [UInt8]) {
        self.url = url
        self.isDirectory = isDirectory
        self.head = Array(head.prefix(Self.headSize))
        // Worked out once: every importer's `detect` asks for them.
        self.topLevelJSONKeys = JSONSniff.topLevelKeys(Self.trimmed(self.head))
    }

    /// The names of a folder's entries (empty for a file).
    public func entryNames() -> Set<String> {
        guard isDirectory else { return [] }
        return Set((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [])
    }

    /// `head` without a UTF-8 byte-order mark and leading whitespace: what a JSON sniff starts at.
    public var trimmedHead: ArraySlice<UInt8> { Self.trimmed(head) }

    private static func trimmed(_ head: [UInt8]) -> ArraySlice<UInt8> {
        var slice = head[...]
        if slice.starts(with: [0xEF, 0xBB, 0xBF]) { slice = slice.dropFirst(3) }
        while let first = slice.first, first == 0x20 || first == 0x0A || first == 0x0D || first == 0x09 {
            slice = slice.dropFirst()
        }
        return slice
    }

    /// The top-level object keys among the first bytes of a JSON file (empty when it does not
    /// start as an object): a structural sniff that needs no full parse.
    public let topLevelJSONKeys: Set<String>
}

/// An export an importer recognised: the format and the files it is made of.
public struct DetectedExport: Hashable, Sendable {
    /// The format.
    public var format: ExportFormat
    /// The files (or, for `.folder` formats, the one folder) recognised, sorted by path.
    /// Files of one format that sit in the same folder come together, so an importer can merge
    /// what belongs together (Discord's `[part N]` files).
    public var items: [URL]
    /// The folder the export's media may be read from: nothing outside it is read.
    public var root: URL

    /// Creates a detected export.
    public init(format: ExportFormat, items: [URL], root: URL) {
        self.format = format
        self.items = items
        self.root = root
    }
}

/// One conversation an importer read, with its counts and diagnostics.
public struct ImportedConversation: Sendable {
    /// The conversation; `nil` when an error made it unusable (its last good pages stay).
    public var conversation: Conversation?
    /// Errors and warnings of this conversation, located by file and line (or JSON position).
    public var diagnostics: [Diagnostic]
    /// What the reader did with each record of this conversation's source.
    public var ledger: ImportLedger
    /// A key naming this conversation within the input, stable from build to build
    /// (`slack-export/general`): the build cache's key.
    public var key: String
    /// The export files it was read from, as shown in diagnostics.
    public var sourceFiles: [String]

    /// Creates an imported conversation.
    public init(
        conversation: Conversation?, diagnostics: [Diagnostic], ledger: ImportLedger, key: String,
        sourceFiles: [String]
    ) {
        self.conversation = conversation
        self.diagnostics = diagnostics
        self.ledger = ledger
        self.key = key
        self.sourceFiles = sourceFiles
    }

    /// How many records the export holds for this conversation.
    public var messagesIn: Int { ledger.recordsRead }
    /// Of those, how many were left out with a reason.
    public var leftOut: Int { ledger.leftOut.count }
    /// How many message elements the site gets: `messagesIn - leftOut` when nothing is lost.
    public var messagesOut: Int { conversation?.messages.count ?? 0 }

    /// `general: 120 in → 120 out` (and `, 2 left out` when some were), for the build's report.
    public var countLine: String {
        var line = "\(conversation?.id ?? key): \(messagesIn) in → \(messagesOut) out"
        if leftOut > 0 { line += ", \(leftOut) left out" }
        return line
    }
}

/// What an importer may use while reading: the export's root, media resolution, rich text and
/// display paths. Importers never read a file outside `export.root`.
public struct ImportContext: Sendable {
    /// The export's media root (the input folder, or the folder a zip was unpacked into).
    public let root: URL
    let reading: ReadingContext
    /// Maps a path inside an unpacked zip back to how the user knows it (`export.zip/users.json`).
    let displayPrefix: (unpacked: String, shown: String)?
    /// Reads an export file's bytes: from disk in a build, from memory in the fuzz targets
    /// (Fuzz/README.md), which so run the build's own `read` on every input.
    let readFile: @Sendable (URL) -> [UInt8]?
    /// Whether `readFile` is the default (the disk): then `forEachChunk` reads a file in windows
    /// instead of whole.
    let readsFromDisk: Bool
    /// How many threads may decode one conversation's files at once (the build's `--jobs`).
    public let jobs: Int

    /// A context reading media inside `root` with `config`'s rules. `shownAs` names a zip the
    /// root was unpacked from, so diagnostics say `export.zip/…` instead of a temporary path.
    /// `readFile` gives the bytes of an export file (`nil`: it cannot be read); the default
    /// reads the file from disk. `jobs`: see `jobs` (default: one per active processor).
    public init(
        root: URL, config: SiteConfig, inputRoot: URL? = nil, shownAs: URL? = nil,
        jobs: Int = Parallel.defaultJobs,
        readFile: (@Sendable (URL) -> [UInt8]?)? = nil
    ) {
        self.root = root
        self.readFile = readFile ?? { LogReader.contents(ofFile: $0.path) }
        self.readsFromDisk = readFile == nil
        self.jobs = jobs
        let base = inputRoot ?? root
        self.reading = ReadingContext(
            inputRoot: base, config: config,
            media: MediaResolver(inputRoot: root, allowsRemoteMedia: config.remoteMedia),
            previews: LinkPreviewStore(folder: base.appendingPathComponent("previews")),
            markdown: MarkdownRenderer(), sanitizer: HTMLSanitizer())
        if let shownAs {
            displayPrefix = (
                root.standardizedFileURL.path, ReadingContext.displayPath(shownAs, inputRoot: inputRoot ?? shownAs)
            )
        } else {
            displayPrefix = nil
        }
    }

    /// The site configuration.
    public var config: SiteConfig { reading.config }

    /// How `file` is named in diagnostics.
    public func displayPath(_ file: URL) -> String {
        if let displayPrefix {
            let path = file.standardizedFileURL.path
            if path.hasPrefix(displayPrefix.unpacked + "/") {
                return displayPrefix.shown + "/" + path.dropFirst(displayPrefix.unpacked.count + 1)
            }
        }
        return reading.displayPath(file)
    }

    /// The bytes of export file `file` (named `shown` in diagnostics), or `nil` with a located
    /// error handed to `report`: the one way an importer reads a file of its export.
    public func contents(of file: URL, shown: String, report: (Diagnostic) -> Void) -> [UInt8]? {
        guard let bytes = readFile(file) else {
            report(.error(.fileSystem("cannot read file"), at: SourceLocation(file: shown, line: 1, column: 1)))
            return nil
        }
        return bytes
    }

    /// Hands `body` the bytes of export file `file` (named `shown` in diagnostics) in order, at
    /// most `chunkSize` at a time, so a file of hundreds of megabytes is never held whole; `false`
    /// with a located error handed to `report` when it cannot be read. An error `body` throws
    /// stops the reading and is handed on.
    public func forEachChunk(
        of file: URL, shown: String, chunkSize: Int = 1 << 20, report: (Diagnostic) -> Void,
        _ body: (UnsafeRawBufferPointer) throws(Diagnostic) -> Void
    ) throws(Diagnostic) -> Bool {
        let chunkSize = max(1, chunkSize)
        if readsFromDisk, let handle = LogFile(path: file.path) {
            var offset = 0
            var chunk: [UInt8] = []
            chunk.reserveCapacity(min(chunkSize, handle.size))
            while offset < handle.size {
                let end = min(handle.size, offset + chunkSize)
                chunk.removeAll(keepingCapacity: true)
                guard handle.read(offset..<end, appendingTo: &chunk) else { break }
                try chunk.withUnsafeBufferPointer { (bytes) throws(Diagnostic) in
                    try body(UnsafeRawBufferPointer(bytes))
                }
                offset = end
            }
            if offset >= handle.size { return true }
        } else if !readsFromDisk, let bytes = readFile(file) {
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + chunkSize)
                try Array(bytes[start..<end]).withUnsafeBufferPointer { (chunk) throws(Diagnostic) in
                    try body(UnsafeRawBufferPointer(chunk))
                }
                start = end
            }
            return true
        }
        report(.error(.fileSystem("cannot read file"), at: SourceLocation(file: shown, line: 1, column: 1)))
        return false
    }

    /// The JSON document in `file` (named `shown` in diagnostics), or `nil` with the located
    /// reason (unreadable file, malformed JSON) handed to `report`.
    public func parseJSON(_ file: URL, shown: String, report: (Diagnostic) -> Void) -> JSONNode? {
        guard let bytes = contents(of: file, shown: shown, report: report) else { return nil }
        do {
            return try JSONParser.parse(bytes, file: shown)
        } catch {
            report(error)
            return nil
        }
    }

    /// The file's path relative to the export root, `/`-separated (for `source.file`).
    public func relativePath(_ file: URL) -> String {
        let root = self.root.standardizedFileURL.path
        let path = file.standardizedFileURL.path
        if path == root { return file.lastPathComponent }
        if path.hasPrefix(root + "/") { return String(path.dropFirst(root.count + 1)) }
        return file.lastPathComponent
    }

    /// An export's media file, spec §6: a file present inside the export is copied
    /// (`localPath`, relative to `file`'s folder); otherwise the placeholder names what is
    /// missing — the local path, else the remote URL (remote-only media is not loaded: export
    /// URLs need a login or expire). Paths that leave the export are refused with a warning.
    public func media(
        localPath: String?, remoteURL: String? = nil, relativeTo file: URL, at location: SourceLocation,
        diagnostics: inout [Diagnostic]
    ) -> MediaSource {
        if let localPath, !localPath.isEmpty {
            var warnings: [Diagnostic] = []
            let source = reading.media.resolve(localPath, relativeTo: file, at: location, diagnostics: &warnings)
            if case .local = source {
                return source
            }
            if case .remote = source { return source }
            if let remoteURL, !remoteURL.isEmpty {
                diagnostics.append(
                    .warning(
                        .other(
                            "media '\(localPath)' is not in the export (only at \(remoteURL)); a placeholder is shown"),
                        at: location))
                return .unavailable(original: localPath)
            }
            diagnostics += warnings
            return source
        }
        if let remoteURL, !remoteURL.isEmpty {
            diagnostics.append(
                .warning(
                    .other("media '\(remoteURL)' is only remote, not in the export; a placeholder is shown"),
                    at: location))
            // Not the bare URL: written back into a log (`scrollback import`) it must stay a placeholder.
            return .unavailable(original: "remote only: " + remoteURL)
        }
        diagnostics.append(.warning(.missingMediaFile("(no file name)"), at: location))
        return .unavailable(original: "(no file name)")
    }

    /// GFM through cmark-gfm's safe renderer (raw HTML is escaped, never passed through);
    /// images resolve like media, inside the export. `linked`: local files the Markdown links to
    /// as `@root/<sitePath>` (an attachment among several), which the site must copy as well.
    /// Markdown over a `MarkdownLimits` bound is not rendered: its raw text is shown, escaped,
    /// with a warning (as a JSON log's message).
    public func richText(
        markdown: String, relativeTo file: URL, at location: SourceLocation, linked: [LocalAsset] = [],
        diagnostics: inout [Diagnostic]
    ) -> RichText {
        if let exceeded = MarkdownLimits.exceededLimit(inMarkdown: markdown) {
            diagnostics.append(
                .warning(.other("the markdown exceeds a limit (\(exceeded)); it is shown as plain text"), at: location))
            let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
            let html = "<p>" + lines.map { HTMLSanitizer.escape(String($0)) }.joined(separator: "<br />\n") + "</p>"
            return RichText(sanitizedHTML: html, plainText: markdown, markdownSource: markdown)
        }
        let images = RichTextImages(context: reading, file: file, location: location)
        let result = reading.markdown.render(markdown, imageURL: images.url(for:))
        diagnostics += images.warnings
        var rich = RichText(sanitizedHTML: result.html, plainText: result.plainText, markdownSource: markdown)
        rich.assets = images.assets + linked.filter { !images.assets.contains($0) }
        return rich
    }

    /// The sanitizer every reader uses (libxml2, allow-list): for HTML an importer assembles
    /// from parts it rendered, such as Discord's spoilers around cmark-gfm's output.
    public func sanitizedHTML(_ html: String) -> (html: String, plainText: String) {
        let result = reading.sanitizer.sanitize(html)
        return (result.html, result.plainText)
    }

    /// Every local media file resolved so far: what the site must copy.
    public var mediaAssets: [LocalAsset] { reading.media.resolvedAssets() }
}

/// Looks at the first bytes of a JSON document without parsing all of it.
enum JSONSniff {
    /// The keys of the top-level object that appear within `bytes` (a prefix of the document).
    /// Strings are skipped correctly; nesting is tracked so only depth-1 keys count.
    static func topLevelKeys(_ bytes: ArraySlice<UInt8>) -> Set<String> {
        guard bytes.first == UInt8(ascii: "{") else { return [] }
        return bytes.withUnsafeBufferPointer { bytes in
            var keys: Set<String> = []
            var depth = 0
            var index = 0
            var expectingKey = false
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    expectingKey = byte == UInt8(ascii: "{") && depth == 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return keys }
                case UInt8(ascii: ","):
                    expectingKey = depth == 1
                case UInt8(ascii: "\""):
                    var end = index + 1
                    while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                        // A backslash escapes the byte after it.
                        end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
                    }
                    if expectingKey, end < bytes.count {
                        keys.insert(
                            String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end]), as: UTF8.self))
                        expectingKey = false
                    }
                    index = end
                default: break
                }
                index += 1
            }
            return keys
        }
    }

    /// Whether the document starts as an array whose first element is an object holding all `keys`
    /// within the prefix (ChatGPT's `conversations.json`).
    static func firstArrayElementKeys(_ bytes: ArraySlice<UInt8>) -> Set<String> {
        guard bytes.first == UInt8(ascii: "[") else { return [] }
        var rest = bytes.dropFirst()
        while let first = rest.first, first == 0x20 || first == 0x0A || first == 0x0D || first == 0x09 {
            rest = rest.dropFirst()
        }
        return topLevelKeys(rest)
    }
}
