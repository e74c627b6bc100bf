import FuzzHarness
import Geometry
import LayerModel
import Plan
import XCTest

/// The fuzz targets' stack-culling invariant (`PlanInvariants.stackCulling`) holds for what the
/// plan emits and catches a run out of order.
final class StackCullingInvariantTests: XCTestCase {
    func testACulledStackHoldsAndAScrambledOneDoesNot() {
        let picture = PlannedImage(key: 7, pixelWidth: 64, pixelHeight: 64, isOpaque: false, opaqueRects: [])
        let under = (0..<6).map { i in
            DrawItem(layer: LayerID(10 + i), role: .contents, paint: .image(index: 0, sampling: .linear, opacity: 0.3),
                     transform: .identity, quad: Rect(0, 0, 64, 64), uv: Rect(0, 0, 64, 64))
        }
        let rotated = Transform3D.translation(-32, -32) * .rotation(0.17, 0, 0, 1) * .scale(1.5, 1.5, 1) * .translation(32, 32)
        let veils = (0..<5).map { i in
            DrawItem(layer: LayerID(20 + i), role: .background, paint: .solid(RGBA(0.8, 0, 0, 0.8)), transform: rotated,
                     quad: Rect(0, 0, 64, 64))
        }
        let items = CanvasExecution.prepare(under + veils, images: [picture], width: 64, height: 64).items
        XCTAssertTrue(items.contains { $0.stackStencil?.role == .mark }, "the stack is culled")
        XCTAssertEqual(PlanInvariants.stackCulling(items), [])
        var scrambled = items
        scrambled.swapAt(0, 1)   // marking pieces bottom veil first
        XCTAssertFalse(PlanInvariants.stackCulling(scrambled).isEmpty)
        var descending = items
        descending.swapAt(descending.count - 1, descending.count - 6)   // a higher rank before a lower one
        XCTAssertFalse(PlanInvariants.stackCulling(descending).isEmpty)
    }
}
