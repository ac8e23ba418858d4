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
    /// The same, to read their tokens (`MustacheToken`).
    private let parsed: [String: MustacheTemplate]
    /// Names of templates that are empty (whitespace only): the part they draw is left out.
    let emptyTemplates: Set<String>
    /// Names of the templates the site's folder replaced.
    let overridden: Set<String>
    /// Asset files (`assets/…`) by site path, already read (set again on every load, also when
    /// the parsed templates are reused: the highlighter's files are not part of the cache key).
    var assets: [String: [UInt8]]
    /// The templates a page is made of, compiled for their view models (`CompiledTemplate`).
    private var compiled: [String: CompiledTemplate]
    /// Problems found while loading: unreadable shipped templates, parse errors, partials that
    /// name no template. Any of them stops a build before it publishes.
    public private(set) var diagnostics: [Diagnostic]

    /// The shipped templates alone, loaded once per process.
    public static let shipped = TemplateLibrary(siteTemplatesDirectory: nil)

    /// Loads the shipped templates (`ShippedTemplates`: embedded in the binary, or the
    /// `SCROLLBACK_TEMPLATES` folder), then the site's overrides from `siteTemplatesDirectory`
    /// (if it exists). Every problem is an error diagnostic: a build with one publishes nothing.
    ///
    /// The files are read every time; they are parsed and compiled only when they differ from a
    /// load earlier in this process (`TemplateLibraryCache`): `serve` rebuilds on every save, and
    /// parsing and compiling were a quarter of a small build's time.
    ///
    /// - Parameters:
    ///   - siteTemplatesDirectory: the site's `templates/` folder, or `nil`.
    ///   - highlighterFolder: where highlight.js is installed (`HighlightAssets.folder`; tests
    ///     name a folder of their own, so what they build does not depend on the machine).
    public init(siteTemplatesDirectory: String?, highlighterFolder: String = HighlightAssets.folder) {
        self = TemplateLibraryCache.shared.library(
            for: TemplateSources(siteTemplatesDirectory: siteTemplatesDirectory),
            highlight: HighlightAssets.load(from: highlighterFolder))
    }

    /// The same library, with every template rendered through swift-mustache instead of compiled
    /// when `renderingEverythingWithMustache` (tests compare the two); never cached.
    init(
        siteTemplatesDirectory: String?, renderingEverythingWithMustache: Bool,
        highlighterFolder: String = HighlightAssets.folder
    ) {
        self.init(
            sources: TemplateSources(siteTemplatesDirectory: siteTemplatesDirectory),
            highlight: HighlightAssets.load(from: highlighterFolder),
            renderingEverythingWithMustache: renderingEverythingWithMustache)
    }

    /// Parses and compiles the templates of `sources`; `highlight` (the highlighter's files,
    /// `HighlightAssets`) are assets that the site's own `assets/` files replace.
    init(sources: TemplateSources, highlight: [String: [UInt8]], renderingEverythingWithMustache: Bool = false) {
        var templates: [String: MustacheTemplate] = [:]
        var empty: Set<String> = []
        var diagnostics: [Diagnostic] = []
        var overridden: Set<String> = []
        var texts: [String: (label: String, text: String)] = [:]
        let shippedLabel = sources.shippedLabel
        if let error = sources.shippedError {
            diagnostics.append(.error(.templateError(error), at: nil))
        } else {
            diagnostics += TemplateReferences.missingShippedTemplates(in: sources.shipped, label: shippedLabel)
        }
        if sources.siteFolderOutside {
            // A `templates` link out of the input is not even listed (issue 40: nothing
            // outside the input is opened).
            diagnostics.append(
                .warning(
                    .templateError("templates/ is a link to a folder outside the input folder; it is skipped"),
                    at: SourceLocation(file: "templates", line: 1, column: 1)))
        }
        for (files, isSite) in [(sources.shipped, false), (sources.site, true)] {
            for file in files {
                let relative = file.path
                let label = isSite ? "templates/\(relative)" : "\(shippedLabel)/\(relative)"
                // The site's files must resolve inside its input folder (the folder holding
                // `templates/`): a link to a file elsewhere is skipped, not rendered or published.
                if isSite, sources.refusedSiteFiles.contains(relative) {
                    diagnostics.append(
                        .warning(
                            .templateError("\(label) is a link to a file outside the input folder; it is skipped"),
                            at: SourceLocation(file: label, line: 1, column: 1)))
                    continue
                }
                guard !relative.hasPrefix("assets/"), relative.hasSuffix(".mustache") else { continue }
                let name = String(relative.dropLast(".mustache".count))
                var text = String(decoding: file.contents, as: UTF8.self)
                // A file's final newline is the editor's, not the page's.
                if text.hasSuffix("\n") { text.removeLast() }
                do {
                    templates[name] = try MustacheTemplate(string: PageEscaping.pragma + text)
                    texts[name] = (label, text)
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
        diagnostics += TemplateReferences.missingPartials(in: texts, known: Set(templates.keys))
        self.mustache = MustacheLibrary(templates: templates)
        self.parsed = templates
        self.emptyTemplates = empty
        self.overridden = overridden
        self.assets = sources.assets(highlight: highlight)
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
                let label = (overridden.contains(name) ? "templates/" : "\(shippedLabel)/") + name + ".mustache"
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
        case "not-found": return NotFoundView.templateSchema
        case "dates": return DateListView.templateSchema
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
