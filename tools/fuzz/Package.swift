// swift-tools-version:6.0
// libFuzzer targets for caprof's parsers and planner. A separate package so that the main build
// never links libFuzzer; build and run it with ./run (which passes -sanitize=fuzzer to every module,
// so the code under test is coverage-instrumented too).
import PackageDescription

let targets = ["json", "scene", "svg-path", "transform", "png", "plan", "plist", "archive", "caml", "jpeg", "effects",
               "plist-dag", "archive-dag", "caml-dtd", "dotlottie", "lottie"]

let package = Package(
    name: "caprof-fuzz",
    dependencies: [.package(name: "caprof", path: "../..")],
    targets: [.target(name: "FuzzDriver")] + targets.map { name in
        .executableTarget(
            name: "fuzz-\(name)",
            dependencies: ["FuzzDriver", .product(name: "FuzzHarness", package: "caprof")],
            path: "Sources/fuzz-\(name)")
    } + [
        // Not a fuzzer: writes the file a generated target (plist-dag, archive-dag, caml-dtd)
        // builds from an input, to look at a finding.
        .executableTarget(name: "fuzz-generate", dependencies: [.product(name: "FuzzHarness", package: "caprof")],
                          path: "Sources/fuzz-generate"),
    ]
)
