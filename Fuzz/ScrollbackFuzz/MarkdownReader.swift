// libFuzzer target: the Markdown log reader (`LogReader` on a `.md` file: front matter, cmark-gfm,
// message headers, kinds). Property: no crash or sanitizer report, the read takes at most a bound
// per input byte (`FuzzBound`), and no rich-text body can run script.
import Dispatch
import Foundation
import FuzzSupport
import ScrollbackModel
import ScrollbackReading

private let inputRoot = URL(fileURLWithPath: "/nonexistent-scrollback-fuzz-input")
private let reader = LogReader(inputRoot: inputRoot, config: SiteConfig())
private let file = inputRoot.appendingPathComponent("log.md")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMarkdownReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let start = DispatchTime.now().uptimeNanoseconds
    let result = reader.read(contents: bytes, of: file)
    FuzzBound.check(start: start, bytes: size, what: "Markdown read")
    for message in result.conversation?.messages ?? [] {
        if case .attributedText(let rich) = message.kind,
            let problem = SanitizedHTMLCheck.scriptViolation(in: rich.html)
        {
            fatalError("unsafe rich text from the Markdown reader: \(problem)")
        }
    }
    return 0
}
