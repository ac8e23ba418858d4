import Foundation

/// How text becomes search tokens: the one definition of folding and word boundaries.
///
/// The browser's query tokenizer (`Templates/assets/search.js`) has no rule of its own: it
/// reads `SearchTokenizer.manifestRules` from the index manifest (Unicode property names, the
/// CJK ranges, the fold table, the longest token) and applies them with
/// `String.prototype.normalize('NFD')` and Unicode property regular expressions. Each rule is
/// written here once, next to the Swift predicate that applies it while indexing.
///
/// A token is made as follows: canonical decomposition (NFD), nonspacing marks dropped
/// (`dũng` → `dung`, `café` → `cafe`, `ü` → `u`), lowercased, then `foldTable` (`ß` → `ss`,
/// `đ` → `d`, …). Letters and numbers (`\p{L}`, `\p{N}`) form words; a run of CJK
/// characters gives every character and every pair of neighbours (unigrams and bigrams); an
/// emoji (`\p{Emoji}` outside ASCII, modifiers skipped) is a token of its own; anything else
/// separates tokens.
public struct SearchTokenizer {
    /// Longest token, in Unicode scalars; longer words are cut (the query is cut alike).
    public static let maxTokenLength = 40

    /// Letters that neither decomposition nor lowercasing reduce to a base letter.
    public static let foldTable: [(String, String)] = [
        ("ß", "ss"), ("ẞ", "ss"), ("đ", "d"), ("ð", "d"), ("ø", "o"), ("æ", "ae"), ("œ", "oe"), ("ł", "l"),
        ("ı", "i"), ("þ", "th"), ("ħ", "h"), ("ŧ", "t"), ("ŀ", "l"), ("ĸ", "k"), ("ŋ", "n"), ("ſ", "s"),
        // JavaScript lowercases a final capital sigma to ς; the index folds both to σ.
        ("ς", "σ"),
    ]

    /// Scalar ranges whose runs are cut into unigrams and bigrams (Han, kana, Hangul, …).
    public static let cjkRanges: [ClosedRange<UInt32>] = [
        0x1100...0x11FF, 0x2E80...0x2FDF, 0x3040...0x30FF, 0x3100...0x312F, 0x3130...0x318F, 0x31A0...0x31FF,
        0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA960...0xA97F, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFF66...0xFF9F,
        0x20000...0x2FA1F,
    ]

    /// The rules as the manifest carries them to the browser (see the type's documentation).
    public static var manifestRules: [String: Any] {
        [
            "normalize": "NFD", "drop": "\\p{Mn}", "word": "\\p{L}\\p{N}", "emoji": "\\p{Emoji}",
            "emojiSkip": "\\p{Emoji_Modifier}", "emojiMinCodePoint": 0x80,
            "cjk": cjkRanges.map { [Int($0.lowerBound), Int($0.upperBound)] },
            "fold": foldTable.map { [$0.0, $0.1] }, "maxTokenLength": maxTokenLength,
        ]
    }

    private static let foldMap: [UInt32: String] = {
        var map: [UInt32: String] = [:]
        for (from, to) in foldTable { map[from.unicodeScalars.first!.value] = to }
        return map
    }()

    /// Folded forms of non-ASCII scalars seen so far, each part with its class (decomposition
    /// and property lookups are the slow part; a chat uses few distinct non-ASCII scalars).
    private var folded: [UInt32: [(scalar: Unicode.Scalar, kind: ScalarClass)]] = [:]

    /// A tokenizer; keep one per thread and reuse it (it caches folded scalars).
    public init() {}

    /// What a folded scalar is to the tokenizer.
    enum ScalarClass { case word, cjk, emoji, separator }

    /// `\p{L}\p{N}`, the CJK ranges and `\p{Emoji}` outside ASCII (modifiers are separators).
    static func classify(_ scalar: Unicode.Scalar) -> ScalarClass {
        let value = scalar.value
        if value < 0x80 {
            return asciiWordByte(UInt8(value)) != nil ? .word : .separator
        }
        if cjkRanges.contains(where: { $0.contains(value) }) { return .cjk }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber:
            return .word
        default:
            if properties.isEmoji && !properties.isEmojiModifier { return .emoji }
            return .separator
        }
    }

    /// An ASCII letter or digit as a token holds it (lowercased); `nil` for any other byte.
    @inline(__always)
    static func asciiWordByte(_ byte: UInt8) -> UInt8? {
        if byte &- 0x30 < 10 { return byte }
        // Setting bit 5 lowercases a capital letter and keeps a small one.
        return (byte | 0x20) &- 0x61 < 26 ? byte | 0x20 : nil
    }

    /// The folded scalars of one input scalar: NFD, nonspacing marks dropped, lowercased, table.
    static func fold(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        var result: [Unicode.Scalar] = []
        for part in String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars
        where part.properties.generalCategory != .nonspacingMark {
            for lower in part.properties.lowercaseMapping.unicodeScalars {
                if let mapped = Self.foldMap[lower.value] {
                    result += mapped.unicodeScalars
                } else {
                    result.append(lower)
                }
            }
        }
        return result
    }

    /// What a non-ASCII scalar gives the tokenizer: its folded scalars, each with its class. An
    /// emoji is not decomposed (keycaps and flags stay whole scalars): it is its only part.
    private mutating func foldedParts(_ scalar: Unicode.Scalar) -> [(scalar: Unicode.Scalar, kind: ScalarClass)] {
        if let known = folded[scalar.value] { return known }
        let result: [(scalar: Unicode.Scalar, kind: ScalarClass)] =
            Self.classify(scalar) == .emoji
            ? [(scalar, .emoji)] : Self.fold(scalar).map { ($0, Self.classify($0)) }
        folded[scalar.value] = result
        return result
    }

    /// The folded text itself (what the browser highlights against), for tests and callers.
    public mutating func foldedText(_ text: String) -> String {
        var view = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.value < 0x80 {
                view.append(Unicode.Scalar(UInt8(scalar.value)).properties.lowercaseMapping.unicodeScalars.first!)
            } else {
                view.append(contentsOf: Self.fold(scalar))
            }
        }
        return String(view)
    }

    /// The tokens of `text`, in order of appearance, repeats included.
    public mutating func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        forEachToken(text) { tokens.append($0) }
        return tokens
    }

    /// Hands each token of `text` to `body`, in order (repeats included).
    public mutating func forEachToken(_ text: String, _ body: (String) -> Void) {
        forEachTokenUTF8(text) { body(String(decoding: $0, as: UTF8.self)) }
    }

    /// Hands the UTF-8 bytes of each token of `text` to `body`, in order (repeats included); the
    /// bytes are valid only during the call. For callers that look tokens up by their bytes
    /// (`VocabularyTable`) and need no `String` for a token seen before.
    ///
    /// Works on the UTF-8 bytes: ASCII (most chat text) is classified and lowercased in place,
    /// other scalars go through `foldedParts` (cached).
    public mutating func forEachTokenUTF8(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var text = text
        text.withUTF8 { bytes in forEachToken(utf8: bytes, body) }
    }

    /// `forEachTokenUTF8(_:_:)` over UTF-8 bytes (valid UTF-8, as a Swift string's).
    mutating func forEachToken(utf8 bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        // A word of up to `maxTokenLength` scalars, then room for a CJK pair or an emoji.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maxTokenLength * 4 + 8) { buffer in
            var tokens = TokenBuffer(
                word: UnsafeMutableBufferPointer(rebasing: buffer[0..<(Self.maxTokenLength * 4)]),
                single: UnsafeMutableBufferPointer(rebasing: buffer[(Self.maxTokenLength * 4)...]))
            let count = bytes.count
            var index = 0
            while index < count {
                let byte = bytes[index]
                if byte < 0x80 {
                    if Self.asciiWordByte(byte) != nil {
                        index = tokens.appendASCIIWord(bytes, from: index)
                    } else {
                        index += 1
                        tokens.endWord(body)
                        tokens.previousCJK = nil
                    }
                    continue
                }
                // A multi-byte scalar (the bytes are valid UTF-8).
                var value: UInt32
                var length: Int
                if byte < 0xE0 {
                    value = UInt32(byte & 0x1F)
                    length = 2
                } else if byte < 0xF0 {
                    value = UInt32(byte & 0x0F)
                    length = 3
                } else {
                    value = UInt32(byte & 0x07)
                    length = 4
                }
                for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
                index += length
                for part in foldedParts(Unicode.Scalar(value)!) { tokens.add(part.scalar, part.kind, body) }
            }
            tokens.endWord(body)
        }
    }

    /// The token being put together and the bytes of a CJK or emoji token, in a caller's buffers:
    /// a value the tokenizer's loop changes in place (local functions capturing the same
    /// variables made every access to them a checked one).
    private struct TokenBuffer {
        let word: UnsafeMutableBufferPointer<UInt8>
        let single: UnsafeMutableBufferPointer<UInt8>
        var wordBytes = 0
        var wordLength = 0
        var previousCJK: Unicode.Scalar?

        init(word: UnsafeMutableBufferPointer<UInt8>, single: UnsafeMutableBufferPointer<UInt8>) {
            self.word = word
            self.single = single
        }

        /// Adds the ASCII letters and digits of `bytes` from `start` on (lowercased) to the word;
        /// returns the index of the first byte that is not one. Its own loop over locals: most
        /// chat text is ASCII words, and the buffer's fields would be written back every byte.
        @inline(__always)
        mutating func appendASCIIWord(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
            previousCJK = nil
            var (index, wordBytes, wordLength) = (start, self.wordBytes, self.wordLength)
            while index < bytes.count, let folded = SearchTokenizer.asciiWordByte(bytes[index]) {
                if wordLength < SearchTokenizer.maxTokenLength {
                    word[wordBytes] = folded
                    wordBytes += 1
                    wordLength += 1
                }
                index += 1
            }
            (self.wordBytes, self.wordLength) = (wordBytes, wordLength)
            return index
        }

        /// Hands the word to `body`, if there is one, and starts the next.
        @inline(__always)
        mutating func endWord(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
            if wordLength > 0 {
                body(UnsafeBufferPointer(rebasing: word[0..<wordBytes]))
                wordBytes = 0
                wordLength = 0
            }
        }

        /// A CJK character, a CJK pair or an emoji as a token of its own.
        private func emit(
            _ first: Unicode.Scalar, _ second: Unicode.Scalar? = nil, _ body: (UnsafeBufferPointer<UInt8>) -> Void
        ) {
            var count = 0
            for unit in UTF8.encode(first)! {
                single[count] = unit
                count += 1
            }
            if let second {
                for unit in UTF8.encode(second)! {
                    single[count] = unit
                    count += 1
                }
            }
            body(UnsafeBufferPointer(rebasing: single[0..<count]))
        }

        /// Adds a folded scalar of class `kind`.
        mutating func add(_ scalar: Unicode.Scalar, _ kind: ScalarClass, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
            switch kind {
            case .word:
                previousCJK = nil
                if wordLength < SearchTokenizer.maxTokenLength {
                    for unit in UTF8.encode(scalar)! {
                        word[wordBytes] = unit
                        wordBytes += 1
                    }
                    wordLength += 1
                }
            case .cjk:
                endWord(body)
                emit(scalar, nil, body)
                if let previous = previousCJK { emit(previous, scalar, body) }
                previousCJK = scalar
            case .emoji:
                endWord(body)
                previousCJK = nil
                emit(scalar, nil, body)
            case .separator:
                endWord(body)
                previousCJK = nil
            }
        }
    }
}
