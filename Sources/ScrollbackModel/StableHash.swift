/// FNV-1a: the stable hashes of the build (element ids, file names, message ids, index
/// boundaries). Swift's `Hasher` is seeded per process, so it can never decide anything written
/// to the site.
public enum StableHash {
    /// 32-bit FNV-1a over `bytes`.
    @inlinable
    public static func fnv1a32<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return hash
    }

    /// 64-bit FNV-1a over `bytes`.
    @inlinable
    public static func fnv1a64<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }
}
