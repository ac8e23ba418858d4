import ScrollbackLayout
import ScrollbackModel

/// What a custom renderer is told besides the message, after AllujaMessages' `CustomRendererInfo`.
public struct CustomRendererInfo: Sendable {
    /// The suggested maximum bubble width, as CSS (e.g. `75%`), from `messageMaxWidth`.
    public var bubbleMaxWidth: String
    /// The bubble corner radius, as CSS (e.g. `8px`), from `messageCornerRadius`.
    public var cornerRadius: String
    /// The message being drawn, with its layout decisions.
    public var message: MessageLayout
    /// Relative path from the page to the site root (`../` on conversation pages), for links to site files.
    public var rootPath: String

    /// Creates the info.
    public init(bubbleMaxWidth: String, cornerRadius: String, message: MessageLayout, rootPath: String) {
        self.bubbleMaxWidth = bubbleMaxWidth
        self.cornerRadius = cornerRadius
        self.message = message
        self.rootPath = rootPath
    }
}

/// A renderer for `custom` messages registered in code by library users (spec §4).
///
/// It takes precedence over templates with the same id. It returns the HTML that goes inside
/// the message's bubble element; it is written as it is, so it must escape anything it takes
/// from `item.data` (see `CustomRendererInfo`).
public protocol CustomMessageRenderer: Sendable {
    /// The `custom.id` this renderer draws.
    var id: String { get }
    /// The bubble's inner HTML for `item`.
    func render(item: CustomItem, info: CustomRendererInfo) -> String
    /// The plain-text line that stands for `item` in a reply's quote ("📊 Poll: Dinner?");
    /// `nil` (the default) keeps `CustomItem.label`.
    func quoteLabel(item: CustomItem) -> String?
}

extension CustomMessageRenderer {
    /// No label of its own: quotes show `CustomItem.label`.
    public func quoteLabel(item: CustomItem) -> String? { nil }
}

extension JSONValue {
    /// The value as plain Swift values that Mustache can walk: objects become `[String: Any]`,
    /// arrays `[Any]`, numbers their source text, `null` is left out.
    var mustacheValue: Any? {
        switch self {
        case .null: return nil
        case .bool(let value): return value
        case .number(let text): return text
        case .string(let text): return text
        case .array(let values): return values.compactMap(\.mustacheValue)
        case .object(let members):
            var dictionary: [String: Any] = [:]
            for member in members {
                if let value = member.value.mustacheValue { dictionary[member.key] = value }
            }
            return dictionary
        }
    }

    /// Pretty-printed JSON (two-space indent, members in source order), for the fallback card.
    var prettyJSON: String {
        var output = ""
        writePretty(into: &output, indent: 0)
        return output
    }

    private func writePretty(into output: inout String, indent: Int) {
        let pad = String(repeating: "  ", count: indent + 1)
        let closePad = String(repeating: "  ", count: indent)
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let text): output += text
        case .string(let text): output += JSONText.quoted(text)
        case .array(let values):
            if values.isEmpty {
                output += "[]"
                return
            }
            output += "[\n"
            for (index, value) in values.enumerated() {
                output += pad
                value.writePretty(into: &output, indent: indent + 1)
                output += index == values.count - 1 ? "\n" : ",\n"
            }
            output += closePad + "]"
        case .object(let members):
            if members.isEmpty {
                output += "{}"
                return
            }
            output += "{\n"
            for (index, member) in members.enumerated() {
                output += pad
                output += JSONText.quoted(member.key)
                output += ": "
                member.value.writePretty(into: &output, indent: indent + 1)
                output += index == members.count - 1 ? "\n" : ",\n"
            }
            output += closePad + "}"
        }
    }
}
