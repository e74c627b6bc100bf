import XCTest
@testable import AssetImport
import SystemSupport
import LayerModel

/// A `.ca` package never reads outside itself: an image path that climbs out (`../outside.png`,
/// `assets/../../outside.png`), an absolute path, or a symbolic link in the package that leads out
/// is a warning at the layer's line naming the path, and the layer is drawn without contents;
/// paths that wander but stay inside (`assets/../inside.png`) and links that stay inside are read.
final class PackageContainmentTests: XCTestCase {
    func testImagePathsThatLeaveThePackageAreWarningsAndNotRead() throws {
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("caprof-containment-\(UUID().uuidString)").path
        defer { try? fm.removeItem(atPath: root) }
        let package = root + "/Design.ca"
        try fm.createDirectory(atPath: package + "/assets", withIntermediateDirectories: true)
        let png = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Examples/assets/checker.png").standardizedFileURL)
        try png.write(to: URL(fileURLWithPath: root + "/outside.png"))
        try png.write(to: URL(fileURLWithPath: package + "/inside.png"))
        try fm.createSymbolicLink(atPath: package + "/assets/link-out.png", withDestinationPath: "../../outside.png")
        try fm.createSymbolicLink(atPath: package + "/assets/link-in.png", withDestinationPath: "../inside.png")
        let sources = ["../outside.png", "assets/../../outside.png", root + "/outside.png", "assets/link-out.png",
                       "assets/../inside.png", "assets/link-in.png"]
        let layers = sources.enumerated().map { i, src in
            "    <CALayer name=\"l\(i)\" bounds=\"0 0 10 10\" position=\"5 5\"><contents type=\"CGImage\" src=\"\(src)\"/></CALayer>\n"
        }.joined()
        let caml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<caml xmlns=\"http://www.apple.com/CoreAnimation/1.0\">\n  <CALayer bounds=\"0 0 100 100\" position=\"50 50\">\n  <sublayers>\n\(layers)  </sublayers>\n  </CALayer>\n</caml>\n"
        try caml.write(toFile: package + "/main.caml", atomically: false, encoding: .utf8)

        let doc = try AssetLoader.load(path: package)
        let subs = doc.scene.root.sublayers
        XCTAssertEqual(subs.count, 6)
        for i in 0..<4 { XCTAssertNil(subs[i].contents, "l\(i) (\(sources[i])) must not be read") }
        for i in 4..<6 { XCTAssertNotNil(subs[i].contents, "l\(i) (\(sources[i])) is inside the package") }
        func warning(_ src: String) -> Unsupported? { doc.warnings.first { $0.feature.contains("'\(src)'") } }
        XCTAssertTrue(try XCTUnwrap(warning("../outside.png")).feature.contains("climbs out of the package"))
        XCTAssertEqual(warning("../outside.png")?.location?.line, 5, "the warning stands at the layer's line")
        XCTAssertTrue(try XCTUnwrap(warning("assets/../../outside.png")).feature.contains("climbs out of the package"))
        XCTAssertTrue(try XCTUnwrap(warning(root + "/outside.png")).feature.contains("is an absolute device path"))
        XCTAssertTrue(try XCTUnwrap(warning("assets/link-out.png")).feature.contains("a symbolic link that leads out of the package"))
        XCTAssertNil(warning("assets/../inside.png"))
        XCTAssertNil(warning("assets/link-in.png"))
    }

    func testPackagePathResolution() throws {
        XCTAssertEqual(PackagePath.resolve("/etc/passwd", inside: "/tmp"), .absolute)
        XCTAssertEqual(PackagePath.resolve("a/../../b", inside: "/tmp"), .climbsOut)
        XCTAssertEqual(PackagePath.resolve("./a/./../..", inside: "/tmp"), .climbsOut)
        XCTAssertEqual(PackagePath.resolve("no-such-file-\(UUID().uuidString)", inside: "/tmp"), .missing)
    }
}
