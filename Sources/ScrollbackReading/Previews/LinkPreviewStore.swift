import Foundation
import ScrollbackModel

/// Preview data for links, from saved HTML pages in the input's `previews/` folder.
///
/// Each saved page is read once with libxml2 (`PageMetadata`) and matched to a URL by its
/// `og:url` or `<link rel=canonical>`. No network access.
///
/// STUB: to be replaced by the real store.
public final class LinkPreviewStore: @unchecked Sendable {
    /// Creates a store reading the pages in `folder` (which may not exist).
    public init(folder: URL) {}

    /// The preview for `url`, if a saved page describes it. `thumbnail` is left as the page's
    /// image URL text for the caller to resolve.
    public func preview(for url: String) -> (title: String?, teaser: String?, imageURL: String?, siteName: String?)? {
        nil
    }
}
