import Foundation
import ScrollbackModel

/// STUB: the build pipeline (discover, read, lay out, render, write atomically).
public struct SiteBuilder {
    /// Creates a builder.
    public init() {}
}
