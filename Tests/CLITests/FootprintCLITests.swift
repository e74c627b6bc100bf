import Foundation
import XCTest

/// What the caprof process loads. On Linux the full Foundation (with ICU and
/// FoundationInternationalization) is about 7 MiB of resident pages in every run, measured at the
/// peak of `caprof render` (docs/performance.md, Memory); caprof links FoundationEssentials only.
/// cairo and Pango, with the ~25 libraries they bring (glib, harfbuzz, pixman …), are opened only
/// when a shape or a text is rasterised (`Sources/CCairoShim`).
final class FootprintCLITests: CLITestCase {
    static let textLibraries = ["libpango-1.0.so", "libpangocairo-1.0.so", "libpangoft2-1.0.so", "libgobject-2.0.so",
                                "libglib-2.0.so", "libharfbuzz.so", "libfontconfig.so"]

    func testTheBinaryLinksFoundationEssentialsButNotTheFullFoundation() throws {
        // glibc's loader lists the libraries it would load and exits without running the program.
        let run = try caprof([], env: ["LD_TRACE_LOADED_OBJECTS": "1"])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("libFoundationEssentials.so"), run.stdout)
        for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so", "libFoundationXML.so"] {
            XCTAssertFalse(run.stdout.contains(library), "\(library) is loaded:\n\(run.stdout)")
        }
        for library in ["libcairo.so"] + Self.textLibraries {
            XCTAssertFalse(run.stdout.contains(library), "\(library) is linked:\n\(run.stdout)")
        }
    }

    /// The libraries a render opens, from glibc's loader log (`LD_DEBUG=files` lists every
    /// library mapped, at start-up or by dlopen, as "file=NAME [0];  needed by …" or
    /// "… dynamically loaded by …").
    func opened(_ root: String) throws -> String {
        let scene = try write("s.json", #"{"caprof": 1, "canvas": {"width": 40, "height": 40, "scale": 1}, "root": "# + root + "}")
        let run = try caprof(["render", scene, "-o", tmp.appendingPathComponent("o.png").path],
                             env: ["LD_DEBUG": "files"])
        XCTAssertEqual(run.code, 0, run.stderr)
        return run.stderr.split(separator: "\n").filter { $0.contains("file=") }.joined(separator: "\n")
    }

    func testCairoAndPangoAreOpenedOnlyForShapesAndText() throws {
        let solid = try opened(#"{"frame": [0, 0, 40, 40], "backgroundColor": "blue"}"#)
        XCTAssertTrue(solid.contains("libvulkan"), "the log lists libraries:\n\(solid)")
        for library in ["libcairo.so"] + Self.textLibraries { XCTAssertFalse(solid.contains(library), "\(library):\n\(solid)") }

        let shape = try opened(#"{"frame": [0, 0, 40, 40], "sublayers": [{"class": "CAShapeLayer", "frame": [0, 0, 40, 40], "path": {"ellipseIn": [4, 4, 32, 32]}, "fillColor": "red"}]}"#)
        XCTAssertTrue(shape.contains("libcairo.so.2"), shape)
        XCTAssertFalse(shape.contains("libpango-1.0.so"), "a shape needs cairo alone:\n\(shape)")

        let text = try opened(#"{"frame": [0, 0, 40, 40], "sublayers": [{"class": "CATextLayer", "frame": [0, 0, 40, 20], "string": "Hi", "fontSize": 12}]}"#)
        for library in ["libcairo.so.2", "libpangocairo-1.0.so", "libpango-1.0.so", "libfontconfig.so"] {
            XCTAssertTrue(text.contains(library), "\(library):\n\(text)")
        }
    }

    /// A library that cannot be opened is an error naming it and its package, exit 69 (a missing
    /// dependency, like a missing Vulkan driver), and no image is written. A file that is not a
    /// shared object stands in for a broken install: the loader looks in LD_LIBRARY_PATH first.
    func testAnUnloadableCairoIsAClearError() throws {
        let libs = tmp.appendingPathComponent("libs")
        try FileManager.default.createDirectory(at: libs, withIntermediateDirectories: true)
        try Data("not a library".utf8).write(to: libs.appendingPathComponent("libcairo.so.2"))
        let scene = try write("shape.json", #"{"caprof": 1, "canvas": {"width": 40, "height": 40, "scale": 1}, "root": {"frame": [0, 0, 40, 40], "sublayers": [{"class": "CAShapeLayer", "frame": [0, 0, 40, 40], "path": {"ellipseIn": [4, 4, 32, 32]}, "fillColor": "red"}]}}"#)
        let out = tmp.appendingPathComponent("o.png").path
        let run = try caprof(["render", scene, "-o", out], env: ["LD_LIBRARY_PATH": libs.path])
        XCTAssertEqual(run.code, 69, run.stderr)
        XCTAssertTrue(run.stderr.contains("cannot load libcairo.so.2 (Debian package libcairo2; tools/setup installs it)"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }
}
