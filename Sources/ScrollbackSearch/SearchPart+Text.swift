import Foundation
import ScrollbackLayout
import ScrollbackModel

// What a message contributes as text and as `has:` flags.

extension SearchPart {
    /// `text` cut to `maxTextLength` characters (counting characters only when it may be longer).
    static func resultText(_ text: String) -> String {
        text.utf8.count <= maxTextLength ? text : String(text.prefix(maxTextLength))
    }

    /// The kind flags `has:image`, `has:file` and `has:link` look at.
    static func flags(of kind: MessageKind) -> Int {
        switch kind {
        case .photo: return imageFlag
        case .video, .audio, .contact: return fileFlag
        case .linkPreview(_, let link): return linkFlag | (link.thumbnail == nil ? 0 : imageFlag)
        case .attributedText(let rich):
            // One pass over the HTML for both tags (both are anchored on `<`).
            let found = foundNeedles(rich.html, tagNeedles)
            return (found & 1 != 0 ? imageFlag : 0) | (found & 2 != 0 ? linkFlag : 0)
        case .text(let text):
            return foundNeedles(text, linkNeedles) != 0 ? linkFlag : 0
        default: return 0
        }
    }

    /// ASCII strings looked for together in a text (`foundNeedles`): each is anchored on its
    /// first byte that is no lowercase letter (`:` of `https://`, `.` of `www.`, `<` of a tag:
    /// rare in chat text, where `h` or `w` are in most words). The text is searched for each
    /// anchor byte with `memchr` (many bytes at a time), and the needles anchored on it are
    /// compared around each one found.
    struct ByteNeedles: ExpressibleByArrayLiteral, Sendable {
        /// Each needle's bytes and the offset of its anchor in them.
        let needles: [(bytes: [UInt8], anchor: Int)]
        /// Each anchor byte, and the needles anchored on it (bit `n`: `needles[n]`).
        let anchors: [(byte: UInt8, needles: UInt8)]

        init(arrayLiteral elements: StaticString...) {
            precondition(elements.count <= 8, "a needle is a bit of a byte")
            var anchors: [(byte: UInt8, needles: UInt8)] = []
            needles = elements.enumerated().map { number, element in
                let bytes = Array(UnsafeBufferPointer(start: element.utf8Start, count: element.utf8CodeUnitCount))
                let anchor = bytes.firstIndex { !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) } ?? 0
                if let known = anchors.firstIndex(where: { $0.byte == bytes[anchor] }) {
                    anchors[known].needles |= 1 << number
                } else {
                    anchors.append((bytes[anchor], 1 << number))
                }
                return (bytes, anchor)
            }
            self.anchors = anchors
        }
    }

    /// The needles of `flags(of:)`: any of `linkNeedles` in a text makes a link; in HTML,
    /// `tagNeedles`' first makes an image and its second a link.
    static let linkNeedles: ByteNeedles = ["http://", "https://", "www."]
    static let tagNeedles: ByteNeedles = ["<img", "<a "]

    /// Which of `needles` `text` holds (bit `n`: `needles.needles[n]`). Each anchor byte is looked
    /// for only while a needle anchored on it is still missing. (Foundation's `contains` searches
    /// with locale rules, many times slower, for no different answer here.)
    static func foundNeedles(_ text: String, _ needles: ByteNeedles) -> UInt8 {
        var text = text
        let all = UInt8(truncatingIfNeeded: (1 << needles.needles.count) - 1)
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return 0 }
            var found: UInt8 = 0
            for (anchorByte, anchored) in needles.anchors {
                var from = 0
                while found & anchored != anchored, from < bytes.count,
                    let match = memchr(base + from, Int32(anchorByte), bytes.count - from)
                {
                    let position = base.distance(to: match.assumingMemoryBound(to: UInt8.self))
                    var candidates = anchored & ~found
                    while candidates != 0 {
                        let number = candidates.trailingZeroBitCount
                        candidates &= candidates - 1
                        let (needle, anchor) = needles.needles[number]
                        let start = position - anchor
                        if start >= 0, start + needle.count <= bytes.count,
                            needle.indices.allSatisfy({ bytes[start + $0] == needle[$0] })
                        {
                            found |= 1 << number
                        }
                    }
                    if found == all { return found }
                    from = position + 1
                }
            }
            return found
        }
    }

    /// The words a message is found by: its plain text, plus a link's title and a custom
    /// message's string values.
    static func searchText(of kind: MessageKind) -> String {
        switch kind {
        case .linkPreview(let text, let link):
            let title = link.title ?? ""
            return text.isEmpty ? title : title.isEmpty ? text : text + " " + title
        case .photo(let media), .video(let media), .audio(let media):
            return media.caption ?? media.alt ?? media.title ?? kind.plainText
        case .custom(let custom):
            var strings = ""
            var found = false
            func collect(_ value: JSONValue) {
                switch value {
                case .string(let text):
                    if found { strings += " " }
                    strings += text
                    found = true
                case .array(let values): values.forEach(collect)
                case .object(let members): members.forEach { collect($0.value) }
                default: break
                }
            }
            collect(custom.data)
            return found ? strings : kind.plainText
        default:
            return kind.plainText
        }
    }
}
