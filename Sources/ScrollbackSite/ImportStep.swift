import Dispatch
import Foundation
import ScrollbackCache
import ScrollbackModel
import ScrollbackReading

/// The exports of a build (spec §6) read and built, conversation by conversation: the part of
/// `buildConversations` that is not a folder of logs. Everything here is immutable, so the
/// exports are read in parallel.
struct ImportStep: Sendable {
    /// The exports found, in discovery order.
    let exports: [ExportDiscovery.Found]
    let config: SiteConfig
    /// The input folder, canonical.
    let inputRoot: URL
    /// `--jobs`.
    let jobs: Int
    /// Told of each conversation and export done (`Options.progress`).
    var progress: BuildProgress?

    /// The conversations of every export, each laid out and rendered as soon as its importer
    /// hands it over (so one conversation is held at a time per export); exports in parallel,
    /// results in discovery order. At most `jobs` conversations are laid out and rendered at once,
    /// whichever exports they come from.
    func outcomes(worker: ConversationWorker, firstNumber: Int) -> [ConversationOutcome] {
        let slots = ConcurrentSlots<([ConversationOutcome], [Diagnostic])>(count: exports.count)
        // Conversations are laid out and rendered `jobs` at a time as the importers hand them
        // over (as a folder of logs is), so at most that many are held at once besides the ones
        // being read; results keep each importer's order.
        let inFlight = DispatchSemaphore(value: jobs)
        let run = self
        Parallel.forEach(exports.count, jobs: jobs) { index in
            let built = ConcurrentSlots<ConversationOutcome>(count: 0)
            let rendering = DispatchGroup()
            var number = 0
            let exportDiagnostics = run.readExport(index) { imported in
                let slot = number
                number += 1
                inFlight.wait()
                Parallel.start(in: rendering) {
                    // Parts folders: after the logs', by export then conversation, never shared.
                    let outcome = run.buildImported(
                        imported, exportIndex: index, worker: worker, number: firstNumber + index * 1_000_000 + slot)
                    built.store(outcome, at: slot)
                    if let entry = outcome.entry {
                        run.progress?.builtConversation(messages: entry.summary.messageCount)
                    }
                    inFlight.signal()
                }
            }
            rendering.wait()
            slots.store((built.values().map { $0! }, exportDiagnostics), at: index)
            run.progress?.finishedSource()
        }
        var outcomes: [ConversationOutcome] = []
        for (results, _) in slots.values().map({ $0 ?? ([], []) }) {
            outcomes += results
        }
        for (index, slot) in slots.values().enumerated() {
            guard let (_, diagnostics) = slot, !diagnostics.isEmpty else { continue }
            // The export's own problems (a file that cannot be read as a whole), marked as its.
            var outcome = ConversationOutcome(
                input: InputDiscovery.Input(relativePath: "import:", url: inputRoot), entry: nil,
                diagnostics: diagnostics, reused: false, partsFolder: "")
            outcome.exportIndex = index
            outcomes.append(outcome)
        }
        return outcomes
    }

    /// Reads export number `index` of `exports`, handing each conversation to `emit`; returns
    /// the export's own diagnostics.
    func readExport(_ index: Int, emit: (ImportedConversation) -> Void) -> [Diagnostic] {
        let found = exports[index]
        guard let importer = ExportImporters.importer(for: found.export.format) else { return [] }
        let context = ImportContext(
            root: found.export.root, config: config, inputRoot: inputRoot, shownAs: found.zip, jobs: jobs)
        return importer.read(found.export, context: context, emit: emit)
    }

    /// How the manifest names a conversation of export `exportIndex`: `import:`, the zip it came
    /// from (as diagnostics name it) and `!/` when it came from one, then its key. A zip that
    /// cannot be read any more so still names the conversations it held (`keptFromUnreadZips`).
    func importPath(_ imported: ImportedConversation, exportIndex: Int) -> String {
        "import:" + (exports[exportIndex].zip.map { zipDisplayPath($0) + Self.zipSeparator } ?? "") + imported.key
    }

    /// How the manifest names export `index` (not from a zip: those are named in `importPath`):
    /// its format and the folder or file it was found as, as diagnostics name it.
    func exportIdentity(_ index: Int) -> String {
        let export = exports[index].export
        let found = export.items.count == 1 ? export.items[0] : export.root
        return export.format.rawValue + ":"
            + ReadingContextPaths.display(
                URL(fileURLWithPath: FileSystem.canonicalPath(found.path)), inputRoot: inputRoot)
    }

    /// Between a zip's path and a conversation's key in `importPath`.
    static let zipSeparator = "!/"

    /// A zip's path as diagnostics name it: relative to the input folder's parent.
    func zipDisplayPath(_ zip: URL) -> String {
        ReadingContextPaths.display(URL(fileURLWithPath: FileSystem.canonicalPath(zip.path)), inputRoot: inputRoot)
    }

    /// One imported conversation laid out and rendered (or its last good pages kept), with its
    /// source's count.
    func buildImported(
        _ imported: ImportedConversation, exportIndex: Int, worker: ConversationWorker, number: Int
    ) -> ConversationOutcome {
        var outcome = worker.build(
            imported: imported, number: number, relativePath: importPath(imported, exportIndex: exportIndex))
        outcome.exportIndex = exportIndex
        outcome.importKey = imported.key
        if exports[exportIndex].zip == nil { outcome.entry?.export = exportIdentity(exportIndex) }
        outcome.source = SourceCount(
            format: exports[exportIndex].export.format.rawValue,
            source: imported.sourceFiles.count == 1 ? imported.sourceFiles[0] : imported.key,
            conversationID: imported.conversation?.id ?? imported.key, ledger: imported.ledger, isImported: true)
        return outcome
    }
}

/// The steps' parts that concern exports: reading them, the last good pages of a zip that
/// cannot be read any more, ids two sources share.
extension BuildRun {
    /// The build's exports and what reading them needs (`ImportStep`).
    var importStep: ImportStep {
        ImportStep(exports: exports, config: config, inputRoot: inputRoot, jobs: jobs, progress: options.progress)
    }

    /// The conversations of every export (`ImportStep.outcomes`), then the last good pages of
    /// the conversations of zips that cannot be read any more.
    func importedOutcomes(worker: ConversationWorker, firstNumber: Int) -> [ConversationOutcome] {
        let step = importStep
        var outcomes = step.outcomes(worker: worker, firstNumber: firstNumber)
        outcomes += keptFromUnreadZips(
            worker: worker, produced: outcomes, firstNumber: firstNumber + exports.count * 1_000_000)
        outcomes += keptFromFailedExports(
            worker: worker, produced: outcomes, firstNumber: firstNumber + exports.count * 1_000_000 + 500_000)
        return outcomes
    }

    /// The outcome that keeps `entry`'s last good pages (its parts staged as number `number`),
    /// with a `keptPreviousPages` warning at `location`; `nil` when they cannot be kept.
    func keptOutcome(
        _ entry: BuildManifest.Entry, input: InputDiscovery.Input, at location: SourceLocation,
        worker: ConversationWorker, number: Int
    ) -> ConversationOutcome? {
        let parts = ConversationWorker.partsRoot(in: staging) + "/\(number)"
        guard let kept = worker.keepLastGood(entry, input: input, into: parts) else { return nil }
        var outcome = ConversationOutcome(input: input, entry: kept, diagnostics: [], reused: false, partsFolder: parts)
        outcome.kept = true
        outcome.diagnostics = [.warning(.keptPreviousPages(conversationID: kept.conversationID), at: location)]
        return outcome
    }

    /// Issue 40.4: an export (not a zip) that is found but fails as a whole (a truncated
    /// Telegram `result.json`, a damaged Slack `channels.json`: an error of the export itself)
    /// keeps the last good pages of every conversation it had in the last good build that it did
    /// not give now, each with a `keptPreviousPages` warning at the export's error; the error
    /// stays, so the build exits 1.
    func keptFromFailedExports(
        worker: ConversationWorker, produced: [ConversationOutcome], firstNumber: Int
    ) -> [ConversationOutcome] {
        let step = importStep
        // Each failed export's first error: where its kept conversations point.
        var failed: [String: SourceLocation] = [:]
        for outcome in produced where outcome.input.relativePath == "import:" {
            guard let index = outcome.exportIndex, exports[index].zip == nil,
                let error = outcome.diagnostics.filter({ $0.severity == .error }).min()
            else { continue }
            failed[step.exportIdentity(index)] =
                error.location ?? SourceLocation(file: step.exportIdentity(index), line: 1, column: 1)
        }
        guard !failed.isEmpty else { return [] }
        let producedPaths = Set(produced.map(\.input.relativePath))
        var outcomes: [ConversationOutcome] = []
        let entries = (lastGoodManifest?.entries ?? []).filter {
            $0.export.map { failed[$0] != nil } == true && !producedPaths.contains($0.path)
        }
        for entry in entries.sorted(by: { $0.path < $1.path }) {
            let location = failed[entry.export!]!
            let input = InputDiscovery.Input(
                relativePath: entry.path,
                url: URL(fileURLWithPath: PathText.parent(inputRoot.path) + "/" + location.file))
            guard
                let outcome = keptOutcome(
                    entry, input: input, at: location, worker: worker, number: firstNumber + outcomes.count)
            else { continue }
            outcomes.append(outcome)
        }
        return outcomes
    }

    /// Issue 40.4: a zip export that gave conversations last time and still exists but gives
    /// none now (damaged, truncated) keeps the last good pages of every conversation it held,
    /// with an error at the zip; a zip that was deleted takes its conversations with it.
    func keptFromUnreadZips(
        worker: ConversationWorker, produced: [ConversationOutcome], firstNumber: Int
    ) -> [ConversationOutcome] {
        let step = importStep
        let readZips = Set(exports.compactMap { $0.zip.map(step.zipDisplayPath) })
        let producedPaths = Set(produced.map(\.input.relativePath))
        var byZip: [String: [BuildManifest.Entry]] = [:]
        for entry in lastGoodManifest?.entries ?? [] where entry.path.hasPrefix("import:") {
            let rest = entry.path.dropFirst("import:".count)
            guard let separator = rest.range(of: ImportStep.zipSeparator), !producedPaths.contains(entry.path) else {
                continue
            }
            byZip[String(rest[..<separator.lowerBound]), default: []].append(entry)
        }
        var outcomes: [ConversationOutcome] = []
        let base = PathText.parent(inputRoot.path)
        for zip in byZip.keys.sorted() where !readZips.contains(zip) {
            let absolute = base + "/" + zip
            guard FileSystem.kind(absolute) == .file, inputFile == nil || inputFile == absolute else { continue }
            let location = SourceLocation(file: zip, line: 1, column: 1)
            let entries = byZip[zip]!.sorted { $0.path < $1.path }
            var keptCount = 0
            for entry in entries {
                let input = InputDiscovery.Input(relativePath: entry.path, url: URL(fileURLWithPath: absolute))
                guard
                    let outcome = keptOutcome(
                        entry, input: input, at: location, worker: worker, number: firstNumber + outcomes.count)
                else { continue }
                outcomes.append(outcome)
                keptCount += 1
            }
            if keptCount > 0 {
                outcomes[outcomes.count - keptCount].diagnostics.append(
                    .error(
                        .other(
                            "no conversation could be read from this zip, which held \(entries.count) in the last "
                                + "build; their last good pages are kept; expected a readable zip export"),
                        at: location))
            }
        }
        return outcomes
    }

    /// Issue 41.3: an imported conversation whose id a conversation before it (in input order)
    /// has already is not lost: it is read again and built under `<id>-2` (`-3`, …: the first
    /// no conversation of this build has), with a warning naming both sources. A log keeps the
    /// error `duplicateConversationID`: its id is the user's to change.
    ///
    /// The ids are decided in input order from every conversation's id, so the same input
    /// gives the same ids whichever export was read first. Reading an export again costs a
    /// second parse, paid only by the exports that have such a conversation.
    mutating func renameImportedDuplicates() {
        var taken: Set<String> = Set(outcomes.compactMap { $0.entry?.conversationID })
        var firstSource: [String: String] = [:]
        var renames: [Int: [String: (index: Int, id: String)]] = [:]
        for index in outcomes.indices {
            guard let entry = outcomes[index].entry else { continue }
            let id = entry.conversationID
            guard let first = firstSource[id] else {
                firstSource[id] = sourceName(of: outcomes[index])
                continue
            }
            guard let exportIndex = outcomes[index].exportIndex, let key = outcomes[index].importKey,
                !outcomes[index].kept
            else { continue }
            var number = 2
            while taken.contains("\(id)-\(number)") { number += 1 }
            let derived = "\(id)-\(number)"
            taken.insert(derived)
            renames[exportIndex, default: [:]][key] = (index, derived)
            let location = SourceLocation(file: sourceName(of: outcomes[index]), line: 1, column: 1)
            let warning = Diagnostic.warning(
                .other(
                    "conversation id '\(id)' is also the id of \(first); this conversation is published as "
                        + "'\(derived)'"), at: location)
            outcomes[index].diagnostics.append(warning)
            record([warning])
        }
        guard !renames.isEmpty, let worker else { return }
        let step = importStep
        for exportIndex in renames.keys.sorted() {
            let wanted = renames[exportIndex]!
            var rebuilt: [Int: ConversationOutcome] = [:]
            _ = step.readExport(exportIndex) { imported in
                guard let (index, id) = wanted[imported.key], var conversation = imported.conversation else { return }
                conversation.id = id
                var renamed = imported
                renamed.conversation = conversation
                // A parts folder of its own, after every other one (`ImportStep.outcomes` numbers).
                let outcome = step.buildImported(
                    renamed, exportIndex: exportIndex, worker: worker, number: Int(Int32.max) + index)
                if outcome.entry != nil { rebuilt[index] = outcome }
            }
            // Its diagnostics were reported with the first build (and the warning above).
            for (index, outcome) in rebuilt {
                FileSystem.removeTree(outcomes[index].partsFolder)
                var renamed = outcome
                renamed.diagnostics = outcomes[index].diagnostics
                outcomes[index] = renamed
            }
        }
    }

    /// How a warning names the source of an outcome: the export file, or the log.
    func sourceName(of outcome: ConversationOutcome) -> String {
        outcome.source?.source ?? displayPath(outcome.input)
    }
}
