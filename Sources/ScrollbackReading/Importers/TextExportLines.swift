import Foundation
import ScrollbackModel

/// Opens a text export (LINE, IRC) for reading a line at a time, after its size is checked
/// against `maxLogBytes` (a sparse file can claim gigabytes it does not hold); bytes handed over
/// in memory (the fuzz targets) are read through the context.
enum TextExportLines {
    /// The lines of `file` (named `shown`), or `nil` with the located error handed to `report`.
    /// `latin1Fallback`: a line that is not valid UTF-8 is read as Latin-1 (IRC logs mix them).
    static func open(
        _ file: URL, shown: String, context: ImportContext, latin1Fallback: Bool = false,
        report: (Diagnostic) -> Void
    ) -> WhatsAppLineReader? {
        let start = SourceLocation(file: shown, line: 1, column: 1)
        var lines: WhatsAppLineReader
        if context.readsFromDisk {
            // The size of what is opened (a link's target), before a byte of it is read. The
            // reader's closure keeps the handle, which closes when the reader goes.
            guard let opened = FileHandle(forReadingAtPath: file.path), let size = try? opened.seekToEnd(),
                (try? opened.seek(toOffset: 0)) != nil
            else {
                report(.error(.fileSystem("cannot read file"), at: start))
                return nil
            }
            if let tooLarge = LogReader.sizeProblem(size: Int64(size), limit: context.config.maxLogBytes) {
                report(.error(tooLarge, at: start))
                return nil
            }
            lines = WhatsAppLineReader(handle: opened, size: Int(size))
        } else {
            guard let bytes = context.contents(of: file, shown: shown, report: report) else { return nil }
            if let tooLarge = LogReader.sizeProblem(size: Int64(bytes.count), limit: context.config.maxLogBytes) {
                report(.error(tooLarge, at: start))
                return nil
            }
            lines = WhatsAppLineReader(bytes: bytes)
        }
        lines.invalidAsLatin1 = latin1Fallback
        return lines
    }

    /// `line` without the byte order mark and direction marks some apps put before a line.
    static func withoutMarks(_ line: String) -> Substring {
        line.drop { $0 == "\u{FEFF}" || $0 == "\u{200E}" || $0 == "\u{200F}" }
    }
}
