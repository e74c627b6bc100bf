import XCTest
import Geometry
import LayerModel
@testable import Plan

/// Plan tests with no GPU: what is drawn, in which order, how images are sampled, what is clipped.
final class FramePlannerTests: XCTestCase {
    let canvas = Canvas(width: 100, height: 100, scale: 2, backgroundColor: .white)

    func box(_ name: String, _ frame: Rect, _ color: Color = Color(1, 0, 0)) -> Layer {
        var l = Layer(); l.name = name; l.setFrame(frame); l.backgroundColor = color; return l
    }
    func plan(_ root: Layer, images: ImageTable = [:], canvas: Canvas? = nil) -> FramePlan {
        var s = Scene(canvas: canvas ?? self.canvas, root: root); s.assignIDs()
        return FramePlanner(canvas: s.canvas, images: images).plan(root: s.root)
    }

    func testDeviceTransformAndPixelAlignedFastPath() {
        let p = plan(box("a", Rect(10, 10, 20, 20)))
        XCTAssertEqual(p.pixelWidth, 200)
        XCTAssertEqual(p.clearColor, RGBA(1, 1, 1, 1))
        let item = try! XCTUnwrap(p.items.first)
        // point (10,10) lands on device pixel (20,20) at scale 2
        XCTAssertEqual(item.transform.apply(item.quad.origin), Point(20, 20))
        XCTAssertNil(item.shape, "an axis-aligned rect on the pixel grid needs no coverage shader")
    }

    func testFractionalEdgesGetCoverageAndAMargin() {
        let p = plan(box("a", Rect(10.25, 10, 20, 20)))
        let item = try! XCTUnwrap(p.items.first)
        XCTAssertNotNil(item.shape)
        // Local space is the bounds (0,0,20,20); one device pixel = 0.5 pt of margin.
        XCTAssertEqual(item.quad.minX, -0.5, accuracy: 1e-12)
        XCTAssertEqual(item.transform.apply(Point(0, 0)).x, 20.5, accuracy: 1e-12)
    }

    func testZPositionSortsSiblingsStably() {
        var root = box("root", Rect(0, 0, 100, 100), .white)
        var a = box("a", Rect(0, 0, 10, 10)); a.zPosition = 1
        let b = box("b", Rect(0, 0, 10, 10))
        let c = box("c", Rect(0, 0, 10, 10))
        root.sublayers = [a, b, c]
        let ids = plan(root).items.map(\.layer)
        XCTAssertEqual(ids, [0, 2, 3, 1])   // root, b, c, then a (higher zPosition)
    }

    func testHiddenAndZeroOpacitySkipSubtrees() {
        var root = box("root", Rect(0, 0, 100, 100))
        var h = box("h", Rect(0, 0, 10, 10)); h.hidden = true
        h.sublayers = [box("hc", Rect(0, 0, 5, 5))]
        var z = box("z", Rect(0, 0, 10, 10)); z.opacity = 0
        root.sublayers = [h, z]
        XCTAssertEqual(plan(root).items.count, 1)
    }

    func testOpacityMultipliesDownTheTree() {
        var root = box("root", Rect(0, 0, 100, 100)); root.opacity = 0.5
        root.sublayers = [box("c", Rect(0, 0, 10, 10), Color(0, 0, 1))]
        root.sublayers[0].opacity = 0.5
        let p = plan(root)
        XCTAssertEqual(p.items[1].paint, .solid(RGBA(0, 0, 0.25, 0.25)))
        XCTAssertEqual(p.offscreenPasses.map(\.reasons), [[.groupOpacity]], "the root's two draws are faded as a group")
        XCTAssertTrue(p.unsupported.isEmpty)
    }

    func testBackFacingLayerIsCulledOnlyWhenNotDoubleSided() {
        var root = box("root", Rect(0, 0, 100, 100))
        var f = box("flip", Rect(25, 25, 50, 50)); f.transform = .rotation(.pi, 0, 1, 0)
        root.sublayers = [f]
        XCTAssertEqual(plan(root).items.count, 2)
        root.sublayers[0].doubleSided = false
        XCTAssertEqual(plan(root).items.count, 1)
    }

    func testMasksToBoundsClipsSublayersAndMergesAlignedClips() {
        var root = box("root", Rect(0, 0, 100, 100))
        var outer = box("outer", Rect(10, 10, 50, 50)); outer.masksToBounds = true
        var inner = box("inner", Rect(5, 5, 60, 60)); inner.masksToBounds = true
        inner.sublayers = [box("leaf", Rect(0, 0, 100, 100))]
        outer.sublayers = [inner]
        root.sublayers = [outer]
        let leaf = plan(root).items.last!
        XCTAssertEqual(leaf.clips.count, 1, "two axis-aligned rectangular clips merge into one")
        // In the leaf's space (= inner's sublayer space = inner bounds), the merged clip is
        // inner (0,0,60,60) ∩ outer mapped in: outer bounds (0,0,50,50) → (-5,-5,50,50).
        let c = leaf.clips[0]
        XCTAssertEqual(c.shape.rect, Rect(0, 0, 45, 45))
        // leaf's bounds coincide with inner's sublayer space (frame at the origin): points map 1:1
        // (the matrix also carries the flattening of inner's sublayers, which only touches z).
        XCTAssertEqual(c.transform.apply(Point(3, 4)), Point(3, 4))
        XCTAssertEqual(c.transform.m33, 0)
    }

    func testRotatedClipKeepsItsOwnSpace() {
        var root = box("root", Rect(0, 0, 100, 100))
        var outer = box("outer", Rect(10, 10, 50, 50)); outer.masksToBounds = true
        outer.transform = .rotation(0.3, 0, 0, 1)
        var inner = box("inner", Rect(5, 5, 30, 30)); inner.masksToBounds = true
        inner.transform = .rotation(-0.6, 0, 0, 1)
        inner.sublayers = [box("leaf", Rect(0, 0, 100, 100))]
        outer.sublayers = [inner]
        root.sublayers = [outer]
        XCTAssertEqual(plan(root).items.last!.clips.count, 2)
    }

    func testContentsSamplingDecision() {
        let img = ImageSource(origin: .file("/a.png"), location: SourceLocation(file: "s", pointer: "", line: 1, column: 1))
        let table: ImageTable = [img.origin: ImageInfo(key: 7, width: 40, height: 40)]
        var root = box("root", Rect(0, 0, 100, 100))
        var l = Layer(); l.setFrame(Rect(10, 10, 20, 20)); l.contents = img; l.contentsScale = 2
        root.sublayers = [l]
        var p = plan(root, images: table)
        XCTAssertEqual(p.images, [PlannedImage(key: 7, pixelWidth: 40, pixelHeight: 40)])
        guard case .image(0, .texelFetch, 1) = p.items.last!.paint else { return XCTFail("\(p.items.last!.paint)") }
        root.sublayers[0].position.x += 0.25     // off the pixel grid → bilinear
        p = plan(root, images: table)
        guard case .image(0, .linear, 1) = p.items.last!.paint else { return XCTFail("\(p.items.last!.paint)") }
        root.sublayers[0].magnificationFilter = .nearest
        root.sublayers[0].contentsScale = 1      // 40 px shown over 40×40 device px at 0.25 offset: not magnified
        root.sublayers[0].bounds.size = Size(30, 30)
        p = plan(root, images: table)
        guard case .image(0, .nearest, 1) = p.items.last!.paint else { return XCTFail("\(p.items.last!.paint)") }
    }

    func testIdenticalImagesShareOneSlot() {
        let loc = SourceLocation(file: "s", pointer: "", line: 1, column: 1)
        let a = ImageSource(origin: .file("/a.png"), location: loc), b = ImageSource(origin: .file("/b.png"), location: loc)
        let table: ImageTable = [a.origin: ImageInfo(key: 9, width: 4, height: 4), b.origin: ImageInfo(key: 9, width: 4, height: 4)]
        var root = box("root", Rect(0, 0, 100, 100))
        var l1 = Layer(); l1.setFrame(Rect(0, 0, 10, 10)); l1.contents = a
        var l2 = l1; l2.contents = b
        root.sublayers = [l1, l2]
        XCTAssertEqual(plan(root, images: table).images.count, 1)
    }

    func testBorderIsDrawnAfterSublayersAsARing() {
        var root = box("root", Rect(0, 0, 100, 100)); root.borderWidth = 2; root.cornerRadius = 5
        root.sublayers = [box("c", Rect(0, 0, 10, 10))]
        let p = plan(root)
        XCTAssertEqual(p.items.map(\.role), [.background, .background, .border])
        let border = p.items[2]
        XCTAssertEqual(border.innerShape?.rect, Rect(2, 2, 96, 96))
        XCTAssertEqual(border.innerShape?.radii, [3, 3, 3, 3])
    }

    func testMaskedCornersAndRadiusClamp() {
        var l = box("l", Rect(0, 0, 40, 20)); l.cornerRadius = 50; l.maskedCorners = [.minXMinY, .maxXMaxY]
        XCTAssertEqual(l.cornerRadii, [10, 0, 10, 0])
    }

    func testUnsupportedFeaturesAreReportedNotDropped() {
        var root = box("root", Rect(0, 0, 100, 100))
        var s = Layer(.text); s.name = "arrow"; s.setFrame(Rect(0, 0, 50, 20)); s.text.string = "→"
        var sh = box("card", Rect(0, 0, 10, 10)); sh.shadowOpacity = 0.3
        root.sublayers = [s, sh]
        let features = plan(root).unsupported.map(\.feature)
        XCTAssertTrue(features.contains { $0.contains(#"font "Helvetica" is not installed"#) })
        XCTAssertFalse(features.contains { $0.hasPrefix("card:") }, "shadows are drawn now")
    }

    func testOffscreenItemsAreCulled() {
        var root = box("root", Rect(0, 0, 100, 100))
        root.sublayers = [box("far", Rect(500, 500, 10, 10))]
        XCTAssertEqual(plan(root).items.count, 1)
    }

    /// A layer whose bounds reach past what a Double holds on the device (10³⁰⁸ pt tall at 2×, with
    /// a background, a border, a corner radius, a shadow and masksToBounds) draws none of its own
    /// content, which could not be placed (before, it was planned with infinite device edges and
    /// vanished without a word); it is reported once, and its sublayer, placed by its own matrix,
    /// is drawn.
    func testALayerWhoseBoundsOverflowOnTheDeviceIsReportedAndItsSublayersDrawn() {
        var huge = box("huge", Rect(0, 0, 40, 40))
        huge.bounds = Rect(0, 0, 40, .greatestFiniteMagnitude); huge.anchorPoint = Point(0, 0); huge.position = Point(10, 10)
        huge.borderWidth = 2; huge.borderColor = Color(0, 0, 1); huge.cornerRadius = 8; huge.masksToBounds = true
        huge.shadowOpacity = 0.5
        huge.sublayers = [box("child", Rect(5, 5, 20, 20), Color(0, 1, 0))]
        var root = box("root", Rect(0, 0, 100, 100), .white)
        root.sublayers = [huge]
        var scene = Scene(canvas: canvas, root: root); scene.assignIDs()
        let p = FramePlanner(canvas: canvas, images: [:]).plan(root: scene.root)
        XCTAssertEqual(p.unsupported.count, 1, "\(p.unsupported)")
        XCTAssertTrue(p.unsupported.first?.feature.contains("bounds reach past") ?? false)
        let hugeID = scene.root.sublayers[0].id, childID = scene.root.sublayers[0].sublayers[0].id
        // Its rounded clip and shadow take it offscreen: look in the passes too.
        var items = p.canvasItems
        for pass in p.offscreenPasses { if case .draw(let drawn) = pass.operation { items += drawn } }
        // (A shadow may remain: the blurred one of what is drawn, the sublayer.)
        let own: [DrawItem.Role] = [.background, .border, .contents]
        XCTAssertFalse(items.contains { $0.layer == hugeID && own.contains($0.role) }, "none of its own content: \(items.filter { $0.layer == hugeID }.map { "\($0.role) \($0.quad)" })")
        XCTAssertTrue(items.contains { $0.layer == childID && $0.role == .background }, "its sublayer is drawn")
        XCTAssertTrue(items.allSatisfy { $0.quad.allFinite && $0.transform.elements.allSatisfy(\.isFinite) })
    }
}
