import Testing
@testable import ScrollbackReading

@Test func moduleLoads() {
    // Replaced by this stage's real tests.
    #expect(Bool(true))
}
