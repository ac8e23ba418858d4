import Foundation

/// Discord's message Markdown made ready for cmark-gfm, and its spoilers made HTML.
///
/// Outside code spans and blocks (which are copied as they are, so `a<b` in code stays `a<b`):
/// - `<` and `&` are escaped: raw HTML is text in Discord, and cmark-gfm would drop it;
/// - custom emoji (`<:name:id>`, `<a:name:id>`, and `:name:` where DCE already formatted them)
///   become their image when the export has the file (`emojiFiles`), else `:name:`;
/// - `<@id>` becomes `@name` for a user the message mentions; `<https://…>` stays a link;
/// - `||…||` within one paragraph becomes a spoiler: a pair of private-use marks cmark-gfm keeps
///   as text, which `spoilerHTML` turns into `<details><summary>Spoiler</summary>…</details>`
///   (hidden until clicked, with no script). A `||` left without its pair is text.
struct DiscordMarkdown {
    /// Local files (export paths) of custom emoji images, by `id:<id>` and by `name:<name>`.
    var emojiFiles: [String: String] = [:]
    /// Shown names of the users a message mentions, by user id.
    var mentionNames: [String: String] = [:]

    /// Where a spoiler starts and ends in the Markdown, and so in cmark-gfm's HTML and text.
    static let spoilerOpen: Unicode.Scalar = "\u{E000}"
    static let spoilerClose: Unicode.Scalar = "\u{E001}"
    /// The longest `<…>` or `:name:` looked at, in characters: a `<` with no `>` near is text.
    static let longestToken = 200

    /// `content` as cmark-gfm Markdown, and whether it holds a spoiler.
    func convert(_ content: String) -> (markdown: String, hasSpoilers: Bool) {
        // The marks are the importer's: in the content they are (meaningless) private-use text.
        let text = content.unicodeScalars.map {
            $0 == Self.spoilerOpen || $0 == Self.spoilerClose ? Unicode.Scalar(0xFFFD)! : $0
        }
        let code = Self.codeRanges(text)
        let spoilers = Self.spoilerPairs(text, code: code)
        var out = String.UnicodeScalarView()
        var codeIndex = 0
        var index = 0
        while index < text.count {
            if codeIndex < code.count, code[codeIndex].lowerBound == index {
                out.append(contentsOf: text[code[codeIndex]])
                index = code[codeIndex].upperBound
                codeIndex += 1
                continue
            }
            let scalar = text[index]
            switch scalar {
            case "|" where index + 1 < text.count && text[index + 1] == "|":
                switch spoilers[index] {
                case true?: out.append(Self.spoilerOpen)
                case false?: out.append(Self.spoilerClose)
                case nil: out.append(contentsOf: "\\|\\|".unicodeScalars)
                }
                index += 2
            case "\\":
                // An escape keeps its meaning: copied with the character it escapes.
                out.append(scalar)
                if index + 1 < text.count, !(codeIndex < code.count && code[codeIndex].lowerBound == index + 1) {
                    out.append(text[index + 1])
                    index += 1
                }
                index += 1
            case "&":
                out.append(contentsOf: "\\&".unicodeScalars)
                index += 1
            case "<":
                let (replacement, length) = angle(text, at: index)
                out.append(contentsOf: replacement.unicodeScalars)
                index += length
            case ":":
                if let (image, length) = namedEmoji(text, at: index) {
                    out.append(contentsOf: image.unicodeScalars)
                    index += length
                } else {
                    out.append(scalar)
                    index += 1
                }
            default:
                out.append(scalar)
                index += 1
            }
        }
        return (String(out), spoilers.values.contains(true))
    }

    /// What `<…>` at `start` becomes and how many characters it takes.
    private func angle(_ text: [Unicode.Scalar], at start: Int) -> (String, Int) {
        let limit = min(text.count, start + Self.longestToken)
        guard let close = text[(start + 1)..<limit].firstIndex(where: { $0 == ">" || $0 == "<" || $0 == "\n" }),
            text[close] == ">"
        else { return ("\\<", 1) }
        let inner = String(String.UnicodeScalarView(text[(start + 1)..<close]))
        let length = close - start + 1
        let parts = inner.split(separator: ":", omittingEmptySubsequences: false)
        if (inner.hasPrefix(":") || inner.hasPrefix("a:")) && parts.count == 3 {
            let name = String(parts[1])
            return (emoji(name: name, file: emojiFiles["id:" + parts[2]] ?? emojiFiles["name:" + name]), length)
        }
        if inner.hasPrefix("@") {
            let id = inner.dropFirst(inner.hasPrefix("@!") ? 2 : 1)
            if let name = mentionNames[String(id)] { return ("@" + ChatMarkup.escapeMarkdown(name), length) }
        }
        if (inner.hasPrefix("http://") || inner.hasPrefix("https://")) && !inner.contains(" ") {
            return ("<" + inner + ">", length)
        }
        return ("\\<", 1)
    }

    /// A `:name:` at `start` that names a custom emoji whose image the export has.
    private func namedEmoji(_ text: [Unicode.Scalar], at start: Int) -> (String, Int)? {
        guard !emojiFiles.isEmpty else { return nil }
        let limit = min(text.count, start + Self.longestToken)
        guard let close = text[(start + 1)..<limit].firstIndex(where: { $0 == ":" || $0.properties.isWhitespace }),
            text[close] == ":", close > start + 1
        else { return nil }
        let name = String(String.UnicodeScalarView(text[(start + 1)..<close]))
        guard let file = emojiFiles["name:" + name] else { return nil }
        return (emoji(name: name, file: file), close - start + 1)
    }

    /// A custom emoji: its image from the export, or `:name:` when there is none (or its path
    /// cannot be written as a Markdown destination).
    private func emoji(name: String, file: String?) -> String {
        let text = ":" + ChatMarkup.escapeMarkdown(name) + ":"
        guard let file, !file.contains(where: { $0 == "<" || $0 == ">" || $0.isNewline }) else { return text }
        return "![" + text + "](<" + file + ">)"
    }

    /// The ranges of code spans and blocks: a run of backticks up to the next run of the same
    /// length (CommonMark's rule; a fence is such a run too). Linear: each length's runs are
    /// visited in order once.
    static func codeRanges(_ text: [Unicode.Scalar]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var index = 0
        while index < text.count {
            if text[index] == "\\" {
                index += 2
                continue
            }
            guard text[index] == "`" else {
                index += 1
                continue
            }
            var end = index
            while end < text.count, text[end] == "`" { end += 1 }
            runs.append(index..<end)
            index = end
        }
        var byLength: [Int: [Int]] = [:]
        for (number, run) in runs.enumerated() { byLength[run.count, default: []].append(number) }
        var cursors: [Int: Int] = [:]
        var ranges: [Range<Int>] = []
        var number = 0
        while number < runs.count {
            let length = runs[number].count
            let list = byLength[length]!
            var cursor = cursors[length] ?? 0
            while cursor < list.count, list[cursor] <= number { cursor += 1 }
            cursors[length] = cursor
            if cursor < list.count {
                ranges.append(runs[number].lowerBound..<runs[list[cursor]].upperBound)
                number = list[cursor] + 1
            } else {
                number += 1
            }
        }
        return ranges
    }

    /// Each `||` outside code that opens (`true`) or closes (`false`) a spoiler, by position. A
    /// spoiler never spans a blank line or a code block: Discord's paragraphs bound it.
    static func spoilerPairs(_ text: [Unicode.Scalar], code: [Range<Int>]) -> [Int: Bool] {
        var marks: [Int] = []
        var boundaries: [Int] = []
        var codeIndex = 0
        var index = 0
        var lineIsBlank = true
        while index < text.count {
            if codeIndex < code.count, code[codeIndex].lowerBound == index {
                if text[code[codeIndex]].contains("\n") { boundaries.append(index) }
                index = code[codeIndex].upperBound
                codeIndex += 1
                lineIsBlank = false
                continue
            }
            let scalar = text[index]
            if scalar == "\n" {
                if lineIsBlank { boundaries.append(index) }
                lineIsBlank = true
            } else if scalar != " " && scalar != "\t" {
                lineIsBlank = false
            }
            if scalar == "\\" {
                index += 2
                continue
            }
            if scalar == "|", index + 1 < text.count, text[index + 1] == "|" {
                marks.append(index)
                index += 2
                continue
            }
            index += 1
        }
        var pairs: [Int: Bool] = [:]
        var boundary = 0
        var opener: Int?
        for mark in marks {
            while boundary < boundaries.count, boundaries[boundary] < mark {
                if opener != nil, boundaries[boundary] > opener! { opener = nil }
                boundary += 1
            }
            if let start = opener {
                pairs[start] = true
                pairs[mark] = false
                opener = nil
            } else {
                opener = mark
            }
        }
        return pairs
    }

    /// cmark-gfm's HTML with each spoiler's marks made a `<details>` (the sanitizer checks the
    /// result). A paragraph holding one becomes a `<div>`: a `<details>` may not sit in a `<p>`
    /// (browsers would end the paragraph there). A mark inside a tag (an image's alt text) is
    /// `||` again, as is one cmark-gfm percent-encoded in a link.
    static func spoilerHTML(_ html: String) -> String {
        var parts: [String] = []
        var text = String.UnicodeScalarView()
        var tag: String.UnicodeScalarView?
        /// The part holding the open paragraph's `<p>`, and whether it holds a spoiler.
        var paragraph: (part: Int, hasSpoiler: Bool)?
        func flush() {
            if !text.isEmpty { parts.append(String(text)) }
            text = String.UnicodeScalarView()
        }
        for scalar in html.unicodeScalars {
            if tag != nil {
                switch scalar {
                case spoilerOpen, spoilerClose: tag!.append(contentsOf: "||".unicodeScalars)
                case ">":
                    tag!.append(scalar)
                    let name = String(tag!)
                    tag = nil
                    if name == "<p>" {
                        paragraph = (parts.count, false)
                    } else if name == "</p>", let open = paragraph {
                        if open.hasSpoiler { parts[open.part] = "<div>" }
                        parts.append(open.hasSpoiler ? "</div>" : name)
                        paragraph = nil
                        continue
                    }
                    parts.append(name)
                default: tag!.append(scalar)
                }
                continue
            }
            switch scalar {
            case "<":
                flush()
                tag = String.UnicodeScalarView([scalar])
            case spoilerOpen:
                flush()
                parts.append("<details><summary>Spoiler</summary>")
                paragraph?.hasSpoiler = true
            case spoilerClose:
                flush()
                parts.append("</details>")
            default: text.append(scalar)
            }
        }
        flush()
        if let tag { parts.append(String(tag)) }
        return parts.joined().replacingOccurrences(of: "%EE%80%80", with: "%7C%7C")
            .replacingOccurrences(of: "%EE%80%81", with: "%7C%7C")
    }

    /// Plain text (excerpts, search) with each spoiler's words hidden, as the page hides them.
    static func spoilerPlainText(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var hidden = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case spoilerOpen:
                hidden = true
                out.append(contentsOf: "(spoiler)".unicodeScalars)
            case spoilerClose: hidden = false
            default: if !hidden { out.append(scalar) }
            }
        }
        return String(out)
    }
}
