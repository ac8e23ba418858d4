// The one libFuzzer executable (Fuzz/README.md): every target is a function of this module, and
// `SCROLLBACK_FUZZ_TARGET` chooses which one runs, so the fuzzers need one AddressSanitizer link
// instead of one per target. There is no `main`: libFuzzer's is linked by `--sanitize=fuzzer`.
import Foundation
import ScrollbackReading

/// One fuzz target: the name that selects it (and its seed folder, `Fuzz/Seeds/<name>`), the
/// longest input worth trying (libFuzzer's `-max_len`: longer inputs find nothing new and run
/// slower), and the function run on every input, which checks the target's properties.
struct FuzzTarget: Sendable {
    let name: String
    let maximumLength: Int
    let run: @Sendable (UnsafeBufferPointer<UInt8>) -> Void
}

/// Every target, in the order `scripts/fuzz.sh` runs them.
let fuzzTargets: [FuzzTarget] = [
    FuzzTarget(name: "JSONReader", maximumLength: 8192, run: fuzzJSONReader),
    FuzzTarget(name: "MarkdownReader", maximumLength: 8192, run: fuzzMarkdownReader),
    FuzzTarget(name: "HTMLSanitizer", maximumLength: 4096, run: fuzzHTMLSanitizer),
    FuzzTarget(name: "ConfigReader", maximumLength: 4096, run: fuzzConfigReader),
    FuzzTarget(name: "SlackImporter", maximumLength: 8192, run: fuzzSlackImporter),
    FuzzTarget(name: "DiscordImporter", maximumLength: 8192, run: fuzzDiscordImporter),
    FuzzTarget(name: "TelegramImporter", maximumLength: 8192, run: fuzzTelegramImporter),
    FuzzTarget(name: "WhatsAppImporter", maximumLength: 8192, run: fuzzWhatsAppImporter),
    FuzzTarget(name: "ChatGPTImporter", maximumLength: 8192, run: fuzzChatGPTImporter),
    FuzzTarget(name: "MetaImporter", maximumLength: 8192, run: fuzzMetaImporter),
    FuzzTarget(name: "ClaudeImporter", maximumLength: 8192, run: fuzzClaudeImporter),
    FuzzTarget(name: "TeamsImporter", maximumLength: 8192, run: fuzzTeamsImporter),
    FuzzTarget(name: "SignalImporter", maximumLength: 8192, run: fuzzSignalImporter),
    FuzzTarget(name: "MattermostImporter", maximumLength: 8192, run: fuzzMattermostImporter),
    FuzzTarget(name: "MatrixImporter", maximumLength: 8192, run: fuzzMatrixImporter),
    FuzzTarget(name: "GoogleChatImporter", maximumLength: 8192, run: fuzzGoogleChatImporter),
    FuzzTarget(name: "LineImporter", maximumLength: 8192, run: fuzzLineImporter),
    FuzzTarget(name: "IrcImporter", maximumLength: 8192, run: fuzzIrcImporter),
    FuzzTarget(name: "IMessageImporter", maximumLength: 8192, run: fuzzIMessageImporter),
    FuzzTarget(name: "SiteBuild", maximumLength: 16384, run: fuzzSiteBuild),
]

/// The target `SCROLLBACK_FUZZ_TARGET` names. `list` prints every target with its `-max_len`
/// (what `scripts/fuzz.sh` reads) and exits; an unknown name exits with the list.
let selectedTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["SCROLLBACK_FUZZ_TARGET"] ?? ""
    if let target = fuzzTargets.first(where: { $0.name == name }) { return target }
    if name == "list" {
        printTargets(to: STDOUT_FILENO)
        exit(0)
    }
    printTargets(to: STDERR_FILENO, heading: "SCROLLBACK_FUZZ_TARGET must name a target (name, -max_len):\n")
    exit(2)
}()

/// Prints `name max_len`, one target a line (nothing is left allocated for the leak check at `exit`).
func printTargets(to descriptor: CInt, heading: String = "") {
    var text = heading + fuzzTargets.map { "\($0.name) \($0.maximumLength)\n" }.joined()
    text.withUTF8 { _ = write(descriptor, $0.baseAddress, $0.count) }
}

/// Called by libFuzzer once before any input: fails fast on an unknown target, and builds what
/// the readers make once per process before any input is timed.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutableRawPointer, _ argv: UnsafeMutableRawPointer) -> CInt {
    _ = selectedTarget
    warmUpDetection()
    return 0
}

/// Runs every importer's detection once on a WhatsApp-like line with an AM/PM time: WhatsApp's
/// meridiem table is built from every locale's `DateFormatter` at its first use (a second under
/// ASan, more on a loaded machine), and libFuzzer's `-timeout` is wall time, so the first input
/// of each process (each fork child of a campaign) would otherwise pay for it and time out.
func warmUpDetection() {
    let candidate = ExportCandidate(
        url: URL(fileURLWithPath: "/scrollback-fuzz-warm-up/chat.txt"), isDirectory: false,
        head: Array("1/2/24, 9:05 AM - Ana: hi\n".utf8))
    for importer in ExportImporters.all { _ = importer.detect(candidate) }
}

/// Called by libFuzzer for every input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selectedTarget.run(UnsafeBufferPointer(start: size > 0 ? data : nil, count: size))
    return 0
}
