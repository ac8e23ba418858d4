/// Fixed-width integers stored least significant byte first, as the build's own binary files
/// (the build cache: the append checkpoints, the search part's page files) and the fingerprint's
/// words have them: written and read here alone.
extension Array where Element == UInt8 {
    /// Appends `value`'s bytes, least significant first.
    mutating func appendLittleEndian<Value: FixedWidthInteger>(_ value: Value) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}

extension UnsafeRawBufferPointer {
    /// The `Value` stored least significant byte first at `offset` (any alignment; the caller
    /// checks that its bytes are inside the buffer).
    @inline(__always)
    func loadLittleEndian<Value: FixedWidthInteger>(at offset: Int, as _: Value.Type) -> Value {
        Value(littleEndian: loadUnaligned(fromByteOffset: offset, as: Value.self))
    }
}

extension UnsafeMutableRawBufferPointer {
    /// Stores `value` least significant byte first at `offset` (any alignment; inside the buffer).
    @inline(__always)
    func storeLittleEndian<Value: FixedWidthInteger>(_ value: Value, at offset: Int) {
        storeBytes(of: value.littleEndian, toByteOffset: offset, as: Value.self)
    }
}
