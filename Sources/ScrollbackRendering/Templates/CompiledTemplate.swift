import Mustache
import ScrollbackModel

/// A template compiled for one view-model class: byte-writing steps made once from the parsed
/// template (`MustacheToken`s), with every name resolved to the accessors of the view models'
/// schemas (`AnyTemplateSchema`).
///
/// This is the one way templates are rendered, shipped or a site's own: static text is copied as
/// bytes, `{{name}}` escaped with `HTMLText` (as `PageEscaping` makes swift-mustache escape),
/// sections and partials are nested steps. Names follow swift-mustache's rules: looked up from the
/// innermost context outwards, a missing or `nil` value climbs on, a dotted name resolves its
/// first part that way and the rest inside it. What the compiler does not do (transforms like
/// `{{uppercased(name)}}`, blocks, dynamic partials, indented standalone partials, another content
/// type) makes the whole template render through swift-mustache with the same view models
/// (`MustacheView`), so it still works, only slower.
final class CompiledTemplate: @unchecked Sendable {
    /// The template's name in the library (`message`, `kinds/text`, …).
    let name: String
    private let body: Body
    /// What the steps are made of (`nil` unless the template is compiled).
    private let store: StepStore?

    private enum Body {
        /// Steps held in `store`.
        case steps(StepList)
        /// Rendered by swift-mustache (the reason is kept for tests).
        case mustache(MustacheLibrary, reason: String)
        /// No such template: prints nothing (the library reports a missing shipped template).
        case missing
    }

    /// Why the template is rendered by swift-mustache, or `nil` when it is compiled.
    var fallbackReason: String? {
        if case .mustache(_, let reason) = body { return reason }
        return nil
    }

    /// Compiles template `name` of `library` for contexts of `schema`; throws `TemplateCompiler.Failure`
    /// only for what swift-mustache cannot render either (a partial that includes itself forever).
    init(name: String, library: TemplateLibrary, schema: AnyTemplateSchema, forceMustache: Bool = false) throws {
        self.name = name
        guard let template = library.template(named: name) else {
            body = .missing
            store = nil
            return
        }
        var compiler = TemplateCompiler(library: library)
        do {
            if forceMustache { throw TemplateCompiler.Failure.unsupported("rendering everything with swift-mustache") }
            let steps = try compiler.compile(template, name: name, stack: [.object(schema)])
            body = .steps(compiler.store.list(steps))
            store = compiler.store
        } catch let failure as TemplateCompiler.Failure {
            switch failure {
            case .unsupported(let reason): body = .mustache(library.mustache, reason: reason)
            case .recursivePartial: throw failure
            }
            store = nil
        }
    }

    /// A template that does not exist: it prints nothing.
    init(missing name: String) {
        self.name = name
        body = .missing
        store = nil
    }

    /// Appends the template rendered with `root` (an object of the schema it was compiled for).
    func render(_ root: TemplateObject, into output: HTMLBuffer) {
        var stack = TemplateStack()
        render(root, into: output, stack: &stack)
    }

    /// The same, with `stack` as the context stack's storage (empty, and left empty), so a
    /// caller that renders a row after another allocates it once.
    func render(_ root: TemplateObject, into output: HTMLBuffer, stack: inout TemplateStack) {
        switch body {
        case .steps(let steps):
            // Steps leave the stack as they found it: the root is all there is to take off.
            stack.push(.object(root))
            steps.run(&stack, output)
            stack.pop()
        case .mustache(let library, _):
            if let text = library.render(MustacheView(value: .object(root)), withTemplate: name) {
                var sink = output.sink
                raw(text, &sink)
            }
        case .missing:
            break
        }
    }

    /// The template rendered with `root`, as text.
    func render(_ root: TemplateObject) -> String {
        let output = HTMLBuffer(capacity: 256)
        render(root, into: output)
        return output.string
    }
}

/// `TemplateValue.writer` of a template rendered with a root object.
final class TemplateInvocation: TemplateWriter {
    let template: CompiledTemplate
    let root: TemplateObject

    init(_ template: CompiledTemplate, _ root: TemplateObject) {
        self.template = template
        self.root = root
    }

    func write(into output: HTMLBuffer) { template.render(root, into: output) }
}

// MARK: - Steps

/// How one name of a template is found when rendering.
enum TemplateLookup {
    /// Never found (no context can have it).
    case none
    /// `{{.}}`: the innermost context.
    case current
    /// One context level has it, as `field`: the common case.
    case field(depth: Int, field: Unmanaged<TemplateField>)
    /// Several candidates, innermost first; the first one whose value is not absent wins.
    case candidates(UnsafeBufferPointer<TemplateCandidate>)
}

/// A place a name may be found: the context at `depth` in the stack, then `path` inside it.
struct TemplateCandidate {
    var depth: Int
    var path: UnsafeBufferPointer<TemplateKey>
}

/// One step of a dotted name.
enum TemplateKey {
    /// A field of the view model's schema.
    case field(Unmanaged<TemplateField>)
    /// A name looked up when rendering (log data, or contexts of more than one shape).
    case name(String)
    /// A name the value cannot have.
    case missing
}

/// Steps to run in order, referred to without reference counts (their `StepStore` keeps them).
///
/// Rendering threads share a compiled template: retaining a step, a field or a list of steps
/// writes its reference count, so every core would take that memory from the other at each step.
struct StepList {
    let steps: UnsafeBufferPointer<Unmanaged<TemplateStep>>

    /// Runs the steps in order.
    @inline(__always)
    func run(_ stack: inout TemplateStack, _ output: HTMLBuffer) {
        for step in steps {
            step._withUnsafeGuaranteedRef { $0.run(&stack, output) }
        }
    }
}

/// Owns what a compiled template's steps refer to without counting (`StepList`, `TemplateLookup`):
/// the steps, the fields and the buffers, for as long as the template lives.
final class StepStore: @unchecked Sendable {
    private var objects: [AnyObject] = []
    private var releases: [() -> Void] = []

    /// `steps` as a list the store keeps.
    func list(_ steps: [TemplateStep]) -> StepList {
        objects += steps
        return StepList(steps: buffer(steps.map { Unmanaged.passUnretained($0) }))
    }

    /// `field`, kept by the store.
    func field(_ field: TemplateField) -> Unmanaged<TemplateField> {
        objects.append(field)
        return Unmanaged.passUnretained(field)
    }

    /// A copy of `elements` that lives as long as the store.
    func buffer<Element>(_ elements: [Element]) -> UnsafeBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: elements.count)
        _ = buffer.initialize(from: elements)
        releases.append {
            buffer.deinitialize()
            buffer.deallocate()
        }
        return UnsafeBufferPointer(buffer)
    }

    deinit {
        for release in releases { release() }
    }
}

/// The contexts of a render, innermost last: the values sections pushed, which the stack keeps
/// alive, and beside them the view models among them unretained, which the field steps (most
/// steps) read without counting references.
///
/// Plain buffers rather than arrays: a row pushes and pops a context for each section it shows,
/// and an array's uniqueness and capacity checks on each were a measurable part of a row.
struct TemplateStack: ~Copyable {
    private var values: UnsafeMutablePointer<TemplateValue>
    private var objects: UnsafeMutablePointer<Unmanaged<AnyObject>?>
    private var count = 0
    private var capacity: Int

    init() {
        capacity = 16
        values = .allocate(capacity: capacity)
        objects = .allocate(capacity: capacity)
    }

    deinit {
        values.deinitialize(count: count)
        values.deallocate()
        objects.deallocate()
    }

    /// `body` with `field` and the view model at `depth`, neither retained; `nil` when that
    /// context is another value.
    @inline(__always)
    func using<Result>(
        _ field: Unmanaged<TemplateField>, at depth: Int, _ body: (TemplateField, AnyObject) -> Result
    ) -> Result? {
        guard let object = objects[depth] else { return nil }
        return Self.borrowing(field, object, body)
    }

    /// `body` with `field` and `object`, neither retained (for a step that changes the stack
    /// inside `body`, which `using` cannot allow).
    @inline(__always)
    static func borrowing<Result>(
        _ field: Unmanaged<TemplateField>, _ object: Unmanaged<AnyObject>, _ body: (TemplateField, AnyObject) -> Result
    ) -> Result {
        object._withUnsafeGuaranteedRef { object in field._withUnsafeGuaranteedRef { body($0, object) } }
    }

    /// The context at `depth` (0 is the root).
    func value(at depth: Int) -> TemplateValue { values[depth] }

    /// The view model at `depth`, unretained; `nil` when that context is another value.
    func object(at depth: Int) -> Unmanaged<AnyObject>? { objects[depth] }

    /// The innermost context that is not `.transparent`, or `.absent`.
    var innermostValue: TemplateValue {
        var depth = count - 1
        while depth >= 0 {
            if case .transparent = values[depth] {
                depth -= 1
                continue
            }
            return values[depth]
        }
        return .absent
    }

    @inline(__always)
    mutating func push(_ value: consuming TemplateValue) {
        if count == capacity { grow() }
        if case .object(let object) = value {
            objects[count] = Unmanaged.passUnretained(object)
        } else {
            objects[count] = nil
        }
        (values + count).initialize(to: value)
        count += 1
    }

    @inline(__always)
    mutating func pop() {
        count -= 1
        (values + count).deinitialize(count: 1)
    }

    @inline(never)
    private mutating func grow() {
        let newCapacity = capacity * 2
        let newValues = UnsafeMutablePointer<TemplateValue>.allocate(capacity: newCapacity)
        newValues.moveInitialize(from: values, count: count)
        values.deallocate()
        values = newValues
        let newObjects = UnsafeMutablePointer<Unmanaged<AnyObject>?>.allocate(capacity: newCapacity)
        newObjects.initialize(from: objects, count: count)
        objects.deallocate()
        objects = newObjects
        capacity = newCapacity
    }
}

/// One step of a compiled template. Classes rather than an enum: running a step is one call,
/// with no payload copied out (and retained) per step.
class TemplateStep {
    func run(_ stack: inout TemplateStack, _ output: HTMLBuffer) {}

    /// Static text.
    final class Bytes: TemplateStep {
        let bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        override func run(_ stack: inout TemplateStack, _ output: HTMLBuffer) {
            output.append(contentsOf: bytes)
        }
    }

    /// `{{name}}` or `{{{name}}}`.
    final class Print: TemplateStep {
        let lookup: TemplateLookup
        let escaped: Bool
        init(_ lookup: TemplateLookup, escaped: Bool) {
            self.lookup = lookup
            self.escaped = escaped
        }
        override func run(_ stack: inout TemplateStack, _ output: HTMLBuffer) {
            TemplateStep.print(TemplateStep.resolve(lookup, stack), escaped: escaped, into: output)
        }
    }

    /// `{{#name}}…{{/name}}`.
    final class Section: TemplateStep {
        let lookup: TemplateLookup
        let body: StepList
        init(_ lookup: TemplateLookup, _ body: StepList) {
            self.lookup = lookup
            self.body = body
        }
        override func run(_ stack: inout TemplateStack, _ output: HTMLBuffer) {
            let value = TemplateStep.resolve(lookup, stack)
            switch value {
            case .absent, .transparent, .flag(false):
                break
            case .flag(true):
                stack.push(.transparent)
                body.run(&stack, output)
                stack.pop()
            case .objects(let objects):
                for object in objects {
                    stack.push(.object(object))
                    body.run(&stack, output)
                    stack.pop()
                }
            case .json(.array(let elements)):
                for element in elements {
                    let value = TemplateValue(element)
                    if case .absent = value { continue }
                    stack.push(value)
                    body.run(&stack, output)
                    stack.pop()
                }
            default:
                stack.push(value)
                body.run(&stack, output)
                stack.pop()
            }
        }
    }

    /// `{{^name}}…{{/name}}`.
    final class Inverted: TemplateStep {
        let lookup: TemplateLookup
        let body: StepList
        init(_ lookup: TemplateLookup, _ body: StepList) {
            self.lookup = lookup
            self.body = body
        }
        override func run(_ stack: inout TemplateStack, _ output: HTMLBuffer) {
            guard TemplateStep.resolve(lookup, stack).isFalsy else { return }
            stack.push(.transparent)
            body.run(&stack, output)
            stack.pop()
        }
    }

    /// `{{name}}` or `{{{name}}}` of a text, number or flag field: written straight from the view
    /// model, with no `TemplateValue` made.
    final class PrintField: TemplateStep {
        let depth: Int
        let field: Unmanaged<TemplateField>
        let escaped: Bool
        init(depth: Int, field: Unmanaged<TemplateField>, escaped: Bool) {
            self.depth = depth
            self.field = field
            self.escaped = escaped
        }
        override func run(_ stack: inout TemplateStack, _ output: HTMLBuffer) {
            _ = stack.using(field, at: depth) { $0.write($1, output, escaped) }
        }
    }

    /// A section on a field of the view model at `depth`, with `body` inside: what the sections
    /// read straight from a field have in common.
    class FieldSection: TemplateStep {
        let depth: Int
        let field: Unmanaged<TemplateField>
        let body: StepList
        init(depth: Int, field: Unmanaged<TemplateField>, _ body: StepList) {
            self.depth = depth
            self.field = field
            self.body = body
        }
    }

    /// `{{#flag}}…{{/flag}}` on a flag field.
    final class FlagSection: FieldSection {
        override func run(_ stack: inout TemplateStack, _ output: HTMLBuffer) {
            guard stack.using(field, at: depth, { $0.flag($1) }) == true else { return }
            stack.push(.transparent)
            body.run(&stack, output)
            stack.pop()
        }
    }

    /// `{{#name}}…{{/name}}` on a nested view model's field.
    final class ObjectSection: FieldSection {
        override func run(_ stack: inout TemplateStack, _ output: HTMLBuffer) {
            guard let value = stack.using(field, at: depth, { $0.object($1) }) ?? nil else { return }
            stack.push(.object(value))
            body.run(&stack, output)
            stack.pop()
        }
    }

    /// `{{#name}}…{{/name}}` on a list of view models: the body once for each, in order.
    final class ListSection: FieldSection {
        override func run(_ stack: inout TemplateStack, _ output: HTMLBuffer) {
            guard let context = stack.object(at: depth) else { return }
            TemplateStack.borrowing(field, context) { field, context in
                field.forEachObject(context) { element in
                    stack.push(.object(element))
                    body.run(&stack, output)
                    stack.pop()
                }
            }
        }
    }

    /// `{{^name}}…{{/name}}` on a field read without making a `TemplateValue` (a flag, a text,
    /// a number, a nested view model, a list of them).
    final class FieldInverted: FieldSection {
        override func run(_ stack: inout TemplateStack, _ output: HTMLBuffer) {
            guard stack.using(field, at: depth, { $0.isFalsy($1) }) ?? true else { return }  // nil: absent
            stack.push(.transparent)
            body.run(&stack, output)
            stack.pop()
        }
    }

    @inline(__always)
    static func resolve(_ lookup: TemplateLookup, _ stack: borrowing TemplateStack) -> TemplateValue {
        switch lookup {
        case .none:
            return .absent
        case .field(let depth, let field):
            return stack.using(field, at: depth) { $0.read($1) } ?? .absent
        case .current:
            return stack.innermostValue
        case .candidates(let candidates):
            for candidate in candidates {
                var value = read(stack.value(at: candidate.depth), candidate.path[0])
                if case .absent = value { continue }
                for key in candidate.path.dropFirst() {
                    value = read(value, key)
                    if case .absent = value { return .absent }
                }
                return value
            }
            return .absent
        }
    }

    /// `key` of `value`.
    static func read(_ value: TemplateValue, _ key: TemplateKey) -> TemplateValue {
        switch key {
        case .missing:
            return .absent
        case .field(let field):
            if case .object(let object) = value { return field._withUnsafeGuaranteedRef { $0.read(object) } }
            return .absent
        case .name(let name):
            return value.member(named: name)
        }
    }

    /// Prints `value` as `{{value}}` (escaped) or `{{{value}}}` does.
    static func print(_ value: TemplateValue, escaped: Bool, into output: HTMLBuffer) {
        var sink = output.sink
        switch value {
        case .absent, .transparent:
            break
        case .text(let text):
            if escaped { esc(text, &sink) } else { raw(text, &sink) }
        case .flag(let flag):
            sink += flag ? "true" : "false"
        case .number(let number):
            appendDecimal(number, &sink)
        case .bytes(let bytes):
            bytes.withBytes {
                if escaped { HTMLText.appendEscaped($0, to: &sink) } else { sink.append(contentsOf: $0) }
            }
        case .isoTime(let view):
            if view.iso.isPlainASCII || !escaped {
                view.iso.withUTF8 { sink.append(contentsOf: $0) }  // digits and `-:T+Z`: nothing to escape
            } else {
                esc(view.iso.text, &sink)
            }
        case .writer(let writer):
            if escaped {
                let scratch = HTMLBuffer(capacity: 256)
                writer.write(into: scratch)
                scratch.withBytes { HTMLText.appendEscaped($0, to: &sink) }
            } else {
                writer.write(into: output)
            }
        case .object, .objects, .json:
            // swift-mustache prints Swift's description of a dictionary or list: nothing a page wants.
            break
        }
    }
}

extension TemplateValue {
    /// The value of `name` looked up when rendering: a member of log data (the last one with a
    /// value, as `JSONValue.mustacheValue` keeps it), or a field of a view model by name.
    func member(named name: String) -> TemplateValue {
        switch self {
        case .json(.object(let members)):
            for member in members.reversed() where member.key == name {
                let value = TemplateValue(member.value)
                if case .absent = value { continue }
                return value
            }
            return .absent
        case .object(let object):
            return type(of: object).templateSchema.field(name)?.read(object) ?? .absent
        default:
            return .absent
        }
    }
}
