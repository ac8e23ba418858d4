import CZlibDeflate

/// The one wrapper around zlib: raw deflate streams (no zlib or gzip header), which the
/// browser's `DecompressionStream("deflate-raw")` reads. No zlib pointer leaves this file.
///
/// The search index compresses about 110 MB of document JSON at 1M messages, on every core at
/// the end of the build: zlib's fastest level costs half the time of its default for about a
/// sixth more bytes, and the index stays well under its size budget (1.5× the message text).
enum RawDeflate {
    /// The compression level: zlib's fastest (1, `Z_BEST_SPEED`).
    static let level: Int32 = 1

    /// `bytes` compressed as one raw deflate stream.
    static func compress(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        // Window bits -15: a raw stream with zlib's largest window; memory level 8 (zlib's default).
        let started = deflateInit2_(
            &stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        // zlib fails only without memory or with a bad version; neither is recoverable here.
        precondition(started == Z_OK, "zlib: deflateInit2 failed (\(started))")
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))))
        let result = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                // One call: the output buffer holds deflateBound's worst case.
                return deflate(&stream, Z_FINISH)
            }
        }
        precondition(result == Z_STREAM_END, "zlib: deflate did not finish (\(result))")
        output.removeLast(output.count - Int(stream.total_out))
        return output
    }

    /// The bytes of a raw deflate stream, or `nil` when `bytes` is not one (or is cut short).
    static func decompress(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return nil
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        return bytes.withUnsafeBufferPointer { input -> [UInt8]? in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = UInt32(input.count)
            while true {
                let (result, produced) = buffer.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    let result = inflate(&stream, Z_NO_FLUSH)
                    return (result, out.count - Int(stream.avail_out))
                }
                output += buffer[0..<produced]
                switch result {
                case Z_STREAM_END: return stream.avail_in == 0 ? output : nil
                case Z_OK: continue
                default: return nil  // corrupt data, or input ended before the stream did
                }
            }
        }
    }
}
