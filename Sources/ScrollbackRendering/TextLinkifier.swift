import ScrollbackLayout
import ScrollbackModel

/// Turns plain message text into HTML in one pass over its UTF-8 bytes: escapes it, keeps
/// line breaks as `<br>`, and links URLs (`http://`, `https://`, `www.`), e-mail addresses and
/// `@mentions` of participants (by id or display name).
///
/// No regular expressions: this runs once per text message, a million times in a big build.
struct TextLinkifier: Sendable {
    /// A name that can follow `@`, and the anchor its mention links to.
    struct Mention: Sendable {
        var name: [UInt8]
        var anchor: String
    }

    /// Mention names, longest first so "@Bob Stone" wins over "@Bob".
    private let mentions: [Mention]

    /// A linkifier that knows `participants` (mentions link to `index.html#p-…`: the list of participants is on the first page).
    init(participants: [Participant]) {
        var mentions: [Mention] = []
        for participant in participants {
            let anchor = HTMLText.participantAnchor(participant.id)
            mentions.append(Mention(name: Array(participant.id.utf8), anchor: anchor))
            if participant.name != participant.id, !participant.name.isEmpty {
                mentions.append(Mention(name: Array(participant.name.utf8), anchor: anchor))
            }
        }
        self.mentions = mentions.filter { !$0.name.isEmpty }.sorted { $0.name.count > $1.name.count }
    }

    /// The HTML of `text`.
    func html(_ text: String) -> String {
        var output = [UInt8]()
        output.reserveCapacity(text.utf8.count + 32)
        append(text, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the HTML of `text` to `output`.
    func append<Sink: ByteSink>(_ text: String, to output: inout Sink) {
        withUTF8Bytes(of: text) { append($0, to: &output) }
    }

    private func append<Sink: ByteSink>(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout Sink) {
        var index = 0
        let count = bytes.count
        // Position of the next `@` (or `count`): e-mail addresses are only looked for before one.
        var nextAt = -1
        while index < count {
            let byte = bytes[index]
            let atBoundary = index == 0 || Self.isBoundary(bytes[index - 1])
            if atBoundary {
                if let end = urlEnd(bytes, from: index) {
                    appendLink(bytes, index, end, to: &output, kind: .web)
                    index = end
                    continue
                }
                if byte == UInt8(ascii: "@"), let (end, anchor) = mentionEnd(bytes, from: index) {
                    output += "<a class=\"mn\" href=\"index.html#"
                    raw(anchor, &output)
                    output += "\">"
                    HTMLText.appendEscaped(UnsafeBufferPointer(rebasing: bytes[index..<end]), to: &output)
                    output += "</a>"
                    index = end
                    continue
                }
                if nextAt < index {
                    nextAt = index
                    while nextAt < count, bytes[nextAt] != UInt8(ascii: "@") { nextAt += 1 }
                }
                if nextAt < count, Self.isLocalPartByte(byte), let end = emailEnd(bytes, from: index) {
                    appendLink(bytes, index, end, to: &output, kind: .email)
                    index = end
                    continue
                }
            }
            if Self.isPlain(byte) {
                // A run of plain bytes: none starts a link (each follows a byte that is no
                // boundary), none needs escaping; copied whole.
                var end = index + 1
                while end < count, Self.isPlain(bytes[end]) { end += 1 }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                index = end
                continue
            }
            switch byte {
            case UInt8(ascii: "\r"):
                output += "<br>"
                if index + 1 < count, bytes[index + 1] == UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "\n"):
                output += "<br>"
            default:
                let forbidden = HTMLText.forbiddenCodePointLength(bytes, index)
                if forbidden > 0 {
                    output += "\u{FFFD}"
                    index += forbidden
                    continue
                }
                HTMLText.appendEscaped(byte, to: &output)
            }
            index += 1
        }
    }

    private enum LinkKind { case web, email }

    private func appendLink(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, to output: inout some ByteSink, kind: LinkKind
    ) {
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<end])
        output += "<a href=\""
        switch kind {
        case .email:
            output += "mailto:"
        case .web:
            if slice.count >= 4, Self.lower(slice[0]) == UInt8(ascii: "w") { output += "https://" }
        }
        Self.appendHref(slice, to: &output)
        output += kind == .web ? "\" rel=\"nofollow noopener\">" : "\">"
        HTMLText.appendEscaped(slice, to: &output)
        output += "</a>"
    }

    /// Appends `url` escaped for an attribute, with every `%` that does not start a `%XX` escape
    /// written as `%25`: the text "http://a/%%30" is still linked, to a valid URL.
    private static func appendHref(_ url: UnsafeBufferPointer<UInt8>, to output: inout some ByteSink) {
        var start = 0
        for index in 0..<url.count where url[index] == UInt8(ascii: "%") {
            if index + 2 < url.count, isHexDigit(url[index + 1]), isHexDigit(url[index + 2]) { continue }
            HTMLText.appendEscaped(UnsafeBufferPointer(rebasing: url[start..<index]), to: &output)
            output += "%25"
            start = index + 1
        }
        HTMLText.appendEscaped(UnsafeBufferPointer(rebasing: url[start..<url.count]), to: &output)
    }

    @inline(__always) private static func isHexDigit(_ byte: UInt8) -> Bool {
        let lowered = lower(byte)
        return (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || (lowered >= UInt8(ascii: "a") && lowered <= UInt8(ascii: "f"))
    }

    /// End of a URL starting at `start`, or `nil` when none starts there.
    private func urlEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let first = Self.lower(bytes[start])
        guard first == UInt8(ascii: "h") || first == UInt8(ascii: "w") else { return nil }
        let prefixLength: Int
        if Self.hasPrefix(bytes, start, "https://") {
            prefixLength = 8
        } else if Self.hasPrefix(bytes, start, "http://") {
            prefixLength = 7
        } else if Self.hasPrefix(bytes, start, "www.") {
            prefixLength = 4
        } else {
            return nil
        }
        var end = start + prefixLength
        var openParens = 0
        while end < bytes.count {
            let byte = bytes[end]
            if byte <= 0x20 || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "\"")
                || byte == 0x7F
            {
                break
            }
            if byte == UInt8(ascii: "(") { openParens += 1 }
            if byte == UInt8(ascii: ")") {
                if openParens == 0 { break }
                openParens -= 1
            }
            end += 1
        }
        // Sentence punctuation after a URL belongs to the sentence.
        while end > start + prefixLength {
            let last = bytes[end - 1]
            if last == UInt8(ascii: ".") || last == UInt8(ascii: ",") || last == UInt8(ascii: ";")
                || last == UInt8(ascii: ":") || last == UInt8(ascii: "!") || last == UInt8(ascii: "?")
                || last == UInt8(ascii: "'")
            {
                end -= 1
            } else {
                break
            }
        }
        // `www.` alone, or a scheme with nothing after it, is not a link.
        guard end > start + prefixLength + (prefixLength == 4 ? 2 : 0) else { return nil }
        return end
    }

    /// End of a mention of a participant starting at the `@` at `start`.
    private func mentionEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (Int, String)? {
        let nameStart = start + 1
        for mention in mentions {
            let end = nameStart + mention.name.count
            guard end <= bytes.count else { continue }
            var matches = true
            for offset in 0..<mention.name.count
            where Self.lower(bytes[nameStart + offset]) != Self.lower(mention.name[offset]) {
                matches = false
                break
            }
            guard matches else { continue }
            if end < bytes.count, Self.isWordByte(bytes[end]) { continue }
            return (end, mention.anchor)
        }
        return nil
    }

    /// End of an e-mail address `local@domain.tld` starting at `start`.
    private func emailEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        while index < bytes.count, Self.isLocalPartByte(bytes[index]) { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "@"), index > start else { return nil }
        index += 1
        let domainStart = index
        var lastDot = -1
        while index < bytes.count {
            let byte = bytes[index]
            if Self.isAlphanumeric(byte) || byte == UInt8(ascii: "-") {
                index += 1
            } else if byte == UInt8(ascii: "."), index + 1 < bytes.count, Self.isAlphanumeric(bytes[index + 1]) {
                lastDot = index
                index += 1
            } else {
                break
            }
        }
        guard lastDot > domainStart, index - lastDot > 2 else { return nil }
        for position in (lastDot + 1)..<index where !Self.isLetter(bytes[position]) { return nil }
        return index
    }

    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ prefix: StaticString) -> Bool {
        let length = prefix.utf8CodeUnitCount
        guard start + length <= bytes.count else { return false }
        let pointer = prefix.utf8Start
        for offset in 0..<length where lower(bytes[start + offset]) != pointer[offset] { return false }
        return true
    }

    @inline(__always) private static func lower(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    @inline(__always) private static func isLetter(_ byte: UInt8) -> Bool {
        let lowered = lower(byte)
        return lowered >= UInt8(ascii: "a") && lowered <= UInt8(ascii: "z")
    }

    @inline(__always) private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// Bytes that continue a word (so a mention must not be followed by one); non-ASCII counts as a letter.
    @inline(__always) private static func isWordByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    @inline(__always) private static func isLocalPartByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "%")
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }

    /// ASCII bytes 0x00...0x3F that are plain (see `isPlain`): `!`, `#`…`%`, `)`, `*`, `+`, `-`…`9`, `=`, `?`.
    /// (A literal, so reading it costs no lazy-initialization check; a test rebuilds it.)
    static let plainLow: UInt64 = 0xA3FF_EE3A_0000_0000

    /// ASCII bytes 0x40...0x7F that are plain: all but `[`, `{` and DEL.
    static let plainHigh: UInt64 = ~((1 << (0x5B - 0x40)) | (1 << (0x7B - 0x40)) | (1 << (0x7F - 0x40)))

    /// Whether `byte` is written as it is and no link can start right after it: not a boundary
    /// (`isBoundary`), not `& < > " '`, no line break or other control, no lead byte that may start
    /// a code point HTML forbids (0xC2, 0xEF and up).
    @inline(__always) private static func isPlain(_ byte: UInt8) -> Bool {
        if byte < 0x40 { return (plainLow >> UInt64(byte)) & 1 != 0 }
        if byte < 0x80 { return (plainHigh >> UInt64(byte - 0x40)) & 1 != 0 }
        return byte != 0xC2 && byte < 0xEF
    }

    /// Whether a link may start after `byte`: whitespace or opening punctuation.
    @inline(__always) private static func isBoundary(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: ",")
            || byte == UInt8(ascii: ";") || byte == UInt8(ascii: ":")
    }
}
