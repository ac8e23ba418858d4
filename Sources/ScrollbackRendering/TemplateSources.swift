import Foundation
import ScrollbackModel
import ScrollbackTemplates

/// Everything a `TemplateLibrary` is parsed from, read from disk: the shipped files, the site's
/// `templates/` files and what containment decided about them. Two equal values give the same
/// library, so a library parsed earlier in the process is used again (`TemplateLibraryCache`).
struct TemplateSources: Equatable, Sendable {
    /// The shipped files (`ShippedTemplates.files()`: embedded, or the `SCROLLBACK_TEMPLATES`
    /// folder's), sorted by path; empty when they could not be read.
    var shipped: [ShippedTemplates.File] = []
    /// Why the shipped files could not be read (`SCROLLBACK_TEMPLATES` names no folder).
    var shippedError: String?
    /// How diagnostics name the shipped folder: `Templates` or `SCROLLBACK_TEMPLATES`.
    var shippedLabel = "Templates"
    /// The site's `templates/` files, sorted by path; one that links out of the input folder is
    /// listed with no contents (never opened).
    var site: [ShippedTemplates.File] = []
    /// The site files (relative paths) that resolve outside the input folder: skipped with a warning.
    var refusedSiteFiles: Set<String> = []
    /// Whether `templates/` itself is a link out of the input folder (then not even listed).
    var siteFolderOutside = false

    /// Sources given as they are (tests).
    init(shipped: [ShippedTemplates.File], site: [ShippedTemplates.File] = []) {
        self.shipped = shipped
        self.site = site
    }

    /// Reads the shipped files and those of `siteTemplatesDirectory` (a site's `templates/`
    /// folder, or `nil`), applying `InputContainment` to the site's: nothing outside the folder
    /// holding `templates/` is opened.
    init(siteTemplatesDirectory: String?) {
        if ShippedTemplates.overrideDirectory != nil { shippedLabel = ShippedTemplates.overrideVariable }
        do {
            shipped = try ShippedTemplates.files()
        } catch {
            shippedError = error.description
        }
        guard let siteTemplatesDirectory else { return }
        let inputFolder = PathText.parent(siteTemplatesDirectory)
        if FileManager.default.fileExists(atPath: siteTemplatesDirectory),
            !InputContainment.resolves(siteTemplatesDirectory, inside: inputFolder)
        {
            siteFolderOutside = true
            return
        }
        // No folder (the usual case) means no overrides. Files that link out of the input are
        // listed unread, and skipped with a warning by the library.
        site =
            (try? ShippedTemplates.files(
                inFolder: siteTemplatesDirectory, reads: { InputContainment.resolves($0, inside: inputFolder) })) ?? []
        for file in site
        where !InputContainment.resolves(PathText.appending(file.path, to: siteTemplatesDirectory), inside: inputFolder)
        {
            refusedSiteFiles.insert(file.path)
        }
    }

    /// The site's static files by site path: the highlighter's (`highlight`), replaced file by
    /// file by the shipped `assets/`, then by the site's own (those inside the input folder).
    func assets(highlight: [String: [UInt8]]) -> [String: [UInt8]] {
        var assets = highlight
        for file in shipped where file.path.hasPrefix("assets/") { assets[file.path] = file.contents }
        for file in site where file.path.hasPrefix("assets/") && !refusedSiteFiles.contains(file.path) {
            assets[file.path] = file.contents
        }
        return assets
    }
}

/// The libraries parsed in this process, by their sources: a build whose template files are the
/// same as an earlier build's (every build of `serve` but one after a template edit, every input
/// of the whole-export fuzz target) skips parsing and compiling them. The files themselves are
/// read by every build, so an edited template is always seen.
final class TemplateLibraryCache: @unchecked Sendable {
    /// The process's cache, used by `TemplateLibrary.init(siteTemplatesDirectory:)`.
    static let shared = TemplateLibraryCache()

    /// How many libraries are kept: a process builds one site (or a few, in tests) at a time.
    static let capacity = 4

    private let lock = NSLock()
    /// The kept libraries, most recently used last.
    private var entries: [(sources: TemplateSources, library: TemplateLibrary)] = []
    private var parseCount = 0

    /// How many libraries this cache parsed (tests: a second load of the same files parses nothing).
    var parses: Int {
        lock.lock()
        defer { lock.unlock() }
        return parseCount
    }

    /// The library of `sources`: a kept one when the sources are equal, else parsed now; its
    /// assets are `sources.assets(highlight:)` either way.
    func library(for sources: TemplateSources, highlight: [String: [UInt8]]) -> TemplateLibrary {
        lock.lock()
        let index = entries.lastIndex { $0.sources == sources }
        var library = index.map { entries.remove(at: $0).library }
        if let library { entries.append((sources, library)) }
        lock.unlock()
        if library == nil {
            // Parsed outside the lock: builds of other sites in the process do not wait for it.
            let parsed = TemplateLibrary(sources: sources, highlight: highlight)
            lock.lock()
            parseCount += 1
            entries.append((sources, parsed))
            if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
            lock.unlock()
            library = parsed
        }
        library!.assets = sources.assets(highlight: highlight)
        return library!
    }
}
