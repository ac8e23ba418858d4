import Foundation

/// The build's one parallel loop, bounded by the `jobs` setting (`scrollback build --jobs N`).
///
/// Work done in parallel stores its results by index (`ConcurrentSlots`) and is read back in index
/// order, so the output does not depend on how many threads ran it or which finished first.
public enum Parallel {
    /// The jobs when none are asked for: the processors this process may use.
    public static var defaultJobs: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// Calls `body` once for every index in `0..<count`, on at most `jobs` threads at once (the
    /// caller's and `jobs - 1` others, each taking the next index not yet taken), and returns when
    /// every call has returned. With `jobs` 1, or one index, everything runs on the caller's
    /// thread in index order.
    ///
    /// Real threads rather than `DispatchQueue.concurrentPerform`, which never runs more at once
    /// than there are cores: `--jobs 4` on two cores runs four.
    public static func forEach(_ count: Int, jobs: Int, _ body: (Int) -> Void) {
        let threads = min(max(jobs, 1), count)
        if threads <= 1 {
            for index in 0..<count { body(index) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let loop = Loop(count: count, body: body)
            let finished = DispatchGroup()
            for _ in 1..<threads {
                finished.enter()
                Thread {
                    loop.run()
                    finished.leave()
                }.start()
            }
            loop.run()
            finished.wait()
            // The other threads may still hold `loop` for a moment: it must no longer hold `body`.
            loop.release()
        }
    }

    /// Starts `body` on a thread of its own and returns at once; `group`, if any, is entered
    /// until `body` returns.
    ///
    /// A real thread rather than `DispatchQueue.global()`: the dispatch pool on Linux may hold
    /// no free thread (its threads rendering, or waiting on a semaphore) and then runs the work
    /// late, leaving a core idle meanwhile.
    public static func start(in group: DispatchGroup? = nil, _ body: @escaping @Sendable () -> Void) {
        group?.enter()
        Thread {
            body()
            group?.leave()
        }.start()
    }
}

/// A value worked out on a thread of its own (`Parallel.start`) while the caller goes on, or at
/// once when no other thread may run (`concurrently` false).
public final class Pending<Value>: @unchecked Sendable {
    private let done = DispatchGroup()
    /// Written once, by the work's thread before it leaves `done`; read after `done.wait()`.
    private var value: Value?

    /// Starts `work`.
    public init(concurrently: Bool, _ work: @escaping @Sendable () -> Value) {
        guard concurrently else {
            value = work()
            return
        }
        Parallel.start(in: done) { self.value = work() }
    }

    /// The value, waiting for the work to end.
    public func result() -> Value {
        done.wait()
        return value!
    }
}

/// The indices still to run and the body that runs them, shared by the threads of one
/// `Parallel.forEach`; the lock guards both.
private final class Loop: @unchecked Sendable {
    private let lock = NSLock()
    private let count: Int
    private var next = 0
    private var body: ((Int) -> Void)?

    init(count: Int, body: @escaping (Int) -> Void) {
        self.count = count
        self.body = body
    }

    /// Runs indices until none is left.
    func run() {
        while let (index, body) = take() { body(index) }
    }

    private func take() -> (Int, (Int) -> Void)? {
        lock.withLock {
            guard next < count, let body else { return nil }
            defer { next += 1 }
            return (next, body)
        }
    }

    /// Drops the body once every index has run.
    func release() {
        lock.withLock { body = nil }
    }
}

/// How many of the build's `jobs` threads are busy with a conversation each: one large
/// conversation is read, rendered and indexed on the threads left idle too (it is the only one,
/// or the last).
public final class ThreadBudget: @unchecked Sendable {
    private let lock = NSLock()
    private let jobs: Int
    private var busy = 0

    /// A budget of `jobs` threads, none busy.
    public init(jobs: Int) {
        self.jobs = max(jobs, 1)
    }

    /// Runs `body` as one busy thread.
    public func working<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.withLock { busy += 1 }
        defer { lock.withLock { busy -= 1 } }
        return try body()
    }

    /// The threads a caller inside `working` may use now: its own and the idle ones.
    public var available: Int {
        lock.withLock { 1 + max(jobs - busy, 0) }
    }
}
