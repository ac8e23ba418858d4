import Foundation
import ScrollbackMarkdown
import ScrollbackModel

/// Reads a Markdown conversation log (spec §2) through cmark-gfm's document tree.
///
/// - YAML front matter (`---` … `---` or `...` at the top) gives the conversation's fields,
///   decoded with Yams (see `MarkdownFrontMatter`): `title`, `description`, `me`, `timezone`,
///   `version`, `id`, `participants` (id → name, or id → `{ name, avatar, color }`), `links`
///   (URL → `{ title, teaser, thumbnail, siteName }`) and `layout` (the spec §3 options, parsed
///   by `LayoutOptionParsing` like the JSON reader and the config do). A file without front
///   matter holding `participants` is not a log (a README): the result is a `.note`
///   (`Problem.notALog`), which `build --verbose` prints; no error.
/// - Only top-level blocks are looked at: a heading (any level) whose whole text is
///   `YYYY-MM-DD` sets the day; a paragraph whose first inline is **strong** (a participant id
///   or exact display name) followed on its first line by a time starts a message; a paragraph
///   starting with an *emphasised* time is a system message. A header inside a code block,
///   quote or list item is content of the message around it.
/// - Between sender and time any of `·`, `-`, `—`, `–`, `,`, `|`, `:`, `•` and spaces may stand.
///   Times: `HH:MM`, `HH:MM:SS` (on the current day), `YYYY-MM-DD HH:MM[:SS]` (local), or
///   ISO 8601 with `Z` or an offset. A dated header also sets the day for the times after it.
///   Local times are in the front matter's `timezone`, else `layout.timezone`, else the site's.
/// - A strong first inline is taken as a header attempt when it names a participant and a digit
///   follows, or when what follows looks like a time (`9:`, `2024-`): only then are an unknown
///   sender or an unparsable time errors, so `**Note** 3 things` stays text.
/// - A message's body is the rest of its header paragraph and every block up to the next
///   message start or date heading; its kind is inferred from the body (`MarkdownKindInference`).
/// - Message ids are `m1`, `m2`, … in the order the messages are written (system messages
///   included), so an id names the same message as long as nothing is inserted before it.
///   Messages are then ordered by date, ties keeping file order. Replies and reactions have no
///   Markdown syntax.
/// - Headings before the first message (a title) are ignored; other text outside any message is
///   ignored with one warning.
/// - Near misses (spec §2: never merged silently): a paragraph whose first line is a participant
///   and a time without the bold, with words between the bold sender and the time, or with the
///   time inside the bold, and a heading that is a date in another form (`May 4, 2024`), are
///   warnings at their start; their text stays in the message before them (before any message,
///   a paragraph is an error, since there is nothing to keep it in).
/// - Images in rich text that are local files are written as `@root/media/<hash>.<ext>`; the
///   renderer replaces `@root/` with the relative path to the site root.
///
/// Every error in the file is collected, each with file, line and column (cmark-gfm's source
/// positions, the YAML mark plus the front matter's offset); any error makes the conversation `nil`.
struct MarkdownLogReader {
    let context: ReadingContext

    /// Reads the log at `file`, whose bytes are `data`.
    func read(_ data: [UInt8], file: URL) -> ReadResult {
        let path = context.displayPath(file)
        guard var text = String(validating: data, as: UTF8.self) else {
            return ReadResult(
                conversation: nil,
                diagnostics: [.error(.invalidUTF8, at: Self.firstInvalidUTF8(data, file: path))])
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var session = MarkdownLogSession(context: context, file: file, path: path)
        let conversation = session.conversation(from: text)
        let hasError = session.diagnostics.contains { $0.severity == .error }
        return ReadResult(conversation: hasError ? nil : conversation, diagnostics: session.diagnostics)
    }

    /// Where the first byte that is not valid UTF-8 sits.
    private static func firstInvalidUTF8(_ data: [UInt8], file: String) -> SourceLocation {
        var line = 1
        var lineStart = 0
        var iterator = data.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1, encoded.first == UInt8(ascii: "\n") {
                    line += 1
                    lineStart = offset + 1
                }
                offset += encoded.count
            case .error:
                return SourceLocation(file: file, line: line, column: offset - lineStart + 1)
            case .emptyInput:
                return SourceLocation(file: file, line: line, column: 1)
            }
        }
    }
}

/// What a top-level block means in a Markdown log.
private enum BlockRole {
    /// A date heading: the day for the times that follow.
    case day(MarkdownClock.Day)
    /// A message header: the paragraph's first line names the sender and the time.
    case message(MessageHeader)
    /// A system message: the paragraph starts with an emphasised time.
    case system(SystemHeader)
    /// A heading, header or time that is meant as one but is wrong; already reported. Ends the
    /// previous message like a real start, so errors do not cascade.
    case brokenStart
    /// Anything else: content of the message it follows.
    case content
    /// A paragraph or heading that looks like a message start or date heading but is not one
    /// (`hint` says why): content of the message it follows, reported so it is never merged
    /// silently (spec §2).
    case nearMiss(hint: String)
}

private struct MessageHeader {
    /// The participant id, when the strong text names one.
    var sender: String
    var time: MarkdownClock.WrittenTime
    var timeText: String
    var timeLocation: SourceLocation
}

private struct SystemHeader {
    var time: MarkdownClock.WrittenTime
    var timeText: String
    var timeLocation: SourceLocation
}

/// The state of reading one Markdown file.
struct MarkdownLogSession {
    let context: ReadingContext
    let file: URL
    let path: String
    var diagnostics: [Diagnostic] = []

    /// Participant ids, and display names to ids, for resolving header senders.
    var participantIDs: Set<String> = []
    var idsByName: [String: String] = [:]
    /// Preview data from the front matter's `links:`, by URL.
    var frontMatterLinks: [String: LinkItem] = [:]

    init(context: ReadingContext, file: URL, path: String) {
        self.context = context
        self.file = file
        self.path = path
    }

    func location(_ position: MarkdownPosition) -> SourceLocation {
        SourceLocation(file: path, line: max(position.line, 1), column: max(position.column, 1))
    }

    /// Records that the file is not a log and why.
    mutating func notALog(_ reason: String) {
        diagnostics.append(
            Diagnostic(.note, .notALog(reason: reason), at: SourceLocation(file: path, line: 1, column: 1)))
    }

    mutating func error(_ problem: Problem, at location: SourceLocation) {
        diagnostics.append(.error(problem, at: location))
    }

    mutating func warning(_ problem: Problem, at location: SourceLocation) {
        diagnostics.append(.warning(problem, at: location))
    }

    // MARK: - The file

    mutating func conversation(from text: String) -> Conversation? {
        let (placement, body) = splitFrontMatter(text)
        var frontMatter = MarkdownFrontMatter()
        // Spec §2: a `.md` file is a log only when it opens with front matter holding
        // `participants`; a README or notes beside the logs are skipped (a note for `--verbose`).
        guard let placement, diagnostics.isEmpty else {
            if diagnostics.isEmpty { notALog("it has no front matter") }
            return nil
        }
        let namesParticipants = placement.lines.contains { $0.hasPrefix("participants:") }
        switch placement.decode(file: path) {
        case .success(let decoded): frontMatter = decoded
        case .failure(let diagnostic):
            if !namesParticipants {
                notALog("its front matter has no 'participants'")
                return nil
            }
            diagnostics.append(diagnostic)
            return nil
        }
        if frontMatter.participants == nil, !namesParticipants {
            notALog("its front matter has no 'participants'")
            return nil
        }
        let yaml = placement
        let header = conversationFields(frontMatter, yaml: yaml)

        let zoneName = header.timeZone ?? header.layout.timeZone ?? context.config.layout.timeZone
        let clock = MarkdownClock(timeZone: TimeZone(identifier: zoneName) ?? TimeZone(identifier: "UTC")!)
        // Lines cmark-gfm would take quadratic time over are read as text, each with a warning.
        let (boundedBody, changes) = MarkdownLimits.neutralisingPathologicalBlocks(body)
        for change in changes {
            warning(
                .other("the Markdown exceeds a limit (\(change.reason)); it is read as plain text"),
                at: SourceLocation(file: path, line: change.line, column: 1))
        }
        let document = MarkdownDocument(boundedBody)
        let messages = self.messages(in: document, clock: clock)
        return Conversation(
            id: header.id, title: frontMatter.title, description: frontMatter.description, section: frontMatter.section,
            me: header.me,
            timeZone: header.timeZone, participants: header.participants, messages: messages, layout: header.layout,
            source: SourceLocation(file: path, line: 1, column: 1))
    }

    /// Splits `---` front matter from the Markdown. The Markdown keeps the front matter's lines as
    /// empty lines, so cmark-gfm's line numbers are the file's.
    mutating func splitFrontMatter(_ text: String) -> (FrontMatterPlacement?, String) {
        guard text.hasPrefix("---") else { return (nil, text) }
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard let first = lines.first, first.trimmingTrailingWhitespace() == "---" else { return (nil, text) }
        guard
            let closing = lines.indices.dropFirst().first(where: {
                let line = lines[$0].trimmingTrailingWhitespace()
                return line == "---" || line == "..."
            })
        else {
            error(
                .invalidYAML("the front matter opened on line 1 is never closed; expected a line '---' after it"),
                at: SourceLocation(file: path, line: 1, column: 1))
            return (nil, "")
        }
        let yamlLines = Array(lines[1..<closing])
        let placement = FrontMatterPlacement(yaml: yamlLines.joined(separator: "\n"), lines: yamlLines)
        let body = String(repeating: "\n", count: closing + 1) + lines[(closing + 1)...].joined(separator: "\n")
        return (placement, body)
    }

    // MARK: - Messages

    /// The participant id a header's strong text names: an id, else an exact display name.
    private func participantID(named text: String) -> String? {
        if participantIDs.contains(text) { return text }
        return idsByName[text]
    }

    /// Whether `text` names a participant by id or display name, ignoring case: a near miss
    /// (`Alice 09:41`) need not spell the sender exactly to be reported.
    private func looselyNamesParticipant(_ text: String) -> Bool {
        if participantID(named: text) != nil { return true }
        let lowered = text.lowercased()
        return participantIDs.contains { $0.lowercased() == lowered }
            || idsByName.keys.contains { $0.lowercased() == lowered }
    }

    private mutating func messages(in document: MarkdownDocument, clock: MarkdownClock) -> [Message] {
        let blocks = document.blocks
        let roles = blocks.map { role(of: $0) }
        var messages: [Message] = []
        var day: MarkdownClock.Day?
        // After a date heading that is wrong (already reported), times have no day; saying so
        // again for each of them would only repeat the first error.
        var dayIsBroken = false
        var number = 0
        var index = 0
        var warnedAboutStrayContent = false
        while index < blocks.count {
            let start = index
            index += 1
            switch roles[start] {
            case .day(let newDay):
                day = newDay
                dayIsBroken = false
                continue
            case .brokenStart:
                if blocks[start].kind == .heading {
                    day = nil
                    dayIsBroken = true
                    continue
                }
                number += 1
            case .nearMiss(let hint):
                // Before the first message there is nothing to keep a paragraph in: reporting it
                // only as a warning would lose what it says. A heading there is a title.
                if blocks[start].kind == .heading {
                    warning(.other("\(hint); it is ignored"), at: location(blocks[start].start))
                } else {
                    error(
                        .other("\(hint); it comes before any message, so it cannot be kept"),
                        at: location(blocks[start].start))
                }
                continue
            case .content:
                if blocks[start].kind != .heading, !warnedAboutStrayContent {
                    warnedAboutStrayContent = true
                    warning(
                        .other(
                            "text outside any message is ignored; expected a message header such as '**alice** 09:41' or a '# YYYY-MM-DD' heading before it"
                        ), at: location(blocks[start].start))
                }
                continue
            case .message, .system:
                number += 1
            }
            // The body: every following block up to the next start or date heading.
            while index < blocks.count {
                if case .nearMiss(let hint) = roles[index] {
                    warning(
                        .other("\(hint); it is kept as part of the message before it"),
                        at: location(blocks[index].start))
                } else if case .content = roles[index] {
                } else {
                    break
                }
                index += 1
            }
            switch roles[start] {
            case .message(let header):
                guard
                    let date = resolve(
                        header.time, text: header.timeText, at: header.timeLocation, day: &day,
                        dayIsBroken: dayIsBroken,
                        clock: clock)
                else { continue }
                var inference = MarkdownKindInference(session: self, document: document)
                let kind = inference.kind(headerBlock: start, bodyEnd: index)
                diagnostics += inference.diagnostics
                messages.append(
                    Message(
                        id: "m\(number)", sender: header.sender, date: date, kind: kind,
                        location: location(blocks[start].start)))
            case .system(let header):
                guard
                    let date = resolve(
                        header.time, text: header.timeText, at: header.timeLocation, day: &day,
                        dayIsBroken: dayIsBroken,
                        clock: clock)
                else { continue }
                let text = systemText(document: document, headerBlock: start, bodyEnd: index)
                messages.append(
                    Message(
                        id: "m\(number)", sender: nil, date: date, kind: .system(text),
                        location: location(blocks[start].start)))
            default:
                continue
            }
        }
        return Self.sortedByDate(messages)
    }

    /// The date of a header time; a dated time also becomes the current day.
    private mutating func resolve(
        _ time: MarkdownClock.WrittenTime, text: String, at location: SourceLocation, day: inout MarkdownClock.Day?,
        dayIsBroken: Bool, clock: MarkdownClock
    ) -> Date? {
        guard let date = clock.date(time, on: day) else {
            if case .timeOfDay = time, day == nil {
                if !dayIsBroken { error(.timeBeforeAnyDate(text), at: location) }
            } else {
                error(.invalidDate(text, expected: MarkdownClock.expectedTime), at: location)
            }
            return nil
        }
        if case .timeOfDay = time {} else { day = clock.day(of: date) }
        return date
    }

    /// Orders by date; equal dates keep file order.
    private static func sortedByDate(_ messages: [Message]) -> [Message] {
        let order = messages.indices.sorted { left, right in
            let (a, b) = (messages[left].date, messages[right].date)
            return a != b ? a < b : left < right
        }
        return order.map { messages[$0] }
    }

    /// What a top-level block is; reports the errors of headings and headers that are meant as
    /// such but are wrong.
    private mutating func role(of block: MarkdownBlock) -> BlockRole {
        switch block.kind {
        case .heading:
            let text = block.plainText.trimmingCharacters(in: .whitespaces)[...]
            if let day = MarkdownClock.parseDay(text) { return .day(day) }
            if MarkdownClock.looksLikeDay(text) {
                error(.invalidDate(String(text), expected: MarkdownClock.expectedDay), at: location(block.start))
                return .brokenStart
            }
            if MarkdownClock.looksLikeOtherDateFormat(text) {
                return .nearMiss(
                    hint:
                        "heading '\(text)' looks like a date but does not set the day; expected a date heading '# YYYY-MM-DD' such as '# 2024-05-03'"
                )
            }
            return .content
        case .paragraph:
            return headerRole(of: block)
        default:
            return .content
        }
    }

    private mutating func headerRole(of block: MarkdownBlock) -> BlockRole {
        let inlines = block.inlines
        guard let first = inlines.first else { return .content }
        let lineEnd = inlines.firstIndex { $0.kind == .softBreak || $0.kind == .lineBreak } ?? inlines.endIndex
        switch first.kind {
        case .strong:
            let senderText = first.plainText.trimmingCharacters(in: .whitespaces)
            let tail = inlines[1..<lineEnd]
            let tailText = tail.map(\.plainText).joined()
            let (skipped, timeText) = Self.strippingSeparators(tailText)
            guard let firstCharacter = timeText.first, firstCharacter.isASCII, firstCharacter.isNumber else {
                return nearMissHeader(strongText: senderText, after: timeText)
            }
            let sender = participantID(named: senderText)
            guard sender != nil || MarkdownClock.looksLikeTime(timeText) else { return .content }
            let timeLocation = offsetLocation(of: tail.first, byUTF8: skipped, fallback: block.start)
            guard let sender else {
                error(.unknownSender(senderText), at: location(first.start.line > 0 ? first.start : block.start))
                return .brokenStart
            }
            guard let time = MarkdownClock.parseTime(timeText) else {
                error(.invalidDate(String(timeText), expected: MarkdownClock.expectedTime), at: timeLocation)
                return .brokenStart
            }
            return .message(
                MessageHeader(sender: sender, time: time, timeText: String(timeText), timeLocation: timeLocation))
        case .emphasis:
            let timeText = first.plainText.trimmingCharacters(in: .whitespaces)[...]
            guard let time = MarkdownClock.parseTime(timeText) else {
                return nearMissPlainHeader(inlines[..<lineEnd].map(\.plainText).joined())
            }
            return .system(
                SystemHeader(
                    time: time, timeText: String(timeText),
                    timeLocation: location(first.start.line > 0 ? first.start : block.start)))
        default:
            return nearMissPlainHeader(inlines[..<lineEnd].map(\.plainText).joined())
        }
    }

    // MARK: - Near misses (spec §2: never merged silently)

    /// A paragraph opening with **strong** text that is not followed by a time: a near miss
    /// when the strong text is a participant and the first line ends in a time after a few
    /// words (`**alice** said at 09:41`, `**alice** (phone) 09:41`), or when the time sits
    /// inside the bold (`**alice 09:41**`).
    private func nearMissHeader(strongText: String, after rest: Substring) -> BlockRole {
        if let (name, time) = Self.splitTrailingTime(strongText), looselyNamesParticipant(name) {
            return .nearMiss(
                hint:
                    "'**\(strongText)**' looks like a message header with the time inside the bold; expected '**\(name)** \(time)'"
            )
        }
        guard looselyNamesParticipant(strongText), let (words, time) = Self.splitTrailingTime(String(rest)),
            words.split(whereSeparator: \.isWhitespace).count <= 3
        else { return .content }
        return .nearMiss(
            hint:
                "'**\(strongText)** \(rest)' looks like a message header with words between the sender and the time; expected '**\(strongText)** \(time)' (only ·, -, —, ',', | or : between them)"
        )
    }

    /// A paragraph whose first line is a participant and a time without the bold
    /// (`alice 09:41`, `*alice* 09:41`): a near miss.
    private func nearMissPlainHeader(_ firstLine: String) -> BlockRole {
        let line = firstLine.trimmingCharacters(in: .whitespaces)
        guard let (name, time) = Self.splitTrailingTime(line), looselyNamesParticipant(name) else {
            return .content
        }
        return .nearMiss(
            hint:
                "'\(line)' looks like a message header but the sender is not in bold; expected '**\(name)** \(time)'"
        )
    }

    /// `text` split into what comes before a header time at its end (separators trimmed) and
    /// that time (`HH:MM[:SS]`, `YYYY-MM-DD HH:MM[:SS]` or ISO 8601); `nil` without one.
    static func splitTrailingTime(_ text: String) -> (before: String, time: String)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let words = trimmed.split(whereSeparator: \.isWhitespace)
        guard words.count >= 2 else { return nil }
        for count in [2, 1] where words.count > count {
            let time = words.suffix(count).joined(separator: " ")
            guard MarkdownClock.parseTime(time[...]) != nil else { continue }
            let before = words.dropLast(count).joined(separator: " ")
            var rest = before[...]
            while let last = rest.last, last.isWhitespace || separators.contains(last) { rest = rest.dropLast() }
            guard !rest.isEmpty else { return nil }
            return (String(rest), time)
        }
        return nil
    }

    /// The location `utf8Offset` bytes into `inline` (whose text starts the header's time part).
    private func offsetLocation(
        of inline: MarkdownInline?, byUTF8 utf8Offset: Int, fallback: MarkdownPosition
    )
        -> SourceLocation
    {
        guard let inline, inline.start.line > 0 else { return location(fallback) }
        return location(MarkdownPosition(line: inline.start.line, column: inline.start.column + utf8Offset))
    }

    /// Characters allowed between the sender and the time, or after a system message's time.
    private static let separators: Set<Character> = ["·", "-", "—", "–", ",", "|", ":", "•"]

    /// `text` without leading whitespace and separators, and how many UTF-8 bytes were skipped;
    /// trailing whitespace is trimmed too.
    static func strippingSeparators(_ text: String) -> (skippedUTF8: Int, rest: Substring) {
        var rest = text[...]
        var skipped = 0
        while let character = rest.first, character.isWhitespace || separators.contains(character) {
            skipped += character.utf8.count
            rest = rest.dropFirst()
        }
        while let last = rest.last, last.isWhitespace { rest = rest.dropLast() }
        return (skipped, rest)
    }

    /// A system message's text: the rest of its paragraph after the time, then any following blocks.
    private func systemText(document: MarkdownDocument, headerBlock: Int, bodyEnd: Int) -> String {
        var parts: [String] = []
        let rest = document.blocks[headerBlock].inlines.dropFirst().map(\.plainText).joined()
        let (_, text) = Self.strippingSeparators(rest)
        if !text.isEmpty { parts.append(String(text)) }
        if headerBlock + 1 < bodyEnd {
            let following = document.render(blocks: (headerBlock + 1)..<bodyEnd).plainText
            if !following.isEmpty { parts.append(following) }
        }
        return parts.joined(separator: "\n")
    }
}

extension Substring {
    /// The text without trailing spaces, tabs and carriage returns.
    fileprivate func trimmingTrailingWhitespace() -> Substring {
        var result = self
        while let last = result.last, last == " " || last == "\t" || last == "\r" { result = result.dropLast() }
        return result
    }
}
