import Foundation

/// How consecutive messages are grouped, after AllujaMessages' `MessageGroupingOption`.
public enum MessageGroupingOption: Hashable, Sendable {
    /// Every message stands alone (`single`).
    case disabled
    /// Consecutive messages group while the sender and the day are the same and the gap
    /// between two neighbours is at most `gap` seconds.
    case sameSender(gap: TimeInterval)
}

/// Where the one timestamp of a group goes (`collapseTimestamps`).
public enum TimestampCollapsing: String, Hashable, Sendable, CaseIterable {
    /// On the first message of the group.
    case top
    /// On the last message of the group.
    case bottom
    /// Not collapsed: every message shows its timestamp.
    case off
}

/// A CSS length that a user can set: a percentage of the message list, pixels or rems.
///
/// Parsed, never passed through as text, so a config cannot inject CSS.
public enum CSSLength: Hashable, Sendable, CustomStringConvertible {
    case percent(Double)
    case px(Double)
    case rem(Double)

    /// Parses `75%`, `480px`, `30rem` (and a bare number as px).
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        func number(_ suffix: String) -> Double? {
            guard trimmed.hasSuffix(suffix) else { return nil }
            let digits = trimmed.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)
            guard let value = Double(digits), value.isFinite, value >= 0, value <= 100_000 else { return nil }
            return value
        }
        if let value = number("%"), value <= 100 {
            self = .percent(value)
        } else if let value = number("px") {
            self = .px(value)
        } else if let value = number("rem") {
            self = .rem(value)
        } else if let value = Double(trimmed), value.isFinite, value >= 0, value <= 100_000 {
            self = .px(value)
        } else {
            return nil
        }
    }

    /// The CSS text, e.g. `75%`.
    public var description: String {
        func format(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
        switch self {
        case .percent(let value): return "\(format(value))%"
        case .px(let value): return "\(format(value))px"
        case .rem(let value): return "\(format(value))rem"
        }
    }
}

/// How timestamps are written: a date style or a Unicode pattern, always with an explicit locale.
public enum TimestampFormat: Hashable, Sendable {
    /// A `DateFormatter` time style, e.g. `.short` → "9:41 AM" in en_US.
    case style(DateFormatter.Style)
    /// A Unicode date pattern such as `HH:mm`.
    case pattern(String)
}

/// How a conversation's messages are drawn (`presentation`, issue 42.5).
public enum MessagePresentation: String, Hashable, Sendable, CaseIterable {
    /// Every message in a bubble, as a messenger draws it.
    case chat
    /// An AI conversation: `me`'s messages (the prompts) stay bubbles; everyone else's (the
    /// answers) are full-width documents, as ChatGPT draws them, so headings, tables and code
    /// get the width of the page instead of 75% of a phone.
    case document
}

/// The layout options of spec §3, with the spec's defaults.
public struct LayoutOptions: Hashable, Sendable {
    /// Grouping; default: same sender within 5 minutes.
    public var grouping: MessageGroupingOption = .sameSender(gap: 300)
    /// Avatar only on the last message of a group.
    public var collapseProfilePicture = true
    /// Header only on the first message of a group, footer only on the last.
    public var collapseEnclosingViews = true
    /// One timestamp per group, on its first or last message, or on every message.
    public var collapseTimestamps: TimestampCollapsing = .bottom
    /// Maximum bubble width.
    public var messageMaxWidth: CSSLength = .percent(75)
    /// Bubble corner radius.
    public var messageCornerRadius: CSSLength = .px(8)
    /// Timestamp format; the default is the locale's short time style (no seconds, as messengers
    /// show it); the seconds stay in `<time datetime>` and the timestamp's tooltip.
    public var timestampFormat: TimestampFormat = .style(.short)
    /// Locale for timestamps and day separators (never the process default).
    public var locale = "en_US"
    /// IANA time zone for display and day splits when the conversation names none.
    public var timeZone = "UTC"
    /// A thread of at most this many replies opens in place under its root; a longer one gets
    /// its own pages (spec §1.1 `threadInlineLimit`).
    public var threadInlineLimit = 50
    /// Chat bubbles, or documents for the answers of an AI conversation (`presentation`).
    public var presentation: MessagePresentation = .chat

    /// The defaults of spec §3.
    public init() {}

    /// These options with `overrides` applied on top.
    public func applying(_ overrides: LayoutOverrides) -> LayoutOptions {
        var result = self
        if let value = overrides.grouping {
            // `grouping: true` alone turns grouping on but keeps the gap set underneath.
            if case .sameSender = value, overrides.groupGap == nil, case .sameSender = result.grouping {
            } else {
                result.grouping = value
            }
        }
        if let gap = overrides.groupGap, case .sameSender = result.grouping { result.grouping = .sameSender(gap: gap) }
        if let value = overrides.collapseProfilePicture { result.collapseProfilePicture = value }
        if let value = overrides.collapseEnclosingViews { result.collapseEnclosingViews = value }
        if let value = overrides.collapseTimestamps { result.collapseTimestamps = value }
        if let value = overrides.messageMaxWidth { result.messageMaxWidth = value }
        if let value = overrides.messageCornerRadius { result.messageCornerRadius = value }
        if let value = overrides.timestampFormat { result.timestampFormat = value }
        if let value = overrides.locale { result.locale = value }
        if let value = overrides.timeZone { result.timeZone = value }
        if let value = overrides.threadInlineLimit { result.threadInlineLimit = value }
        if let value = overrides.presentation { result.presentation = value }
        return result
    }
}

/// Layout options a config file or a single conversation sets; `nil` keeps what is underneath.
public struct LayoutOverrides: Hashable, Sendable {
    public var grouping: MessageGroupingOption?
    /// `groupGap` in seconds: replaces the gap of whatever grouping applies underneath
    /// (so `groupGap` alone keeps grouping on or off as the level below set it).
    public var groupGap: TimeInterval?
    public var collapseProfilePicture: Bool?
    public var collapseEnclosingViews: Bool?
    public var collapseTimestamps: TimestampCollapsing?
    public var messageMaxWidth: CSSLength?
    public var messageCornerRadius: CSSLength?
    public var timestampFormat: TimestampFormat?
    public var locale: String?
    public var timeZone: String?
    public var threadInlineLimit: Int?
    public var presentation: MessagePresentation?

    /// No overrides.
    public init() {}
}

/// Site-wide settings, read from `scrollback.yml` (or `.yaml`, `.json`) in the input folder.
public struct SiteConfig: Hashable, Sendable {
    /// Title of the index page.
    public var title = "Scrollback"
    /// Text under the title on the index page.
    public var description: String?
    /// Layout defaults for every conversation.
    public var layout = LayoutOptions()
    /// Messages per page of a conversation: at least 1 (`ConfigReader` refuses less; the
    /// append path divides by it).
    public var pageSize = 1000
    /// Whether media a log names by `http(s)` URL is loaded; off shows a placeholder with the link.
    public var remoteMedia = true
    /// The address the site is published at, ending in `/` (`--base-url` or `baseURL`); `nil`
    /// (the default) keeps every link relative and emits no canonical links, sitemap or feeds.
    public var baseURL: String?
    /// Whether the site ships its search box and index (`search: false` ships none of it).
    public var search = true
    /// The largest log read, in bytes (config `maxLogBytes`); a larger one is an error, found
    /// before it is read.
    public var maxLogBytes: Int64 = 1 << 30
    /// The largest media file published, in bytes (config `maxMediaBytes`); a larger one is
    /// refused with a warning, before it is read.
    public var maxMediaBytes: Int64 = 256 << 20
    /// Who "me" is (`me:`, `conversations.<id>.me`, `--me`): whose messages go on the right.
    public var me = MeSetting()

    /// The defaults.
    public init() {}
}

extension SiteConfig {
    /// `text` as a base URL: absolute http(s) with a host, no query or fragment, ending in `/`;
    /// `nil` when it is not one.
    public static func normalizedBaseURL(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let components = URLComponents(string: trimmed),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty, components.query == nil, components.fragment == nil,
            components.user == nil, components.password == nil
        else { return nil }
        return trimmed.hasSuffix("/") ? trimmed : trimmed + "/"
    }
}
