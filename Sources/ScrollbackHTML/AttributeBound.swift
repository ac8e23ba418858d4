/// Keeps each tag of an HTML fragment to its first `maximumAttributes` attributes before libxml2
/// parses it.
///
/// libxml2 2.9's HTML parser compares each attribute of a tag with every earlier one (to drop
/// duplicates), so one `<a>` with 40,000 attributes took seconds and 200,000 over a minute. No
/// element the sanitizer keeps uses more than a handful, so the rest can go unread. This is no
/// sanitizer: it only removes bytes from inside start tags, libxml2 still parses the result and
/// the allow-list still decides what is written. It follows the HTML tokenizer closely enough to
/// count: a start tag is `<` and a letter; an attribute is a name, then optionally `=` and a
/// quoted or unquoted value; the tag ends at a `>` outside quotes.
enum AttributeBound {
    /// The most attributes of one tag that reach the parser.
    static let maximumAttributes = 256

    /// `fragment` with the attributes past `maximumAttributes` removed from every start tag;
    /// `fragment` itself (no copy) when no tag has that many.
    static func limitingAttributes(in fragment: String) -> String {
        var fragment = fragment
        let cuts = fragment.withUTF8 { excessAttributes(in: $0) }
        guard !cuts.isEmpty else { return fragment }
        let bytes = Array(fragment.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var position = 0
        for cut in cuts {
            result += bytes[position..<cut.lowerBound]
            position = cut.upperBound
        }
        result += bytes[position...]
        return String(decoding: result, as: UTF8.self)
    }

    /// The byte ranges to remove: in each start tag with too many attributes, from the first
    /// attribute past the limit to the end of its last attribute. In order, not overlapping.
    static func excessAttributes(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var cuts: [Range<Int>] = []
        let count = bytes.count
        func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
        }
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
        var index = 0
        while index < count {
            guard bytes[index] == UInt8(ascii: "<"), index + 1 < count, isLetter(bytes[index + 1]) else {
                index += 1
                continue
            }
            // The tag name.
            index += 1
            while index < count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
            var attributes = 0
            var cutStart: Int?
            var lastAttributeEnd = index
            while index < count {
                while index < count, isSpace(bytes[index]) || bytes[index] == UInt8(ascii: "/") { index += 1 }
                guard index < count, bytes[index] != UInt8(ascii: ">") else { break }
                let attributeStart = index
                // The name (a `=` first is part of it, as in the tokenizer).
                index += 1
                while index < count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "="),
                    bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "/")
                {
                    index += 1
                }
                var afterName = index
                while afterName < count, isSpace(bytes[afterName]) { afterName += 1 }
                if afterName < count, bytes[afterName] == UInt8(ascii: "=") {
                    index = afterName + 1
                    while index < count, isSpace(bytes[index]) { index += 1 }
                    if index < count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                        let quote = bytes[index]
                        index += 1
                        while index < count, bytes[index] != quote { index += 1 }
                        if index < count { index += 1 }
                    } else {
                        while index < count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
                    }
                }
                attributes += 1
                if attributes == maximumAttributes + 1 { cutStart = attributeStart }
                lastAttributeEnd = index
            }
            if let cutStart { cuts.append(cutStart..<lastAttributeEnd) }
        }
        return cuts
    }
}
