import Foundation
import ScrollbackCache
import ScrollbackModel

/// A diagnostic as the user sees it, in the terminal and in the dev server's error overlay:
/// the file named relative to the current folder (so editors and terminals jump to it), and
/// the offending source line.
public struct PresentedDiagnostic: Codable, Hashable, Sendable {
    /// `error` or `warning`.
    public var severity: String
    /// The file relative to the current folder, or `nil` for a problem that belongs to no file.
    public var file: String?
    /// 1-based line (0 without a location).
    public var line: Int
    /// 1-based column in UTF-8 bytes (0 without a location).
    public var column: Int
    /// What is wrong and what was expected.
    public var message: String
    /// The line the location points into, control characters replaced; `nil` if unreadable.
    public var sourceLine: String?

    /// Creates a presented diagnostic.
    public init(severity: String, file: String?, line: Int, column: Int, message: String, sourceLine: String?) {
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.sourceLine = sourceLine
    }

    /// `file:line:column`, or an empty string without a location.
    public var locationText: String {
        guard let file else { return "" }
        return "\(file):\(line):\(column)"
    }

    /// The terminal form: `file:line:col: error: message`, then the source line and a caret.
    public var terminalText: String {
        var text = (file == nil ? "" : locationText + ": ") + "\(severity): \(message)"
        if let sourceLine {
            text += "\n    " + sourceLine
            // A line cut around the column has no caret (its start is not the line's start).
            if sourceLine.hasPrefix("…") { return text }
            // The caret counts characters of the line before the column (columns count bytes).
            let prefixBytes = Array(sourceLine.utf8.prefix(max(column - 1, 0)))
            let width = String(decoding: prefixBytes, as: UTF8.self).count
            text += "\n    " + String(repeating: " ", count: width) + "^"
        }
        return text
    }
}

/// Turns `Diagnostic`s (whose files are named relative to the input folder's parent, as the
/// readers name them) into `PresentedDiagnostic`s.
public struct DiagnosticPresenter: Sendable {
    /// The input folder, as given to the builder.
    public let inputRoot: URL
    /// The folder file names are made relative to.
    public let currentDirectory: URL

    /// The longest source line shown; longer lines are cut around the column.
    static let maximumLineLength = 240

    /// Creates a presenter for diagnostics of a build of `inputRoot`.
    public init(inputRoot: URL, currentDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
    {
        self.inputRoot = URL(fileURLWithPath: FileSystem.canonicalPath(inputRoot.path))
        self.currentDirectory = URL(fileURLWithPath: FileSystem.canonicalPath(currentDirectory.path))
    }

    /// Test seam: called with the path each time a file is opened to show its lines.
    var onFileRead: (@Sendable (String) -> Void)?
    /// Test seam: called with how many bytes of a file were read to show its lines.
    var onBytesRead: (@Sendable (Int) -> Void)?

    /// How many locations of the collapsed ones a repeated warning names.
    static let collapsedLocationsShown = 3

    /// How many warnings alike of one file are each shown; more are collapsed into one.
    static let collapseAbove = 3

    /// The diagnostic for the terminal and the overlay.
    public func present(_ diagnostic: Diagnostic) -> PresentedDiagnostic {
        presentAll([diagnostic], collapsingRepeats: false)[0]
    }

    /// Every diagnostic for the terminal and the overlay, in their order, in time linear in their
    /// number: each file is read once, for all the lines its diagnostics point into (5,475 errors
    /// in one file re-read it 5,475 times: 80 s).
    ///
    /// With `collapsingRepeats`, more than `collapseAbove` warnings (or notes) that say the same
    /// thing of one file (the same message once quoted names and numbers are set aside: 255
    /// duplicate message ids of one chat) are shown once, at the first, with how many more there are and where the next few
    /// are: "… and 254 more like it (at a.json:9:3, …)". Errors are never collapsed.
    public func presentAll(_ diagnostics: [Diagnostic], collapsingRepeats: Bool = true) -> [PresentedDiagnostic] {
        var shown: [Diagnostic] = []
        var repeats: [[SourceLocation]] = []
        if collapsingRepeats {
            // Each diagnostic's group key (`nil`: never collapsed), and each group's size.
            let keys = diagnostics.map { diagnostic -> String? in
                guard diagnostic.severity != .error, let location = diagnostic.location else { return nil }
                return diagnostic.severity.rawValue + "\u{0}" + location.file + "\u{0}"
                    + Self.shape(of: diagnostic.problem.message)
            }
            var sizes: [String: Int] = [:]
            for key in keys.compactMap({ $0 }) { sizes[key, default: 0] += 1 }
            var groupOf: [String: Int] = [:]
            for (diagnostic, key) in zip(diagnostics, keys) {
                // A few alike are each worth their line ("thoughts", "reasoning_recap"); only
                // many alike are collapsed.
                guard let key, sizes[key]! > Self.collapseAbove else {
                    shown.append(diagnostic)
                    repeats.append([])
                    continue
                }
                if let group = groupOf[key] {
                    repeats[group].append(diagnostic.location!)
                } else {
                    groupOf[key] = shown.count
                    shown.append(diagnostic)
                    repeats.append([])
                }
            }
        } else {
            shown = diagnostics
            repeats = Array(repeating: [], count: diagnostics.count)
        }
        // The lines each file's diagnostics need, read in one pass per file.
        var absolutePaths: [String: String?] = [:]
        var wanted: [String: Set<Int>] = [:]
        for diagnostic in shown {
            guard let location = diagnostic.location else { continue }
            if absolutePaths[location.file] == nil { absolutePaths[location.file] = absolutePath(of: location.file) }
            if let path = absolutePaths[location.file]!, location.line >= 1 {
                wanted[path, default: []].insert(location.line)
            }
        }
        var lines: [String: [Int: [UInt8]]] = [:]
        for path in wanted.keys.sorted() {
            onFileRead?(path)
            lines[path] = Self.sourceLines(numbers: wanted[path]!, inFile: path, bytesRead: onBytesRead)
        }
        return zip(shown, repeats).map { diagnostic, more in
            var message = Self.neutralized(diagnostic.problem.message)
            if !more.isEmpty {
                let named = more.prefix(Self.collapsedLocationsShown).map { "\($0.line):\($0.column)" }
                message +=
                    " (… and \(more.count) more like it in this file, at line:column "
                    + named.joined(separator: ", ") + (more.count > named.count ? ", …" : "") + ")"
            }
            guard let location = diagnostic.location else {
                return PresentedDiagnostic(
                    severity: diagnostic.severity.rawValue, file: nil, line: 0, column: 0, message: message,
                    sourceLine: nil)
            }
            let absolute = absolutePaths[location.file] ?? nil
            let line = absolute.flatMap { lines[$0]?[location.line] }.map {
                Self.shownLine($0, column: location.column)
            }
            return PresentedDiagnostic(
                severity: diagnostic.severity.rawValue,
                file: Self.neutralized(absolute.map(relativeToCurrentDirectory) ?? location.file),
                line: location.line, column: location.column, message: message, sourceLine: line)
        }
    }

    /// A message with its quoted parts and numbers set aside: what repeated warnings share
    /// ("duplicate message id '…' (first at …:…:…)").
    static func shape(of message: String) -> String {
        var shape = ""
        var quote: Character?
        var lastWasDigit = false
        for character in message {
            if let open = quote {
                if character == open { quote = nil }
                continue
            }
            if character == "'" || character == "`" || character == "\"" {
                quote = character
                shape.append("…")
                continue
            }
            if character.isNumber {
                if !lastWasDigit { shape.append("#") }
                lastWasDigit = true
                continue
            }
            lastWasDigit = false
            shape.append(character)
        }
        return shape
    }

    /// The absolute path of a file a diagnostic names (relative to the input folder's parent).
    func absolutePath(of file: String) -> String? {
        if file.hasPrefix("/") { return file }
        let candidate = inputRoot.deletingLastPathComponent().appendingPathComponent(file).standardizedFileURL.path
        return FileManager.default.fileExists(atPath: candidate) ? candidate : nil
    }

    /// `path` relative to the current folder (`../logs/a.json` when it is beside it).
    func relativeToCurrentDirectory(_ path: String) -> String {
        let target = path.split(separator: "/")
        let base = currentDirectory.path.split(separator: "/")
        var shared = 0
        while shared < min(target.count, base.count), target[shared] == base[shared] { shared += 1 }
        let ups = Array(repeating: "..", count: base.count - shared)
        return (ups + target[shared...].map(String.init)).joined(separator: "/")
    }

    /// The longest part of a line kept in memory (a log may be one 2 GB line).
    static let lineByteLimit = 64 * 1024

    /// Lines `numbers` of the file, in one pass read in chunks up to the last of them only (a log
    /// may be huge), each cut to `lineByteLimit` bytes; a line the file does not have is absent.
    /// The reading stops at the last line's `lineByteLimit`-th byte: a diagnostic at 1:1 of a
    /// 2 GB one-line log reads 64 KiB, not the 2 GB (12 s). `bytesRead` is told how many were read.
    static func sourceLines(
        numbers: Set<Int>, inFile path: String, bytesRead: ((Int) -> Void)? = nil
    ) -> [Int: [UInt8]] {
        guard let last = numbers.max(), last >= 1, let handle = FileHandle(forReadingAtPath: path) else { return [:] }
        defer { try? handle.close() }
        var found: [Int: [UInt8]] = [:]
        var line = 1
        var wanted = numbers.contains(1)
        var current: [UInt8] = []
        var total = 0
        defer { bytesRead?(total) }
        reading: while let chunk = try? handle.read(upToCount: 64 * 1024), !chunk.isEmpty {
            total += chunk.count
            var index = chunk.startIndex
            while index < chunk.endIndex {
                // The bytes of this line that are kept, or none: the rest up to the newline is skipped.
                let room = wanted ? lineByteLimit - current.count : 0
                let newline = chunk[index...].firstIndex(of: 0x0A)
                let lineEnd = newline ?? chunk.endIndex
                if room > 0 { current.append(contentsOf: chunk[index..<min(lineEnd, index + room)]) }
                guard let newline else {
                    // The last wanted line has all the bytes it keeps: nothing after it is needed.
                    if line == last, current.count >= lineByteLimit { break reading }
                    break
                }
                if wanted { found[line] = current }
                if line == last { break reading }
                line += 1
                wanted = numbers.contains(line)
                current.removeAll(keepingCapacity: true)
                index = newline + 1
            }
        }
        // The last line read has no newline after it (or was cut at `lineByteLimit`).
        if line <= last, wanted, found[line] == nil { found[line] = current }
        return found
    }

    /// Line `number` of the file, shown as `shownLine` does; `nil` if the file has no such line.
    static func sourceLine(number: Int, column: Int, inFile path: String) -> String? {
        sourceLines(numbers: [number], inFile: path)[number].map { shownLine($0, column: column) }
    }

    /// A line's bytes as shown: control characters replaced, cut to `maximumLineLength`
    /// characters around `column`.
    static func shownLine(_ bytes: [UInt8], column: Int) -> String {
        var current = bytes
        if current.last == 0x0D { current.removeLast() }
        var text = neutralized(String(decoding: current, as: UTF8.self))
        if text.count > maximumLineLength {
            let start = max(0, min(column - 1, current.count) - maximumLineLength / 2)
            let startIndex = text.index(text.startIndex, offsetBy: min(start, text.count))
            text = (start > 0 ? "…" : "") + String(text[startIndex...].prefix(maximumLineLength)) + "…"
        }
        return text
    }

    /// `text` with control characters (terminal escapes included) shown as U+FFFD, tabs as a space.
    static func neutralized(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    if scalar == "\t" { return " " }
                    return scalar.properties.generalCategory == .control ? "\u{FFFD}" : scalar
                }))
    }
}
