import Foundation
import ScrollbackReading
import ScrollbackSearch

/// The cache files of a conversation's `SearchPart`: its head at `search/<id>.bin` and its pages' files
/// (`SearchPageFiles`) in `search/<id>/`, as cache paths (`BuildTree`).
package enum SearchPartFiles {
    /// Where a conversation's part's head is cached, as a cache path (`BuildTree`).
    package static func partPath(conversationID: String) -> String {
        BuildTree.cachePath("search/" + conversationID + ".bin")
    }

    /// The cached part of `conversationID` in the build `tree`, with the documents of pages
    /// `firstPage` and later; `nil` when a file is missing or damaged.
    package static func readPart(conversationID: String, in tree: BuildTree, fromPage firstPage: Int = 0) -> SearchPart?
    {
        guard let head = LogReader.contents(ofFile: tree.path(partPath(conversationID: conversationID))) else {
            return nil
        }
        // Pages are asked for in order: each file is read once, when its first page is.
        var held: (file: Int, pages: [[UInt8]])?
        return SearchPart(decodingHead: head, fromPage: firstPage) { page in
            let (file, index) = page.quotientAndRemainder(dividingBy: SearchPageFiles.pagesPerFile)
            if held?.file != file {
                held = SearchPageFiles.readPages(ofFile: file, conversationID: conversationID, in: tree).map {
                    (file, $0)
                }
            }
            guard let held, index < held.pages.count else { return nil }
            return held.pages[index]
        }
    }

    /// Writes into `folder` the files of `part`'s pages from `page` on, preceded by `leading`
    /// (the pages of `page`'s file before it, from the previous build): each file they fill, and
    /// the last one they start too when `finished` (no page follows). Returns the first page not
    /// written, the first of its file.
    @discardableResult
    package static func writePages(
        of part: SearchPart, from page: Int, after leading: ArraySlice<[UInt8]> = [], finished: Bool,
        into folder: inout StagedFolder
    ) throws -> Int {
        let start = page - leading.count
        let perFile = SearchPageFiles.pagesPerFile
        precondition(start % perFile == 0, "a file's pages are written together")
        let pages = Array(leading) + part.encodedPages(from: page)
        var first = 0
        while first < pages.count, finished || pages.count - first >= perFile {
            let end = min(first + perFile, pages.count)
            let path = SearchPageFiles.path(conversationID: part.conversationID, file: (start + first) / perFile)
            try folder.write(SearchPageFiles.encode(pages[first..<end]), at: path)
            first = end
        }
        return start + first
    }
}

/// The cache files of a search part's pages: `pagesPerFile` consecutive pages to a file, so that a
/// long conversation's cache is a few files rather than one per page (a new file costs this
/// machine's ext4 far more than its bytes after many were deleted: scripts/bench/RESULTS.md),
/// while an append still writes again only the file of the pages it renders again.
///
/// A file is `SBF1`, its page count and each page's end offset (32-bit little-endian, counted
/// from the end of this header), then the pages' bytes (`SearchPart.encodedPages`).
package enum SearchPageFiles {
    /// How many pages a file holds (the last file of a part: the rest).
    static let pagesPerFile = 16
    private static let magic: [UInt8] = Array("SBF1".utf8)

    /// Where file number `file` of a conversation's pages is cached, as a cache path (`BuildTree`).
    package static func path(conversationID: String, file: Int) -> String {
        BuildTree.cachePath("search/" + conversationID + "/\(file).bin")
    }

    /// How many files hold `pageCount` pages.
    package static func fileCount(pageCount: Int) -> Int { (pageCount + pagesPerFile - 1) / pagesPerFile }

    /// The first page of the file holding `page`.
    package static func firstPage(ofFileHolding page: Int) -> Int { page - page % pagesPerFile }

    /// One file holding `pages`.
    package static func encode(_ pages: ArraySlice<[UInt8]>) -> [UInt8] {
        precondition(pages.count <= pagesPerFile, "a file holds at most pagesPerFile pages")
        let headerSize = magic.count + 4 * (1 + pages.count)
        var bytes = magic
        bytes.reserveCapacity(headerSize + pages.reduce(0) { $0 + $1.count })
        bytes.appendLittleEndian(UInt32(pages.count))
        var end = 0
        for page in pages {
            end += page.count
            bytes.appendLittleEndian(UInt32(end))
        }
        for page in pages { bytes += page }
        return bytes
    }

    /// The pages of file number `file` of a conversation in the build `tree`; `nil` when it is
    /// missing or is not such a file.
    static func readPages(ofFile file: Int, conversationID: String, in tree: BuildTree) -> [[UInt8]]? {
        guard let bytes = LogReader.contents(ofFile: tree.path(path(conversationID: conversationID, file: file))),
            let ranges = pageRanges(header: bytes[...], size: bytes.count)
        else { return nil }
        return ranges.map { Array(bytes[$0]) }
    }

    /// Page `page`'s bytes from its file in the build `tree` (the header, then the page alone,
    /// are read); `nil` when the file is missing, is not such a file or holds no such page.
    package static func readPage(_ page: Int, conversationID: String, in tree: BuildTree) -> [UInt8]? {
        let (file, index) = page.quotientAndRemainder(dividingBy: pagesPerFile)
        guard let handle = LogFile(path: tree.path(path(conversationID: conversationID, file: file))),
            let header = handle.bytes(0..<min(handle.size, magic.count + 4 * (1 + pagesPerFile))),
            let ranges = pageRanges(header: header[...], size: handle.size), index < ranges.count
        else { return nil }
        return handle.bytes(ranges[index])
    }

    /// Where each page of a file of `size` bytes is in it, from the file's first bytes (at least
    /// its header); `nil` when they are not such a header.
    private static func pageRanges(header: ArraySlice<UInt8>, size: Int) -> [Range<Int>]? {
        func value(at offset: Int) -> Int? {
            guard offset + 4 <= header.count else { return nil }
            return Int(header.withUnsafeBytes { $0.loadLittleEndian(at: offset, as: UInt32.self) })
        }
        guard header.starts(with: magic), let count = value(at: magic.count), (1...pagesPerFile).contains(count)
        else { return nil }
        let dataStart = magic.count + 4 * (1 + count)
        var ranges: [Range<Int>] = []
        var start = dataStart
        for number in 0..<count {
            guard let end = value(at: magic.count + 4 * (1 + number)), end >= start - dataStart else { return nil }
            ranges.append(start..<(dataStart + end))
            start = dataStart + end
        }
        guard start == size else { return nil }
        return ranges
    }
}
