import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Tells when anything under a folder changes: the kernel's file events (inotify) on Linux, a
/// stat poll elsewhere or when inotify is unavailable (no instance or watch left).
///
/// This is the one wrapper around inotify: no descriptor or C buffer leaves it. Events are
/// coalesced by the caller (`LivePreview` debounces), so this only says "something changed".
public final class FileWatcher: @unchecked Sendable {
    /// How the watcher learns about changes.
    public enum Mechanism: String, Sendable {
        /// Linux inotify: a change is reported within milliseconds.
        case inotify
        /// A stat poll of every file (`pollInterval`).
        case polling
    }

    /// The folder watched, recursively.
    public let root: URL
    /// Folders under `root` not watched (the output folder when it sits inside the input).
    public let excluded: [String]
    /// Called on the watcher's thread after one or more changes.
    let onChange: @Sendable () -> Void
    /// The poll interval of the fallback.
    let pollInterval: Double

    private let lock = NSLock()
    private var stopped = false
    private var chosen: Mechanism = .polling
    private var thread: Thread?

    /// Creates a watcher of `root` (not started).
    public init(
        root: URL, excluding excluded: [URL] = [], pollInterval: Double = 0.5,
        onChange: @escaping @Sendable () -> Void
    ) {
        self.root = root.standardizedFileURL
        self.excluded = excluded.map { $0.standardizedFileURL.path }
        self.pollInterval = pollInterval
        self.onChange = onChange
    }

    /// The mechanism in use once started.
    public var mechanism: Mechanism {
        lock.lock()
        defer { lock.unlock() }
        return chosen
    }

    /// Starts watching on a thread of its own; `preferInotify: false` forces the poll.
    public func start(preferInotify: Bool = true) {
        #if os(Linux)
        if preferInotify, let inotify = Inotify(root: root.path, excluded: excluded) {
            lock.lock()
            chosen = .inotify
            lock.unlock()
            let thread = Thread { [self] in
                while !isStopped {
                    if inotify.waitForChanges(timeoutMilliseconds: 200) { onChange() }
                }
                inotify.close()
            }
            launch(thread)
            return
        }
        #endif
        let thread = Thread { [self] in
            var last = snapshot()
            while !isStopped {
                Thread.sleep(forTimeInterval: pollInterval)
                let now = snapshot()
                if now != last {
                    last = now
                    onChange()
                }
            }
        }
        launch(thread)
    }

    /// Stops watching (the thread ends within 200 ms).
    public func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private func launch(_ thread: Thread) {
        thread.name = "scrollback.watcher"
        lock.lock()
        self.thread = thread
        lock.unlock()
        thread.start()
    }

    /// Whether a change to a file or folder so named is ignored: names that start with `.`
    /// (editors' swap files, the builder's own staging and unpack folders). A leading `_` is
    /// watched: exports use it (iOS WhatsApp's `_chat.txt`), and the output (`_site/`) is
    /// excluded by path.
    static func isIgnored(_ name: String) -> Bool {
        name.hasPrefix(".")
    }

    /// Paths, sizes and modification times of every file under `root`, for the poll.
    private func snapshot() -> [String: [Double]] {
        var result: [String: [Double]] = [:]
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isDirectoryKey]
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys) else {
            return result
        }
        for case let url as URL in walker {
            let path = url.standardizedFileURL.path
            if Self.isIgnored(url.lastPathComponent)
                || excluded.contains(where: { path == $0 || path.hasPrefix($0 + "/") })
            {
                walker.skipDescendants()
                continue
            }
            let values = try? url.resourceValues(forKeys: Set(keys))
            result[path] = [
                Double(values?.fileSize ?? 0), values?.contentModificationDate?.timeIntervalSince1970 ?? 0,
            ]
        }
        return result
    }
}

#if os(Linux)
/// An inotify instance watching a folder tree; folders created later are added as they appear.
private final class Inotify: @unchecked Sendable {  // used by the watcher thread only
    private let descriptor: Int32
    private let excluded: [String]
    /// Watch descriptor → folder path.
    private var folders: [Int32: String] = [:]
    private static let mask = UInt32(
        IN_CLOSE_WRITE | IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF
            | IN_MOVE_SELF | IN_ATTRIB)

    /// Watches `root` and every folder under it, or returns `nil` when inotify is unavailable.
    init?(root: String, excluded: [String]) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        self.excluded = excluded
        guard addTree(root) else {
            Glibc.close(descriptor)
            return nil
        }
    }

    /// Whether `path` is an excluded folder (the output) or inside one.
    private func isExcluded(_ path: String) -> Bool {
        excluded.contains { path == $0 || path.hasPrefix($0 + "/") }
    }

    /// Adds a watch on `folder` and its subfolders; false when the kernel refuses (limit reached).
    @discardableResult
    private func addTree(_ folder: String) -> Bool {
        if isExcluded(folder) { return true }
        let watch = inotify_add_watch(descriptor, folder, Self.mask | UInt32(IN_ONLYDIR))
        guard watch >= 0 else { return false }
        folders[watch] = folder
        let children = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for child in children where !FileWatcher.isIgnored(child) {
            let path = folder + "/" + child
            var status = stat()
            // lstat: a symlinked folder is not followed (the build does not follow it either).
            if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
                guard addTree(path) else { return false }
            }
        }
        return true
    }

    /// Waits up to `timeoutMilliseconds` for events; true if any file changed.
    func waitForChanges(timeoutMilliseconds: Int32) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeoutMilliseconds) > 0 else { return false }
        var changed = false
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            let headerSize = MemoryLayout<inotify_event>.size
            while offset + headerSize <= count {
                let (watch, mask, nameLength) = buffer.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let nameStart = offset + headerSize
                let nameBytes = buffer[nameStart..<min(nameStart + nameLength, count)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                // A hidden file (the build writes its staging folder so), or the output itself
                // when it sits inside the input (`_site`, swapped in by each build).
                let ignored =
                    FileWatcher.isIgnored(name)
                    || folders[watch].map { isExcluded($0 + "/" + name) } == true
                if !ignored, mask & UInt32(IN_ISDIR) != 0, mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0,
                    let parent = folders[watch]
                {
                    addTree(parent + "/" + name)
                }
                if mask & UInt32(IN_IGNORED) != 0 {
                    folders[watch] = nil
                } else if !ignored {
                    changed = true
                }
                offset = nameStart + nameLength
            }
        }
        return changed
    }

    func close() {
        Glibc.close(descriptor)
    }
}
#endif
