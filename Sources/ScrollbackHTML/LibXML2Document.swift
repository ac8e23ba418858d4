import CLibXML2

/// libxml2's process-wide setup (character tables, thread-local globals) must run once,
/// before any parser runs on any thread; a global `let` is initialized exactly once, safely.
private let libxml2Initialized: Void = { xmlInitParser() }()

/// An HTML document parsed by libxml2's HTML parser, owned by Swift.
///
/// This is the only place that creates or frees a libxml2 tree; it is internal so no C
/// pointer leaves the module. One document is used by one thread at a time, which libxml2
/// allows: only its global setup is shared.
final class LibXML2Document {
    /// The parsed tree; freed in `deinit`.
    private let document: htmlDocPtr

    /// Parser options shared by every parse: recover from any input, print nothing, never
    /// touch the network. `XML_PARSE_HUGE` lifts the nesting limit of 256, past which libxml2
    /// stops parsing and silently loses the rest of the text; the sanitizer bounds the depth
    /// of what it writes itself.
    private static let baseOptions: Int32 = Int32(
        HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
            | HTML_PARSE_NONET.rawValue | XML_PARSE_HUGE.rawValue)

    /// Parses `bytes`. With `forcingUTF8`, the bytes are read as UTF-8 whatever a `<meta charset>`
    /// says (for text that is already a Swift string); without it libxml2 sniffs the encoding
    /// from a byte-order mark or `<meta>` (for saved pages of unknown encoding).
    /// Returns `nil` when libxml2 gives no document (empty input).
    init?(bytes: UnsafeBufferPointer<UInt8>, forcingUTF8: Bool) {
        guard let parsed = Self.parse(bytes, forcingUTF8: forcingUTF8) else { return nil }
        document = parsed
    }

    /// Parses `text`. NUL characters become U+FFFD first, as in browsers: libxml2 would
    /// otherwise stop reading at them.
    init?(text: String) {
        var text = text
        if text.utf8.contains(0) {
            text = String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : $0 }))
        }
        guard let parsed = text.withUTF8({ Self.parse($0, forcingUTF8: true) }) else { return nil }
        document = parsed
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, forcingUTF8: Bool) -> htmlDocPtr? {
        _ = libxml2Initialized
        guard let base = bytes.baseAddress, bytes.count > 0, bytes.count < Int(Int32.max) else { return nil }
        let options = forcingUTF8 ? baseOptions | Int32(HTML_PARSE_IGNORE_ENC.rawValue) : baseOptions
        return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { characters in
            htmlReadMemory(characters, Int32(bytes.count), nil, forcingUTF8 ? "UTF-8" : nil, options)
        }
    }

    deinit { xmlFreeDoc(document) }

    /// Visits every node in document order without recursion (deeply nested input cannot
    /// overflow the stack). `enter` returns whether to descend into the node's children;
    /// `leave` is called, after its children, for every node whose `enter` returned `true`.
    func walk(enter: (HTMLNode) -> Bool, leave: (HTMLNode) -> Void) {
        guard var node = document.pointee.children else { return }
        let top = UnsafeMutableRawPointer(document)
        while true {
            if enter(HTMLNode(node)) {
                if let child = node.pointee.children {
                    node = child
                    continue
                }
                leave(HTMLNode(node))
            }
            // No descent: move to the next sibling, closing finished ancestors on the way up.
            while true {
                if let next = node.pointee.next {
                    node = next
                    break
                }
                guard let parent = node.pointee.parent, UnsafeMutableRawPointer(parent) != top else { return }
                node = parent
                leave(HTMLNode(node))
            }
        }
    }
}

/// A borrowed view of one node of a `LibXML2Document`; valid only during `walk`.
struct HTMLNode {
    /// What a node is, reduced to what the sanitizer and the metadata reader care about.
    enum Kind {
        case element, text, other
    }

    private let node: xmlNodePtr

    fileprivate init(_ node: xmlNodePtr) { self.node = node }

    /// Element, text (including CDATA), or anything else (comments, processing instructions…).
    var kind: Kind {
        switch node.pointee.type {
        case XML_ELEMENT_NODE: return .element
        case XML_TEXT_NODE, XML_CDATA_SECTION_NODE: return .text
        default: return .other
        }
    }

    /// The lowercased element name (libxml2's HTML parser already lowercases; this makes sure).
    var name: String {
        guard let name = node.pointee.name else { return "" }
        return String(cString: name).lowercased()
    }

    /// The UTF-8 bytes of a text node, entities already decoded by the parser.
    func withTextBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        guard let content = node.pointee.content else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return body(UnsafeBufferPointer(start: content, count: Int(xmlStrlen(content))))
    }

    /// The text of a text node.
    var text: String {
        guard let content = node.pointee.content else { return "" }
        return String(cString: content)
    }

    /// The element's attributes in source order: lowercased name and decoded value.
    var attributes: [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        var attribute = node.pointee.properties
        while let current = attribute {
            if let rawName = current.pointee.name {
                var value = ""
                var valueNode = current.pointee.children
                while let piece = valueNode {
                    if let content = piece.pointee.content { value += String(cString: content) }
                    valueNode = piece.pointee.next
                }
                result.append((String(cString: rawName).lowercased(), value))
            }
            attribute = current.pointee.next
        }
        return result
    }

    /// The value of the first attribute called `name` (lowercase), if present. Compares names in
    /// place: only the value found is turned into a string.
    func attribute(_ name: String) -> String? {
        var attribute = node.pointee.properties
        while let current = attribute {
            if let rawName = current.pointee.name, xmlStrcasecmp(rawName, name) == 0 {
                var value = ""
                var valueNode = current.pointee.children
                while let piece = valueNode {
                    if let content = piece.pointee.content { value += String(cString: content) }
                    valueNode = piece.pointee.next
                }
                return value
            }
            attribute = current.pointee.next
        }
        return nil
    }

    /// The names of the element's ancestors, nearest first.
    var ancestorNames: [String] {
        var names: [String] = []
        var current = node.pointee.parent
        while let ancestor = current, ancestor.pointee.type == XML_ELEMENT_NODE {
            names.append(HTMLNode(ancestor).name)
            current = ancestor.pointee.parent
        }
        return names
    }

    /// The text of the node's descendant text nodes, in order, leaving out what is inside
    /// `script`, `style` and `template` elements.
    var textContent: String {
        var result = ""
        guard var current = node.pointee.children else { return result }
        while true {
            var descend = false
            switch HTMLNode(current).kind {
            case .text: result += HTMLNode(current).text
            case .element: descend = !["script", "style", "template"].contains(HTMLNode(current).name)
            case .other: break
            }
            if descend, let child = current.pointee.children {
                current = child
                continue
            }
            while true {
                if let next = current.pointee.next {
                    current = next
                    break
                }
                guard let parent = current.pointee.parent, parent != node else { return result }
                current = parent
            }
        }
    }
}
