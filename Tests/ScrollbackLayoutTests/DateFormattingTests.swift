import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackLayout

private func firstTime(
    _ overrides: LayoutOverrides, at iso: String = "2024-05-03T13:41:07Z", timeZone: String? = "Europe/Berlin"
) -> FormattedDate {
    layOut(conversation([message("1", "alice", iso)], timeZone: timeZone, layout: overrides)).row("1").time
}

@Suite("Timestamp format, locale and zone (spec §3 timestamp format)")
struct TimestampFormatTests {
    @Test func theDefaultIsTheLocalesShortTimeInTheZone() {
        let time = firstTime(LayoutOverrides())
        // en_US short time (no seconds, as messengers show it; they stay in the ISO text and the
        // tooltip); ICU puts a narrow no-break space before AM/PM. 13:41 UTC is 15:41 in Berlin.
        #expect(time.text == "3:41\u{202F}PM")
        #expect(time.iso == "2024-05-03T15:41:07+02:00")
    }

    @Test func aStyleUsesTheLocalesTimeOfThatStyle() {
        var overrides = LayoutOverrides()
        overrides.timestampFormat = .style(.short)
        #expect(firstTime(overrides).text == "3:41\u{202F}PM")
    }

    @Test func aPatternIsUsedAsWritten() {
        var overrides = LayoutOverrides()
        overrides.timestampFormat = .pattern("HH:mm 'Uhr'")
        #expect(firstTime(overrides).text == "15:41 Uhr")
        overrides.timestampFormat = .pattern("d MMM yyyy, HH:mm:ss")
        #expect(firstTime(overrides).text == "3 May 2024, 15:41:07")
    }

    @Test func theLocaleChangesTheText() {
        var overrides = LayoutOverrides()
        overrides.locale = "de_DE"
        #expect(firstTime(overrides).text == "15:41")
        overrides.timestampFormat = .pattern("EEEE, HH:mm")
        #expect(firstTime(overrides).text == "Freitag, 15:41")
        overrides.locale = "en_US"
        #expect(firstTime(overrides).text == "Friday, 15:41")
    }

    @Test func theZoneChangesTheTextAndTheISOOffset() {
        #expect(
            firstTime(LayoutOverrides(), timeZone: "UTC")
                == FormattedDate(text: "1:41\u{202F}PM", iso: "2024-05-03T13:41:07Z"))
        #expect(firstTime(LayoutOverrides(), timeZone: "America/St_Johns").iso == "2024-05-03T11:11:07-02:30")
        #expect(firstTime(LayoutOverrides(), at: "2024-01-03T13:41:07Z").iso == "2024-01-03T14:41:07+01:00")
    }

    @Test func daySeparatorsAreLocalizedWithAnISODay() {
        let messages = [message("1", "alice", "2024-05-03T09:00:00Z")]
        guard case .daySeparator(let english) = layOut(conversation(messages)).pages[0].items[0] else {
            Issue.record("no day separator first")
            return
        }
        #expect(english.day == FormattedDate(text: "Friday, May 3, 2024", iso: "2024-05-03"))

        var overrides = LayoutOverrides()
        overrides.locale = "de_DE"
        guard case .daySeparator(let german) = layOut(conversation(messages, layout: overrides)).pages[0].items[0]
        else {
            Issue.record("no day separator first")
            return
        }
        #expect(german.day.text == "Freitag, 3. Mai 2024")
    }

    /// The hand-written ISO formatter and the time-of-day cache must agree with ICU everywhere,
    /// including DST changes, half-hour zones, negative offsets and local mean time.
    /// The time-of-day texts are shared by every conversation with the same locale and format,
    /// whatever its zone: texts cached for one zone must be right in the others, styles included.
    @Test func sharedTimeOfDayTextsMatchDateFormatterInEveryZone() {
        let formatsToCheck: [(locale: String, format: TimestampFormat)] = [
            ("en_US", .style(.medium)), ("en_US", .style(.short)), ("de_DE", .style(.medium)),
            ("en_GB", .pattern("HH:mm 'Uhr'")), ("en_US", .pattern("h:mm:ss a")),
        ]
        let zones = ["UTC", "Europe/Berlin", "America/St_Johns", "Asia/Kathmandu", "America/Los_Angeles"]
        for (locale, format) in formatsToCheck {
            var options = LayoutOptions()
            options.locale = locale
            options.timestampFormat = format
            for zoneName in zones {
                let zone = TimeZone(identifier: zoneName)!
                let formats = ConversationDateFormats(options: options, timeZone: zone)
                #expect(formats.cachesTimeOfDay)
                let reference = DateFormatter()
                reference.locale = Locale(identifier: locale)
                reference.timeZone = zone
                switch format {
                case .style(let style):
                    reference.dateStyle = .none
                    reference.timeStyle = style
                case .pattern(let pattern):
                    reference.dateFormat = pattern
                }
                // Every zone visits the same local seconds from other instants, and DST days too.
                var seconds: Double = 1_704_067_200  // 2024-01-01
                while seconds < 1_735_689_600 {  // 2025-01-01
                    let date = Date(timeIntervalSince1970: seconds)
                    let local = formats.localSeconds(date)
                    #expect(formats.timestampText(date, localSeconds: local) == reference.string(from: date))
                    seconds += 86_399.7 * 3 + 61
                }
            }
        }
    }

    /// Message times in New York for `locale` and `format` (a time style, `short` or `medium`,
    /// or a pattern), and how many seconds of a day they write unlike `DateFormatter`.
    func timesAgainstDateFormatter(locale: String, format: String) -> (ConversationDateFormats, mismatches: Int) {
        let style: DateFormatter.Style? = ["short": .short, "medium": .medium][format]
        var options = LayoutOptions()
        options.locale = locale
        options.timestampFormat = style.map { .style($0) } ?? .pattern(format)
        let zone = TimeZone(identifier: "America/New_York")!
        let formats = ConversationDateFormats(options: options, timeZone: zone)
        let reference = DateFormatter()
        reference.locale = Locale(identifier: locale)
        reference.timeZone = zone
        if let style {
            reference.dateStyle = .none
            reference.timeStyle = style
        } else {
            reference.dateFormat = format
        }
        let dayStart = 1_714_708_800.0  // 2024-05-03T00:00:00-04:00
        var mismatches = 0
        for second in 0..<86_400 {
            let date = Date(timeIntervalSince1970: dayStart + Double(second))
            let text = formats.timestampText(date, localSeconds: formats.localSeconds(date))
            if !text.utf8.elementsEqual(reference.string(from: date).utf8) { mismatches += 1 }
        }
        return (formats, mismatches)
    }

    /// Times put together from a minute's text and the seconds field equal ICU's at every second
    /// of the day, Western and Arabic-Indic digits alike.
    @Test(arguments: [("en_US", "medium"), ("de_DE", "medium"), ("ar_EG", "medium"), ("en_US", "HH:mm:ss 'Uhr'")])
    func splitTimesMatchDateFormatterAtEverySecond(locale: String, format: String) {
        let (formats, mismatches) = timesAgainstDateFormatter(locale: locale, format: format)
        #expect(formats.splitsSeconds)
        #expect(mismatches == 0)
    }

    /// Times without seconds, made once per minute, equal ICU's at every second of the day.
    @Test(arguments: [("en_US", "short"), ("de_DE", "short"), ("ar_EG", "short"), ("en_US", "HH:mm 'Uhr'")])
    func minuteTimesMatchDateFormatterAtEverySecond(locale: String, format: String) {
        let (formats, mismatches) = timesAgainstDateFormatter(locale: locale, format: format)
        #expect(formats.timesPerMinute)
        #expect(mismatches == 0)
    }

    @Test func onlyPatternsWithoutSubMinuteFieldsArePerMinute() {
        #expect(TimeOfDayTexts.showsNothingFinerThanMinutes("h:mm a"))
        #expect(TimeOfDayTexts.showsNothingFinerThanMinutes("HH:mm 'sec'"))
        #expect(!TimeOfDayTexts.showsNothingFinerThanMinutes("HH:mm:ss"))
        #expect(!TimeOfDayTexts.showsNothingFinerThanMinutes("HH:mm.SSS"))
        #expect(!TimeOfDayTexts.showsNothingFinerThanMinutes("h:mm B"))
        #expect(!TimeOfDayTexts.showsNothingFinerThanMinutes("h:mm b"))
        #expect(!TimeOfDayTexts.showsNothingFinerThanMinutes("A"))
    }

    @Test func onlyOneSecondsFieldWithoutDayPeriodsIsSplit() {
        #expect(TimeOfDayTexts.hasOneSplittableSecondsField("h:mm:ss a"))
        #expect(TimeOfDayTexts.hasOneSplittableSecondsField("HH:mm:s 'sec'"))
        #expect(!TimeOfDayTexts.hasOneSplittableSecondsField("HH:mm"))
        #expect(!TimeOfDayTexts.hasOneSplittableSecondsField("ss:mm:ss"))
        #expect(!TimeOfDayTexts.hasOneSplittableSecondsField("h:mm:ss B"))
        #expect(!TimeOfDayTexts.hasOneSplittableSecondsField("h:mm:ss b"))
    }

    @Test(arguments: [
        "UTC", "Europe/Berlin", "America/St_Johns", "Asia/Kathmandu", "Pacific/Chatham", "America/Los_Angeles",
    ])
    func handMadeTextsMatchDateFormatter(zoneName: String) {
        let zone = TimeZone(identifier: zoneName)!
        var options = LayoutOptions()
        options.locale = "en_US"
        let formats = ConversationDateFormats(options: options, timeZone: zone)
        #expect(formats.cachesTimeOfDay)  // the medium time style is a time-of-day pattern
        let reference = DateFormatter()
        reference.locale = Locale(identifier: "en_US_POSIX")
        reference.timeZone = zone
        reference.dateFormat = "yyyy-MM-dd'T'HH:mm:ssXXXXX"
        let timeReference = DateFormatter()
        timeReference.locale = Locale(identifier: "en_US")
        timeReference.timeZone = zone
        timeReference.timeStyle = .short
        timeReference.dateStyle = .none
        let dayReference = DateFormatter()
        dayReference.locale = Locale(identifier: "en_US_POSIX")
        dayReference.timeZone = zone
        dayReference.dateFormat = "yyyy-MM-dd"

        // From 1850 (local mean time) to 2100, in uneven steps that hit every second of the minute.
        var seconds: Double = -3_786_825_600
        while seconds < 4_102_444_800 {
            let date = Date(timeIntervalSince1970: seconds + 0.75)
            let time = formats.messageTime(date)
            #expect(time.iso == reference.string(from: date))
            #expect(time.text == timeReference.string(from: date))
            #expect(formats.day(date).iso == dayReference.string(from: date))
            seconds += 8_640_013.37
        }
        // Both sides of the 2024 spring-forward and fall-back in Berlin and Los Angeles.
        for instant in [1_711_846_799.0, 1_711_846_800, 1_729_990_799, 1_729_990_800, 1_710_064_799, 1_710_064_800] {
            let date = Date(timeIntervalSince1970: instant)
            #expect(formats.messageTime(date).iso == reference.string(from: date))
            #expect(formats.messageTime(date).text == timeReference.string(from: date))
        }
    }

    @Test func onlyTimeOfDayPatternsAreCached() {
        #expect(ConversationDateFormats.showsOnlyTimeOfDay("h:mm:ss a"))
        #expect(ConversationDateFormats.showsOnlyTimeOfDay("HH:mm 'Uhr'"))
        #expect(ConversationDateFormats.showsOnlyTimeOfDay("'day' HH:mm"))  // a quoted "day" is no field
        #expect(!ConversationDateFormats.showsOnlyTimeOfDay("EEEE HH:mm"))
        #expect(!ConversationDateFormats.showsOnlyTimeOfDay("HH:mm z"))
        #expect(!ConversationDateFormats.showsOnlyTimeOfDay("HH:mm:ss.SSS"))
        #expect(!ConversationDateFormats.showsOnlyTimeOfDay("'just text'"))
    }
}
