import Foundation
import ScrollbackModel
import ScrollbackTemplates

/// Checks that the templates a build loaded are complete, so a missing template can never render
/// as empty pages: swift-mustache prints nothing for a partial it cannot find, and the renderer
/// prints nothing for a template that does not exist.
enum TemplateReferences {
    /// An error for every template the binary ships that `shipped` lacks: a `SCROLLBACK_TEMPLATES`
    /// folder replaces the embedded set as a whole, so it must hold each of its templates.
    static func missingShippedTemplates(in shipped: [ShippedTemplates.File], label: String) -> [Diagnostic] {
        let present = Set(shipped.map(\.path))
        return ShippedTemplates.embedded.map(\.path)
            .filter { $0.hasSuffix(".mustache") && !present.contains($0) }
            .map { path in
                .error(
                    .templateError("\(label) has no \(path); expected every template the binary ships"),
                    at: SourceLocation(file: "\(label)/\(path)", line: 1, column: 1))
            }
    }

    /// An error, at the tag, for every partial (`{{> name}}`) that names no loaded template.
    ///
    /// - Parameters:
    ///   - sources: each template's label (for locations) and text, by template name.
    ///   - known: the names of the templates that loaded.
    static func missingPartials(
        in sources: [String: (label: String, text: String)], known: Set<String>
    )
        -> [Diagnostic]
    {
        var diagnostics: [Diagnostic] = []
        for name in sources.keys.sorted() {
            let (label, text) = sources[name]!
            for partial in partials(in: text) where !known.contains(partial.name) {
                diagnostics.append(
                    .error(
                        .templateError(
                            "\(label): partial “\(partial.name)” names no template; expected a file \(partial.name).mustache"
                        ),
                        at: SourceLocation(file: label, line: partial.line, column: partial.column)))
            }
        }
        return diagnostics
    }

    /// The partial tags of a template's text, with their 1-based line and column, following
    /// set-delimiter tags (`{{=<% %>=}}`). Dynamic partials (`{{>*name}}`) are left out.
    static func partials(in text: String) -> [(name: String, line: Int, column: Int)] {
        let characters = Array(text)
        var open = Array("{{")
        var close = Array("}}")
        var result: [(String, Int, Int)] = []
        var line = 1
        var column = 1
        var index = 0

        func matches(_ pattern: [Character], at position: Int) -> Bool {
            position + pattern.count <= characters.count
                && Array(characters[position..<position + pattern.count]) == pattern
        }

        while index < characters.count {
            guard matches(open, at: index) else {
                if characters[index] == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
                index += 1
                continue
            }
            let (tagLine, tagColumn) = (line, column)
            var end = index + open.count
            while end < characters.count && !matches(close, at: end) { end += 1 }
            let content = String(characters[(index + open.count)..<min(end, characters.count)])
            let trimmed = content.trimmingCharacters(in: .whitespaces)
            let tagEnd = min(end + close.count, characters.count)
            if trimmed.hasPrefix(">") {
                let partial = String(trimmed.dropFirst()).trimmingCharacters(in: .whitespaces)
                if !partial.isEmpty && !partial.hasPrefix("*") { result.append((partial, tagLine, tagColumn)) }
            } else if trimmed.hasPrefix("=") && trimmed.hasSuffix("=") && trimmed.count > 2 {
                let delimiters = trimmed.dropFirst().dropLast().split(separator: " ", omittingEmptySubsequences: true)
                if delimiters.count == 2 {
                    open = Array(delimiters[0])
                    close = Array(delimiters[1])
                }
            }
            // Advance the position past the tag, counting its lines.
            for character in characters[index..<tagEnd] {
                if character == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            }
            index = tagEnd
        }
        return result
    }
}
