import Foundation
import ScrollbackLayout
import ScrollbackModel

/// One conversation's share of the search index and of its date list, made while its pages are
/// written and cached in the build cache so an unchanged conversation is not read again.
///
/// Documents come page by page: a timeline page's messages, then the replies of the threads
/// rooted on it. Each page's documents are bytes of their own beside the part's head (title,
/// senders, vocabulary, days); the site caches them a few pages to a file, so an append reads
/// and writes only the file of the pages it renders again, and links the others.
///
/// `SearchIndex.build(parts:)` merges the parts of every published conversation.
public struct SearchPart: Equatable, Sendable {
    /// A sender as results show them.
    public struct Sender: Equatable, Sendable {
        public var name: String
        public var initials: String
        /// Site path of a local avatar (`media/<hash>.<ext>`), if any.
        public var avatar: String?

        public init(name: String, initials: String, avatar: String?) {
            self.name = name
            self.initials = initials
            self.avatar = avatar
        }
    }

    /// One message.
    public struct Document: Equatable, Sendable {
        /// 0-based page index of the file that draws it (a thread reply's: the thread's page).
        public var page: Int
        /// The file inside the conversation's folder that draws the message: its timeline page,
        /// or a thread's own page.
        public var file: String
        /// The message element's id on its page (`m-…`).
        public var anchor: String
        /// Index into `senders`, or -1 (system messages).
        public var sender: Int
        /// Seconds since 1970 (UTC), rounded down.
        public var date: Int64
        /// `SearchPart.imageFlag`, `fileFlag`, `linkFlag`.
        public var flags: Int
        /// Plain text shown in results.
        public var text: String
        /// Distinct tokens, as indexes into `vocabulary`, in the order the message first has them.
        public var tokens: [Int]
    }

    /// The first message of a day.
    public struct Day: Equatable, Sendable {
        /// `yyyy-mm-dd` in the conversation's zone.
        public var iso: String
        /// The day as the page's separator writes it.
        public var text: String
        public var page: Int
        /// The file holding the day's first message (see `Document.file`).
        public var file: String
        public var anchor: String
    }

    public static let imageFlag = 1
    public static let fileFlag = 2
    public static let linkFlag = 4
    /// Each flag and the token that finds its messages (`has:…`).
    static let flagTokens: [(flag: Int, token: String)] = [
        (imageFlag, "has:image"), (fileFlag, "has:file"), (linkFlag, "has:link"),
    ]
    /// Longest text kept for results, in characters (every word is indexed regardless).
    public static let maxTextLength = 1200

    public var conversationID: String
    public var title: String
    public var senders: [Sender] = []
    public var vocabulary: [String] = []
    /// The documents of the pages from `firstLoadedPage` on, page by page, then the documents of
    /// no page (`unpagedDocuments`), decoded from the pages' files.
    public var documents: [Document] {
        (firstLoadedPage..<(firstLoadedPage + pageFiles.count)).flatMap(documents(ofPage:)) + unpagedDocuments
    }
    /// The cache files of the pages from `firstLoadedPage` on (`encodedPages`): a page's
    /// documents are written in their file's form as they are indexed, not kept as values.
    var pageFiles: [[UInt8]] = []
    /// The documents of no page: a site without search keeps its newest message alone, as the
    /// date list's "newest".
    public internal(set) var unpagedDocuments: [Document] = []
    public var days: [Day] = []
    /// How many documents each timeline page holds (its messages, then its threads' replies).
    public internal(set) var pageDocumentCounts: [Int] = []
    /// The earliest date of each timeline page's documents (0 for a page of none): the merge
    /// reads a page's file only once the index reaches that date (`SearchIndex.build`).
    public internal(set) var pageLowestDates: [Int64] = []
    /// The first page whose documents are in `documents`: a part read for an append holds only
    /// the pages it renders again (`init(decodingHead:fromPage:page:)`).
    public internal(set) var firstLoadedPage = 0

    /// How many documents the pages before `firstLoadedPage` hold.
    public var firstDocument: Int { pageDocumentCounts[..<firstLoadedPage].reduce(0, +) }
    /// Each token's index in `vocabulary`, kept between `add` calls; rebuilt when it does not
    /// match `vocabulary` (a part read from its cache files, to which an append adds pages).
    var vocabularyTable = VocabularyTable([])

    public init(conversationID: String, title: String) {
        self.conversationID = conversationID
        self.title = title
    }

    /// Drops the documents of the pages before `page`, once their files are written: the part
    /// then holds those of `page` and later, as one read for an append does
    /// (`init(decodingHead:fromPage:page:)`), and its head stays the same.
    public mutating func forgetPages(before page: Int) {
        precondition(page >= firstLoadedPage && page <= pageDocumentCounts.count, "only pages held are forgotten")
        pageFiles.removeFirst(page - firstLoadedPage)
        firstLoadedPage = page
    }

    /// Drops the messages and days of pages `page` and later (an append re-adds them).
    public mutating func removePages(from page: Int) {
        precondition(page >= firstLoadedPage, "pages before the first one read cannot be dropped")
        if page < pageDocumentCounts.count {
            pageFiles.removeLast(pageFiles.count - (page - firstLoadedPage))
            pageDocumentCounts.removeLast(pageDocumentCounts.count - page)
            pageLowestDates.removeLast(pageLowestDates.count - page)
        }
        days.removeAll { $0.page >= page }
    }

    public static func == (lhs: SearchPart, rhs: SearchPart) -> Bool {
        lhs.conversationID == rhs.conversationID && lhs.title == rhs.title && lhs.senders == rhs.senders
            && lhs.vocabulary == rhs.vocabulary && lhs.pageFiles == rhs.pageFiles
            && lhs.unpagedDocuments == rhs.unpagedDocuments && lhs.days == rhs.days
            && lhs.pageDocumentCounts == rhs.pageDocumentCounts && lhs.pageLowestDates == rhs.pageLowestDates
            && lhs.firstLoadedPage == rhs.firstLoadedPage
    }
}
