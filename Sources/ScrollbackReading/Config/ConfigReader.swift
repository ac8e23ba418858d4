import Foundation
import ScrollbackModel

/// Reads the site configuration file (`scrollback.yml`, `scrollback.yaml` or `scrollback.json`)
/// from the input folder.
///
/// STUB: to be replaced by the real reader.
public enum ConfigReader {
    /// Reads the config in `inputRoot`, or the defaults when there is none.
    public static func read(inputRoot: URL) -> (config: SiteConfig, diagnostics: [Diagnostic]) {
        (SiteConfig(), [])
    }
}
