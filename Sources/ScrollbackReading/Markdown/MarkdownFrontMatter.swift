import Foundation
import ScrollbackModel
import Yams

/// The YAML front matter of a Markdown log (spec §2): the top-level fields of a JSON log, with
/// `participants` as a map, plus `links:` (preview data by URL) and `layout:` (spec §3 options).
///
/// Decoded with Yams' `YAMLDecoder` into typed fields, so a string field keeps what was written:
/// a participant id `no` stays `"no"` and a name `010` stays `"010"` (no YAML 1.1 booleans or
/// octal numbers). Every value keeps the YAML `Mark` it was written at, for diagnostics.
struct MarkdownFrontMatter: Decodable {
    var title: String?
    var description: String?
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
    static let knownKeys: Set<String> = [
        "title", "description", "me", "timezone", "version", "id", "participants", "links", "layout",
    ]

    /// No front matter at all.
    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: YAMLKey.self)
        for key in container.allKeys {
            let field = try container.superDecoder(forKey: key)
            if try field.singleValueContainer().decodeNil() { continue }
            switch key.stringValue {
            case "title": title = try String(from: field)
            case "description": description = try String(from: field)
            case "me": me = try Located(from: field)
            case "timezone": timezone = try Located(from: field)
            case "version": version = try Located(from: field)
            case "id": id = try Located(from: field)
            case "participants": participants = try OrderedYAMLMap(from: field)
            case "links": links = try OrderedYAMLMap(from: field)
            case "layout": layout = try OrderedYAMLMap(from: field)
            default: unknownKeys.append(Located(value: key.stringValue, mark: field.mark))
            }
        }
    }
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

/// A YAML mapping decoded in the order it was written (a `Dictionary` would lose the order,
/// and participants are listed in log order).
struct OrderedYAMLMap<Value: Decodable>: Decodable {
    /// One `key: value` entry.
    struct Entry {
        var key: String
        var value: Value
        /// Where the value was written.
        var mark: Mark?
    }

    var entries: [Entry]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: YAMLKey.self)
        entries = try container.allKeys.map { key in
            let field = try container.superDecoder(forKey: key)
            return Entry(key: key.stringValue, value: try Value(from: field), mark: field.mark)
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

/// Any mapping key.
struct YAMLKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
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
        } catch let error as YamlError {
            return .failure(.error(.invalidYAML(Self.describe(error)), at: location(Self.mark(of: error), file: file)))
        } catch {
            return .failure(.error(.invalidYAML("\(error)"), at: location(nil, file: file)))
        }
        guard root.mapping != nil else {
            return .failure(
                .error(
                    .wrongType(field: "front matter", expected: "a mapping of fields such as 'title:' and 'participants:'"),
                    at: location(root.mark, file: file)))
        }
        do {
            return .success(try YAMLDecoder().decode(MarkdownFrontMatter.self, from: root))
        } catch let error as DecodingError {
            return .failure(diagnostic(for: error, root: root, file: file))
        } catch let error as YamlError {
            return .failure(.error(.invalidYAML(Self.describe(error)), at: location(Self.mark(of: error), file: file)))
        } catch {
            return .failure(.error(.invalidYAML("\(error)"), at: location(root.mark, file: file)))
        }
    }

    /// A decoding error as a diagnostic at the deepest node of its coding path.
    private func diagnostic(for error: DecodingError, root: Node, file: String) -> Diagnostic {
        func node(at path: [any CodingKey]) -> Node {
            var current = root
            for key in path {
                if let index = key.intValue, let sequence = current.sequence, index < sequence.count {
                    current = sequence[index]
                } else if let child = current.mapping?[key.stringValue] {
                    current = child
                } else {
                    break
                }
            }
            return current
        }
        func field(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        func expected(_ type: Any.Type) -> String {
            switch type {
            case is String.Type, is Optional<String>.Type: return "a string"
            case is Bool.Type: return "true or false"
            case is Int.Type, is Double.Type: return "a number"
            default:
                let name = String(describing: type)
                if name.contains("OrderedYAMLMap") || name.contains("Keys") || name.contains("YAMLKey")
                    || name.contains("Dictionary")
                {
                    return "a mapping of 'key: value' lines"
                }
                if name.contains("FrontMatterParticipant") { return "a name, or a mapping with name, avatar and color" }
                return "a value of type \(name)"
            }
        }
        switch error {
        case .typeMismatch(let type, let context):
            return .error(
                .wrongType(field: field(context.codingPath), expected: expected(type)),
                at: location(node(at: context.codingPath).mark, file: file))
        case .valueNotFound(let type, let context):
            return .error(
                .wrongType(field: field(context.codingPath), expected: expected(type)),
                at: location(node(at: context.codingPath).mark, file: file))
        case .keyNotFound(let key, let context):
            return .error(
                .missingField(field(context.codingPath + [key])), at: location(node(at: context.codingPath).mark, file: file))
        case .dataCorrupted(let context):
            return .error(
                .invalidYAML("\(field(context.codingPath)): \(context.debugDescription)"),
                at: location(node(at: context.codingPath).mark, file: file))
        @unknown default:
            return .error(.invalidYAML("\(error)"), at: location(root.mark, file: file))
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
