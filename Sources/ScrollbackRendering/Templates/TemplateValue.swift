import ScrollbackLayout
import ScrollbackModel

// The values templates see, and how a view model tells the template compiler its names.
//
// A view model is a class (`TemplateObject`) whose `TemplateSchema` lists every name a template
// may use on it, with the accessor that reads it and the schema of what it holds. The compiler
// (`CompiledTemplate`) resolves each `{{name}}` of a template to these accessors once; rendering
// then calls them, with no lookup by name, no dynamic cast and no dictionary per row.

/// A value as a template sees it: what `{{name}}` prints and what `{{#name}}` does with it,
/// with swift-mustache's rules (`absent`, `false` and an empty list are falsy; everything else,
/// an empty text included, is truthy and becomes the section's context).
enum TemplateValue {
    /// No such value (Swift `nil`): a lookup climbs on to the enclosing context.
    case absent
    /// Text: escaped by `{{ }}`, as it is by `{{{ }}}`.
    case text(String)
    /// A flag: a section shows when `true`; it does not become the context.
    case flag(Bool)
    /// A number, printed in decimal.
    case number(Int)
    /// Text already made as bytes (markup, or text written in place): escaped by `{{ }}`.
    case bytes(HTMLBuffer)
    /// A timestamp's ISO 8601 time, held inline in its view (`TimeView.iso`), so a row makes no
    /// string for it (and values stay small to copy).
    case isoTime(TimeView)
    /// Markup written on demand straight into the output (a template rendering, a page's rows).
    case writer(any TemplateWriter)
    /// A view model: its names come from its schema.
    case object(TemplateObject)
    /// A list of view models (all of the schema the field declares).
    case objects([TemplateObject])
    /// Data from a log (`custom` messages): names are looked up when rendering.
    case json(JSONValue)
    /// What a section on a flag pushes: nothing to look names up in (`{{.}}` skips it).
    case transparent

    /// A JSON value as templates see it (`null` is absent, numbers are their source text).
    init(_ json: JSONValue) {
        switch json {
        case .null: self = .absent
        case .bool(let value): self = .flag(value)
        case .number(let text), .string(let text): self = .text(text)
        case .array, .object: self = .json(json)
        }
    }
}

/// Markup written into the output when a template prints the value.
protocol TemplateWriter: AnyObject {
    /// Appends the markup to `output`.
    func write(into output: HTMLBuffer)
}

/// A view model templates read through its `templateSchema`.
protocol TemplateObject: AnyObject {
    /// The names a template may use on objects of this class.
    static var templateSchema: AnyTemplateSchema { get }
}

/// What the compiler knows of a value's names.
indirect enum TemplateShape: Sendable {
    /// Text, a flag, a number, markup: no names of its own.
    case scalar
    /// A view model of this schema, or `nil`.
    case object(AnyTemplateSchema)
    /// A list whose elements are view models of this schema.
    case list(AnyTemplateSchema)
    /// Log data: any name, known only when rendering.
    case dynamic
}

/// One name of a view-model class, as the compiler uses it. Besides `read` (the value, for any use),
/// a scalar or a flag or a nested object offers a direct accessor, so the hot steps make no
/// `TemplateValue` for it (every accessor takes an object of the schema's class).
final class TemplateField: @unchecked Sendable {
    /// The shape of the value (taken lazily: two classes may refer to each other).
    let shape: () -> TemplateShape
    /// The value.
    let read: (AnyObject) -> TemplateValue
    /// Whether the value is never absent (a field that is not optional): a lookup that finds this
    /// field never climbs on.
    let alwaysPresent: Bool
    /// Prints the value as `{{name}}` (`true`) or `{{{name}}}` (`false`) would, straight into the
    /// output (text, numbers); nothing when absent.
    let write: ((AnyObject, HTMLBuffer, Bool) -> Void)?
    /// A flag's value (a section on it pushes nothing to look names up in).
    let flag: ((AnyObject) -> Bool)?
    /// A nested view model, or `nil` (what a section on it pushes).
    let object: ((AnyObject) -> TemplateObject?)?

    init(
        shape: @escaping () -> TemplateShape, read: @escaping (AnyObject) -> TemplateValue, alwaysPresent: Bool = false,
        write: ((AnyObject, HTMLBuffer, Bool) -> Void)? = nil, flag: ((AnyObject) -> Bool)? = nil,
        object: ((AnyObject) -> TemplateObject?)? = nil
    ) {
        self.shape = shape
        self.read = read
        self.alwaysPresent = alwaysPresent
        self.write = write
        self.flag = flag
        self.object = object
    }
}

/// The names of one view-model class, type-erased for the compiler: each name's shape and
/// accessors, which take the object as `AnyObject` (it is always of the schema's class: the
/// compiler only applies an accessor to a context whose shape is this schema).
final class AnyTemplateSchema: @unchecked Sendable {
    /// The class's name, for error messages.
    let typeName: String
    /// Names in declaration order.
    private(set) var names: [String] = []
    private(set) var fields: [String: TemplateField] = [:]

    init(typeName: String) {
        self.typeName = typeName
    }

    /// The field `name`, or `nil` when this schema has no such name.
    func field(_ name: String) -> TemplateField? {
        fields[name]
    }

    fileprivate func add(_ name: String, _ field: TemplateField) {
        precondition(fields[name] == nil, "\(typeName) declares \(name) twice")
        names.append(name)
        fields[name] = field
    }
}

/// Builds the schema of view-model class `Object`: one call per name, each with its accessor.
///
/// Shapes of nested view models are taken lazily (a closure), so two classes may refer to each
/// other.
struct TemplateSchemaBuilder<Object: TemplateObject> {
    let schema = AnyTemplateSchema(typeName: String(describing: Object.self))

    /// A text that is always there.
    func text(_ name: String, _ read: @escaping (Object) -> String) -> Self {
        schema.add(
            name,
            TemplateField(
                shape: { .scalar }, read: { .text(read(unsafeDowncast($0, to: Object.self))) }, alwaysPresent: true,
                write: { object, output, escaped in
                    var sink = output
                    let text = read(unsafeDowncast(object, to: Object.self))
                    if escaped { esc(text, &sink) } else { raw(text, &sink) }
                }))
        return self
    }

    /// A text (`nil`: absent).
    func text(_ name: String, _ read: @escaping (Object) -> String?) -> Self {
        schema.add(
            name,
            TemplateField(
                shape: { .scalar },
                read: { object in
                    guard let text = read(unsafeDowncast(object, to: Object.self)) else { return .absent }
                    return .text(text)
                },
                write: { object, output, escaped in
                    guard let text = read(unsafeDowncast(object, to: Object.self)) else { return }
                    var sink = output
                    if escaped { esc(text, &sink) } else { raw(text, &sink) }
                }))
        return self
    }

    /// A flag.
    func flag(_ name: String, _ read: @escaping (Object) -> Bool) -> Self {
        schema.add(
            name,
            TemplateField(
                shape: { .scalar }, read: { .flag(read(unsafeDowncast($0, to: Object.self))) }, alwaysPresent: true,
                write: { object, output, _ in
                    var sink = output
                    sink += read(unsafeDowncast(object, to: Object.self)) ? "true" : "false"
                }, flag: { read(unsafeDowncast($0, to: Object.self)) }))
        return self
    }

    /// A number (`nil`: absent).
    func number(_ name: String, _ read: @escaping (Object) -> Int?) -> Self {
        schema.add(
            name,
            TemplateField(
                shape: { .scalar },
                read: { object in
                    guard let number = read(unsafeDowncast(object, to: Object.self)) else { return .absent }
                    return .number(number)
                },
                write: { object, output, _ in
                    guard let number = read(unsafeDowncast(object, to: Object.self)) else { return }
                    var sink = output
                    appendDecimal(number, &sink)
                }))
        return self
    }

    /// Any scalar value the object makes itself (bytes, an inline time, a writer).
    func value(_ name: String, _ read: @escaping (Object) -> TemplateValue) -> Self {
        schema.add(
            name,
            TemplateField(
                shape: { .scalar }, read: { read(unsafeDowncast($0, to: Object.self)) },
                write: { object, output, escaped in
                    TemplateStep.print(read(unsafeDowncast(object, to: Object.self)), escaped: escaped, into: output)
                }))
        return self
    }

    /// A nested view model of class `Child` (`nil`: absent).
    func object<Child: TemplateObject>(
        _ name: String, _ child: @escaping () -> AnyTemplateSchema, _ read: @escaping (Object) -> Child?
    ) -> Self {
        schema.add(
            name,
            TemplateField(
                shape: { .object(child()) },
                read: { object in
                    guard let value = read(unsafeDowncast(object, to: Object.self)) else { return .absent }
                    return .object(value)
                }, object: { read(unsafeDowncast($0, to: Object.self)) }))
        return self
    }

    /// A list of view models of class `Child`.
    func list<Child: TemplateObject>(
        _ name: String, _ child: @escaping () -> AnyTemplateSchema, _ read: @escaping (Object) -> [Child]
    ) -> Self {
        schema.add(
            name,
            TemplateField(
                shape: { .list(child()) }, read: { .objects(read(unsafeDowncast($0, to: Object.self))) },
                alwaysPresent: true))
        return self
    }

    /// Log data (`nil`: absent).
    func json(_ name: String, _ read: @escaping (Object) -> JSONValue?) -> Self {
        schema.add(
            name,
            TemplateField(
                shape: { .dynamic },
                read: { object in
                    guard let value = read(unsafeDowncast(object, to: Object.self)) else { return .absent }
                    return TemplateValue(value)
                }))
        return self
    }
}
