import Foundation

/// Results that parallel work (`Parallel.forEach`, or tasks on a group) fills, one
/// slot per index, each slot written by one worker; read back in index order, so the output does
/// not depend on which worker finished first.
public final class ConcurrentSlots<Value>: @unchecked Sendable {
    private var slots: [Value?]
    private let lock = NSLock()

    /// `count` empty slots.
    public init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    /// Stores `value` at `index`, growing the slots when `index` is past the end (work that
    /// learns its count as it goes).
    public func store(_ value: Value, at index: Int) {
        lock.withLock {
            if index >= slots.count { slots += Array(repeating: nil, count: index + 1 - slots.count) }
            slots[index] = value
        }
    }

    /// The value at `index`, leaving its slot empty (so a large value is not held twice).
    public func take(_ index: Int) -> Value? {
        lock.withLock { slots[index].take() }
    }

    /// The sum of `measure` over the stored values.
    public func total(of measure: (Value) -> Int) -> Int {
        lock.withLock { slots.indices.reduce(0) { sum, index in sum + (slots[index].map(measure) ?? 0) } }
    }

    /// Every slot in index order (`nil`: never stored).
    public func values() -> [Value?] {
        lock.withLock { slots }
    }
}
