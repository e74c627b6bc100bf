import Foundation
import Geometry
import Plan
import Raster
import Render
import XCTest

/// Shared setup for the GPU suites.
///
/// The suites run serially: every test takes `RenderTestSupport.lock` for its whole duration (so
/// even a parallel runner never drives two Vulkan tests at once), and they share one `Renderer`,
/// which is a single Vulkan isolation domain. The driver is pinned to lavapipe (byte-identical
/// output across runs) unless the environment already chose one.
enum RenderTestSupport {
    static let lock = NSLock()
    static let lavapipeICD = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"

    static func pinLavapipe() {
        setenv("VK_DRIVER_FILES", lavapipeICD, 0)   // 0: keep an explicit choice from the environment
    }

    nonisolated(unsafe) private static var sharedRenderer: Renderer?
    static func renderer() throws -> Renderer {
        if let r = sharedRenderer { return r }
        pinLavapipe()
        let r = try Renderer()
        sharedRenderer = r
        return r
    }
}

/// Base class: serialises tests and offers plan-building shorthands.
class GPUTestCase: XCTestCase {
    override func setUp() {
        super.setUp()
        RenderTestSupport.lock.lock()
    }
    override func tearDown() {
        RenderTestSupport.lock.unlock()
        super.tearDown()
    }

    func render(_ plan: FramePlan, images: [UInt64: Bitmap] = [:]) throws -> RenderedFrame {
        try RenderTestSupport.renderer().render(plan, images: images)
    }

    func solid(_ quad: Rect, _ color: RGBA, transform: Transform3D = .identity, shape: RoundedShape? = nil,
               inner: RoundedShape? = nil, clips: [Clip] = []) -> DrawItem {
        DrawItem(layer: 1, role: .background, paint: .solid(color), transform: transform, quad: quad,
                 shape: shape, innerShape: inner, clips: clips)
    }

    func image(_ index: Int, _ quad: Rect, uv: Rect, sampling: DrawItem.Sampling = .texelFetch, opacity: Float = 1,
               transform: Transform3D = .identity) -> DrawItem {
        DrawItem(layer: 2, role: .contents, paint: .image(index: index, sampling: sampling, opacity: opacity),
                 transform: transform, quad: quad, uv: uv)
    }

    /// Asserts a pixel equals `expected` within `tolerance` per channel.
    func assertPixel(_ frame: RenderedFrame, _ x: Int, _ y: Int, _ expected: [UInt8], tolerance: Int = 0,
                     file: StaticString = #filePath, line: UInt = #line) {
        let actual = frame.pixel(x, y)
        let ok = zip(actual, expected).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
        XCTAssertTrue(ok, "pixel (\(x), \(y)) = \(actual), expected \(expected) ±\(tolerance)", file: file, line: line)
    }

    static let opaqueRed = RGBA(1, 0, 0, 1)
    static let transparent: [UInt8] = [0, 0, 0, 0]
}
