import CLibDeflate

/// The one wrapper around libdeflate: raw deflate streams (no zlib or gzip header), which the
/// browser's `DecompressionStream("deflate-raw")` reads. No libdeflate pointer leaves this file.
///
/// The search index compresses about 90 MB of document rows at 1M messages, on every core at
/// the end of the build. libdeflate compresses a whole buffer in one call, without zlib's
/// streaming state, and its fastest level is about twice as fast as zlib's for slightly smaller
/// output (the measurements are in scripts/bench/RESULTS.md).
enum RawDeflate {
    /// The compression level: libdeflate's fastest. The index stays well under its size budget
    /// (1.5× the message text).
    static let level: Int32 = 1
    /// The largest stream `decompress` inflates: far above any chunk the index writes.
    static let maximumInflatedBytes = 1 << 30

    /// `bytes` compressed as one raw deflate stream.
    static func compress(_ bytes: [UInt8]) -> [UInt8] {
        // libdeflate fails only without memory; that is not recoverable here.
        guard let compressor = libdeflate_alloc_compressor(level) else {
            preconditionFailure("libdeflate: no memory for a compressor")
        }
        defer { libdeflate_free_compressor(compressor) }
        var output = [UInt8](repeating: 0, count: libdeflate_deflate_compress_bound(compressor, bytes.count))
        let written = bytes.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                libdeflate_deflate_compress(compressor, input.baseAddress, input.count, out.baseAddress, out.count)
            }
        }
        // The output buffer holds the compressor's own worst case.
        precondition(written > 0 || bytes.isEmpty, "libdeflate: the output did not fit its bound")
        output.removeLast(output.count - written)
        return output
    }

    /// The bytes of a raw deflate stream, or `nil` when `bytes` is not exactly one (cut short,
    /// or followed by other bytes).
    static func decompress(_ bytes: [UInt8]) -> [UInt8]? {
        guard let decompressor = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(decompressor) }
        // A whole-buffer decompressor needs room for all of it: try larger outputs until it fits.
        var capacity = max(4096, bytes.count * 4)
        while capacity <= maximumInflatedBytes {
            var output = [UInt8](repeating: 0, count: capacity)
            var read = 0
            var written = 0
            let result = bytes.withUnsafeBytes { input in
                output.withUnsafeMutableBytes { out in
                    libdeflate_deflate_decompress_ex(
                        decompressor, input.baseAddress, input.count, out.baseAddress, out.count, &read, &written)
                }
            }
            switch result {
            case LIBDEFLATE_SUCCESS:
                guard read == bytes.count else { return nil }
                output.removeLast(output.count - written)
                return output
            case LIBDEFLATE_INSUFFICIENT_SPACE:
                capacity *= 2
            default:
                return nil  // corrupt data, or input ended before the stream did
            }
        }
        return nil
    }
}
