import Testing
@testable import ScrollbackHTML

@Test func moduleLoads() {
    // Replaced by this stage's real tests.
    #expect(Bool(true))
}
