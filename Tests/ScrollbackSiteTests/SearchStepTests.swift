import Foundation
import ScrollbackRendering
import ScrollbackSearch
import XCTest

final class SearchStepTests: XCTestCase {
    /// The browser names pages from the manifest's pattern; it must give the renderer's names.
    func testManifestPageFilePatternMatchesTheRenderer() throws {
        let files = SearchIndex.build(parts: [], pageFile: SiteRenderer.pageFileName)
        let manifest = try XCTUnwrap(files.first { $0.path == "search/manifest.json" })
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(manifest.bytes)) as? [String: Any])
        let pattern = try XCTUnwrap(object["pageFile"] as? [String: String])
        XCTAssertEqual(pattern["first"], SiteRenderer.pageFileName(0))
        for index in 1..<500 {
            XCTAssertEqual(
                pattern["other"]?.replacingOccurrences(of: "{n}", with: String(index + 1)),
                SiteRenderer.pageFileName(index))
        }
    }
}
