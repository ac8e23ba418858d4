import Foundation

/// The exporter's time zone, from the offsets DiscordChatExporter writes: every timestamp is
/// the exporting machine's local time with its offset (`2020-09-24T18:36:05.123+02:00`), or UTC
/// with `+00:00` when the export was made with `--utc`.
///
/// The instants are exact either way (the offset is part of the date); the zone decides the
/// wall clock the pages show and `import` writes into the log's `timezone`:
/// - one offset throughout: the fixed zone of that offset (`GMT+0200`); none when it is UTC,
///   which may be `--utc` rather than the exporter's zone, so the site's own zone applies;
/// - several offsets (summer and winter time): a zone whose offset at every sampled instant is
///   the one the export wrote. Foundation's table of common abbreviations is asked first (its
///   zones are the familiar names: `Europe/Paris` for CET, `America/New_York` for EST), then
///   every zone ICU knows, in name order. None fitting (an export merged from two machines):
///   the most frequent offset, as a fixed zone.
struct DiscordTimeZone {
    /// For each offset seen (seconds east of UTC): how often, and up to `samplesPerOffset`
    /// instants it was seen at (the first ones, and each change of offset).
    private var seen: [Int: (count: Int, instants: [Date])] = [:]
    private var lastOffset: Int?
    /// Instants kept per offset: each one a zone must agree with.
    static let samplesPerOffset = 64

    /// Notes the offset of `stamp`, which parsed to `date`. A stamp without one (`Z`) counts as UTC.
    mutating func note(_ stamp: String, at date: Date) {
        let offset = Self.offsetSeconds(of: stamp)
        var entry = seen[offset] ?? (0, [])
        entry.count += 1
        // The first instants, and every instant where the offset changes: where zones differ.
        if entry.instants.count < Self.samplesPerOffset, entry.instants.isEmpty || lastOffset != offset {
            entry.instants.append(date)
        }
        seen[offset] = entry
        lastOffset = offset
    }

    /// The zone's identifier, or `nil` for the site's zone.
    var identifier: String? {
        guard !seen.isEmpty else { return nil }
        if seen.count == 1, let offset = seen.keys.first {
            return offset == 0 ? nil : Self.fixedZone(offset)
        }
        for name in Self.candidateZones {
            guard let zone = TimeZone(identifier: name) else { continue }
            let fits = seen.allSatisfy { offset, entry in
                entry.instants.allSatisfy { zone.secondsFromGMT(for: $0) == offset }
            }
            if fits { return name }
        }
        let common = seen.max { $0.value.count != $1.value.count ? $0.value.count < $1.value.count : $0.key > $1.key }!
        return common.key == 0 ? nil : Self.fixedZone(common.key)
    }

    /// `GMT+0200`: a zone identifier Foundation (and the JSON log reader) accepts.
    static func fixedZone(_ offset: Int) -> String? {
        TimeZone(secondsFromGMT: offset)?.identifier
    }

    /// Zones to try, best known names first, each once, in an order that never changes.
    static let candidateZones: [String] = {
        var names: [String] = []
        var added = Set<String>()
        let abbreviations = TimeZone.abbreviationDictionary
        for key in abbreviations.keys.sorted() where added.insert(abbreviations[key]!).inserted {
            names.append(abbreviations[key]!)
        }
        for name in TimeZone.knownTimeZoneIdentifiers.sorted() where added.insert(name).inserted {
            names.append(name)
        }
        return names
    }()

    /// Seconds east of UTC of an ISO 8601 stamp's `±HH:MM` (or `±HHMM`, `±HH`) ending; 0 for `Z`
    /// or none. Only the part after the time is looked at, so the date's `-`s never count.
    static func offsetSeconds(of stamp: String) -> Int {
        let bytes = Array(stamp.utf8)
        guard let time = bytes.firstIndex(where: { $0 == UInt8(ascii: "T") || $0 == UInt8(ascii: " ") }),
            let sign = bytes[time...].lastIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") })
        else { return 0 }
        let digits = bytes[(sign + 1)...].filter { $0 != UInt8(ascii: ":") }
        guard digits.count == 2 || digits.count == 4, digits.allSatisfy({ $0 &- 0x30 < 10 }) else { return 0 }
        let number = digits.map { Int($0 - 0x30) }
        let hours = number[0] * 10 + number[1]
        let minutes = digits.count == 4 ? number[2] * 10 + number[3] : 0
        let seconds = hours * 3600 + minutes * 60
        return bytes[sign] == UInt8(ascii: "-") ? -seconds : seconds
    }
}
