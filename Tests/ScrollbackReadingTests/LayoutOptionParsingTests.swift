import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading

@Suite struct LayoutOptionParsingTests {
    @Test(arguments: [
        (LayoutOptionValue.string("5m"), 300.0), (.string("90s"), 90), (.string("2h"), 7200), (.string("1h30m"), 5400),
        (.string("1.5 min"), 90), (.number("45"), 45), (.string("0"), 0),
    ])
    func durations(value: LayoutOptionValue, seconds: Double) {
        #expect(LayoutOptionParsing.parseDuration(value) == seconds)
    }

    @Test(arguments: [
        LayoutOptionValue.string("5" + "x"), .string("m"), .string("-5m"), .number("-1"), .bool(true), .string("5m3"),
    ])
    func badDurations(value: LayoutOptionValue) {
        #expect(LayoutOptionParsing.parseDuration(value) == nil)
    }

    @Test func everyOption() {
        var overrides = LayoutOverrides()
        let options: [(String, LayoutOptionValue)] = [
            ("groupGap", .string("10m")), ("grouping", .bool(true)), ("collapseProfilePicture", .string("off")),
            ("collapseEnclosingViews", .bool(false)), ("collapseTimestamps", .bool(false)),
            ("messageMaxWidth", .string("30rem")), ("messageCornerRadius", .number("12")),
            ("timestampFormat", .string("long")), ("locale", .string("de-DE")), ("timezone", .string("Asia/Tokyo")),
        ]
        for (name, value) in options {
            #expect(LayoutOptionParsing.apply(name, value, to: &overrides) == nil, "\(name)")
        }
        #expect(overrides.grouping == .sameSender(gap: 600))
        #expect(overrides.collapseProfilePicture == false)
        #expect(overrides.collapseEnclosingViews == false)
        #expect(overrides.collapseTimestamps == .off)
        #expect(overrides.messageMaxWidth == .rem(30))
        #expect(overrides.messageCornerRadius == .px(12))
        #expect(overrides.timestampFormat == .style(.long))
        #expect(overrides.locale == "de-DE")
        #expect(overrides.timeZone == "Asia/Tokyo")
        let applied = LayoutOptions().applying(overrides)
        #expect(applied.grouping == .sameSender(gap: 600))
    }

    @Test func invalidValuesSayWhatWasExpected() {
        var overrides = LayoutOverrides()
        #expect(
            LayoutOptionParsing.apply("collapseTimestamps", .string("middle"), to: &overrides)
                == .invalidOption(name: "collapseTimestamps", value: "middle", expected: "top, bottom or off"))
        #expect(LayoutOptionParsing.apply("messageMaxWidth", .string("calc(100% - 1px)"), to: &overrides) != nil)
        #expect(LayoutOptionParsing.apply("messageMaxWidth", .string("75%;color:red"), to: &overrides) != nil)
        #expect(LayoutOptionParsing.apply("grouping", .string("maybe"), to: &overrides) != nil)
        #expect(LayoutOptionParsing.apply("locale", .string("en_US<script>"), to: &overrides) != nil)
        #expect(
            LayoutOptionParsing.apply("timezone", .string("Nowhere/Land"), to: &overrides)
                == .unknownTimeZone("Nowhere/Land"))
        #expect(LayoutOptionParsing.apply("timestampFormat", .string(""), to: &overrides) != nil)
        #expect(
            LayoutOptionParsing.apply("bubbleColor", .string("red"), to: &overrides)
                == LayoutOptionParsing.unknownOption("bubbleColor"))
        #expect(overrides == LayoutOverrides())
    }

    @Test func groupGapAloneKeepsTheGroupingUnderneath() {
        var gapOnly = LayoutOverrides()
        _ = LayoutOptionParsing.apply("groupGap", .string("1m"), to: &gapOnly)
        var disabled = LayoutOptions()
        disabled.grouping = .disabled
        #expect(disabled.applying(gapOnly).grouping == .disabled)
        #expect(LayoutOptions().applying(gapOnly).grouping == .sameSender(gap: 60))
        // `grouping: true` alone keeps a gap the site set.
        var site = LayoutOptions()
        site.grouping = .sameSender(gap: 900)
        var onOnly = LayoutOverrides()
        _ = LayoutOptionParsing.apply("grouping", .bool(true), to: &onOnly)
        #expect(site.applying(onOnly).grouping == .sameSender(gap: 900))
        #expect(disabled.applying(onOnly).grouping == .sameSender(gap: 300))
    }
}
