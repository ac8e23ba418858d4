// What every fuzz target checks besides "no crash": a bound on the work per input byte, and for
// HTML output, the sanitizer's safety property.
import ScrollbackHTML
import ScrollbackModel

#if canImport(Glibc)
import Glibc
#endif

/// A bound on the work per input: `base` plus `perByte` for each input byte, in CPU time of the
/// process (all threads: Slack reads conversations on a second thread), so a loaded machine
/// does not trip it. A quadratic path shows up as inputs a few kilobytes long that cross it.
enum FuzzBound {
    /// Three seconds: the first input also pays one-time set-up under ASan (every CLDR locale's
    /// AM/PM markers for WhatsApp detection, the time-zone table for Discord's offsets), which
    /// took 1.1–1.2 s of a 1 s bound in this session's fuzz-ci run.
    static let baseNanoseconds: UInt64 = 3_000_000_000
    static let perByteNanoseconds: UInt64 = 50_000

    /// The most memory the process may hold at its peak (resident, AddressSanitizer's shadow and
    /// quarantine included): a whole-export build of a few kilobytes of input, however it names,
    /// nests or sizes its files, stays far below it.
    static let maximumResidentBytes = 1 << 30

    /// Stops the run when the process's peak resident memory so far is over
    /// `maximumResidentBytes`: the input that crossed it is the one saved.
    static func checkMemory(what: String) {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let peak = usage.ru_maxrss * 1024
        if peak > maximumResidentBytes {
            fail("\(what): peak memory \(peak >> 20) MiB (bound \(maximumResidentBytes >> 20) MiB)")
        }
    }

    /// The process's CPU time so far, in nanoseconds.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Runs `work` and stops the run (a crash libFuzzer saves as a reproducer) when it took
    /// longer than the bound for `bytes` input bytes.
    static func measure<Result>(bytes: Int, what: String, _ work: () -> Result) -> Result {
        let start = now()
        let result = work()
        let elapsed = now() - start
        let bound = baseNanoseconds + UInt64(bytes) * perByteNanoseconds
        if elapsed > bound {
            fail("\(what) took \(elapsed / 1_000_000) ms of CPU for \(bytes) bytes (bound \(bound / 1_000_000) ms)")
        }
        return result
    }
}

/// Stops the run with `message` on standard error: libFuzzer saves the input as a reproducer.
func fail(_ message: String) -> Never {
    var text = "property failed: " + message + "\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    abort()
}

/// What a reader's or importer's result must hold on every input: bad input gives located
/// diagnostics, never a trap, and nothing in a conversation that was built is lost or unsafe.
enum ReadCheck {
    /// Every diagnostic names a file, a line and a column (from 1).
    static func checkLocated(_ diagnostics: [Diagnostic], what: String) {
        for diagnostic in diagnostics {
            guard let location = diagnostic.location, !location.file.isEmpty, location.line >= 1,
                location.column >= 1
            else {
                fail("\(what): a diagnostic without a usable location: \(diagnostic)")
            }
        }
    }

    /// `checkLocated`, and: a conversation that was not built has an error (or note) saying why; message
    /// ids are distinct (every source message is one message element); no rich text can run script.
    static func check(_ conversation: Conversation?, diagnostics: [Diagnostic], what: String) {
        checkLocated(diagnostics, what: what)
        guard let conversation else {
            // A note is a reason too: a `.md` without `participants` in its front matter is not a
            // log (spec §2) and is skipped with one.
            // A warning says why as well: a ChatGPT conversation with no messages is left out with one.
            if diagnostics.isEmpty {
                fail("\(what): no conversation and no error or note saying why")
            }
            return
        }
        if diagnostics.contains(where: { $0.severity == .error }) {
            fail("\(what): a conversation was built despite an error")
        }
        var ids = Set<String>()
        for message in conversation.messages {
            if !ids.insert(message.id).inserted { fail("\(what): message id '\(message.id)' is used twice") }
            if case .attributedText(let rich) = message.kind,
                let problem = SanitizedHTMLCheck.scriptViolation(in: rich.html)
            {
                fail("\(what): rich text that can run script: \(problem)")
            }
        }
    }
}

/// Checks that sanitized HTML holds no script, no event handler and no `javascript:` (or other
/// non-allowed) URL: every tag is an allowed one, every attribute an allowed one, every URL of an
/// allowed scheme. The sanitizer escapes `& < > " '` in text and attribute values, so tags can
/// be read by scanning from `<` to `>`.
enum SanitizedHTMLCheck {
    /// The sanitizer's own list: the check is that its output keeps to it.
    static let allowedTags = HTMLSanitizer.outputElements
    static let allowedAttributes: Set<String> = [
        "href", "rel", "src", "alt", "width", "height", "start", "colspan", "rowspan", "align", "type", "checked",
        "disabled",
    ]

    /// The first violation in `html`, or `nil`.
    static func violation(in html: String) -> String? {
        let bytes = Array(html.utf8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                if bytes[index] == UInt8(ascii: ">") { return "a raw '>' in text" }
                index += 1
                continue
            }
            guard let end = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else { return "an unclosed tag" }
            let tag = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
            index = end + 1
            if tag.hasPrefix("/") {
                guard allowedTags.contains(String(tag.dropFirst())) else { return "end tag \(tag)" }
                continue
            }
            if let problem = check(tag) { return problem }
        }
        return nil
    }

    /// The scheme a browser reads in an attribute value (WHATWG URL: leading and trailing C0
    /// controls and spaces trimmed, tabs and line breaks removed, then `alpha *(alnum / + - .) :`),
    /// lowercased; `nil` for a relative reference.
    static func browserScheme(of value: Substring) -> String? {
        let isTrimmed: (Unicode.Scalar) -> Bool = { $0.value <= 0x20 }
        let scalars = value.unicodeScalars.drop(while: isTrimmed).filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
        var scheme = ""
        for scalar in scalars {
            if scalar == ":" { return scheme.isEmpty ? nil : scheme.lowercased() }
            guard scalar.isASCII else { return nil }
            let isLetter = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
            let isOther = ("0"..."9").contains(scalar) || scalar == "+" || scalar == "-" || scalar == "."
            guard isLetter || (!scheme.isEmpty && isOther) else { return nil }
            scheme.unicodeScalars.append(scalar)
        }
        return nil
    }

    /// The first way `html` could run script, or `nil`: a `<script` tag, an `on…=` event
    /// handler attribute, or an `href`/`src` whose scheme is `javascript:`, `vbscript:` or
    /// `data:`. For HTML from cmark-gfm (rich text of the readers), whose tags and attributes
    /// are cmark's own and not the sanitizer's allow-list.
    static func scriptViolation(in html: String) -> String? {
        let bytes = Array(html.lowercased().utf8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            let end = bytes[index...].firstIndex(of: UInt8(ascii: ">")) ?? bytes.count
            let tag = String(decoding: bytes[index..<end], as: UTF8.self)
            index = end
            if tag.hasPrefix("<script") { return "a script tag" }
            // Attribute values are quoted and escaped: split outside quotes. Scalars, not
            // Characters: a browser reads `"` followed by a combining mark as a quote.
            let scalars = Array(tag.unicodeScalars)
            var inQuote = false
            var previous: Unicode.Scalar = " "
            for (position, scalar) in scalars.enumerated() {
                if scalar == "\"" { inQuote.toggle() }
                if !inQuote, previous.properties.isWhitespace || previous == "/", !scalar.properties.isWhitespace {
                    let rest = String(String.UnicodeScalarView(scalars[position...]))
                    if rest.hasPrefix("on"), let equals = rest.unicodeScalars.firstIndex(of: "="),
                        rest.unicodeScalars[..<equals].allSatisfy({ $0.properties.isAlphabetic })
                    {
                        return "event handler in \(tag)"
                    }
                    for name in ["href=\"", "src=\""] where rest.hasPrefix(name) {
                        let value = rest.unicodeScalars.dropFirst(name.unicodeScalars.count).prefix { $0 != "\"" }
                            .filter { !$0.properties.isWhitespace && $0.value >= 0x20 }
                        let text = String(String.UnicodeScalarView(value))
                        for scheme in ["javascript:", "vbscript:", "data:"] where text.hasPrefix(scheme) {
                            return "\(scheme) URL in \(tag)"
                        }
                    }
                }
                previous = scalar
            }
        }
        return nil
    }

    /// Checks one start tag's text (between `<` and `>`): `name attr="value" …`, scalar by scalar
    /// (a `"` followed by a combining mark is one Character but still a quote to a browser).
    private static func check(_ tag: String) -> String? {
        var rest = Substring(tag).unicodeScalars
        let name = String(String.UnicodeScalarView(rest.prefix { $0 != " " }))
        guard allowedTags.contains(name) else { return "tag <\(name)>" }
        rest = rest.dropFirst(name.unicodeScalars.count)
        while !rest.isEmpty {
            guard rest.first == " " else { return "junk in <\(tag)>" }
            rest = rest.dropFirst()
            let attribute = String(String.UnicodeScalarView(rest.prefix { $0 != "=" }))
            guard allowedAttributes.contains(attribute) else { return "attribute \(attribute) in <\(name)>" }
            rest = rest.dropFirst(attribute.unicodeScalars.count)
            guard rest.starts(with: "=\"".unicodeScalars) else { return "unquoted value in <\(tag)>" }
            rest = rest.dropFirst(2)
            guard let close = rest.firstIndex(of: "\"") else { return "unterminated value in <\(tag)>" }
            let value = Substring(rest[..<close])
            rest = rest[rest.index(after: close)...]
            if attribute == "href" || attribute == "src", let scheme = browserScheme(of: value) {
                guard ["http", "https", "mailto"].contains(scheme) else { return "URL \(value)" }
            }
        }
        return nil
    }
}
