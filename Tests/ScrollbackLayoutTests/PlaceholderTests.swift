import Testing
@testable import ScrollbackLayout

@Test func moduleLoads() {
    // Replaced by this stage's real tests.
    #expect(Bool(true))
}
