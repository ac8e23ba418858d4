import Foundation
import ScrollbackLayout
import ScrollbackModel

/// What the search index and the date list need from the renderer: the initials its avatars
/// show, and the date list page (`Templates/dates.mustache`).
extension SiteRenderer {
    /// The initials an avatar without a picture shows for `name`.
    public static func initials(of name: String) -> String {
        HTMLText.initials(name)
    }

    /// The file name of a conversation's date list, next to its pages.
    public static let dateListFileName = "dates.html"

    /// The site path of conversation `conversationID`'s date list.
    public static func dateListPath(conversationID: String) -> String { conversationID + "/" + dateListFileName }

    /// One day of the date list.
    public struct DateListDay: Sendable {
        /// `yyyy-mm-dd`.
        public var iso: String
        /// The day as the pages' separators write it.
        public var text: String
        /// The file (inside the conversation's folder) of the day's first message.
        public var file: String
        /// Element id of the day's first message.
        public var anchor: String

        public init(iso: String, text: String, file: String, anchor: String) {
            self.iso = iso
            self.text = text
            self.file = file
            self.anchor = anchor
        }
    }

    /// `<conversation>/dates.html`: every day with a message, by month, each linking to the
    /// day's first message on its page, and a link to the newest message.
    public func renderDateList(
        conversationID: String, title: String, days: [DateListDay], newest: (file: String, anchor: String)?,
        locale: String
    ) -> RenderedFile {
        let monthFormatter = DateFormatter()
        monthFormatter.locale = Locale(identifier: locale)
        monthFormatter.timeZone = TimeZone(identifier: "UTC")
        monthFormatter.setLocalizedDateFormatFromTemplate("MMMMyyyy")
        let view = DateListView()
        view.title = title
        view.count = Self.countText(days.count, noun: "day")
        if let newest { view.newest = newest.file + "#" + newest.anchor }
        var currentMonth = ""
        var monthDays: [DateListDayView] = []
        func closeMonth() {
            guard !currentMonth.isEmpty else { return }
            let label = Self.firstDay(ofMonth: currentMonth).map(monthFormatter.string(from:)) ?? currentMonth
            view.months.append(DateListMonthView(label: label, iso: currentMonth, days: monthDays))
            monthDays = []
        }
        for day in days {
            // By UTF-8 (the date is ASCII): a long archive has tens of thousands of days.
            let month = String(Substring(day.iso.utf8.prefix(7)))
            if month != currentMonth {
                closeMonth()
                currentMonth = month
            }
            monthDays.append(
                DateListDayView(
                    href: day.file + "#" + day.anchor, iso: day.iso, text: day.text,
                    number: String(Int(Substring(day.iso.utf8.suffix(2))) ?? 0)))
        }
        closeMonth()
        let shell = ShellView()
        shell.search = config.search
        shell.lang = Self.languageTag(locale)
        shell.title = "\(title) · Jump to a date · \(config.title)"
        shell.description = "Days of \(title)"
        shell.root = "../"
        shell.publishing = publishingView(path: Self.dateListPath(conversationID: conversationID))
        shell.body = .writer(TemplateInvocation(templates.compiledTemplate("dates"), view))
        // Room for the shipped template's day (about 125 bytes) at once: the list of a long
        // archive is megabytes, and growing copies it.
        let contents = HTMLBuffer(capacity: (1 << 14) + 128 * days.count)
        templates.compiledTemplate("base").render(shell, into: contents)
        return RenderedFile(
            path: Self.dateListPath(conversationID: conversationID), contents: contents.withBytes { Array($0) })
    }

    /// Midnight UTC of the first day of a `yyyy-mm` month, or `nil` when `month` is not one
    /// (computed, not parsed: a long archive has thousands of months).
    static func firstDay(ofMonth month: String) -> Date? {
        let fields = month.split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count == 2, fields[0].count >= 4, fields[1].count == 2, let year = Int(fields[0]),
            let number = Int(fields[1]), (1...12).contains(number)
        else { return nil }
        let days = CivilCalendar.daysSince1970(year: year, month: number, day: 1)
        return Date(timeIntervalSince1970: Double(days) * 86_400)
    }
}
