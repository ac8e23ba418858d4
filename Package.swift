// swift-tools-version:6.0
//
// Scrollback: chat logs in, a static chat-UI website out.
//
// The targets are the pipeline, in the order data flows through it:
//   ScrollbackModel      plain value types: conversations, messages, options, diagnostics
//   ScrollbackMarkdown   the one wrapper around cmark-gfm (C library: CCMarkGFM)
//   ScrollbackHTML       the one wrapper around libxml2 (C library: CLibXML2)
//                        (libdeflate, CLibDeflate, is wrapped by ScrollbackSearch's RawDeflate; ScrollbackReading
//                        uses its CRC-32 to check zip entries)
//   ScrollbackReading    read: JSON and Markdown logs, config, media references -> model
//   ScrollbackLayout     lay out: grouping, days, alignment, collapsing -> view model
//   ScrollbackTemplates  the shipped Templates/ files, embedded at build time (plugin EmbedTemplates)
//   ScrollbackRendering  render: templates, message bodies, CSS -> page text
//   ScrollbackSearch     the static search index (tokens, shards, documents) and date lists
//   ScrollbackCache      the build cache: where it lives, its manifest, fingerprints, append checkpoints, search parts
//   ScrollbackSite       the build pipeline: discover, read, lay out, render, write atomically
//   ScrollbackServe      the dev server (Hummingbird): static files, watcher, live reload, error overlay
//   ScrollbackCLI        the `scrollback` command (build, serve, init)
//   CMallocOptions       jemalloc's options for the command (scripts/build-release.sh links jemalloc)
import PackageDescription

let package = Package(
    name: "Scrollback",
    platforms: [.macOS(.v13)],
    products: [
        .library(
            name: "Scrollback",
            targets: [
                "ScrollbackModel", "ScrollbackReading", "ScrollbackLayout", "ScrollbackRendering",
                "ScrollbackSite",
            ]),
        .executable(name: "scrollback", targets: ["ScrollbackCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Hummingbird's own dependencies, named because the dev server uses their types directly.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        .systemLibrary(
            name: "CCMarkGFM", pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        .systemLibrary(
            name: "CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]),
        // No pkgConfig: its `-ldeflate` would link the shared library (the module map names the archive).
        .systemLibrary(name: "CLibDeflate", providers: [.apt(["libdeflate-dev"])]),
        // jemalloc's options for the command (scripts/build-release.sh links jemalloc in).
        .target(name: "CMallocOptions"),
        .target(name: "ScrollbackModel"),
        .target(name: "ScrollbackMarkdown", dependencies: ["CCMarkGFM"]),
        .target(name: "ScrollbackHTML", dependencies: ["CLibXML2"]),
        .target(
            name: "ScrollbackReading",
            dependencies: [
                "ScrollbackModel", "ScrollbackMarkdown", "ScrollbackHTML", "CLibDeflate",
                .product(name: "Yams", package: "Yams"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]),
        .target(name: "ScrollbackLayout", dependencies: ["ScrollbackModel"]),
        // Templates/ embedded as generated code, so the binary needs no source tree beside it.
        .target(name: "ScrollbackTemplates", plugins: ["EmbedTemplates"]),
        .plugin(name: "EmbedTemplates", capability: .buildTool(), dependencies: ["EmbedTemplatesTool"]),
        .executableTarget(name: "EmbedTemplatesTool", path: "Plugins/EmbedTemplatesTool"),
        .target(
            name: "ScrollbackRendering",
            dependencies: [
                "ScrollbackModel", "ScrollbackLayout", "ScrollbackTemplates",
                .product(name: "Mustache", package: "swift-mustache"),
            ]),
        .target(
            name: "ScrollbackSearch", dependencies: ["ScrollbackModel", "ScrollbackLayout", "CLibDeflate"]),
        // The build cache (Store/: its files; Append/: the append fast path's answer); below the
        // pipeline, above the stages, none of which knows it.
        .target(
            name: "ScrollbackCache",
            dependencies: ["ScrollbackModel", "ScrollbackReading", "ScrollbackLayout", "ScrollbackSearch"]),
        .target(
            name: "ScrollbackSite",
            dependencies: [
                "ScrollbackModel", "ScrollbackReading", "ScrollbackLayout", "ScrollbackRendering",
                "ScrollbackTemplates", "ScrollbackSearch", "ScrollbackCache",
            ]),
        .target(
            name: "ScrollbackServe",
            dependencies: [
                "ScrollbackSite", "ScrollbackCache", "ScrollbackModel",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]),
        .executableTarget(
            name: "ScrollbackCLI",
            dependencies: [
                "ScrollbackSite", "ScrollbackServe", "ScrollbackCache", "CMallocOptions",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // What the test targets share: temporary folders, the shared samples, the executable.
        .target(name: "ScrollbackTestSupport", path: "Tests/ScrollbackTestSupport"),
        .testTarget(name: "ScrollbackMarkdownTests", dependencies: ["ScrollbackMarkdown"]),
        .testTarget(name: "ScrollbackHTMLTests", dependencies: ["ScrollbackHTML", "ScrollbackTestSupport"]),
        .testTarget(
            name: "ScrollbackReadingTests",
            dependencies: ["ScrollbackReading", "ScrollbackLayout", "ScrollbackTestSupport"]),
        .testTarget(name: "ScrollbackLayoutTests", dependencies: ["ScrollbackLayout"]),
        .testTarget(name: "ScrollbackRenderingTests", dependencies: ["ScrollbackRendering", "ScrollbackTemplates"]),
        .testTarget(
            name: "ScrollbackSiteTests",
            dependencies: [
                "ScrollbackSite", "ScrollbackCache", "ScrollbackModel", "ScrollbackTemplates", "ScrollbackReading",
                "ScrollbackTestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]),
        .testTarget(
            name: "ScrollbackCacheTests",
            dependencies: ["ScrollbackCache", "ScrollbackModel", "ScrollbackReading", "ScrollbackTestSupport"]),
        .testTarget(
            name: "ScrollbackServeTests",
            dependencies: ["ScrollbackServe", "ScrollbackSite", "ScrollbackModel", "ScrollbackTestSupport"]),
        .testTarget(name: "ScrollbackSearchTests", dependencies: ["ScrollbackSearch", "ScrollbackLayout"]),
    ]
)

// The libFuzzer executable (Fuzz/README.md: one target per reader and importer, chosen by
// SCROLLBACK_FUZZ_TARGET), declared only when SCROLLBACK_FUZZ is set: it has no `main` of its own
// (libFuzzer's is linked by `--sanitize=fuzzer`), so a plain `swift build` must not see it.
// Built and run by scripts/fuzz.sh (`make fuzz`, `make fuzz-ci`). The fuzz build keeps only the
// stages it reads with: `--sanitize=fuzzer` links libFuzzer's `main` into every executable, which
// the EmbedTemplates build tool cannot take, and fewer modules make a shorter ASan build.
// The whole-export target (`SiteBuild`) runs the build pipeline too, so the site stages stay; their
// templates are read from `Templates/` at run time (`SCROLLBACK_TEMPLATES`, set by the target)
// instead of being embedded by the plugin, whose tool would get libFuzzer's `main`.
if Context.environment["SCROLLBACK_FUZZ"] != nil {
    let fuzzedStages: Set = [
        "CCMarkGFM", "CLibXML2", "CLibDeflate", "ScrollbackModel", "ScrollbackMarkdown", "ScrollbackHTML",
        "ScrollbackReading", "ScrollbackLayout", "ScrollbackTemplates", "ScrollbackRendering", "ScrollbackSearch",
        "ScrollbackCache", "ScrollbackSite",
    ]
    package.targets.removeAll { !fuzzedStages.contains($0.name) }
    package.products.removeAll()
    for target in package.targets where target.name == "ScrollbackTemplates" {
        target.plugins = []
        target.swiftSettings = [.define("SCROLLBACK_TEMPLATES_NOT_EMBEDDED")]
    }
    package.targets.append(
        .executableTarget(
            name: "ScrollbackFuzz",
            dependencies: [
                "ScrollbackReading", "ScrollbackHTML", "ScrollbackModel", "ScrollbackSite",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            path: "Fuzz/ScrollbackFuzz", swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
    package.products.append(.executable(name: "ScrollbackFuzz", targets: ["ScrollbackFuzz"]))
}
