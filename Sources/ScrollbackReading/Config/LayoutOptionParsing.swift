import Foundation
import ScrollbackModel

/// A layout option's value as a log or config wrote it, before it is interpreted.
///
/// The three sources of layout options (site config, JSON `layout` object, Markdown front
/// matter) all reduce their scalars to this, so one parser gives them one meaning.
public enum LayoutOptionValue: Hashable, Sendable, Decodable, CustomStringConvertible {
    /// A boolean (YAML also writes `on`/`off`, `yes`/`no`).
    case bool(Bool)
    /// A number, as its text (`90`, `0.5`).
    case number(String)
    /// Any other scalar, as written.
    case string(String)

    /// Decodes a YAML or JSON scalar: a boolean, else a number, else a string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self), number.isFinite {
            let text = number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
            self = .number(text)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    /// The value as the user would have written it, for error messages.
    public var description: String {
        switch self {
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let text), .string(let text): return text
        }
    }
}

/// Turns the layout options of spec §3 from their written form into `LayoutOverrides`.
///
/// Option names: `grouping` (bool), `groupGap` (`5m`, `90s`, `2h`, `1h30m` or seconds),
/// `collapseProfilePicture` and `collapseEnclosingViews` (bool), `collapseTimestamps`
/// (`top`, `bottom`, `off`), `messageMaxWidth` and `messageCornerRadius` (`75%`, `480px`,
/// `30rem`, or a number of px), `timestampFormat` (`short`, `medium`, `long`, `full`, or a
/// Unicode date pattern such as `HH:mm`), `locale` (`en_US`, `de-DE`) and `timezone`
/// (an IANA name; `timeZone` is accepted too), `threadInlineLimit` (replies a thread may have
/// and still open in place; a whole number), `presentation` (`chat` or `document`: an AI
/// conversation's answers drawn full width).
public enum LayoutOptionParsing {
    /// Every option name, in the order spec §3 lists them.
    public static let optionNames = [
        "grouping", "groupGap", "collapseProfilePicture", "collapseEnclosingViews", "collapseTimestamps",
        "messageMaxWidth", "messageCornerRadius", "timestampFormat", "locale", "timezone",
        "threadInlineLimit", "presentation",
    ]

    /// Whether `name` is a layout option (including the alias `timeZone`).
    public static func isOption(_ name: String) -> Bool {
        name == "timeZone" || optionNames.contains(name)
    }

    /// The problem to report for an option name that is not a layout option (a warning: it is ignored).
    public static func unknownOption(_ name: String) -> Problem {
        .unknownField(
            name, in: "layout", suggestion: NearestName.suggestion(for: name, in: optionNames), known: optionNames)
    }

    /// Sets option `name` to `value` in `overrides`. Returns the problem (an error) when the value
    /// is not one the option takes, or `unknownOption(name)` when `name` is not an option;
    /// `overrides` is then unchanged.
    public static func apply(
        _ name: String, _ value: LayoutOptionValue, to overrides: inout LayoutOverrides
    ) -> Problem? {
        func invalid(_ expected: String) -> Problem {
            .invalidOption(name: name, value: value.description, expected: expected)
        }
        switch name {
        case "grouping":
            guard let flag = parseBool(value) else { return invalid("true or false") }
            if flag {
                overrides.grouping = .sameSender(gap: overrides.groupGap ?? LayoutOptions.defaultGroupGap)
            } else {
                overrides.grouping = .disabled
            }
        case "groupGap":
            guard let gap = parseDuration(value) else {
                return invalid("a duration such as 5m, 90s, 2h, 1h30m or a number of seconds")
            }
            overrides.groupGap = gap
            if case .sameSender = overrides.grouping { overrides.grouping = .sameSender(gap: gap) }
        case "collapseProfilePicture":
            guard let flag = parseBool(value) else { return invalid("true or false") }
            overrides.collapseProfilePicture = flag
        case "collapseEnclosingViews":
            guard let flag = parseBool(value) else { return invalid("true or false") }
            overrides.collapseEnclosingViews = flag
        case "collapseTimestamps":
            guard let collapsing = parseTimestampCollapsing(value) else { return invalid("top, bottom or off") }
            overrides.collapseTimestamps = collapsing
        case "messageMaxWidth":
            guard let length = parseLength(value) else {
                return invalid("a width such as 75%, 480px or 30rem")
            }
            overrides.messageMaxWidth = length
        case "messageCornerRadius":
            guard let length = parseLength(value) else { return invalid("a length such as 8px or 0.5rem") }
            overrides.messageCornerRadius = length
        case "timestampFormat":
            guard let format = parseTimestampFormat(value) else {
                var expected = timestampFormatForms
                if case .string(let text) = value,
                    let style = NearestName.suggestion(for: text, in: ["short", "medium", "long", "full"])
                {
                    expected += " (did you mean '\(style)'?)"
                }
                return invalid(expected)
            }
            overrides.timestampFormat = format
        case "locale":
            guard case .string(let text) = value, isLocaleIdentifier(text) else {
                return invalid(
                    "a locale identifier: an ISO 639 language code, optionally with an ISO 3166 region, such as en, en_US, de-DE or pt_BR"
                )
            }
            overrides.locale = text
        case "timezone", "timeZone":
            guard case .string(let text) = value else { return .unknownTimeZone(value.description) }
            guard isTimeZone(text) else { return .unknownTimeZone(text) }
            overrides.timeZone = text
        case "threadInlineLimit":
            guard case .number(let text) = value, let limit = Int(text), limit >= 0 else {
                return invalid("a whole number of replies, 0 or more")
            }
            overrides.threadInlineLimit = limit
        case "presentation":
            guard case .string(let text) = value, let presentation = MessagePresentation(rawValue: text) else {
                return invalid("chat or document")
            }
            overrides.presentation = presentation
        default:
            return unknownOption(name)
        }
        return nil
    }

    /// `true`/`false`, also written as the strings `on`/`off`, `yes`/`no`.
    public static func parseBool(_ value: LayoutOptionValue) -> Bool? {
        switch value {
        case .bool(let flag): return flag
        case .number: return nil
        case .string(let text):
            switch text.lowercased() {
            case "true", "on", "yes": return true
            case "false", "off", "no": return false
            default: return nil
            }
        }
    }

    /// Seconds from `90`, `90s`, `5m`, `5min`, `2h`, `1h30m`, `1m30s`; `nil` if negative or malformed.
    public static func parseDuration(_ value: LayoutOptionValue) -> TimeInterval? {
        switch value {
        case .bool: return nil
        case .number(let text):
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else { return nil }
            return seconds
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
            if let seconds = Double(trimmed), seconds.isFinite, seconds >= 0 { return seconds }
            var total = 0.0
            var number = ""
            var rest = Substring(trimmed)
            var sawUnit = false
            while let first = rest.first {
                if first.isASCII, first.isNumber || first == "." {
                    number.append(first)
                    rest = rest.dropFirst()
                    continue
                }
                if first == " " {
                    rest = rest.dropFirst()
                    continue
                }
                let unit = rest.prefix { $0.isLetter }
                rest = rest.dropFirst(unit.count)
                guard let amount = Double(number), amount.isFinite else { return nil }
                switch unit {
                case "s", "sec", "secs", "second", "seconds": total += amount
                case "m", "min", "mins", "minute", "minutes": total += amount * 60
                case "h", "hr", "hrs", "hour", "hours": total += amount * 3600
                default: return nil
                }
                number = ""
                sawUnit = true
            }
            guard sawUnit, number.isEmpty else { return nil }
            return total
        }
    }

    /// `top`, `bottom` or `off` (also `false`/`none`, meaning off).
    public static func parseTimestampCollapsing(_ value: LayoutOptionValue) -> TimestampCollapsing? {
        switch value {
        case .bool(false): return .off
        case .string(let text):
            switch text.lowercased() {
            case "top": return .top
            case "bottom": return .bottom
            case "off", "none", "false", "no": return .off
            default: return nil
            }
        default: return nil
        }
    }

    /// A CSS length: `75%`, `480px`, `30rem`, or a number of px.
    public static func parseLength(_ value: LayoutOptionValue) -> CSSLength? {
        switch value {
        case .bool: return nil
        case .number(let text), .string(let text): return CSSLength(parsing: text)
        }
    }

    /// The forms `timestampFormat` takes, for its error.
    static let timestampFormatForms =
        "short, medium, long or full (the locale's time styles), or a Unicode date pattern such as HH:mm, h:mm a or d MMM HH:mm (pattern letters G y Y u U r Q q M L w W d D F g E e c a b B h H K k j J C m s S A z Z O v V X x; other letters in single quotes, as in HH'h'mm)"

    /// The letters of Unicode date patterns (UTS #35 date field symbols).
    private static let patternLetters = Set("GyYuUrQqMLlwWdDFgEecabBhHKkjJCmsSAzZOvVXx")

    /// A date style name or a Unicode date pattern: at most 64 characters, at least one pattern
    /// field, and every letter outside single quotes a UTS #35 field symbol. A word close to a
    /// style name (`medum`) is a typo, not a pattern.
    public static func parseTimestampFormat(_ value: LayoutOptionValue) -> TimestampFormat? {
        guard case .string(let text) = value else { return nil }
        switch text.lowercased() {
        case "short": return .style(.short)
        case "medium": return .style(.medium)
        case "long": return .style(.long)
        case "full": return .style(.full)
        default: break
        }
        guard !text.isEmpty, text.utf8.count <= 64,
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }),
            NearestName.suggestion(for: text, in: ["short", "medium", "long", "full"]) == nil
        else { return nil }
        var quoted = false
        var fields = 0
        for character in text {
            if character == "'" {
                quoted.toggle()
            } else if !quoted, character.isASCII, character.isLetter {
                guard patternLetters.contains(character) else { return nil }
                fields += 1
            }
        }
        guard fields > 0, !quoted else { return nil }
        return .pattern(text)
    }

    /// A BCP 47 / ICU-style identifier: a 2–3 letter ISO 639 language code that exists, then
    /// `_` or `-` separated parts (script, an ISO 3166 region that exists, variants).
    public static func isLocaleIdentifier(_ text: String) -> Bool {
        let parts = text.split(separator: "_", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "-", omittingEmptySubsequences: false) }
        guard let language = parts.first, (2...3).contains(language.count),
            language.allSatisfy({ $0.isASCII && $0.isLetter }),
            knownLanguages.contains(language.lowercased())
        else { return false }
        for (index, part) in parts.enumerated().dropFirst() {
            guard (1...8).contains(part.count), part.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
            else { return false }
            // A two-letter or three-digit part right after the language (or its script) is a region.
            let isRegion =
                (part.count == 2 && part.allSatisfy(\.isLetter))
                || (part.count == 3 && part.allSatisfy(\.isNumber))
            if isRegion, index <= 2, !part.allSatisfy(\.isNumber), !knownRegions.contains(part.uppercased()) {
                return false
            }
        }
        return true
    }

    /// ISO 639 language codes Foundation knows.
    private static let knownLanguages = Set(Locale.LanguageCode.isoLanguageCodes.map { $0.identifier.lowercased() })
    /// ISO 3166 region codes Foundation knows.
    private static let knownRegions = Set(Locale.Region.isoRegions.map { $0.identifier.uppercased() })

    /// Whether `identifier` names a zone Foundation knows (the IANA database).
    public static func isTimeZone(_ identifier: String) -> Bool {
        !identifier.isEmpty && TimeZone(identifier: identifier) != nil
    }
}

extension LayoutOptions {
    /// The spec §3 default `groupGap`: 5 minutes.
    public static let defaultGroupGap: TimeInterval = 300
}
