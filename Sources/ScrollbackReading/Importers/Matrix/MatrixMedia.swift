import Foundation

/// The files of Element's export zip: with "Include attachments" Element writes each file as
/// `<folder>/<name>-<date and time>.<ext>` beside `export.json`, the folder by kind (`images`,
/// `videos`, `audio`, `files`, `stickers`), the name and extension from the event's `body`
/// (`.png` for stickers, `.ogg` for voice messages), and the date and time as the exporter's
/// browser wrote them in its own language and zone (`5-3-2023 at 10-05-11 AM`), with `/` and
/// `:` turned into `-`.
///
/// That date cannot be written again here (language and zone are unknown), so a file is found
/// by its name: the one file of the folder that starts with `<name>-` and ends with the
/// extension. When several do (photos all called `image.png`), the one whose time's seconds,
/// and minutes modulo 15 (no zone moves them), are the event's; a file still ambiguous is not
/// guessed at. Listings are read once per folder; nothing is read outside the export's folder,
/// and the caller resolves the path with the media rules (containment, real type).
final class MatrixMedia: @unchecked Sendable {
    /// The folder holding the export's JSON.
    let folder: URL
    /// Each kind folder's file names, read once (the reader is used on one thread at a time).
    private var listings: [String: [String]] = [:]

    init(folder: URL) {
        self.folder = folder
    }

    /// The path (relative to the export's folder) of the file of an event sent at `milliseconds`
    /// whose `body` is `body`, in kind folder `kind`; with how many files could be it.
    func find(
        folder kind: String, body: String, forcedExtension: String?, milliseconds: Double
    ) -> (
        path: String?, candidates: Int
    ) {
        guard !body.isEmpty, !body.contains("/") else { return (nil, 0) }
        var stem = body
        var ext = ""
        if let dot = body.lastIndex(of: "."), dot != body.startIndex {
            stem = String(body[..<dot])
            ext = String(body[dot...])
        }
        if let forcedExtension { ext = forcedExtension }
        let prefix = stem + "-"
        // Every file event scans its folder's listing: `count` walks a whole name, so it comes
        // after the checks that turn away almost every name (first, it was 57% of the CPU of a
        // build of 6,000 photos in one folder: 22.1 s of CPU, 9.3 s with it last).
        let shortest = prefix.count + ext.count
        var candidates = listing(kind).filter {
            $0.hasPrefix(prefix) && $0.hasSuffix(ext) && $0.count > shortest
        }
        if candidates.count > 1 {
            let seconds = Self.modulo(Int((milliseconds / 1000).rounded(.down)), 60)
            let minutes = Self.modulo(Int((milliseconds / 60000).rounded(.down)), 60)
            candidates = candidates.filter { name in
                let stamp = name.dropFirst(prefix.count).dropLast(ext.count)
                guard let time = Self.time(in: stamp) else { return false }
                return time.seconds == seconds && time.minutes % 15 == minutes % 15
            }
            if candidates.count != 1 { return (nil, max(candidates.count, 2)) }
        }
        guard let name = candidates.first else { return (nil, 0) }
        return (kind + "/" + name, 1)
    }

    /// The minutes and seconds of the last `H-MM-SS` in `stamp` (the time Element wrote).
    static func time(in stamp: Substring) -> (minutes: Int, seconds: Int)? {
        guard let match = stamp.matches(of: #/(\d{1,2})-(\d{2})-(\d{2})/#).last,
            let minutes = Int(match.output.2), let seconds = Int(match.output.3)
        else { return nil }
        return (minutes, seconds)
    }

    /// `value` modulo `divisor`, never negative (times before 1970 are negative).
    static func modulo(_ value: Int, _ divisor: Int) -> Int {
        let remainder = value % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }

    /// The visible file names of kind folder `kind`, sorted.
    private func listing(_ kind: String) -> [String] {
        if let names = listings[kind] { return names }
        let path = folder.appendingPathComponent(kind).path
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
            .filter { !$0.hasPrefix(".") }.sorted()
        listings[kind] = names
        return names
    }
}
