import XCTest
import Geometry
import LayerModel
@testable import Plan

/// Plans of inputs the `effects` fuzz target found breaking `PlanInvariants` (issue #43), stated
/// as what a user relies on: a backdrop captures the canvas it was planned over, and a shadow that
/// cannot be placed is reported rather than drawn at infinity. The inputs themselves are replayed
/// from Tests/HostileInputTests/Regressions/scene.
final class HostileGeometryPlanTests: XCTestCase {
    let canvas = Canvas(width: 100, height: 100, scale: 1, backgroundColor: .white)

    func box(_ name: String, _ frame: Rect, _ color: Color? = Color(1, 0, 0)) -> Layer {
        var l = Layer(); l.name = name; l.setFrame(frame); l.backgroundColor = color; return l
    }
    func plan(root: Layer) -> FramePlan {
        var s = Scene(canvas: canvas, root: root); s.assignIDs()
        return FramePlanner(canvas: canvas, images: [:]).plan(root: s.root)
    }
    func plan(_ layers: [Layer]) -> FramePlan {
        var root = box("root", Rect(0, 0, 100, 100), .white)
        root.sublayers = layers
        return plan(root: root)
    }
    /// The canvas captures of `p`, in executed canvas items.
    func captures(_ p: FramePlan) -> [Int] {
        p.offscreenPasses.compactMap { pass in
            if case .backdrop(let c) = pass.operation { return c.canvasItemCount }
            return nil
        }
    }
    /// Whether a canvas item composites a blend mode's result (`Blend.replace`).
    func isBlendResult(_ item: DrawItem) -> Bool { item.blend == .replace }

    // MARK: backdrops and blends that take what lies beneath off the canvas

    /// A full-screen backdrop with a blend mode of its own captures everything beneath it on the
    /// canvas, then its blend replaces the whole canvas. What lies beneath must stay on the canvas
    /// (drawn again as the destination, not moved there): the capture is cut after it, before the
    /// blend's result, which reads the capture.
    func testABlendedFullScreenBackdropCapturesWhatLiesBeneathOnTheCanvas() {
        let card = box("card", Rect(20, 20, 40, 30), Color(0, 1, 0))
        var glass = Layer(.backdrop); glass.name = "glass"; glass.setFrame(Rect(0, 0, 100, 100))
        glass.compositingFilter = .colorDodgeBlendMode
        let p = plan([card, glass])
        XCTAssertEqual(captures(p).count, 1)
        guard let cut = captures(p).first else { return }
        XCTAssertGreaterThan(cut, 0, "the root and the card are drawn before the capture")
        guard cut <= p.canvasItems.count else {
            return XCTFail("the capture cuts after \(cut) of \(p.canvasItems.count) canvas items")
        }
        XCTAssertFalse(p.canvasItems.prefix(cut).contains(where: isBlendResult), "the blend reads the capture: drawn after it")
        XCTAssertEqual(p.canvasItems.suffix(from: cut).filter(isBlendResult).count, 1)
        XCTAssertEqual(p.items.map(\.layer), [0, 1, 2], "logical: root, card, glass, each once")
    }

    /// An earlier backdrop's capture counts the canvas too: a later full-screen blend leaves
    /// everything beneath it on the canvas (it would take the backdrop's own draw off it, and the
    /// capture's count past the canvas's items).
    func testAFullScreenBlendAboveABackdropLeavesTheCapturedCanvasAsItIs() {
        let card = box("card", Rect(20, 20, 40, 30), Color(0, 1, 0))
        var bar = Layer(.backdrop); bar.name = "bar"; bar.setFrame(Rect(10, 10, 80, 20))
        var blur = Filter(.gaussianBlur); blur.inputRadius = 3; bar.filters = [blur]
        var top = box("top", Rect(0, 0, 100, 100), Color(1, 0.5, 0))
        top.compositingFilter = .multiplyBlendMode
        let p = plan([card, bar, top])
        guard let cut = captures(p).first else { return XCTFail("the bar's capture") }
        XCTAssertGreaterThan(cut, 0)
        XCTAssertLessThanOrEqual(cut, p.canvasItems.count)
        XCTAssertFalse(p.canvasItems.prefix(cut).contains(where: isBlendResult))
        XCTAssertEqual(p.items.map(\.layer), [0, 1, 2, 3], "logical: root, card, bar, top, each once")

        // Without the backdrop, the same blend takes what lies beneath off the canvas.
        let plain = plan([card, top])
        XCTAssertEqual(plain.canvasItems.count, 1, "only the blend's result")
    }

    // MARK: shadows whose matrix overflows

    /// The root layer (nothing flattens it) turned about y under its own perspective, at a
    /// zPosition of 1e300: its matrix is finite, with 1e297 in m13. A shadow offset of 9e15 adds
    /// 9e15 × m13 to the translation row: infinity.
    func overflowingShadowLayer(_ path: Path) -> Layer {
        var l = box("card", Rect(30, 40, 40, 20), .white)
        l.zPosition = 1e300
        l.transform = .rotation(Double.pi / 6, 0, 1, 0) * .perspective(500)
        l.shadowOpacity = 0.5; l.shadowOffset = Size(9e15, -50); l.shadowRadius = 9e15
        l.shadowPath = path
        return l
    }

    /// A shadowPath that is a rectangle (one analytic item) whose matrix overflows is not drawn
    /// and is reported, exactly as any other path's shadow (a texture) is; the layer itself is.
    func testAShadowWhoseMatrixOverflowsIsReportedNotDrawn() {
        let p = plan(root: overflowingShadowLayer(.rect(Rect(0, 0, 40, 20))))
        XCTAssertEqual(p.items.map(\.role), [.background], "the card without its shadow")
        XCTAssertTrue(p.canvasItems.allSatisfy { $0.transform.elements.allSatisfy(\.isFinite) })
        XCTAssertEqual(p.unsupported.map(\.layer), [0])
        XCTAssertTrue(p.unsupported.first?.feature.hasSuffix(UnsupportedFeature.nonFiniteGeometry.message) ?? false,
                      p.unsupported.first?.feature ?? "")

        let triangle = Path([.move(Point(0, 0)), .line(Point(40, 0)), .line(Point(0, 20)), .close])
        let q = plan(root: overflowingShadowLayer(triangle))
        XCTAssertEqual(q.items.map(\.role), p.items.map(\.role), "a triangle's shadow is dropped the same way")
        XCTAssertEqual(q.unsupported, p.unsupported)
        XCTAssertEqual(q.rasterRequests.count, 0)

        // An ordinary offset on the same layer keeps the shadow: only the overflow drops it.
        var near = overflowingShadowLayer(.rect(Rect(0, 0, 40, 20)))
        near.shadowOffset = Size(3, 3); near.shadowRadius = 4
        let n = plan(root: near)
        XCTAssertEqual(n.items.map(\.role), [.shadow, .background])
        XCTAssertEqual(n.unsupported, [])
    }
}
