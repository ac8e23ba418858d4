import Foundation
import Mustache
import ScrollbackModel

/// The templates a site renders with: the shipped defaults from the repository's `Templates/`
/// folder, overridden file by file (same relative name) by the site's `templates/` folder.
///
/// Templates are parsed once, here; rendering only walks the parsed tokens. Static files
/// (`assets/…`) follow the same override rule.
public struct TemplateLibrary: Sendable {
    /// The parsed templates, by name (relative path without `.mustache`, e.g. `kinds/text`).
    let mustache: MustacheLibrary
    /// Names of templates that are empty (whitespace only): the part they draw is left out.
    let emptyTemplates: Set<String>
    /// Names of every template that exists.
    let names: Set<String>
    /// Names of the templates the site's folder replaced.
    let overridden: Set<String>
    /// Asset files (`assets/…`) by site path, already read.
    let assets: [String: [UInt8]]
    /// Problems found while loading (template parse errors: the default is used instead).
    public let diagnostics: [Diagnostic]

    /// The folder of shipped templates: `$SCROLLBACK_TEMPLATES`, else `Templates/` at the repository root.
    public static var defaultTemplatesDirectory: String {
        if let override = ProcessInfo.processInfo.environment["SCROLLBACK_TEMPLATES"], !override.isEmpty {
            return override
        }
        // This file is Sources/ScrollbackRendering/TemplateLibrary.swift: three levels below the root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent("Templates").path
    }

    /// The shipped templates alone, loaded once per process.
    public static let shipped = TemplateLibrary(siteTemplatesDirectory: nil)

    /// Loads the shipped templates, then the site's overrides from `siteTemplatesDirectory` (if it exists).
    ///
    /// - Parameters:
    ///   - siteTemplatesDirectory: the site's `templates/` folder, or `nil`.
    ///   - defaultsDirectory: the shipped templates (default: `defaultTemplatesDirectory`).
    public init(siteTemplatesDirectory: String?, defaultsDirectory: String = TemplateLibrary.defaultTemplatesDirectory)
    {
        var templates: [String: MustacheTemplate] = [:]
        var empty: Set<String> = []
        var assets: [String: [UInt8]] = [:]
        var diagnostics: [Diagnostic] = []
        var overridden: Set<String> = []
        for (directory, isSite) in [(defaultsDirectory, false), (siteTemplatesDirectory, true)] {
            guard let directory else { continue }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                if !isSite {
                    diagnostics.append(
                        .error(
                            .templateError("shipped templates not found at \(directory); set SCROLLBACK_TEMPLATES"),
                            at: nil))
                }
                continue
            }
            let files = (FileManager.default.subpaths(atPath: directory) ?? []).sorted()
            // The site's files must resolve inside its input folder (the folder holding
            // `templates/`): a link to a file elsewhere is skipped, not rendered or published.
            let inputFolder = isSite ? (directory as NSString).deletingLastPathComponent : nil
            for relative in files {
                let path = (directory as NSString).appendingPathComponent(relative)
                let label = isSite ? "templates/\(relative)" : "Templates/\(relative)"
                if let inputFolder, !InputContainment.resolves(path, inside: inputFolder) {
                    if FileManager.default.fileExists(atPath: path) {
                        diagnostics.append(
                            .warning(
                                .templateError(
                                    "\(label) is a link to a file outside the input folder; it is skipped"),
                                at: SourceLocation(file: label, line: 1, column: 1)))
                    }
                    continue
                }
                if relative.hasPrefix("assets/") {
                    if let data = FileManager.default.contents(atPath: path) { assets[relative] = Array(data) }
                    continue
                }
                guard relative.hasSuffix(".mustache") else { continue }
                let name = String(relative.dropLast(".mustache".count))
                guard let data = FileManager.default.contents(atPath: path) else {
                    diagnostics.append(
                        .error(
                            .templateError("cannot read \(label)"), at: SourceLocation(file: label, line: 1, column: 1))
                    )
                    continue
                }
                var text = String(decoding: data, as: UTF8.self)
                // A file's final newline is the editor's, not the page's.
                if text.hasSuffix("\n") { text.removeLast() }
                do {
                    templates[name] = try MustacheTemplate(string: PageEscaping.pragma + text)
                    if isSite { overridden.insert(name) }
                    if text.allSatisfy(\.isWhitespace) { empty.insert(name) } else { empty.remove(name) }
                } catch let error as MustacheTemplate.ParserError {
                    diagnostics.append(
                        .error(
                            .templateError("\(label): \(error.error) in “\(error.context.line)”"),
                            at: SourceLocation(
                                file: label, line: error.context.lineNumber, column: max(1, error.context.columnNumber))
                        ))
                } catch {
                    diagnostics.append(
                        .error(
                            .templateError("\(label): \(error)"), at: SourceLocation(file: label, line: 1, column: 1)))
                }
            }
        }
        self.mustache = MustacheLibrary(templates: templates)
        self.emptyTemplates = empty
        self.names = Set(templates.keys)
        self.overridden = overridden
        self.assets = assets
        self.diagnostics = diagnostics
    }

    /// Whether a template named `name` exists (shipped or site).
    public func contains(_ name: String) -> Bool { names.contains(name) }

    /// Whether the template `name` is empty, i.e. the site removed that part.
    public func isEmpty(_ name: String) -> Bool { emptyTemplates.contains(name) }

    /// Renders template `name` with `context`; an empty string when there is no such template.
    func render(_ name: String, _ context: Any) -> String {
        mustache.render(context, withTemplate: name) ?? ""
    }

    /// The static files (`assets/scrollback.css`, `assets/favicon.svg`, …), sorted by path.
    public var assetFiles: [RenderedFile] {
        assets.keys.sorted().map { RenderedFile(path: $0, contents: assets[$0]!) }
    }
}
