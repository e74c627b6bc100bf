import XCTest
import Geometry
import LayerModel
@testable import Plan

/// The render graph the planner builds (reference §1.10, §8.1): which layers go offscreen, the
/// passes' reasons, sizes and order, and the cases that must not go offscreen.
final class OffscreenPassTests: XCTestCase {
    let canvas = Canvas(width: 100, height: 100, scale: 1, backgroundColor: .white)

    func box(_ name: String, _ frame: Rect, _ color: Color? = Color(1, 0, 0)) -> Layer {
        var l = Layer(); l.name = name; l.setFrame(frame); l.backgroundColor = color; return l
    }
    func plan(_ layers: [Layer], canvas: Canvas? = nil) -> FramePlan {
        let c = canvas ?? self.canvas
        var root = box("root", Rect(0, 0, c.width, c.height), .white)
        root.sublayers = layers
        var s = Scene(canvas: c, root: root); s.assignIDs()
        return FramePlanner(canvas: c, images: images).plan(root: s.root)
    }
    var images: ImageTable = [:]
    let avatar = ImageSource(origin: .file("/avatar.png"), location: SourceLocation(file: "t", pointer: "", line: 1, column: 1))

    func testRoundedClipGoesOffscreenOnlyForTheCompositeOfMoreThanOneDraw() {
        var clip = box("clip", Rect(10, 10, 40, 40)); clip.masksToBounds = true; clip.cornerRadius = 10
        XCTAssertEqual(plan([clip]).offscreenPasses, [], "background alone is drawn rounded without a pass")
        clip.sublayers = [box("child", Rect(0, 0, 20, 20))]
        let p = plan([clip])
        XCTAssertEqual(p.offscreenPasses.map(\.reasons), [[.roundedClip]])
        XCTAssertEqual(p.offscreenPasses.first?.bounds, PixelRect(x: 10, y: 10, width: 40, height: 40))
        XCTAssertEqual(p.offscreenPasses.first?.items.count, 2, "the background and the child, unclipped inside")
        XCTAssertTrue(p.offscreenPasses[0].items.allSatisfy { $0.clips.isEmpty })
        // The composite carries the rounded clip where it can change a pixel: four 11×11 corner
        // squares (radius 10 + the antialiasing ramp) with it, the cross between them without it,
        // tiling the 40×40 target exactly once.
        let pieces = p.canvasItems.filter { $0.role == .offscreen }
        XCTAssertEqual(pieces.count, 7)
        XCTAssertEqual(pieces.prefix(4).map { $0.clips.last?.shape.radii }, Array(repeating: [10, 10, 10, 10], count: 4))
        XCTAssertEqual(pieces.prefix(4).map(\.quad.size), Array(repeating: Size(11, 11), count: 4))
        XCTAssertTrue(pieces.suffix(3).allSatisfy(\.clips.isEmpty))
        XCTAssertEqual(pieces.reduce(0) { $0 + $1.quad.width * $1.quad.height }, 40 * 40)
        XCTAssertEqual(p.items.count, 3, "logically the root, the clip layer and its child, once")
        clip.cornerRadius = 0
        XCTAssertEqual(plan([clip]).offscreenPasses, [], "a rectangular clip is exact in the shader")
        clip.cornerRadius = 10; clip.masksToBounds = false
        XCTAssertEqual(plan([clip]).offscreenPasses, [])
    }

    func testAnImageOnlyAvatarClippedToACircleIsClippedDirectly() {
        images = [avatar.origin: ImageInfo(key: 7, width: 64, height: 64)]
        var a = box("avatar", Rect(10, 10, 64, 64), nil); a.contents = avatar; a.masksToBounds = true; a.cornerRadius = 32
        var p = plan([a])
        XCTAssertEqual(p.offscreenPasses, [], "§8.1: only the contents image is clipped: no pass")
        XCTAssertEqual(p.items.count, 2, "the root and the avatar")
        XCTAssertEqual(p.items[1].clips.last?.shape.radii, [32, 32, 32, 32], "clipped in the shader instead")
        a.backgroundColor = Color(0, 0, 1)
        p = plan([a])
        XCTAssertEqual(p.offscreenPasses.map(\.reasons), [[.roundedClip]], "a background colour brings the pass back")
    }

    func testRoundedClipTargetAtScale3IsClippedToTheCanvas() {
        var clip = box("clip", Rect(80, 90, 40, 40)); clip.masksToBounds = true; clip.cornerRadius = 10
        clip.sublayers = [box("child", Rect(0, 0, 20, 20))]
        let p = plan([clip], canvas: Canvas(width: 100, height: 100, scale: 3))
        XCTAssertEqual(p.offscreenPasses.first?.bounds, PixelRect(x: 240, y: 270, width: 60, height: 30))
        XCTAssertEqual(p.offscreenPasses.first?.width, 60)
    }

    func testGroupOpacityOnlyWhenItChangesPixels() {
        var g = box("group", Rect(0, 0, 50, 50)); g.sublayers = [box("c", Rect(10, 10, 60, 20))]
        XCTAssertEqual(plan([g]).offscreenPasses, [])
        g.opacity = 0.5
        let p = plan([g])
        XCTAssertEqual(p.offscreenPasses.map(\.reasons), [[.groupOpacity]])
        // Tight device bounds of the subtree: the group (0…50) and its child (10…70 × 10…30).
        XCTAssertEqual(p.offscreenPasses.first?.bounds, PixelRect(x: 0, y: 0, width: 70, height: 50))
        // Inside at opacity 1; the composite fades once.
        XCTAssertEqual(p.offscreenPasses[0].items.map(\.paint), [.solid(RGBA(1, 0, 0, 1)), .solid(RGBA(1, 0, 0, 1))])
        XCTAssertEqual(p.canvasItems.last?.paint, .offscreen(.pass(0), sampling: .texelFetch, opacity: 0.5))
        // The logical view (what the profiler sees) is the two items at half opacity, in place.
        XCTAssertEqual(p.items.suffix(2).map(\.paint), [.solid(RGBA(0.5, 0, 0, 0.5)), .solid(RGBA(0.5, 0, 0, 0.5))])
        XCTAssertEqual(p.items.last.map { $0.transform.apply(Point(0, 0)) }, Point(10, 10))
        g.allowsGroupOpacity = false
        XCTAssertEqual(plan([g]).offscreenPasses, [], "allowsGroupOpacity = false: per-layer opacity")
        g.allowsGroupOpacity = true; g.sublayers = []
        XCTAssertEqual(plan([g]).offscreenPasses, [], "opacity over a single opaque layer: faded per item")
        var empty = box("empty", Rect(0, 0, 50, 50), nil); empty.opacity = 0.5
        empty.sublayers = [box("only", Rect(0, 0, 10, 10))]
        XCTAssertEqual(plan([empty]).offscreenPasses, [], "one draw in the whole group: nothing overlaps")
    }

    func testShadowWithoutPathBlursTheContentsAlphaAndWithPathIsAnalytic() {
        var s = box("shadowed", Rect(20, 20, 40, 30)); s.shadowOpacity = 0.5; s.shadowRadius = 2; s.shadowOffset = Size(0, 3)
        var p = plan([s])
        XCTAssertEqual(p.offscreenPasses.map(\.reasons), [[.shadow], [.shadow], [.shadow]], "content, horizontal, vertical")
        // The target holds the content and the blur's reach: 3σ + 1 = 7 px on each side.
        XCTAssertEqual(p.offscreenPasses.map(\.width), [54, 54, 54])
        XCTAssertEqual(p.offscreenPasses.map(\.height), [44, 44, 44])
        guard case .blur(let source, let sigma, true, _, 1) = p.offscreenPasses[1].operation,
              case .blur(1, sigma, false, let tint, 1) = p.offscreenPasses[2].operation else { return XCTFail("blur passes") }
        XCTAssertEqual(source, 0); XCTAssertEqual(sigma, 2)
        XCTAssertEqual(tint, RGBA(0, 0, 0, 0.5))
        // Drawn back: the shadow at the offset, then the content.
        XCTAssertEqual(p.canvasItems.suffix(2).map(\.role), [.shadow, .offscreen])
        XCTAssertEqual(p.canvasItems.suffix(2).map(\.transform), [.translation(13, 16), .translation(13, 13)])

        s.shadowPath = .rect(Rect(0, 0, 40, 30))
        p = plan([s])
        XCTAssertEqual(p.offscreenPasses, [], "shadowPath: the shape is known without rendering")
        XCTAssertEqual(p.items.suffix(2).map(\.role), [.shadow, .background])
        XCTAssertEqual(p.items.suffix(2).first?.paint, .blurredShape(RGBA(0, 0, 0, 0.5), sigma: 2))
        // Any other path: filled and blurred on the CPU into a texture, still without a pass.
        let triangle = Path([.move(Point(0, 0)), .line(Point(40, 0)), .line(Point(0, 30)), .close])
        s.shadowPath = triangle
        p = plan([s])
        XCTAssertEqual(p.offscreenPasses, [])
        XCTAssertTrue(p.unsupported.isEmpty, "a triangle's shadow is drawn")
        XCTAssertEqual(p.items.suffix(2).map(\.role), [.shadow, .background])
        guard p.rasterRequests.count == 1, case .shadowPath(let r) = p.rasterRequests[0].content,
              case .image(let index, _, let opacity)? = p.items.suffix(2).first?.paint else { return XCTFail("one shadow texture") }
        XCTAssertEqual(r.path, triangle)
        XCTAssertEqual(r.sigmaX, 2); XCTAssertEqual(r.sigmaY, 2)   // σ = shadowRadius 2 pt at scale 1
        XCTAssertEqual(opacity, 0.5, "shadowOpacity is the item's opacity, not part of the texture")
        XCTAssertEqual(p.images[index].key, p.rasterRequests[0].key)
        // The texture holds the path's extent grown by the blur's reach (⌈3σ⌉ + 1 texel a side).
        XCTAssertEqual([p.rasterRequests[0].pixelWidth, p.rasterRequests[0].pixelHeight], [40 + 2 * 7, 30 + 2 * 7])
        // Moving or fading the layer keeps the texture; another radius makes a new one.
        var moved = s; moved.position = Point(90, 70); moved.shadowOpacity = 0.25
        XCTAssertEqual(plan([moved]).rasterRequests.map(\.key), p.rasterRequests.map(\.key))
        var blurrier = s; blurrier.shadowRadius = 3
        XCTAssertNotEqual(plan([blurrier]).rasterRequests.map(\.key), p.rasterRequests.map(\.key))
    }

    /// However large the radius, the rasterised shadow's blur stays under 12 texels of σ (its
    /// resolution drops instead) and its texture within a texture's side, so hostile values cannot
    /// make the CPU blur run for minutes.
    func testAHugeShadowRadiusKeepsTheRasterisedBlurBounded() {
        var s = box("shadowed", Rect(20, 20, 40, 30)); s.shadowOpacity = 1
        s.shadowPath = Path([.move(Point(0, 0)), .line(Point(40, 0)), .line(Point(0, 30)), .close])
        // Squashed 30:1 (each axis gets its own resolution, so neither σ exceeds 12 texels).
        func squashed(_ radius: Double) -> [RasterRequest] {
            var t = s; t.shadowRadius = radius; t.transform = .scale(3, 0.1, 1)
            return plan([t]).rasterRequests
        }
        XCTAssertEqual(squashed(60).count, 1)
        // A 4000 × 3000 pt triangle, so that σ = 10⁴ px still leaves a visible shadow: its box
        // blurred peaks at 4000/(√(2π)·10⁴) · 3000/(√(2π)·10⁴) = 0.019, over half a level of 8 bits.
        var large = s
        large.shadowPath = Path([.move(Point(0, 0)), .line(Point(4000, 0)), .line(Point(0, 3000)), .close])
        for radius in [30.0, 1e4, 1e9, 1e300] {
            large.shadowRadius = radius
            let requests = plan([large]).rasterRequests
            if radius < 1e5 { XCTAssertEqual(requests.count, 1, "radius \(radius): drawn") }
            for r in requests + squashed(radius) {
                guard case .shadowPath(let raster) = r.content else { continue }
                XCTAssertLessThanOrEqual(max(raster.sigmaX, raster.sigmaY), 12, "radius \(radius)")
                XCTAssertLessThanOrEqual(max(r.pixelWidth, r.pixelHeight), Builder.maxShapeTextureSide, "radius \(radius)")
            }
        }
    }

    /// The GPU blur of a path-less shadow does at most ⌈3σ⌉·2 + 1 taps per texel of its target:
    /// beyond σ = 48 px the target is reduced further (powers of two) until σ′ ≤ 12 texels, as long
    /// as it keeps 16 texels a side. A 5,000 pt radius blurred a 4096² target with 8,193 taps per
    /// texel (a hang); near 10³⁰⁰ σ′ overflowed single precision. A radius under a quarter pixel is
    /// no blur (σ 0, not a 1/σ² that underflows in the shader).
    func testAShadowBlursTapsStayBoundedForAnyRadius() {
        func blurs(_ radius: Double) -> [(sigma: Double, side: Int, downsample: Int)] {
            var s = box("shadowed", Rect(20, 20, 40, 30)); s.shadowOpacity = 1; s.shadowRadius = radius
            return plan([s]).offscreenPasses.compactMap { pass in
                guard case .blur(_, let sigma, _, _, let f) = pass.operation else { return nil }
                return (sigma, max(pass.width, pass.height), f)
            }
        }
        for radius in [60.0, 500, 5_000, 1e20, 1e300] {
            let b = blurs(radius)
            XCTAssertEqual(b.count, 3, "radius \(radius): the average, then two blurs")
            for (sigma, side, _) in b {
                XCTAssertTrue(sigma.isFinite && sigma >= 0, "radius \(radius): σ′ \(sigma)")
                XCTAssertTrue(sigma <= 12 || side < 32, "radius \(radius): σ′ \(sigma) in a target of \(side) texels")
            }
        }
        // σ = 60 px: f = 8, σ′ = √(60² − (63/12 + 64/6)) / 8 = 7.40 (was f = 4, σ′ 14.9).
        XCTAssertEqual(blurs(60)[0].downsample, 8)
        XCTAssertEqual(blurs(60)[1].sigma, (3600 - (63.0 / 12 + 64.0 / 6)).squareRoot() / 8, accuracy: 1e-12)
        XCTAssertEqual(blurs(30)[0].downsample, 4, "up to σ 48 px, the factors of before")
        XCTAssertEqual(blurs(1e-30).map(\.sigma), [0, 0], "no blur below a quarter pixel")
        XCTAssertEqual(blurs(0.3).map(\.sigma), [0.3, 0.3])
    }

    /// A shadow spread so thin that no texel reaches half a level of 8 bits draws nothing: the
    /// 40 × 30 pt triangle blurred by σ = 10⁴ px peaks at most at 40/(√(2π)·10⁴) · 30/(√(2π)·10⁴)
    /// = 1.9·10⁻⁶. At σ = 10³⁰⁰ its texture would be scaled by 10⁻³⁰⁰, which cairo cannot invert
    /// (the render failed).
    func testAShadowSpreadBelowHalfALevelIsNotRasterised() {
        var s = box("shadowed", Rect(20, 20, 40, 30)); s.shadowOpacity = 1
        s.shadowPath = Path([.move(Point(0, 0)), .line(Point(40, 0)), .line(Point(0, 30)), .close])
        s.shadowRadius = 100
        XCTAssertEqual(plan([s]).rasterRequests.count, 1, "peak 40/(√(2π)·100) · 30/(√(2π)·100) = 0.019: drawn")
        for radius in [1e4, 1e9, 1e300] {
            s.shadowRadius = radius
            XCTAssertEqual(plan([s]).rasterRequests.count, 0, "radius \(radius)")
            XCTAssertEqual(plan([s]).items.count, 2, "radius \(radius): the root and the layer, no shadow")
        }
    }

    /// A shadowPath is the shadow's shape instead of the layer's alpha, so a layer that draws
    /// nothing still casts it (the shadowPath documentation's "contact shadow").
    func testALayerThatDrawsNothingCastsItsShadowPathsShadow() {
        var s = box("clear", Rect(30, 35, 40, 30), nil)
        s.shadowOpacity = 1; s.shadowRadius = 2
        XCTAssertEqual(plan([s]).items.count, 1, "no shadowPath: no alpha, no shadow (the root's background only)")
        s.shadowPath = .rect(Rect(0, 0, 40, 30))
        XCTAssertEqual(plan([s]).items.count, 2)
        XCTAssertEqual(plan([s]).items.last?.role, .shadow)
        s.shadowPath = Path([.move(Point(0, 0)), .line(Point(40, 0)), .line(Point(0, 30)), .close])
        XCTAssertEqual(plan([s]).items.count, 2)
        XCTAssertEqual(plan([s]).items.last?.role, .shadow)
        XCTAssertEqual(plan([s]).offscreenPasses, [])
    }

    /// A layer left of the canvas (x −60…−20) whose shadow is offset 70 pt right lands at x 10…50:
    /// its content is planned into the pass although it is off the canvas (the culling margin is the
    /// blur's reach plus the offset), and the shadow is drawn back onto the canvas. Before, the
    /// content was culled and the shadow vanished, while the same shadow with a shadowPath drew.
    func testAShadowCastOntoTheCanvasFromALayerOffItIsDrawn() {
        var s = box("off", Rect(-60, 20, 40, 30)); s.shadowOpacity = 1; s.shadowRadius = 2; s.shadowOffset = Size(70, 0)
        let p = plan([s])
        XCTAssertEqual(p.offscreenPasses.map(\.reasons), [[.shadow], [.shadow], [.shadow]])
        guard case .draw(let content)? = p.offscreenPasses.first?.operation else { return XCTFail("a content pass") }
        XCTAssertEqual(content.map(\.role), [.background], "the off-canvas content is in its pass")
        let shadow = p.canvasItems.first { $0.role == .shadow }
        XCTAssertNotNil(shadow)
        // Its device bounds reach into the canvas (x 10…50, grown by the reach).
        if let sh = shadow {
            let device = Rect.bounding(sh.quad.corners.map { sh.transform.apply($0) })
            XCTAssertLessThan(device.minX, 10); XCTAssertGreaterThan(device.maxX, 50)
        }
        // Far enough off that even the shadow misses the canvas: nothing is planned.
        var far = s; far.setFrame(Rect(-200, 20, 40, 30))
        XCTAssertEqual(plan([far]).offscreenPasses, [])
    }

    func testLargeShadowsAreBlurredAtReducedResolution() {
        // σ = 10 pt at scale 1 = 10 px: half resolution, σ' = √(100 − (3/12 + 4/6)) / 2.
        var s = box("shadowed", Rect(20, 20, 40, 30)); s.shadowOpacity = 0.5; s.shadowRadius = 10
        let p = plan([s])
        XCTAssertEqual(p.offscreenPasses.map(\.width), [40 + 2 * 31, 51, 51, 51], "content (grown by 3σ + 1), then half")
        guard case .blur(0, 0, true, _, 2) = p.offscreenPasses[1].operation else { return XCTFail("the 2×2 average, once") }
        guard case .blur(1, let sigma, true, _, 1) = p.offscreenPasses[2].operation else { return XCTFail("half-resolution blur") }
        XCTAssertEqual(sigma, (100 - (3.0 / 12 + 4.0 / 6)).squareRoot() / 2, accuracy: 1e-12)
        XCTAssertEqual(p.canvasItems.suffix(2).first?.uv, Rect(0, 0, 51, 46), "magnified back over the full target")
        XCTAssertEqual(ShadowBlur(sigma: 7.9).downsample, 1)
        XCTAssertEqual(ShadowBlur(sigma: 30).downsample, 4)
    }

    func testMaskRendersTheMaskInTheLayersSpaceAndAppliesItWithDestinationIn() {
        var m = box("masked", Rect(10, 10, 50, 50)); m.mask = box("m", Rect(0, 0, 20, 10), Color(0, 0, 0, 0.5))
        let p = plan([m])
        XCTAssertEqual(p.offscreenPasses.map(\.reasons), [[.mask], [.mask]], "the mask, then the content it is applied to")
        XCTAssertEqual(p.offscreenPasses.map(\.pixelArea), [2500, 2500])
        XCTAssertEqual(p.offscreenPasses[0].items.first.map { $0.transform.apply(Point(0, 0)) }, Point(0, 0),
                       "the mask at the masked layer's origin (the target's top-left)")
        let apply = p.offscreenPasses[1].items.last
        XCTAssertEqual(apply?.blend, .destinationIn)
        XCTAssertEqual(apply?.paint, .offscreen(.pass(0), sampling: .texelFetch, opacity: 1))
        XCTAssertEqual(p.items.count, 2, "logically: the root and the masked layer (the mask draws nothing on screen)")
    }

    func testNestedPassesComeInnermostFirst() {
        var inner = box("inner", Rect(0, 0, 20, 20)); inner.masksToBounds = true; inner.cornerRadius = 4
        inner.sublayers = [box("x", Rect(0, 0, 5, 5))]
        var outer = box("outer", Rect(0, 0, 50, 50)); outer.opacity = 0.5; outer.sublayers = [inner]
        let p = plan([outer])
        XCTAssertEqual(p.offscreenPasses.map(\.reasons), [[.roundedClip], [.groupOpacity]])
        XCTAssertEqual(p.offscreenPasses[1].items.last?.paint, .offscreen(.pass(0), sampling: .texelFetch, opacity: 1))
        XCTAssertEqual(p.items.count, 4, "logically the root, outer, inner and x")
    }

    func testHiddenAndOffCanvasLayersHaveNoPasses() {
        var g = box("group", Rect(0, 0, 50, 50)); g.opacity = 0.5; g.sublayers = [box("c", Rect(0, 0, 10, 10))]
        g.hidden = true
        XCTAssertEqual(plan([g]).offscreenPasses, [])
        g.hidden = false; g.position = Point(500, 500)
        XCTAssertEqual(plan([g]).offscreenPasses, [], "nothing of it on the canvas")
    }
}
