import Foundation
import ScrollbackLayout
import ScrollbackModel
import XCTest

@testable import ScrollbackSearch

final class SearchIndexTests: XCTestCase {
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

    func testPartRecordsPagesAnchorsSendersFlagsAndDays() {
        let made = part(id: "alpha", count: 25) { "Message \($0) về café" }
        XCTAssertEqual(made.documents.count, 25)
        XCTAssertEqual(made.documents[24].page, 2)
        XCTAssertEqual(made.documents[24].anchor, "m-m24")
        XCTAssertEqual(made.senders.map(\.name), ["Bo", "Ana Lúcia"])
        XCTAssertEqual(made.documents[4].flags, SearchPart.imageFlag)
        XCTAssertEqual(made.documents[4].text, "red box")
        let tokens = Set(made.documents[1].tokens.map { made.vocabulary[$0] })
        XCTAssertTrue(tokens.isSuperset(of: ["cafe", "ve", "from:ana", "from:lucia"]), "\(tokens)")
        // 20,000 s apart: a new UTC day every 4 or 5 messages; each day once, on its first message.
        XCTAssertEqual(made.days.first?.anchor, "m-m0")
        XCTAssertEqual(Set(made.days.map(\.iso)).count, made.days.count)
        XCTAssertGreaterThan(made.days.count, 4)
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

    func testPartRoundTripsThroughItsCacheFiles() throws {
        let made = part(id: "alpha", count: 30) { "Dũng said \($0) 🍕" }
        XCTAssertEqual(made.pageDocumentCounts, [10, 10, 10])
        XCTAssertEqual(decoded(made), made)
        XCTAssertNil(SearchPart(decodingHead: Array(made.encodedHead().dropLast())) { _ in nil })
        XCTAssertNil(decoded(made, pages: [1: nil]), "a page file missing")
        XCTAssertNil(decoded(made, pages: [1: made.encodedPages(from: 2)[0].dropLast()]), "a page file cut short")
        // Read from page 2 on: the documents of the pages before are neither read nor needed.
        let tail = try XCTUnwrap(decoded(made, fromPage: 2, pages: [0: nil, 1: nil]))
        XCTAssertEqual(tail.firstLoadedPage, 2)
        XCTAssertEqual(tail.firstDocument, 20)
        XCTAssertEqual(tail.documents[...], made.documents[20...])
        XCTAssertEqual(tail.vocabulary, made.vocabulary)
        XCTAssertEqual(tail.days, made.days)
    }

    func testAPagesFileKeepsEachDocumentsFileWhenItRepeatsOrChanges() throws {
        let files = ["page-2.html", "page-2.html", "thread-m3.html", "page-2.html", "", "", "thread-é.html"]
        let documents = files.enumerated().map { number, file in
            SearchPart.Document(
                page: 1, file: file, anchor: "m-\(number)", sender: number % 2 - 1, date: 1_714_000_000 + Int64(number),
                flags: 0, text: "text \(number)", tokens: [number, 300 + number, 20_000])
        }
        let page = SearchPart.StoredPage(encoding: documents[...])
        XCTAssertEqual(page.decoded(), documents)
        // A repeated file is written once: shorter than the same page with every file different.
        let distinct = documents.enumerated().map { number, document in
            var document = document
            document.file = "f\(number)" + document.file
            return document
        }
        XCTAssertLessThan(page.bytes.count, SearchPart.StoredPage(encoding: distinct[...]).bytes.count)
        // A document naming "the previous file" with none before it is refused.
        var first = ByteWriter()
        first.bytes = Array(page.bytes.prefix(4))
        first.varint(1)  // one document
        first.varint(1)  // its page
        first.varint(0)  // "the previous document's file"
        XCTAssertNil(SearchPart.StoredPage(first.bytes + page.bytes.dropFirst(first.bytes.count), tokenCount: .max))
    }

    func testVarintsReadBackAroundTheirByteLengths() {
        let values = [0, 1, 0x7F, 0x80, 0x81, 0x3FFF, 0x4000, 0x4001, 0x1F_FFFF, 0x20_0000, Int(Int32.max), Int.max]
        var writer = ByteWriter()
        for value in values { writer.varint(value) }
        var reader = ByteReader(writer.bytes)
        XCTAssertEqual(values.map { _ in reader.varint() }, values)
        XCTAssertTrue(reader.atEnd)
        // Cut short after a continuation byte: no value.
        for length in [1, 2] {
            var cut = ByteReader(Array(repeating: 0x80, count: length))
            XCTAssertNil(cut.varint(), "\(length) continuation bytes")
        }
    }

    func testAnAppendReadsAndWritesOnlyTheLastPagesAndGivesTheFullBuildsPart() throws {
        let previous = part(id: "alpha", count: 30) { "word\($0 % 7)" }
        let previousPages = previous.encodedPages(from: 0)
        // As the append path does: the last page read, dropped and made again with the new messages.
        var appended = try XCTUnwrap(decoded(previous, fromPage: 2, pages: [0: nil, 1: nil]))
        appended.removePages(from: 2)
        XCTAssertEqual(appended.documents, [])
        add(to: &appended, count: 45, firstPage: 2) { $0 < 30 ? "word\($0 % 7)" : "new\($0)" }
        XCTAssertEqual(appended.pageDocumentCounts, [10, 10, 10, 10, 5])
        XCTAssertEqual(appended.documents.count, 25)
        // Known tokens keep their numbers, so the kept page files stay right.
        XCTAssertEqual(appended.vocabulary.prefix(previous.vocabulary.count), previous.vocabulary[...])
        let written = appended.encodedPages(from: 2)
        XCTAssertEqual(written.count, 3)
        let files = Array(previousPages.prefix(2)) + written
        let whole = try XCTUnwrap(SearchPart(decodingHead: appended.encodedHead()) { files[$0] })
        let full = part(id: "alpha", count: 45) { $0 < 30 ? "word\($0 % 7)" : "new\($0)" }
        XCTAssertEqual(whole, full)
        XCTAssertEqual(full.encodedPages(from: 0), files)
        XCTAssertEqual(full.encodedHead(), appended.encodedHead())
    }

    func testWithoutSearchOnlyTheDaysAndTheNewestMessageAreKept() {
        let full = part(id: "alpha", count: 25) { "Message \($0)" }
        let daysOnly = part(id: "alpha", count: 25, tokenizesText: false) { "Message \($0)" }
        XCTAssertEqual(daysOnly.days, full.days)
        XCTAssertEqual(daysOnly.documents.count, 1)
        XCTAssertEqual(daysOnly.documents.first?.anchor, full.documents.last?.anchor)
        XCTAssertEqual(daysOnly.documents.first?.page, full.documents.last?.page)
        XCTAssertEqual(daysOnly.documents.first?.date, full.documents.last?.date)
        XCTAssertEqual(daysOnly.vocabulary, [])
        XCTAssertEqual(daysOnly.pageDocumentCounts, [])
        XCTAssertEqual(decoded(daysOnly), daysOnly)
    }

    func testRunsOfPagesAppendedInOrderGiveThePartOfOneAdd() {
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
        XCTAssertEqual(plan.pageCount, 5)
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
            XCTAssertEqual(split, whole)
            XCTAssertEqual(splitNewest, wholeNewest)
            XCTAssertEqual(split.encodedHead(), whole.encodedHead())
            XCTAssertEqual(split.encodedPages(from: 0), whole.encodedPages(from: 0))
            if tokenizesText {
                XCTAssertEqual(whole.senders.map(\.name), ["Bo", "Ana Lúcia", "Cy Ödegaard"])
                XCTAssertTrue(whole.vocabulary.contains("from:odegaard"), "\(whole.vocabulary)")
                XCTAssertEqual(whole.documents.count, 47)
            }
        }
    }

    func testForgettingWrittenPagesKeepsTheHeadAndTheLaterPages() {
        let whole = part(id: "alpha", count: 95) { "word\($0 % 7) w\($0)" }
        var streamed = whole
        streamed.forgetPages(before: 4)
        XCTAssertEqual(streamed.firstLoadedPage, 4)
        XCTAssertEqual(streamed.documents.count, 55)
        XCTAssertEqual(streamed.documents(ofPage: 4), whole.documents(ofPage: 4))
        XCTAssertEqual(streamed.encodedPages(from: 4), whole.encodedPages(from: 4))
        streamed.forgetPages(before: whole.pageDocumentCounts.count)
        XCTAssertTrue(streamed.documents.isEmpty)
        XCTAssertEqual(streamed.encodedHead(), whole.encodedHead())
    }

    func testAppendingPagesGivesTheSamePartAsAFullBuild() {
        let full = part(id: "alpha", count: 30) { "word\($0 % 7)" }
        var partial = part(id: "alpha", count: 30) { "word\($0 % 7)" }
        partial.removePages(from: 2)
        XCTAssertEqual(partial.documents.count, 20)
        XCTAssertEqual(full.documents.prefix(20), partial.documents[...])
    }

    func files(_ parts: [SearchPart]) -> [String: [UInt8]] {
        Dictionary(
            uniqueKeysWithValues: SearchIndex.build(parts: parts).map { ($0.path, $0.bytes) })
    }

    static func pageFile(_ index: Int) -> String { index == 0 ? "index.html" : "page-\(index + 1).html" }

    func testTheMergeReadsEachPageOnceFromHeadsAloneAndKeepsTheIndexOrder() throws {
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
        XCTAssertNotEqual(firstPage, firstPage.sorted())
        XCTAssertGreaterThan(firstPage.max()!, a.pageLowestDates[4])
        XCTAssertEqual(a.pageLowestDates[3], a.documents(ofPage: 3).map(\.date).min())
        let expected = SearchIndex.build(parts: [b, a], jobs: 2)
        // The chunks hold every document once, by date, then conversation, then position.
        var keys: [[Int]] = []
        let chunks = Dictionary(uniqueKeysWithValues: expected.map { ($0.path, $0.bytes) })
        for number in 0..<expected.filter({ $0.path.hasPrefix("search/d/") }).count {
            let text = try XCTUnwrap(SearchIndex.inflate(try XCTUnwrap(chunks[SearchIndex.chunkPath(number)])))
            for row in try XCTUnwrap(ChunkRow.rows(of: text)) {
                keys.append([Int(row.date), row.conversation, try XCTUnwrap(Int(row.anchor.dropFirst(3)))])
            }
        }
        XCTAssertEqual(keys.count, 1200)
        XCTAssertEqual(keys, keys.sorted { $0.lexicographicallyPrecedes($1) })
        XCTAssertTrue(zip(keys, keys.dropFirst()).contains { $0[0] == $1[0] && $0[1] != $1[1] }, "a date repeats")
        // Heads as a build reads them: no documents; each page's file is read once.
        let heads = try [b, a].map { whole in
            try XCTUnwrap(SearchPart(decodingHead: whole.encodedHead(), fromPage: .max) { _ in nil })
        }
        XCTAssertTrue(heads.allSatisfy(\.documents.isEmpty))
        XCTAssertEqual(heads.map(\.pageLowestDates), [b, a].map(\.pageLowestDates))
        let pageFiles = [b, a].map { $0.encodedPages(from: 0) }
        let pageCount = b.pageDocumentCounts.count + a.pageDocumentCounts.count
        XCTAssertEqual(pageCount, 50 + 64, "alpha's 65 replies are on their roots' pages")
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
            XCTAssertEqual(files.value.keys.sorted(), expected.map(\.path), "jobs \(jobs)")
            XCTAssertEqual(expected.map { files.value[$0.path] }, expected.map(\.bytes), "jobs \(jobs)")
            XCTAssertEqual(reads.value.count, pageCount, "jobs \(jobs)")
            XCTAssertEqual(Set(reads.value).count, pageCount, "jobs \(jobs)")
        }
    }

    func testAPageThatCannotBeReadFailsTheBuildWithItsError() throws {
        struct Unreadable: Error, Equatable { var page: Int }
        let whole = part(id: "alpha", count: 300) { "alpha \($0)" }
        let head = try XCTUnwrap(SearchPart(decodingHead: whole.encodedHead(), fromPage: .max) { _ in nil })
        let pageFiles = whole.encodedPages(from: 0)
        for jobs in [1, 3] {
            XCTAssertThrowsError(
                try SearchIndex.build(
                    heads: [head],
                    page: { _, page throws(Unreadable) in
                        // A page past the reader's lead: the merge has begun when it fails.
                        guard page != 20 else { throw Unreadable(page: page) }
                        return SearchPart.StoredPage(pageFiles[page], tokenCount: head.vocabulary.count)!
                    }, jobs: jobs
                ) { _, _ throws(Unreadable) in }
            ) { error in
                XCTAssertEqual(error as? Unreadable, Unreadable(page: 20), "jobs \(jobs)")
            }
        }
    }

    func testIndexDoesNotDependOnTheNumberOfJobs() {
        // Enough documents for several chunks, so that several threads write them.
        let a = part(id: "alpha", count: 5 * SearchIndex.minimumChunkDocuments + 60) {
            "alpha \($0) common w\($0 % 50)"
        }
        let b = part(id: "beta", count: 5 * SearchIndex.minimumChunkDocuments - 40, start: 1_714_000_500) {
            "beta w\($0 % 50)"
        }
        let one = SearchIndex.build(parts: [a, b], jobs: 1)
        XCTAssertGreaterThan(one.filter { $0.path.hasPrefix("search/d/") }.count, 4)
        for jobs in [2, 4] {
            let many = SearchIndex.build(parts: [a, b], jobs: jobs)
            XCTAssertEqual(one.map(\.path), many.map(\.path))
            XCTAssertEqual(one.map(\.bytes), many.map(\.bytes))
        }
    }

    func testIndexIsDeterministicWhateverThePartOrder() {
        let a = part(id: "alpha", count: 200) { "alpha \($0) common" }
        let b = part(id: "beta", count: 150, start: 1_714_000_500) { "beta \($0) common" }
        XCTAssertEqual(files([a, b]), files([b, a]))
        XCTAssertEqual(files([a, b]), files([a, b]))
    }

    func testShardsHoldEveryTokenInOrderAndPostingsDecode() throws {
        let a = part(id: "alpha", count: 400) { "alpha \($0) common w\($0 % 50)" }
        let b = part(id: "beta", count: 300, start: 1_714_000_500) { "beta w\($0 % 50)" }
        let built = files([a, b])
        let manifest = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(built["search/manifest.json"]!)) as? [String: Any])
        XCTAssertEqual(manifest["documents"] as? Int, 700)
        let shards = try XCTUnwrap(manifest["shards"] as? [String])
        XCTAssertEqual(shards, shards.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        var seen: [String: [Int]] = [:]
        for number in shards.indices {
            var reader = ByteReader(try XCTUnwrap(built["search/t/\(number).bin"]))
            var first = true
            while !reader.atEnd {
                let token = try XCTUnwrap(reader.string())
                if first { XCTAssertEqual(token, shards[number]) }
                first = false
                seen[token] = try XCTUnwrap(SearchIndex.decodePostings(&reader))
            }
        }
        XCTAssertEqual(seen["common"]?.count, 399)  // alpha's message 4 is a photo
        XCTAssertEqual(seen["in:beta"]?.count, 300)
        XCTAssertEqual(seen["has:image"]?.count, 2)
        XCTAssertEqual(seen["w7"]?.count, 8 + 6)
        // Documents are numbered by date: the postings of a token are ascending.
        XCTAssertEqual(seen["common"], seen["common"]?.sorted())
        // Every document chunk is there and holds the documents the manifest says, within the
        // chunk bounds (the last may hold fewer).
        let counts = try XCTUnwrap(manifest["chunks"] as? [Int])
        XCTAssertEqual(counts.reduce(0, +), 700)
        XCTAssertGreaterThan(counts.count, 1)
        for (number, count) in counts.enumerated() {
            let compressed = try XCTUnwrap(built[SearchIndex.chunkPath(number)])
            let bytes = try XCTUnwrap(SearchIndex.inflate(compressed))
            XCTAssertLessThan(compressed.count, bytes.count)
            let chunk = try XCTUnwrap(ChunkRow.rows(of: bytes))
            XCTAssertEqual(chunk.count, count)
            XCTAssertLessThanOrEqual(count, SearchIndex.maximumChunkDocuments)
            if number < counts.count - 1 { XCTAssertGreaterThanOrEqual(count, SearchIndex.minimumChunkDocuments) }
        }
        XCTAssertNil(built[SearchIndex.chunkPath(counts.count)])
    }

    /// The files of `SearchIndex.update` over the `previous` files, and how many it kept; `nil`
    /// when it declined.
    func update(_ changes: [SearchIndex.PartChange], previous: [String: [UInt8]]) -> Updated? {
        var files: [String: [UInt8]] = [:]
        var kept = Set<String>()
        let updated = SearchIndex.update(
            changes, previous: { previous[$0] }, jobs: 2,
            write: { path, bytes in files[path] = bytes },
            keep: { previousPath, path in
                files[path] = previous[previousPath]
                kept.insert(path)
            })
        if !updated { XCTAssertTrue(files.isEmpty, "an update that declines hands nothing over") }
        return updated ? Updated(files: files, kept: kept) : nil
    }

    /// What an update made (no `CustomStringConvertible` bytes in failure messages).
    struct Updated: CustomStringConvertible {
        var files: [String: [UInt8]]
        var kept: Set<String>
        var description: String { "\(files.count) files, \(kept.count) kept" }
    }

    func testUpdateAfterAppendsMakesTheFilesABuildMakesAndKeepsTheRest() throws {
        func text(_ conversation: String) -> (Int) -> String {
            { "\(conversation) \($0) common w\($0 % 50) café" }
        }
        // Gamma ends early: what is added to it sorts among the others' documents, and moves them.
        let start = 1_714_000_000.0
        let counts = ["alpha": 900, "beta": 700, "gamma": 60]
        let starts = ["alpha": start, "beta": start + 500, "gamma": start + 3_000_000]
        func parts(_ added: [String: Int]) -> [SearchPart] {
            counts.keys.sorted().map { id in
                part(id: id, count: counts[id]! + (added[id] ?? 0), start: starts[id]!, text: text(id))
            }
        }
        let before = parts([:])
        let previous = files(before)
        for added in [["alpha": 1], ["gamma": 1], ["beta": 30, "gamma": 5], [:]] {
            let after = parts(added)
            let changes = zip(before, after).map { old, new in
                added[new.conversationID] == nil
                    ? SearchIndex.PartChange.unchanged(conversationID: new.conversationID)
                    : .changed(previous: old, current: new)
            }
            let result = try XCTUnwrap(update(changes, previous: previous), "\(added)")
            let expected = files(after)
            XCTAssertEqual(result.files.keys.sorted(), expected.keys.sorted(), "\(added)")
            for (path, bytes) in expected { XCTAssertEqual(result.files[path], bytes, "\(path) after \(added)") }
            // Only the chunks the new documents land in (and the next, until the boundaries agree) are new.
            let chunks = expected.keys.filter { $0.hasPrefix("search/d/") }
            let newChunks = chunks.filter { !result.kept.contains($0) }
            XCTAssertLessThanOrEqual(newChunks.count, 2 * added.count, "\(added): \(newChunks.sorted())")
            if added.isEmpty { XCTAssertEqual(result.kept.count, expected.count) }
        }
    }

    func testAnAppendAfterEveryOldDocumentReadsOnlyTheShardsItsWordsFallIn() throws {
        // Two words of its own per message: enough entries for several shards.
        func text(_ id: String) -> (Int) -> String {
            { n in
                guard n < 3_000 || id != "alpha" else {
                    // A burst of new words in one range: its shards split, the later ones are renumbered.
                    return n % 2 == 0 ? "alpha common" : (0..<60).map { "kk\(n)x\($0)" }.joined(separator: " ")
                }
                return "\(id) common k\(n * 7919 % 10_007)\(id) z\(n)\(id)"
            }
        }
        let start = 1_714_000_000.0
        func parts(alpha: Int) -> [SearchPart] {
            [
                part(id: "alpha", count: alpha, start: start, text: text("alpha")),
                part(id: "beta", count: 2_000, start: start + 10, text: text("beta")),
            ]
        }
        let before = parts(alpha: 3_000)
        let previous = files(before)
        let oldShards = previous.keys.filter { $0.hasPrefix("search/t/") }.count
        XCTAssertGreaterThan(oldShards, 5)
        for added in [1, 2, 400] {
            let after = parts(alpha: 3_000 + added)
            var read = Set<String>()
            var kept = Set<String>()
            var made: [String: [UInt8]] = [:]
            let changes: [SearchIndex.PartChange] = [
                .changed(previous: before[0], current: after[0]), .unchanged(conversationID: "beta"),
            ]
            XCTAssertTrue(
                SearchIndex.update(
                    changes,
                    previous: { path in
                        read.insert(path)
                        return previous[path]
                    }, jobs: 2, write: { made[$0] = $1 },
                    keep: { previousPath, path in
                        made[path] = previous[previousPath]
                        kept.insert(path)
                    }))
            let expected = files(after)
            XCTAssertEqual(made.keys.sorted(), expected.keys.sorted(), "+\(added)")
            for (path, bytes) in expected { XCTAssertEqual(made[path], bytes, "\(path) after +\(added)") }
            if added == 400 {
                // The burst's range split into new shards; every later one was packed again.
                XCTAssertGreaterThan(expected.keys.filter { $0.hasPrefix("search/t/") }.count, oldShards + 2)
            } else {
                // A few postings more: the shards its words miss are kept, and are not even read.
                let shardsRead = read.filter { $0.hasPrefix("search/t/") }.count
                let shardsKept = kept.filter { $0.hasPrefix("search/t/") }.count
                XCTAssertLessThan(shardsRead, oldShards, "+\(added): \(shardsRead) of \(oldShards) shards read")
                XCTAssertGreaterThan(shardsKept, 0, "+\(added)")
            }
        }
    }

    func testTokensAreOrderedByTheirUTF8Bytes() {
        let tokens = ["b", "a", "ab", "", "é", "z", "東京", "東", "from:z", "in:a", "ä", "😀", "a\u{0}"]
        let expected = tokens.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        XCTAssertEqual(tokens.sorted(by: SearchIndex.tokenPrecedes), expected)
        // Tokens that share their first eight bytes, or end within them.
        let long = tokens + ["abcdefgh", "abcdefghi", "abcdefgh\u{0}", "abcdefgg", "abcdefgh1", "abc", "ab\u{0}\u{0}"]
        XCTAssertEqual(
            SearchIndex.sortedTokens(long), long.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        XCTAssertEqual(expected.first, "")
        XCTAssertFalse(SearchIndex.tokenPrecedes("a", "a"))
    }

    func testUpdateDeclinesWhatIsNotAnAppend() {
        let alpha = part(id: "alpha", count: 300) { "alpha \($0)" }
        let beta = part(id: "beta", count: 200, start: 1_714_000_500) { "beta \($0)" }
        let previous = files([alpha, beta])
        // A message changed in the middle.
        let edited = part(id: "alpha", count: 300) { $0 == 5 ? "edited" : "alpha \($0)" }
        XCTAssertEqual(edited.documents.count, alpha.documents.count)
        XCTAssertNotEqual(edited.documents[5], alpha.documents[5])
        XCTAssertNil(
            update(
                [.changed(previous: alpha, current: edited), .unchanged(conversationID: beta.conversationID)],
                previous: previous))
        // A conversation more.
        let gamma = part(id: "gamma", count: 3) { "gamma \($0)" }
        XCTAssertNil(
            update(
                [
                    .unchanged(conversationID: alpha.conversationID), .unchanged(conversationID: beta.conversationID),
                    .unchanged(conversationID: gamma.conversationID),
                ], previous: previous))
        // A sender more: every sender number would move.
        var renamed = beta
        renamed.senders.append(SearchPart.Sender(name: "Aaron", initials: "A", avatar: nil))
        XCTAssertNil(
            update(
                [.unchanged(conversationID: alpha.conversationID), .changed(previous: beta, current: renamed)],
                previous: previous))
        // No previous index, or a damaged one.
        XCTAssertNil(
            update(
                [.unchanged(conversationID: alpha.conversationID), .unchanged(conversationID: beta.conversationID)],
                previous: [:]))
        // The last chunk, which the next document lands in, damaged.
        var damaged = previous
        let lastChunk = previous.keys.filter { $0.hasPrefix("search/d/") }.count - 1
        damaged[SearchIndex.chunkPath(lastChunk)] = Array("not deflate".utf8)
        let longer = part(id: "alpha", count: 301) { "alpha \($0)" }
        XCTAssertNotNil(
            update(
                [.changed(previous: alpha, current: longer), .unchanged(conversationID: beta.conversationID)],
                previous: previous))
        XCTAssertNil(
            update(
                [.changed(previous: alpha, current: longer), .unchanged(conversationID: beta.conversationID)],
                previous: damaged))
    }

    /// An ascending list of up to 300 documents whose gaps go up to 1, 2, 3, 9, 40 or 300 by
    /// `round`: dense lists (bitmaps) and sparse ones (deltas).
    private static func randomPostings(round: Int, using generator: inout some RandomNumberGenerator) -> [Int32] {
        let gap = [1, 2, 3, 9, 40, 300][round % 6]
        var documents: [Int32] = []
        var next = Int32.random(in: 0..<50, using: &generator)
        for _ in 0..<Int.random(in: 1..<300, using: &generator) {
            documents.append(next)
            next += Int32.random(in: 1...Int32(gap), using: &generator)
        }
        return documents
    }

    func testMovedPostingsAreThePostingsOfTheMovedDocuments() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<400 {
            // Sparse lists (deltas), dense ones (bitmaps), and lists a move turns from one into the other.
            let documents = Self.randomPostings(round: round, using: &generator)
            let insertion = (0..<Int.random(in: 0..<4, using: &generator))
                .map { _ in Int.random(in: 0...(Int(documents.last!) + 10), using: &generator) }.sorted()
            let moved = documents.map { document in Int32(Int(document) + insertion.filter { $0 <= document }.count) }
            var expected = ByteWriter()
            SearchIndex.encodePostings(moved, into: &expected)
            var original = ByteWriter()
            SearchIndex.encodePostings(documents, into: &original)
            var reader = ByteReader(original.bytes + [0x7F])
            let result = try XCTUnwrap(SearchIndex.movePostings(&reader, insertion: insertion))
            XCTAssertEqual(result ?? original.bytes, expected.bytes, "\(documents) moved at \(insertion)")
            XCTAssertEqual(result == nil, moved == documents)
            XCTAssertEqual(reader.offset, original.bytes.count, "reads the list and no further")
        }
    }

    func testPostingsWithDocumentsAddedAreThePostingsOfAllOfThem() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<600 {
            // Sparse lists (deltas) and dense ones (bitmaps); new documents right after the last
            // one, far after it (a dense list may turn into deltas, a sparse one into a bitmap)
            // or among the old ones (decoded again).
            let documents = Self.randomPostings(round: round, using: &generator)
            let last = Int(documents.last!)
            var adding: [Int32] = []
            var candidate = [last + 1, last + 1 + Int.random(in: 0..<5000, using: &generator), Int(documents[0]) + 1][
                (round / 6) % 3]
            for _ in 0..<Int.random(in: 1..<(round % 5 == 0 ? 400 : 4), using: &generator) {
                adding.append(Int32(candidate))
                candidate += Int.random(in: 1...[1, 2, 50][round % 3], using: &generator)
            }
            // Insertion points after the list (nothing moves), or none.
            let insertion = round % 4 == 0 ? [last + 1 + Int.random(in: 0..<10, using: &generator)] : []
            let moved = documents.map { document in Int32(Int(document) + insertion.filter { $0 <= document }.count) }
            let all = Set(moved).union(adding).sorted()
            guard all.count == moved.count + adding.count else { continue }  // an added number clashed
            var expected = ByteWriter()
            SearchIndex.encodePostings(all, into: &expected)
            var original = ByteWriter()
            SearchIndex.encodePostings(documents, into: &original)
            var reader = ByteReader(original.bytes + [0x7F])
            let result = try XCTUnwrap(SearchIndex.movePostings(&reader, insertion: insertion, adding: adding))
            XCTAssertEqual(result, expected.bytes, "\(documents) adding \(adding) at \(insertion)")
            XCTAssertEqual(reader.offset, original.bytes.count, "reads the list and no further")
        }
    }

    func testPostingListsInSharedBlocksEncodeAsListsOfTheirOwn() {
        // Lists of every length around the blocks' size, filled interleaved as a merge fills
        // them, with gaps that take one to four varint bytes.
        var generator = SystemRandomNumberGenerator()
        let tokenCount = 300
        let lists = PostingLists(tokenCount: tokenCount)
        var expected = [[Int32]](repeating: [], count: tokenCount)
        for document in Int32(0)..<3_000 {
            for token in 0..<tokenCount where Int.random(in: 0..<(token + 2), using: &generator) == 0 {
                lists.add(document * 997, to: token)
                expected[token].append(document * 997)
            }
        }
        for token in 0..<tokenCount where !expected[token].isEmpty {
            XCTAssertEqual(lists.count(token), expected[token].count)
            var made = ByteWriter()
            lists.list(token).encode(into: &made)
            XCTAssertEqual(made.bytes, SearchIndex.entry("", expected[token]).dropFirst(1).map { $0 }, "token \(token)")
        }
    }

    func testLargePostingListsUseBitmaps() {
        var dense = ByteWriter()
        SearchIndex.encodePostings((0..<1000).map(Int32.init), into: &dense)
        var sparse = ByteWriter()
        SearchIndex.encodePostings([3, 5000, 90_000], into: &sparse)
        XCTAssertLessThan(dense.bytes.count, 140)
        var reader = ByteReader(dense.bytes)
        XCTAssertEqual(SearchIndex.decodePostings(&reader), Array(0..<1000))
        reader = ByteReader(sparse.bytes)
        XCTAssertEqual(SearchIndex.decodePostings(&reader), [3, 5000, 90_000])
    }

    func testDaysFileReadsBackItsOwnNumbersAndRefusesOtherText() {
        let days = [
            SearchIndex.Day(day: -800, first: 0), SearchIndex.Day(day: 0, first: 12),
            SearchIndex.Day(day: 19_358, first: 4_000_000_000),
        ]
        let file = SearchIndex.daysFile(days)
        XCTAssertEqual(SearchIndex.daysFileNumbers(file), [-800, 0, 800, 12, 19_358, 3_999_999_988])
        XCTAssertEqual(SearchIndex.daysFileNumbers(SearchIndex.daysFile([])), [])
        for text in ["", "[]", "[1,]\n", "[,1]\n", "[1,,2]\n", "[1 ,2]\n", "[-]\n", "{1}\n", "[1.5]\n", "[1e3]\n"] {
            XCTAssertNil(SearchIndex.daysFileNumbers(Array(text.utf8)), text)
        }
    }

    func testChunkRowsHoldEachDocumentsFieldsAsTheClientReadsThem() throws {
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
        let rows = try XCTUnwrap(ChunkRow.rows(of: bytes))
        XCTAssertEqual(rows.map(\.conversation), [3, 3, 3])
        XCTAssertEqual(
            rows.map(\.sender), [-1, senders.number(ofSender: 0, inPart: 3), senders.number(ofSender: 1, inPart: 3)])
        XCTAssertEqual(rows.map(\.date), documents.map(\.date))
        XCTAssertEqual(rows.map(\.file), documents.map(\.file))
        XCTAssertEqual(rows.map(\.anchor), documents.map(\.anchor))
        XCTAssertEqual(rows.map(\.flags), documents.map(\.flags))
        XCTAssertEqual(rows.map(\.text), documents.map(\.text))
        // The split an update makes: the same rows, and each key's date, part and identity's end.
        let split = try XCTUnwrap(SearchIndex.ChunkRows.rows(of: bytes))
        XCTAssertEqual(split.map { Array($0.row) }, rows.map(\.bytes))
        XCTAssertEqual(split.map(\.key.date), documents.map(\.date))
        XCTAssertEqual(split.map(\.key.part), [3, 3, 3])
        XCTAssertEqual(split.map(\.key.identityEnd), identityEnds)
        XCTAssertNil(SearchIndex.ChunkRows.rows(of: Array(bytes.dropLast())), "cut short")
        XCTAssertEqual(SearchIndex.ChunkRows.rows(of: [])?.count, 0)
    }

    func testRawDeflateRoundTripsAndRefusesWhatIsNotAWholeStream() throws {
        // Larger than the inflater's first output buffer (it grows), and compressible (JSON-like, repeated words).
        let text = (0..<20_000).map { "[\($0 % 97),\"word\($0 % 13)\",\"café ☕\"]" }.joined(separator: ",")
        let bytes = Array(text.utf8)
        let compressed = SearchIndex.deflate(bytes)
        XCTAssertLessThan(compressed.count, bytes.count / 4)
        XCTAssertEqual(SearchIndex.inflate(compressed), bytes)
        XCTAssertEqual(SearchIndex.deflate(bytes), compressed, "the same bytes compress the same way")
        XCTAssertEqual(SearchIndex.inflate(SearchIndex.deflate([])), [])
        XCTAssertNil(SearchIndex.inflate(Array(compressed.prefix(compressed.count / 2))), "cut short")
        XCTAssertNil(SearchIndex.inflate(compressed + [0x00, 0x01]), "bytes after the stream")
        XCTAssertNil(SearchIndex.inflate(Array("not deflate at all, just text".utf8)))
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
