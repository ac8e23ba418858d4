import Foundation
import ScrollbackModel
import Yams

/// Turns Yams' positions and errors into `SourceLocation`s and `Diagnostic`s, for the config
/// reader and the Markdown front matter alike.
enum YAMLSupport {
    /// The location of a Yams `Mark` in `text`. Yams counts columns in Unicode scalars;
    /// diagnostics count UTF-8 bytes, so the column is converted. `lineOffset` is added to the
    /// line (for YAML embedded in a larger file, such as front matter after `---`).
    static func location(of mark: Mark, in text: String, file: String, lineOffset: Int = 0) -> SourceLocation {
        var column = mark.column
        var currentLine = 1
        var lineStart = text.unicodeScalars.startIndex
        if mark.line > 1 {
            for index in text.unicodeScalars.indices where text.unicodeScalars[index] == "\n" {
                currentLine += 1
                if currentLine == mark.line {
                    lineStart = text.unicodeScalars.index(after: index)
                    break
                }
            }
        }
        if currentLine == mark.line {
            let scalars = text.unicodeScalars[lineStart...].prefix(max(0, mark.column - 1))
            column = scalars.reduce(0) { $0 + $1.utf8.count } + 1
        }
        return SourceLocation(file: file, line: mark.line + lineOffset, column: column)
    }

    /// A diagnostic for an error Yams threw while parsing `text`.
    static func diagnostic(for error: any Error, in text: String, file: String, lineOffset: Int = 0) -> Diagnostic {
        if let yamlError = error as? YamlError {
            switch yamlError {
            case .scanner(let context, let problem, let mark, _),
                .parser(let context, let problem, let mark, _),
                .composer(let context, let problem, let mark, _):
                let detail = [context?.text, problem].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
                return .error(
                    .invalidYAML(detail), at: location(of: mark, in: text, file: file, lineOffset: lineOffset))
            default:
                break
            }
        }
        return .error(
            .invalidYAML(String(describing: error)), at: SourceLocation(file: file, line: 1 + lineOffset, column: 1))
    }

    /// The most nodes a YAML document may expand to, aliases counted at every use. Yams shares an
    /// aliased node, so parsing is fast, but every decoder walks the expanded tree: ten levels
    /// of ten aliases each (a "billion laughs") would take forever.
    static let maximumExpandedNodes = 100_000

    /// An error when `root`, with its aliases expanded, has more than `maximumExpandedNodes`
    /// nodes; found after visiting at most that many. Shared by the config reader and front matter.
    static func aliasBombProblem(_ root: Node) -> Problem? {
        var remaining = maximumExpandedNodes
        var pending = [root]
        while let node = pending.popLast() {
            remaining -= 1
            if remaining < 0 {
                return .invalidYAML(
                    "it expands to more than \(maximumExpandedNodes) values through aliases (*name); "
                        + "expected plain values, not nested aliases")
            }
            switch node {
            case .mapping(let mapping):
                for (key, value) in mapping {
                    pending.append(key)
                    pending.append(value)
                }
            case .sequence(let sequence): pending.append(contentsOf: sequence)
            default: break
            }
        }
        return nil
    }

    /// The node at `path` (mapping keys and sequence indices) below `root`, for pointing at a value.
    static func node(at path: [any CodingKey], in root: Node) -> Node? {
        var current = root
        for key in path {
            if let index = key.intValue, let sequence = current.sequence, index < sequence.count {
                current = sequence[index]
            } else if let value = current.mapping?[key.stringValue] {
                current = value
            } else {
                return nil
            }
        }
        return current
    }
}
