import Testing

@testable import ScrollbackHTML

/// Reproductions of issue 11 (hostile input) in the sanitizer: each failed before its fix.
@Suite("Hostile input: sanitizer")
struct SanitizerHostileInputTests {
    /// Finding 7: libxml2 2.9's HTML parser checks each attribute against every earlier one of
    /// its tag, so 40,000 attributes on one `<a>` took seconds and 200,000 over a minute. Only
    /// the first attributes of a tag reach it; what the sanitizer writes is bounded by its
    /// allow-list anyway.
    @Test("a tag's attributes past the limit are not parsed: an href after 5,000 junk attributes is dropped")
    func attributesPastTheLimitAreIgnored() {
        let junk = (0..<5_000).map { "a\($0)=\"x>y\"" }.joined(separator: " ")
        let late = HTMLSanitizer().sanitize("<a \(junk) href=\"https://example.com/\">late</a> after")
        #expect(!late.html.contains("href"))
        #expect(late.plainText == "late after")
        let early = HTMLSanitizer().sanitize("<a href=\"https://example.com/\" \(junk)>early</a>")
        #expect(early.html.contains("href=\"https://example.com/\""))
    }
}
