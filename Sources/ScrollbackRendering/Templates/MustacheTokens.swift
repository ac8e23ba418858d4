import Mustache

/// One token of a template as swift-mustache parsed it.
///
/// swift-mustache keeps its token tree (`MustacheTemplate.tokens`, an internal enum) to itself;
/// it is read here through reflection, the one place that knows its layout. The package is
/// pinned (2.1.1) and `TemplateCompilerTests` pins the layout: a token this reader does not
/// recognise makes `tokens(of:)` answer `nil`, and the template is rendered by swift-mustache
/// itself (never an empty page).
enum MustacheToken {
    case text(String)
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}`.
    case variable(name: String, escaped: Bool, transforms: [String])
    /// `{{#name}}…{{/name}}` or, inverted, `{{^name}}…{{/name}}`.
    case section(name: String, inverted: Bool, transforms: [String], body: MustacheTemplate)
    /// `{{>name}}`; `indentation` is the whitespace before a standalone partial tag.
    case partial(name: String, indentation: String?, inherits: Bool)
    /// `{{% CONTENT_TYPE: … }}`: whether it selects the renderer's escaping (`PageEscaping`).
    case contentType(isPageEscaping: Bool)
    /// A construct the compiler leaves to swift-mustache (blocks, dynamic partials), by name.
    case unsupported(String)

    /// The tokens of `template`, or `nil` when its stored layout is not the one this reader knows.
    static func tokens(of template: MustacheTemplate) -> [MustacheToken]? {
        guard let stored = Mirror(reflecting: template).children.first(where: { $0.label == "tokens" })?.value,
            let tokens = stored as? [Any]
        else { return nil }
        var result: [MustacheToken] = []
        result.reserveCapacity(tokens.count)
        for token in tokens {
            guard let parsed = MustacheToken(reflecting: token) else { return nil }
            result.append(parsed)
        }
        return result
    }

    /// The value an `Optional` in an `Any` holds, or `nil`.
    private static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first?.value
    }

    /// Reads one `MustacheTemplate.Token` case and its associated values.
    private init?(reflecting token: Any) {
        let mirror = Mirror(reflecting: token)
        guard mirror.displayStyle == .enum, let payload = mirror.children.first, let caseName = payload.label
        else { return nil }
        let values = Mirror(reflecting: payload.value).children
        /// The associated value labelled `label` (`.0` for an unlabelled first one).
        func value(_ label: String) -> Any? {
            values.first(where: { $0.label == label })?.value
        }
        switch caseName {
        case "text":
            guard let text = payload.value as? String else { return nil }
            self = .text(text)
        case "variable", "unescapedVariable":
            guard let name = value("name") as? String, let transforms = value("transforms") as? [String] else {
                return nil
            }
            self = .variable(name: name, escaped: caseName == "variable", transforms: transforms)
        case "section", "invertedSection":
            guard let name = value("name") as? String, let transforms = value("transforms") as? [String],
                let body = value("template") as? MustacheTemplate
            else { return nil }
            self = .section(name: name, inverted: caseName == "invertedSection", transforms: transforms, body: body)
        case "partial":
            // `partial(String, indentation: String?, inherits: [String: MustacheTemplate]?)`.
            guard values.count == 3, let name = values.first?.value as? String,
                let indentation = value("indentation").map(Self.unwrapped), let inherits = value("inherits")
            else { return nil }
            guard indentation == nil || indentation is String else { return nil }
            self = .partial(
                name: name, indentation: indentation as? String, inherits: Self.unwrapped(inherits) != nil)
        case "contentType":
            self = .contentType(isPageEscaping: payload.value is PageEscaping)
        case "blockDefinition", "blockExpansion", "dynamicNamePartial":
            self = .unsupported(caseName)
        default:
            return nil
        }
    }
}
