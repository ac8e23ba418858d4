import Foundation
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
    /// The folder to write into (created; existing files of the same names are replaced).
    public var output: URL
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
                at: output.appendingPathComponent("media"), withIntermediateDirectories: true)
        } catch {
            throw SiteBuildError.fileSystem("cannot create '\(output.path)': \(error)")
        }
        let (config, configDiagnostics) = ConfigReader.read(inputRoot: inputRoot)
        report.diagnostics += configDiagnostics
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
                guard let conversation = imported.conversation else { return }
                var name = conversation.id
                var number = 2
                while written.contains(name) {
                    name = conversation.id + "-\(number)"
                    number += 1
                }
                written.insert(name)
                let text = writer.write(conversation)
                do {
                    try Data(text.utf8).write(to: output.appendingPathComponent(name + ".json"), options: .atomic)
                    report.logs += 1
                    for asset in conversation.localAssets where copied.insert(asset.sitePath).inserted {
                        let destination = output.appendingPathComponent(asset.sitePath)
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
        return report
    }
}
