// swift-tools-version:6.1
// caprof's benchmarks: a separate package so `swift test` in the main package never builds them.
// Run: cd Benchmarks && swift package benchmark   (see README.md here)
import PackageDescription

let package = Package(
    name: "caprof-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // `caprof` is a symlink to the repository root, so the package identity is "caprof"
        // whatever the checkout's directory is called.
        .package(path: "caprof"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "CompositeBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "CaprofKit", package: "caprof"),
                "MinimalVulkanPeer",
                "PixmanPeer",
            ],
            path: "Benchmarks/CompositeBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Every stage of the pipeline (decode, evaluate, plan, rasterise = image decoding,
        // composite, PNG encode) on the example scenes and synthetic 1,000- and 10,000-layer ones,
        // with the plan's and renderer's counters as custom metrics.
        .executableTarget(
            name: "StageBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "CaprofKit", package: "caprof"),
            ],
            path: "Benchmarks/StageBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Presentation evaluation of N animated layers (100 … 100,000).
        .executableTarget(
            name: "EvaluateBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "CaprofKit", package: "caprof"),
            ],
            path: "Benchmarks/EvaluateBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Profiling overhead over plain rendering, and the time to profile 2 s at 60 fps.
        .executableTarget(
            name: "ProfileBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "CaprofKit", package: "caprof"),
            ],
            path: "Benchmarks/ProfileBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Offscreen passes: shadows with and without shadowPath, mask versus cornerRadius,
        // raster-cache hit versus miss (interleaved GPU-time ratios).
        .executableTarget(
            name: "OffscreenBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "CaprofKit", package: "caprof"),
            ],
            path: "Benchmarks/OffscreenBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Layer content: rounded rectangles as CALayers vs CAShapeLayers (static and
        // animating), a strokeEnd draw-on's rasterisation and upload, a 10,000-instance replicator,
        // 40 text labels (first layout and cached).
        .executableTarget(
            name: "ContentBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "CaprofKit", package: "caprof"),
            ],
            path: "Benchmarks/ContentBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The reference for caprof's identity composite: a minimal hand-written Vulkan compositor in
        // C doing the same work (benchmark-only; its SPIR-V is checked in, see shaders/regenerate.sh).
        .target(
            name: "MinimalVulkanPeer",
            path: "Benchmarks/MinimalVulkanPeer",
            exclude: ["shaders"],
            linkerSettings: [.linkedLibrary("vulkan")]
        ),
        // A CPU peer for the 16-layer composites: pixman (Debian's libpixman-1-dev, found with
        // pkg-config; `tools/setup --benchmarks` installs it), benchmark-only.
        .systemLibrary(
            name: "CPixman",
            path: "Benchmarks/CPixman",
            pkgConfig: "pixman-1",
            providers: [.apt(["libpixman-1-dev"])]
        ),
        .target(
            name: "PixmanPeer",
            dependencies: ["CPixman"],
            path: "Benchmarks/PixmanPeer"
        ),
    ],
    swiftLanguageModes: [.v5]
)
