import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackRendering

/// Writes the showcase conversation to `$SCROLLBACK_PREVIEW_DIR` (e.g. `/tmp/render-preview`) for
/// screenshots; skipped when the variable is not set.
@Test(.enabled(if: ProcessInfo.processInfo.environment["SCROLLBACK_PREVIEW_DIR"] != nil))
func writesPreviewSite() throws {
    let directory = ProcessInfo.processInfo.environment["SCROLLBACK_PREVIEW_DIR"]!
    let renderer = SiteRenderer(config: SiteConfig())
    let layout = Fixture.showcase()
    let (pages, _) = renderer.renderFiles(layout)
    let files = pages + [renderer.renderIndex([layout.summary])] + renderer.assetFiles()
    for file in files {
        let url = URL(fileURLWithPath: directory).appendingPathComponent(file.path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(file.contents).write(to: url)
    }
    let photo = URL(fileURLWithPath: directory).appendingPathComponent("media/photo.svg")
    try FileManager.default.createDirectory(at: photo.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(
        ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 600"><defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f7a35c"/><stop offset=".6" stop-color="#d9577b"/><stop offset="1" stop-color="#2d3561"/></linearGradient></defs><rect width="800" height="600" fill="url(#g)"/><circle cx="400" cy="380" r="90" fill="#ffd27f"/><rect y="400" width="800" height="200" fill="#2d3561" opacity=".85"/></svg>"##
            .utf8
    ).write(to: photo)
    #expect(FileManager.default.fileExists(atPath: directory + "/trip/index.html"))
}
