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
                displayName: "Embedding the shipped templates into \(target.name)",
                executable: try context.tool(named: "EmbedTemplatesTool").url,
                arguments: [templates.path(percentEncoded: false), output.path(percentEncoded: false)],
                // Every folder (a file added or removed changes its listing, which reruns the
                // tool; the tool lists the folder itself) and every file (an edit reruns it).
                // SwiftPM asks this plugin for its inputs again only when it re-plans the package,
                // so after adding, deleting or renaming a file `touch Package.swift`; until then a
                // deleted file stops the build as a missing input and a new file's edits are not
                // seen (ShippedTemplatesTests compares the embedded files with the folder).
                inputFiles: Self.entries(under: templates),
                outputFiles: [output])
        ]
    }

    /// `folder` and the folders and regular files under it, hidden ones left out, sorted by path.
    static func entries(under folder: URL) -> [URL] {
        let paths = FileManager.default.subpaths(atPath: folder.path(percentEncoded: false)) ?? []
        return [folder]
            + paths.sorted().compactMap { relative in
                guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { return nil }
                return folder.appending(path: relative)
            }
    }
}
