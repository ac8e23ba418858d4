import Foundation
import ScrollbackModel

/// Turns a media reference written in a log (a relative path or a URL) into a `MediaSource`.
///
/// Relative paths resolve against the log file's folder and must stay inside the input folder
/// (symlinks included); they become `.local` assets with a content-hashed site path and, for
/// PNG/JPEG/GIF/WebP, the pixel size read from the file header. `http(s)` URLs become `.remote`
/// (or `.unavailable` when remote media is off). Anything else is refused with a warning.
///
/// STUB: to be replaced by the real resolver.
public final class MediaResolver: @unchecked Sendable {
    /// The input folder; nothing outside it is read.
    public let inputRoot: URL
    /// Whether `http(s)` media is referenced (config `remoteMedia`).
    public let allowsRemoteMedia: Bool

    /// Creates a resolver for `inputRoot`.
    public init(inputRoot: URL, allowsRemoteMedia: Bool) {
        self.inputRoot = inputRoot
        self.allowsRemoteMedia = allowsRemoteMedia
    }

    /// Resolves `reference`, written in `logFile` at `location`; warnings go to `diagnostics`.
    public func resolve(
        _ reference: String, relativeTo logFile: URL, at location: SourceLocation,
        diagnostics: inout [Diagnostic]
    ) -> MediaSource {
        .unavailable(original: reference)
    }
}
