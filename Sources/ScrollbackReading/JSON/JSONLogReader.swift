import Foundation
import ScrollbackModel

/// Reads a JSON conversation log (spec §1) with a position-tracking parser, so every error
/// names its line and column.
///
/// STUB: to be replaced by the real reader.
struct JSONLogReader {
    let context: ReadingContext

    /// Reads the log at `file`, whose bytes are `data`.
    func read(_ data: [UInt8], file: URL) -> ReadResult {
        ReadResult(conversation: nil, diagnostics: [])
    }
}
