import Foundation
import ScrollbackModel
import Yams

/// Reads the site configuration file (`scrollback.yml`, `scrollback.yaml` or `scrollback.json`)
/// from the input folder.
///
/// ```yaml
/// title: Our chats
/// description: Family group, 2019–2024
/// pageSize: 500
/// remoteMedia: false
/// me: [Alice, alice.b]        # you: a participant id or name, or a list of them
/// conversations:
///   whatsapp-chat-with-bob: {me: Alice}
/// layout:
///   groupGap: 10m
///   collapseTimestamps: top
///   messageMaxWidth: 480px
///   timestampFormat: HH:mm
///   locale: de_DE
///   timezone: Europe/Berlin
/// ```
///
/// Both forms are decoded with Yams' `YAMLDecoder` (JSON is YAML); a JSON file is first checked
/// by the strict JSON parser so a syntax error is reported as JSON. Bad values are errors at
/// their line and column; unknown keys are warnings.
public enum ConfigReader {
    /// The names a config file may have, in the order they are looked for.
    public static let fileNames = ["scrollback.yml", "scrollback.yaml", "scrollback.json"]

    /// The top-level keys a config may hold.
    static let topLevelKeys = ConfigOptions.topLevelKeys

    /// The shape of the file, decoded by `YAMLDecoder`.
    struct ConfigFile: Decodable {
        var title: String?
        var description: String?
        var pageSize: Int?
        var remoteMedia: Bool?
        var baseURL: String?
        var search: Bool?
        var layout: [String: LayoutOptionValue]?
        var maxLogBytes: Int64?
        var maxMediaBytes: Int64?
    }

    /// Reads the config in `inputRoot`, or the defaults when there is none.
    public static func read(inputRoot: URL) -> (config: SiteConfig, diagnostics: [Diagnostic]) {
        let present = fileNames.filter {
            FileManager.default.fileExists(atPath: inputRoot.appendingPathComponent($0).path)
        }
        guard let chosen = present.first else { return (SiteConfig(), []) }
        let file = inputRoot.appendingPathComponent(chosen)
        let path = ReadingContext.displayPath(file, inputRoot: inputRoot)
        var diagnostics: [Diagnostic] = []
        for ignored in present.dropFirst() {
            diagnostics.append(
                .warning(
                    .other("config file \(ignored) is ignored because \(chosen) is used; expected one config file"),
                    at: SourceLocation(
                        file: ReadingContext.displayPath(
                            inputRoot.appendingPathComponent(ignored), inputRoot: inputRoot), line: 1, column: 1)))
        }
        guard InputContainment.resolves(file.path, inside: inputRoot.path) else {
            diagnostics.append(
                .error(
                    .fileSystem("it is a link to a file outside the input folder; expected the config itself"),
                    at: SourceLocation(file: path, line: 1, column: 1)))
            return (SiteConfig(), diagnostics)
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            diagnostics.append(
                .error(.fileSystem("cannot read file"), at: SourceLocation(file: path, line: 1, column: 1)))
            return (SiteConfig(), diagnostics)
        }
        let result = read(bytes: [UInt8](data), file: path, isJSON: chosen.hasSuffix(".json"))
        return (result.config, diagnostics + result.diagnostics)
    }

    /// Reads config text; `file` is the path shown in diagnostics.
    public static func read(
        bytes: [UInt8], file: String, isJSON: Bool
    ) -> (config: SiteConfig, diagnostics: [Diagnostic]) {
        var config = SiteConfig()
        let start = SourceLocation(file: file, line: 1, column: 1)
        if isJSON {
            // Strict syntax first: Yams would accept things JSON does not (comments, trailing commas).
            do {
                _ = try JSONParser.parse(bytes, file: file)
            } catch {
                return (config, [error])
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return (config, [.error(.invalidUTF8, at: UTF8Check.firstInvalidByte(in: bytes, file: file) ?? start)])
        }
        let root: Node
        do {
            guard let composed = try Yams.compose(yaml: text) else { return (config, []) }  // empty file: defaults
            root = composed
        } catch {
            return (config, [YAMLSupport.diagnostic(for: error, in: text, file: file)])
        }
        if let bomb = YAMLSupport.aliasBombProblem(root) {
            return (
                config,
                [.error(bomb, at: root.mark.map { YAMLSupport.location(of: $0, in: text, file: file) } ?? start)]
            )
        }
        func location(_ node: Node?) -> SourceLocation {
            guard let mark = node?.mark else { return start }
            return YAMLSupport.location(of: mark, in: text, file: file)
        }
        guard let mapping = root.mapping else {
            return (
                config,
                [.error(.invalidYAML("expected a mapping of settings such as 'title: My chats'"), at: location(root))]
            )
        }
        var diagnostics: [Diagnostic] = []
        for (key, _) in mapping {
            guard let name = key.string, topLevelKeys.contains(name) else {
                let name = key.string ?? "?"
                diagnostics.append(
                    .warning(
                        .unknownField(
                            name, in: "the config", suggestion: NearestName.suggestion(for: name, in: topLevelKeys),
                            known: topLevelKeys),
                        at: location(key)))
                continue
            }
        }
        let decoded: ConfigFile
        do {
            decoded = try YAMLDecoder().decode(ConfigFile.self, from: root)
        } catch let error as DecodingError {
            diagnostics.append(decodingDiagnostic(error, root: root, location: location))
            return (config, diagnostics)
        } catch {
            diagnostics.append(YAMLSupport.diagnostic(for: error, in: text, file: file))
            return (config, diagnostics)
        }
        if let title = decoded.title { config.title = title }
        config.description = decoded.description
        if let pageSize = decoded.pageSize {
            if pageSize >= 1 {
                config.pageSize = pageSize
            } else {
                diagnostics.append(
                    .error(
                        .invalidOption(
                            name: "pageSize", value: String(pageSize), expected: "a whole number of at least 1"),
                        at: location(mapping["pageSize"])))
            }
        }
        if let remoteMedia = decoded.remoteMedia { config.remoteMedia = remoteMedia }
        if let baseURL = decoded.baseURL {
            if let normalized = SiteConfig.normalizedBaseURL(baseURL) {
                config.baseURL = normalized
            } else {
                diagnostics.append(
                    .error(
                        .invalidOption(
                            name: "baseURL", value: baseURL,
                            expected: "an absolute http or https URL such as https://example.com/chats/"),
                        at: location(mapping["baseURL"])))
            }
        }
        if let search = decoded.search { config.search = search }
        for (name, value, keyPath) in [
            ("maxLogBytes", decoded.maxLogBytes, \SiteConfig.maxLogBytes),
            ("maxMediaBytes", decoded.maxMediaBytes, \SiteConfig.maxMediaBytes),
        ] {
            guard let value else { continue }
            if value >= 1 {
                config[keyPath: keyPath] = value
            } else {
                diagnostics.append(
                    .error(
                        .invalidOption(name: name, value: String(value), expected: "a number of bytes of at least 1"),
                        at: location(mapping[name])))
            }
        }
        if let layout = decoded.layout, let layoutNode = mapping["layout"]?.mapping {
            var overrides = LayoutOverrides()
            // In file order, so diagnostics come out in a stable order.
            for (keyNode, valueNode) in layoutNode {
                guard let name = keyNode.string, let value = layout[name] else { continue }
                guard LayoutOptionParsing.isOption(name) else {
                    diagnostics.append(.warning(LayoutOptionParsing.unknownOption(name), at: location(keyNode)))
                    continue
                }
                if let problem = LayoutOptionParsing.apply(name, value, to: &overrides) {
                    diagnostics.append(.error(problem, at: location(valueNode)))
                }
            }
            config.layout = config.layout.applying(overrides)
        }
        config.me = readMe(mapping, location: location, diagnostics: &diagnostics)
        return (config, diagnostics)
    }

    /// The `me:` key and the `conversations:` map (issue 42.4), read from the nodes (a name, a
    /// number such as a Telegram user id, or a list of them); each bad value is an error at it.
    static func readMe(
        _ mapping: Node.Mapping, location: (Node?) -> SourceLocation, diagnostics: inout [Diagnostic]
    ) -> MeSetting {
        var setting = MeSetting()
        func names(_ node: Node, key: String) -> [String] {
            if let scalar = node.scalar, !scalar.string.isEmpty { return [scalar.string] }
            if let sequence = node.sequence, !sequence.isEmpty,
                sequence.allSatisfy({ !($0.scalar?.string ?? "").isEmpty })
            {
                return sequence.map { $0.scalar!.string }
            }
            diagnostics.append(
                .error(
                    .invalidOption(
                        name: key, value: node.scalar?.string ?? "",
                        expected: "a participant id or display name, or a list of them such as [Alice, alice.b]"),
                    at: location(node)))
            return []
        }
        if let node = mapping["me"] { setting.names = names(node, key: "me") }
        guard let conversationsNode = mapping["conversations"] else { return setting }
        guard let conversations = conversationsNode.mapping else {
            diagnostics.append(
                .error(
                    .invalidOption(
                        name: "conversations", value: conversationsNode.scalar?.string ?? "",
                        expected: "a mapping of conversation ids to their settings, such as {general: {me: Alice}}"),
                    at: location(conversationsNode)))
            return setting
        }
        for (idNode, settingsNode) in conversations {
            guard let id = idNode.scalar?.string, let settings = settingsNode.mapping else {
                diagnostics.append(
                    .error(
                        .invalidOption(
                            name: "conversations", value: idNode.scalar?.string ?? "",
                            expected: "a conversation id and its settings, such as general: {me: Alice}"),
                        at: location(settingsNode)))
                continue
            }
            for (keyNode, valueNode) in settings {
                guard keyNode.scalar?.string == "me" else {
                    let name = keyNode.scalar?.string ?? "?"
                    diagnostics.append(
                        .warning(
                            .unknownField(
                                name, in: "conversations.\(id)",
                                suggestion: NearestName.suggestion(for: name, in: ["me"]),
                                known: ["me"]),
                            at: location(keyNode)))
                    continue
                }
                setting.byConversation[id] = names(valueNode, key: "conversations.\(id).me")
            }
        }
        return setting
    }

    static func decodingDiagnostic(
        _ error: DecodingError, root: Node, location: (Node?) -> SourceLocation
    ) -> Diagnostic {
        let expectedByKey = [
            "title": "text", "description": "text", "pageSize": "a whole number of at least 1",
            "remoteMedia": "true or false", "search": "true or false", "baseURL": "an http or https URL",
            "layout": "a mapping of layout options",
        ]
        let path: [any CodingKey]
        let detail: String
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            path = context.codingPath
            detail = context.debugDescription
        case .keyNotFound(let key, let context):
            path = context.codingPath + [key]
            detail = context.debugDescription
        @unknown default:
            return .error(.invalidYAML(String(describing: error)), at: location(nil))
        }
        let node = YAMLSupport.node(at: path, in: root)
        let name = path.map(\.stringValue).joined(separator: ".")
        if let top = path.first?.stringValue,
            let expected = path.count == 1
                ? expectedByKey[top] : (top == "layout" ? "a string, number or boolean" : nil)
        {
            return .error(
                .invalidOption(name: name, value: node?.string ?? node.map { "\($0)" } ?? "", expected: expected),
                at: location(node))
        }
        return .error(.invalidYAML(name.isEmpty ? detail : "\(name): \(detail)"), at: location(node))
    }
}

/// Finds where UTF-8 first goes wrong, for `Problem.invalidUTF8` diagnostics.
enum UTF8Check {
    /// The line and column (1-based, columns in bytes) of the first byte of the first malformed
    /// sequence, or `nil` if `bytes` are valid UTF-8.
    static func firstInvalidByte(in bytes: [UInt8], file: String) -> SourceLocation? {
        if String(validating: bytes, as: UTF8.self) != nil { return nil }
        var line = 1
        var lineStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                lineStart = index + 1
                index += 1
                continue
            }
            if byte < 0x80 {
                index += 1
                continue
            }
            let length = sequenceLength(bytes, at: index)
            guard length > 0 else { return SourceLocation(file: file, line: line, column: index - lineStart + 1) }
            index += length
        }
        return nil
    }

    /// Length of the well-formed sequence at `index`, 0 if malformed.
    private static func sequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let first = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch first {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            secondRange = 0x80...0x9F
        case 0xF0:
            length = 4
            secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            secondRange = 0x80...0x8F
        default: return 0
        }
        guard index + length <= bytes.count, secondRange.contains(bytes[index + 1]) else { return 0 }
        for offset in 2..<max(2, length) where !(0x80...0xBF).contains(bytes[index + offset]) { return 0 }
        return length
    }
}
