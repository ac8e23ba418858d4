/// The one rule for naming a conversation's participants in a line: the default title, the page
/// header's list, the index entry and the page description all name at most `maximumNamed` of
/// them and count the rest ("Ana, Ben and 199,998 others"). A log of 200,000 participants
/// repeated every name in every page's title and description: an 813 MB site.
public enum ParticipantNames {
    /// The most participants named before the rest are only counted. Ten names still fit a title
    /// and a header line; past them, a list stops telling the reader who is in the conversation.
    public static let maximumNamed = 10

    /// The first `maximumNamed` of `items` (all of them when there are no more), and how many
    /// are left unnamed.
    public static func capped<Items: Collection>(_ items: Items) -> (named: Items.SubSequence, others: Int) {
        let named = items.prefix(maximumNamed)
        return (named, items.count - named.count)
    }

    /// `names` joined with ", ", capped: "Ana, Ben, Cy", or the first `maximumNamed` and
    /// "and 199,990 others".
    public static func text<Names: Collection<String>>(_ names: Names) -> String {
        let (named, others) = capped(names)
        let listed = named.joined(separator: ", ")
        guard others > 0 else { return listed }
        return listed + " and " + othersText(others)
    }

    /// "1 other", "199,998 others".
    public static func othersText(_ count: Int) -> String {
        DecimalText.grouped(count) + (count == 1 ? " other" : " others")
    }
}
