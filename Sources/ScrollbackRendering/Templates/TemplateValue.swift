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

/// The names of one view-model class, type-erased for the compiler: each name's shape and an
/// accessor that takes the object as `AnyObject` (it is always of the schema's class: the compiler
/// only applies an accessor to a context whose shape is this schema).
final class AnyTemplateSchema: @unchecked Sendable {
    /// The class's name, for error messages.
    let typeName: String
    /// Names in declaration order.
    private(set) var names: [String] = []
    private(set) var fields: [String: (shape: () -> TemplateShape, read: (AnyObject) -> TemplateValue)] = [:]

    init(typeName: String) {
        self.typeName = typeName
    }

    /// The shape and accessor of `name`, or `nil` when this schema has no such name.
    func field(_ name: String) -> (shape: TemplateShape, read: (AnyObject) -> TemplateValue)? {
        guard let field = fields[name] else { return nil }
        return (field.shape(), field.read)
    }

    fileprivate func add(
        _ name: String, shape: @escaping () -> TemplateShape, read: @escaping (AnyObject) -> TemplateValue
    ) {
        precondition(fields[name] == nil, "\(typeName) declares \(name) twice")
        names.append(name)
        fields[name] = (shape, read)
    }
}

/// Builds the schema of view-model class `Object`: one call per name, each with its accessor.
///
/// Shapes of nested view models are taken lazily (a closure), so two classes may refer to each
/// other.
struct TemplateSchemaBuilder<Object: TemplateObject> {
    let schema = AnyTemplateSchema(typeName: String(describing: Object.self))

    /// A text (`nil`: absent).
    func text(_ name: String, _ read: @escaping (Object) -> String?) -> Self {
        schema.add(name, shape: { .scalar }) { object in
            guard let text = read(unsafeDowncast(object, to: Object.self)) else { return .absent }
            return .text(text)
        }
        return self
    }

    /// A flag.
    func flag(_ name: String, _ read: @escaping (Object) -> Bool) -> Self {
        schema.add(name, shape: { .scalar }) { .flag(read(unsafeDowncast($0, to: Object.self))) }
        return self
    }

    /// A number (`nil`: absent).
    func number(_ name: String, _ read: @escaping (Object) -> Int?) -> Self {
        schema.add(name, shape: { .scalar }) { object in
            guard let number = read(unsafeDowncast(object, to: Object.self)) else { return .absent }
            return .number(number)
        }
        return self
    }

    /// Any scalar value the object makes itself (bytes, an inline time, a writer).
    func value(_ name: String, _ read: @escaping (Object) -> TemplateValue) -> Self {
        schema.add(name, shape: { .scalar }) { read(unsafeDowncast($0, to: Object.self)) }
        return self
    }

    /// A nested view model of class `Child` (`nil`: absent).
    func object<Child: TemplateObject>(
        _ name: String, _ child: @escaping () -> AnyTemplateSchema, _ read: @escaping (Object) -> Child?
    ) -> Self {
        schema.add(name, shape: { .object(child()) }) { object in
            guard let value = read(unsafeDowncast(object, to: Object.self)) else { return .absent }
            return .object(value)
        }
        return self
    }

    /// A list of view models of class `Child`.
    func list<Child: TemplateObject>(
        _ name: String, _ child: @escaping () -> AnyTemplateSchema, _ read: @escaping (Object) -> [Child]
    ) -> Self {
        schema.add(name, shape: { .list(child()) }) { object in
            .objects(read(unsafeDowncast(object, to: Object.self)))
        }
        return self
    }

    /// Log data (`nil`: absent).
    func json(_ name: String, _ read: @escaping (Object) -> JSONValue?) -> Self {
        schema.add(name, shape: { .dynamic }) { object in
            guard let value = read(unsafeDowncast(object, to: Object.self)) else { return .absent }
            return TemplateValue(value)
        }
        return self
    }
}
