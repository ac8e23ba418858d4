import Foundation
import ScrollbackModel

/// IRC clients' logs (issue 43): irssi, ZNC's log module, WeeChat and HexChat, each dialect told
/// by the shape of its lines (`IrcDialect`). One conversation per channel or query: a folder of
/// day files (ZNC's `#chan/2023-01-15.log`, any `NAME.2023-01-15.log`) is one conversation.
///
/// Choices where the logs leave room:
/// - Channel and network come from where the clients put their logs by default: WeeChat's
///   `irc.NETWORK.#chan.weechatlog`, ZNC's `NETWORK/#chan/DAY.log` (or the older
///   `NETWORK_#chan_DAY.log`), irssi's and HexChat's `NETWORK/#chan.log`. The id is
///   `NETWORK-chan` (its slug), stable from one log to the next; the title is the channel; the
///   network is the index section.
/// - Times are the client's wall-clock times with no zone: they are read in the site's zone.
///   irssi and ZNC lines take their day from `--- Log opened`/`--- Day changed` or the file's
///   name; HexChat's from `**** BEGIN LOGGING AT` (for the year) and the line.
/// - Ids: a hash of the time stamp and the line, so a longer log of the same channel keeps
///   every permalink.
/// - `me` is not set: none of the four clients writes its own nick into the log (the config's
///   `me:` can say).
/// - A line that is not valid UTF-8 is read as Latin-1 (one warning per file); a line in no
///   layout of the file's dialect, or before the log says its day, is left out with its reason.
public enum IrcImporter: ExportImporter {
    public static let format = ExportFormat.irc
    public static let shape = ExportShape.file

    /// A text file (`.log`, `.weechatlog`, `.txt`) whose first lines read as one client's log.
    public static func detect(_ candidate: ExportCandidate) -> Bool {
        guard !candidate.isDirectory, !candidate.head.isEmpty, candidate.head.first != UInt8(ascii: "{") else {
            return false
        }
        var lines = WhatsAppLineReader(bytes: Array(candidate.head.prefix(8192)))
        lines.invalidAsLatin1 = true
        var head: [String] = []
        while head.count < 30, let (line, _) = lines.nextLine() { head.append(line) }
        return IrcDialect.detect(head) != nil
    }

    /// Where a log belongs: its channel (or query) and network, as its path says.
    struct Place: Hashable {
        var channel: String
        var network: String?
    }

    public static func read(
        _ export: DetectedExport, context: ImportContext, emit: (ImportedConversation) -> Void
    ) -> [Diagnostic] {
        var order: [Place] = []
        var files: [Place: [URL]] = [:]
        for file in export.items {
            let place = place(of: file)
            if files[place] == nil { order.append(place) }
            files[place, default: []].append(file)
        }
        var diagnostics: [Diagnostic] = []
        for place in order {
            // Day files sort by their names: in date order.
            let parts = files[place]!.sorted { $0.lastPathComponent < $1.lastPathComponent }
            if let imported = conversation(place, files: parts, context: context, diagnostics: &diagnostics) {
                emit(imported)
            }
        }
        return diagnostics
    }

    /// The conversation of one channel's files; `nil` when none of them reads as a log (a warning).
    static func conversation(
        _ place: Place, files: [URL], context: ImportContext, diagnostics: inout [Diagnostic]
    ) -> ImportedConversation? {
        let shown = files.map { context.displayPath($0) }
        var assembler = ConversationAssembler(
            format: .irc, id: place.network.map { $0 + "-" + place.channel } ?? place.channel, title: place.channel,
            key: context.relativePath(files[0].deletingLastPathComponent()) + "/irc-" + (place.network ?? "") + "/"
                + place.channel,
            sourceFiles: shown, location: SourceLocation(file: shown[0], line: 1, column: 1))
        assembler.section = place.network
        assembler.timeZone = context.config.layout.timeZone
        assembler.chatType = place.channel.first.map { "#&!+".contains($0) } == true ? .channel : .direct
        let timeZone = TimeZone(identifier: context.config.layout.timeZone) ?? TimeZone(identifier: "UTC")!
        var read = 0
        for (file, name) in zip(files, shown) {
            guard
                var lines = TextExportLines.open(
                    file, shown: name, context: context, latin1Fallback: true, report: { assembler.report($0) })
            else { continue }
            let reader = IrcLogReader(
                file: name, sourceFile: context.relativePath(file), timeZone: timeZone, fileDay: day(inName: file),
                richText: { markdown, location, diagnostics in
                    context.richText(markdown: markdown, relativeTo: file, at: location, diagnostics: &diagnostics)
                })
            if reader.read(&lines, into: &assembler) == nil {
                diagnostics.append(
                    .warning(
                        .other("not an irssi, ZNC, WeeChat or HexChat log after all; it is not built"),
                        at: SourceLocation(file: name, line: 1, column: 1)))
            } else {
                read += 1
            }
        }
        let hasErrors = assembler.diagnostics.contains { $0.severity == .error }
        return read == 0 && !hasErrors ? nil : assembler.finish()
    }

    /// The channel and network of `file` (see the type's notes).
    static func place(of file: URL) -> Place {
        var stem = file.lastPathComponent
        for suffix in [".weechatlog", ".log", ".txt"] where stem.lowercased().hasSuffix(suffix) {
            stem.removeLast(suffix.count)
            break
        }
        let folder = file.deletingLastPathComponent()
        if let (rest, _) = dated(stem) {
            stem = rest
            // Only a date: the folder is the channel, the one above it the network (ZNC).
            if stem.isEmpty {
                let network = folder.deletingLastPathComponent().lastPathComponent
                return Place(
                    channel: folder.lastPathComponent, network: network.isEmpty || network == "/" ? nil : network)
            }
        }
        if stem.hasPrefix("irc.") {
            let parts = stem.split(separator: ".", maxSplits: 2)
            if parts.count == 3 { return Place(channel: String(parts[2]), network: String(parts[1])) }
        }
        if let separator = stem.range(of: "_#") ?? stem.range(of: "_&") {
            return Place(
                channel: String(stem[stem.index(after: separator.lowerBound)...]),
                network: String(stem[..<separator.lowerBound]))
        }
        let network = folder.lastPathComponent
        return Place(channel: stem, network: network.isEmpty || network == "/" ? nil : network)
    }

    /// The name without a date at its end (`#chan.2023-01-15`, `libera_#chan_20230115`,
    /// `2023-01-15`), and that date; `nil` when it ends in no date.
    static func dated(_ stem: String) -> (String, (year: Int, month: Int, day: Int))? {
        let digits = stem.reversed().prefix { $0.isASCII && ($0.isNumber || $0 == "-") }
        let tail = String(digits.reversed().drop { $0 == "-" })
        let compact = tail.filter { $0 != "-" }
        guard compact.count == 8, tail.count == 8 || tail.count == 10, let year = Int(compact.prefix(4)),
            let month = Int(compact.dropFirst(4).prefix(2)), let day = Int(compact.suffix(2)),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var rest = String(stem.dropLast(tail.count))
        if let last = rest.last, "._-".contains(last) { rest.removeLast() }
        return (rest, (year, month, day))
    }

    /// The day a file's name gives.
    static func day(inName file: URL) -> (year: Int, month: Int, day: Int)? {
        var stem = file.lastPathComponent
        if let dot = stem.lastIndex(of: "."), dot != stem.startIndex { stem = String(stem[..<dot]) }
        return dated(stem)?.1
    }
}
