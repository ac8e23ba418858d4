// libFuzzer target: the JSON log reader (`LogReader` on a `.json` file).
// Build and run: `make fuzz` (scripts/fuzz.sh). Property: no crash or sanitizer report, and the
// read takes at most a bound per input byte (`FuzzBound`).
import Dispatch
import Foundation
import FuzzSupport
import ScrollbackModel
import ScrollbackReading

private let inputRoot = URL(fileURLWithPath: "/nonexistent-scrollback-fuzz-input")
private let reader = LogReader(inputRoot: inputRoot, config: SiteConfig())
private let file = inputRoot.appendingPathComponent("log.json")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let start = DispatchTime.now().uptimeNanoseconds
    let result = reader.read(contents: bytes, of: file, tracingMessages: true)
    FuzzBound.check(start: start, bytes: size, what: "JSON read")
    // No rich-text message the reader accepted can run script.
    for message in result.conversation?.messages ?? [] {
        if case .attributedText(let rich) = message.kind,
            let problem = SanitizedHTMLCheck.scriptViolation(in: rich.html)
        {
            fatalError("unsafe rich text from the JSON reader: \(problem)")
        }
    }
    return 0
}
