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
    /// Asset files (`assets/…`) by site path, already read.
    let assets: [String: [UInt8]]
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
    /// - Parameters:
    ///   - siteTemplatesDirectory: the site's `templates/` folder, or `nil`.
    ///   - highlighterFolder: where highlight.js is installed (`HighlightAssets.folder`; tests
    ///     name a folder of their own, so what they build does not depend on the machine).
    public init(siteTemplatesDirectory: String?, highlighterFolder: String = HighlightAssets.folder) {
        self.init(
            siteTemplatesDirectory: siteTemplatesDirectory, renderingEverythingWithMustache: false,
            highlighterFolder: highlighterFolder)
    }

    /// The same library, with every template rendered through swift-mustache instead of compiled
    /// when `renderingEverythingWithMustache` (tests compare the two).
    init(
        siteTemplatesDirectory: String?, renderingEverythingWithMustache: Bool,
        highlighterFolder: String = HighlightAssets.folder
    ) {
        var templates: [String: MustacheTemplate] = [:]
        var empty: Set<String> = []
        var assets: [String: [UInt8]] = [:]
        var diagnostics: [Diagnostic] = []
        var overridden: Set<String> = []
        var sources: [String: (label: String, text: String)] = [:]
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
            let inputFolder = PathText.parent(siteTemplatesDirectory)
            if FileManager.default.fileExists(atPath: siteTemplatesDirectory),
                !InputContainment.resolves(siteTemplatesDirectory, inside: inputFolder)
            {
                // A `templates` link out of the input is not even listed (issue 40: nothing
                // outside the input is opened).
                diagnostics.append(
                    .warning(
                        .templateError("templates/ is a link to a folder outside the input folder; it is skipped"),
                        at: SourceLocation(file: "templates", line: 1, column: 1)))
            } else {
                // No folder (the usual case) means no overrides. Files that link out of the input
                // are listed unread, and skipped with a warning below.
                site =
                    (try? ShippedTemplates.files(
                        inFolder: siteTemplatesDirectory,
                        reads: { InputContainment.resolves($0, inside: inputFolder) })) ?? []
            }
        }
        // The highlighter comes from its Debian package, not the repository; a site's own
        // `templates/assets/highlight.*` replaces it like any asset.
        assets = HighlightAssets.load(from: highlighterFolder)
        for (files, isSite) in [(shipped, false), (site, true)] {
            for file in files {
                let relative = file.path
                let label = isSite ? "templates/\(relative)" : "\(shippedLabel)/\(relative)"
                // The site's files must resolve inside its input folder (the folder holding
                // `templates/`): a link to a file elsewhere is skipped, not rendered or published.
                if isSite, let siteTemplatesDirectory,
                    !InputContainment.resolves(
                        PathText.appending(relative, to: siteTemplatesDirectory),
                        inside: PathText.parent(siteTemplatesDirectory))
                {
                    diagnostics.append(
                        .warning(
                            .templateError("\(label) is a link to a file outside the input folder; it is skipped"),
                            at: SourceLocation(file: label, line: 1, column: 1)))
                    continue
                }
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
