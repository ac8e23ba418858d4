import Foundation
import Testing

@testable import ScrollbackHTML

/// Checks every sanitizer output must pass, whatever the input.
enum SanitizerSafety {
    /// Attributes the sanitizer may write, by element.
    static let allowedAttributes: [String: Set<String>] = [
        "a": ["href", "rel"], "img": ["src", "alt", "width", "height"], "ol": ["start"],
        "td": ["align", "colspan", "rowspan"], "th": ["align", "colspan", "rowspan"],
        "input": ["type", "checked", "disabled"],
    ]

    /// The problems found in `html`, empty when it is safe.
    ///
    /// Two independent looks: the raw tags as written (the sanitizer escapes `<` and `>` in
    /// text and attribute values, so each `<…>` is a tag it wrote), and the tree a parser
    /// builds from the output (only allow-listed elements and attributes, safe URL schemes).
    static func problems(in html: String) -> [String] {
        var problems: [String] = []
        let lowercased = html.lowercased()
        if lowercased.contains("<script") { problems.append("contains <script") }
        for tag in tags(in: lowercased) {
            for forbidden in ["javascript:", "vbscript:"] where tag.contains(forbidden) {
                problems.append("tag \(tag) contains \(forbidden)")
            }
            // Attribute names and syntax, with the (escaped, double-quoted) values left out.
            let skeleton = tag.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset.isMultiple(of: 2) }.map(\.element).joined(separator: "\"\"")
            for forbidden in [" on", "style=", "srcset", "class=", " id=", "'", "`"] where skeleton.contains(forbidden)
            {
                problems.append("tag \(tag) contains \(forbidden)")
            }
        }
        guard let document = LibXML2Document(text: "<html><body>" + html) else { return problems }
        document.walk(
            enter: { node in
                guard node.kind == .element else { return false }
                let name = node.name
                if ["html", "body"].contains(name) { return true }
                guard case .keep = ElementPolicy.forElement(name) else {
                    problems.append("element <\(name)> is not allowed")
                    return true
                }
                for (attribute, value) in node.attributes {
                    if !(allowedAttributes[name] ?? []).contains(attribute) {
                        problems.append("attribute \(attribute) on <\(name)>")
                    }
                    if attribute == "href" || attribute == "src" {
                        let scheme = URLPolicy.scheme(of: value)
                        if let scheme, !["http", "https", "mailto"].contains(scheme) {
                            problems.append("\(attribute) with scheme \(scheme)")
                        }
                    }
                }
                return true
            }, leave: { _ in })
        return problems
    }

    /// The text of each `<…>` in `html`.
    static func tags(in html: String) -> [Substring] {
        var tags: [Substring] = []
        var rest = html[...]
        while let start = rest.firstIndex(of: "<") {
            guard let end = rest[start...].firstIndex(of: ">") else {
                tags.append(rest[start...])
                break
            }
            tags.append(rest[start...end])
            rest = rest[rest.index(after: end)...]
        }
        return tags
    }

    /// The repository root, found from this file's path (`Tests/ScrollbackHTMLTests/…`).
    static func repositoryRoot(_ file: String = #filePath) -> URL {
        URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

}
