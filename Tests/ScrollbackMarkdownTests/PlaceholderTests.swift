import Testing
@testable import ScrollbackMarkdown

@Test func moduleLoads() {
    // Replaced by this stage's real tests.
    #expect(Bool(true))
}
