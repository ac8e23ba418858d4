/// Every setting `scrollback.yml` can hold, with its default and what it does: the one list
/// the config reader checks keys against and `scrollback init` writes out. Defaults are read
/// from `SiteConfig()` and `LayoutOptions()`, never written here a second time.
public struct ConfigOption: Sendable, Hashable {
    /// The key as written in the file (`pageSize`, or `layout.groupGap` for a layout option).
    public let key: String
    /// The default as YAML text; `nil` when the setting is unset by default.
    public let defaultValue: String?
    /// One line saying what it does and what it takes.
    public let comment: String

    /// The key without its section (`groupGap` for `layout.groupGap`).
    public var name: String { String(key.split(separator: ".").last ?? "") }
    /// The section (`layout`), or `nil` for a top-level setting.
    public var section: String? { key.contains(".") ? String(key.split(separator: ".").first!) : nil }
}

/// The catalogue of settings (see `ConfigOption`).
public enum ConfigOptions {
    /// Every setting, top-level ones first, in the order `init` writes them.
    public static var all: [ConfigOption] {
        let site = SiteConfig()
        let layout = LayoutOptions()
        func yamlString(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        var groupGap: Double = 0
        var grouping = true
        switch layout.grouping {
        case .disabled: grouping = false
        case .sameSender(let gap): groupGap = gap
        }
        let gapText = groupGap.truncatingRemainder(dividingBy: 60) == 0 ? "\(Int(groupGap / 60))m" : "\(Int(groupGap))s"
        let timestampText: String
        switch layout.timestampFormat {
        case .pattern(let pattern): timestampText = yamlString(pattern)
        case .style(let style):
            switch style {
            case .short: timestampText = "short"
            case .long: timestampText = "long"
            case .full: timestampText = "full"
            default: timestampText = "medium"
            }
        }
        return [
            ConfigOption(key: "title", defaultValue: yamlString(site.title), comment: "the site's name, on every page"),
            ConfigOption(
                key: "description", defaultValue: site.description.map(yamlString),
                comment: "one sentence for the index page and link previews"),
            ConfigOption(
                key: "baseURL", defaultValue: site.baseURL.map(yamlString),
                comment:
                    "the published address (https://example.com/chats/): adds canonical links, sitemap.xml, robots.txt, feeds and social cards"
            ),
            ConfigOption(
                key: "pageSize", defaultValue: String(site.pageSize), comment: "messages per page (a whole number ≥ 1)"),
            ConfigOption(
                key: "remoteMedia", defaultValue: String(site.remoteMedia),
                comment: "show media the logs name by http(s) URL (false: a placeholder, nothing loads from elsewhere)"),
            ConfigOption(
                key: "maxLogBytes", defaultValue: String(site.maxLogBytes),
                comment: "largest log read, in bytes (a larger one is an error, found before it is read)"),
            ConfigOption(
                key: "maxMediaBytes", defaultValue: String(site.maxMediaBytes),
                comment: "largest media file published, in bytes (a larger one is refused with a warning)"),
            ConfigOption(
                key: "search", defaultValue: String(site.search),
                comment: "ship the search box and its index (false: no search files at all)"),
            ConfigOption(
                key: "me", defaultValue: nil,
                comment:
                    "you, whose messages go on the right: a participant id or name, or a list of them (a log's own me wins; --me wins over both)"
            ),
            ConfigOption(
                key: "conversations", defaultValue: nil,
                comment: "settings of one conversation by its id: {whatsapp-chat-with-bob: {me: Alice}}"),
            ConfigOption(
                key: "layout.grouping", defaultValue: String(grouping),
                comment: "group consecutive messages of one sender"),
            ConfigOption(
                key: "layout.groupGap", defaultValue: gapText,
                comment: "the longest pause inside a group (5m, 90s, 1h30m)"),
            ConfigOption(
                key: "layout.collapseProfilePicture", defaultValue: String(layout.collapseProfilePicture),
                comment: "show a sender's picture once per group"),
            ConfigOption(
                key: "layout.collapseEnclosingViews", defaultValue: String(layout.collapseEnclosingViews),
                comment: "join the bubbles of a group"),
            ConfigOption(
                key: "layout.collapseTimestamps", defaultValue: layout.collapseTimestamps.rawValue,
                comment: "where a group's one timestamp goes: top, bottom or off"),
            ConfigOption(
                key: "layout.messageMaxWidth", defaultValue: layout.messageMaxWidth.description,
                comment: "widest bubble (75%, 480px, 30rem)"),
            ConfigOption(
                key: "layout.messageCornerRadius", defaultValue: layout.messageCornerRadius.description,
                comment: "bubble corner radius (8px, 0.5rem)"),
            ConfigOption(
                key: "layout.timestampFormat", defaultValue: timestampText,
                comment: "short, medium, long, full or a Unicode pattern such as HH:mm"),
            ConfigOption(
                key: "layout.locale", defaultValue: layout.locale, comment: "language of dates (en_US, de_DE)"),
            ConfigOption(
                key: "layout.timezone", defaultValue: layout.timeZone, comment: "IANA time zone of shown times"),
            ConfigOption(
                key: "layout.threadInlineLimit", defaultValue: String(layout.threadInlineLimit),
                comment: "threads with more replies than this get pages of their own"),
            ConfigOption(
                key: "layout.presentation", defaultValue: layout.presentation.rawValue,
                comment: "chat (bubbles) or document (answers full width, for AI conversations)"),
        ]
    }

    /// The keys allowed at the top of the file (`layout` holds the layout options).
    public static var topLevelKeys: [String] {
        var keys: [String] = []
        for option in all {
            let key = option.section ?? option.key
            if !keys.contains(key) { keys.append(key) }
        }
        return keys
    }

    /// The whole `scrollback.yml` `init` writes: every setting with its default (unset ones
    /// commented out) and a one-line comment.
    public static var annotatedFile: String {
        var lines = [
            "# Scrollback site settings. Every setting is listed with its default;", "# change or delete any line.", "",
        ]
        var currentSection: String?
        for option in all {
            if option.section != currentSection, let section = option.section {
                lines.append("")
                lines.append("\(section):")
                currentSection = section
            }
            let indent = option.section == nil ? "" : "  "
            lines.append("\(indent)# \(option.comment)")
            if let value = option.defaultValue {
                lines.append("\(indent)\(option.name): \(value)")
            } else {
                lines.append("\(indent)# \(option.name): (unset)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
