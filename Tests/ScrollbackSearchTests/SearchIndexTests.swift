import Foundation
import ScrollbackLayout
import ScrollbackModel
import Testing

@testable import ScrollbackSearch

struct SearchIndexTests {
    /// A part of `count` messages, built through the layouter as the pipeline does.
    func part(
        id: String, count: Int, pageSize: Int = 10, start: Double = 1_714_000_000, tokenizesText: Bool = true,
        threadRoot: (Int) -> Int? = { _ in nil }, text: (Int) -> String
    )
        -> SearchPart
    {
        var part = SearchPart(conversationID: id, title: id)
        add(
            to: &part, count: count, pageSize: pageSize, start: start, tokenizesText: tokenizesText,
            threadRoot: threadRoot, text: text)
        return part
    }

    /// Adds the pages (from `firstPage` on) of a conversation of `count` messages, 20,000 s
    /// apart, to `part`; message `n` is a reply in the thread of message `threadRoot(n)`, if any.
    func add(
        to part: inout SearchPart, count: Int, pageSize: Int = 10, start: Double = 1_714_000_000,
        tokenizesText: Bool = true, firstPage: Int = 0, threadRoot: (Int) -> Int? = { _ in nil },
        text: (Int) -> String
    ) {
        let id = part.conversationID
        let location = SourceLocation(file: id, line: 1, column: 1)
        let people = [Participant(id: "ana", name: "Ana Lúcia"), Participant(id: "bo", name: "Bo")]
        let messages = (0..<count).map { n in
            Message(
                id: "m\(n)", sender: n % 3 == 0 ? "bo" : "ana",
                date: Date(timeIntervalSince1970: start + Double(n) * 20_000),
                kind: n == 4 ? .photo(MediaItem(source: .remote("https://x/y.png"), alt: "red box")) : .text(text(n)),
                thread: threadRoot(n).map { "m\($0)" }, location: location)
        }
        let conversation = Conversation(
            id: id, title: id.capitalized, participants: people, messages: messages, source: location)
        let plan = ConversationLayouter(options: LayoutOptions(), pageSize: pageSize).plan(conversation)
        part.add(
            plan, pages: firstPage..<plan.pageCount, anchor: { "m-m\($0)" },
            sender: { SearchPart.Sender(name: $0.name, initials: String($0.name.prefix(1)), avatar: nil) },
            tokenizesText: tokenizesText)
    }

    @Test func partRecordsPagesAnchorsSendersFlagsAndDays() {
        let made = part(id: "alpha", count: 25) { "Message \($0) về café" }
        #expect(made.documents.count == 25)
        #expect(made.documents[24].page == 2)
        #expect(made.documents[24].anchor == "m-m24")
        #expect(made.senders.map(\.name) == ["Bo", "Ana Lúcia"])
        #expect(made.documents[4].flags == SearchPart.imageFlag)
        #expect(made.documents[4].text == "red box")
        let tokens = Set(made.documents[1].tokens.map { made.vocabulary[$0] })
        #expect(tokens.isSuperset(of: ["cafe", "ve", "from:ana", "from:lucia"]), "\(tokens)")
        // 20,000 s apart: a new UTC day every 4 or 5 messages; each day once, on its first message.
        #expect(made.days.first?.anchor == "m-m0")
        #expect(Set(made.days.map(\.iso)).count == made.days.count)
        #expect(made.days.count > 4)
    }

    /// `part` as its cache files would read it back, from page `firstPage` on (`pages` replaces
    /// page files by number).
    func decoded(_ part: SearchPart, fromPage firstPage: Int = 0, pages: [Int: [UInt8]?] = [:]) -> SearchPart? {
        let files = part.encodedPages(from: 0)
        return SearchPart(decodingHead: part.encodedHead(), fromPage: firstPage) { page in
            if let replaced = pages[page] { return replaced }
            return page < files.count ? files[page] : nil
        }
    }

    @Test func partRoundTripsThroughItsCacheFiles() throws {
        let made = part(id: "alpha", count: 30) { "Dũng said \($0) 🍕" }
        #expect(made.pageDocumentCounts == [10, 10, 10])
        #expect(decoded(made) == made)
        #expect((SearchPart(decodingHead: Array(made.encodedHead().dropLast())) { _ in nil }) == nil)
        #expect(decoded(made, pages: [1: nil]) == nil, "a page file missing")
        #expect(decoded(made, pages: [1: made.encodedPages(from: 2)[0].dropLast()]) == nil, "a page file cut short")
        // Read from page 2 on: the documents of the pages before are neither read nor needed.
        let tail = try #require(decoded(made, fromPage: 2, pages: [0: nil, 1: nil]))
        #expect(tail.firstLoadedPage == 2)
        #expect(tail.firstDocument == 20)
        #expect(tail.documents[...] == made.documents[20...])
        #expect(tail.vocabulary == made.vocabulary)
        #expect(tail.days == made.days)
    }

    @Test func aPagesFileKeepsEachDocumentsFileWhenItRepeatsOrChanges() throws {
        let files = ["page-2.html", "page-2.html", "thread-m3.html", "page-2.html", "", "", "thread-é.html"]
        let documents = files.enumerated().map { number, file in
            SearchPart.Document(
                page: 1, file: file, anchor: "m-\(number)", sender: number % 2 - 1, date: 1_714_000_000 + Int64(number),
                flags: 0, text: "text \(number)", tokens: [number, 300 + number, 20_000])
        }
        let page = SearchPart.StoredPage(encoding: documents[...])
        #expect(page.decoded() == documents)
        // A repeated file is written once: shorter than the same page with every file different.
        let distinct = documents.enumerated().map { number, document in
            var document = document
            document.file = "f\(number)" + document.file
            return document
        }
        #expect(page.bytes.count < SearchPart.StoredPage(encoding: distinct[...]).bytes.count)
        // A document naming "the previous file" with none before it is refused.
        var first = ByteWriter()
        first.bytes = Array(page.bytes.prefix(4))
        first.varint(1)  // one document
        first.varint(1)  // its page
        first.varint(0)  // "the previous document's file"
        #expect(SearchPart.StoredPage(first.bytes + page.bytes.dropFirst(first.bytes.count), tokenCount: .max) == nil)
    }

    @Test func varintsReadBackAroundTheirByteLengths() {
        let values = [0, 1, 0x7F, 0x80, 0x81, 0x3FFF, 0x4000, 0x4001, 0x1F_FFFF, 0x20_0000, Int(Int32.max), Int.max]
        var writer = ByteWriter()
        for value in values { writer.varint(value) }
        var reader = ByteReader(writer.bytes)
        let readBack = values.map { _ in reader.varint() }
        #expect(readBack == values)
        #expect(reader.atEnd)
        // Cut short after a continuation byte: no value.
        for length in [1, 2] {
            var cut = ByteReader(Array(repeating: 0x80, count: length))
            #expect(cut.varint() == nil, "\(length) continuation bytes")
        }
    }

    @Test func anAppendReadsAndWritesOnlyTheLastPagesAndGivesTheFullBuildsPart() throws {
        let previous = part(id: "alpha", count: 30) { "word\($0 % 7)" }
        let previousPages = previous.encodedPages(from: 0)
        // As the append path does: the last page read, dropped and made again with the new messages.
        var appended = try #require(decoded(previous, fromPage: 2, pages: [0: nil, 1: nil]))
        appended.removePages(from: 2)
        #expect(appended.documents == [])
        add(to: &appended, count: 45, firstPage: 2) { $0 < 30 ? "word\($0 % 7)" : "new\($0)" }
        #expect(appended.pageDocumentCounts == [10, 10, 10, 10, 5])
        #expect(appended.documents.count == 25)
        // Known tokens keep their numbers, so the kept page files stay right.
        #expect(appended.vocabulary.prefix(previous.vocabulary.count) == previous.vocabulary[...])
        let written = appended.encodedPages(from: 2)
        #expect(written.count == 3)
        let files = Array(previousPages.prefix(2)) + written
        let whole = try #require(SearchPart(decodingHead: appended.encodedHead()) { files[$0] })
        let full = part(id: "alpha", count: 45) { $0 < 30 ? "word\($0 % 7)" : "new\($0)" }
        #expect(whole == full)
        #expect(full.encodedPages(from: 0) == files)
        #expect(full.encodedHead() == appended.encodedHead())
    }

    @Test func withoutSearchOnlyTheDaysAndTheNewestMessageAreKept() {
        let full = part(id: "alpha", count: 25) { "Message \($0)" }
        let daysOnly = part(id: "alpha", count: 25, tokenizesText: false) { "Message \($0)" }
        #expect(daysOnly.days == full.days)
        #expect(daysOnly.documents.count == 1)
        #expect(daysOnly.documents.first?.anchor == full.documents.last?.anchor)
        #expect(daysOnly.documents.first?.page == full.documents.last?.page)
        #expect(daysOnly.documents.first?.date == full.documents.last?.date)
        #expect(daysOnly.vocabulary == [])
        #expect(daysOnly.pageDocumentCounts == [])
        #expect(decoded(daysOnly) == daysOnly)
    }

    @Test func runsOfPagesAppendedInOrderGiveThePartOfOneAdd() {
        // Cy speaks only from message 17 on, and each page brings words of its own: the later
        // runs number new senders and tokens, and meet ones an earlier run numbered.
        let location = SourceLocation(file: "runs", line: 1, column: 1)
        let people = [
            Participant(id: "ana", name: "Ana Lúcia"), Participant(id: "bo", name: "Bo"),
            Participant(id: "cy", name: "Cy Ödegaard"),
        ]
        let messages = (0..<47).map { (n: Int) -> Message in
            let sender = n >= 17 && n % 2 == 1 ? "cy" : (n % 3 == 0 ? "bo" : "ana")
            let words = "page\(n / 10) shared w\(n % 4) see https://example.com/\(n)"
            let photo = MediaItem(source: .remote("https://x/y.png"), alt: "page\(n / 10) photo")
            let kind: MessageKind = n == 21 ? .photo(photo) : .text(words)
            return Message(
                id: "m\(n)", sender: sender, date: Date(timeIntervalSince1970: 1_714_000_000 + Double(n) * 9_000),
                kind: kind, location: location)
        }
        let conversation = Conversation(
            id: "runs", title: "Runs", participants: people, messages: messages, source: location)
        let plan = ConversationLayouter(options: LayoutOptions(), pageSize: 10).plan(conversation)
        #expect(plan.pageCount == 5)
        let sender = { (person: Participant) in
            SearchPart.Sender(name: person.name, initials: String(person.name.prefix(1)), avatar: nil)
        }
        for tokenizesText in [true, false] {
            var whole = SearchPart(conversationID: "runs", title: "Runs")
            let wholeNewest = whole.add(
                plan, pages: 0..<5, anchor: { "m-m\($0)" }, sender: sender, tokenizesText: tokenizesText)
            var split = SearchPart(conversationID: "runs", title: "Runs")
            var splitNewest: SearchPart.Document?
            for pages in [0..<1, 1..<3, 3..<3, 3..<5] {
                let run = SearchPart.Run(
                    plan, pages: pages, anchor: { "m-m\($0)" }, sender: sender, tokenizesText: tokenizesText)
                if let newest = split.append(run) { splitNewest = newest }
            }
            #expect(split == whole)
            #expect(splitNewest == wholeNewest)
            #expect(split.encodedHead() == whole.encodedHead())
            #expect(split.encodedPages(from: 0) == whole.encodedPages(from: 0))
            if tokenizesText {
                #expect(whole.senders.map(\.name) == ["Bo", "Ana Lúcia", "Cy Ödegaard"])
                #expect(whole.vocabulary.contains("from:odegaard"), "\(whole.vocabulary)")
                #expect(whole.documents.count == 47)
            }
        }
    }

    @Test func forgettingWrittenPagesKeepsTheHeadAndTheLaterPages() {
        let whole = part(id: "alpha", count: 95) { "word\($0 % 7) w\($0)" }
        var streamed = whole
        streamed.forgetPages(before: 4)
        #expect(streamed.firstLoadedPage == 4)
        #expect(streamed.documents.count == 55)
        #expect(streamed.documents(ofPage: 4) == whole.documents(ofPage: 4))
        #expect(streamed.encodedPages(from: 4) == whole.encodedPages(from: 4))
        streamed.forgetPages(before: whole.pageDocumentCounts.count)
        #expect(streamed.documents.isEmpty)
        #expect(streamed.encodedHead() == whole.encodedHead())
    }

    @Test func appendingPagesGivesTheSamePartAsAFullBuild() {
        let full = part(id: "alpha", count: 30) { "word\($0 % 7)" }
        var partial = part(id: "alpha", count: 30) { "word\($0 % 7)" }
        partial.removePages(from: 2)
        #expect(partial.documents.count == 20)
        #expect(full.documents.prefix(20) == partial.documents[...])
    }

    func files(_ parts: [SearchPart]) -> [String: [UInt8]] {
        Dictionary(
            uniqueKeysWithValues: SearchIndex.build(parts: parts).map { ($0.path, $0.bytes) })
    }

    static func pageFile(_ index: Int) -> String { index == 0 ? "index.html" : "page-\(index + 1).html" }

    @Test func theMergeReadsEachPageOnceFromHeadsAloneAndKeepsTheIndexOrder() throws {
        // Two conversations whose dates interleave (beta's repeat alpha's). Alpha's messages 55,
        // 65, 75, … are thread replies, indexed with their roots five pages back: the pages' date
        // ranges overlap, and as a page's later root comes after its earlier one, the page's
        // documents are not in date order.
        let a = part(
            id: "alpha", count: 700,
            threadRoot: { n in
                guard n >= 55, n % 10 == 5 else { return nil }
                let reply = (n - 55) / 10
                return reply / 2 * 10 + (reply % 2 == 0 ? 9 : 0)
            }
        ) { "alpha \($0) " + String(repeating: "long words here ", count: $0 % 9) }
        let b = part(id: "beta", count: 500, start: 1_714_000_000 + 3 * 20_000) { "beta w\($0 % 50)" }
        let firstPage = a.documents(ofPage: 0).map(\.date)
        #expect(firstPage != firstPage.sorted())
        #expect(firstPage.max()! > a.pageLowestDates[4])
        #expect(a.pageLowestDates[3] == a.documents(ofPage: 3).map(\.date).min())
        let expected = SearchIndex.build(parts: [b, a], jobs: 2)
        // The chunks hold every document once, by date, then conversation, then position.
        var keys: [[Int]] = []
        let chunks = Dictionary(uniqueKeysWithValues: expected.map { ($0.path, $0.bytes) })
        for number in 0..<expected.filter({ $0.path.hasPrefix("search/d/") }).count {
            let chunk = try #require(chunks[SearchIndex.chunkPath(number)])
            let text = try #require(SearchIndex.inflate(chunk))
            for row in try #require(ChunkRow.rows(of: text)) {
                keys.append([Int(row.date), row.conversation, try #require(Int(row.anchor.dropFirst(3)))])
            }
        }
        #expect(keys.count == 1200)
        #expect(keys == (keys.sorted { $0.lexicographicallyPrecedes($1) }))
        #expect(zip(keys, keys.dropFirst()).contains { $0[0] == $1[0] && $0[1] != $1[1] }, "a date repeats")
        // Heads as a build reads them: no documents; each page's file is read once.
        let heads = try [b, a].map { whole in
            let head = SearchPart(decodingHead: whole.encodedHead(), fromPage: .max) { _ in nil }
            return try #require(head)
        }
        #expect(heads.allSatisfy { $0.documents.isEmpty })
        #expect(heads.map(\.pageLowestDates) == [b, a].map(\.pageLowestDates))
        let pageFiles = [b, a].map { $0.encodedPages(from: 0) }
        let pageCount = b.pageDocumentCounts.count + a.pageDocumentCounts.count
        #expect(pageCount == (50 + 64), "alpha's 65 replies are on their roots' pages")
        for jobs in [1, 3] {
            let files = Locked<[String: [UInt8]]>([:])
            let reads = Locked<[[Int]]>([])
            SearchIndex.build(
                heads: heads,
                page: { part, page in
                    reads.update { $0.append([part, page]) }
                    return SearchPart.StoredPage(pageFiles[part][page], tokenCount: heads[part].vocabulary.count)!
                }, jobs: jobs
            ) { path, bytes in
                files.update { $0[path] = bytes }
            }
            #expect(files.value.keys.sorted() == expected.map(\.path), "jobs \(jobs)")
            #expect((expected.map { files.value[$0.path] }) == expected.map(\.bytes), "jobs \(jobs)")
            #expect(reads.value.count == pageCount, "jobs \(jobs)")
            #expect(Set(reads.value).count == pageCount, "jobs \(jobs)")
        }
    }

    @Test func aPageThatCannotBeReadFailsTheBuildWithItsError() throws {
        struct Unreadable: Error, Equatable { var page: Int }
        let whole = part(id: "alpha", count: 300) { "alpha \($0)" }
        let decodedHead = SearchPart(decodingHead: whole.encodedHead(), fromPage: .max) { _ in nil }
        let head = try #require(decodedHead)
        let pageFiles = whole.encodedPages(from: 0)
        for jobs in [1, 3] {
            #expect(throws: Unreadable(page: 20), "jobs \(jobs)") {
                try SearchIndex.build(
                    heads: [head],
                    page: { _, page throws(Unreadable) in
                        // A page past the reader's lead: the merge has begun when it fails.
                        guard page != 20 else { throw Unreadable(page: page) }
                        return SearchPart.StoredPage(pageFiles[page], tokenCount: head.vocabulary.count)!
                    }, jobs: jobs
                ) { _, _ throws(Unreadable) in }
            }
        }
    }

    @Test func indexDoesNotDependOnTheNumberOfJobs() {
        // Enough documents for several chunks, so that several threads write them.
        let a = part(id: "alpha", count: 5 * SearchIndex.minimumChunkDocuments + 60) {
            "alpha \($0) common w\($0 % 50)"
        }
        let b = part(id: "beta", count: 5 * SearchIndex.minimumChunkDocuments - 40, start: 1_714_000_500) {
            "beta w\($0 % 50)"
        }
        let one = SearchIndex.build(parts: [a, b], jobs: 1)
        #expect((one.filter { $0.path.hasPrefix("search/d/") }.count) > 4)
        for jobs in [2, 4] {
            let many = SearchIndex.build(parts: [a, b], jobs: jobs)
            #expect(one.map(\.path) == many.map(\.path))
            #expect(one.map(\.bytes) == many.map(\.bytes))
        }
    }

    @Test func indexIsDeterministicWhateverThePartOrder() {
        let a = part(id: "alpha", count: 200) { "alpha \($0) common" }
        let b = part(id: "beta", count: 150, start: 1_714_000_500) { "beta \($0) common" }
        #expect(files([a, b]) == files([b, a]))
        #expect(files([a, b]) == files([a, b]))
    }

    @Test func shardsHoldEveryTokenInOrderAndPostingsDecode() throws {
        let a = part(id: "alpha", count: 400) { "alpha \($0) common w\($0 % 50)" }
        let b = part(id: "beta", count: 300, start: 1_714_000_500) { "beta w\($0 % 50)" }
        let built = files([a, b])
        let manifest = try #require(
            JSONSerialization.jsonObject(with: Data(built["search/manifest.json"]!)) as? [String: Any])
        #expect((manifest["documents"] as? Int) == 700)
        let shards = try #require(manifest["shards"] as? [String])
        #expect(shards == (shards.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }))
        var seen: [String: [Int]] = [:]
        for number in shards.indices {
            var reader = ByteReader(try #require(built["search/t/\(number).bin"]))
            var first = true
            while !reader.atEnd {
                let readToken = reader.string()
                let token = try #require(readToken)
                if first { #expect(token == shards[number]) }
                first = false
                let postings = PostingList.decode(&reader)
                seen[token] = try #require(postings)
            }
        }
        #expect(seen["common"]?.count == 399)  // alpha's message 4 is a photo
        #expect(seen["in:beta"]?.count == 300)
        #expect(seen["has:image"]?.count == 2)
        #expect(seen["w7"]?.count == (8 + 6))
        // Documents are numbered by date: the postings of a token are ascending.
        #expect(seen["common"] == seen["common"]?.sorted())
        // Every document chunk is there and holds the documents the manifest says, within the
        // chunk bounds (the last may hold fewer).
        let counts = try #require(manifest["chunks"] as? [Int])
        #expect(counts.reduce(0, +) == 700)
        #expect(counts.count > 1)
        for (number, count) in counts.enumerated() {
            let compressed = try #require(built[SearchIndex.chunkPath(number)])
            let bytes = try #require(SearchIndex.inflate(compressed))
            #expect(compressed.count < bytes.count)
            let chunk = try #require(ChunkRow.rows(of: bytes))
            #expect(chunk.count == count)
            #expect(count <= SearchIndex.maximumChunkDocuments)
            if number < counts.count - 1 { #expect(count >= SearchIndex.minimumChunkDocuments) }
        }
        #expect(built[SearchIndex.chunkPath(counts.count)] == nil)
    }

    @Test func daysFileReadsBackItsOwnNumbersAndRefusesOtherText() {
        let days = [
            SearchIndex.Day(day: -800, first: 0), SearchIndex.Day(day: 0, first: 12),
            SearchIndex.Day(day: 19_358, first: 4_000_000_000),
        ]
        let file = SearchIndex.daysFile(days)
        #expect(SearchIndex.daysFileNumbers(file) == [-800, 0, 800, 12, 19_358, 3_999_999_988])
        #expect(SearchIndex.daysFileNumbers(SearchIndex.daysFile([])) == [])
        for text in ["", "[]", "[1,]\n", "[,1]\n", "[1,,2]\n", "[1 ,2]\n", "[-]\n", "{1}\n", "[1.5]\n", "[1e3]\n"] {
            #expect(SearchIndex.daysFileNumbers(Array(text.utf8)) == nil, Comment(rawValue: text))
        }
    }

    @Test func chunkRowsHoldEachDocumentsFieldsAsTheClientReadsThem() throws {
        let documents = [
            SearchPart.Document(
                page: 0, file: "index.html", anchor: "m-a", sender: -1, date: -86_401, flags: 0,
                text: "joined \"quoted\" \\ line\nbreak \u{2028} 🎉", tokens: []),
            SearchPart.Document(
                page: 0, file: "thread-x.html", anchor: "m-é", sender: 0, date: 1_714_000_000,
                flags: SearchPart.linkFlag, text: String(repeating: "ab", count: 100), tokens: []),
            SearchPart.Document(
                page: 1, file: "page-2.html", anchor: "", sender: 1, date: 0, flags: 5, text: "", tokens: []),
        ]
        // Part 3's senders.
        let senders = SearchIndex.SenderTable([
            [], [], [],
            [
                SearchPart.Sender(name: "Bo", initials: "B", avatar: nil),
                SearchPart.Sender(name: "Ana", initials: "A", avatar: "a.png"),
            ],
        ])
        let page = SearchPart.StoredPage(encoding: documents[...])
        var chunk = SearchIndex.ChunkRows()
        var identityEnds: [Int] = []
        for document in page.documents {
            chunk.startRow()
            SearchIndex.appendRowIdentity(document, of: page, part: 3, senders: senders, to: &chunk.writer)
            identityEnds.append(chunk.writer.bytes.count)
            SearchIndex.appendRowRest(document, of: page, to: &chunk.writer)
        }
        let bytes = chunk.finish()
        let rows = try #require(ChunkRow.rows(of: bytes))
        #expect(rows.map(\.conversation) == [3, 3, 3])
        #expect(
            rows.map(\.sender) == [-1, senders.number(ofSender: 0, inPart: 3), senders.number(ofSender: 1, inPart: 3)])
        #expect(rows.map(\.date) == documents.map(\.date))
        #expect(rows.map(\.file) == documents.map(\.file))
        #expect(rows.map(\.anchor) == documents.map(\.anchor))
        #expect(rows.map(\.flags) == documents.map(\.flags))
        #expect(rows.map(\.text) == documents.map(\.text))
        // The split an update makes: the same rows, and each key's date, part and identity's end.
        let split = try #require(SearchIndex.ChunkRows.rows(of: bytes))
        #expect((split.map { Array($0.row) }) == rows.map(\.bytes))
        #expect(split.map(\.key.date) == documents.map(\.date))
        #expect(split.map(\.key.part) == [3, 3, 3])
        #expect(split.map(\.key.identityEnd) == identityEnds)
        #expect(SearchIndex.ChunkRows.rows(of: Array(bytes.dropLast())) == nil, "cut short")
        #expect(SearchIndex.ChunkRows.rows(of: [])?.count == 0)
    }

    @Test func rawDeflateRoundTripsAndRefusesWhatIsNotAWholeStream() throws {
        // Larger than the inflater's first output buffer (it grows), and compressible (JSON-like, repeated words).
        let text = (0..<20_000).map { "[\($0 % 97),\"word\($0 % 13)\",\"café ☕\"]" }.joined(separator: ",")
        let bytes = Array(text.utf8)
        let compressed = SearchIndex.deflate(bytes)
        #expect(compressed.count < (bytes.count / 4))
        #expect(SearchIndex.inflate(compressed) == bytes)
        #expect(SearchIndex.deflate(bytes) == compressed, "the same bytes compress the same way")
        #expect(SearchIndex.inflate(SearchIndex.deflate([])) == [])
        #expect(SearchIndex.inflate(Array(compressed.prefix(compressed.count / 2))) == nil, "cut short")
        #expect(SearchIndex.inflate(compressed + [0x00, 0x01]) == nil, "bytes after the stream")
        #expect(SearchIndex.inflate(Array("not deflate at all, just text".utf8)) == nil)
    }
}

/// A value several threads read and change under a lock.
final class Locked<Value>: @unchecked Sendable {
    private var stored: Value
    private let lock = NSLock()

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}

/// A row of a document chunk as `search.js` reads it (`parseChunk`), decoded here apart from the
/// index's own reader: varints, the sender plus one, the date zig-zag, strings as length and UTF-8.
struct ChunkRow {
    var conversation: Int
    var sender: Int
    var date: Int64
    var file: String
    var anchor: String
    var flags: Int
    var text: String
    /// The row's bytes.
    var bytes: [UInt8]

    /// The rows of a chunk's inflated bytes; `nil` when a row is cut short.
    static func rows(of bytes: [UInt8]) -> [ChunkRow]? {
        var position = 0
        func varint() -> UInt64? {
            var (value, shift): (UInt64, UInt64) = (0, 0)
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
            return nil
        }
        func string() -> String? {
            guard let count = varint().map(Int.init), position + count <= bytes.count else { return nil }
            defer { position += count }
            return String(decoding: bytes[position..<(position + count)], as: UTF8.self)
        }
        var rows: [ChunkRow] = []
        while position < bytes.count {
            let start = position
            guard let conversation = varint(), let sender = varint(), let zigzag = varint(), let file = string(),
                let anchor = string(), let flags = varint(), let text = string()
            else { return nil }
            let date = Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
            rows.append(
                ChunkRow(
                    conversation: Int(conversation), sender: Int(sender) - 1, date: date, file: file, anchor: anchor,
                    flags: Int(flags), text: text, bytes: Array(bytes[start..<position])))
        }
        return rows
    }
}
