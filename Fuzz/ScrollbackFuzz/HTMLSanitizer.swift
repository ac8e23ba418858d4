// libFuzzer target: the libxml2-based HTML sanitizer. Property: the output never holds a script,
// an event handler, a tag or attribute outside the allow-list or a `javascript:` (or any other
// non-allowed scheme) URL (`SanitizedHTMLCheck`), and sanitizing takes at most a bound per byte.
import Dispatch
import FuzzSupport
import ScrollbackHTML

private let sanitizer = HTMLSanitizer()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTMLSanitizer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let fragment = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let start = DispatchTime.now().uptimeNanoseconds
    let result = sanitizer.sanitize(fragment)
    FuzzBound.check(start: start, bytes: size, what: "sanitize")
    if let problem = SanitizedHTMLCheck.violation(in: result.html) {
        fatalError("unsafe sanitizer output: \(problem)\ninput: \(fragment.debugDescription)\noutput: \(result.html)")
    }
    return 0
}
