import Mustache
import ScrollbackModel

/// Turns swift-mustache's tokens into `TemplateStep`s for a stack of context shapes.
struct TemplateCompiler {
    enum Failure: Error {
        /// A construct left to swift-mustache.
        case unsupported(String)
        /// A partial that includes itself without end (`name` is the chain).
        case recursivePartial(String)
    }

    let library: TemplateLibrary
    /// What the steps refer to: the compiled template keeps it.
    let store = StepStore()
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
                if case .field(let depth, let field) = found,
                    Self.access(field) == .printed || Self.access(field) == .flag
                {
                    steps.append(TemplateStep.PrintField(depth: depth, field: field, escaped: escaped))
                } else {
                    steps.append(TemplateStep.Print(found, escaped: escaped))
                }
            case .section(let section, let inverted, let transforms, let body):
                guard transforms.isEmpty else { throw Failure.unsupported("\(name): transforms in {{#\(section)}}") }
                flushText()
                let (found, shape) = lookup(section, stack)
                if inverted {
                    let body = store.list(try compile(body, name: name, stack: stack + [.scalar]))
                    if case .field(let depth, let field) = found, Self.access(field) != .value {
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
                    let body = store.list(try compile(body, name: name, stack: stack + [pushed]))
                    if case .field(let depth, let field) = found, Self.access(field) == .flag {
                        steps.append(TemplateStep.FlagSection(depth: depth, field: field, body))
                    } else if case .field(let depth, let field) = found, Self.access(field) == .object {
                        steps.append(TemplateStep.ObjectSection(depth: depth, field: field, body))
                    } else if case .field(let depth, let field) = found, Self.access(field) == .list {
                        steps.append(TemplateStep.ListSection(depth: depth, field: field, body))
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
        var candidates: [(depth: Int, path: [CompilingKey])] = []
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
            candidates.append((depth, path))
            shapes.append(shape)
            // A field that is never absent ends the search: the candidates further out are never read.
            if case .field(let field) = key, field.alwaysPresent { break }
        }
        guard let firstShape = shapes.first else { return (.none, .scalar) }
        let shape = shapes.dropFirst().allSatisfy { $0.isSame(as: firstShape) } ? firstShape : .dynamic
        if candidates.count == 1, candidates[0].path.count == 1, case .field(let field) = candidates[0].path[0] {
            return (.field(depth: candidates[0].depth, field: store.field(field)), shape)
        }
        let stored = candidates.map { depth, path in
            TemplateCandidate(
                depth: depth,
                path: store.buffer(
                    path.map { key in
                        switch key {
                        case .field(let field): .field(store.field(field))
                        case .name(let name): .name(name)
                        case .missing: .missing
                        }
                    }))
        }
        return (.candidates(store.buffer(stored)), shape)
    }

    /// What the compiler may do with `field` directly.
    private static func access(_ field: Unmanaged<TemplateField>) -> TemplateField.Access {
        field._withUnsafeGuaranteedRef { $0.access }
    }

    /// A step of a dotted name while compiling (`TemplateKey` once the store keeps it).
    private enum CompilingKey {
        case field(TemplateField)
        case name(String)
        case missing
    }

    /// The key of `name` in a context of `shape`, and the shape of its value; `nil` when a context
    /// of that shape never has it.
    private static func key(_ name: String, in shape: TemplateShape) -> (CompilingKey, TemplateShape)? {
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
