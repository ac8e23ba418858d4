import ArgumentParser
import Dispatch
import Foundation
import ScrollbackModel
import ScrollbackReading
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
        subcommands: [Build.self, Serve.self, Import.self])
}

/// Writes diagnostics to standard error as they arrive; one lock keeps lines whole.
final class DiagnosticPrinter: @unchecked Sendable {
    private let lock = NSLock()

    /// Prints `diagnostics`, one `file:line:column: error: …` line each.
    func print(_ diagnostics: [Diagnostic]) {
        guard !diagnostics.isEmpty else { return }
        let text = diagnostics.map { $0.description + "\n" }.joined()
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
            Diagnostics go to standard error as file:line:column: error: message. A log with errors \
            is left out and the exit status is 1; the other conversations are still built. The output \
            folder is replaced in one step, never left half-written.
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

    @Option(
        help: ArgumentHelp(
            "Read exports only as this format instead of detecting each by its structure.",
            valueName: ExportFormat.allCases.map(\.rawValue).joined(separator: "|")))
    var format: ExportFormat?

    func run() throws {
        let printer = DiagnosticPrinter()
        var options = SiteBuilder.Options(
            input: URL(fileURLWithPath: input), output: URL(fileURLWithPath: output), ignoresCache: clean)
        options.format = format
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
        if !quiet {
            for line in report.importCounts { Swift.print("  " + line) }
            Swift.print(report.summaryLine)
        }
        if report.hasErrors { throw ExitCode.failure }
    }
}

extension ExportFormat: ExpressibleByArgument {}

/// `scrollback import FORMAT PATH -o DIR`: an export as v1.1 JSON logs plus media (spec §6).
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write an export (Slack, Discord, ChatGPT, ...) as v1.1 JSON logs plus their media, to edit them.",
        discussion: """
            Building the written folder gives the same site as building the export directly. \
            Prints, per conversation, messages in and messages out.
            """)

    @Argument(help: "The export's format: slack, discord, telegram, whatsapp or chatgpt.")
    var format: ExportFormat

    @Argument(help: "The export: a folder, a zip or a single file.", completion: .file())
    var path: String

    @Option(name: .shortAndLong, help: "The folder to write the logs into.", completion: .directory)
    var output: String

    func run() throws {
        let printer = DiagnosticPrinter()
        let report: ImportReport
        do {
            report = try ExportWriter(
                input: URL(fileURLWithPath: path), format: format, output: URL(fileURLWithPath: output),
                onDiagnostics: { printer.print($0) }
            ).write()
        } catch let error as SiteBuildError {
            printer.line("error: \(error)")
            throw ExitCode.failure
        }
        for line in report.counts { Swift.print("  " + line) }
        Swift.print("wrote \(report.logs) logs, \(report.mediaFiles) media files to \(output)")
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
