import Foundation
import ScrollbackModel
import Yams

/// The YAML front matter of a Markdown log (spec §2): the top-level fields of a JSON log, with
/// `participants` as a map, plus `links:` (preview data by URL) and `layout:` (spec §3 options).
///
/// Each value is decoded with Yams' `YAMLDecoder` into a typed field, so a string field keeps
/// what was written: a participant id `no` stays `"no"` and a name `010` stays `"010"` (no
/// YAML 1.1 booleans or octal numbers). The mappings themselves are walked node by node, which
/// keeps their order and every key as written (Yams' keyed containers cannot find a quoted key
/// such as `"on"`). Every value keeps the YAML `Mark` it was written at, for diagnostics.
struct MarkdownFrontMatter {
    var title: String?
    var description: String?
    var section: String?
    var me: Located<String>?
    var timezone: Located<String>?
    var version: Located<LayoutOptionValue>?
    var id: Located<String>?
    var participants: OrderedYAMLMap<FrontMatterParticipant>?
    var links: OrderedYAMLMap<FrontMatterLink>?
    var layout: OrderedYAMLMap<LayoutOptionValue>?
    /// Top-level keys this version does not know, with where they were written (reported as warnings).
    var unknownKeys: [Located<String>] = []

    /// The field names front matter may use.
    static let knownKeys = [
        "title", "description", "section", "me", "timezone", "version", "id", "participants", "links", "layout",
    ]

    /// No front matter at all.
    init() {}
}

/// A decoded value and the YAML position it was written at.
struct Located<Value: Decodable>: Decodable {
    var value: Value
    var mark: Mark?

    init(value: Value, mark: Mark?) {
        self.value = value
        self.mark = mark
    }

    init(from decoder: any Decoder) throws {
        self.value = try Value(from: decoder)
        self.mark = decoder.mark
    }
}

/// A YAML mapping in the order it was written (participants are listed in log order).
struct OrderedYAMLMap<Value: Decodable> {
    /// One `key: value` entry.
    struct Entry {
        var key: String
        var value: Value
        /// Where the value was written.
        var mark: Mark?
    }

    var entries: [Entry] = []
}

/// Why front matter could not be decoded, and where.
struct FrontMatterFailure: Error {
    var problem: Problem
    var mark: Mark?
}

/// Decodes front matter from Yams' node tree, value by value, with `YAMLDecoder`.
struct FrontMatterDecoder {
    private let decoder = YAMLDecoder()

    func decode(_ root: Node) throws(FrontMatterFailure) -> MarkdownFrontMatter {
        guard let mapping = root.mapping else {
            throw FrontMatterFailure(
                problem: .wrongType(
                    field: "front matter", expected: "a mapping of fields such as 'title:' and 'participants:'"),
                mark: root.mark)
        }
        var result = MarkdownFrontMatter()
        for (keyNode, valueNode) in mapping {
            let key = Self.keyText(keyNode)
            if valueNode.null != nil { continue }
            switch key {
            case "title": result.title = try value(String.self, valueNode, path: [key]).value
            case "description": result.description = try value(String.self, valueNode, path: [key]).value
            case "section": result.section = try value(String.self, valueNode, path: [key]).value
            case "me": result.me = try value(String.self, valueNode, path: [key])
            case "timezone": result.timezone = try value(String.self, valueNode, path: [key])
            case "version": result.version = try value(LayoutOptionValue.self, valueNode, path: [key])
            case "id": result.id = try value(String.self, valueNode, path: [key])
            case "participants": result.participants = try map(FrontMatterParticipant.self, valueNode, path: [key])
            case "links": result.links = try map(FrontMatterLink.self, valueNode, path: [key])
            case "layout": result.layout = try map(LayoutOptionValue.self, valueNode, path: [key])
            default: result.unknownKeys.append(Located(value: key, mark: keyNode.mark))
            }
        }
        return result
    }

    private static func keyText(_ node: Node) -> String {
        node.scalar?.string ?? "\(node)"
    }

    /// `node` decoded as `T`; a shape error names the field by `path` and points at the offending node.
    private func value<T: Decodable>(
        _ type: T.Type, _ node: Node, path: [String]
    ) throws(FrontMatterFailure) -> Located<T> {
        do {
            return Located(value: try decoder.decode(T.self, from: node), mark: node.mark)
        } catch let error as DecodingError {
            throw Self.failure(error, in: node, path: path)
        } catch {
            throw FrontMatterFailure(problem: .invalidYAML("\(error)"), mark: node.mark)
        }
    }

    private func map<T: Decodable>(
        _ type: T.Type, _ node: Node, path: [String]
    ) throws(FrontMatterFailure)
        -> OrderedYAMLMap<T>
    {
        guard let mapping = node.mapping else {
            throw FrontMatterFailure(
                problem: .wrongType(field: path.joined(separator: "."), expected: "a mapping of 'key: value' lines"),
                mark: node.mark)
        }
        var result = OrderedYAMLMap<T>()
        for (keyNode, valueNode) in mapping {
            let key = Self.keyText(keyNode)
            let decoded = try value(T.self, valueNode, path: path + [key])
            result.entries.append(.init(key: key, value: decoded.value, mark: decoded.mark ?? keyNode.mark))
        }
        return result
    }

    /// A decoding error as a failure at the deepest node of its coding path under `node`.
    private static func failure(_ error: DecodingError, in decoded: Node, path: [String]) -> FrontMatterFailure {
        func node(at codingPath: [any CodingKey]) -> Node {
            var current = decoded
            for key in codingPath {
                if let index = key.intValue, let sequence = current.sequence, index < sequence.count {
                    current = sequence[index]
                } else if let child = current.mapping?.first(where: { keyText($0.key) == key.stringValue })?.value {
                    current = child
                } else {
                    break
                }
            }
            return current
        }
        func field(_ codingPath: [any CodingKey]) -> String {
            (path + codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }).joined(separator: ".")
        }
        func expected(_ type: Any.Type) -> String {
            let name = String(describing: type)
            if type == String.self { return "a string" }
            if type == Bool.self { return "true or false" }
            if type == Int.self || type == Double.self { return "a number" }
            if name.contains("FrontMatterParticipant") { return "a name, or a mapping with name, avatar and color" }
            if name.contains("FrontMatterLink") { return "a mapping with title, teaser, thumbnail and siteName" }
            if name.contains("Dictionary") || name.contains("Keys") { return "a mapping of 'key: value' lines" }
            return "a value of type \(name)"
        }
        switch error {
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return FrontMatterFailure(
                problem: .wrongType(field: field(context.codingPath), expected: expected(type)),
                mark: node(at: context.codingPath).mark)
        case .keyNotFound(let key, let context):
            return FrontMatterFailure(
                problem: .missingField(field(context.codingPath + [key])), mark: node(at: context.codingPath).mark)
        case .dataCorrupted(let context):
            return FrontMatterFailure(
                problem: .invalidYAML("\(field(context.codingPath)): \(context.debugDescription)"),
                mark: node(at: context.codingPath).mark)
        @unknown default:
            return FrontMatterFailure(problem: .invalidYAML("\(error)"), mark: decoded.mark)
        }
    }
}

/// A participant: `id: Name` or `id: { name, avatar, color }`.
struct FrontMatterParticipant: Decodable {
    var name: String
    var avatar: Located<String>?
    var color: Located<String>?

    private enum Keys: String, CodingKey { case name, avatar, color }

    init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let name = try? single.decode(String.self) {
            self.name = name
            return
        }
        let container = try decoder.container(keyedBy: Keys.self)
        name = try container.decode(String.self, forKey: .name)
        avatar = try container.decodeIfPresent(Located<String>.self, forKey: .avatar)
        color = try container.decodeIfPresent(Located<String>.self, forKey: .color)
    }
}

/// Preview data for one URL: `url: { title, teaser, thumbnail, siteName }`.
struct FrontMatterLink: Decodable {
    var title: String?
    var teaser: String?
    var thumbnail: Located<String>?
    var siteName: String?
}

/// Where the front matter sits in the file, and how to turn YAML positions into file positions.
struct FrontMatterPlacement {
    /// The YAML text between the `---` lines.
    var yaml: String
    /// Lines of `yaml`, for turning libyaml's scalar columns into UTF-8 byte columns.
    var lines: [Substring]
    /// File line of the first YAML line (2: the opening `---` is line 1).
    var firstLine: Int = 2

    /// The file location of a YAML mark (Yams: 1-based line, 1-based column in Unicode scalars).
    func location(_ mark: Mark?, file: String) -> SourceLocation {
        guard let mark else { return SourceLocation(file: file, line: 1, column: 1) }
        var column = mark.column
        if mark.line >= 1, mark.line <= lines.count {
            let scalars = lines[mark.line - 1].unicodeScalars
            let prefix = scalars.prefix(max(0, mark.column - 1))
            column = prefix.reduce(0) { $0 + UTF8.width($1) } + 1
        }
        return SourceLocation(file: file, line: mark.line + firstLine - 1, column: column)
    }

    /// Decodes the front matter, or returns the diagnostic for YAML that does not parse or
    /// does not have the expected shape.
    func decode(file: String) -> Result<MarkdownFrontMatter, Diagnostic> {
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: yaml) else { return .success(MarkdownFrontMatter()) }
            root = node
            if let bomb = YAMLSupport.aliasBombProblem(node) {
                return .failure(.error(bomb, at: location(node.mark, file: file)))
            }
        } catch let error as YamlError {
            return .failure(.error(.invalidYAML(Self.describe(error)), at: location(Self.mark(of: error), file: file)))
        } catch {
            return .failure(.error(.invalidYAML("\(error)"), at: location(nil, file: file)))
        }
        do {
            return .success(try FrontMatterDecoder().decode(root))
        } catch {
            return .failure(.error(error.problem, at: location(error.mark ?? root.mark, file: file)))
        }
    }

    private static func mark(of error: YamlError) -> Mark? {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): return mark
        case .duplicatedKeysInMapping(_, let context): return context.mark
        default: return nil
        }
    }

    private static func describe(_ error: YamlError) -> String {
        switch error {
        case .scanner(let context, let problem, _, _), .parser(let context, let problem, _, _),
            .composer(let context, let problem, _, _):
            if let context { return "\(problem) (\(context.text))" }
            return problem
        case .duplicatedKeysInMapping(let duplicates, _):
            return "duplicate key \(duplicates.map { "'\($0)'" }.joined(separator: ", ")); expected each key once"
        case .reader(let problem, _, _, _): return problem
        default: return "\(error)"
        }
    }
}
