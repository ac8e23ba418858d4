import Foundation
import ScrollbackHTML
import ScrollbackMarkdown
import ScrollbackModel

/// What reading one log file gave: the conversation (unless an error stopped it) and every diagnostic.
public struct ReadResult: Sendable {
    /// The conversation; `nil` when an error made it unusable.
    public var conversation: Conversation?
    /// Errors and warnings, each with its location.
    public var diagnostics: [Diagnostic]
    /// Where a JSON log's messages were written, when asked for (`read(contents:of:tracingMessages:)`)
    /// and the log read without errors.
    public var messageTrace: JSONMessageTrace?

    /// Creates a result.
    public init(conversation: Conversation?, diagnostics: [Diagnostic]) {
        self.conversation = conversation
        self.diagnostics = diagnostics
    }
}

/// What every reader shares: the input folder, config, media resolution, previews, rich text.
struct ReadingContext: Sendable {
    let inputRoot: URL
    let config: SiteConfig
    let media: MediaResolver
    let previews: LinkPreviewStore
    let markdown: MarkdownRenderer
    let sanitizer: HTMLSanitizer

    /// The path of `file` as shown in diagnostics: relative to the input folder's parent when
    /// inside it, so `sample-logs/trip.json:3:5` reads naturally.
    func displayPath(_ file: URL) -> String {
        ReadingContext.displayPath(file, inputRoot: inputRoot)
    }

    /// `displayPath(_:)` for a given input folder.
    static func displayPath(_ file: URL, inputRoot: URL) -> String {
        let root = inputRoot.standardizedFileURL.path
        let path = file.standardizedFileURL.path
        let base = PathText.parent(root)
        if path.hasPrefix(base + "/") { return String(path.dropFirst(base.count + 1)) }
        return path
    }
}

/// Reads conversation logs (`*.json`, `*.md`) from an input folder into the model.
public struct LogReader: Sendable {
    /// The input folder; media paths may not escape it.
    public var inputRoot: URL
    /// Site configuration (time zone defaults, remote media).
    public var config: SiteConfig
    let context: ReadingContext

    /// Creates a reader for `inputRoot`.
    public init(inputRoot: URL, config: SiteConfig) {
        self.inputRoot = inputRoot
        self.config = config
        self.context = ReadingContext(
            inputRoot: inputRoot, config: config,
            media: MediaResolver(
                inputRoot: inputRoot, allowsRemoteMedia: config.remoteMedia, maximumMediaBytes: config.maxMediaBytes),
            previews: LinkPreviewStore(folder: inputRoot.appendingPathComponent("previews")),
            markdown: MarkdownRenderer(), sanitizer: HTMLSanitizer())
    }

    /// The error for a log of `size` bytes when that is over `limit` (config `maxLogBytes`):
    /// checked before the log is read, as a sparse file can claim gigabytes it does not hold.
    public static func sizeProblem(size: Int64, limit: Int64) -> Problem? {
        guard size > limit else { return nil }
        return .fileSystem(
            "the log is \(size) bytes, over the limit of \(limit) bytes; expected a smaller log, "
                + "or a larger 'maxLogBytes' in the config")
    }

    /// Reads one log file; the extension chooses the reader.
    public func read(_ file: URL) -> ReadResult {
        let location = SourceLocation(file: context.displayPath(file), line: 1, column: 1)
        if let size = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int64,
            let tooLarge = Self.sizeProblem(size: size, limit: config.maxLogBytes)
        {
            return ReadResult(conversation: nil, diagnostics: [.error(tooLarge, at: location)])
        }
        guard let bytes = LogReader.contents(ofFile: file.path) else {
            return ReadResult(
                conversation: nil,
                diagnostics: [.error(.fileSystem("cannot read file"), at: location)])
        }
        return read(contents: bytes, of: file)
    }

    /// Reads a log whose bytes are `bytes` (read already); `file` names it and chooses the reader. With `tracingMessages`, a JSON log's result
    /// says where each message was written. With `threads` above 1, a large JSON log's later
    /// messages are read on a second thread (the result is the same).
    public func read(
        contents bytes: [UInt8], of file: URL, tracingMessages: Bool = false, threads: Int = 1
    ) -> ReadResult {
        let location = SourceLocation(file: context.displayPath(file), line: 1, column: 1)
        if bytes.isEmpty { return ReadResult(conversation: nil, diagnostics: [.error(.emptyFile, at: location)]) }
        switch file.pathExtension.lowercased() {
        case "md", "markdown":
            // The JSON parser checks UTF-8 as it goes; Markdown gets the same located error up front.
            if let bad = UTF8Check.firstInvalidByte(in: bytes, file: location.file) {
                return ReadResult(conversation: nil, diagnostics: [.error(.invalidUTF8, at: bad)])
            }
            return MarkdownLogReader(context: context).read(bytes, file: file)
        default:
            return JSONLogReader(context: context).read(
                bytes, file: file, tracingMessages: tracingMessages, threads: threads)
        }
    }
}

extension LogReader {
    /// Reads some of the messages of JSON log `file` (opened as `log`) without the others:
    /// the log's head up to its `messages` array's `[` (at `arrayOpenOffset`), the messages whose
    /// byte ranges are `messageRanges` (from an earlier read's `JSONMessageTrace`, in file order),
    /// and every message from `tailStart` (where the array goes on with `,` after the last of the
    /// earlier messages) to the end of the file. For an incremental build of a log that only
    /// gained messages at the end: it reads the new ones and the old ones it needs, and no other
    /// byte of the file. `nil` when those ranges do not fit the file or cannot be read.
    ///
    /// The result's trace gives each message's range in the file. A diagnostic's position is in
    /// the text the reader saw, not always the file's: a caller that needs exact positions reads
    /// the whole file instead.
    public func read(
        _ log: LogFile, of file: URL, arrayOpenOffset: Int, messageRanges: [Range<Int>], tailStart: Int
    ) -> ReadResult? {
        guard arrayOpenOffset < tailStart, tailStart < log.size,
            log.bytes(tailStart..<(tailStart + 1)) == [UInt8(ascii: ",")],
            messageRanges.allSatisfy({ $0.lowerBound > arrayOpenOffset && $0.upperBound <= tailStart })
        else { return nil }
        // The log as the reader sees it: head, the chosen messages joined by commas, the tail.
        var text: [UInt8] = []
        text.reserveCapacity(
            arrayOpenOffset + 1 + messageRanges.reduce(0) { $0 + $1.count + 1 } + log.size - tailStart)
        guard log.read(0..<(arrayOpenOffset + 1), appendingTo: &text) else { return nil }
        // Where each chosen message starts in `text`, and its offset from there to the file.
        var shifts: [(start: Int, shift: Int)] = []
        for (number, range) in messageRanges.enumerated() {
            if number > 0 { text.append(UInt8(ascii: ",")) }
            shifts.append((text.count, range.lowerBound - text.count))
            guard log.read(range, appendingTo: &text) else { return nil }
        }
        // With no earlier message, the tail's leading `,` would follow the `[`.
        let tail = messageRanges.isEmpty ? (tailStart + 1) : tailStart
        shifts.append((text.count, tail - text.count))
        guard log.read(tail..<log.size, appendingTo: &text) else { return nil }
        var result = read(contents: text, of: file, tracingMessages: true)
        if var trace = result.messageTrace {
            // Back to the file's offsets: each range lies in one piece of `text`.
            trace.arrayOpenOffset = arrayOpenOffset
            trace.elementRanges = trace.elementRanges.map { range in
                let shift = shifts.last { $0.start <= range.lowerBound }?.shift ?? 0
                return (range.lowerBound + shift)..<(range.upperBound + shift)
            }
            result.messageTrace = trace
        }
        return result
    }

    /// The bytes of the (regular) file at `path`, read straight into an array (no `Data` copy:
    /// logs can be hundreds of megabytes), or `nil` if it cannot be read.
    public static func contents(ofFile path: String) -> [UInt8]? {
        guard let file = LogFile(path: path) else { return nil }
        return file.bytes(0..<file.size)
    }

    /// Every local media file the logs read so far refer to (also images inside rich text,
    /// written there as `@root/media/…`), ordered by site path: the files the site must copy.
    public var mediaAssets: [LocalAsset] { context.media.resolvedAssets() }
}

/// The URL slug of a conversation: what its folder in the site is called.
public enum ConversationSlug {
    /// The longest slug, in UTF-8 bytes: well under the 255-byte file-name limit of common
    /// file systems, with room for the hash of a shortened one.
    public static let maximumBytes = 96

    /// Letters and digits of any script, lowercased (Unicode NFC, so a name typed on any system
    /// gives one slug), and the combining marks that belong to them; every other run of
    /// characters becomes one `-`, with none at either end.
    /// `Weekend Trip (2024).json` → `weekend-trip-2024`; `家族.json` → `家族`; `Семья` → `семья`.
    ///
    /// Text with no letter or digit (`🎉`) becomes `c-` and a stable hash of the text, so two such
    /// names never share a slug. A slug over `maximumBytes` is cut at a character boundary and
    /// ends in a hash of the whole text: stable, and distinct from every other cut.
    public static func make(from text: String) -> String {
        var slug = ""
        slug.reserveCapacity(text.utf8.count)
        var pendingDash = false
        let isASCII = text.utf8.allSatisfy { $0 < 0x80 }
        let normalized = isASCII ? text : text.precomposedStringWithCanonicalMapping
        for scalar in normalized.unicodeScalars {
            switch scalar.value {
            case 0x61...0x7A, 0x30...0x39:
                if pendingDash, !slug.isEmpty { slug.unicodeScalars.append("-") }
                pendingDash = false
                slug.unicodeScalars.append(scalar)
            case 0x41...0x5A:
                if pendingDash, !slug.isEmpty { slug.unicodeScalars.append("-") }
                pendingDash = false
                slug.unicodeScalars.append(Unicode.Scalar(scalar.value + 32)!)
            case 0..<0x80:
                pendingDash = true
            default:
                switch scalar.properties.generalCategory {
                case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                    .decimalNumber, .otherNumber, .letterNumber:
                    if pendingDash, !slug.isEmpty { slug.unicodeScalars.append("-") }
                    pendingDash = false
                    slug += String(scalar).lowercased()
                case .nonspacingMark, .spacingMark, .enclosingMark:
                    // A mark joins the letter before it (Devanagari vowel signs, accents).
                    if !slug.isEmpty, !pendingDash { slug.unicodeScalars.append(scalar) }
                default:
                    pendingDash = true
                }
            }
        }
        if slug.isEmpty { return "c-" + hash(of: text) }
        guard slug.utf8.count > maximumBytes else { return slug }
        let suffix = "-" + hash(of: text)
        var cut = ""
        for character in slug {
            if cut.utf8.count + character.utf8.count + suffix.utf8.count > maximumBytes { break }
            cut.append(character)
        }
        while cut.hasSuffix("-") { cut.removeLast() }
        return cut + suffix
    }

    /// Eight hex digits of FNV-1a over the UTF-8 of `text`: stable across runs and machines.
    static func hash(of text: String) -> String {
        let hex = String(StableHash.fnv1a32(text.utf8), radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
