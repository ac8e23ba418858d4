import Foundation
import Mustache
import ScrollbackLayout
import ScrollbackModel

/// The passes rich text (Markdown and HTML bodies) takes before it is written into a row, and
/// the text helpers of contact cards.
extension MessageRenderer {
    /// Whether `html` comes out of `rebaseRoot`, `labelTaskCheckboxes` and
    /// `HTMLText.replacingForbiddenCodePoints` as it is, by one look at its bytes: no `@` (which
    /// `@root/` needs), no `<in` (which a checkbox needs), and no byte that may start a code point
    /// HTML forbids (a control other than tab, line feed, form feed and carriage return; DEL;
    /// 0xC2; 0xEF and up). Text with any of them takes the three passes.
    static func isPlainRichText(_ html: String) -> Bool {
        var html = html
        return html.withUTF8 { bytes in
            let count = bytes.count
            var index = 0
            while index < count {
                let byte = bytes[index]
                if byte < 0x20 {
                    if byte != 0x09 && byte != 0x0A && byte != 0x0C && byte != 0x0D { return false }
                } else if byte == UInt8(ascii: "@") || byte == 0x7F || byte == 0xC2 || byte >= 0xEF {
                    return false
                } else if byte == UInt8(ascii: "<"), index + 2 < count, bytes[index + 1] == UInt8(ascii: "i"),
                    bytes[index + 2] == UInt8(ascii: "n")
                {
                    return false
                }
                index += 1
            }
            return true
        }
    }

    /// Rich text with the readers' `@root/` prefix (local media) replaced by the page's root:
    /// every `="@root/` becomes `="<root>` and every `='@root/` becomes `='<root>`.
    ///
    /// One pass over the UTF-8 bytes; most rich text has no `@` at all and is returned as it is.
    /// A marker next to a non-ASCII byte goes to Foundation's search, which only matches whole
    /// `Character`s (a combining mark after the `/` makes it no match), so the bytes stay the same.
    static func rebaseRoot(_ html: String, root: String) -> String {
        var bytesOfHTML = html
        let rebased = bytesOfHTML.withUTF8 { bytes -> String? in
            let marker: [UInt8] = Array("@root/".utf8)
            let count = bytes.count
            // Start of each `@root/` that follows `="` or `='`.
            var starts: [Int] = []
            var index = 2
            while index + marker.count <= count {
                if bytes[index] == UInt8(ascii: "@"), bytes[index - 2] == UInt8(ascii: "="),
                    bytes[index - 1] == UInt8(ascii: "\"") || bytes[index - 1] == UInt8(ascii: "'")
                {
                    var matches = true
                    for offset in 1..<marker.count where bytes[index + offset] != marker[offset] {
                        matches = false
                        break
                    }
                    if matches {
                        let before = index - 3
                        let after = index + marker.count
                        if (before >= 0 && bytes[before] >= 0x80) || (after < count && bytes[after] >= 0x80) {
                            return nil  // Foundation decides
                        }
                        starts.append(index)
                        index += marker.count
                        continue
                    }
                }
                index += 1
            }
            if starts.isEmpty { return html }
            var output: [UInt8] = []
            output.reserveCapacity(count + starts.count * root.utf8.count)
            var copied = 0
            for start in starts {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<start]))
                output.append(contentsOf: root.utf8)
                copied = start + marker.count
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<count]))
            return String(decoding: output, as: UTF8.self)
        }
        if let rebased { return rebased }
        return html.replacingOccurrences(of: "=\"@root/", with: "=\"" + root)
            .replacingOccurrences(of: "='@root/", with: "='" + root)
    }

    /// Rich text whose task-list checkboxes have an accessible name: `aria-label="done"` or
    /// `"not done"`. Only the readers' own output holds an `<input>` (cmark-gfm's
    /// `<input type="checkbox" checked="" disabled="" />` and the sanitizer's rewrite of a log's
    /// checkbox, same attributes without the `/`), so matching these exact bytes is enough.
    static func labelTaskCheckboxes(_ html: String) -> String {
        var html = html
        // Byte-level pass: the same non-overlapping, left-to-right replacements as the
        // Foundation fallback below. A match followed by a non-ASCII byte (which could start a
        // combining mark Foundation would treat differently) falls back to Foundation.
        let labelled: String?? = html.withUTF8 { bytes -> String?? in
            let prefix = Array("<input type=\"checkbox\" ".utf8)
            let checked = Array("checked=\"\" disabled=\"\"".utf8)
            let unchecked = Array("disabled=\"\"".utf8)
            let doneLabel = Array(" aria-label=\"done\"".utf8)
            let notDoneLabel = Array(" aria-label=\"not done\"".utf8)
            let count = bytes.count
            func matches(_ needle: [UInt8], at index: Int) -> Bool {
                guard index + needle.count <= count else { return false }
                for offset in 0..<needle.count where bytes[index + offset] != needle[offset] { return false }
                return true
            }
            var output: [UInt8] = []
            var copied = 0
            var index = 0
            while index + prefix.count <= count {
                guard bytes[index] == UInt8(ascii: "<"), matches(prefix, at: index) else {
                    index += 1
                    continue
                }
                let rest = index + prefix.count
                let label: [UInt8]
                let matchEnd: Int
                if matches(checked, at: rest) {
                    label = doneLabel
                    matchEnd = rest + checked.count
                } else if matches(unchecked, at: rest) {
                    label = notDoneLabel
                    matchEnd = rest + unchecked.count
                } else {
                    index += 1
                    continue
                }
                if matchEnd < count, bytes[matchEnd] >= 0x80 { return .some(nil) }
                if output.isEmpty { output.reserveCapacity(count + 64) }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<matchEnd]))
                output.append(contentsOf: label)
                copied = matchEnd
                index = matchEnd
            }
            if copied == 0 { return .none }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<count]))
            return .some(String(decoding: output, as: UTF8.self))
        }
        switch labelled {
        case .none: return html
        case .some(.some(let result)): return result
        case .some(.none): break
        }
        return
            html
            .replacingOccurrences(
                of: "<input type=\"checkbox\" checked=\"\" disabled=\"\"",
                with: "<input type=\"checkbox\" checked=\"\" disabled=\"\" aria-label=\"done\""
            )
            .replacingOccurrences(
                of: "<input type=\"checkbox\" disabled=\"\"",
                with: "<input type=\"checkbox\" disabled=\"\" aria-label=\"not done\"")
    }

    /// An address fit for a `mailto:` link: one `@`, no spaces, quotes, angle brackets, `?` or `:`.
    static func isPlainEmail(_ email: String) -> Bool {
        var atCount = 0
        for byte in email.utf8 {
            if byte == UInt8(ascii: "@") { atCount += 1 }
            if byte <= 0x20 || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "\"")
                || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: ":")
                || byte == 0x7F
            {
                return false
            }
        }
        return atCount == 1 && !email.hasPrefix("@") && !email.hasSuffix("@")
    }

    /// A vCard 3.0 for `contact`, with text values escaped per RFC 6350.
    static func vCard(_ contact: ContactItem) -> String {
        func value(_ text: String) -> String {
            var output = ""
            for character in text {
                switch character {
                case "\\": output += "\\\\"
                case ",": output += "\\,"
                case ";": output += "\\;"
                case "\n", "\r\n", "\r": output += "\\n"
                default: output.append(character)
                }
            }
            return output
        }
        var card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:\(value(contact.name))\r\nN:\(value(contact.name));;;;\r\n"
        for phone in contact.phones { card += "TEL:\(value(phone))\r\n" }
        for email in contact.emails { card += "EMAIL:\(value(email))\r\n" }
        card += "END:VCARD\r\n"
        return card
    }
}
