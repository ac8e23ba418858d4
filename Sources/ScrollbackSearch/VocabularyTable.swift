import Foundation
import ScrollbackModel

/// A part's vocabulary (`SearchPart.vocabulary`) numbered by each token's UTF-8 bytes.
///
/// `SearchPart.add` looks up every token of every message here, straight from the bytes the
/// tokenizer wrote (`SearchTokenizer.forEachTokenUTF8`): a token seen before costs one FNV-1a
/// pass and one byte comparison, with no `String` made for it and no seeded hashing.
struct VocabularyTable {
    /// Open addressing, a power of two of slots: a token number, or -1 for an empty slot.
    private var slots: [Int32]
    /// Every token's bytes, one after the other; token `n` ends at `ends[n]`.
    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    /// Every token's hash, for growing the table without hashing again.
    private var hashes: [UInt64] = []

    /// A table of `vocabulary`, numbered in its order (a repeated token keeps its first number).
    init(_ vocabulary: [String]) {
        slots = [Int32](repeating: -1, count: 1024)
        for token in vocabulary {
            var token = token
            _ = token.withUTF8 { number(of: $0) }
        }
    }

    /// How many tokens the table numbers.
    var count: Int { ends.count }

    /// The number of the token with these bytes; a new token gets the next number and
    /// `isNew` is true.
    mutating func number(of token: UnsafeBufferPointer<UInt8>) -> (number: Int, isNew: Bool) {
        let hash = StableHash.fnv1a64(token)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let found = Int(slots[slot])
            if found < 0 { break }
            if hashes[found] == hash, equals(found, token) { return (found, false) }
            slot = (slot + 1) & mask
        }
        let number = ends.count
        bytes.append(contentsOf: token)
        ends.append(bytes.count)
        hashes.append(hash)
        slots[slot] = Int32(number)
        if ends.count * 2 > slots.count { grow() }
        return (number, true)
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

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (number, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(number)
        }
    }
}
