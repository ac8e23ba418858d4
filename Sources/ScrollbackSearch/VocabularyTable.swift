import Foundation
import ScrollbackModel

/// A part's vocabulary (`SearchPart.vocabulary`) numbered by each token's UTF-8 bytes.
///
/// `SearchPart.add` looks up every token of every message here, straight from the bytes the
/// tokenizer wrote (`SearchTokenizer.forEachTokenUTF8`), with no `String` made for a token seen
/// before and no seeded hashing. Most tokens are short words: a token of fewer than eight bytes
/// is its own key (`shortKey`), found with one multiplication and one comparison; a longer one
/// costs an FNV-1a pass and a byte comparison.
struct VocabularyTable {
    /// Open addressing over the short tokens' keys, a power of two of slots: a key, or 0 for an
    /// empty slot, and beside it the token's number.
    private var shortKeys: [UInt64]
    private var shortNumbers: [Int32]
    private var shortCount = 0
    /// Open addressing over the other tokens, a power of two of slots: a token number, or -1
    /// for an empty slot.
    private var slots: [Int32]
    /// Every token's bytes, one after the other; token `n` ends at `ends[n]`.
    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    /// Every token's key (a short one) or hash (another), for growing the tables without
    /// hashing again.
    private var hashes: [UInt64] = []

    /// A table of `vocabulary`, numbered in its order (a repeated token keeps its first number).
    init(_ vocabulary: [String]) {
        shortKeys = [UInt64](repeating: 0, count: 1024)
        shortNumbers = [Int32](repeating: -1, count: 1024)
        slots = [Int32](repeating: -1, count: 1024)
        for token in vocabulary {
            var token = token
            _ = token.withUTF8 { number(of: $0) }
        }
    }

    /// How many tokens the table numbers.
    var count: Int { ends.count }

    /// A token of 1 to 7 bytes as one word: its bytes, and its length in the top byte (so no two
    /// tokens share a key, and no key is 0); `nil` for another token.
    @inline(__always)
    static func shortKey(_ token: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard token.count > 0, token.count < 8 else { return nil }
        var key = UInt64(token.count) << 56
        for offset in 0..<token.count { key |= UInt64(token[offset]) << (8 * offset) }
        return key
    }

    @inline(__always)
    private static func slot(ofKey key: UInt64, mask: Int) -> Int {
        // Fibonacci hashing: the product's high bits, folded down, spread keys that differ in
        // any byte.
        let product = key &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: product ^ (product >> 32)) & mask
    }

    /// The number of the token with these bytes; a new token gets the next number and
    /// `isNew` is true.
    mutating func number(of token: UnsafeBufferPointer<UInt8>) -> (number: Int, isNew: Bool) {
        if let key = Self.shortKey(token) {
            let mask = shortKeys.count - 1
            var slot = Self.slot(ofKey: key, mask: mask)
            while true {
                let found = shortKeys[slot]
                if found == key { return (Int(shortNumbers[slot]), false) }
                if found == 0 { break }
                slot = (slot + 1) & mask
            }
            let number = append(token, hash: key)
            shortKeys[slot] = key
            shortNumbers[slot] = Int32(number)
            shortCount += 1
            if shortCount * 2 > shortKeys.count { grow() }
            return (number, true)
        }
        let hash = StableHash.fnv1a64(token)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let found = Int(slots[slot])
            if found < 0 { break }
            if hashes[found] == hash, equals(found, token) { return (found, false) }
            slot = (slot + 1) & mask
        }
        let number = append(token, hash: hash)
        slots[slot] = Int32(number)
        if (count - shortCount) * 2 > slots.count { grow() }
        return (number, true)
    }

    /// Records a new token; returns its number.
    private mutating func append(_ token: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int {
        bytes.append(contentsOf: token)
        ends.append(bytes.count)
        hashes.append(hash)
        return ends.count - 1
    }

    private func equals(_ number: Int, _ token: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = number == 0 ? 0 : ends[number - 1]
        guard ends[number] - start == token.count else { return false }
        return bytes.withUnsafeBufferPointer { stored in
            // Tokens are short (a word is at most `SearchTokenizer.maxTokenLength` scalars): a
            // loop costs less than a call to `memcmp`.
            for offset in 0..<token.count where stored[start + offset] != token[offset] { return false }
            return true
        }
    }

    /// Doubles whichever table is half full, placing its tokens again.
    private mutating func grow() {
        let growsShort = shortCount * 2 > shortKeys.count
        if growsShort {
            shortKeys = [UInt64](repeating: 0, count: shortKeys.count * 2)
            shortNumbers = [Int32](repeating: -1, count: shortKeys.count)
        } else {
            slots = [Int32](repeating: -1, count: slots.count * 2)
        }
        for (number, hash) in hashes.enumerated() {
            let length = ends[number] - (number == 0 ? 0 : ends[number - 1])
            let isShort = length > 0 && length < 8
            guard isShort == growsShort else { continue }
            if isShort {
                let mask = shortKeys.count - 1
                var slot = Self.slot(ofKey: hash, mask: mask)
                while shortKeys[slot] != 0 { slot = (slot + 1) & mask }
                shortKeys[slot] = hash
                shortNumbers[slot] = Int32(number)
            } else {
                let mask = slots.count - 1
                var slot = Int(truncatingIfNeeded: hash) & mask
                while slots[slot] >= 0 { slot = (slot + 1) & mask }
                slots[slot] = Int32(number)
            }
        }
    }
}
