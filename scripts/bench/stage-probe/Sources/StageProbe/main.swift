import Foundation
import ScrollbackLayout
import ScrollbackModel
import ScrollbackReading

// Reads (and lays out) every log of a corpus folder, one conversation at a time, and prints the
// CPU time of each stage. Usage: StageProbe CORPUS [read|read,layout]

/// User + system CPU seconds of this process so far.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}
let root = URL(fileURLWithPath: CommandLine.arguments[1])
let stages = CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : "read,layout"
let files = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".json") }.sorted()
let config = SiteConfig()
let reader = LogReader(inputRoot: root, config: config)
let layouter = ConversationLayouter(options: config.layout, pageSize: config.pageSize)
var readCPU = 0.0, layoutCPU = 0.0, messages = 0, diagnostics = 0, rows = 0
let start = Date()
for name in files {
    let t0 = cpuSeconds()
    let result = reader.read(root.appendingPathComponent(name))
    let t1 = cpuSeconds()
    readCPU += t1 - t0
    messages += result.conversation?.messages.count ?? 0
    diagnostics += result.diagnostics.count
    guard stages.contains("layout"), let conversation = result.conversation else { continue }
    let plan = layouter.plan(conversation)
    for index in 0..<plan.pageCount { rows += plan.page(index).items.count }
    layoutCPU += cpuSeconds() - t1
}
print("\(files.count) files, \(messages) messages, \(diagnostics) diagnostics, \(rows) rows; read \(String(format: "%.2f", readCPU)) s CPU, layout \(String(format: "%.2f", layoutCPU)) s CPU; wall \(String(format: "%.2f", Date().timeIntervalSince(start))) s")
