import Foundation
import ScrollbackLayout
import ScrollbackModel
import Testing

@testable import ScrollbackSearch

/// The index's update after an append, and the posting lists it moves and extends.
extension SearchIndexTests {
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
        if !updated { #expect(files.isEmpty, "an update that declines hands nothing over") }
        return updated ? Updated(files: files, kept: kept) : nil
    }

    /// What an update made (no `CustomStringConvertible` bytes in failure messages).
    struct Updated: CustomStringConvertible {
        var files: [String: [UInt8]]
        var kept: Set<String>
        var description: String { "\(files.count) files, \(kept.count) kept" }
    }

    @Test func updateAfterAppendsMakesTheFilesABuildMakesAndKeepsTheRest() throws {
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
            let result = try #require(update(changes, previous: previous), "\(added)")
            let expected = files(after)
            #expect(result.files.keys.sorted() == expected.keys.sorted(), "\(added)")
            for (path, bytes) in expected { #expect(result.files[path] == bytes, "\(path) after \(added)") }
            // Only the chunks the new documents land in (and the next, until the boundaries agree) are new.
            let chunks = expected.keys.filter { $0.hasPrefix("search/d/") }
            let newChunks = chunks.filter { !result.kept.contains($0) }
            #expect(newChunks.count <= (2 * added.count), "\(added): \(newChunks.sorted())")
            if added.isEmpty { #expect(result.kept.count == expected.count) }
        }
    }

    @Test func anAppendAfterEveryOldDocumentReadsOnlyTheShardsItsWordsFallIn() throws {
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
        #expect(oldShards > 5)
        for added in [1, 2, 400] {
            let after = parts(alpha: 3_000 + added)
            var read = Set<String>()
            var kept = Set<String>()
            var made: [String: [UInt8]] = [:]
            let changes: [SearchIndex.PartChange] = [
                .changed(previous: before[0], current: after[0]), .unchanged(conversationID: "beta"),
            ]
            #expect(
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
            #expect(made.keys.sorted() == expected.keys.sorted(), "+\(added)")
            for (path, bytes) in expected { #expect(made[path] == bytes, "\(path) after +\(added)") }
            if added == 400 {
                // The burst's range split into new shards; every later one was packed again.
                #expect((expected.keys.filter { $0.hasPrefix("search/t/") }.count) > (oldShards + 2))
            } else {
                // A few postings more: the shards its words miss are kept, and are not even read.
                let shardsRead = read.filter { $0.hasPrefix("search/t/") }.count
                let shardsKept = kept.filter { $0.hasPrefix("search/t/") }.count
                #expect(shardsRead < oldShards, "+\(added): \(shardsRead) of \(oldShards) shards read")
                #expect(shardsKept > 0, "+\(added)")
            }
        }
    }

    @Test func tokensAreOrderedByTheirUTF8Bytes() {
        let tokens = ["b", "a", "ab", "", "é", "z", "東京", "東", "from:z", "in:a", "ä", "😀", "a\u{0}"]
        let expected = tokens.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        #expect(tokens.sorted(by: SearchIndex.tokenPrecedes) == expected)
        // Tokens that share their first eight bytes, or end within them.
        let long = tokens + ["abcdefgh", "abcdefghi", "abcdefgh\u{0}", "abcdefgg", "abcdefgh1", "abc", "ab\u{0}\u{0}"]
        #expect(
            SearchIndex.sortedTokens(long) == (long.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        )
        #expect(expected.first == "")
        #expect(!SearchIndex.tokenPrecedes("a", "a"))
    }

    @Test func updateDeclinesWhatIsNotAnAppend() {
        let alpha = part(id: "alpha", count: 300) { "alpha \($0)" }
        let beta = part(id: "beta", count: 200, start: 1_714_000_500) { "beta \($0)" }
        let previous = files([alpha, beta])
        // A message changed in the middle.
        let edited = part(id: "alpha", count: 300) { $0 == 5 ? "edited" : "alpha \($0)" }
        #expect(edited.documents.count == alpha.documents.count)
        #expect(edited.documents[5] != alpha.documents[5])
        #expect(
            update(
                [.changed(previous: alpha, current: edited), .unchanged(conversationID: beta.conversationID)],
                previous: previous) == nil)
        // A conversation more.
        let gamma = part(id: "gamma", count: 3) { "gamma \($0)" }
        #expect(
            update(
                [
                    .unchanged(conversationID: alpha.conversationID), .unchanged(conversationID: beta.conversationID),
                    .unchanged(conversationID: gamma.conversationID),
                ], previous: previous) == nil)
        // A sender more: every sender number would move.
        var renamed = beta
        renamed.senders.append(SearchPart.Sender(name: "Aaron", initials: "A", avatar: nil))
        #expect(
            update(
                [.unchanged(conversationID: alpha.conversationID), .changed(previous: beta, current: renamed)],
                previous: previous) == nil)
        // No previous index, or a damaged one.
        #expect(
            update(
                [.unchanged(conversationID: alpha.conversationID), .unchanged(conversationID: beta.conversationID)],
                previous: [:]) == nil)
        // The last chunk, which the next document lands in, damaged.
        var damaged = previous
        let lastChunk = previous.keys.filter { $0.hasPrefix("search/d/") }.count - 1
        damaged[SearchIndex.chunkPath(lastChunk)] = Array("not deflate".utf8)
        let longer = part(id: "alpha", count: 301) { "alpha \($0)" }
        #expect(
            update(
                [.changed(previous: alpha, current: longer), .unchanged(conversationID: beta.conversationID)],
                previous: previous) != nil)
        #expect(
            update(
                [.changed(previous: alpha, current: longer), .unchanged(conversationID: beta.conversationID)],
                previous: damaged) == nil)
    }

    /// An ascending list of up to 300 documents whose gaps go up to 1, 2, 3, 9, 40 or 300 by
    /// `round`: dense lists (bitmaps) and sparse ones (deltas).
    static func randomPostings(round: Int, using generator: inout some RandomNumberGenerator) -> [Int32] {
        let gap = [1, 2, 3, 9, 40, 300][round % 6]
        var documents: [Int32] = []
        var next = Int32.random(in: 0..<50, using: &generator)
        for _ in 0..<Int.random(in: 1..<300, using: &generator) {
            documents.append(next)
            next += Int32.random(in: 1...Int32(gap), using: &generator)
        }
        return documents
    }

    @Test func movedPostingsAreThePostingsOfTheMovedDocuments() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<400 {
            // Sparse lists (deltas), dense ones (bitmaps), and lists a move turns from one into the other.
            let documents = Self.randomPostings(round: round, using: &generator)
            let insertion = (0..<Int.random(in: 0..<4, using: &generator))
                .map { _ in Int.random(in: 0...(Int(documents.last!) + 10), using: &generator) }.sorted()
            let moved = documents.map { document in Int32(Int(document) + insertion.filter { $0 <= document }.count) }
            var expected = ByteWriter()
            PostingList(moved).encode(into: &expected)
            var original = ByteWriter()
            PostingList(documents).encode(into: &original)
            var reader = ByteReader(original.bytes + [0x7F])
            let movedBytes = PostingList.move(&reader, insertion: insertion)
            let result = try #require(movedBytes)
            #expect((result ?? original.bytes) == expected.bytes, "\(documents) moved at \(insertion)")
            #expect((result == nil) == (moved == documents))
            #expect(reader.offset == original.bytes.count, "reads the list and no further")
        }
    }

    @Test func postingsWithDocumentsAddedAreThePostingsOfAllOfThem() throws {
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
            PostingList(all).encode(into: &expected)
            var original = ByteWriter()
            PostingList(documents).encode(into: &original)
            var reader = ByteReader(original.bytes + [0x7F])
            let movedBytes = PostingList.move(&reader, insertion: insertion, adding: adding)
            let result = try #require(movedBytes)
            #expect(result == expected.bytes, "\(documents) adding \(adding) at \(insertion)")
            #expect(reader.offset == original.bytes.count, "reads the list and no further")
        }
    }

    @Test func postingListsInSharedBlocksEncodeAsListsOfTheirOwn() {
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
            #expect(lists.count(token) == expected[token].count)
            var made = ByteWriter()
            lists.list(token).encode(into: &made)
            #expect(made.bytes == (SearchIndex.entry("", expected[token]).dropFirst(1).map { $0 }), "token \(token)")
        }
    }

    @Test func largePostingListsUseBitmaps() {
        var dense = ByteWriter()
        PostingList((0..<1000).map(Int32.init)).encode(into: &dense)
        var sparse = ByteWriter()
        PostingList([3, 5000, 90_000]).encode(into: &sparse)
        #expect(dense.bytes.count < 140)
        var reader = ByteReader(dense.bytes)
        let thousand = PostingList.decode(&reader)
        #expect(thousand == Array(0..<1000))
        reader = ByteReader(sparse.bytes)
        let three = PostingList.decode(&reader)
        #expect(three == [3, 5000, 90_000])
    }

    @Test("a list in a mode PostingList does not write is refused, not read as deltas")
    func unknownModeIsRefused() {
        // count 2, mode 2, length 2, deltas 1 and 1: the bytes of a delta list but for the mode.
        var reader = ByteReader([2, 2, 2, 1, 1])
        #expect(PostingList.decode(&reader) == nil)
        reader = ByteReader([2, 2, 2, 1, 1])
        #expect(PostingList.move(&reader, insertion: [0]) == nil)
        reader = ByteReader([2, 0, 2, 1, 1])
        #expect(PostingList.decode(&reader) == [1, 2])
    }
}
