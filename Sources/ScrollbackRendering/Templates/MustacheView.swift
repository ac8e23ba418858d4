import Mustache
import ScrollbackModel

/// A template value as swift-mustache sees it: view models answer `child(named:)` through their
/// schema, so swift-mustache renders the same view models as `CompiledTemplate` — for templates
/// with constructs the compiler leaves to it, and in tests that compare the two.
struct MustacheView: MustacheParent {
    let value: TemplateValue

    func child(named name: String) -> Any? {
        Self.plain(value.member(named: name))
    }

    /// `value` as the plain Swift value swift-mustache expects.
    static func plain(_ value: TemplateValue) -> Any? {
        switch value {
        case .absent, .transparent: return nil
        case .text(let text): return text
        case .flag(let flag): return flag
        case .number(let number): return number
        case .bytes(let bytes): return bytes.string
        case .isoTime(let time): return time.iso.text
        case .writer(let writer):
            let output = HTMLBuffer(capacity: 1024)
            writer.write(into: output)
            return output.string
        case .object: return MustacheView(value: value)
        case .objects(let objects): return objects.map { MustacheView(value: .object($0)) }
        case .json(let json): return json.mustacheValue
        }
    }
}
