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

    private enum Body {
        case steps([TemplateStep])
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
            return
        }
        var compiler = TemplateCompiler(library: library)
        do {
            if forceMustache { throw TemplateCompiler.Failure.unsupported("rendering everything with swift-mustache") }
            body = .steps(try compiler.compile(template, name: name, stack: [.object(schema)]))
        } catch let failure as TemplateCompiler.Failure {
            switch failure {
            case .unsupported(let reason): body = .mustache(library.mustache, reason: reason)
            case .recursivePartial: throw failure
            }
        }
    }

    /// A template that does not exist: it prints nothing.
    init(missing name: String) {
        self.name = name
        body = .missing
    }

    /// Appends the template rendered with `root` (an object of the schema it was compiled for).
    func render(_ root: TemplateObject, into output: HTMLBuffer) {
        var stack: [TemplateValue] = []
        render(root, into: output, stack: &stack)
    }

    /// The same, with `stack` as the context stack's storage (left empty), so a caller that
    /// renders a row after another allocates it once.
    func render(_ root: TemplateObject, into output: HTMLBuffer, stack: inout [TemplateValue]) {
        switch body {
        case .steps(let steps):
            stack.removeAll(keepingCapacity: true)
            stack.append(.object(root))
            TemplateStep.run(steps, &stack, output)
            stack.removeAll(keepingCapacity: true)
        case .mustache(let library, _):
            if let text = library.render(MustacheView(value: .object(root)), withTemplate: name) {
                var sink = output
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
    case field(depth: Int, field: TemplateField)
    /// Several candidates, innermost first; the first one whose value is not absent wins.
    case candidates([TemplateCandidate])
}

/// A place a name may be found: the context at `depth` in the stack, then `path` inside it.
struct TemplateCandidate {
    var depth: Int
    var path: [TemplateKey]
}

/// One step of a dotted name.
enum TemplateKey {
    /// A field of the view model's schema.
    case field(TemplateField)
    /// A name looked up when rendering (log data, or contexts of more than one shape).
    case name(String)
    /// A name the value cannot have.
    case missing
}

/// One step of a compiled template. Classes rather than an enum: running a step is one call,
/// with no payload copied out (and retained) per step.
class TemplateStep {
    func run(_ stack: inout [TemplateValue], _ output: HTMLBuffer) {}

    /// Runs `steps` in order.
    @inline(__always)
    static func run(_ steps: [TemplateStep], _ stack: inout [TemplateValue], _ output: HTMLBuffer) {
        steps.withUnsafeBufferPointer { steps in
            for index in steps.indices { steps[index].run(&stack, output) }
        }
    }

    /// Static text.
    final class Bytes: TemplateStep {
        let bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        override func run(_ stack: inout [TemplateValue], _ output: HTMLBuffer) {
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
        override func run(_ stack: inout [TemplateValue], _ output: HTMLBuffer) {
            TemplateStep.print(TemplateStep.resolve(lookup, stack), escaped: escaped, into: output)
        }
    }

    /// `{{#name}}…{{/name}}`.
    final class Section: TemplateStep {
        let lookup: TemplateLookup
        let body: [TemplateStep]
        init(_ lookup: TemplateLookup, _ body: [TemplateStep]) {
            self.lookup = lookup
            self.body = body
        }
        override func run(_ stack: inout [TemplateValue], _ output: HTMLBuffer) {
            let value = TemplateStep.resolve(lookup, stack)
            switch value {
            case .absent, .transparent, .flag(false):
                break
            case .flag(true):
                stack.append(.transparent)
                TemplateStep.run(body, &stack, output)
                stack.removeLast()
            case .objects(let objects):
                for object in objects {
                    stack.append(.object(object))
                    TemplateStep.run(body, &stack, output)
                    stack.removeLast()
                }
            case .json(.array(let elements)):
                for element in elements {
                    let value = TemplateValue(element)
                    if case .absent = value { continue }
                    stack.append(value)
                    TemplateStep.run(body, &stack, output)
                    stack.removeLast()
                }
            default:
                stack.append(value)
                TemplateStep.run(body, &stack, output)
                stack.removeLast()
            }
        }
    }

    /// `{{^name}}…{{/name}}`.
    final class Inverted: TemplateStep {
        let lookup: TemplateLookup
        let body: [TemplateStep]
        init(_ lookup: TemplateLookup, _ body: [TemplateStep]) {
            self.lookup = lookup
            self.body = body
        }
        override func run(_ stack: inout [TemplateValue], _ output: HTMLBuffer) {
            let shows: Bool
            switch TemplateStep.resolve(lookup, stack) {
            case .absent, .flag(false): shows = true
            case .objects(let objects): shows = objects.isEmpty
            case .json(.array(let elements)): shows = !elements.contains { if case .null = $0 { false } else { true } }
            default: shows = false
            }
            if shows {
                stack.append(.transparent)
                TemplateStep.run(body, &stack, output)
                stack.removeLast()
            }
        }
    }

    /// The view model at `depth` of the stack (a field lookup's context: always an object).
    @inline(__always)
    static func object(at depth: Int, _ stack: [TemplateValue]) -> TemplateObject? {
        if case .object(let object) = stack[depth] { return object }
        return nil
    }

    /// `{{name}}` or `{{{name}}}` of a text, number or flag field: written straight from the view
    /// model, with no `TemplateValue` made.
    final class PrintField: TemplateStep {
        let depth: Int
        let write: (AnyObject, HTMLBuffer, Bool) -> Void
        let escaped: Bool
        init(depth: Int, write: @escaping (AnyObject, HTMLBuffer, Bool) -> Void, escaped: Bool) {
            self.depth = depth
            self.write = write
            self.escaped = escaped
        }
        override func run(_ stack: inout [TemplateValue], _ output: HTMLBuffer) {
            if let object = TemplateStep.object(at: depth, stack) { write(object, output, escaped) }
        }
    }

    /// `{{#flag}}…{{/flag}}` on a flag field.
    final class FlagSection: TemplateStep {
        let depth: Int
        let flag: (AnyObject) -> Bool
        let body: [TemplateStep]
        init(depth: Int, flag: @escaping (AnyObject) -> Bool, _ body: [TemplateStep]) {
            self.depth = depth
            self.flag = flag
            self.body = body
        }
        override func run(_ stack: inout [TemplateValue], _ output: HTMLBuffer) {
            guard let object = TemplateStep.object(at: depth, stack), flag(object) else { return }
            stack.append(.transparent)
            TemplateStep.run(body, &stack, output)
            stack.removeLast()
        }
    }

    /// `{{#name}}…{{/name}}` on a nested view model's field.
    final class ObjectSection: TemplateStep {
        let depth: Int
        let object: (AnyObject) -> TemplateObject?
        let body: [TemplateStep]
        init(depth: Int, object: @escaping (AnyObject) -> TemplateObject?, _ body: [TemplateStep]) {
            self.depth = depth
            self.object = object
            self.body = body
        }
        override func run(_ stack: inout [TemplateValue], _ output: HTMLBuffer) {
            guard let context = TemplateStep.object(at: depth, stack), let value = object(context) else { return }
            stack.append(.object(value))
            TemplateStep.run(body, &stack, output)
            stack.removeLast()
        }
    }

    /// `{{^name}}…{{/name}}` on a flag field or a nested view model's field.
    final class FieldInverted: TemplateStep {
        let depth: Int
        let field: TemplateField
        let body: [TemplateStep]
        init(depth: Int, field: TemplateField, _ body: [TemplateStep]) {
            self.depth = depth
            self.field = field
            self.body = body
        }
        override func run(_ stack: inout [TemplateValue], _ output: HTMLBuffer) {
            let shows: Bool
            if let context = TemplateStep.object(at: depth, stack) {
                shows = Self.shows(field, context)
            } else {
                shows = true  // absent
            }
            guard shows else { return }
            stack.append(.transparent)
            TemplateStep.run(body, &stack, output)
            stack.removeLast()
        }

        private static func shows(_ field: TemplateField, _ context: AnyObject) -> Bool {
            if let flag = field.flag {
                return !flag(context)
            }
            if let object = field.object { return object(context) == nil }
            return false
        }
    }

    @inline(__always)
    static func resolve(_ lookup: TemplateLookup, _ stack: [TemplateValue]) -> TemplateValue {
        switch lookup {
        case .none:
            return .absent
        case .field(let depth, let field):
            if case .object(let object) = stack[depth] { return field.read(object) }
            return .absent
        case .current:
            for value in stack.reversed() {
                if case .transparent = value { continue }
                return value
            }
            return .absent
        case .candidates(let candidates):
            for candidate in candidates {
                var value = read(stack[candidate.depth], candidate.path[0])
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
            if case .object(let object) = value { return field.read(object) }
            return .absent
        case .name(let name):
            return value.member(named: name)
        }
    }

    /// Prints `value` as `{{value}}` (escaped) or `{{{value}}}` does.
    static func print(_ value: TemplateValue, escaped: Bool, into output: HTMLBuffer) {
        var sink = output
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

// MARK: - Compiler

/// Turns swift-mustache's tokens into `TemplateStep`s for a stack of context shapes.
struct TemplateCompiler {
    enum Failure: Error {
        /// A construct left to swift-mustache.
        case unsupported(String)
        /// A partial that includes itself without end (`name` is the chain).
        case recursivePartial(String)
    }

    let library: TemplateLibrary
    /// Partials being compiled, outermost first (to stop a partial that includes itself forever).
    private var partials: [String] = []

    init(library: TemplateLibrary) {
        self.library = library
    }

    /// The steps of `template` (named `name`) with contexts of `stack` (outermost first).
    mutating func compile(_ template: MustacheTemplate, name: String, stack: [TemplateShape]) throws -> [TemplateStep] {
        guard let tokens = MustacheToken.tokens(of: template) else {
            throw Failure.unsupported("\(name): swift-mustache's parsed form is not the one this build reads")
        }
        var steps: [TemplateStep] = []
        var pendingText: [UInt8] = []
        func flushText() {
            if !pendingText.isEmpty { steps.append(TemplateStep.Bytes(pendingText)) }
            pendingText = []
        }
        for token in tokens {
            switch token {
            case .text(let text):
                pendingText.append(contentsOf: text.utf8)
            case .contentType(let isPageEscaping):
                guard isPageEscaping else { throw Failure.unsupported("\(name): a content type other than HTML") }
            case .variable(let variable, let escaped, let transforms):
                guard transforms.isEmpty else { throw Failure.unsupported("\(name): transforms in {{\(variable)}}") }
                flushText()
                let found = lookup(variable, stack).lookup
                if case .field(let depth, let field) = found, let write = field.write {
                    steps.append(TemplateStep.PrintField(depth: depth, write: write, escaped: escaped))
                } else {
                    steps.append(TemplateStep.Print(found, escaped: escaped))
                }
            case .section(let section, let inverted, let transforms, let body):
                guard transforms.isEmpty else { throw Failure.unsupported("\(name): transforms in {{#\(section)}}") }
                flushText()
                let (found, shape) = lookup(section, stack)
                if inverted {
                    let body = try compile(body, name: name, stack: stack + [.scalar])
                    if case .field(let depth, let field) = found, field.flag != nil || field.object != nil {
                        steps.append(TemplateStep.FieldInverted(depth: depth, field: field, body))
                    } else {
                        steps.append(TemplateStep.Inverted(found, body))
                    }
                } else {
                    let pushed: TemplateShape
                    switch shape {
                    case .list(let element): pushed = .object(element)
                    default: pushed = shape
                    }
                    let body = try compile(body, name: name, stack: stack + [pushed])
                    if case .field(let depth, let field) = found, let flag = field.flag {
                        steps.append(TemplateStep.FlagSection(depth: depth, flag: flag, body))
                    } else if case .field(let depth, let field) = found, let object = field.object {
                        steps.append(TemplateStep.ObjectSection(depth: depth, object: object, body))
                    } else {
                        steps.append(TemplateStep.Section(found, body))
                    }
                }
            case .partial(let partial, let indentation, let inherits):
                guard !inherits else { throw Failure.unsupported("\(name): a partial with blocks ({{<\(partial)}})") }
                guard indentation?.isEmpty ?? true else {
                    throw Failure.unsupported("\(name): an indented standalone partial {{>\(partial)}}")
                }
                guard let included = library.template(named: partial) else { continue }  // prints nothing
                guard partials.count < 16 else {
                    throw Failure.recursivePartial((partials + [partial]).joined(separator: " → "))
                }
                flushText()
                partials.append(partial)
                steps += try compile(included, name: partial, stack: stack)
                partials.removeLast()
            case .unsupported(let construct):
                throw Failure.unsupported("\(name): \(construct)")
            }
        }
        flushText()
        return steps
    }

    /// How `name` is found with contexts of `stack`, and the shape of what it finds.
    private func lookup(_ name: String, _ stack: [TemplateShape]) -> (lookup: TemplateLookup, shape: TemplateShape) {
        if name == "." {
            return (.current, stack.last ?? .dynamic)
        }
        let components = name.split(separator: ".", omittingEmptySubsequences: true).map(String.init)
        guard let first = components.first else { return (.none, .scalar) }
        // A leading dot (`.name`) looks only in the innermost context.
        let depths = name.hasPrefix(".") ? [stack.count - 1] : Array(stack.indices.reversed())
        var candidates: [TemplateCandidate] = []
        var shapes: [TemplateShape] = []
        for depth in depths {
            guard let (key, firstShape) = Self.key(first, in: stack[depth]) else { continue }
            var path = [key]
            var shape = firstShape
            for component in components.dropFirst() {
                if let (nextKey, nextShape) = Self.key(component, in: shape) {
                    path.append(nextKey)
                    shape = nextShape
                } else {
                    path.append(.missing)
                    shape = .scalar
                }
            }
            candidates.append(TemplateCandidate(depth: depth, path: path))
            shapes.append(shape)
            // A field that is never absent ends the search: the candidates further out are never read.
            if case .field(let field) = key, field.alwaysPresent { break }
        }
        guard let firstShape = shapes.first else { return (.none, .scalar) }
        let shape = shapes.dropFirst().allSatisfy { $0.isSame(as: firstShape) } ? firstShape : .dynamic
        if candidates.count == 1, candidates[0].path.count == 1, case .field(let field) = candidates[0].path[0] {
            return (.field(depth: candidates[0].depth, field: field), shape)
        }
        return (.candidates(candidates), shape)
    }

    /// The key of `name` in a context of `shape`, and the shape of its value; `nil` when a context
    /// of that shape never has it.
    private static func key(_ name: String, in shape: TemplateShape) -> (TemplateKey, TemplateShape)? {
        switch shape {
        case .scalar, .list:
            return nil
        case .dynamic:
            return (.name(name), .dynamic)
        case .object(let schema):
            guard let field = schema.field(name) else { return nil }
            return (.field(field), field.shape())
        }
    }
}

extension TemplateShape {
    /// Whether values of both shapes have the same names.
    func isSame(as other: TemplateShape) -> Bool {
        switch (self, other) {
        case (.scalar, .scalar), (.dynamic, .dynamic): return true
        case (.object(let a), .object(let b)), (.list(let a), .list(let b)): return a === b
        default: return false
        }
    }
}
