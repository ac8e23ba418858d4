import Foundation
import ScrollbackModel

/// Reads a Markdown conversation log (spec §2) through cmark-gfm's document tree.
///
/// STUB: to be replaced by the real reader.
struct MarkdownLogReader {
    let context: ReadingContext

    /// Reads the log at `file`, whose bytes are `data`.
    func read(_ data: [UInt8], file: URL) -> ReadResult {
        ReadResult(conversation: nil, diagnostics: [])
    }
}
