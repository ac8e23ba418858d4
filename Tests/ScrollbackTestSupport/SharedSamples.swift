import Foundation

/// The real exports beside the repository (`../shared/samples`, described by its README): tests
/// read them in place and never copy them into the repository.
public enum SharedSamples {
    /// The repository's root folder.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `shared/samples` next to the repository root, or next to the folder holding it (a git
    /// worktree such as `/work/wt-x` shares `/work/shared`).
    public static func folder() throws -> URL {
        var folder = repositoryRoot.deletingLastPathComponent()
        for _ in 0..<2 {
            let samples = folder.appendingPathComponent("shared/samples")
            if FileManager.default.fileExists(atPath: samples.path) { return samples }
            folder = folder.deletingLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "../shared/samples"])
    }
}
