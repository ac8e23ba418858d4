import Foundation
import ScrollbackCache
import ScrollbackReading
import ScrollbackRendering
import ScrollbackTemplates

/// The fingerprint of everything that affects every page of a site: when it changes, the
/// build cache is dropped and every conversation is rebuilt.
///
/// It covers the generator (version and the running executable's size and time, so a rebuilt
/// binary invalidates the cache), the input folder's location (diagnostics and media paths name
/// it), the config file, the `templates/` and `previews/` folders, and the shipped templates
/// (read from the repository's `Templates/` at run time, so editing one invalidates the cache),
/// the highlighter installed on the machine (`HighlightAssets`): pages with code say whether
/// the site has it, so installing it, or a Debian update of it, renders them again; and whether
/// ffmpeg made `.m4a` copies of voice notes (a site built before ffmpeg was installed gets them on
/// the next build, whose pages list them).
enum SettingsFingerprint {
    /// Computes the fingerprint for `inputRoot` built by generator `generator` with the shipped
    /// templates `shippedTemplates`, the highlighter's files `highlighter` (none: not installed),
    /// and `transcodesAudio`: whether `AudioTranscoder` has an ffmpeg.
    static func compute(
        inputRoot: URL, generator: String, shippedTemplates: [ShippedTemplates.File],
        highlighter: [RenderedFile] = [], transcodesAudio: Bool = false
    ) -> String {
        var lines: [String] = [
            "generator \(generator)", "executable \(executableIdentity())", "transcodes audio \(transcodesAudio)",
        ]
        for file in shippedTemplates {
            lines.append("shipped \(file.path) \(ContentFingerprint.hex(of: file.contents[...]))")
        }
        if highlighter.isEmpty { lines.append("highlighter none") }
        for file in highlighter.sorted(by: { $0.path < $1.path }) {
            lines.append("highlighter \(file.path) \(ContentFingerprint.hex(of: file.contents[...]))")
        }
        let root = FileSystem.canonicalPath(inputRoot.path)
        lines.append("input \(root)")
        for name in InputDiscovery.configFileNames.sorted() {
            let path = root + "/" + name
            if let hash = ContentFingerprint.hex(ofFileAt: path) { lines.append("config \(name) \(hash)") }
        }
        for folder in InputDiscovery.specialFolders.sorted() {
            for file in filesUnder(root + "/" + folder, inside: root) {
                lines.append("\(folder) \(file.relative) \(ContentFingerprint.hex(ofFileAt: file.path) ?? "-")")
            }
        }
        return ContentFingerprint.hex(of: lines.joined(separator: "\n"))
    }

    /// Size and modification time of the running executable.
    private static func executableIdentity() -> String {
        let path = FileSystem.canonicalPath("/proc/self/exe")
        guard let stamp = FileSystem.stamp(path) else { return CommandLine.arguments.first ?? "" }
        return "\(path) \(stamp.size) \(stamp.modifiedNanoseconds)"
    }

    /// Every regular file under `folder` that resolves inside the (canonical) input folder
    /// `root`, sorted by relative path: a link out of the input is neither listed nor read.
    static func filesUnder(_ folder: String, inside root: String) -> [(relative: String, path: String)] {
        var result: [(String, String)] = []
        guard InputDiscovery.staysInside(folder, root: root) else { return [] }
        func visit(_ path: String, _ relative: String) {
            for name in FileSystem.entries(path) where !name.hasPrefix(".") {
                let child = path + "/" + name
                let childRelative = relative.isEmpty ? name : relative + "/" + name
                guard InputDiscovery.staysInside(child, root: root) else { continue }
                switch FileSystem.kind(child) {
                case .directory: if !FileSystem.isSymlink(child) { visit(child, childRelative) }
                case .file: result.append((childRelative, child))
                default: break
                }
            }
        }
        visit(folder, "")
        return result.sorted { $0.0 < $1.0 }
    }
}
