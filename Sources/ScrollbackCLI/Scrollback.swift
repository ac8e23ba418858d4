import ArgumentParser
import Dispatch
import Foundation
import ScrollbackModel
import ScrollbackSite

#if canImport(Glibc)
import Glibc
#endif

/// The `scrollback` command: chat logs in, a static chat website out.
@main
struct Scrollback: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scrollback",
        abstract: "Turn chat logs (JSON or Markdown) into a static chat website.",
        version: SiteBuilder.version,
        subcommands: [Build.self, Serve.self])
}

/// Writes diagnostics to standard error as they arrive; one lock keeps lines whole.
final class DiagnosticPrinter: @unchecked Sendable {
    private let lock = NSLock()

    /// Whether notes (files skipped as not logs) are printed too (`--verbose`).
    let verbose: Bool

    init(verbose: Bool = false) {
        self.verbose = verbose
    }

    /// Prints `diagnostics`, one `file:line:column: error: …` line each; notes only when verbose.
    func print(_ diagnostics: [Diagnostic]) {
        let shown = verbose ? diagnostics : diagnostics.filter { $0.severity != .note }
        guard !shown.isEmpty else { return }
        let text = shown.map { $0.description + "\n" }.joined()
        lock.lock()
        FileHandle.standardError.write(Data(text.utf8))
        lock.unlock()
    }

    /// Prints one line to standard error.
    func line(_ text: String) {
        print([])
        lock.lock()
        FileHandle.standardError.write(Data((text + "\n").utf8))
        lock.unlock()
    }
}

/// `scrollback build INPUT -o DIR`: one build.
struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the site from a folder of logs.",
        discussion: """
            Diagnostics go to standard error as file:line:column: error: message, sorted by file, line \
            and column. A log with errors keeps the pages of the last build that read it without errors \
            (or is left out when there is none) and the exit status is 1; the other conversations are \
            still built. The output folder is replaced in one step, never left half-written.
            """)

    @Argument(help: "The folder of logs (*.json, *.md).", completion: .directory)
    var input: String

    @Option(name: .shortAndLong, help: "The site folder to create or replace.", completion: .directory)
    var output = "_site"

    @Flag(help: "Ignore the previous build's cache and rebuild everything.")
    var clean = false

    @Flag(name: .shortAndLong, help: "Print only diagnostics, no summary line.")
    var quiet = false

    @Flag(help: "Also print how long each step of the pipeline took (to standard error).")
    var timings = false

    @Flag(name: .shortAndLong, help: "Also report files that are skipped because they are not logs (a README.md).")
    var verbose = false

    func run() throws {
        let printer = DiagnosticPrinter(verbose: verbose)
        var options = SiteBuilder.Options(
            input: URL(fileURLWithPath: input), output: URL(fileURLWithPath: output), ignoresCache: clean)
        options.onDiagnostics = { printer.print($0) }
        let report: BuildReport
        do {
            report = try SiteBuilder(options: options).build()
        } catch let error as SiteBuildError {
            printer.line("error: \(error)")
            throw ExitCode.failure
        }
        if timings {
            for (step, seconds) in report.stepDurations {
                printer.line("  \(step): \(String(format: "%.3f", seconds)) s")
            }
            printer.line(
                "  conversations: \(report.rebuiltConversations) rebuilt "
                    + "(\(report.appendedConversations) by the append fast path), \(report.reusedConversations) reused")
        }
        if !quiet { Swift.print(report.summaryLine) }
        if report.hasErrors { throw ExitCode.failure }
    }
}

/// `scrollback serve INPUT`: build, serve over HTTP, rebuild and live-reload on change.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the site, serve it on localhost and rebuild it when the logs change.",
        discussion: """
            Open pages reload themselves after each rebuild (a script is added to served HTML \
            only; the built files are unchanged). Stop with Ctrl-C.
            """)

    @Argument(help: "The folder of logs (*.json, *.md).", completion: .directory)
    var input: String

    @Option(name: .shortAndLong, help: "Build into this folder instead of a temporary one.", completion: .directory)
    var output: String?

    @Option(help: "The port to listen on (0: any free port).")
    var port: UInt16 = 8000

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Flag(name: .shortAndLong, help: "Print only diagnostics.")
    var quiet = false

    func run() throws {
        let printer = DiagnosticPrinter()
        let temporaryFolder: URL? =
            output == nil
            ? FileManager.default.temporaryDirectory.appendingPathComponent(
                "scrollback-serve-\(ProcessInfo.processInfo.processIdentifier)") : nil
        let outputURL = output.map { URL(fileURLWithPath: $0) } ?? temporaryFolder!.appendingPathComponent("site")
        var options = SiteBuilder.Options(input: URL(fileURLWithPath: input), output: outputURL)
        options.onDiagnostics = { printer.print($0) }
        let quiet = self.quiet
        let preview = LivePreview(options: options) { result in
            switch result {
            case .success(let report): if !quiet { printer.line(report.summaryLine) }
            case .failure(let error): printer.line("error: \(error)")
            }
        }
        func removeTemporaryFolder() {
            if let temporaryFolder { try? FileManager.default.removeItem(at: temporaryFolder) }
        }
        preview.rebuildIfChanged()
        if preview.version == "0" {  // The first build could not publish anything.
            removeTemporaryFolder()
            throw ExitCode.failure
        }
        let server = StaticSiteServer(root: outputURL, host: host, liveReloadVersion: { preview.version })
        do {
            let actualPort = try server.start(port: port)
            // Written unbuffered, so a script waiting for this line sees it at once.
            FileHandle.standardOutput.write(
                Data("Serving \(input) at http://\(host):\(actualPort)/ (Ctrl-C to stop)\n".utf8))
        } catch {
            printer.line("error: \(error)")
            removeTemporaryFolder()
            throw ExitCode.failure
        }
        preview.startWatching()

        // Ctrl-C and SIGTERM: stop serving and delete the temporary site.
        let signals = [SIGINT, SIGTERM].map { signalNumber -> DispatchSourceSignal in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
            source.setEventHandler {
                preview.stop()
                server.stop()
                removeTemporaryFolder()
                Foundation.exit(0)
            }
            source.resume()
            return source
        }
        withExtendedLifetime(signals) { dispatchMain() }
    }
}
