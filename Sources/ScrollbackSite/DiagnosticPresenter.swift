import Foundation
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

    /// The diagnostic for the terminal and the overlay.
    public func present(_ diagnostic: Diagnostic) -> PresentedDiagnostic {
        let message = Self.neutralized(diagnostic.problem.message)
        guard let location = diagnostic.location else {
            return PresentedDiagnostic(
                severity: diagnostic.severity.rawValue, file: nil, line: 0, column: 0, message: message, sourceLine: nil
            )
        }
        let absolute = absolutePath(of: location.file)
        let line = absolute.flatMap { Self.sourceLine(number: location.line, column: location.column, inFile: $0) }
        return PresentedDiagnostic(
            severity: diagnostic.severity.rawValue,
            file: Self.neutralized(absolute.map(relativeToCurrentDirectory) ?? location.file),
            line: location.line, column: location.column, message: message, sourceLine: line)
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

    /// Line `number` of the file, read in chunks up to that line only (a log may be huge);
    /// control characters replaced, cut to `maximumLineLength` characters around `column`.
    static func sourceLine(number: Int, column: Int, inFile path: String) -> String? {
        guard number >= 1, let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var line = 1
        var current: [UInt8] = []
        let byteLimit = 64 * 1024
        reading: while let chunk = try? handle.read(upToCount: 64 * 1024), !chunk.isEmpty {
            for byte in chunk {
                if byte == 0x0A {
                    if line == number { break reading }
                    line += 1
                } else if line == number, current.count < byteLimit {
                    current.append(byte)
                }
            }
        }
        guard line == number else { return nil }
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
