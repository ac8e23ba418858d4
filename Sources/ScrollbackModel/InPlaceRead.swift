extension Array {
    /// `body` applied to `self[index]` read where it lies: `self[index].field` can make the
    /// optimizer copy the whole element first, and for a `Message` (fifteen fields, most of them
    /// reference-counted) that copy retains and releases everything it holds, once per message
    /// per stage.
    @inlinable @inline(__always)
    public func readInPlace<Result>(_ index: Int, _ body: (borrowing Element) -> Result) -> Result {
        withUnsafeBufferPointer { body($0[index]) }
    }
}
