// Fuzz target `JSONReader`: the JSON log reader (`LogReader` on a `.json` file). Properties: no
// crash or sanitizer report, the read takes at most a bound per input byte (`FuzzBound`), and the
// result passes `ReadCheck` (located errors, distinct message ids, no rich text that runs script).
import Foundation
import ScrollbackModel
import ScrollbackReading

private let inputRoot = URL(fileURLWithPath: "/nonexistent-scrollback-fuzz-input")
private let jsonFile = inputRoot.appendingPathComponent("log.json")

func fuzzJSONReader(_ input: UnsafeBufferPointer<UInt8>) {
    let bytes = Array(input)
    let result = FuzzBound.measure(bytes: bytes.count, what: "JSON read") {
        // A reader per input: its media and preview caches must not carry over between inputs.
        LogReader(inputRoot: inputRoot, config: SiteConfig()).read(
            contents: bytes, of: jsonFile, tracingMessages: true)
    }
    ReadCheck.check(result.conversation, diagnostics: result.diagnostics, what: "JSON reader")
}
