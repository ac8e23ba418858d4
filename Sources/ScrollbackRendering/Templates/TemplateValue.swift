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

    /// Whether `{{^name}}` shows for this value (and `{{#name}}` does not).
    var isFalsy: Bool {
        switch self {
        case .absent, .flag(false): true
        case .objects(let objects): objects.isEmpty
        case .json(.array(let elements)): !elements.contains { if case .null = $0 { false } else { true } }
        default: false
        }
    }

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

/// One name of a view-model class, as the compiler uses it: `read` gives the value for any use;
/// a scalar, a flag or a nested object also has a direct accessor (`write`, `flag`, `object`), so
/// the hot steps make no `TemplateValue` for it. Every accessor takes an object of the schema's
/// class. One subclass per kind of value holds the view model's own accessor, and does its work
/// in overridden methods rather than in closures wrapped around it: calling a wrapping closure
/// retains its context, which every rendering thread shares.
class TemplateField: @unchecked Sendable {
    /// What the field offers besides `read`.
    enum Access {
        /// `write` prints it (text, a number, a flag, markup).
        case printed
        /// A flag: `write` prints it, `flag` reads it (a section on it pushes nothing).
        case flag
        /// A nested view model: `object` reads it.
        case object
        /// A list of view models: `forEachObject` goes through it.
        case list
        /// Only `read` (log data).
        case value
    }

    /// The shape of the value (taken lazily: two classes may refer to each other).
    let shape: () -> TemplateShape
    /// Whether the value is never absent (a field that is not optional): a lookup that finds this
    /// field never climbs on.
    let alwaysPresent: Bool
    let access: Access

    init(shape: @escaping () -> TemplateShape, alwaysPresent: Bool, access: Access) {
        self.shape = shape
        self.alwaysPresent = alwaysPresent
        self.access = access
    }

    /// The value.
    func read(_ object: AnyObject) -> TemplateValue { .absent }
    /// Prints the value as `{{name}}` (`escaped`) or `{{{name}}}` would, straight into the output;
    /// nothing when absent (`access` `.printed` or `.flag`).
    func write(_ object: AnyObject, _ output: HTMLBuffer, _ escaped: Bool) {}
    /// A flag's value (`access` `.flag`).
    func flag(_ object: AnyObject) -> Bool { false }
    /// The nested view model, or `nil` (`access` `.object`).
    func object(_ object: AnyObject) -> TemplateObject? { nil }
    /// Whether `{{^name}}` shows (`TemplateValue.isFalsy` of `read`, made cheaper where it can be).
    func isFalsy(_ object: AnyObject) -> Bool { read(object).isFalsy }
    /// Calls `body` with each view model of the list, in order (`access` `.list`).
    func forEachObject(_ object: AnyObject, _ body: (TemplateObject) -> Void) {}
}

/// A text that is always there.
private final class TextField<Object: TemplateObject>: TemplateField, @unchecked Sendable {
    let get: (Object) -> String
    init(_ get: @escaping (Object) -> String) {
        self.get = get
        super.init(shape: { .scalar }, alwaysPresent: true, access: .printed)
    }
    override func read(_ object: AnyObject) -> TemplateValue { .text(get(unsafeDowncast(object, to: Object.self))) }
    override func isFalsy(_ object: AnyObject) -> Bool { false }  // an empty text is truthy too
    override func write(_ object: AnyObject, _ output: HTMLBuffer, _ escaped: Bool) {
        var sink = output.sink
        let text = get(unsafeDowncast(object, to: Object.self))
        if escaped { esc(text, &sink) } else { raw(text, &sink) }
    }
}

/// A text, or `nil` (absent).
private final class OptionalTextField<Object: TemplateObject>: TemplateField, @unchecked Sendable {
    let get: (Object) -> String?
    init(_ get: @escaping (Object) -> String?) {
        self.get = get
        super.init(shape: { .scalar }, alwaysPresent: false, access: .printed)
    }
    override func read(_ object: AnyObject) -> TemplateValue {
        guard let text = get(unsafeDowncast(object, to: Object.self)) else { return .absent }
        return .text(text)
    }
    override func isFalsy(_ object: AnyObject) -> Bool { get(unsafeDowncast(object, to: Object.self)) == nil }
    override func write(_ object: AnyObject, _ output: HTMLBuffer, _ escaped: Bool) {
        guard let text = get(unsafeDowncast(object, to: Object.self)) else { return }
        var sink = output.sink
        if escaped { esc(text, &sink) } else { raw(text, &sink) }
    }
}

/// A flag.
private final class FlagField<Object: TemplateObject>: TemplateField, @unchecked Sendable {
    let get: (Object) -> Bool
    init(_ get: @escaping (Object) -> Bool) {
        self.get = get
        super.init(shape: { .scalar }, alwaysPresent: true, access: .flag)
    }
    override func read(_ object: AnyObject) -> TemplateValue { .flag(get(unsafeDowncast(object, to: Object.self))) }
    override func write(_ object: AnyObject, _ output: HTMLBuffer, _ escaped: Bool) {
        var sink = output.sink
        sink += get(unsafeDowncast(object, to: Object.self)) ? "true" : "false"
    }
    override func flag(_ object: AnyObject) -> Bool { get(unsafeDowncast(object, to: Object.self)) }
    override func isFalsy(_ object: AnyObject) -> Bool { !get(unsafeDowncast(object, to: Object.self)) }
}

/// A number, or `nil` (absent).
private final class NumberField<Object: TemplateObject>: TemplateField, @unchecked Sendable {
    let get: (Object) -> Int?
    init(_ get: @escaping (Object) -> Int?) {
        self.get = get
        super.init(shape: { .scalar }, alwaysPresent: false, access: .printed)
    }
    override func read(_ object: AnyObject) -> TemplateValue {
        guard let number = get(unsafeDowncast(object, to: Object.self)) else { return .absent }
        return .number(number)
    }
    override func write(_ object: AnyObject, _ output: HTMLBuffer, _ escaped: Bool) {
        guard let number = get(unsafeDowncast(object, to: Object.self)) else { return }
        var sink = output.sink
        appendDecimal(number, &sink)
    }
}

/// A scalar value the object makes itself (bytes, an inline time, a writer).
private final class ScalarValueField<Object: TemplateObject>: TemplateField, @unchecked Sendable {
    let get: (Object) -> TemplateValue
    init(_ get: @escaping (Object) -> TemplateValue) {
        self.get = get
        super.init(shape: { .scalar }, alwaysPresent: false, access: .printed)
    }
    override func read(_ object: AnyObject) -> TemplateValue { get(unsafeDowncast(object, to: Object.self)) }
    override func write(_ object: AnyObject, _ output: HTMLBuffer, _ escaped: Bool) {
        TemplateStep.print(get(unsafeDowncast(object, to: Object.self)), escaped: escaped, into: output)
    }
}

/// A nested view model of class `Child`, or `nil` (absent).
private final class ObjectField<Object: TemplateObject, Child: TemplateObject>: TemplateField, @unchecked Sendable {
    let get: (Object) -> Child?
    init(_ child: @escaping () -> AnyTemplateSchema, _ get: @escaping (Object) -> Child?) {
        self.get = get
        super.init(shape: { .object(child()) }, alwaysPresent: false, access: .object)
    }
    override func read(_ object: AnyObject) -> TemplateValue {
        guard let value = get(unsafeDowncast(object, to: Object.self)) else { return .absent }
        return .object(value)
    }
    override func object(_ object: AnyObject) -> TemplateObject? { get(unsafeDowncast(object, to: Object.self)) }
    override func isFalsy(_ object: AnyObject) -> Bool { get(unsafeDowncast(object, to: Object.self)) == nil }
}

/// A list of view models of class `Child`.
private final class ListField<Object: TemplateObject, Child: TemplateObject>: TemplateField, @unchecked Sendable {
    let get: (Object) -> [Child]
    init(_ child: @escaping () -> AnyTemplateSchema, _ get: @escaping (Object) -> [Child]) {
        self.get = get
        super.init(shape: { .list(child()) }, alwaysPresent: true, access: .list)
    }
    override func read(_ object: AnyObject) -> TemplateValue { .objects(get(unsafeDowncast(object, to: Object.self))) }
    override func isFalsy(_ object: AnyObject) -> Bool { get(unsafeDowncast(object, to: Object.self)).isEmpty }
    // Straight from the typed list: `read` makes a `[TemplateObject]` of it, a cast of every element.
    override func forEachObject(_ object: AnyObject, _ body: (TemplateObject) -> Void) {
        for child in get(unsafeDowncast(object, to: Object.self)) { body(child) }
    }
}

/// Log data, or `nil` (absent).
private final class JSONField<Object: TemplateObject>: TemplateField, @unchecked Sendable {
    let get: (Object) -> JSONValue?
    init(_ get: @escaping (Object) -> JSONValue?) {
        self.get = get
        super.init(shape: { .dynamic }, alwaysPresent: false, access: .value)
    }
    override func read(_ object: AnyObject) -> TemplateValue {
        guard let value = get(unsafeDowncast(object, to: Object.self)) else { return .absent }
        return TemplateValue(value)
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
        schema.add(name, TextField(read))
        return self
    }

    /// A text (`nil`: absent).
    func text(_ name: String, _ read: @escaping (Object) -> String?) -> Self {
        schema.add(name, OptionalTextField(read))
        return self
    }

    /// A flag.
    func flag(_ name: String, _ read: @escaping (Object) -> Bool) -> Self {
        schema.add(name, FlagField(read))
        return self
    }

    /// A number (`nil`: absent).
    func number(_ name: String, _ read: @escaping (Object) -> Int?) -> Self {
        schema.add(name, NumberField(read))
        return self
    }

    /// Any scalar value the object makes itself (bytes, an inline time, a writer).
    func value(_ name: String, _ read: @escaping (Object) -> TemplateValue) -> Self {
        schema.add(name, ScalarValueField(read))
        return self
    }

    /// A nested view model of class `Child` (`nil`: absent).
    func object<Child: TemplateObject>(
        _ name: String, _ child: @escaping () -> AnyTemplateSchema, _ read: @escaping (Object) -> Child?
    ) -> Self {
        schema.add(name, ObjectField(child, read))
        return self
    }

    /// A list of view models of class `Child`.
    func list<Child: TemplateObject>(
        _ name: String, _ child: @escaping () -> AnyTemplateSchema, _ read: @escaping (Object) -> [Child]
    ) -> Self {
        schema.add(name, ListField(child, read))
        return self
    }

    /// Log data (`nil`: absent).
    func json(_ name: String, _ read: @escaping (Object) -> JSONValue?) -> Self {
        schema.add(name, JSONField(read))
        return self
    }
}
