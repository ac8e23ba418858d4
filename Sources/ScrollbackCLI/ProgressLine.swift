import Dispatch
import Foundation
import ScrollbackSite

#if canImport(Glibc)
import Glibc
#endif

/// The progress line of a long `scrollback build` on a terminal (issue 42.10): once the build
/// has run `delay` seconds, standard error shows one line (sources, conversations and messages
/// done, an estimate), redrawn in place with `\r` a few times a second and erased when the build
/// ends. Nothing at all when standard error is not a terminal (a pipe, a file, CI logs) or with
/// `--quiet`; it never touches standard output nor the site.
final class ProgressLine: @unchecked Sendable {
    /// Seconds a build runs before the line appears: a short build prints nothing extra.
    static let defaultDelay = 2.0

    /// The delay, or `SCROLLBACK_PROGRESS_AFTER` (seconds) when set: tests start the line at once.
    static var delay: Double {
        ProcessInfo.processInfo.environment["SCROLLBACK_PROGRESS_AFTER"].flatMap(Double.init) ?? defaultDelay
    }

    private let progress: BuildProgress
    private let descriptor: Int32
    private let delay: Double
    private let queue = DispatchQueue(label: "scrollback.progress")
    private var timer: DispatchSourceTimer?
    /// Whether a line is on screen (to erase at the end); touched on `queue` only.
    private var drawn = false

    /// A line for `progress` on `descriptor` (standard error).
    init(progress: BuildProgress, descriptor: Int32 = STDERR_FILENO, delay: Double = ProgressLine.delay) {
        self.progress = progress
        self.descriptor = descriptor
        self.delay = delay
    }

    /// Starts redrawing, if the descriptor is a terminal.
    func start() {
        guard isatty(descriptor) == 1 else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(250))
        timer.setEventHandler { [weak self] in self?.draw() }
        self.timer = timer
        timer.resume()
    }

    /// Stops redrawing and erases the line, so what is printed next starts at the left edge.
    /// Safe to call more than once.
    func stop() {
        queue.sync {
            timer?.cancel()
            timer = nil
            if drawn { write("\r\u{1B}[K") }
            drawn = false
        }
    }

    private func draw() {
        guard timer != nil else { return }
        let snapshot = progress.snapshot
        guard snapshot.elapsedSeconds >= delay else { return }
        // Cut to the terminal's width: a line that wraps cannot be redrawn with `\r`.
        var line = snapshot.line
        let width = terminalWidth()
        if width > 1, line.count >= width { line = String(line.prefix(width - 1)) }
        write("\r" + line + "\u{1B}[K")
        drawn = true
    }

    private func terminalWidth() -> Int {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0 else { return 80 }
        return Int(size.ws_col)
    }

    private func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            offset += written
        }
    }
}
