import Foundation

/// The templates and assets Scrollback ships: the files of the repository's `Templates/` folder,
/// embedded into the binary at build time (the `EmbedTemplates` plugin generates
/// `embeddedFiles`), so a copied or installed `scrollback` needs no source tree beside it.
///
/// Template authors can set `SCROLLBACK_TEMPLATES` to a folder laid out like `Templates/`; its
/// files then replace the embedded set as a whole, and edits show without recompiling.
public enum ShippedTemplates {
    /// One shipped file: its path relative to `Templates/` (`message.mustache`,
    /// `assets/scrollback.css`, …) and its bytes.
    public struct File: Sendable, Equatable {
        public let path: String
        public let contents: [UInt8]

        public init(path: String, contents: [UInt8]) {
            self.path = path
            self.contents = contents
        }

        /// A text file, as the generated code spells it.
        init(path: String, text: String) {
            self.init(path: path, contents: Array(text.utf8))
        }

        /// A file that is not UTF-8 text, as the generated code spells it.
        init(path: String, base64: String) {
            self.init(path: path, contents: Array(Data(base64Encoded: base64) ?? Data()))
        }
    }

    /// What went wrong reading the `SCROLLBACK_TEMPLATES` folder.
    public enum OverrideError: Error, Equatable, CustomStringConvertible {
        /// The variable names something that is not a readable folder.
        case notAFolder(String)

        public var description: String {
            switch self {
            case .notAFolder(let path):
                return
                    "\(ShippedTemplates.overrideVariable)=\(path) is not a folder; expected a folder laid out like Templates/"
            }
        }
    }

    /// The environment variable that names a folder to use instead of the embedded files.
    public static let overrideVariable = "SCROLLBACK_TEMPLATES"

    /// The folder named by `SCROLLBACK_TEMPLATES`, or `nil` when it is unset or empty.
    public static var overrideDirectory: String? {
        guard let path = ProcessInfo.processInfo.environment[overrideVariable], !path.isEmpty else { return nil }
        return path
    }

    /// The embedded files, sorted by path (what the binary was built with).
    public static var embedded: [File] { embeddedFiles }

    /// The shipped files the build uses, sorted by path: the `SCROLLBACK_TEMPLATES` folder's
    /// files when it is set, else the embedded ones.
    public static func files() throws(OverrideError) -> [File] {
        guard let directory = overrideDirectory else { return embeddedFiles }
        return try files(inFolder: directory)
    }

    /// The regular, non-hidden files under `directory` (a folder laid out like `Templates/`: the
    /// `SCROLLBACK_TEMPLATES` folder or a site's `templates/`), sorted by relative path. A file
    /// whose path `reads` refuses (a link out of the input) is listed with no contents and never
    /// opened, so its caller can name it.
    public static func files(
        inFolder directory: String, reads: (String) -> Bool = { _ in true }
    ) throws(OverrideError) -> [File] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue,
            let relatives = FileManager.default.subpaths(atPath: directory)
        else { throw .notAFolder(directory) }
        return relatives.sorted().compactMap { relative in
            guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { return nil }
            let path = (directory as NSString).appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { return nil }
            guard reads(path) else { return File(path: relative, contents: []) }
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            return File(path: relative, contents: Array(data))
        }
    }
}

#if SCROLLBACK_TEMPLATES_NOT_EMBEDDED
extension ShippedTemplates {
    /// None: the fuzz build (Package.swift, `SCROLLBACK_FUZZ`) runs without the embedding plugin,
    /// whose tool would be linked with libFuzzer's `main`; it reads `Templates/` through
    /// `SCROLLBACK_TEMPLATES` instead.
    static let embeddedFiles: [File] = []
}
#endif
