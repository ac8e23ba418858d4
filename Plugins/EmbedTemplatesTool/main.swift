// The build tool behind the EmbedTemplates plugin:
//
//     EmbedTemplatesTool <Templates folder> <output .swift file>
//
// writes one Swift file that defines `ShippedTemplates.embeddedFiles`: every regular,
// non-hidden file under the folder, sorted by relative path, as a string literal (UTF-8 text)
// or a Base64 literal (anything else). Same folder in, same bytes out.
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: EmbedTemplatesTool <templates folder> <output.swift>\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[1], isDirectory: true)
let output = URL(fileURLWithPath: arguments[2])

/// `text` as a Swift string literal that evaluates to exactly the same Unicode scalars.
func swiftLiteral(_ text: String) -> String {
    var literal = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": literal += "\\\\"
        case "\"": literal += "\\\""
        case "\n": literal += "\\n"
        case "\r": literal += "\\r"
        case "\t": literal += "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value):
            literal += "\\u{\(String(scalar.value, radix: 16))}"
        default: literal.unicodeScalars.append(scalar)
        }
    }
    return literal + "\""
}

var isDirectory: ObjCBool = false
guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
    FileHandle.standardError.write(Data("error: templates folder \(folder.path) not found\n".utf8))
    exit(1)
}
var entries: [String] = []
for relative in (FileManager.default.subpaths(atPath: folder.path) ?? []).sorted() {
    guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
    let url = folder.appendingPathComponent(relative)
    guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
        let data = FileManager.default.contents(atPath: url.path)
    else { continue }
    let bytes = [UInt8](data)
    if let text = String(validating: bytes, as: UTF8.self) {
        entries.append("        File(path: \(swiftLiteral(relative)), text: \(swiftLiteral(text))),")
    } else {
        entries.append("        File(path: \(swiftLiteral(relative)), base64: \"\(data.base64EncodedString())\"),")
    }
}

let source = """
    // Generated at build time by the EmbedTemplates plugin from the repository's Templates/ folder.
    // Do not edit: change the files in Templates/ instead.

    extension ShippedTemplates {
        /// Every file of `Templates/` at build time, sorted by relative path.
        static let embeddedFiles: [File] = [
    \(entries.joined(separator: "\n"))
        ]
    }

    """
do {
    // Rewrite only when different, so an unchanged folder does not recompile the target.
    if FileManager.default.contents(atPath: output.path) != Data(source.utf8) {
        try Data(source.utf8).write(to: output, options: .atomic)
    }
} catch {
    FileHandle.standardError.write(Data("error: cannot write \(output.path): \(error)\n".utf8))
    exit(1)
}
