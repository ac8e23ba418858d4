import Foundation
import ScrollbackCache
import ScrollbackModel
import ScrollbackReading

/// What `scrollback import` did.
public struct ImportReport: Sendable {
    /// Logs written.
    public var logs = 0
    /// Media files copied.
    public var mediaFiles = 0
    /// Per conversation: `general: 120 in → 120 out`.
    public var counts: [String] = []
    /// Every diagnostic.
    public var diagnostics: [Diagnostic] = []
    /// Whether any error was reported.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// `scrollback import FORMAT PATH -o DIR` (spec §6): the export's conversations as v1.1 JSON
/// logs (`DIR/<id>.json`) plus their media (`DIR/media/<hash>.<ext>`, the names the site uses,
/// so building DIR gives the same site as building the export).
public struct ExportWriter {
    /// The export (folder, zip or file).
    public var input: URL
    /// The format to read it as (exports of other formats under it are ignored).
    public var format: ExportFormat
    /// The folder to write into: new or empty, or with `overwrites` any folder (files of the
    /// same names are then replaced). Nothing is written outside it.
    public var output: URL
    /// `--force`: write into a folder that is not empty (a user's edited logs are replaced).
    public var overwrites = false
    /// `--me` (repeatable): who "me" is, over the config's `me:` and what the importer detected;
    /// the logs are written with the `me` so resolved.
    public var me: [String] = []
    /// Called with diagnostics as they are found.
    public var onDiagnostics: ([Diagnostic]) -> Void

    /// Creates a writer.
    public init(input: URL, format: ExportFormat, output: URL, onDiagnostics: @escaping ([Diagnostic]) -> Void) {
        self.input = input
        self.format = format
        self.output = output
        self.onDiagnostics = onDiagnostics
    }

    /// Reads the export and writes the logs and media.
    public func write() throws -> ImportReport {
        let inputPath = FileSystem.canonicalPath(input.path)
        guard FileSystem.kind(inputPath) != .missing else { throw SiteBuildError.inputNotFound(input.path) }
        let isFile = FileSystem.kind(inputPath) == .file
        let inputRoot =
            isFile
            ? URL(fileURLWithPath: PathText.parent(inputPath)) : URL(fileURLWithPath: inputPath)
        let outputPath = try checkedOutput(inputRoot: inputRoot.path)
        // A fresh private folder (mkdtemp, mode 0700): never one an earlier, killed import left
        // under the same process id, nor one another import in this process is using.
        var template = Array(
            FileManager.default.temporaryDirectory.appendingPathComponent("scrollback-import-XXXXXX").path.utf8CString)
        guard mkdtemp(&template) != nil else {
            throw SiteBuildError.fileSystem("cannot create a temporary folder to unpack into")
        }
        let unpack = URL(fileURLWithPath: String(cString: template))
        defer { FileSystem.removeTree(unpack.path) }
        let found = ExportDiscovery(
            inputRoot: URL(fileURLWithPath: inputPath), format: format, unpackFolder: unpack, excluding: [output]
        ).find()
        var report = ImportReport()
        report.diagnostics += found.diagnostics
        onDiagnostics(found.diagnostics)
        do {
            try FileManager.default.createDirectory(
                atPath: outputPath + "/media", withIntermediateDirectories: true)
        } catch {
            throw SiteBuildError.fileSystem("cannot create '\(output.path)': \(error)")
        }
        // `media` may be a link a non-empty output already had: media are written only into
        // the output's own folder.
        guard FileSystem.canonicalPath(outputPath + "/media") == outputPath + "/media" else {
            throw SiteBuildError.unsafeOutput(
                path: output.path, reason: "its 'media' is a link to another folder; expected a folder of its own")
        }
        var (config, configDiagnostics) = ConfigReader.read(inputRoot: inputRoot)
        config.me.overrides = me
        report.diagnostics += configDiagnostics
        var unresolved: [(id: String, choices: [String])] = []
        let writer = JSONLogWriter { asset in asset.sitePath }
        var written: Set<String> = []
        var copied: Set<String> = []
        for item in found.exports {
            guard let importer = ExportImporters.importer(for: item.export.format) else { continue }
            let context = ImportContext(root: item.export.root, config: config, inputRoot: inputRoot, shownAs: item.zip)
            let exportDiagnostics = importer.read(item.export, context: context) { imported in
                report.counts.append(imported.countLine)
                report.diagnostics += imported.diagnostics
                onDiagnostics(imported.diagnostics)
                // The `me` the build would choose, written into the log (it is the log's own then).
                guard let conversation = imported.conversation.map({ config.me.applied(to: $0, keepsOwn: false) })
                else { return }
                if let choices = MeSetting.choices(for: conversation) {
                    unresolved.append((conversation.id, choices))
                }
                // Ids are slugs (`ConversationSlug`), so one path component; checked all the same,
                // as nothing read from an export may name a file outside the output.
                guard Self.isPlainName(conversation.id) else {
                    let diagnostic = Diagnostic.error(
                        .other("conversation id '\(conversation.id)' is not a file name; expected a slug"),
                        at: SourceLocation(file: imported.sourceFiles.first ?? imported.key, line: 1, column: 1))
                    report.diagnostics.append(diagnostic)
                    onDiagnostics([diagnostic])
                    return
                }
                var name = conversation.id
                var number = 2
                while written.contains(name) {
                    name = conversation.id + "-\(number)"
                    number += 1
                }
                written.insert(name)
                // A second conversation of one id is `<id>-2` in the log as on the site `build` makes.
                var renamed = conversation
                renamed.id = name
                let text = writer.write(renamed)
                do {
                    try Data(text.utf8).write(
                        to: URL(fileURLWithPath: outputPath + "/" + name + ".json"), options: .atomic)
                    report.logs += 1
                    for asset in conversation.localAssets where copied.insert(asset.sitePath).inserted {
                        let parts = asset.sitePath.split(separator: "/", omittingEmptySubsequences: false)
                        guard parts.count == 2, parts[0] == "media", Self.isPlainName(String(parts[1])) else {
                            throw SiteBuildError.fileSystem("media path '\(asset.sitePath)' is not media/<file>")
                        }
                        let destination = URL(fileURLWithPath: outputPath + "/" + asset.sitePath)
                        try? FileManager.default.removeItem(at: destination)
                        try FileManager.default.copyItem(
                            at: URL(fileURLWithPath: asset.sourcePath), to: destination)
                        report.mediaFiles += 1
                    }
                } catch {
                    let diagnostic = Diagnostic.error(
                        .fileSystem("cannot write '\(name).json': \(error)"),
                        at: SourceLocation(file: imported.sourceFiles.first ?? name, line: 1, column: 1))
                    report.diagnostics.append(diagnostic)
                    onDiagnostics([diagnostic])
                }
            }
            report.diagnostics += exportDiagnostics
            onDiagnostics(exportDiagnostics)
        }
        if let warning = MeSetting.unresolvedWarning(unresolved) {
            report.diagnostics.append(warning)
            onDiagnostics([warning])
        }
        return report
    }

    /// The output's canonical path, after refusing what `import` must never write into: the
    /// root, the export's folder or a folder holding it, something that is not a folder, and a
    /// non-empty folder unless `overwrites` (issue 40.8: a user's edited logs were replaced).
    func checkedOutput(inputRoot: String) throws -> String {
        let path = FileSystem.canonicalPath(output.path)
        func refuse(_ reason: String) -> SiteBuildError { .unsafeOutput(path: output.path, reason: reason) }
        if path == "/" { throw refuse("it is the root folder") }
        if path == inputRoot || inputRoot.hasPrefix(path + "/") { throw refuse("it holds the export") }
        switch FileSystem.kind(path) {
        case .missing: break
        case .file, .other: throw refuse("it exists and is not a folder")
        case .directory:
            if !overwrites, !FileSystem.entries(path).isEmpty {
                throw refuse(
                    "it is not empty, and its files would be replaced; expected a new or empty folder, "
                        + "or --force to replace files of the same names")
            }
        }
        return path
    }

    /// Whether `name` is one plain file name: no `/`, not empty, not `.`/`..`, not hidden.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && !name.hasPrefix(".") && !name.contains("\u{0}")
    }
}
