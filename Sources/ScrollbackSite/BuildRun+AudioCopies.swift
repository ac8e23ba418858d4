import ScrollbackCache
import ScrollbackModel

/// Step 6's second part (`copyMedia`): the voice notes' `.m4a` copies (`AudioTranscoder`).
extension BuildRun {
    /// The `.m4a` copy of each Ogg voice note that has one (`AudioTranscoder`), beside it in
    /// `media/`, linked from the build cache, which keeps only the copies this site uses; without
    /// ffmpeg, one note for them all in the summary.
    mutating func publishAudioCopies(into folder: inout StagedFolder) throws {
        var copies: [String: String] = [:]
        var notCopied = Set<String>()
        for media in outcomes.lazy.compactMap(\.entry).flatMap(\.media) where media.audioType != nil {
            if let key = media.transcoded {
                copies[AudioTranscoder.copySitePath(of: media.sitePath)] = key
            } else {
                notCopied.insert(media.sitePath)
            }
        }
        let cache = AudioTranscoder.cacheFolder(in: BuildTree(staging: staging))
        let used = Set(copies.values.map { $0 + ".m4a" })
        for name in FileSystem.entries(cache) where !used.contains(name) { FileSystem.removeTree(cache + "/" + name) }
        // No empty folder either: a clean and an incremental build give the same folders.
        if copies.isEmpty { FileSystem.removeTree(cache) }
        for sitePath in copies.keys.sorted() {
            let key = copies[sitePath]!
            let cached = AudioTranscoder.cachedCopy(key: key, in: BuildTree(staging: staging))
            // A reused conversation's copy is the previous build's.
            if FileSystem.kind(cached) != .file {
                try FileSystem.makeDirectory(cache)
                _ = try FileSystem.linkOrCopy(
                    AudioTranscoder.cachedCopy(key: key, in: previousTree ?? BuildTree(staging: output!.path)),
                    to: cached)
            }
            let cacheName =
                cacheFolder.map { $0.location.current + "/" + AudioTranscoder.cacheSubfolder } ?? "the build cache"
            // A media file of the site with that name (another file whose content hash is the
            // voice note's) keeps it: one clash never fails the build.
            if FileSystem.kind(staging + "/" + sitePath) != .missing {
                record([
                    .warning(.fileSystem("'\(sitePath)' is already a media file of the site; not replaced"), at: nil)
                ])
                continue
            }
            let destination = try folder.prepare(sitePath)
            if try FileSystem.linkOrCopy(cached, to: destination) {
                report.mediaFiles += 1
            } else {
                record([
                    .warning(
                        .fileSystem(
                            "the .m4a copy of voice note '\(sitePath)' is missing from the build cache; expected it in "
                                + "\(cacheName) (build with --clean to make it again)"), at: nil)
                ])
            }
        }
        if transcoder?.ffmpeg == nil, !notCopied.isEmpty {
            let count = notCopied.count
            report.summaryNotes.append(
                "\(count) voice note\(count == 1 ? "" : "s") in Ogg (.opus, .ogg) will not play in Safari: "
                    + "install ffmpeg to add an .m4a copy")
        }
    }
}
