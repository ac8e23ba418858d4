import Foundation
import ScrollbackTestSupport
import Testing

@testable import ScrollbackHTML

/// The Big List of Naughty Strings, read from `../shared/samples` (never copied into the repo).
@Suite("Big List of Naughty Strings")
struct BLNSTests {
    static func naughtyStrings() throws -> [String] {
        let file = try SharedSamples.folder().appendingPathComponent("security/blns/blns.json")
        let data = try Data(contentsOf: file)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String])
    }

    @Test("Every naughty string sanitizes to safe HTML")
    func everyStringIsSafe() throws {
        let strings = try Self.naughtyStrings()
        #expect(strings.count > 500)
        for string in strings {
            let result = HTMLSanitizer().sanitize(string)
            let problems = SanitizerSafety.problems(in: result.html)
            #expect(problems == [], "input: \(string.debugDescription) output: \(result.html.debugDescription)")
        }
    }

    @Test("Naughty strings without markup keep all their text")
    func textIsKept() throws {
        let strings = try Self.naughtyStrings().filter { !$0.contains("<") && !$0.contains("&") }
        #expect(strings.count > 250)
        for string in strings {
            let result = HTMLSanitizer().sanitize(string)
            // libxml2 drops the characters XML forbids (C0 controls other than whitespace,
            // U+FFFE, U+FFFF); HTML forbids them too, and nothing visible is lost.
            let visible = String(
                String.UnicodeScalarView(
                    string.unicodeScalars.filter { scalar in
                        !((scalar.value < 0x20 && !scalar.properties.isWhitespace) || scalar.value == 0xFFFE
                            || scalar.value == 0xFFFF)
                    }))
            #expect(result.plainText == collapsingWhitespace(visible), "input: \(string.debugDescription)")
        }
    }
}
