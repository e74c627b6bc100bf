import XCTest
import Geometry
import LayerModel
@testable import Plan

/// Gravity, contentsRect, contentsScale and contentsCenter (reference §1.7), hand-computed.
final class ContentsLayoutTests: XCTestCase {
    let bounds = Rect(0, 0, 100, 50)

    func layout(_ g: ContentsGravity, w: Int = 40, h: Int = 20, scale: Double = 1,
                rect: Rect = .unit, center: Rect = .unit, bounds: Rect? = nil) -> ContentsLayout {
        ContentsLayout.layout(imageWidth: w, imageHeight: h, bounds: bounds ?? self.bounds, gravity: g,
                              contentsRect: rect, contentsCenter: center, contentsScale: scale)
    }

    func testResizeFillsBounds() {
        XCTAssertEqual(layout(.resize).destination, Rect(0, 0, 100, 50))
    }

    func testAspectModes() {
        // 40×20 image into 100×50… same aspect → both fill. Use a 20×20 image instead.
        XCTAssertEqual(layout(.resizeAspect, w: 20, h: 20).destination, Rect(25, 0, 50, 50))
        XCTAssertEqual(layout(.resizeAspectFill, w: 20, h: 20).destination, Rect(0, -25, 100, 100))
    }

    func testNonScalingModesUseLogicalSizeAndLiteralMaxYTop() {
        // contentsScale 2: a 40×20 image is 20×10 points.
        XCTAssertEqual(layout(.center, scale: 2).destination, Rect(40, 20, 20, 10))
        XCTAssertEqual(layout(.top, scale: 2).destination, Rect(40, 40, 20, 10))      // max-Y
        XCTAssertEqual(layout(.bottom, scale: 2).destination, Rect(40, 0, 20, 10))    // min-Y
        XCTAssertEqual(layout(.left, scale: 2).destination, Rect(0, 20, 20, 10))
        XCTAssertEqual(layout(.right, scale: 2).destination, Rect(80, 20, 20, 10))
        XCTAssertEqual(layout(.topLeft, scale: 2).destination, Rect(0, 40, 20, 10))
        XCTAssertEqual(layout(.bottomRight, scale: 2).destination, Rect(80, 0, 20, 10))
        // fractional centring is not rounded
        XCTAssertEqual(layout(.center, w: 21, h: 21).destination, Rect(39.5, 14.5, 21, 21))
    }

    func testContentsRectSelectsTexelsAndSizesGravity() {
        let l = layout(.center, w: 40, h: 20, rect: Rect(0.5, 0, 0.5, 1))
        XCTAssertEqual(l.slices, [.init(rect: Rect(40, 15, 20, 20), texels: Rect(20, 0, 20, 20))])
    }

    func testNineSliceKeepsCornersAtLogicalSize() {
        // 30×30 image, centre = middle third → corners 10×10 texels = 10×10 points at scale 1.
        let l = layout(.resize, w: 30, h: 30, center: Rect(1.0 / 3, 1.0 / 3, 1.0 / 3, 1.0 / 3), bounds: Rect(0, 0, 100, 60))
        XCTAssertEqual(l.slices.count, 9)
        XCTAssertEqual(l.slices[0].rect, Rect(0, 0, 10, 10))
        XCTAssertEqual(l.slices[0].texels.size, Size(10, 10))
        XCTAssertEqual(l.slices[4].rect, Rect(10, 10, 80, 40))       // centre stretches both ways
        XCTAssertEqual(l.slices[8].rect, Rect(90, 50, 10, 10))
        XCTAssertEqual(l.slices[1].rect, Rect(10, 0, 80, 10))        // top edge stretches horizontally
    }

    func testNineSliceScalesCornersDownWhenTooSmall() {
        let l = layout(.resize, w: 30, h: 30, center: Rect(1.0 / 3, 1.0 / 3, 1.0 / 3, 1.0 / 3), bounds: Rect(0, 0, 10, 10))
        XCTAssertEqual(l.slices.first?.rect, Rect(0, 0, 5, 5))
    }
}
