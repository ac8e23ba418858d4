import Foundation
import ScrollbackModel

/// The text of a WhatsApp "Export chat" file split into messages, before any meaning is given
/// to their bodies: where each message starts, its timestamp (with the date order detected
/// from the whole file) and its raw text (sender and body, continuation lines joined).
///
/// Layouts it reads (Android and iOS, any locale; `WhatsAppTimestamp.swift` has the grammar):
/// `1/29/18, 23:46 - Alice: text`, `29.01.18, 12:24 PM - …`, `[1/29/18, 12:24:03 PM] …`,
/// `[01/20/19 11:23] …`, `9/24/2019 11:30 p.m. - …`, `2022/12/14, 13:34. - …`,
/// `09/10/22, 10:37 p. m. - …` (with a no-break or narrow no-break space),
/// `٢٤‏/٤‏/٢٠٢٢، ٢:٠٧ م - …`, `18.3.2022 klo 14.56.01 - …`, `14:56 18/3/22 - …`,
/// `[R4/03/18 14:56:01] …`, `[3/18/2565 BE, 14:56:01] …`.
/// The file is read a line at a time (`WhatsAppLineReader`: UTF-8, or UTF-16 with its byte
/// order mark). Byte order marks anywhere and direction marks before a line are dropped; CRLF,
/// LF and CR line ends are all read. A line that does not start with a timestamp continues the
/// message before it, so no line is ever lost.
struct WhatsAppChatText {
    /// One message as written: its first line's position, its timestamp and its text.
    struct Entry {
        /// 1-based line of the timestamp.
        var line: Int
        /// 1-based UTF-8 column of the timestamp on that line.
        var column: Int
        /// The timestamp as written (marks dropped, spaces made plain): part of the message's stable id.
        var stamp: String
        /// The timestamp's numbers, in the order written.
        var header: Header
        /// Everything after the timestamp: `Sender: body` or a system line, then continuation lines.
        var text: String
    }

    /// The order of a date's day, month and year fields.
    enum DateOrder: String {
        case dayMonthYear = "D/M/Y"
        case monthDayYear = "M/D/Y"
        case yearMonthDay = "Y/M/D"
    }

    /// How the date order was settled: from the file (year first, a day above 12, dates in
    /// time order) or, when every date reads both ways, from the site's locale.
    enum OrderEvidence { case yearFirst, dayAboveTwelve, chronology, locale }

    /// Lines before the first message start (a file cut at the top, or a header the reader
    /// does not know): kept so nothing is lost, with the line they start at.
    var preamble: (line: Int, text: String)?
    /// The messages in file order.
    var entries: [Entry]
    /// The date order detected from every timestamp of the file.
    var order: DateOrder
    /// What settled `order`.
    var orderEvidence: OrderEvidence
    /// Lines that were not valid UTF-8 (kept, with U+FFFD for the bytes that are not).
    var invalidUTF8Lines: [Int] = []
    /// The first line that is not blank, when no line starts with a timestamp (for the warning
    /// that names a format not recognised).
    var firstLine: String?

    /// Splits `text` into messages; `nil` when no line starts with a timestamp.
    init?(_ text: String, localeOrder: DateOrder = .dayMonthYear) {
        var lines = WhatsAppLineReader(bytes: Array(text.utf8))
        self.init(reading: &lines, localeOrder: localeOrder)
        if entries.isEmpty { return nil }
    }

    /// Splits the lines of `lines` into messages, a line at a time (only the messages are
    /// kept, never the whole file). `entries` is empty when no line starts with a timestamp
    /// (then it is not a WhatsApp export, or one in a format not recognised: `firstLine`).
    /// `localeOrder`: the date order when the file leaves it open.
    init(reading lines: inout WhatsAppLineReader, localeOrder: DateOrder) {
        var entries: [Entry] = []
        var preambleText = ""
        var preambleLine = 0
        var lineNumber = 0
        var invalid: [Int] = []
        var firstLine: String?
        while let (read, valid) = lines.nextLine() {
            var line = read
            lineNumber += 1
            if !valid { invalid.append(lineNumber) }
            if line.unicodeScalars.contains("\u{FEFF}") {
                // Byte order marks, which exports scatter anywhere, even inside words.
                line = String(String.UnicodeScalarView(line.unicodeScalars.filter { $0 != "\u{FEFF}" }))
            }
            if let (header, stamp, restStart) = WhatsAppChatText.header(line[...]) {
                var column = 1
                for scalar in line.unicodeScalars {
                    guard WhatsAppChatText.isDirectionMark(scalar) else { break }
                    column += String(scalar).utf8.count
                }
                // The text after the timestamp, made in place: a long line is never held twice.
                line.removeSubrange(..<restStart)
                entries.append(Entry(line: lineNumber, column: column, stamp: stamp, header: header, text: line))
            } else if entries.isEmpty {
                if firstLine == nil, !line.allSatisfy(\.isWhitespace) { firstLine = line }
                if preambleLine == 0 {
                    preambleLine = lineNumber
                } else {
                    preambleText += "\n"
                }
                preambleText += WhatsAppChatText.withoutLeadingMarks(line)
            } else if let (stamp, restStart) = WhatsAppChatText.damagedStamp(line, after: entries[entries.count - 1]) {
                // A timestamp whose time is damaged (`3:22_AM`): its own message, never text of
                // the message before it, sent by someone else. Its time is left unreadable so
                // the reader dates it like its neighbour, with a warning.
                var header = entries[entries.count - 1].header
                header.hour = Int.max
                line.removeSubrange(..<restStart)
                entries.append(Entry(line: lineNumber, column: 1, stamp: stamp, header: header, text: line))
            } else {
                entries[entries.count - 1].text += "\n"
                entries[entries.count - 1].text += WhatsAppChatText.withoutLeadingMarks(line)
            }
        }
        for index in entries.indices { WhatsAppChatText.trimTrailingBlankLines(&entries[index].text) }
        WhatsAppChatText.trimTrailingBlankLines(&preambleText)
        self.preamble =
            preambleText.allSatisfy(\.isWhitespace) || entries.isEmpty ? nil : (preambleLine, preambleText)
        self.entries = entries
        self.invalidUTF8Lines = invalid
        self.firstLine = entries.isEmpty ? firstLine : nil
        (self.order, self.orderEvidence) = WhatsAppChatText.detectOrder(
            entries.map(\.header), localeOrder: localeOrder)
    }

    /// A line that opens like the message before it, with the same date, but whose time does
    /// not read (`1/23/23, 3:22_AM - User 1: …` after `1/23/23, 3:19 AM - User 2: …`): the
    /// damaged stamp and where the text after it starts. Only the previous message's exact
    /// date followed by a short time-like run and the layout's own end (` - ` or `] `) counts,
    /// so a continuation line that merely starts with a date stays text.
    static func damagedStamp(_ line: String, after previous: Entry) -> (String, String.Index)? {
        let bracketed = previous.stamp.hasPrefix("[")
        let date = previous.stamp.prefix { $0 != "," && $0 != " " }
        guard date.count > 4, line.hasPrefix(date) else { return nil }
        let end = bracketed ? "] " : " - "
        guard let close = line.range(of: end), line.distance(from: line.startIndex, to: close.lowerBound) <= 40
        else { return nil }
        let time = line[line.index(line.startIndex, offsetBy: date.count)..<close.lowerBound]
        // Digits, an AM/PM marker's few letters, separators: a time, not words.
        guard time.contains(where: \.isNumber), time.filter(\.isLetter).count <= 4,
            time.allSatisfy({ $0.isNumber || $0.isLetter || ":._, ".contains($0) })
        else { return nil }
        return (String(line[..<close.lowerBound]) + (bracketed ? "]" : ""), close.upperBound)
    }

    /// Whether the first bytes of a file open like a WhatsApp export: its first line that is not
    /// blank starts with a timestamp. Recognising by structure, never by file name (spec §6).
    static func looksLikeExport(head: [UInt8]) -> Bool {
        var lines = WhatsAppLineReader(bytes: head)
        while let (line, _) = lines.nextLine() {
            if line.unicodeScalars.allSatisfy({ $0.properties.isWhitespace || $0 == "\u{FEFF}" }) { continue }
            return header(line[...]) != nil
        }
        return false
    }

    /// Whether the first bytes of a `.txt` file look like a WhatsApp export whose timestamp this
    /// reader does not know: the first line that is not blank opens with a number (any
    /// script, after an optional `[`) and has `] ` or ` - ` and then `: ` (a sender) soon after.
    static func looksLikeUnrecognisedExport(head: [UInt8]) -> Bool {
        var lines = WhatsAppLineReader(bytes: Array(head.prefix(4096)))
        while let (line, _) = lines.nextLine() {
            let scalars = Array(
                line.unicodeScalars.filter { !isDirectionMark($0) && $0 != "\u{FEFF}" }.prefix(160))
            if scalars.allSatisfy({ $0.properties.isWhitespace }) { continue }
            var index = scalars.first == "[" ? 1 : 0
            while index < scalars.count, isSpace(scalars[index]) { index += 1 }
            guard index < scalars.count, Cursor.digit(scalars[index]) != nil || scalars[index].properties.isAlphabetic
            else { return false }
            let text = String(String.UnicodeScalarView(scalars))
            let close = scalars.first == "[" ? text.range(of: "] ") : text.range(of: " - ")
            guard let close, text.distance(from: text.startIndex, to: close.lowerBound) <= 48 else { return false }
            let stamp = text[..<close.lowerBound]
            guard stamp.unicodeScalars.contains(where: { Cursor.digit($0) != nil }) else { return false }
            return text[close.upperBound...].contains(": ")
        }
        return false
    }

    /// The date order that fits every timestamp: year first when the first field has 3–4
    /// digits (or is a Japanese or Persian year); else day/month or month/day by which one
    /// keeps more dates valid (a day above 12 settles it); when both do, the one whose dates
    /// run forward most often (exports are in time order, with few exceptions); when that ties
    /// too, D/M for dotted dates (no locale writes M.D.Y) and else `localeOrder`.
    static func detectOrder(_ headers: [Header], localeOrder: DateOrder) -> (DateOrder, OrderEvidence) {
        if headers.allSatisfy({ $0.firstDigits >= 3 }) { return (.yearMonthDay, .yearFirst) }
        let calendars = Calendars.utc
        func fits(_ order: DateOrder) -> Int {
            headers.reduce(0) { $0 + (date(of: $1, order: order, calendars: calendars) == nil ? 0 : 1) }
        }
        let dayFirst = fits(.dayMonthYear)
        let monthFirst = fits(.monthDayYear)
        if dayFirst != monthFirst {
            return (dayFirst > monthFirst ? .dayMonthYear : .monthDayYear, .dayAboveTwelve)
        }
        func backwardSteps(_ order: DateOrder) -> Int {
            var previous: Date?
            var steps = 0
            for header in headers {
                guard let date = date(of: header, order: order, calendars: calendars) else { continue }
                if let previous, date < previous { steps += 1 }
                previous = date
            }
            return steps
        }
        let dayFirstSteps = backwardSteps(.dayMonthYear)
        let monthFirstSteps = backwardSteps(.monthDayYear)
        if dayFirstSteps != monthFirstSteps {
            return (dayFirstSteps < monthFirstSteps ? .dayMonthYear : .monthDayYear, .chronology)
        }
        if headers.contains(where: \.dotted) { return (.dayMonthYear, .locale) }
        return (localeOrder == .yearMonthDay ? .dayMonthYear : localeOrder, .locale)
    }

    /// The order of day and month in `locale`'s short dates (CLDR through Foundation).
    static func order(ofLocale identifier: String) -> DateOrder {
        let pattern =
            DateFormatter.dateFormat(fromTemplate: "yMd", options: 0, locale: Locale(identifier: identifier)) ?? ""
        guard let day = pattern.firstIndex(of: "d"), let month = pattern.firstIndex(of: "M") else {
            return .dayMonthYear
        }
        return month < day ? .monthDayYear : .dayMonthYear
    }

    // MARK: - Lines

    /// The line without the direction marks before its first character (exports put them
    /// before names and file names; the ones inside stay).
    static func withoutLeadingMarks(_ line: String) -> Substring {
        let scalars = line.unicodeScalars
        let first = scalars.firstIndex { !isDirectionMark($0) } ?? scalars.endIndex
        return line[first...]
    }

    /// Left-to-right, right-to-left and Arabic letter marks, and the embeddings and isolates,
    /// which exports put before names, file names and inside Arabic dates.
    static func isDirectionMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// A space as WhatsApp writes one between date, time and marker: plain, no-break or narrow no-break.
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\u{00A0}" || scalar == "\u{202F}" || scalar == "\t" || scalar == "\u{2009}"
    }

    /// Drops the blank lines (ASCII white space only) at the end of `text`, in place (a message
    /// may be very long: no copy, no search past its last line break).
    static func trimTrailingBlankLines(_ text: inout String) {
        while let newline = text.utf8.lastIndex(of: UInt8(ascii: "\n")),
            text.utf8[text.utf8.index(after: newline)...].allSatisfy({
                $0 == 0x20 || $0 == 0x09 || $0 == 0x0B || $0 == 0x0C || $0 == 0x0D
            })
        {
            text.removeSubrange(newline...)
        }
    }
}
