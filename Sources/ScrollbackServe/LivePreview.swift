import Dispatch
import Foundation
import ScrollbackCache
import ScrollbackModel
import ScrollbackRendering
import ScrollbackSite

/// What open pages are told over the live-reload channel.
public enum PreviewEvent: Sendable, Equatable {
    /// A build was published: pages reload. `version` counts published builds.
    case reload(version: Int)
    /// The last build had errors: pages show them over the content (the site served is the last
    /// good one of each conversation, as the builder keeps it).
    case overlay(BuildProblems)
    /// The errors are gone (the next good build): pages hide the overlay.
    case clear

    /// The server-sent event's name.
    var name: String {
        switch self {
        case .reload: return "reload"
        case .overlay: return "overlay"
        case .clear: return "clear"
        }
    }

    /// The event's data, one line of JSON.
    var data: String {
        switch self {
        case .reload(let version): return #"{"version":\#(version)}"#
        case .overlay(let problems): return problems.json
        case .clear: return "{}"
        }
    }

    /// The event as `text/event-stream` text.
    var serverSentEvent: String { "event: \(name)\ndata: \(data)\n\n" }
}

/// The errors of a failed build, as the overlay shows them.
public struct BuildProblems: Codable, Sendable, Equatable {
    /// One line, e.g. `the build has 1 error; the last good pages are shown`.
    public var summary: String
    /// The errors (warnings are left to the terminal), located.
    public var errors: [PresentedDiagnostic]

    /// The payload as JSON (sorted keys, so the same errors give the same text).
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// The `serve` loop: builds the site, rebuilds it when the input changes (kernel file events,
/// debounced) and tells every subscriber — the open pages — what happened.
public final class LivePreview: @unchecked Sendable {
    /// The builder options (input, output).
    public let options: SiteBuilder.Options
    /// Called after every build with its report or its error (on the build queue).
    let onBuild: @Sendable (Result<BuildReport, Error>) -> Void
    /// How long the input must be quiet before a rebuild starts, and the most a rebuild waits
    /// after the first change while changes keep coming (well within 100 ms of a save).
    let quietPeriod: DispatchTimeInterval = .milliseconds(30)
    let maximumDelay: UInt64 = 80_000_000

    private let lock = NSLock()
    private var publishedBuilds = 0
    private var problems: BuildProblems?
    private var subscribers: [UInt64: AsyncStream<PreviewEvent>.Continuation] = [:]
    private var nextSubscriber: UInt64 = 0
    private var firstPendingChange: UInt64?
    private var lastChange: UInt64 = 0
    private var watcher: FileWatcher?
    private let buildQueue = DispatchQueue(label: "scrollback.preview.build")
    private let timerQueue = DispatchQueue(label: "scrollback.preview.debounce")
    let presenter: DiagnosticPresenter

    /// Creates a preview of `options.input` built into `options.output`.
    public init(options: SiteBuilder.Options, onBuild: @escaping @Sendable (Result<BuildReport, Error>) -> Void) {
        self.options = options
        self.onBuild = onBuild
        self.presenter = DiagnosticPresenter(inputRoot: options.input)
    }

    /// The number of builds published so far.
    public var version: Int {
        lock.lock()
        defer { lock.unlock() }
        return publishedBuilds
    }

    /// The errors of the last build, if it had any.
    public var currentProblems: BuildProblems? {
        lock.lock()
        defer { lock.unlock() }
        return problems
    }

    /// Builds now, on the calling thread's turn of the build queue; tells subscribers.
    @discardableResult
    public func build() -> Result<BuildReport, Error> {
        buildQueue.sync { buildNow() }
    }

    private func buildNow() -> Result<BuildReport, Error> {
        let result = Result { try SiteBuilder(options: options).build() }
        var events: [PreviewEvent] = []
        lock.lock()
        switch result {
        case .success(let report):
            publishedBuilds += 1
            events.append(.reload(version: publishedBuilds))
            let errors = report.diagnostics.filter { $0.severity == .error }
            if errors.isEmpty {
                if problems != nil { events.append(.clear) }
                problems = nil
            } else {
                let found = BuildProblems(
                    summary: "the build has \(errors.count) error\(errors.count == 1 ? "" : "s"); "
                        + "the last good pages are shown",
                    errors: errors.map(presenter.present))
                problems = found
                events.append(.overlay(found))
            }
        case .failure(let error):
            let found = BuildProblems(
                summary: "the build failed; the last good site is shown",
                errors: [
                    PresentedDiagnostic(
                        severity: "error", file: nil, line: 0, column: 0, message: "\(error)", sourceLine: nil)
                ])
            problems = found
            events.append(.overlay(found))
        }
        let listeners = Array(subscribers.values)
        lock.unlock()
        for listener in listeners {
            for event in events { listener.yield(event) }
        }
        onBuild(result)
        return result
    }

    /// A stream of events for one open page: first the current state (the overlay if the last
    /// build failed), then every event until `stop()` or the page goes away.
    public func subscribe() -> AsyncStream<PreviewEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: PreviewEvent.self, bufferingPolicy: .bufferingNewest(16))
        lock.lock()
        let id = nextSubscriber
        nextSubscriber += 1
        subscribers[id] = continuation
        let current = problems
        lock.unlock()
        if let current { continuation.yield(.overlay(current)) }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.lock.lock()
            self.subscribers[id] = nil
            self.lock.unlock()
        }
        return stream
    }

    /// The number of open event streams.
    public var subscriberCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return subscribers.count
    }

    /// Watches the input and rebuilds after changes; `preferInotify: false` forces polling.
    public func startWatching(preferInotify: Bool = true) {
        // The build's own writes are no change: the output, and the cache when `--cache-dir`
        // puts it inside the input.
        let cache = CacheLocation.resolve(
            cacheDirectory: options.cacheDirectory, input: options.input, output: options.output)
        let excluded = [options.output] + (cache.map { [URL(fileURLWithPath: $0.folder)] } ?? [])
        let watcher = FileWatcher(root: options.input, excluding: excluded) { [weak self] in
            self?.inputChanged()
        }
        lock.lock()
        self.watcher = watcher
        lock.unlock()
        watcher.start(preferInotify: preferInotify)
    }

    /// The watcher's mechanism, once watching.
    public var watchMechanism: FileWatcher.Mechanism? {
        lock.lock()
        defer { lock.unlock() }
        return watcher?.mechanism
    }

    /// Stops watching and ends every event stream (so the server can shut down).
    public func stop() {
        lock.lock()
        let watcher = self.watcher
        self.watcher = nil
        let listeners = Array(subscribers.values)
        subscribers = [:]
        lock.unlock()
        watcher?.stop()
        for listener in listeners { listener.finish() }
    }

    /// Debounce: a rebuild starts once the input has been quiet for `quietPeriod`, or
    /// `maximumDelay` after the first change, whichever comes first.
    private func inputChanged() {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.lock()
        lastChange = now
        let alreadyPending = firstPendingChange != nil
        if !alreadyPending { firstPendingChange = now }
        lock.unlock()
        if !alreadyPending { timerQueue.asyncAfter(deadline: .now() + quietPeriod) { self.checkPending() } }
    }

    private func checkPending() {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.lock()
        guard let first = firstPendingChange else {
            lock.unlock()
            return
        }
        let quietSince = now - lastChange
        let quietEnough: Bool
        if case .milliseconds(let quiet) = quietPeriod {
            quietEnough = quietSince >= UInt64(quiet) * 1_000_000
        } else {
            quietEnough = true
        }
        if quietEnough || now - first >= maximumDelay {
            firstPendingChange = nil
            lock.unlock()
            buildQueue.async { _ = self.buildNow() }
        } else {
            lock.unlock()
            timerQueue.asyncAfter(deadline: .now() + .milliseconds(10)) { self.checkPending() }
        }
    }
}
