import XCTest

@testable import ScrollbackSearch

final class SearchTokenizerTests: XCTestCase {
    func testFoldsCaseAndDiacritics() {
        var tokenizer = SearchTokenizer()
        XCTAssertEqual(tokenizer.tokens("Chào Dũng!"), ["chao", "dung"])
        XCTAssertEqual(tokenizer.tokens("Un CAFÉ crème"), ["un", "cafe", "creme"])
        XCTAssertEqual(tokenizer.tokens("Grüße aus Köln, Đà Nẵng"), ["grusse", "aus", "koln", "da", "nang"])
        XCTAssertEqual(tokenizer.tokens("STRASSE Straße ÆON Łódź"), ["strasse", "strasse", "aeon", "lodz"])
        // Composed and decomposed input give the same token.
        XCTAssertEqual(tokenizer.tokens("cafe\u{301}"), tokenizer.tokens("caf\u{E9}"))
    }

    func testCJKGivesUnigramsAndBigrams() {
        var tokenizer = SearchTokenizer()
        XCTAssertEqual(tokenizer.tokens("東京タワー"), ["東", "京", "東京", "タ", "京タ", "ワ", "タワ", "ー", "ワー"])
        XCTAssertEqual(tokenizer.tokens("in 東京 now"), ["in", "東", "京", "東京", "now"])
    }

    func testEmojiAreTokensAndModifiersAreNot() {
        var tokenizer = SearchTokenizer()
        XCTAssertEqual(tokenizer.tokens("Pizza🍕tonight 👍🏽 ❤️"), ["pizza", "🍕", "tonight", "👍", "❤"])
        XCTAssertEqual(tokenizer.tokens("# 1 * ok"), ["1", "ok"])
    }

    func testSeparatorsAndLongWords() {
        var tokenizer = SearchTokenizer()
        XCTAssertEqual(
            tokenizer.tokens("https://example.com/a-b_c it's"), ["https", "example", "com", "a", "b", "c", "it", "s"])
        let long = String(repeating: "x", count: 100)
        XCTAssertEqual(tokenizer.tokens(long), [String(repeating: "x", count: SearchTokenizer.maxTokenLength)])
    }

    func testManifestRulesCarryTheTables() {
        let rules = SearchTokenizer.manifestRules
        XCTAssertEqual(rules["normalize"] as? String, "NFD")
        XCTAssertEqual((rules["fold"] as? [[String]])?.count, SearchTokenizer.foldTable.count)
        XCTAssertEqual((rules["cjk"] as? [[Int]])?.count, SearchTokenizer.cjkRanges.count)
        XCTAssertEqual(rules["maxTokenLength"] as? Int, SearchTokenizer.maxTokenLength)
    }
}
