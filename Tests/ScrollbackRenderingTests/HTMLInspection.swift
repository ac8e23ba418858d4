import Foundation
import ScrollbackLayout
import ScrollbackModel

@testable import ScrollbackRendering

/// Minimal inspection of the renderer's own output (its markup is regular: one line opening with
/// `<div id="…" data-message-id=` per message, attributes double-quoted), so tests can check the §5 contract.
struct RenderedMessage {
    /// Attributes of the message element's opening tag.
    var attributes: [String: String]
    /// The element's HTML, up to the next row.
    var html: String

    func has(part: String) -> Bool { html.contains("data-part=\"\(part)\"") }
}

enum Inspect {
    /// `html` without the site's own script tags (the search client, the index filter): the only
    /// scripts a page may hold.
    static func withoutOwnScripts(_ html: String) -> String {
        html.replacingOccurrences(of: "<script src=\"../assets/search.js\" defer></script>", with: "")
            .replacingOccurrences(of: "<script src=\"../assets/conversation.js\" defer></script>", with: "")
            .replacingOccurrences(of: "<script src=\"assets/search.js\" defer></script>", with: "")
            .replacingOccurrences(of: "<script src=\"assets/index-filter.js\" defer></script>", with: "")
    }

    /// The page's HTML as text.
    static func text(_ file: RenderedFile) -> String { String(decoding: file.contents, as: UTF8.self) }

    /// Every message element of `html`, in order.
    static func messages(_ html: String) -> [RenderedMessage] {
        let rows = html.components(separatedBy: "\n").filter {
            $0.hasPrefix("<div id=\"") && $0.prefix { $0 != ">" }.contains(" data-message-id=\"")
        }
        return rows.map { row in
            let tagEnd = row.firstIndex(of: ">")!
            return RenderedMessage(attributes: attributes(String(row[..<tagEnd])), html: row)
        }
    }

    /// Attributes `name="value"` of an opening tag (values left escaped).
    static func attributes(_ tag: String) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(tag)
        while let equals = rest.range(of: "=\"") {
            let name = rest[..<equals.lowerBound].split(separator: " ").last.map(String.init) ?? ""
            let valueStart = equals.upperBound
            guard let close = rest[valueStart...].firstIndex(of: "\"") else { break }
            result[name] = String(rest[valueStart..<close])
            rest = rest[rest.index(after: close)...]
        }
        return result
    }

    /// Renders `layout` with a fresh renderer and returns pages by path.
    static func render(
        _ layout: ConversationPlan, config: SiteConfig = SiteConfig(), templates: TemplateLibrary = .shipped,
        customRenderers: [any CustomMessageRenderer] = []
    ) -> (pages: [String: String], diagnostics: [Diagnostic]) {
        let renderer = SiteRenderer(config: config, templates: templates, customRenderers: customRenderers)
        let (files, diagnostics) = renderer.renderFiles(layout)
        var pages: [String: String] = [:]
        for file in files { pages[file.path] = text(file) }
        return (pages, diagnostics)
    }

    /// A temporary folder holding `files` (relative path → contents), for site template overrides.
    static func siteTemplates(_ files: [String: String]) throws -> String {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("scrollback-templates-\(UUID().uuidString)")
        for (path, contents) in files {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
        return directory.path
    }
}

extension SiteRenderer {
    /// Every file of `plan`'s conversation, copied out of `renderConversation`, and its warnings.
    func renderFiles(_ plan: ConversationPlan) -> (files: [RenderedFile], diagnostics: [Diagnostic]) {
        var files: [RenderedFile] = []
        let diagnostics = renderConversation(plan) { path, bytes in
            files.append(RenderedFile(path: path, contents: Array(bytes)))
        }.diagnostics
        return (files, diagnostics)
    }
}
