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
    /// The same, to read their tokens (`MustacheToken`).
    private let parsed: [String: MustacheTemplate]
    /// Names of templates that are empty (whitespace only): the part they draw is left out.
    let emptyTemplates: Set<String>
    /// Names of the templates the site's folder replaced.
    let overridden: Set<String>
    /// Asset files (`assets/…`) by site path, already read.
    let assets: [String: [UInt8]]
    /// The templates a page is made of, compiled for their view models (`CompiledTemplate`).
    private var compiled: [String: CompiledTemplate]
    /// Problems found while loading (template parse errors: the default is used instead).
    public private(set) var diagnostics: [Diagnostic]

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
        self.init(
            siteTemplatesDirectory: siteTemplatesDirectory, defaultsDirectory: defaultsDirectory,
            renderingEverythingWithMustache: false)
    }

    /// The same library, with every template rendered through swift-mustache instead of compiled
    /// when `renderingEverythingWithMustache` (tests compare the two).
    init(siteTemplatesDirectory: String?, defaultsDirectory: String, renderingEverythingWithMustache: Bool) {
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
            for relative in files {
                let path = (directory as NSString).appendingPathComponent(relative)
                let label = isSite ? "templates/\(relative)" : "Templates/\(relative)"
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
        self.parsed = templates
        self.emptyTemplates = empty
        self.overridden = overridden
        self.assets = assets
        self.compiled = [:]
        self.diagnostics = diagnostics
        // Each template a page is made of, compiled once for the view model it is rendered with.
        var compiled: [String: CompiledTemplate] = [:]
        for name in templates.keys.sorted() {
            guard let schema = Self.viewModel(ofTemplate: name) else { continue }  // a partial
            do {
                compiled[name] = try CompiledTemplate(
                    name: name, library: self, schema: schema, forceMustache: renderingEverythingWithMustache)
            } catch {
                let label = (overridden.contains(name) ? "templates/" : "Templates/") + name + ".mustache"
                diagnostics.append(
                    .error(.templateError("\(label): \(error)"), at: SourceLocation(file: label, line: 1, column: 1)))
            }
        }
        self.compiled = compiled
        self.diagnostics = diagnostics
    }

    /// The schema of the view model template `name` is rendered with; `nil` for a template that
    /// is only ever a partial (`avatar`, `header`, …, or a site's own).
    static func viewModel(ofTemplate name: String) -> AnyTemplateSchema? {
        switch name {
        case "base": return ShellView.templateSchema
        case "conversation": return ConversationPageView.templateSchema
        case "index": return IndexView.templateSchema
        case "pagination": return PaginationView.templateSchema
        case "message": return MessageRowView.templateSchema
        case "day-separator": return DayView.templateSchema
        case "image-placeholder": return PlaceholderView.templateSchema
        case "kinds/text", "kinds/attributedText": return HTMLBodyView.templateSchema
        case "kinds/emoji", "kinds/system", "kinds/deleted": return TextBodyView.templateSchema
        case "thread": return ThreadView.templateSchema
        case "thread-reference": return ThreadReferenceView.templateSchema
        case "kinds/photo": return PhotoView.templateSchema
        case "kinds/video": return VideoView.templateSchema
        case "kinds/audio": return AudioView.templateSchema
        case "kinds/location": return LocationView.templateSchema
        case "kinds/contact": return ContactView.templateSchema
        case "kinds/linkPreview": return LinkPreviewView.templateSchema
        case "kinds/file": return FileView.templateSchema
        case "kinds/custom": return CustomBodyView.templateSchema
        case "kinds/custom-fallback": return CustomFallbackView.templateSchema
        default: return name.hasPrefix("custom/") ? CustomTemplateView.templateSchema : nil
        }
    }

    /// The parsed template `name`, if there is one.
    func template(named name: String) -> MustacheTemplate? { parsed[name] }

    /// The compiled template `name`; one that prints nothing when there is no such template.
    func compiledTemplate(_ name: String) -> CompiledTemplate {
        compiled[name] ?? CompiledTemplate(missing: name)
    }

    /// Whether a template named `name` exists (shipped or site).
    public func contains(_ name: String) -> Bool { parsed[name] != nil }

    /// Whether the template `name` is empty, i.e. the site removed that part.
    public func isEmpty(_ name: String) -> Bool { emptyTemplates.contains(name) }

    /// The static files (`assets/scrollback.css`, `assets/favicon.svg`, …), sorted by path.
    public var assetFiles: [RenderedFile] {
        assets.keys.sorted().map { RenderedFile(path: $0, contents: assets[$0]!) }
    }
}
