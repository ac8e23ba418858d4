import Dispatch
import Foundation
import ScrollbackRendering
import ScrollbackTemplates

/// The `serve` loop: builds the site, then polls the input for changes and rebuilds
/// incrementally, bumping a version number that open pages poll to reload themselves.
///
/// Polling (every half second by default) rather than inotify keeps it portable and cheap: one
/// `stat` per input file per tick.
public final class LivePreview: @unchecked Sendable {
    /// The builder options (input, output).
    public let options: SiteBuilder.Options
    /// Called after every build attempt with its report or its error.
    let onBuild: @Sendable (Result<BuildReport, Error>) -> Void

    private let lock = NSLock()
    private var buildVersion = 0
    private var lastFingerprint: String?
    private var timer: DispatchSourceTimer?
    private let queue = DispatchQueue(label: "scrollback.live-preview")

    /// Creates a preview of `options.input` built into `options.output`.
    public init(options: SiteBuilder.Options, onBuild: @escaping @Sendable (Result<BuildReport, Error>) -> Void) {
        self.options = options
        self.onBuild = onBuild
    }

    /// The number of builds published so far, as text: what `/__scrollback/version` answers.
    public var version: String {
        lock.lock()
        defer { lock.unlock() }
        return String(buildVersion)
    }

    /// Builds now if the input changed since the last build (or there was none); returns whether it built.
    @discardableResult
    public func rebuildIfChanged() -> Bool {
        queue.sync {
            let fingerprint = inputFingerprint()
            lock.lock()
            let unchanged = fingerprint == lastFingerprint
            lock.unlock()
            if unchanged { return false }
            let result = Result { try SiteBuilder(options: options).build() }
            lock.lock()
            lastFingerprint = fingerprint
            if case .success = result { buildVersion += 1 }
            lock.unlock()
            onBuild(result)
            return true
        }
    }

    /// Polls for changes every `interval` seconds until `stop()`.
    public func startWatching(interval: Double = 0.5) {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(50))
        timer.setEventHandler { [weak self] in self?.rebuildIfChanged() }
        lock.lock()
        self.timer = timer
        lock.unlock()
        timer.resume()
    }

    /// Stops polling.
    public func stop() {
        lock.lock()
        let timer = self.timer
        self.timer = nil
        lock.unlock()
        timer?.cancel()
    }

    /// Paths, sizes and modification times of every file the site depends on: the input folder
    /// (config, `templates/` and `previews/` included) and the `SCROLLBACK_TEMPLATES` folder
    /// when one replaces the embedded templates.
    private func inputFingerprint() -> String {
        var watched = [("input", InputDiscovery(inputRoot: options.input, excluding: [options.output]))]
        if let shipped = ShippedTemplates.overrideDirectory {
            watched.append(("shipped", InputDiscovery(inputRoot: URL(fileURLWithPath: shipped))))
        }
        var lines = ""
        for (label, discovery) in watched {
            for file in discovery.watchedFiles() {
                lines += "\(label)/\(file.relativePath)\t\(file.stamp.size)\t\(file.stamp.modifiedNanoseconds)\n"
            }
        }
        return ContentFingerprint.hex(of: lines)
    }
}
