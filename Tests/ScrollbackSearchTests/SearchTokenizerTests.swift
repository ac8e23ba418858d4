import XCTest

@testable import ScrollbackSearch

final class SearchTokenizerTests: XCTestCase {
    func testFoldsCaseAndDiacritics() {
        var tokenizer = SearchTokenizer()
        XCTAssertEqual(tokenizer.tokens("Chào Dũng!"), ["chao", "dung"])
        XCTAssertEqual(tokenizer.tokens("Un CAFÉ crème"), ["un", "cafe", "creme"])
        XCTAssertEqual(tokenizer.tokens("Grüße aus Köln, Đà Nẵng"), ["grusse", "aus", "koln", "da", "nang"])
    }
}
