// Fuzz target `MarkdownReader`: the Markdown log reader (`LogReader` on a `.md` file: front
// matter, cmark-gfm, message headers, kinds). Properties: no crash or sanitizer report, the read
// takes at most a bound per input byte (`FuzzBound`), and the result passes `ReadCheck`.
import Foundation
import ScrollbackModel
import ScrollbackReading

private let inputRoot = URL(fileURLWithPath: "/nonexistent-scrollback-fuzz-input")
private let markdownFile = inputRoot.appendingPathComponent("log.md")

func fuzzMarkdownReader(_ input: UnsafeBufferPointer<UInt8>) {
    let bytes = Array(input)
    let result = FuzzBound.measure(bytes: bytes.count, what: "Markdown read") {
        LogReader(inputRoot: inputRoot, config: SiteConfig()).read(contents: bytes, of: markdownFile)
    }
    ReadCheck.check(result.conversation, diagnostics: result.diagnostics, what: "Markdown reader")
}
