import Testing

@testable import ScrollbackSearch

struct VocabularyTableTests {
    private func number(_ token: String, in table: inout VocabularyTable) -> (number: Int, isNew: Bool) {
        var token = token
        return token.withUTF8 { table.number(of: $0) }
    }

    @Test func tokensAreNumberedInOrderOfFirstUseThroughGrowth() {
        var table = VocabularyTable([])
        // Past the first table size (1,024 slots, grown at half full) several times.
        let tokens = (0..<5_000).map { "w\($0)" } + ["", "é", "東京", "w"]
        for (expected, token) in tokens.enumerated() {
            let (found, isNew) = number(token, in: &table)
            #expect(found == expected, Comment(rawValue: token))
            #expect(isNew, Comment(rawValue: token))
        }
        for (expected, token) in tokens.enumerated().reversed() {
            let (found, isNew) = number(token, in: &table)
            #expect(found == expected, Comment(rawValue: token))
            #expect(!isNew, Comment(rawValue: token))
        }
        #expect(table.count == tokens.count)
        // A prefix or an extension of a known token is another token.
        #expect(number("w4999x", in: &table).number == tokens.count)
        #expect(number("w49", in: &table).number == 49)
    }

    @Test func shortAndLongTokensAroundTheKeyLengthAreTold() {
        var table = VocabularyTable([])
        // 1 to 12 bytes, across the short keys' seven: a token and the same bytes with a zero
        // byte after them, or cut one byte shorter, are different tokens.
        var tokens: [String] = []
        for length in 1...12 {
            let word = String(repeating: "a", count: length - 1) + "b"
            tokens += [word, word + "\u{0}", "\u{0}" + word, String(word.dropLast()) + "é"]
        }
        tokens += (0..<3_000).map { "\($0)" } + (0..<1_500).map { "long-token-\($0)" }
        tokens = Array(Set(tokens)).sorted()
        for (expected, token) in tokens.enumerated() {
            #expect(number(token, in: &table).number == expected, Comment(rawValue: token.debugDescription))
        }
        for (expected, token) in tokens.enumerated().shuffled() {
            #expect(number(token, in: &table).number == expected, Comment(rawValue: token.debugDescription))
        }
        #expect(table.count == tokens.count)
    }

    @Test func aTableMadeFromAVocabularyNumbersItInItsOrder() {
        var table = VocabularyTable(["hello", "world", "café"])
        #expect(table.count == 3)
        #expect(number("café", in: &table).number == 2)
        #expect(number("hello", in: &table).number == 0)
        #expect(number("new", in: &table).number == 3)
    }

    @Test func repeatedTokenIDsAreDroppedInOrderMessageAfterMessage() {
        var filter = SearchPart.RepeatFilter()
        var generator = SystemRandomNumberGenerator()
        // The numbers grow past the filter's table between messages, and repeat across them.
        for (message, count) in [0, 1, 2, 17, 64, 65, 300, 5, 40].enumerated() {
            let ids = (0..<count).map { _ in Int.random(in: 0..<(40 * (message + 1)), using: &generator) }
            var firstOfEach: [Int] = []
            for id in ids where !firstOfEach.contains(id) { firstOfEach.append(id) }
            var kept = ids
            filter.removeRepeats(&kept)
            #expect(kept == firstOfEach, "\(count) ids")
        }
    }

    @Test func linkFlagsFindTheirNeedlesAnywhere() {
        #expect(SearchPart.foundNeedles("see https://example.com", ["http://", "https://", "www."]) != 0)
        #expect(SearchPart.foundNeedles("www.", ["http://", "https://", "www."]) != 0)
        #expect(SearchPart.foundNeedles("hhttp://", ["http://"]) != 0)
        #expect(SearchPart.foundNeedles("http:/ www https:", ["http://", "https://", "www."]) == 0)
        #expect(SearchPart.foundNeedles("", ["http://"]) == 0)
        #expect(SearchPart.foundNeedles("htt", ["http://"]) == 0)
        // The search anchors on the needle's first byte that is no lowercase letter: the needle
        // must still fit around it at either end of the text.
        #expect(SearchPart.foundNeedles(":", ["http://"]) == 0)
        #expect(SearchPart.foundNeedles("://x", ["http://"]) == 0)
        #expect(SearchPart.foundNeedles("ww.", ["www."]) == 0)
        #expect(SearchPart.foundNeedles("http:/", ["http://"]) == 0)
        #expect(SearchPart.foundNeedles("a.www.", ["www."]) != 0)
        #expect(SearchPart.foundNeedles("http://", ["http://"]) != 0)
        #expect(SearchPart.foundNeedles("x<img", ["<img"]) != 0)
        #expect(SearchPart.foundNeedles("<a", ["<a "]) == 0)
        // Which needles: bit n for the n-th, whichever is found first in the text.
        #expect(SearchPart.foundNeedles("<a href=x><img src=y></a>", SearchPart.tagNeedles) == 3)
        #expect(SearchPart.foundNeedles("<p><img src=y></p>", SearchPart.tagNeedles) == 1)
        #expect(SearchPart.foundNeedles("<p><a href=x>y</a></p>", SearchPart.tagNeedles) == 2)
    }

    @Test func linkFlagsAgreeWithASubstringSearch() {
        let needles: [StaticString] = ["http://", "https://", "www.", "<a ", "<img"]
        let together: SearchPart.ByteNeedles = ["http://", "https://", "www.", "<a ", "<img"]
        // Texts of up to 70 bytes, of pieces that often make a needle or nearly one.
        let pieces = ["h", "t", "p", "s", ":", "/", "w", ".", "<", "a", " ", "i", "m", "g", "é", "http", "://", "ww"]
        var counts = [0, 0]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<4_000 {
            let text = (0..<Int.random(in: 0..<40, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            var any = false
            var expectedMask: UInt8 = 0
            for (number, needle) in needles.enumerated() {
                let expected =
                    text.utf8.count >= needle.utf8CodeUnitCount
                    && (0...(text.utf8.count - needle.utf8CodeUnitCount)).contains { start in
                        text.utf8.dropFirst(start).starts(with: "\(needle)".utf8)
                    }
                any = any || expected
                #expect(
                    SearchPart.foundNeedles(text, SearchPart.ByteNeedles(arrayLiteral: needle)) == (expected ? 1 : 0),
                    "\(needle) in '\(text)'")
                expectedMask |= expected ? 1 << number : 0
            }
            #expect(SearchPart.foundNeedles(text, together) == expectedMask, "needles in '\(text)'")
            if text.utf8.count >= 32 { counts[any ? 1 : 0] += 1 }
        }
        #expect(counts.min()! > 50, "long texts with a needle and without: \(counts)")
    }
}
