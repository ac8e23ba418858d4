import ArgumentParser
import Dispatch
import Foundation
import ScrollbackCache
import ScrollbackModel
import ScrollbackReading
import ScrollbackServe
import ScrollbackSite

#if canImport(Glibc)
import Glibc
#endif

/// The `scrollback` command: chat logs in, a static chat website out.
@main
struct Scrollback: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scrollback",
        abstract: "Turn chat logs (JSON or Markdown) into a static chat website.",
        version: SiteBuilder.version,
        subcommands: [Init.self, Build.self, Serve.self, Import.self])
}

/// Writes diagnostics to standard error as they arrive, each file named relative to the current
/// folder with its offending line; one lock keeps lines whole.
final class DiagnosticPrinter: @unchecked Sendable {
    private let lock = NSLock()
    private let presenter: DiagnosticPresenter

    /// Whether notes (files skipped as not logs) are printed too (`--verbose`).
    let verbose: Bool

    /// A printer for diagnostics of a build of `inputRoot`.
    init(inputRoot: URL, verbose: Bool = false) {
        presenter = DiagnosticPresenter(inputRoot: inputRoot)
        self.verbose = verbose
    }

    /// Prints `diagnostics`: `file:line:column: error: …`, the source line and a caret; notes
    /// only when verbose.
    func print(_ diagnostics: [Diagnostic]) {
        let shown = verbose ? diagnostics : diagnostics.filter { $0.severity != .note }
        guard !shown.isEmpty else { return }
        // Every file read once for all its lines; a warning repeated through a file printed once.
        let text = presenter.presentAll(shown).map { $0.terminalText + "\n" }.joined()
        lock.lock()
        // `write(contentsOf:)`, not `write(_:)`: that one is a `try!` inside Foundation, so a full
        // or closed standard error would crash the build instead of going unprinted.
        try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
        lock.unlock()
    }

    /// Prints one line to standard error.
    func line(_ text: String) {
        lock.lock()
        try? FileHandle.standardError.write(contentsOf: Data((text + "\n").utf8))
        lock.unlock()
    }
}

/// `--jobs N`, shared by `build` and `serve`.
struct JobsOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "How many conversations to build at once (default: one per processor). The site is the same whatever N.",
            valueName: "N"))
    var jobs: Int?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
    }
}

/// `--cache-dir DIR`, shared by `build` and `serve`: where the build cache goes
/// (`CacheLocation`). `import` keeps no cache: it unpacks into a temporary folder it deletes.
struct CacheDirOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The folder of the build cache, never published (default: $XDG_CACHE_HOME/scrollback/<output>-<hash>, "
                + "or ~/.cache/scrollback/...). The output holds only the site.",
            valueName: "DIR"), completion: .directory)
    var cacheDir: String?

    /// The folder as the builder takes it.
    var url: URL? { cacheDir.map { URL(fileURLWithPath: $0) } }
}

/// `--me NAME`, shared by `build`, `import` and `serve`.
struct MeOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "You: a participant id or name whose messages go on the right (repeat it for several). "
                + "Wins over the config's me: and a log's own me.",
            valueName: "NAME"))
    var me: [String] = []

    func validate() throws {
        if me.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw ValidationError("--me needs a participant id or name, not an empty text")
        }
    }
}

/// `scrollback build INPUT -o DIR`: one build.
struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the site from a folder of logs, or from a chat app's export as it is.",
        discussion: """
            Exports build directly, no import step needed:
              scrollback build "WhatsApp Chat - Ana.zip" -o _site   (a zip: WhatsApp, Slack, Telegram, ChatGPT, Claude)
              scrollback build slack-export -o _site                (an unpacked export folder)
              scrollback build _chat.txt -o _site                   (WhatsApp's chat text)
              scrollback build conversations.json -o _site         (ChatGPT or Claude.ai)
              scrollback build result.json -o _site                 (Telegram Desktop)
              scrollback build facebook-ana.zip -o _site            (Messenger, Instagram: Meta's JSON download)
              scrollback build TeamsData -o _site                   (Microsoft Teams: the teams/ and users/ folders)
              scrollback build signal-chats -o _site                (Signal: signal-export's folders, or chat text)
              scrollback build mattermost-export.zip -o _site       (Mattermost's bulk export, import.jsonl)
              scrollback build matrix-export.zip -o _site           (Element's Matrix room export, JSON)
              scrollback build "Google Chat" -o _site               (Google Takeout's Google Chat folder or zip)

            Diagnostics go to standard error as file:line:column: error: message, sorted by file, line \
            and column. A log with errors keeps the pages of the last build that read it without errors \
            (or is left out when there is none) and the exit status is 1; the other conversations are \
            still built. The output folder is replaced in one step, never left half-written, and holds \
            only the site: the cache that makes the next build quick lives in the user's cache folder \
            (see --cache-dir). A build that takes more than two seconds shows its progress on a \
            terminal (not with --quiet, nor when standard error is not a terminal).

            Voice notes in Ogg (.opus, .ogg), which Safari cannot play, get an .m4a copy when ffmpeg is \
            on PATH (or at SCROLLBACK_FFMPEG; set it empty to make none); without ffmpeg the build says \
            so once.
            """)

    @Argument(
        help:
            "The folder of logs (*.json, *.md) and exports, or one export: a zip, a folder, _chat.txt, conversations.json, result.json.",
        completion: .file())
    var input: String

    @Option(name: .shortAndLong, help: "The site folder to create or replace.", completion: .directory)
    var output = "_site"

    @Flag(help: "Ignore the previous build's cache and rebuild everything.")
    var clean = false

    @Option(
        help: """
            The address the site is published at (https://example.com/chats/). Adds canonical links, \
            sitemap.xml, robots.txt, Atom feeds and social card tags; links stay relative.
            """)
    var baseURL: String?

    @Flag(name: .shortAndLong, help: "Print only diagnostics: no progress, no summary line.")
    var quiet = false

    @Flag(help: "Also print how long each step of the pipeline took (to standard error).")
    var timings = false

    @Flag(
        help:
            "Also print, per conversation, whether it was reused, appended to or built again, and why (to standard error)."
    )
    var explain = false

    @Flag(
        name: .shortAndLong,
        help:
            "Also report files that are skipped because they are not logs (a README.md), a line per log, and what each source left out and why."
    )
    var verbose = false
    @Option(
        help: ArgumentHelp(
            "Read exports only as this format instead of detecting each by its structure.",
            valueName: ExportFormat.allCases.map(\.rawValue).joined(separator: "|")))
    var format: ExportFormat?

    @OptionGroup var me: MeOption

    @OptionGroup var jobs: JobsOption

    @OptionGroup var cacheDir: CacheDirOption

    func run() throws {
        let printer = DiagnosticPrinter(inputRoot: URL(fileURLWithPath: input), verbose: verbose)
        var options = SiteBuilder.Options(
            input: URL(fileURLWithPath: input), output: URL(fileURLWithPath: output), ignoresCache: clean)
        options.cacheDirectory = cacheDir.url
        options.baseURL = baseURL
        options.format = format
        options.me = me.me
        options.jobs = jobs.jobs
        // A long build on a terminal shows how far it is; erased before anything else is printed.
        let progress = BuildProgress()
        let progressLine = ProgressLine(progress: progress)
        if !quiet {
            options.progress = progress
            progressLine.start()
        }
        options.onDiagnostics = {
            progressLine.stop()
            printer.print($0)
        }
        let report: BuildReport
        do {
            defer { progressLine.stop() }
            report = try SiteBuilder(options: options).build()
        } catch let error as SiteBuildError {
            printer.line("error: \(error)")
            throw ExitCode.failure
        }
        if timings {
            for (step, seconds, cpuSeconds) in report.stepDurations {
                printer.line(
                    "  \(step): \(String(format: "%.3f", seconds)) s (CPU \(String(format: "%.3f", cpuSeconds)) s)")
            }
            printer.line(
                "  conversations: \(report.rebuiltConversations) rebuilt "
                    + "(\(report.appendedConversations) by the append fast path), \(report.reusedConversations) reused")
        }
        if explain {
            for line in report.work { printer.line("  " + line.line) }
        }
        if !quiet {
            // A line per export's conversation; with --verbose, per log too, and what was left out.
            for source in report.sources where source.isImported || verbose {
                Swift.print("  " + source.line)
                if verbose { for line in source.leftOutLines { Swift.print("      " + line) } }
            }
            Swift.print(report.summaryLine)
            for note in report.summaryNotes { Swift.print("note: " + note) }
            Swift.print(BuildReport.whereLine(output: output, input: input))
        }
        if report.hasErrors { throw ExitCode.failure }
    }
}

extension ExportFormat: ExpressibleByArgument {
    /// The format named `argument`: a raw value, or the name of an app that `meta` reads
    /// (`messenger`, `instagram`, `facebook`), as users know their download.
    public init?(argument: String) {
        switch argument.lowercased() {
        case "messenger", "instagram", "facebook": self = .meta
        default: self.init(rawValue: argument)
        }
    }
}

/// `scrollback import FORMAT PATH -o DIR`: an export as v1.1 JSON logs plus media (spec §6).
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write an export (Slack, Discord, ChatGPT, ...) as v1.1 JSON logs plus their media, to edit them.",
        discussion: """
            Building the written folder gives the same site as building the export directly. \
            Prints, per conversation, messages in and messages out.
            """)

    @Argument(
        help: ArgumentHelp(
            "The export's format: " + ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")
                + " (messenger, instagram and facebook also name meta).")
    )
    var format: ExportFormat

    @Argument(help: "The export: a folder, a zip or a single file.", completion: .file())
    var path: String

    @Option(
        name: .shortAndLong, help: "The folder to write the logs into: new or empty (see --force).",
        completion: .directory)
    var output: String

    @Flag(help: "Write into a folder that is not empty, replacing files of the same names (edited logs too).")
    var force = false

    @OptionGroup var me: MeOption

    func run() throws {
        let printer = DiagnosticPrinter(inputRoot: URL(fileURLWithPath: path), verbose: false)
        let report: ImportReport
        do {
            var writer = ExportWriter(
                input: URL(fileURLWithPath: path), format: format, output: URL(fileURLWithPath: output),
                onDiagnostics: { printer.print($0) })
            writer.overwrites = force
            writer.me = me.me
            report = try writer.write()
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
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the site, serve it on localhost and rebuild it when the logs change.",
        discussion: """
            Open pages reload themselves after each rebuild, and show the build's errors over the \
            page while the last good version of each conversation is still served (a script is \
            added to served HTML only; the built files are unchanged). Stop with Ctrl-C.
            """)

    @Argument(help: "The folder of logs (*.json, *.md).", completion: .directory)
    var input: String

    @Option(name: .shortAndLong, help: "Build into this folder instead of a temporary one.", completion: .directory)
    var output: String?

    @Option(help: "The port to listen on (0, the default: any free port; the address is printed).")
    var port = 0

    @Option(
        name: [.long, .customLong("host")],
        help: "The address to listen on. Loopback by default; 0.0.0.0 makes the preview reachable from other machines.")
    var bind = "127.0.0.1"

    @Flag(name: .shortAndLong, help: "Print only diagnostics.")
    var quiet = false

    @Flag(help: "Also say which files changed and how each rebuild went.")
    var verbose = false

    @OptionGroup var me: MeOption

    @OptionGroup var jobs: JobsOption

    @OptionGroup var cacheDir: CacheDirOption

    func run() async throws {
        let printer = DiagnosticPrinter(inputRoot: URL(fileURLWithPath: input), verbose: verbose)
        let temporaryFolder: URL? =
            output == nil
            ? FileManager.default.temporaryDirectory.appendingPathComponent(
                "scrollback-serve-\(ProcessInfo.processInfo.processIdentifier)") : nil
        let outputURL = output.map { URL(fileURLWithPath: $0) } ?? temporaryFolder!.appendingPathComponent("site")
        var options = SiteBuilder.Options(input: URL(fileURLWithPath: input), output: outputURL)
        // A temporary site's cache is temporary too: beside it, deleted with it when serve stops,
        // so nothing of it stays in the user's cache folder or in /tmp.
        options.cacheDirectory = cacheDir.url ?? temporaryFolder?.appendingPathComponent("cache")
        options.jobs = jobs.jobs
        options.me = me.me
        options.publishesEmptySite = true
        let quiet = self.quiet
        let preview = LivePreview(options: options) { result in
            switch result {
            case .success(let report):
                printer.print(report.diagnostics)
                if !quiet {
                    printer.line(report.summaryLine)
                    for note in report.summaryNotes { printer.line("note: " + note) }
                }
            case .failure(let error): printer.line("error: \(error)")
            }
        }
        func removeTemporaryFolder() {
            if let temporaryFolder { try? FileManager.default.removeItem(at: temporaryFolder) }
        }
        defer { removeTemporaryFolder() }
        if case .failure = preview.build() {  // The first build could not publish anything.
            throw ExitCode.failure
        }
        preview.startWatching()
        var configuration = DevServer.Configuration()
        configuration.host = bind
        configuration.port = port
        let server = DevServer(site: outputURL, preview: preview, configuration: configuration)
        let host = bind.contains(":") ? "[\(bind)]" : bind
        let input = self.input
        let verbose = self.verbose
        do {
            try await server.run { port in
                // Written unbuffered, so a script waiting for this line sees it at once.
                try? FileHandle.standardOutput.write(
                    contentsOf: Data("Serving \(input) at http://\(host):\(port)/ (Ctrl-C to stop)\n".utf8))
                if verbose { printer.line("watching \(input) with \(preview.watchMechanism?.rawValue ?? "?")") }
            }
        } catch {
            preview.stop()
            printer.line("error: cannot serve on \(host):\(port): \(error)")
            throw ExitCode.failure
        }
        preview.stop()
    }
}

/// `scrollback init [DIR]`: a new site folder that builds as it is.
struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a site folder: settings with their defaults, two example logs, a templates folder.")

    @Argument(help: "The folder to create (or fill, if it has none of the files).", completion: .directory)
    var folder = "."

    func run() throws {
        let url = URL(fileURLWithPath: folder)
        do {
            try SiteScaffold.write(into: url)
        } catch {
            try? FileHandle.standardError.write(contentsOf: Data("error: \(error)\n".utf8))
            throw ExitCode.failure
        }
        let names = SiteScaffold.files().map(\.path).joined(separator: ", ")
        Swift.print("Created \(names) in \(folder).")
        Swift.print(
            "Next: scrollback serve \(folder)   (or: scrollback build \(folder) -o \(folder == "." ? "" : folder + "/")_site)"
        )
    }
}
