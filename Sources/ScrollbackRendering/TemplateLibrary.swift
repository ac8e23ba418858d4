import Foundation
import Mustache
import ScrollbackModel
import ScrollbackTemplates

/// The templates a site renders with: the shipped defaults (`ShippedTemplates`, embedded from the
/// repository's `Templates/` folder), overridden file by file (same relative name) by the site's
/// `templates/` folder.
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
    /// Problems found while loading: unreadable shipped templates, parse errors, partials that
    /// name no template. Any of them stops a build before it publishes.
    public let diagnostics: [Diagnostic]

    /// The shipped templates alone, loaded once per process.
    public static let shipped = TemplateLibrary(siteTemplatesDirectory: nil)

    /// Loads the shipped templates (`ShippedTemplates`: embedded in the binary, or the
    /// `SCROLLBACK_TEMPLATES` folder), then the site's overrides from `siteTemplatesDirectory`
    /// (if it exists). Every problem is an error diagnostic: a build with one publishes nothing.
    ///
    /// - Parameter siteTemplatesDirectory: the site's `templates/` folder, or `nil`.
    public init(siteTemplatesDirectory: String?) {
        var templates: [String: MustacheTemplate] = [:]
        var sources: [String: (label: String, text: String)] = [:]
        var empty: Set<String> = []
        var assets: [String: [UInt8]] = [:]
        var diagnostics: [Diagnostic] = []
        var overridden: Set<String> = []
        var shipped: [ShippedTemplates.File] = []
        let shippedLabel = ShippedTemplates.overrideDirectory == nil ? "Templates" : ShippedTemplates.overrideVariable
        do {
            shipped = try ShippedTemplates.files()
            diagnostics += TemplateReferences.missingShippedTemplates(in: shipped, label: shippedLabel)
        } catch {
            diagnostics.append(.error(.templateError(error.description), at: nil))
        }
        var site: [ShippedTemplates.File] = []
        if let siteTemplatesDirectory {
            // No folder (the usual case) means no overrides.
            site = (try? ShippedTemplates.files(inFolder: siteTemplatesDirectory)) ?? []
        }
        for (files, isSite) in [(shipped, false), (site, true)] {
            for file in files {
                let relative = file.path
                let label = isSite ? "templates/\(relative)" : "\(shippedLabel)/\(relative)"
                if relative.hasPrefix("assets/") {
                    assets[relative] = file.contents
                    continue
                }
                guard relative.hasSuffix(".mustache") else { continue }
                let name = String(relative.dropLast(".mustache".count))
                var text = String(decoding: file.contents, as: UTF8.self)
                // A file's final newline is the editor's, not the page's.
                if text.hasSuffix("\n") { text.removeLast() }
                do {
                    templates[name] = try MustacheTemplate(string: PageEscaping.pragma + text)
                    sources[name] = (label, text)
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
        diagnostics += TemplateReferences.missingPartials(in: sources, known: Set(templates.keys))
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
