import Foundation

/// The phrases WhatsApp writes into an export in every language it ships, read once from the
/// generated `WhatsAppPhraseTable` (WhatsApp's own iOS and Android strings) into lookups.
///
/// Phrases are compared in a normal form (`normalized`): direction marks dropped, every kind of
/// space a space, curly and corner quotes straight, lowercase, no final full stop. WhatsApp's
/// exports and its resources differ in just these ways (`“%@”` in the resource, `"X"` in the
/// file; `This message was deleted.` on iOS, no full stop on Android).
enum WhatsAppPhrases {
    /// One line of the table.
    struct Phrase: Sendable {
        /// BCP 47 language of the app that writes it (`de`, `zh-Hant`, `fil`).
        let language: String
        /// What it is: `omitted.image`, `attached`, `deleted.you`, `system`, … (see `WhatsAppPhraseTable`).
        let kind: String
        /// The text as WhatsApp's resource has it, `%@`/`%1$s` standing for names.
        let text: String
    }

    /// A phrase with names in it, cut at its placeholders.
    struct Template: Sendable {
        /// The normalized text between placeholders; a phrase without one is a single part.
        let parts: [String]
        /// Whether the exporter did what it says (`You added %@`).
        let byExporter: Bool
        /// The full stop that ends the phrase, if it is a sentence: WhatsApp may write another
        /// after it (`Your security code with Elon changed. Tap to learn more.`).
        var sentenceEnd: Character? = nil

        /// Whether `line` (normalized) is this phrase, or this sentence and more after it.
        func fits(_ line: String) -> Bool {
            if matches(line) { return true }
            guard let stop = sentenceEnd, let last = parts.last, !last.isEmpty else { return false }
            var searchStart = line.startIndex
            while let range = line.range(of: last + String(stop), range: searchStart..<line.endIndex) {
                let sentence = String(line[..<line.index(before: range.upperBound)])
                if matches(sentence) { return true }
                searchStart = line.index(after: range.lowerBound)
            }
            return false
        }

        /// How many characters of the phrase are its own (not names).
        var literalCount: Int { parts.reduce(0) { $0 + $1.count } }

        /// Whether `line` (normalized) is this phrase, whatever names fill the placeholders.
        /// A placeholder stands for at least one character.
        func matches(_ line: String) -> Bool {
            guard let first = parts.first, let last = parts.last, line.hasPrefix(first) else { return false }
            if parts.count == 1 { return line == first }
            var rest = line.dropFirst(first.count)
            guard rest.hasSuffix(last), rest.count > last.count else { return false }
            rest = rest.dropLast(last.count)
            for part in parts.dropFirst().dropLast() {
                guard !rest.isEmpty, let range = rest.range(of: part), range.lowerBound > rest.startIndex,
                    range.upperBound < rest.endIndex
                else { return false }
                rest = rest[range.upperBound...]
            }
            return !rest.isEmpty
        }
    }

    /// Every phrase of the table, in its order.
    static let all: [Phrase] = WhatsAppPhraseTable.lines.split(separator: "\n").compactMap { line in
        let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3 else { return nil }
        return Phrase(language: String(fields[0]), kind: String(fields[1]), text: String(fields[2]))
    }

    /// The languages of the table, sorted.
    static let languages: [String] = Array(Set(all.map(\.language))).sorted()

    /// The phrases of one language and kind (for tests and reports).
    static func phrases(_ kind: String, in language: String) -> [String] {
        all.filter { $0.language == language && $0.kind == kind }.map(\.text)
    }

    // MARK: - Normal form

    /// `text` as phrases are compared: direction marks dropped, spaces and quotes unified,
    /// lowercase, trimmed, without a final full stop (`.`, `。`, `।`, `۔`).
    static func normalized(_ text: some StringProtocol) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            // Most text is ASCII: a tab or a carriage return is a space, the rest stays.
            if scalar.isASCII {
                scalars.append(scalar.value == 0x09 || scalar.value == 0x0D ? " " : scalar)
            } else if WhatsAppChatText.isDirectionMark(scalar) || scalar == "\u{FEFF}" {
                continue
            } else if scalar.properties.isWhitespace {
                scalars.append(" ")
            } else if doubleQuotes.contains(scalar) {
                scalars.append("\"")
            } else if singleQuotes.contains(scalar) {
                scalars.append("'")
            } else {
                scalars.append(scalar)
            }
        }
        // Every space is a plain one by now: trimmed by hand (Foundation's trimming costs more
        // than the rest, and this runs for every message).
        var result = Substring(String(scalars).lowercased())
        result = trimmingSpaces(result)
        if let last = result.last, ".。।۔".contains(last) {
            result = trimmingSpaces(result.dropLast())
        }
        return String(result)
    }

    /// `text` without the spaces (U+0020) at its ends.
    private static func trimmingSpaces(_ text: Substring) -> Substring {
        guard let first = text.firstIndex(where: { $0 != " " }), let last = text.lastIndex(where: { $0 != " " })
        else { return "" }
        return text[first...last]
    }

    /// Whether `text` may open with a phrase whose normal form starts with one of `starts`: its
    /// first scalar that is not a mark or a space, in lowercase for ASCII, is one of them (a
    /// look that costs no copy, made before the line is normalized).
    static func mayStart(_ text: some StringProtocol, with starts: Set<Unicode.Scalar>) -> Bool {
        guard
            let first = text.unicodeScalars.first(where: {
                !WhatsAppChatText.isDirectionMark($0) && $0 != "\u{FEFF}" && !$0.properties.isWhitespace
            })
        else { return false }
        if first.isASCII, (0x41...0x5A).contains(first.value) {
            return starts.contains(Unicode.Scalar(first.value + 0x20)!)
        }
        return !first.isASCII || starts.contains(first)
    }

    /// Quotation marks read as `"` (curly, low, guillemets, corner brackets, fullwidth).
    private static let doubleQuotes = Set("“”„‟«»「」『』＂".unicodeScalars)
    /// Quotation marks read as `'` (an apostrophe is often a curly one: `group’s icon`).
    private static let singleQuotes = Set("‘’‚‛".unicodeScalars)

    /// The longest deleted-message phrase in UTF-8 bytes: a longer body is not looked up.
    static let longestDeletedPhrase = all.filter { $0.kind.hasPrefix("deleted") }.map(\.text.utf8.count).max() ?? 0

    /// A resource text cut at its placeholders (`%@`, `%1$@`, `%s`, `%2$s`, `%d`, `%u`), each part normalized.
    static func cut(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == "%", let end = placeholderEnd(in: text, from: index) {
                parts.append(current)
                current = ""
                index = end
            } else {
                current.append(text[index])
                index = text.index(after: index)
            }
        }
        parts.append(current)
        // A part keeps the spaces next to a placeholder (`You added ` + name): each is
        // normalized with a stand-in letter where a name meets it, so only the phrase's own
        // ends are trimmed and only its own last full stop dropped.
        return parts.enumerated().map { offset, part in
            let opensWithName = offset > 0
            let closesWithName = offset < parts.count - 1
            let text = normalized((opensWithName ? "x" : "") + part + (closesWithName ? "x" : ""))
            return String(text.dropFirst(opensWithName ? 1 : 0).dropLast(closesWithName ? 1 : 0))
        }
    }

    /// The end of a printf-style placeholder starting at `start` (`%`), if one starts there.
    private static func placeholderEnd(in text: String, from start: String.Index) -> String.Index? {
        var index = text.index(after: start)
        while index < text.endIndex, text[index].isASCII, text[index].isNumber { index = text.index(after: index) }
        if index < text.endIndex, text[index] == "$" { index = text.index(after: index) }
        guard index < text.endIndex, "@sdu".contains(text[index]) else { return nil }
        if text.index(after: start) < index, text[text.index(before: index)] != "$" { return nil }
        return text.index(after: index)
    }

    // MARK: - Lookups

    /// Media left out of the export, by normalized phrase (`<media omitted>`, `image omitted`).
    static let omitted: [String: WhatsAppBody.OmittedMedia] = {
        var table: [String: WhatsAppBody.OmittedMedia] = [:]
        for phrase in all where phrase.kind.hasPrefix("omitted.") {
            let media = WhatsAppBody.OmittedMedia(rawValue: String(phrase.kind.dropFirst("omitted.".count))) ?? .any
            table[normalized(phrase.text)] = table[normalized(phrase.text)] ?? media
        }
        return table
    }()

    /// "Document omitted" phrases by their length in characters, longest first: iOS writes them
    /// after the document's name (`Report.pdf ‎document omitted`).
    static let documentOmittedByLength: [(length: Int, phrases: Set<String>)] = {
        var table: [Int: Set<String>] = [:]
        for phrase in all where phrase.kind == "omitted.document" {
            let text = normalized(phrase.text)
            table[text.count, default: []].insert(text)
        }
        return table.keys.sorted(by: >).map { ($0, table[$0]!) }
    }()

    /// The last characters of the "document omitted" phrases: a line ending otherwise is not looked up.
    static let documentOmittedLastCharacters: Set<Character> = Set(
        documentOmittedByLength.flatMap(\.phrases).compactMap(\.last))

    /// The words around an attached file's name, normalized: iOS `<attached: %@>`, Android `%s (file attached)`.
    static let attached: [(prefix: String, suffix: String)] = {
        var seen = Set<[String]>()
        return all.filter { $0.kind == "attached" }.compactMap { phrase in
            let parts = cut(phrase.text)
            guard parts.count == 2, seen.insert(parts).inserted else { return nil }
            return (parts[0], parts[1])
        }
    }()

    /// The first characters of the attachment phrases' opening words and the last of their
    /// closing words (Persian and Tamil put the name last or use no brackets).
    static let attachedEdges: (first: Set<Character>, last: Set<Character>) = (
        Set(attached.compactMap(\.prefix.first)), Set(attached.compactMap(\.suffix.last))
    )

    /// How a shared location starts (`location: `), normalized.
    static let locationPrefixes: [String] = {
        var seen = Set<String>()
        return all.filter { $0.kind == "location" }.compactMap { phrase in
            let parts = cut(phrase.text)
            guard parts.count == 2, !parts[0].isEmpty, seen.insert(parts[0]).inserted else { return nil }
            return parts[0]
        }
    }()

    /// Deleted-message phrases, normalized, to whether the exporter deleted it. A text some
    /// language uses for another's deletion is never the exporter's.
    static let deleted: [String: Bool] = {
        var table: [String: Bool] = [:]
        for phrase in all where phrase.kind == "deleted" || phrase.kind == "deleted.you" {
            let text = normalized(phrase.text)
            table[text] = (table[text] ?? true) && phrase.kind == "deleted.you"
        }
        return table
    }()

    /// The markers WhatsApp appends to an edited message, as written, each once, longest first
    /// (many languages' apps still write the English one).
    static let edited: [String] = {
        var seen = Set<String>()
        let texts = all.filter { $0.kind == "edited" && seen.insert($0.text).inserted }.map(\.text)
        return texts.sorted { ($0.utf8.count, $0) > ($1.utf8.count, $1) }
    }()

    /// The last scalars of the edited markers (`>`): a body ending otherwise is not compared with each.
    static let editedLastScalars = Set(edited.compactMap(\.unicodeScalars.last))

    /// The words the apps write for the exporter where a name would be (`You`, `Du`, `Tú`, `Вы`),
    /// as written: a sender of that name is the exporter.
    static let exporterNames = Set(all.filter { $0.kind == "you" }.map(\.text))

    /// The end-to-end encryption notices, normalized, by their first eight characters.
    static let encryptedByStart: [String: [String]] = {
        var table: [String: [String]] = [:]
        for phrase in all where phrase.kind == "encrypted" {
            let text = normalized(phrase.text)
            guard text.count >= encryptedStartLength else { continue }
            table[String(text.prefix(encryptedStartLength)), default: []].append(text)
        }
        return table
    }()

    /// The first scalars of the encryption notices (normalized), for `mayStart`.
    static let encryptedFirstScalars = Set(encryptedByStart.keys.compactMap(\.unicodeScalars.first))

    /// The first scalars of the deleted-message phrases (normalized), for `mayStart`.
    static let deletedFirstScalars = Set(deleted.keys.compactMap(\.unicodeScalars.first))

    /// How many characters of a line find its encryption notice candidates.
    static let encryptedStartLength = 8

    /// System lines (`%@ added %@`, `You created group “%@”`): those with text enough to tell
    /// them from a message (at least three letters outside the names).
    static let systemTemplates: [Template] = {
        var seen = Set<[String]>()
        return all.filter { $0.kind == "system" || $0.kind == "system.you" }.compactMap { phrase in
            let parts = cut(phrase.text)
            guard parts.joined().filter({ !$0.isWhitespace && $0 != "\"" }).count >= 3,
                seen.insert(parts + [phrase.kind]).inserted
            else { return nil }
            let stop = phrase.text.last.flatMap { ".。।۔".contains($0) ? $0 : nil }
            return Template(parts: parts, byExporter: phrase.kind == "system.you", sentenceEnd: stop)
        }
    }()

    /// The system templates by the last character of their last part; those ending in a name
    /// by the first character of their first part; the rest (a name at both ends) apart. A line
    /// is tried only against the templates that can match it, in table order.
    private static let systemIndex: (byLast: [Character: [Int]], byFirst: [Character: [Int]], rest: [Int]) = {
        var byLast: [Character: [Int]] = [:]
        var byFirst: [Character: [Int]] = [:]
        var rest: [Int] = []
        for (index, template) in systemTemplates.enumerated() {
            if let last = template.parts.last?.last {
                byLast[last, default: []].append(index)
            } else if let first = template.parts.first?.first {
                byFirst[first, default: []].append(index)
            } else {
                rest.append(index)
            }
        }
        return (byLast, byFirst, rest)
    }()

    /// The system template `line` is, if any: of those it fits, the one with the most text of
    /// its own (`You added %@` over `%1$@ added %2$@`).
    static func systemTemplate(_ line: some StringProtocol) -> Template? {
        let text = normalized(line)
        guard let first = text.first, let last = text.last else { return nil }
        // A sentence may end before the line does: the character before each full stop is a
        // last character too.
        var lastCharacters: Set<Character> = [last]
        var previous: Character?
        for character in text {
            if ".。।۔".contains(character), let previous { lastCharacters.insert(previous) }
            previous = character
        }
        let candidates =
            Set(
                lastCharacters.flatMap { systemIndex.byLast[$0] ?? [] } + (systemIndex.byFirst[first] ?? [])
                    + systemIndex.rest
            )
            .sorted().map { systemTemplates[$0] }
        // The most specific wins: Japanese `%1$@が%2$@を追加しました` (Bruno added Carla) over
        // `%@を追加しました` (you added …); on a tie, not the exporter's.
        var best: Template?
        for template in candidates where template.fits(text) {
            guard let current = best else {
                best = template
                continue
            }
            if template.literalCount > current.literalCount
                || (template.literalCount == current.literalCount && current.byExporter && !template.byExporter)
            {
                best = template
            }
        }
        return best
    }
}
