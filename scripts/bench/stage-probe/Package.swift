// swift-tools-version:6.0
//
// Stage probe: CPU time of Scrollback's read and lay-out stages alone, one conversation at a
// time, on a benchmark corpus. For profiling while (or besides) the full `scrollback build`:
//
//   cd scripts/bench/stage-probe && swift build -c release
//   .build/release/StageProbe ../../../bench-work/corpus-100000-c50-s20240503 [read|read,layout]
//   perf record -g .build/release/StageProbe CORPUS     # then perf report
//
// A separate package (not a target of the main one) so the product's Package.swift stays as it is.
import PackageDescription

let package = Package(
    name: "StageProbe",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "Scrollback", path: "../../..")],
    targets: [
        .executableTarget(
            name: "StageProbe",
            dependencies: [.product(name: "Scrollback", package: "Scrollback")])
    ]
)
