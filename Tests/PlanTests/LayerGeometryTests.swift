import XCTest
import Geometry
import LayerModel
@testable import Plan

/// Reference/core-animation.md §9.1 geometry vectors ([V] = verified on Apple's QuartzCore).
final class LayerGeometryTests: XCTestCase {
    func layer(_ b: Rect, at p: Point, anchor: Point = Point(0.5, 0.5)) -> Layer {
        var l = Layer(); l.bounds = b; l.position = p; l.anchorPoint = anchor; return l
    }

    func testFrameFromBoundsPositionAnchor() {
        XCTAssertEqual(layer(Rect(0, 0, 100, 50), at: Point(200, 300)).frame, Rect(150, 275, 100, 50))
        XCTAssertEqual(layer(Rect(0, 0, 100, 50), at: Point(200, 300), anchor: .zero).frame, Rect(200, 300, 100, 50))
        XCTAssertEqual(layer(Rect(0, 0, 100, 50), at: Point(200, 300), anchor: Point(1, 1)).frame, Rect(100, 250, 100, 50))
        XCTAssertEqual(layer(Rect(0, 0, 100, 50), at: .zero, anchor: Point(2, -1)).frame, Rect(-200, 50, 100, 50))
        // bounds.origin does not move the frame
        XCTAssertEqual(layer(Rect(11, 22, 100, 50), at: Point(200, 300)).frame, Rect(150, 275, 100, 50))
    }

    func testFrameWithTransform() {
        var l = layer(Rect(0, 0, 100, 50), at: Point(200, 300))
        l.transform = .scale(2, 4, 1)
        XCTAssertEqual(l.frame, Rect(100, 200, 200, 200))
        l.transform = .translation(10, 20, 0)
        XCTAssertEqual(l.frame, Rect(160, 295, 100, 50))
    }

    func testSetFrame() {
        var l = Layer()
        l.setFrame(Rect(10, 20, 100, 50))
        XCTAssertEqual(l.bounds, Rect(0, 0, 100, 50)); XCTAssertEqual(l.position, Point(60, 45))
        var n = Layer()
        n.setFrame(Rect(0, 0, -100, -50))
        XCTAssertEqual(n.bounds, Rect(0, 0, 100, 50)); XCTAssertEqual(n.position, Point(-50, -25))
    }

    /// child point → parent point: p · M(L→S), with S's sublayerTransform about its anchor.
    func convert(_ p: Point, child: Layer, parent: Layer) -> Point {
        (child.toSuperlayerSublayerSpace * parent.sublayerSpaceToBounds).apply(p)
    }

    func testChildToParentConversions() {
        let parent = layer(Rect(0, 0, 200, 200), at: Point(100, 100))
        var child = layer(Rect(0, 0, 50, 50), at: Point(100, 50))
        XCTAssertEqual(convert(.zero, child: child, parent: parent), Point(75, 25))
        child.transform = .scale(2, 2, 1)
        XCTAssertEqual(convert(.zero, child: child, parent: parent), Point(50, 0))
        XCTAssertEqual(convert(Point(50, 50), child: child, parent: parent), Point(150, 100))
    }

    func testSublayerTransformTranslation() {
        var parent = layer(Rect(0, 0, 200, 200), at: Point(100, 100))
        parent.sublayerTransform = .translation(10, 20, 0)
        let child = layer(Rect(0, 0, 50, 50), at: Point(100, 50))
        XCTAssertEqual(convert(.zero, child: child, parent: parent), Point(85, 45))
    }

    func testSublayerTransformScalesAboutParentAnchor() {
        // [V] walk-through in §1.3: (60, −38)
        var parent = layer(Rect(0, 0, 200, 200), at: Point(100, 100))
        parent.sublayerTransform = .scale(2, 2, 1)
        var child = layer(Rect(0, 0, 50, 50), at: Point(100, 50))
        child.transform = .translation(5, 6, 0)
        let p = convert(.zero, child: child, parent: parent)
        XCTAssertEqual(p.x, 60, accuracy: 1e-12); XCTAssertEqual(p.y, -38, accuracy: 1e-12)
    }

    func testRotatedChildRect() {
        // [V] child 100×100 @ (100,100) rotated π/4: rect → (100−50√2, 100−50√2, 100√2, 100√2)
        let parent = layer(Rect(0, 0, 200, 200), at: Point(100, 100))
        var child = layer(Rect(0, 0, 100, 100), at: Point(100, 100))
        child.transform = .rotation(.pi / 4, 0, 0, 1)
        let r = Rect.bounding(Rect(0, 0, 100, 100).corners.map { convert($0, child: child, parent: parent) })
        let s = 50 * 2.0.squareRoot()
        XCTAssertEqual(r.minX, 100 - s, accuracy: 1e-9); XCTAssertEqual(r.minY, 100 - s, accuracy: 1e-9)
        XCTAssertEqual(r.width, 2 * s, accuracy: 1e-9); XCTAssertEqual(r.height, 2 * s, accuracy: 1e-9)
    }

    func testBoundsOriginScrollsSublayers() {
        // §1.3: increasing S.bounds.origin moves sublayers the opposite way (UIScrollView).
        var parent = layer(Rect(0, 30, 200, 200), at: Point(100, 100))
        let child = layer(Rect(0, 0, 50, 50), at: Point(100, 50))
        let scrolled = convert(.zero, child: child, parent: parent)
        parent.bounds.origin.y = 0
        XCTAssertEqual(scrolled.y, convert(.zero, child: child, parent: parent).y)   // in parent's own coords
        // In the grandparent's space the child moves up by 30.
        let toGrand = child.toSuperlayerSublayerSpace * parent.sublayerSpaceToBounds * parent.toSuperlayerSublayerSpace
        var p2 = parent; p2.bounds.origin.y = 30
        let toGrand2 = child.toSuperlayerSublayerSpace * p2.sublayerSpaceToBounds * p2.toSuperlayerSublayerSpace
        XCTAssertEqual(toGrand2.apply(Point.zero).y - toGrand.apply(Point.zero).y, -30, accuracy: 1e-12)
    }

    func testGeometryFlippedPlacesSublayersFromTheBottom() {
        // §1.6: a flipped 200-tall parent places a child at y = 10 at y = 190 in its own space.
        var parent = layer(Rect(0, 0, 200, 200), at: Point(100, 100))
        parent.geometryFlipped = true
        let child = layer(Rect(0, 0, 20, 20), at: Point(50, 10))
        XCTAssertEqual(convert(Point(10, 10), child: child, parent: parent), Point(50, 190))
    }

    func testPerspectiveSublayerTransformPivotsAtParentCentre() {
        // §1.4: a perspective sublayerTransform has its vanishing point at the container's anchor:
        // the anchor-centred child point stays put, a child at z = 250 with d = 500 doubles its offset.
        var parent = layer(Rect(0, 0, 200, 200), at: Point(100, 100))
        parent.sublayerTransform = .perspective(500)
        var child = layer(Rect(0, 0, 20, 20), at: Point(150, 100))
        child.zPosition = 250
        let p = convert(Point(10, 10), child: child, parent: parent)
        XCTAssertEqual(p.x, 100 + 2 * 50, accuracy: 1e-9)
        XCTAssertEqual(p.y, 100, accuracy: 1e-9)
    }
}
