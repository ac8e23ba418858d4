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

    /// Folded forms of non-ASCII scalars seen so far (decomposition is the slow part).
    private var folded: [UInt32: [Unicode.Scalar]] = [:]

    /// A tokenizer; keep one per thread and reuse it (it caches folded scalars).
    public init() {}

    /// What a folded scalar is to the tokenizer.
    enum ScalarClass { case word, cjk, emoji, separator }

    /// `\p{L}\p{N}`, the CJK ranges and `\p{Emoji}` outside ASCII (modifiers are separators).
    static func classify(_ scalar: Unicode.Scalar) -> ScalarClass {
        let value = scalar.value
        if value < 0x80 {
            let byte = UInt8(value)
            return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
                ? .word : .separator
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

    /// The folded scalars of one input scalar: NFD, nonspacing marks dropped, lowercased, table.
    mutating func fold(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        if let known = folded[scalar.value] { return known }
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
                view.append(contentsOf: fold(scalar))
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
        var word = String.UnicodeScalarView()
        var wordLength = 0
        var previousCJK: Unicode.Scalar?
        func endWord() {
            if wordLength > 0 { body(String(word)) }
            word = String.UnicodeScalarView()
            wordLength = 0
        }
        func add(_ scalar: Unicode.Scalar) {
            switch Self.classify(scalar) {
            case .word:
                previousCJK = nil
                if wordLength < Self.maxTokenLength {
                    word.append(scalar)
                    wordLength += 1
                }
            case .cjk:
                endWord()
                var unigram = String.UnicodeScalarView()
                unigram.append(scalar)
                body(String(unigram))
                if let previous = previousCJK {
                    var bigram = String.UnicodeScalarView()
                    bigram.append(previous)
                    bigram.append(scalar)
                    body(String(bigram))
                }
                previousCJK = scalar
            case .emoji:
                endWord()
                previousCJK = nil
                var emoji = String.UnicodeScalarView()
                emoji.append(scalar)
                body(String(emoji))
            case .separator:
                endWord()
                previousCJK = nil
            }
        }
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                if value >= 0x41 && value <= 0x5A {
                    add(Unicode.Scalar(UInt8(value + 0x20)))
                } else {
                    add(scalar)
                }
            } else if Self.classify(scalar) == .emoji {
                add(scalar)  // emoji are not decomposed (keycaps and flags stay whole scalars)
            } else {
                for part in fold(scalar) { add(part) }
            }
        }
        endWord()
    }
}
