import Foundation
import PackagePlugin

/// Embeds the repository's `Templates/` folder into the target it is applied to: at every build,
/// `EmbedTemplatesTool` writes `EmbeddedTemplates.swift` (each file's bytes keyed by its path
/// relative to `Templates/`) into the plugin's work folder, and SwiftPM compiles it with the
/// target. The generated file is never committed; `Templates/` stays the only source.
@main
struct EmbedTemplates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let templates = context.package.directoryURL.appending(path: "Templates")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedTemplates.swift")
        return [
            .buildCommand(
                displayName: "Embedding Templates/ into \(target.name)",
                executable: try context.tool(named: "EmbedTemplatesTool").url,
                arguments: [templates.path(percentEncoded: false), output.path(percentEncoded: false)],
                // Every file (and the folder itself, so an added or removed file reruns the tool).
                inputFiles: [templates] + Self.files(under: templates),
                outputFiles: [output])
        ]
    }

    /// The regular files under `folder`, hidden ones left out, sorted by path.
    static func files(under folder: URL) -> [URL] {
        let paths = FileManager.default.subpaths(atPath: folder.path(percentEncoded: false)) ?? []
        return paths.sorted().compactMap { relative in
            guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { return nil }
            let url = folder.appending(path: relative)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path(percentEncoded: false), isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { return nil }
            return url
        }
    }
}
