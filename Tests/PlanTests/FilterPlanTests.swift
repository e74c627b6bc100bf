import XCTest
import Geometry
import LayerModel
@testable import Plan

/// Which layers get filter and backdrop passes, and why (reference §1.11b): the chain as passes,
/// colour filters folded, identity chains planned away, captures at their place in the painter's
/// order, backdrop groups sharing one capture.
final class FilterPlanTests: XCTestCase {
    let canvas = Canvas(width: 100, height: 100, scale: 1, backgroundColor: .white)

    func box(_ name: String, _ frame: Rect, _ color: Color? = Color(1, 0, 0)) -> Layer {
        var l = Layer(); l.name = name; l.setFrame(frame); l.backgroundColor = color; return l
    }
    func plan(_ layers: [Layer], canvas: Canvas? = nil) -> FramePlan {
        let c = canvas ?? self.canvas
        var root = box("root", Rect(0, 0, c.width, c.height), .white)
        root.sublayers = layers
        var s = Scene(canvas: c, root: root); s.assignIDs()
        return FramePlanner(canvas: c, images: [:]).plan(root: s.root)
    }
    func blur(_ r: Double, name: String? = nil) -> Filter { var f = Filter(.gaussianBlur, name: name); f.inputRadius = r; return f }
    func kinds(_ p: FramePlan) -> [String] {
        p.offscreenPasses.map { pass in
            switch pass.operation {
            case .draw: return "draw"
            case .blur: return "shadow"
            case .filter(let op):
                switch op.kind {
                case .blur(_, let h, let f, _): return f > 1 ? "down\(f)" : h ? "h" : "v"
                case .colorMatrix: return "matrix"
                case .variableBlur(_, let h, _, _, _, let level):
                    return (h ? "vh" : "vv") + (level == .whole ? "" : "\(level.downsample)")
                }
            case .backdrop: return "capture"
            case .blend: return "blend"
            }
        }
    }

    /// No offscreen target exceeds the largest canvas (16384 px a side), however far a blur or a
    /// shadow reaches: a 50 pt layer blurred with radius 1000 at 3× (reach ≈ 9000 px beyond a
    /// 300 px canvas) and a shadowRadius of 5000 are planned within it.
    func testHugeBlursAndShadowsStayWithinTheLargestCanvas() {
        let c = Canvas(width: 100, height: 100, scale: 3, backgroundColor: .white)
        var blurred = box("l", Rect(25, 25, 50, 50)); blurred.filters = [blur(1000)]
        var shadowed = box("s", Rect(25, 25, 50, 50)); shadowed.shadowOpacity = 1; shadowed.shadowRadius = 5000
        for layer in [blurred, shadowed] {
            let p = plan([layer], canvas: c)
            XCTAssertFalse(p.offscreenPasses.isEmpty)
            for pass in p.offscreenPasses {
                XCTAssertLessThanOrEqual(max(pass.width, pass.height), Canvas.maxPixelSide, "\(layer.name ?? ""): \(pass.width)×\(pass.height)")
            }
            XCTAssertTrue(p.offscreenPasses.contains { max($0.width, $0.height) > 10_000 }, "the reach is kept as far as the limit allows")
        }
    }

    func testABlurredLayerIsRenderedOffscreenThenBlurredInTwoPasses() {
        var l = box("blurred", Rect(20, 20, 40, 30)); l.filters = [blur(4)]
        let p = plan([l])
        XCTAssertEqual(kinds(p), ["draw", "h", "v"])
        XCTAssertTrue(p.offscreenPasses.allSatisfy { $0.reasons == [.filter] })
        // The target grows by ⌈3.5σ⌉ + 1 = 15 px each side of the 40×30 content.
        XCTAssertEqual(p.offscreenPasses[0].width, 70)
        XCTAssertEqual(p.offscreenPasses[0].height, 60)
        XCTAssertEqual(p.offscreenPasses[0].bounds, PixelRect(x: 5, y: 5, width: 70, height: 60))
        guard case .filter(let v) = p.offscreenPasses[2].operation, case .blur(let sigma, false, 1, false) = v.kind else {
            return XCTFail("a vertical blur")
        }
        XCTAssertEqual(sigma, 4)
        XCTAssertEqual(v.source, 1)
        let composite = p.canvasItems.last!
        XCTAssertEqual(composite.paint, .offscreen(.pass(2), sampling: .texelFetch, opacity: 1))
        XCTAssertEqual(p.items.map(\.layer), [0, 1], "logically the root and the blurred layer's background")
    }

    func testTheTargetIsClippedToTheCanvasGrownByTheReach() {
        var l = box("big", Rect(0, 0, 100, 100)); l.filters = [blur(2)]
        let p = plan([l])
        // ⌈7⌉ + 1 = 8 px beyond the canvas, which the blur still reads.
        XCTAssertEqual(p.offscreenPasses[0].width, 116)
        XCTAssertEqual(p.offscreenPasses[0].bounds, PixelRect(x: 0, y: 0, width: 100, height: 100), "the footprint is on the canvas")
    }

    func testALargeRadiusIsBlurredAtAReducedResolution() {
        var l = box("l", Rect(20, 20, 40, 40)); l.filters = [blur(12)]
        XCTAssertEqual(kinds(plan([l])), ["draw", "down2", "h", "v"], "σ 12 px: ½ (ShadowBlur's thresholds)")
        l.filters = [blur(30)]
        let p = plan([l])
        XCTAssertEqual(kinds(p), ["draw", "down4", "h", "v"], "σ 30 px: ¼")
        let full = p.offscreenPasses[0]
        XCTAssertEqual(p.offscreenPasses[1].width, (full.width + 3) / 4)
        guard case .offscreen(.pass(3), .linear, 1) = p.canvasItems.last!.paint else { return XCTFail("magnified bilinearly") }
        XCTAssertEqual(p.canvasItems.last!.uv.width, Double(full.width) / 4)
    }

    func testColourFiltersFoldIntoOnePassAndABlurSplitsThem() {
        var sat = Filter(.colorSaturate); sat.inputAmount = 0
        var l = box("l", Rect(20, 20, 40, 40))
        l.filters = [sat, Filter(.colorInvert)]
        XCTAssertEqual(kinds(plan([l])), ["draw", "matrix"])
        l.filters = [sat, blur(2), Filter(.colorInvert)]
        XCTAssertEqual(kinds(plan([l])), ["draw", "matrix", "h", "v", "matrix"])
    }

    func testIdentityChainsPlanNoPass() {
        var l = box("l", Rect(20, 20, 40, 40))
        l.filters = [blur(0), Filter(.colorSaturate), Filter(.colorContrast), Filter(.colorBrightness), Filter(.colorHueRotate),
                     Filter(.multiplyColor)]
        XCTAssertEqual(plan([l]).offscreenPasses, [], "radius 0 and identity colour filters change nothing")
        l.filters = [Filter(.colorInvert), Filter(.colorInvert)]
        XCTAssertEqual(plan([l]).offscreenPasses, [], "two inversions fold into the identity")
    }

    func testAFilteredLayerWithGroupOpacityAndAMaskIsOneChain() {
        var l = box("l", Rect(20, 20, 40, 40)); l.filters = [blur(2)]; l.opacity = 0.5
        l.sublayers = [box("child", Rect(5, 5, 10, 10), Color(0, 0, 1))]
        l.mask = box("mask", Rect(0, 0, 20, 40), .black)
        let p = plan([l])
        XCTAssertEqual(p.offscreenPasses.first?.reasons, [.filter, .mask, .groupOpacity])
        // The mask applies after the filters: content, blur, then the mask and its application.
        XCTAssertEqual(kinds(p), ["draw", "h", "v", "draw", "draw"])
        XCTAssertEqual(p.offscreenPasses.last?.reasons, [.mask])
    }

    func testABackdropCapturesTheCanvasAtItsPlaceInThePaintersOrder() {
        var bar = Layer(.backdrop); bar.name = "bar"; bar.setFrame(Rect(10, 10, 80, 20)); bar.filters = [blur(3)]
        let p = plan([box("under", Rect(0, 0, 50, 100)), bar, box("over", Rect(60, 0, 40, 100), Color(0, 1, 0))])
        XCTAssertEqual(kinds(p), ["capture", "h", "v"])
        XCTAssertTrue(p.offscreenPasses.allSatisfy { $0.reasons == [.backdrop] })
        guard case .backdrop(let c) = p.offscreenPasses[0].operation else { return XCTFail() }
        XCTAssertEqual(c.canvasItemCount, 2, "the root's and `under`'s backgrounds are captured, not `over`")
        // The bar's bounds grown by ⌈10.5⌉ + 1 = 12 px for the blur, clipped to the canvas.
        XCTAssertEqual(c.region, PixelRect(x: 0, y: 0, width: 100, height: 42))
        XCTAssertEqual(p.canvasItems[2].paint, .offscreen(.pass(2), sampling: .texelFetch, opacity: 1), "the backdrop, then `over`")
        XCTAssertEqual(p.canvasItems[2].quad, Rect(0, 0, 80, 20))
        XCTAssertEqual(p.canvasItems[2].uv, Rect(10, 10, 80, 20))
    }

    func testBackdropScaleShrinksTheCaptureAndGroupsShareOne() {
        var a = Layer(.backdrop); a.setFrame(Rect(0, 0, 100, 40)); a.filters = [blur(2)]; a.backdrop.scale = 0.5
        a.backdrop.groupName = "g"
        var b = a; b.setFrame(Rect(10, 10, 20, 20))
        let p = plan([a, b])
        XCTAssertEqual(kinds(p), ["capture", "h", "v"], "b reuses a's capture: its bounds lie inside it")
        guard case .backdrop(let c) = p.offscreenPasses[0].operation else { return XCTFail() }
        XCTAssertEqual(c.region, PixelRect(x: 0, y: 0, width: 100, height: 48))
        XCTAssertEqual(p.offscreenPasses[0].width, 50)
        XCTAssertEqual(p.offscreenPasses[0].height, 24)
        XCTAssertTrue(p.offscreenPasses.allSatisfy { $0.bounds == c.region }, "every pass of the chain covers the region on screen")
        XCTAssertEqual(p.canvasItems.filter { $0.role == .offscreen }.count, 2)
        b.backdrop.groupName = nil
        XCTAssertEqual(kinds(plan([a, b])), ["capture", "h", "v", "capture", "h", "v"], "without the group, a capture each")
    }

    func testBackgroundFiltersCaptureBeneathTheLayer() {
        var l = box("l", Rect(10, 10, 30, 30), Color(1, 1, 1, 0.5)); l.backgroundFilters = [Filter(.colorInvert)]
        let p = plan([l])
        XCTAssertEqual(kinds(p), ["capture", "matrix"])
        XCTAssertEqual(p.canvasItems.map(\.role), [.background, .offscreen, .background], "root, the backdrop, then l's background")
    }

    /// A backdrop inside an offscreen target reads that target (its backdrop root): the capture
    /// is a draw of what the group drew before it (its background and `a`, moved to the capture's
    /// region), then the blur; the profiler sees one capture (the backdrop as one logical item,
    /// `a` once).
    func testABackdropInsideAGroupCapturesTheGroupSoFar() {
        var bar = Layer(.backdrop); bar.setFrame(Rect(0, 0, 20, 20)); bar.filters = [blur(3)]
        var group = box("group", Rect(10, 10, 50, 50)); group.opacity = 0.5
        group.sublayers = [box("a", Rect(0, 0, 10, 10), Color(0, 1, 0)), bar]
        let p = plan([group])
        XCTAssertEqual(kinds(p), ["draw", "h", "v", "draw"])
        XCTAssertEqual(p.unsupported.count, 0)
        XCTAssertEqual(p.offscreenPasses[0].reasons, [.backdrop])
        XCTAssertEqual(p.offscreenPasses[3].reasons, [.groupOpacity])
        // The bar's device bounds (10, 10, 20, 20) grown by the blur's reach (12 px), clipped to the canvas.
        XCTAssertEqual(p.offscreenPasses[0].bounds, PixelRect(x: 0, y: 0, width: 42, height: 42))
        let captured = p.offscreenPasses[0].items
        XCTAssertEqual(captured.map(\.paint), [.solid(RGBA(1, 0, 0, 1)), .solid(RGBA(0, 1, 0, 1))])
        XCTAssertEqual(captured[1].transform.m41, 10, "a at (10, 10) on the canvas is at (10, 10) in a capture from (0, 0)")
        let green = p.items.filter { if case .solid(let c) = $0.paint { return c.r == 0 && c.g > 0 }; return false }
        XCTAssertEqual(green.count, 1, "a is one logical draw, faded with its group, not counted again for the capture")
        XCTAssertEqual(p.items.filter { $0.role == .offscreen }.count, 1, "the backdrop")
    }

    /// Backdrops without filters inside an offscreen target (a replicator's instances in a faded
    /// group): each capture is a draw of what the group drew before it, the earlier backdrops
    /// included, and the plan's logical items show each as one capture, so they grow with the
    /// backdrops. Expanded as content, each backdrop doubled them (a caml-dtd fuzz finding: 100
    /// backdrops took minutes and more than 2 GB; 20 here would be a million items).
    func testBackdropsWithoutFiltersInsideAGroupAreOneLogicalItemEach() {
        var group = box("group", Rect(0, 0, 100, 100)); group.opacity = 0.5
        group.sublayers = (0..<20).map { i in
            var bar = Layer(.backdrop); bar.setFrame(Rect(Double(i), Double(i), 20, 20)); return bar
        }
        let p = plan([group])
        XCTAssertEqual(p.unsupported.count, 0)
        XCTAssertEqual(p.offscreenPasses.filter { $0.reasons == [.backdrop] }.count, 20, "one capture each")
        XCTAssertEqual(p.offscreenPasses.filter { $0.reasons == [.backdrop] }.last?.items.count, 20,
                       "the last captures the group's background and the 19 backdrops before it")
        XCTAssertEqual(p.items.filter { $0.role == .offscreen }.count, 20, "each backdrop once")
        XCTAssertEqual(p.items.count, 22, "the root's and the group's backgrounds, then the backdrops")
    }

    /// n backdrops in one offscreen target would draw n²/2 items again into their captures: past
    /// the frame's budget the rest capture nothing and are reported, and the plan stays bounded
    /// (1000 such backdrops took 1.6 GB and 7 s to plan a frame).
    func testBackdropsInsideAGroupDrawingTooMuchAgainAreReported() {
        var group = box("group", Rect(0, 0, 100, 100)); group.opacity = 0.5
        group.sublayers = (0..<600).map { i in
            var bar = Layer(.backdrop); bar.name = "bar\(i)"; bar.setFrame(Rect(Double(i % 80), 0, 20, 20)); return bar
        }
        let p = plan([group])
        let captures = p.offscreenPasses.filter { $0.reasons == [.backdrop] }
        XCTAssertLessThanOrEqual(captures.map(\.items.count).reduce(0, +), Builder.maxBackdropCaptureItems)
        // Backdrop k captures the group's background and the k backdrops before it.
        let within = (0..<600).prefix { k in (0...k).map { $0 + 1 }.reduce(0, +) <= Builder.maxBackdropCaptureItems }.count
        XCTAssertEqual(within, 446)
        XCTAssertEqual(captures.count, within)
        XCTAssertEqual(p.unsupported.count, 600 - within)
        XCTAssertTrue(p.unsupported.first?.feature.contains("bar446: its backdrop inside an offscreen target would draw more than 100000 items") ?? false,
                      p.unsupported.first?.feature ?? "")
        XCTAssertEqual(p.items.filter { $0.role == .offscreen }.count, within, "the others draw nothing")
    }

    /// Where nothing can be read, a nested backdrop is still reported: inside a mask's layers.
    func testABackdropInsideAMaskIsReported() {
        var bar = Layer(.backdrop); bar.setFrame(Rect(0, 0, 20, 20)); bar.filters = [blur(3)]
        var mask = box("mask", Rect(0, 0, 50, 50)); mask.sublayers = [bar]
        var l = box("l", Rect(10, 10, 50, 50)); l.mask = mask
        let p = plan([l])
        XCTAssertEqual(p.unsupported.count, 1)
        XCTAssertTrue(p.unsupported[0].feature.contains("inside a mask's layers"), p.unsupported[0].feature)
    }

    /// A backdrop whose bounds reach past what a Double holds on the device (10³⁰⁸ pt tall at 2×)
    /// cannot be placed: reported, nothing captured (its texel coordinates were infinite; an
    /// effects fuzz finding).
    func testABackdropWhoseBoundsOverflowOnTheDeviceIsReported() {
        var bar = Layer(.backdrop); bar.name = "bar"
        bar.bounds = Rect(0, 0, 40, .greatestFiniteMagnitude); bar.position = Point(20, -75)
        let p = plan([bar], canvas: Canvas(width: 50, height: 100, scale: 2, backgroundColor: .white))
        XCTAssertEqual(p.offscreenPasses.count, 0, "nothing captured")
        XCTAssertEqual(p.unsupported.count, 1)
        XCTAssertTrue(p.unsupported.first?.feature.contains("bounds reach past") ?? false, "\(p.unsupported)")
    }

    /// A variableBlur with σ under 8 px is two full-resolution passes reading its mask, as a
    /// gaussianBlur of that σ would be (no reduction below σ 8).
    func testASmallVariableBlurIsTwoFullResolutionPassesReadingItsMask() {
        let p = variablePlan(radius: 7.5, scale: 1)
        XCTAssertEqual(kinds(p), ["draw", "vh", "vv"])
        guard case .filter(let op) = p.offscreenPasses[1].operation,
              case .variableBlur(7.5, true, false, let image, let rect, .whole) = op.kind else { return XCTFail("a variable blur") }
        XCTAssertNil(op.coarse)
        XCTAssertEqual(p.images[image].key, 9)
        // The target grows by ⌈3.5 · 7.5⌉ + 1 = 28 px each side: the bounds sit 28 px in.
        XCTAssertEqual(rect, Rect(28, 28, 40, 40), "the mask stretched over the layer's bounds in the target")
        XCTAssertEqual(p.offscreenPasses[0].bounds, PixelRect(x: 0, y: 0, width: 88, height: 88), "the footprint (−8 … 88), clipped to the canvas")
        // Without its image, a variableBlur is a gaussianBlur.
        var l = box("l", Rect(20, 20, 40, 40)); var f = Filter(.variableBlur); f.inputRadius = 30; l.filters = [f]
        XCTAssertEqual(kinds(plan([l])), ["draw", "down4", "h", "v"])
    }

    /// From σ 8 px each texel is blurred at the resolution its own σₜ would be (Gaussian blur's
    /// reductions): σ 30 px is three levels, full (σₜ < 8), ½ (8 … 24) and ¼ (24 and beyond), the
    /// copies averaged 2×2 each, blurred coarsest first, each vertical pass reading the coarser
    /// level's result; the mask's rectangle and σ′ scale with the level.
    func testALargerVariableBlurIsAPyramidOfLevels() throws {
        let p = variablePlan(radius: 30, scale: 1)
        XCTAssertEqual(kinds(p), ["draw", "down2", "down2", "vh4", "vv4", "vh2", "vv2", "vh1", "vv1"])
        let passes = p.offscreenPasses
        // 40 + 2 · (⌈3.5 · 30⌉ + 1) = 252 texels; the levels ⌈252/2⌉ = 126 and 63.
        XCTAssertEqual(passes.map(\.width), [252, 126, 63, 63, 63, 126, 126, 252, 252])
        func op(_ i: Int) throws -> FilterOperation {
            guard case .filter(let op) = passes[i].operation else { return try XCTUnwrap(nil, "pass \(i) is not a filter step") }
            return op
        }
        XCTAssertEqual(try op(1).source, 0); XCTAssertEqual(try op(2).source, 1)
        XCTAssertEqual(try [3, 4, 5, 6, 7, 8].map { try op($0).source }, [2, 3, 1, 5, 0, 7])
        XCTAssertEqual(try [3, 4, 5, 6, 7, 8].map { try op($0).coarse }, [nil, nil, nil, 4, nil, 6])
        guard case .variableBlur(30, false, false, _, let rect, let level) = try op(4).kind else { return XCTFail("level ¼") }
        XCTAssertEqual(rect, Rect(106.0 / 4, 106.0 / 4, 10, 10))
        // Averaging 4×4: (16 − 1)/12 texels²; magnified 4× then 2×: 16/6 + 4/6.
        XCTAssertEqual(level.downsample, 4)
        XCTAssertEqual(level.variance, 15.0 / 12 + 16.0 / 6 + 4.0 / 6, accuracy: 1e-12)
        XCTAssertEqual(level.upper, .infinity, "the coarsest level draws every σₜ beyond 24")
        // σₜ 30: √((900 − variance)/16 − 1/12) ≈ 7.44 texels of ¼.
        XCTAssertEqual(level.reducedSigma(30), ((900 - level.variance) / 16 - 1.0 / 12).squareRoot(), accuracy: 1e-12)
        guard case .variableBlur(_, _, _, _, _, let half) = try op(6).kind,
              case .variableBlur(_, _, _, _, _, let full) = try op(8).kind else { return XCTFail("levels ½ and full") }
        XCTAssertEqual([half.upper, full.upper], [24, 8])
        XCTAssertEqual(full.reducedSigma(30), 8, "full resolution draws σₜ up to 8")
        XCTAssertEqual(half.reducedSigma(8), ((64 - 3.0 / 12 - 4.0 / 6) / 4 - 1.0 / 12).squareRoot(), accuracy: 1e-12)
        // The target runs from −86 to 166 px: its full-resolution level draws only the canvas's 100 px
        // (texels 86 … 186), the horizontal pass also the 28 rows (⌈3.5 · 8⌉) the vertical one reads
        // above and below; the reduced levels draw whole.
        XCTAssertEqual(try op(8).region, PixelRect(x: 86, y: 86, width: 100, height: 100))
        XCTAssertEqual(try op(7).region, PixelRect(x: 86, y: 58, width: 100, height: 156))
        XCTAssertEqual(try (1...6).map { try op($0).region }, Array(repeating: nil, count: 6))
        XCTAssertFalse(try op(8).writesFloat, "the result is 8-bit")
        XCTAssertTrue(try op(4).writesFloat, "a coarser level, which a finer one magnifies, is half-float")
    }

    /// A variableBlur's taps stay bounded at any radius (a full-resolution gather cost σ³: 5,000 pt
    /// did not finish): every level below the coarsest blurs with at most 12 of its texels (8 at
    /// full resolution), and the coarsest with at most 12 unless its target is under 32 texels a
    /// side. Its σ is bounded by what its targets hold, 512 px: beyond, it is drawn at 512 and
    /// reported once for the layer.
    func testAVariableBlursTapsStayBoundedAndItsRadiusIsCapped() {
        for radius in [64.0, 256, 257, 5_000, 1e300] {
            let p = variablePlan(radius: radius, scale: 2)
            var levels = 0, sigmas = Set<Double>()
            for pass in p.offscreenPasses {
                guard case .filter(let op) = pass.operation, case .variableBlur(let sigma, _, _, _, _, let level) = op.kind else { continue }
                levels += 1
                sigmas.insert(sigma)
                let largest = level.reducedSigma(sigma)
                if level.downsample == 1 { XCTAssertEqual(largest, 8, "radius \(radius)") }
                if level.upper.isFinite || max(pass.width, pass.height) >= 32 {
                    XCTAssertLessThanOrEqual(largest, 12.01, "radius \(radius), level ×\(level.downsample): σ′ \(largest)")
                }
            }
            XCTAssertEqual(sigmas, [min(radius * 2, 512)], "radius \(radius) at 2×")
            XCTAssertGreaterThanOrEqual(levels, 2 * 5, "radius \(radius): at least 5 levels (σ 128 texels and more)")
            if radius <= 256 {
                XCTAssertEqual(p.unsupported, [], "radius \(radius)")
            } else {
                XCTAssertEqual(p.unsupported.count, 1, "radius \(radius): reported once")
                XCTAssertTrue(p.unsupported.first?.feature.contains("variableBlur's radius passes 512 px") ?? false)
            }
        }
    }

    /// A variableBlur's mask lies over the layer's bounds as they lie on the screen: their bounding
    /// box, upright (Core Animation's rule is undocumented; docs/scene-format.md). A layer turned
    /// 45° about its centre: a 40√2 square about the same centre.
    func testAVariableBlursMaskCoversTheBoundingBoxOfATurnedLayer() throws {
        let p = variablePlan(radius: 5, scale: 1, transform: .rotation(.pi / 4, 0, 0, 1))
        guard case .filter(let op) = try XCTUnwrap(p.offscreenPasses.last?.operation),
              case .variableBlur(_, _, _, _, let rect, _) = op.kind else { return XCTFail("a variable blur") }
        XCTAssertEqual(rect.width, 40 * 2.squareRoot(), accuracy: 1e-9)
        XCTAssertEqual(rect.height, 40 * 2.squareRoot(), accuracy: 1e-9)
        XCTAssertEqual(rect.midX, rect.midY, accuracy: 1e-9, "about the layer's centre, like the target")
    }

    func variablePlan(radius: Double, scale: Double, transform: Transform3D = .identity) -> FramePlan {
        let mask = ImageSource(origin: .file("/mask.png"), location: SourceLocation(file: "t", pointer: "", line: 1, column: 1))
        var f = Filter(.variableBlur); f.inputRadius = radius; f.inputMaskImage = mask
        var l = box("l", Rect(20, 20, 40, 40)); l.filters = [f]; l.transform = transform
        let c = Canvas(width: 100, height: 100, scale: scale, backgroundColor: .white)
        var root = box("root", Rect(0, 0, 100, 100), .white); root.sublayers = [l]
        var s = Scene(canvas: c, root: root); s.assignIDs()
        return FramePlanner(canvas: c, images: [mask.origin: ImageInfo(key: 9, width: 2, height: 1)]).plan(root: s.root)
    }

    /// A gaussianBlur filter's taps per texel stay bounded for any radius: beyond σ = 192 px the
    /// reduction goes past 16× (powers of two) until σ′ ≤ 12 texels while the target keeps 16 texels
    /// a side. A 5,000 pt radius took 11 s at 16× (σ′ 625 texels), 10²⁰ did not finish; σ under a
    /// quarter pixel is no blur.
    func testAFilterBlursTapsStayBoundedForAnyRadius() {
        func blurs(_ radius: Double) -> [(sigma: Double, side: Int)] {
            var l = box("blurred", Rect(20, 20, 40, 30))
            var f = Filter(.gaussianBlur); f.inputRadius = radius
            l.filters = [f]
            return plan([l]).offscreenPasses.compactMap { pass in
                guard case .filter(let op) = pass.operation, case .blur(let sigma, _, 1, _) = op.kind else { return nil }
                return (sigma, max(pass.width, pass.height))
            }
        }
        for radius in [100.0, 5_000, 1e20, 1e300] {
            let b = blurs(radius)
            XCTAssertEqual(b.count, 2, "radius \(radius)")
            for (sigma, side) in b {
                XCTAssertTrue(sigma.isFinite && sigma >= 0, "radius \(radius): σ′ \(sigma)")
                XCTAssertTrue(sigma <= 12 || side < 32, "radius \(radius): σ′ \(sigma) in a target of \(side) texels")
            }
        }
        XCTAssertEqual(blurs(1e-30).map(\.sigma), [0, 0])
    }
}
