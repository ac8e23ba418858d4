// Writing HTML straight into a page's bytes.
//
// Pages end up as bytes; building rows as `String`s first cost a conversion per page and, on
// every `+=`, String's capacity, ASCII-flag and breadcrumb bookkeeping (about a tenth of a
// build). Rows are appended as UTF-8 bytes to one `HTMLBuffer` per conversation, reused from
// page to page; `[UInt8]`'s own `append(contentsOf:)` is a generic call with uniqueness and
// capacity checks, which the millions of short appends of a big build notice.

import ScrollbackModel

/// Where escaped text and markup bytes go: an `HTMLBuffer`, or a `[UInt8]`.
protocol ByteSink {
    /// Appends one byte.
    mutating func append(_ byte: UInt8)
    /// Appends `bytes`.
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)
}

extension Array: ByteSink where Element == UInt8 {}

/// A growable byte buffer for a page's HTML: a plain pointer, a count and a capacity, so an
/// append is a bounds check and a copy.
final class HTMLBuffer: ByteSink {
    private var base: UnsafeMutablePointer<UInt8>
    /// Bytes written so far.
    private(set) var count = 0
    private var capacity: Int

    /// An empty buffer with room for `capacity` bytes before it first grows.
    init(capacity: Int = 4096) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    @inline(__always)
    func append(_ byte: UInt8) {
        if count == capacity { grow(toAtLeast: count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        let length = bytes.count
        guard length > 0 else { return }
        if length > capacity - count { grow(toAtLeast: count + length) }
        (base + count).initialize(from: bytes.baseAddress!, count: length)
        count += length
    }

    /// Appends `bytes`.
    func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    @inline(never)
    private func grow(toAtLeast minimum: Int) {
        var newCapacity = capacity * 2
        while newCapacity < minimum { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Empties the buffer, keeping its storage.
    func removeAll() { count = 0 }

    /// The bytes written, copied out.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Calls `body` with the bytes written, in place (valid only during the call).
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// The bytes written as text (they are UTF-8: the renderer wrote them).
    var string: String { String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self) }
}

/// An `HTMLBuffer` as the `inout` sink the generic writers take, without owning it: a `var`
/// holding the buffer's reference would retain and release it around every write. Make one
/// (`HTMLBuffer.sink`) only for the length of a call that has the buffer.
struct BufferSink: ByteSink {
    unowned(unsafe) let buffer: HTMLBuffer

    @inline(__always)
    mutating func append(_ byte: UInt8) { buffer.append(byte) }

    @inline(__always)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) { buffer.append(contentsOf: bytes) }
}

extension HTMLBuffer {
    /// This buffer as a sink for the generic writers (`esc`, `raw`, `+=`, `HTMLText.appendEscaped`).
    var sink: BufferSink { BufferSink(buffer: self) }
}

/// Appends the UTF-8 bytes of a literal (markup written by the renderer, never log text).
@inline(__always)
func += <Sink: ByteSink>(output: inout Sink, literal: StaticString) {
    literal.withUTF8Buffer { output.append(contentsOf: $0) }
}

/// Calls `body` with the UTF-8 bytes of `text`: in place when the string stores them contiguously
/// (a `var` copy for `withUTF8` would retain and release it on every call), else through a copy.
@inline(__always)
func withUTF8Bytes<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
    if let result = try text.utf8.withContiguousStorageIfAvailable(body) { return result }
    var text = text
    return try text.withUTF8(body)
}

/// Appends `html`, markup that is already safe (rendered rows, linkified or sanitized text), as it is.
@inline(__always)
func raw<Sink: ByteSink>(_ html: String, _ output: inout Sink) {
    withUTF8Bytes(of: html) { output.append(contentsOf: $0) }
}

/// Appends `text` escaped as Mustache's `{{ }}` does (`HTMLText.escape`).
@inline(__always)
func esc<Sink: ByteSink>(_ text: String, _ output: inout Sink) {
    HTMLText.appendEscaped(text, to: &output)
}

/// Appends `value` in decimal, as `String(value)` writes it.
func appendDecimal<Sink: ByteSink>(_ value: Int, _ output: inout Sink) {
    if value >= 0 && value < 10 {
        output.append(UInt8(ascii: "0") + UInt8(value))
        return
    }
    DecimalText.withDigits(of: value) { output.append(contentsOf: $0) }
}
