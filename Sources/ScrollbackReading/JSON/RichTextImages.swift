import Foundation
import ScrollbackMarkdown
import ScrollbackModel

/// The image-URL mapping rich text uses: a local file becomes `@root/<sitePath>` (the renderer
/// turns `@root/` into the relative path to the site root), a remote URL stays as it is, and a
/// refused or missing one drops the image. Collects the resolver's warnings.
final class RichTextImages {
    let context: ReadingContext
    let file: URL
    let location: SourceLocation
    /// Warnings about the images met so far.
    private(set) var warnings: [Diagnostic] = []
    /// The local files the images shown so far are, each once: what the site must copy.
    private(set) var assets: [LocalAsset] = []

    init(context: ReadingContext, file: URL, location: SourceLocation) {
        self.context = context
        self.file = file
        self.location = location
    }

    /// The URL the page should use for the image `reference`, or `nil` to drop it.
    func url(for reference: String) -> String? {
        switch context.media.resolve(reference, relativeTo: file, at: location, diagnostics: &warnings) {
        case .local(let asset):
            if !assets.contains(asset) { assets.append(asset) }
            return "@root/" + asset.sitePath
        case .remote(let url): return url
        case .unavailable: return nil
        }
    }
}
