// Fuzz target `HTMLSanitizer`: the libxml2-based HTML sanitizer. Property: the output never holds
// a script, an event handler, a tag or attribute outside the allow-list or a `javascript:` (or
// any other non-allowed scheme) URL (`SanitizedHTMLCheck`), and sanitizing takes at most a bound
// per input byte.
import ScrollbackHTML

private let sanitizer = HTMLSanitizer()

func fuzzHTMLSanitizer(_ input: UnsafeBufferPointer<UInt8>) {
    let fragment = String(decoding: input, as: UTF8.self)
    let result = FuzzBound.measure(bytes: input.count, what: "sanitize") { sanitizer.sanitize(fragment) }
    if let problem = SanitizedHTMLCheck.violation(in: result.html) {
        fail("unsafe sanitizer output: \(problem)\ninput: \(fragment.debugDescription)\noutput: \(result.html)")
    }
}
