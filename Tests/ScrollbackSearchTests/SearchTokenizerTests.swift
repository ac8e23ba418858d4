import Testing

@testable import ScrollbackSearch

struct SearchTokenizerTests {
    @Test func foldsCaseAndDiacritics() {
        var tokenizer = SearchTokenizer()
        #expect(tokenizer.tokens("Chào Dũng!") == ["chao", "dung"])
        #expect(tokenizer.tokens("Un CAFÉ crème") == ["un", "cafe", "creme"])
        #expect(tokenizer.tokens("Grüße aus Köln, Đà Nẵng") == ["grusse", "aus", "koln", "da", "nang"])
        #expect(tokenizer.tokens("STRASSE Straße ÆON Łódź") == ["strasse", "strasse", "aeon", "lodz"])
        // Composed and decomposed input give the same token.
        #expect(tokenizer.tokens("cafe\u{301}") == tokenizer.tokens("caf\u{E9}"))
    }

    @Test func cjkGivesUnigramsAndBigrams() {
        var tokenizer = SearchTokenizer()
        #expect(tokenizer.tokens("東京タワー") == ["東", "京", "東京", "タ", "京タ", "ワ", "タワ", "ー", "ワー"])
        #expect(tokenizer.tokens("in 東京 now") == ["in", "東", "京", "東京", "now"])
    }

    @Test func emojiAreTokensAndModifiersAreNot() {
        var tokenizer = SearchTokenizer()
        #expect(tokenizer.tokens("Pizza🍕tonight 👍🏽 ❤️") == ["pizza", "🍕", "tonight", "👍", "❤"])
        #expect(tokenizer.tokens("# 1 * ok") == ["1", "ok"])
    }

    @Test func separatorsAndLongWords() {
        var tokenizer = SearchTokenizer()
        #expect(
            tokenizer.tokens("https://example.com/a-b_c it's") == ["https", "example", "com", "a", "b", "c", "it", "s"])
        let long = String(repeating: "x", count: 100)
        #expect(tokenizer.tokens(long) == [String(repeating: "x", count: SearchTokenizer.maxTokenLength)])
    }

    @Test func theFastPathsGiveTheTokensOfTheRulesAppliedScalarByScalar() {
        // Pieces that meet at every kind of boundary: ASCII words next to accented letters (one
        // word), CJK runs, emoji with modifiers, separators, and words around the length limit.
        let pieces = [
            "a", "Z", "9", "hello", "WORLD", "é", "É", "e\u{301}", "ß", "Đà", "İ", "東", "京", "タ", "🍕", "👍🏽", "❤️",
            " ", ".", "-", "_", "'", "#", String(repeating: "x", count: SearchTokenizer.maxTokenLength - 1),
            String(repeating: "Y", count: SearchTokenizer.maxTokenLength + 3),
        ]
        var generator = SystemRandomNumberGenerator()
        var tokenizer = SearchTokenizer()
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 1...12, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            #expect(tokenizer.tokens(text) == referenceTokens(text), "\(text.debugDescription)")
        }
    }

    /// The type's documented rules applied one scalar at a time, with none of its fast paths.
    private func referenceTokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var word = String.UnicodeScalarView()
        var previousCJK: Unicode.Scalar?
        func endWord() {
            if !word.isEmpty { tokens.append(String(word)) }
            word = String.UnicodeScalarView()
        }
        for scalar in text.unicodeScalars {
            let parts =
                SearchTokenizer.classify(scalar) == .emoji
                ? [(scalar, .emoji)] : SearchTokenizer.fold(scalar).map { ($0, SearchTokenizer.classify($0)) }
            for (part, kind) in parts {
                switch kind {
                case .word:
                    if word.count < SearchTokenizer.maxTokenLength { word.append(part) }
                    previousCJK = nil
                case .cjk:
                    endWord()
                    tokens.append(String(part))
                    if let previous = previousCJK { tokens.append(String(previous) + String(part)) }
                    previousCJK = part
                case .emoji:
                    endWord()
                    tokens.append(String(part))
                    previousCJK = nil
                case .separator:
                    endWord()
                    previousCJK = nil
                }
            }
        }
        endWord()
        return tokens
    }

    @Test func manifestRulesCarryTheTables() {
        let rules = SearchTokenizer.manifestRules
        #expect((rules["normalize"] as? String) == "NFD")
        #expect((rules["fold"] as? [[String]])?.count == SearchTokenizer.foldTable.count)
        #expect((rules["cjk"] as? [[Int]])?.count == SearchTokenizer.cjkRanges.count)
        #expect((rules["maxTokenLength"] as? Int) == SearchTokenizer.maxTokenLength)
    }
}
