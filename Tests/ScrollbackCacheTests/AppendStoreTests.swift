import Foundation
import ScrollbackTestSupport
import Testing

@testable import ScrollbackCache

/// The append fast path's files on their own: the checkpoint's codec and the search part's page
/// files (moved from `AppendTests`, which builds sites with them).
@Suite("Append checkpoint and search page files")
struct AppendStoreTests {
    @Test("a checkpoint decodes to what was encoded; other bytes are refused")
    func checkpointRoundTrip() throws {
        let checkpoint = AppendCheckpoint(
            prefixLength: 1234, prefixFingerprint: String(repeating: "ab", count: 16), suffixLength: 5,
            suffixFingerprint: String(repeating: "0f", count: 16), arrayOpenOffset: 99, maxDate: 7.5e8,
            idsAreOwnAnchors: true,
            records: [
                .init(start: 100, length: 50, sortedIndex: 1, idHash: AppendCheckpoint.idHash("m1"), replyTarget: nil),
                .init(start: 151, length: 60, sortedIndex: 0, idHash: AppendCheckpoint.idHash("m0"), replyTarget: 0),
            ])
        let header = checkpoint.encodedHeader()
        let blocks = checkpoint.encodedBlocks(from: 0)
        #expect(header.count == AppendCheckpoint.headerSize)
        #expect(blocks.map(\.count) == [2 * AppendCheckpoint.recordSize])
        #expect(AppendCheckpoint(decodingHeader: header) { blocks[$0] } == checkpoint)
        #expect(AppendCheckpoint(decodingHeader: Array(header.dropLast())) { blocks[$0] } == nil)
        #expect(AppendCheckpoint(decodingHeader: header) { _ in Array(blocks[0].dropLast()) } == nil)
        #expect(AppendCheckpoint(decodingHeader: header) { _ in nil } == nil)
        // FNV-1a 64, the same in every process (Swift's `Hasher` is seeded per process).
        #expect(AppendCheckpoint.idHash("m1") == 0x08A9_8B07_B550_9B6B)
    }

    @Test("a checkpoint's records come in blocks: more records fill the last block, then open the next")
    func checkpointBlocks() throws {
        let size = AppendCheckpoint.blockSize
        func records(_ count: Int) -> [AppendCheckpoint.Record] {
            (0..<count).map {
                .init(
                    start: 10 * $0, length: 9, sortedIndex: $0, idHash: UInt64($0), replyTarget: $0 > 0 ? $0 - 1 : nil)
            }
        }
        var checkpoint = AppendCheckpoint(
            prefixLength: 1, prefixFingerprint: String(repeating: "0", count: 32), suffixLength: 1,
            suffixFingerprint: String(repeating: "0", count: 32), arrayOpenOffset: 0,
            maxDate: 0, idsAreOwnAnchors: true, records: records(size + 5))
        let before = checkpoint.encodedBlocks(from: 0)
        #expect(before.map(\.count) == [size * AppendCheckpoint.recordSize, 5 * AppendCheckpoint.recordSize])
        checkpoint.records = records(size + 9)
        let after = checkpoint.encodedBlocks(from: 0)
        #expect(after[0] == before[0])  // the full block is linked, not written again
        #expect(checkpoint.encodedBlocks(from: 1) == [after[1]])
        #expect(AppendCheckpoint(decodingHeader: checkpoint.encodedHeader()) { after[$0] } == checkpoint)
    }

    @Test("a search cache file holds its pages, and is refused cut short, with bytes after it or with another header")
    func searchPageFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pages: [[UInt8]] = [Array("first page".utf8), [], Array("third".utf8)]
        let path = SearchPageFiles.path(conversationID: "chat", file: 2)
        let bytes = SearchPageFiles.encode(pages[...])
        try folder.write(Data(bytes), to: path)
        #expect(
            SearchPageFiles.readPages(ofFile: 2, conversationID: "chat", in: BuildTree(staging: folder.path)) == pages)
        for (page, expected) in pages.enumerated() {
            let number = 2 * SearchPageFiles.pagesPerFile + page
            #expect(
                SearchPageFiles.readPage(number, conversationID: "chat", in: BuildTree(staging: folder.path))
                    == expected)
        }
        #expect(
            SearchPageFiles.readPage(
                2 * SearchPageFiles.pagesPerFile + 3, conversationID: "chat", in: BuildTree(staging: folder.path))
                == nil)
        #expect(
            SearchPageFiles.readPage(0, conversationID: "chat", in: BuildTree(staging: folder.path)) == nil,
            "no such file")
        var other = bytes
        other[0] = UInt8(ascii: "X")
        for damaged in [Array(bytes.dropLast()), bytes + [0], other, Array(bytes.prefix(6))] {
            try folder.write(Data(damaged), to: path)
            #expect(
                SearchPageFiles.readPages(ofFile: 2, conversationID: "chat", in: BuildTree(staging: folder.path)) == nil
            )
            #expect(
                SearchPageFiles.readPage(
                    2 * SearchPageFiles.pagesPerFile, conversationID: "chat", in: BuildTree(staging: folder.path))
                    == nil)
        }
    }
}
