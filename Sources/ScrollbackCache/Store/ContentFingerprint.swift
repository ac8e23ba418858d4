import Foundation
import ScrollbackReading

/// A fast 128-bit fingerprint of bytes, for telling whether an input changed between builds.
///
/// Not a cryptographic hash: nobody gains anything by forging a collision here (the worst
/// case is a stale page in one's own site), and it runs at memory speed, so a clean build of a
/// large archive pays almost nothing for it. Media files are named by the reader's SHA-256;
/// this is only the build cache's change detector.
package enum ContentFingerprint {
    /// The fingerprint of `bytes` as 32 lowercase hex digits.
    package static func hex(of bytes: UnsafeRawBufferPointer) -> String {
        hexes(ofPrefixes: [bytes.count], of: bytes)[0]
    }

    /// The fingerprints of the first `lengths[i]` bytes of `bytes` (ascending, none past the
    /// end), in one pass: an append checks the old part of a log and fingerprints the new one
    /// and the whole file, and the log may be hundreds of megabytes.
    package static func hexes(ofPrefixes lengths: [Int], of bytes: UnsafeRawBufferPointer) -> [String] {
        var lanes = Lanes()
        return lengths.map { length in
            precondition(length <= bytes.count && length >= lanes.wordBytes, "prefixes ascend and stay in the bytes")
            let wordEnd = length / 8 * 8
            lanes.absorb(UnsafeRawBufferPointer(rebasing: bytes[lanes.wordBytes..<wordEnd]))
            return lanes.hex(tail: UnsafeRawBufferPointer(rebasing: bytes[wordEnd..<length]), length: length)
        }
    }

    /// The same for the log `file`, read a chunk at a time (never held whole); `nil` when it
    /// cannot be read that far.
    package static func hexes(ofPrefixes lengths: [Int], of file: LogFile) -> [String]? {
        var lanes = Lanes()
        var fingerprints: [String] = []
        for length in lengths {
            precondition(length >= lanes.wordBytes, "prefixes ascend")
            let wordEnd = length / 8 * 8
            // Chunks of a multiple of 8 bytes: each but the last ends on a word.
            guard file.forEachChunk(of: lanes.wordBytes..<wordEnd, { lanes.absorb($0) }),
                let tail = file.bytes(wordEnd..<length)
            else { return nil }
            fingerprints.append(tail.withUnsafeBytes { lanes.hex(tail: $0, length: length) })
        }
        return fingerprints
    }

    /// The running state of a fingerprint: two independent multiply-rotate lanes over 8-byte
    /// words; each lane is a dependency chain, so the CPU runs them side by side. The length is
    /// mixed in at the end, so one pass serves every prefix.
    private struct Lanes {
        private var laneA: UInt64 = 0x9E37_79B9_7F4A_7C15
        private var laneB: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        /// How many bytes the lanes have taken, as whole words.
        private(set) var wordBytes = 0

        /// Takes `words`, whose length is a multiple of 8.
        mutating func absorb(_ words: UnsafeRawBufferPointer) {
            precondition(words.count % 8 == 0, "whole words")
            var offset = 0
            while offset < words.count {
                let word = words.loadLittleEndian(at: offset, as: UInt64.self)
                laneA = rotate((laneA ^ word) &* 0xFF51_AFD7_ED55_8CCD, 31)
                laneB = rotate((laneB &+ word) &* 0xC4CE_B9FE_1A85_EC53, 29)
                offset &+= 8
            }
            wordBytes += words.count
        }

        /// The fingerprint of the `length` bytes whose whole words the lanes took and whose last
        /// `tail` bytes (fewer than 8) follow them.
        func hex(tail: UnsafeRawBufferPointer, length: Int) -> String {
            var last: UInt64 = 0
            for (offset, byte) in tail.enumerated() { last |= UInt64(byte) << UInt64(offset * 8) }
            let endA = rotate((laneA ^ last ^ UInt64(length)) &* 0xFF51_AFD7_ED55_8CCD, 31)
            let endB = rotate((laneB &+ last &+ UInt64(length)) &* 0xC4CE_B9FE_1A85_EC53, 29)
            let high = finalize(endA ^ rotate(endB, 17))
            let low = finalize(endB ^ rotate(endA, 41))
            return hex16(high) + hex16(low)
        }
    }

    /// The fingerprint of `data`.
    package static func hex(of data: Data) -> String {
        data.withUnsafeBytes { hex(of: $0) }
    }

    /// The fingerprint of a stretch of bytes (a whole file's, or part of it).
    package static func hex(of bytes: ArraySlice<UInt8>) -> String {
        bytes.withUnsafeBytes { hex(of: $0) }
    }

    /// The fingerprint of a string's UTF-8 bytes.
    package static func hex(of text: String) -> String {
        hex(of: Data(text.utf8))
    }

    /// The fingerprint of the file at `path`, or `nil` when it cannot be read.
    package static func hex(ofFileAt path: String) -> String? {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else {
            return nil
        }
        return hex(of: data)
    }

    private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }

    /// MurmurHash3's 64-bit finalizer: spreads every input bit over the whole word.
    private static func finalize(_ value: UInt64) -> UInt64 {
        var mixed = value
        mixed ^= mixed >> 33
        mixed = mixed &* 0xFF51_AFD7_ED55_8CCD
        mixed ^= mixed >> 33
        mixed = mixed &* 0xC4CE_B9FE_1A85_EC53
        mixed ^= mixed >> 33
        return mixed
    }

    private static func hex16(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
