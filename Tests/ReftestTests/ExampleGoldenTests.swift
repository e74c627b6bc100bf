import Foundation
import Raster
import XCTest

/// The example scenes against golden PNGs that were looked at before they were committed.
/// Re-recording is an explicit act: `CAPROF_RECORD_GOLDENS=1 swift test --filter ExampleGoldenTests`,
/// then look at every changed PNG in Tests/ReftestTests/Goldens before committing.
final class ExampleGoldenTests: ReftestCase {
    func check(_ name: String, at time: Double = 0) throws {
        let actual = try renderFile(Self.repoRoot.appendingPathComponent("Examples/\(name).json").path, at: time)
        let golden = Self.repoRoot.appendingPathComponent("Tests/ReftestTests/Goldens/\(name).png").path
        if ProcessInfo.processInfo.environment["CAPROF_RECORD_GOLDENS"] == "1" {
            try PNGCodec.write(premultiplied: actual.pixels, width: actual.width, height: actual.height, to: golden, compression: .small)
            print("recorded \(golden): look at it before committing")
            return
        }
        guard let data = FileManager.default.contents(atPath: golden) else {
            return XCTFail("no golden at \(golden); record with CAPROF_RECORD_GOLDENS=1 and review it")
        }
        let b = try PNGCodec.decode([UInt8](data))
        // lavapipe is deterministic; the tolerance absorbs the straight-alpha round trip of the PNG
        // and small differences between CPUs' vector widths, not layout changes.
        assertImagesMatch(actual, Image(width: b.width, height: b.height, pixels: b.pixels),
                          tolerance: 3, maxDiffering: actual.width * actual.height / 2000, "golden-\(name)")
    }

    func testCards() throws { try check("cards") }
    func testFlip3D() throws { try check("flip3d") }
    func testGravity() throws { try check("gravity") }
    func testContent() throws { try check("content") }
    func testFilters() throws { try check("filters") }
    func testBlendModes() throws { try check("blend-modes") }
    func testVariableBlur() throws { try check("variable-blur") }
    /// At 0 s: the contact shadow's radius animates from there, so its texture is the first one.
    func testShadows() throws { try check("shadows") }
    /// At 2 s (nothing is born at 0): confetti and sparks from the seeded, stateless simulation.
    func testEmitter() throws { try check("emitter", at: 2) }
    /// A Lottie animation (Examples/lottie-card.json) at 0.75 s: the shine inside its track matte,
    /// the trimmed ring half way round with its drop shadow, the pulse of a precomposition shown
    /// from frame 10 at half speed, the card's rounded mask.
    func testLottieCard() throws { try check("lottie-card", at: 0.75) }
}
