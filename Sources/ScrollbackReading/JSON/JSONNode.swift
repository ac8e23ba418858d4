import Foundation
import ScrollbackModel

/// A JSON value with the place it was written: what the readers need to point errors at
/// the exact line and column of a bad field.
public struct JSONNode: Sendable {
    /// The value and, for arrays and objects, its children.
    public enum Value: Sendable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// The number's text exactly as written (RFC 8259 grammar already checked).
        case number(String)
        /// A string, unescaped.
        case string(String)
        /// Elements in source order.
        case array([JSONNode])
        /// Members in source order; a repeated key keeps every occurrence.
        case object([JSONMember])
    }

    /// The value.
    public var value: Value
    // 32-bit positions keep a node at 32 bytes: a 1M-message log has millions of nodes.
    private var storedLine: UInt32
    private var storedColumn: UInt32

    /// Creates a node at `line`:`column`.
    public init(_ value: Value, line: Int, column: Int) {
        self.value = value
        self.storedLine = UInt32(clamping: line)
        self.storedColumn = UInt32(clamping: column)
    }

    /// 1-based line of the value's first byte.
    public var line: Int { Int(storedLine) }
    /// 1-based column (in UTF-8 bytes) of the value's first byte.
    public var column: Int { Int(storedColumn) }

    /// Where the value starts in `file`.
    public func location(in file: String) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column)
    }

    /// The value of the first member named `key`, if this is an object that has one.
    public subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        for member in members where member.key == key { return member.value }
        return nil
    }

    /// The members, if this is an object.
    public var members: [JSONMember]? {
        if case .object(let members) = value { return members }
        return nil
    }

    /// The elements, if this is an array.
    public var elements: [JSONNode]? {
        if case .array(let elements) = value { return elements }
        return nil
    }

    /// The string, if this is a string.
    public var string: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    /// The boolean, if this is `true` or `false`.
    public var bool: Bool? {
        if case .bool(let flag) = value { return flag }
        return nil
    }

    /// The number as a `Double`, if this is a number.
    public var number: Double? {
        if case .number(let text) = value { return Double(text) }
        return nil
    }

    /// The number when it is finite and within `range`, else `nil`. For importers: an export is
    /// untrusted, and a value such as `1e300` must not reach an `Int` conversion (which traps).
    public func number(in range: ClosedRange<Double>) -> Double? {
        guard let value = number, value.isFinite, range.contains(value) else { return nil }
        return value
    }

    /// What kind of JSON value this is, for "expected a string, got an array" messages.
    public var typeName: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The same value without positions, as the model keeps custom data.
    public var jsonValue: JSONValue {
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let text): return .number(text)
        case .string(let text): return .string(text)
        case .array(let elements): return .array(elements.map(\.jsonValue))
        case .object(let members): return .object(members.map { (key: $0.key, value: $0.value.jsonValue) })
        }
    }
}

/// One `"key": value` member of a JSON object.
public struct JSONMember: Sendable {
    /// The key, unescaped.
    public var key: String
    /// The value.
    public var value: JSONNode
    private var storedKeyLine: UInt32
    private var storedKeyColumn: UInt32

    /// Creates a member whose key starts at `keyLine`:`keyColumn`.
    public init(key: String, value: JSONNode, keyLine: Int, keyColumn: Int) {
        self.key = key
        self.value = value
        self.storedKeyLine = UInt32(clamping: keyLine)
        self.storedKeyColumn = UInt32(clamping: keyColumn)
    }

    /// 1-based line of the key's opening quote.
    public var keyLine: Int { Int(storedKeyLine) }
    /// 1-based column of the key's opening quote.
    public var keyColumn: Int { Int(storedKeyColumn) }

    /// Where the key starts in `file`.
    public func keyLocation(in file: String) -> SourceLocation {
        SourceLocation(file: file, line: keyLine, column: keyColumn)
    }
}
