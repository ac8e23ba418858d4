import Foundation

/// The repository's own test inputs, `Tests/Fixtures` (the browser suite builds them too).
public enum RepositoryFixtures {
    /// `Tests/Fixtures`.
    public static let folder = SharedSamples.repositoryRoot.appendingPathComponent("Tests/Fixtures")
}
