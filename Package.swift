// swift-tools-version:6.0
// caprof: an offscreen Core Animation compositor and performance profiler.
// The modules, their levels and what each owns: docs/architecture.md (Tests/CLITests/ModuleGraphTests
// checks it, and every Sources/*/README.md, against the targets below). Render is the only importer of CVulkan.
import PackageDescription

let package = Package(
    name: "caprof",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "caprof", targets: ["caprof"]),
        .library(name: "CaprofKit", targets: ["Geometry", "LayerModel", "Animation", "SceneFormat", "AssetImport", "Raster", "Plan", "Render", "Pipeline", "Profile", "Report", "Gate"]),
        // For tools/fuzz (a separate package): what each fuzz target does with an input.
        .library(name: "FuzzHarness", targets: ["FuzzHarness"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // C boundaries.
        .systemLibrary(name: "CVulkan", pkgConfig: "vulkan",
                       providers: [.apt(["libvulkan-dev"])]),
        .target(name: "CPNGShim", linkerSettings: [.linkedLibrary("png"), .linkedLibrary("z")]),
        // glibc's malloc tuning (HostMemory.returnLargeBlocksWhenFreed).
        .target(name: "CHostMemory"),
        // cairo for CAShapeLayer paths (fill, stroke, dashes) and Pango/HarfBuzz on cairo, with a
        // private fontconfig configuration, for CATextLayer text: behind a narrow C shim that opens
        // them on first use (dlopen; Sources/CCairoShim/lazy_libs.h says why), so nothing links them.
        .target(name: "CCairoShim", exclude: ["README.md"], linkerSettings: [.linkedLibrary("dl")]),
        // Pango's own headers (pkg-config) for the test that checks the shim's declarations of it.
        .systemLibrary(name: "CPango", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
        .target(name: "CPangoABICheck", dependencies: ["CPango", "CCairoShim"],
                linkerSettings: [.linkedLibrary("pangoft2-1.0"), .linkedLibrary("fontconfig")]),
        // libjpeg-turbo (Debian libjpeg62-turbo-dev) for JPEG contents, behind a setjmp-owning shim.
        .target(name: "CJPEGShim", linkerSettings: [.linkedLibrary("jpeg")]),
        // giflib writes animated GIF previews; libimagequant picks their palettes (caprof CLI only).
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CImageQuant", pkgConfig: "imagequant", providers: [.apt(["libimagequant-dev"])]),
        // libwebp's animation encoder (WebPAnimEncoder, libwebpmux) writes animated WebP previews (caprof CLI only).
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpmux", providers: [.apt(["libwebp-dev"])]),
        // libxml2's SAX2 parser for CAML and XML property lists, behind a shim that never reads an
        // external entity (FoundationXML would load Foundation's full library: SystemSupport/README.md).
        .systemLibrary(name: "CXML", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .target(name: "CXMLShim", dependencies: ["CXML"]),
        // libzip reads dotLottie packages (.lottie: zip archives) from memory, with its consistency
        // checks (ZIP_CHECKCONS) and CRC verification; AssetImport bounds what is inflated.
        .systemLibrary(name: "CZip", pkgConfig: "libzip", providers: [.apt(["libzip-dev"])]),
        // printf formatting, a mutex, stat and whole writes: what FoundationEssentials lacks.
        .target(name: "SystemSupport", exclude: ["README.md"]),
        // The pure Swift model, and content rasterised on the CPU.
        .target(name: "Geometry", exclude: ["README.md"]),
        .target(name: "LayerModel", dependencies: ["Geometry"], exclude: ["README.md"]),
        .target(name: "Animation", dependencies: ["Geometry", "LayerModel"], exclude: ["README.md"]),
        .target(name: "SceneFormat", dependencies: ["Geometry", "LayerModel", "Animation", "CHostMemory", "SystemSupport"], exclude: ["README.md"]),
        .target(name: "Raster", dependencies: ["Geometry", "LayerModel", "CPNGShim", "CCairoShim", "CJPEGShim", "SystemSupport"], exclude: ["README.md"]),
        // Core Animation assets (.caar archives, .ca packages, .caml) → SceneDocument; dotLottie packages read.
        .target(name: "AssetImport", dependencies: ["Geometry", "LayerModel", "Animation", "SceneFormat", "CXMLShim", "CZip", "SystemSupport"], exclude: ["README.md"]),
        // The frame plan, pure and GPU-free.
        .target(name: "Plan", dependencies: ["LayerModel", "Geometry"], exclude: ["README.md"]),
        // The Vulkan backend. Shaders/ is compiled to SPIR-V by glslc at build time.
        .target(name: "Render", dependencies: ["Geometry", "Plan", "Raster", "CVulkan", "CHostMemory", "SystemSupport"],
                exclude: ["README.md"], plugins: ["ShaderCompiler"]),
        .plugin(name: "ShaderCompiler", capability: .buildTool()),
        // The profiler's analyses and findings, from FramePlans alone (no Render).
        .target(name: "Profile", dependencies: ["Plan", "LayerModel", "Geometry"], exclude: ["README.md"]),
        // Report formats (text, JSON and its schema), written from a ProfileReport.
        .target(name: "Report", dependencies: ["Profile", "Plan", "SystemSupport"], exclude: ["README.md"]),
        // Budgets, baselines and the gate's decision (exit codes); SceneFormat only for its JSON parser.
        .target(name: "Gate", dependencies: ["Profile", "Report", "SceneFormat", "SystemSupport"], exclude: ["README.md"]),
        // Scene file → pixels, with stage timings (shared by the CLI, tests, benchmarks).
        .target(name: "Pipeline", dependencies: ["SceneFormat", "Raster", "Plan", "Render", "Animation", "Profile", "LayerModel", "Geometry", "CHostMemory", "SystemSupport"], exclude: ["README.md"]),
        // Fuzz targets' bodies and invariants, without libFuzzer (tools/fuzz links it); replayed by HostileInputTests.
        .target(name: "FuzzHarness", dependencies: ["SceneFormat", "AssetImport", "Animation", "Raster", "Plan", "Pipeline", "Profile", "LayerModel", "Geometry", "SystemSupport"], exclude: ["README.md"]),
        // The command-line tool.
        .executableTarget(name: "caprof", dependencies: [
            "LayerModel", "Animation", "SceneFormat", "AssetImport", "Raster", "Plan", "Render", "Pipeline", "Profile", "Report", "Gate", "SystemSupport",
            "CPNGShim", "CGIF", "CImageQuant", "CWebP",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], exclude: ["README.md"]),
        // Tests.
        .testTarget(name: "SystemSupportTests", dependencies: ["SystemSupport"]),
        .testTarget(name: "GeometryTests", dependencies: ["Geometry"]),
        .testTarget(name: "AnimationTests", dependencies: ["Animation", "LayerModel", "Geometry"]),
        .testTarget(name: "PresentationTests", dependencies: ["SceneFormat", "Animation", "LayerModel", "Geometry"]),
        .testTarget(name: "SceneFormatTests", dependencies: ["SceneFormat", "LayerModel", "Animation"]),
        .testTarget(name: "PlanTests", dependencies: ["Plan", "SceneFormat", "LayerModel", "Geometry"]),
        .testTarget(name: "RasterTests", dependencies: ["Raster", "LayerModel", "CPangoABICheck"]),
        .testTarget(name: "RenderTests", dependencies: ["Render", "Plan", "SceneFormat", "Raster"]),
        .testTarget(name: "ProfileTests", dependencies: ["Profile", "Report", "Pipeline", "Plan", "SceneFormat", "LayerModel", "Geometry"]),
        .testTarget(name: "GateTests", dependencies: ["Gate", "Profile", "Report", "Pipeline", "SceneFormat"]),
        .testTarget(name: "CLITests", dependencies: []),
        .testTarget(name: "AssetImportTests", dependencies: ["AssetImport", "SceneFormat", "Animation", "LayerModel", "Geometry", "CZip"]),
        // Converted assets render the same pixels as the assets (lavapipe).
        .testTarget(name: "AssetRenderTests", dependencies: ["AssetImport", "Pipeline", "SceneFormat", "Raster"]),
        // Hostile input: limits, numbers, committed fuzz regressions replayed.
        .testTarget(name: "HostileInputTests", dependencies: ["FuzzHarness", "SceneFormat", "Raster", "Plan", "Pipeline", "Render", "Animation", "LayerModel", "Geometry"],
                    exclude: ["Regressions"]),
        // Scene-level reference tests on lavapipe: scene vs equivalent scene, vs hand-computed
        // pixels, and the examples vs reviewed golden PNGs.
        .testTarget(name: "ReftestTests", dependencies: ["Pipeline", "SceneFormat", "AssetImport", "Raster", "Render", "Plan"],
                    exclude: ["Goldens"]),
    ],
    swiftLanguageModes: [.v5]
)
