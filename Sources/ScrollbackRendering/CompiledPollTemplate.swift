import ScrollbackModel

/// A compiled copy of the shipped `custom/poll` template, for the data shapes polls have
/// (`question` a string or number; `options` an array of strings or numbers).
///
/// Polls are a few percent of messages, but drawing them through swift-mustache costs far more
/// per message than any other row (dynamic casts and reflection per lookup). Like the row
/// templates (`RowTemplates`), the copy is only used for the shipped template the site did not
/// override, and only after it printed the same bytes as the template on probe data; any other
/// shape of data (`render` answers `nil`) still goes through the template.
enum CompiledPollTemplate {
    /// The template it copies.
    static let templateName = "custom/poll"

    /// What the template prints for `data`, or `nil` when `data` is not a shape this copy covers.
    ///
    /// Lookups follow the template's context: a member the data lacks is looked up in the
    /// render context's root, which has none of `question`, `options` or `label`. Members whose
    /// value is `null` do not exist for the template (`JSONValue.mustacheValue`), and with
    /// duplicate keys the last one wins.
    static func render(_ data: JSONValue) -> String? {
        guard case .object(let members) = data else { return nil }
        var question: JSONValue?
        var options: JSONValue?
        for member in members {
            if case .null = member.value { continue }
            switch member.key {
            case "question": question = member.value
            case "options": options = member.value
            case "label": return nil  // every option's `{{#label}}` would find it
            default: break
            }
        }
        var output = "<div class=\"poll\"><strong dir=\"auto\">📊 "
        switch question {
        case nil: break
        case .string(let text)?, .number(let text)?: output += HTMLText.escape(text)
        default: return nil
        }
        output += "</strong><ul>"
        switch options {
        case nil: break
        case .array(let elements)?:
            for element in elements {
                switch element {
                case .null: continue  // left out of the template's array
                case .string(let text), .number(let text):
                    output += "<li><span dir=\"auto\">"
                    output += HTMLText.escape(text)
                    output += "</span></li>"
                default: return nil
                }
            }
        default: return nil
        }
        output += "</ul></div>"
        return output
    }

    /// Data the copy is checked against: every branch, escaping, non-ASCII text, and shapes it
    /// must leave to the template.
    static var probes: [JSONValue] {
        let hostile = "<b x=\"1\" y='2'>&amp; é 🎉 \"\u{301} x&\u{308}"
        return [
            .object([
                ("question", .string(hostile)),
                ("options", .array([.string("Yes"), .string(hostile), .number("42"), .null, .string("")])),
                ("votes", .array([.number("1"), .number("2")])),
            ]),
            .object([("question", .number("3.5e2")), ("options", .array([]))]),
            .object([("options", .array([.string("only")]))]),
            .object([("question", .string("Q")), ("question", .null), ("extra", .bool(true))]),
            .object([("question", .string("first")), ("question", .string("second"))]),
            .object([]),
            // Shapes left to the template:
            .object([("question", .string("Q")), ("options", .array([.object([("label", .string("A"))])]))]),
            .object([("question", .string("Q")), ("label", .string("L")), ("options", .array([.string("A")]))]),
            .object([("question", .bool(true))]),
            .object([("options", .string("not a list"))]),
            .array([.string("x")]),
            .string("x"),
        ]
    }
}
