import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A log file read piece by piece: the append path fingerprints a large log in chunks and then
/// reads only the parts its reader needs, so the whole log is never held in memory (reading it
/// into one array cost more than the rest of an append to a large log).
///
/// A file that shrinks while it is read makes a read return `nil` or `false`, never a crash.
/// Threads may share one: nothing changes after it is opened, and each read gives its own offset
/// (`pread`), so the append path fingerprints the log on one thread while reading it on another.
public final class LogFile: @unchecked Sendable {
    /// The file's size when it was opened.
    public let size: Int
    private let descriptor: Int32

    /// The regular file at `path`, or `nil` when it cannot be opened.
    public init?(path: String) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        size = Int(status.st_size)
    }

    deinit { close(descriptor) }

    /// Reads the bytes of `range` into `destination` (as many as `range` holds).
    private func read(_ range: Range<Int>, into destination: UnsafeMutableRawPointer) -> Bool {
        var done = 0
        while done < range.count {
            let count = pread(descriptor, destination + done, range.count - done, off_t(range.lowerBound + done))
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return false }
            done += count
        }
        return true
    }

    /// Appends the bytes of `range` to `buffer`; `false` (and `buffer` as it was) when they
    /// cannot all be read.
    public func read(_ range: Range<Int>, appendingTo buffer: inout [UInt8]) -> Bool {
        guard !range.isEmpty else { return true }
        let start = buffer.count
        var complete = false
        buffer.append(contentsOf: repeatElement(0, count: range.count))
        buffer.withUnsafeMutableBytes { complete = read(range, into: $0.baseAddress! + start) }
        if !complete { buffer.removeSubrange(start...) }
        return complete
    }

    /// The bytes of `range`, or `nil` when they cannot all be read (read straight into the
    /// array: a whole log can be hundreds of megabytes).
    public func bytes(_ range: Range<Int>) -> [UInt8]? {
        var complete = false
        let bytes = [UInt8](unsafeUninitializedCapacity: range.count) { buffer, initialized in
            complete = range.isEmpty || read(range, into: buffer.baseAddress!)
            initialized = complete ? range.count : 0
        }
        return complete ? bytes : nil
    }

    /// Calls `body` with the bytes of `range` in order, a chunk at a time, each chunk but the
    /// last `chunkSize` bytes long; `false` when the file could not be read to the end of `range`.
    public func forEachChunk(
        of range: Range<Int>, chunkSize: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) -> Void
    ) -> Bool {
        guard !range.isEmpty else { return true }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunkSize, alignment: 8)
        defer { buffer.deallocate() }
        var offset = range.lowerBound
        while offset < range.upperBound {
            let end = min(range.upperBound, offset + chunkSize)
            guard read(offset..<end, into: buffer) else { return false }
            body(UnsafeRawBufferPointer(start: buffer, count: end - offset))
            offset = end
        }
        return true
    }
}
