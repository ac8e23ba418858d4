import Foundation
import Testing

@testable import ScrollbackReading

@Suite struct ISO8601DateParserTests {
    @Test(arguments: [
        ("2024-05-03T09:41:00Z", 1_714_729_260.0),
        ("2024-05-03T11:41:00+02:00", 1_714_729_260.0),
        ("2024-05-03T04:41:00-0500", 1_714_729_260.0),
        ("2024-05-03T11:41+02", 1_714_729_260.0),
        ("2024-05-03 09:41:00.250z", 1_714_729_260.25),
        ("1970-01-01T00:00:00Z", 0),
        ("2000-02-29T12:00:00Z", 951_825_600),
        ("1969-12-31T23:59:59Z", -1),
    ])
    func parsesAndAgreesWithFoundation(text: String, expected: Double) throws {
        let date = try #require(ISO8601DateParser.parse(text))
        #expect(abs(date.timeIntervalSince1970 - expected) < 0.0001)
    }

    @Test func agreesWithISO8601DateFormatterOnManyDates() throws {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        var seconds = -2_000_000_000.0
        while seconds < 4_000_000_000 {
            let date = Date(timeIntervalSince1970: seconds)
            let text = formatter.string(from: date)
            #expect(ISO8601DateParser.parse(text) == date, "\(text)")
            seconds += 7_777_777
        }
    }

    @Test(arguments: [
        "2024-05-03", "2024-05-03T09:41:00", "2024-13-03T09:41:00Z", "2023-02-29T09:41:00Z",
        "2024-05-03T24:00:00Z", "2024-05-03T09:60:00Z", "2024-05-03T09:41:00.Z", "2024-05-03T09:41:00Zjunk",
        "24-05-03T09:41:00Z", "2024-05-03T09:41:00+2:00", "", "yesterday",
    ])
    func rejects(text: String) {
        #expect(ISO8601DateParser.parse(text) == nil)
    }
}
