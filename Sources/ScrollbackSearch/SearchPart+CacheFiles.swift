import Foundation
import ScrollbackLayout
import ScrollbackModel

// The part's cache files: its head and its pages' documents, written and read back.

extension SearchPart {
    // MARK: Cache files

    private static let headMagic: [UInt8] = Array("SBP5".utf8)
    private static let pageMagic: [UInt8] = Array("SBD4".utf8)

    /// The part's head file (`search/<id>.bin` in the build cache): title, senders, vocabulary, each
    /// page's document count and earliest date, the documents of no page, and the days.
    public func encodedHead() -> [UInt8] {
        var writer = ByteWriter()
        writer.bytes = Self.headMagic
        writer.string(conversationID)
        writer.string(title)
        writer.varint(senders.count)
        for sender in senders {
            writer.string(sender.name)
            writer.string(sender.initials)
            writer.string(sender.avatar ?? "")
        }
        writer.varint(vocabulary.count)
        for token in vocabulary { writer.string(token) }
        writer.varint(pageDocumentCounts.count)
        for (count, date) in zip(pageDocumentCounts, pageLowestDates) {
            writer.varint(count)
            writer.signed(date)
        }
        PageEncoder(unpagedDocuments[...]).encode(into: &writer)
        writer.varint(days.count)
        for day in days {
            writer.string(day.iso)
            writer.string(day.text)
            writer.varint(day.page)
            writer.string(day.file)
            writer.string(day.anchor)
        }
        return writer.bytes
    }

    /// The bytes of pages `page` and later, in page order: each page's documents, as the site's
    /// cache files hold them (`search/<id>/`, a few pages to a file).
    public func encodedPages(from page: Int) -> [[UInt8]] {
        precondition(page >= firstLoadedPage, "pages before the first one read are not held")
        return Array(pageFiles.dropFirst(page - firstLoadedPage))
    }

    /// A page's file (`encodedPages`) holding `documents`.
    static func encodedPage(_ documents: ArraySlice<Document>) -> [UInt8] {
        PageEncoder(documents).encodedPage()
    }

    /// A list of documents as the cache files store them, written a document at a time: a
    /// page's file (`encodedPage()`), or a head's documents of no page (`encode(into:)`). Dates
    /// are written as the difference from the document before.
    struct PageEncoder {
        private var body = ByteWriter()
        /// How many documents it holds.
        private(set) var count = 0
        /// The earliest date of its documents.
        private(set) var lowestDate: Int64?
        private var previousDate: Int64 = 0
        /// Where the last file written is in `body`.
        private var previousFile: Range<Int>?

        init() {}

        /// The encoder holding `documents`.
        init(_ documents: ArraySlice<Document>) {
            for document in documents {
                add(
                    page: document.page, file: document.file, anchor: document.anchor, sender: document.sender,
                    date: document.date, flags: document.flags, text: document.text, tokens: document.tokens)
            }
        }

        /// Adds a document (its fields as `Document`'s; `tokens` without repeats).
        mutating func add(
            page: Int, file: String, anchor: String, sender: Int, date: Int64, flags: Int, text: String,
            tokens: [Int]
        ) {
            var (file, anchor, text) = (file, anchor, text)
            file.withUTF8 { file in
                anchor.withUTF8 { anchor in
                    text.withUTF8 { text in
                        addFields(
                            page: page, file: file, anchor: anchor, sender: sender, date: date, flags: flags, text: text
                        )
                    }
                }
            }
            body.varint(tokens.count)
            for token in tokens { body.varint(token) }
            count += 1
        }

        /// Adds `document` of `page` (a run's file) with its token and sender numbers mapped
        /// (`tokens[n]`, `senders[n]`: the part's numbers of the run's `n`), from its bytes.
        mutating func add(
            _ document: StoredDocument, of page: StoredPage, tokens: [Int], senders: [Int]
        ) {
            page.bytes.withUnsafeBufferPointer { bytes in
                func field(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> { .init(rebasing: bytes[range]) }
                addFields(
                    page: document.page, file: field(document.file), anchor: field(document.anchor),
                    sender: document.sender < 0 ? document.sender : senders[document.sender], date: document.date,
                    flags: document.flags, text: field(document.text))
            }
            body.varint(document.tokenCount)
            page.forEachToken(of: document) { body.varint(tokens[$0]) }
            count += 1
        }

        /// Writes a document's fields up to its tokens.
        private mutating func addFields(
            page: Int, file: UnsafeBufferPointer<UInt8>, anchor: UnsafeBufferPointer<UInt8>, sender: Int,
            date: Int64, flags: Int, text: UnsafeBufferPointer<UInt8>
        ) {
            body.varint(page)
            // The documents of a page are mostly drawn by one file: 0 for the previous one's.
            if let previousFile, body.bytes[previousFile].elementsEqual(file) {
                body.varint(0)
            } else {
                body.varint(file.count + 1)
                body.bytes.append(contentsOf: file)
                previousFile = (body.bytes.count - file.count)..<body.bytes.count
            }
            body.string(utf8: anchor)
            body.varint(sender + 1)
            body.signed(date - previousDate)
            previousDate = date
            lowestDate = min(lowestDate ?? date, date)
            body.varint(flags)
            body.string(utf8: text)
        }

        /// Writes the documents, counted.
        func encode(into writer: inout ByteWriter) {
            writer.varint(count)
            writer.bytes += body.bytes
        }

        /// A page's file holding the documents.
        func encodedPage() -> [UInt8] {
            var writer = ByteWriter()
            writer.bytes.reserveCapacity(SearchPart.pageMagic.count + 10 + body.bytes.count)
            writer.bytes += SearchPart.pageMagic
            encode(into: &writer)
            return writer.bytes
        }
    }

    /// The documents held of page `page` (`firstLoadedPage` or later).
    public func documents(ofPage page: Int) -> [Document] {
        storedPage(page).decoded()
    }

    /// The documents held of page `page` (`firstLoadedPage` or later), read in place.
    public func storedPage(_ page: Int) -> StoredPage {
        StoredPage(pageFiles[page - firstLoadedPage], tokenCount: .max)!
    }

    /// A document as its cache file stores it, read in place: its strings and tokens are ranges
    /// of the file's bytes, so the index's rows are written from them without a `String` or an
    /// array made per document.
    public struct StoredDocument: Sendable {
        /// As `Document.page`.
        public var page: Int
        /// As `Document.sender`.
        public var sender: Int
        /// As `Document.date`.
        public var date: Int64
        /// As `Document.flags`.
        public var flags: Int
        /// Where `Document.file`'s UTF-8 is in the file's bytes.
        var file: Range<Int>
        /// Where `Document.anchor`'s UTF-8 is.
        var anchor: Range<Int>
        /// Where `Document.text`'s UTF-8 is.
        var text: Range<Int>
        /// The token numbers' varints (`PageEncoder`).
        var tokens: Range<Int>
        /// How many tokens `tokens` holds.
        public var tokenCount: Int
    }

    /// The documents of a page's file, read in place (`StoredDocument`).
    public struct StoredPage: Sendable {
        /// The file's bytes.
        public let bytes: [UInt8]
        public let documents: [StoredDocument]

        /// The documents of `bytes`, a page's file of a part whose vocabulary holds `tokenCount`
        /// tokens; `nil` when the bytes are not such a file.
        public init?(_ bytes: [UInt8], tokenCount: Int) {
            guard bytes.starts(with: SearchPart.pageMagic) else { return nil }
            var reader = ByteReader(bytes)
            reader.offset = SearchPart.pageMagic.count
            guard let documents = SearchPart.storedDocuments(from: &reader, tokenCount: tokenCount), reader.atEnd
            else { return nil }
            (self.bytes, self.documents) = (bytes, documents)
        }

        /// The page holding `documents`, as its file would store them.
        public init(encoding documents: ArraySlice<Document>) {
            self.init(SearchPart.encodedPage(documents), tokenCount: .max)!
        }

        /// `documents`, read in place from `bytes` (a head's documents of no page).
        fileprivate init(bytes: [UInt8], documents: [StoredDocument]) {
            (self.bytes, self.documents) = (bytes, documents)
        }

        /// The documents as values.
        public func decoded() -> [Document] {
            documents.indices.map(decoded)
        }

        /// Document `index` as a value.
        public func decoded(_ index: Int) -> Document {
            let document = documents[index]
            var tokens: [Int] = []
            tokens.reserveCapacity(document.tokenCount)
            forEachToken(of: document) { tokens.append($0) }
            func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
            return Document(
                page: document.page, file: string(document.file), anchor: string(document.anchor),
                sender: document.sender, date: document.date, flags: document.flags, text: string(document.text),
                tokens: tokens)
        }

        /// Calls `body` with the bytes of `range` (a document's string).
        func withBytes<Result>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
            bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
        }

        /// Calls `body` with each token number of `document`, in its order.
        func forEachToken(of document: StoredDocument, _ body: (Int) -> Void) {
            var reader = ByteReader(bytes)
            reader.offset = document.tokens.lowerBound
            for _ in 0..<document.tokenCount { body(reader.varint()!) }
        }
    }

    /// `PageEncoder`'s documents, read in place from `reader`; `nil` when the bytes are not such
    /// documents, or name a token past `tokenCount`.
    private static func storedDocuments(from reader: inout ByteReader, tokenCount: Int) -> [StoredDocument]? {
        guard let documentCount = reader.varint() else { return nil }
        var documents: [StoredDocument] = []
        documents.reserveCapacity(max(0, min(documentCount, reader.bytes.count)))
        var previousDate: Int64 = 0
        var previousFile: Range<Int>?
        /// A document's file: its length plus one and its bytes, or 0 for the previous document's.
        func file(_ reader: inout ByteReader) -> Range<Int>? {
            guard let field = reader.varint() else { return nil }
            if field != 0 { previousFile = reader.range(count: field &- 1) }
            return previousFile
        }
        for _ in 0..<max(0, documentCount) {
            guard let page = reader.varint(), let file = file(&reader), let anchor = reader.stringRange(),
                let sender = reader.varint(),
                let dateDelta = reader.signed(), let flags = reader.varint(), let text = reader.stringRange(),
                let count = reader.varint(), count >= 0
            else { return nil }
            let tokensStart = reader.offset
            for _ in 0..<count {
                guard let token = reader.varint(), token >= 0, token < tokenCount else { return nil }
            }
            previousDate += dateDelta
            documents.append(
                StoredDocument(
                    page: page, sender: sender - 1, date: previousDate, flags: flags, file: file, anchor: anchor,
                    text: text, tokens: tokensStart..<reader.offset, tokenCount: count))
        }
        return documents
    }

    /// A part from its head file and the files of pages `firstPage` and later (`page` gives a
    /// page's file, `nil` when it cannot be read); `nil` when they are not a part's files.
    public init?(decodingHead head: [UInt8], fromPage firstPage: Int = 0, page: (Int) -> [UInt8]?) {
        guard head.starts(with: Self.headMagic) else { return nil }
        var reader = ByteReader(head)
        reader.offset = Self.headMagic.count
        guard let id = reader.string(), let title = reader.string(), let senderCount = reader.varint() else {
            return nil
        }
        self.init(conversationID: id, title: title)
        for _ in 0..<max(0, senderCount) {
            guard let name = reader.string(), let initials = reader.string(), let avatar = reader.string() else {
                return nil
            }
            senders.append(Sender(name: name, initials: initials, avatar: avatar.isEmpty ? nil : avatar))
        }
        guard let tokenCount = reader.varint() else { return nil }
        vocabulary.reserveCapacity(max(0, tokenCount))
        for _ in 0..<max(0, tokenCount) {
            guard let token = reader.string() else { return nil }
            vocabulary.append(token)
        }
        guard let pageCount = reader.varint() else { return nil }
        for _ in 0..<max(0, pageCount) {
            guard let count = reader.varint(), let date = reader.signed() else { return nil }
            pageDocumentCounts.append(count)
            pageLowestDates.append(date)
        }
        guard let storedUnpaged = Self.storedDocuments(from: &reader, tokenCount: tokenCount),
            let dayCount = reader.varint()
        else { return nil }
        unpagedDocuments = StoredPage(bytes: head, documents: storedUnpaged).decoded()
        for _ in 0..<max(0, dayCount) {
            guard let iso = reader.string(), let text = reader.string(), let page = reader.varint(),
                let file = reader.string(), let anchor = reader.string()
            else { return nil }
            days.append(Day(iso: iso, text: text, page: page, file: file, anchor: anchor))
        }
        guard reader.atEnd else { return nil }
        firstLoadedPage = min(max(0, firstPage), pageDocumentCounts.count)
        for number in firstLoadedPage..<pageDocumentCounts.count {
            guard let bytes = page(number), let stored = StoredPage(bytes, tokenCount: tokenCount),
                stored.documents.count == pageDocumentCounts[number]
            else { return nil }
            pageFiles.append(bytes)
        }
    }
}
