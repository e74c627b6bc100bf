import XCTest
import Geometry
import LayerModel
@testable import Plan

/// How the plan executes a compositingFilter (reference §1.11b): which modes are blend states,
/// which layers get `filter` passes and what those passes hold.
final class CompositingFilterPlanTests: XCTestCase {
    let canvas = Canvas(width: 100, height: 100, scale: 1, backgroundColor: .white)

    func box(_ name: String, _ frame: Rect, _ color: Color? = Color(1, 0, 0)) -> Layer {
        var l = Layer(); l.name = name; l.setFrame(frame); l.backgroundColor = color; return l
    }
    func plan(_ layers: [Layer], canvas: Canvas? = nil) -> FramePlan {
        let c = canvas ?? self.canvas
        var root = box("root", Rect(0, 0, c.width, c.height), c.backgroundColor == nil ? nil : .white)
        root.sublayers = layers
        var s = Scene(canvas: c, root: root); s.assignIDs()
        return FramePlanner(canvas: c, images: [:]).plan(root: s.root)
    }
    func blended(_ mode: CompositingFilter, sublayers: Int = 0) -> Layer {
        var l = box("blend", Rect(10, 20, 30, 40), Color(0, 0, 1))
        l.compositingFilter = mode
        for i in 0..<sublayers { l.sublayers.append(box("child \(i)", Rect(Double(i) * 5, 0, 5, 5), Color(0, 1, 0))) }
        return l
    }

    /// Premultiplied fixed-function blending computes cs·Fa + cb·Fb with factors from the source's
    /// colour/alpha and the destination's alpha: screen (Fb = 1 − cs), plusL (1, 1, then the target's
    /// clamp) and every Porter-Duff operator fit; modes that need Cb inside a non-linear B, or
    /// αs·αb products beside the factors (multiply: cs·cb + cs·(1 − αb) + cb·(1 − αs)), do not.
    func testWhichModesAreBlendStates() {
        let fixed: Set<CompositingFilter> = [.screenBlendMode, .sourceAtop, .sourceIn, .sourceOut, .destinationOver,
                                             .destinationIn, .destinationOut, .xor, .plusL]
        for mode in CompositingFilter.allCases {
            switch CompositingExecution(mode) {
            case .sourceOver: XCTAssertEqual(mode, .normalBlendMode)
            case .fixedFunction: XCTAssertTrue(fixed.contains(mode), "\(mode)")
            case .shader: XCTAssertFalse(fixed.contains(mode) || mode == .normalBlendMode, "\(mode)")
            }
        }
        XCTAssertEqual(CompositingExecution(.multiplyBlendMode), .shader(.multiply))
        XCTAssertEqual(CompositingExecution(.plusD), .shader(.plusDarker))
        XCTAssertEqual(CompositingExecution(.sourceIn), .fixedFunction(.sourceIn, confined: true))
        XCTAssertEqual(CompositingExecution(.destinationIn), .fixedFunction(.layerDestinationIn, confined: true))
        XCTAssertEqual(CompositingExecution(.xor), .fixedFunction(.xor, confined: false))
    }

    func testNormalBlendModeIsPlainSourceOver() {
        let p = plan([blended(.normalBlendMode, sublayers: 2)])
        XCTAssertEqual(p.offscreenPasses, [])
        XCTAssertTrue(p.canvasItems.allSatisfy { $0.blend == .sourceOver })
    }

    func testABlendStateModeOverOneDrawNeedsNoPass() {
        let p = plan([blended(.screenBlendMode)])
        XCTAssertEqual(p.offscreenPasses, [])
        XCTAssertEqual(p.canvasItems.map(\.blend), [.sourceOver, .screen], "the root's background, then the layer")
        XCTAssertEqual(p.items.last?.blend, .screen, "the profiler sees the mode")
    }

    func testABlendStateModeOverMoreDrawsFlattensTheLayerOnce() {
        let p = plan([blended(.plusL, sublayers: 2)])
        XCTAssertEqual(p.offscreenPasses.map(\.reasons), [[.filter]])
        XCTAssertEqual(p.offscreenPasses[0].items.count, 3, "background and two sublayers, source-over inside")
        XCTAssertTrue(p.offscreenPasses[0].items.allSatisfy { $0.blend == .sourceOver })
        XCTAssertEqual(p.offscreenPasses[0].bounds, PixelRect(x: 10, y: 20, width: 30, height: 40))
        let composite = p.canvasItems.last
        XCTAssertEqual(composite?.paint, .offscreen(.pass(0), sampling: .texelFetch, opacity: 1))
        XCTAssertEqual(composite?.blend, .plusLighter)
        XCTAssertEqual(p.items.suffix(3).map(\.blend), [.plusLighter, .plusLighter, .plusLighter],
                       "logical items: the layer's three draws, each composited with the mode")
    }

    func testOperatorsThatClearWhereTheSourceIsTransparentAlwaysFlatten() {
        for mode in [CompositingFilter.sourceIn, .sourceOut, .destinationIn] {
            let p = plan([blended(mode)])
            XCTAssertEqual(p.offscreenPasses.map(\.reasons), [[.filter]], "\(mode)")
            XCTAssertEqual(p.offscreenPasses.first?.bounds, PixelRect(x: 10, y: 20, width: 30, height: 40),
                           "\(mode): confined to the layer's device bounding box")
        }
    }

    func testAShaderModeFlattensCopiesTheDestinationAndBlends() {
        var below = box("below", Rect(0, 0, 50, 50), Color(1, 1, 0))
        below.name = "below"
        let p = plan([below, blended(.multiplyBlendMode)])
        XCTAssertEqual(p.offscreenPasses.map(\.reasons), [[.filter], [.filter], [.filter]])
        let r = PixelRect(x: 10, y: 20, width: 30, height: 40)
        XCTAssertEqual(p.offscreenPasses.map(\.bounds), [r, r, r])
        XCTAssertTrue(p.offscreenPasses.allSatisfy { $0.width == 30 && $0.height == 40 })
        XCTAssertEqual(p.offscreenPasses[0].items.count, 1, "the layer")
        // The destination: the canvas background, then every item drawn before the layer (the
        // root's background and `below`), moved to the target's origin.
        let dst = p.offscreenPasses[1].items
        XCTAssertEqual(dst.count, 3)
        XCTAssertEqual(dst.first?.paint, .solid(RGBA(1, 1, 1, 1)))
        XCTAssertEqual(dst.first?.quad, Rect(0, 0, 30, 40))
        XCTAssertEqual(dst.last?.transform.m41, -10)
        XCTAssertEqual(dst.last?.transform.m42, -20)
        XCTAssertEqual(p.offscreenPasses[2].operation, .blend(source: 0, destination: 1, formula: .multiply))
        let composite = p.canvasItems.last
        XCTAssertEqual(composite?.paint, .offscreen(.pass(2), sampling: .texelFetch, opacity: 1))
        XCTAssertEqual(composite?.blend, .replace, "the blend's result already holds what lay beneath")
        XCTAssertEqual(p.items.last?.blend, .blendMode)
        XCTAssertEqual(p.items.last?.layer, p.offscreenPasses[0].layer)
        XCTAssertEqual(p.items.count, 3, "logical: the root, below and the layer (the destination is not drawn twice)")
    }

    func testOnATransparentCanvasTheDestinationHasNoBackground() {
        let clear = Canvas(width: 100, height: 100, scale: 1, backgroundColor: nil)
        let p = plan([blended(.hueBlendMode)], canvas: clear)
        XCTAssertEqual(p.offscreenPasses[1].items, [], "nothing beneath: the destination pass stays transparent")
    }

    func testInsideAnOffscreenGroupTheModeBlendsWithTheGroupOnly() {
        var group = box("group", Rect(0, 0, 60, 60), Color(0, 1, 1))
        group.masksToBounds = true
        group.cornerRadius = 8
        group.sublayers = [blended(.overlayBlendMode)]
        let p = plan([group])
        // The blend's three passes come first (they are planned inside the group), then the group's.
        XCTAssertEqual(p.offscreenPasses.map(\.reasons), [[.filter], [.filter], [.filter], [.roundedClip]])
        let dst = p.offscreenPasses[1].items
        XCTAssertEqual(dst.count, 1, "only the group's background: no canvas background inside a group")
        XCTAssertEqual(dst.first?.paint, .solid(RGBA(0, 1, 1, 1)))
        XCTAssertEqual(p.offscreenPasses[3].items.last?.blend, .replace)
    }

    func testTheLayersOwnEffectsAreFlattenedFirst() {
        var l = blended(.differenceBlendMode, sublayers: 1)
        l.opacity = 0.5
        let p = plan([l])
        XCTAssertEqual(p.offscreenPasses.map(\.reasons), [[.groupOpacity], [.filter], [.filter], [.filter]])
        XCTAssertEqual(p.offscreenPasses[1].items.first?.paint, .offscreen(.pass(0), sampling: .texelFetch, opacity: 0.5),
                       "the faded group is the blend's source")
    }
}

extension CompositingFilterPlanTests {
    /// n blend-mode siblings would draw n²/2 items again: beyond the frame's budget the rest are
    /// composited source-over and reported once each, and the plan stays bounded.
    func testBlendModesDrawingTooMuchAgainAreReportedAndCompositedSourceOver() {
        let layers = (0..<500).map { i -> Layer in
            var l = box("b\(i)", Rect(Double(i % 10) * 10, Double(i / 10 % 10) * 10, 10, 10), Color(0, 0, 1))
            l.compositingFilter = .multiplyBlendMode
            return l
        }
        let p = plan(layers)
        let copied = p.offscreenPasses.filter { if case .draw = $0.operation { return true }; return false }
            .map(\.items.count).reduce(0, +)
        XCTAssertLessThanOrEqual(copied, Builder.maxBlendDestinationItems + 500 + 1000, "destinations within the budget (plus the sources and backgrounds)")
        // Layer k has k + 1 items beneath it (the root and k siblings): the budget holds the first 446.
        let within = (0..<500).prefix { k in (0...k).map { $0 + 1 }.reduce(0, +) <= Builder.maxBlendDestinationItems }.count
        XCTAssertEqual(within, 446)
        XCTAssertEqual(p.offscreenPasses.filter { if case .blend = $0.operation { return true }; return false }.count, within)
        XCTAssertEqual(p.unsupported.count, 500 - within)
        XCTAssertTrue(p.unsupported.first?.feature.contains("b446: its compositingFilter would draw more than 100000 items") ?? false,
                      p.unsupported.first?.feature ?? "")
        XCTAssertEqual(p.canvasItems.last?.blend, .sourceOver)
    }
}

extension CompositingFilterPlanTests {
    /// A blend over the whole canvas replaces every pixel: what lies beneath is drawn once, in the
    /// destination pass, not on the canvas too; the profiler still sees it, beneath the layer.
    func testAFullScreenBlendTakesWhatLiesBeneathOffTheCanvas() {
        var card = box("card", Rect(20, 20, 40, 30), Color(0, 1, 0))
        card.cornerRadius = 6
        var top = box("top", Rect(0, 0, 100, 100), Color(1, 0.5, 0))
        top.compositingFilter = .softLightBlendMode
        let p = plan([card, top])
        XCTAssertEqual(p.offscreenPasses.map(\.reasons), [[.filter], [.filter], [.filter]])
        XCTAssertEqual(p.canvasItems.count, 1, "only the blend's result")
        XCTAssertEqual(p.canvasItems.first?.blend, .replace)
        XCTAssertEqual(p.offscreenPasses[1].items.count, 3, "the canvas background, the root's and the card")
        XCTAssertEqual(p.items.map(\.layer), [0, 1, 2], "logical: root, card, top, in order")
        XCTAssertEqual(p.items.map(\.blend), [.sourceOver, .sourceOver, .blendMode])
        XCTAssertEqual(p.items[1].transform.m41, 20, "the card where it is on the canvas")
        XCTAssertEqual(p.items[1].shape?.radii, [6, 6, 6, 6])
    }

    func testWhatReachesBeyondTheBoxStaysOnTheTarget() {
        // The card's rounded edge ramps one device pixel beyond its quad, which touches the box's edge.
        var card = box("card", Rect(20, 20, 40, 30), Color(0, 1, 0))
        card.cornerRadius = 6
        var top = box("top", Rect(20, 20, 40, 30), Color(1, 0.5, 0))
        top.compositingFilter = .colorBurnBlendMode
        let root = box("root", Rect(0, 0, 100, 100), nil)
        var r = root; r.sublayers = [card, top]
        var s = Scene(canvas: canvas, root: r); s.assignIDs()
        let p = FramePlanner(canvas: canvas, images: [:]).plan(root: s.root)
        XCTAssertEqual(p.canvasItems.count, 2, "the card stays (and is drawn again as the destination)")
        XCTAssertEqual(p.items.map(\.layer), [1, 2])
    }

    /// Two full-screen blends: the second takes the first's result off the canvas. The first still
    /// lies over the canvas's background, so its destination gets it (its pixels read Cb = the
    /// background, reference §1.11b), and the profiler sees each layer once, in order.
    func testABlendTakenOffTheCanvasStillReadsTheCanvasBackground() {
        var first = box("first", Rect(0, 0, 100, 100), Color(0.6, 0.4, 0.2))
        first.compositingFilter = .multiplyBlendMode
        var second = box("second", Rect(0, 0, 100, 100), Color(0.8, 0.8, 0.4))
        second.compositingFilter = .multiplyBlendMode
        let p = plan([first, second])
        // Per blend: source, destination, blend; the first's at 0–2, the second's at 3–5.
        XCTAssertEqual(p.offscreenPasses.count, 6)
        XCTAssertEqual(p.canvasItems.count, 1, "only the second blend's result")
        XCTAssertEqual(p.offscreenPasses[1].items.map(\.role), [.background, .background],
                       "the canvas's background, then the root's")
        XCTAssertEqual(p.offscreenPasses[4].items.map(\.role), [.background, .offscreen],
                       "the canvas's background, then the first blend's result")
        XCTAssertEqual(p.items.map(\.layer), [0, 1, 2])
        XCTAssertEqual(p.items.map(\.blend), [.sourceOver, .blendMode, .blendMode])
    }

    /// A blurred shadow beneath (one analytic item, with a shadowPath) reaches 3σ beyond its
    /// shape: it stays on the canvas when that reach crosses the box's edge, though its shape and
    /// the layer lie within.
    func testAShadowReachingBeyondTheBoxStaysOnTheTarget() {
        var card = box("card", Rect(30, 30, 40, 40), Color(0, 1, 0))
        card.shadowOpacity = 1; card.shadowRadius = 4; card.shadowOffset = Size(0, 0)
        card.shadowPath = .rect(Rect(0, 0, 40, 40))
        var top = box("top", Rect(25, 25, 50, 50), Color(1, 0.5, 0))
        top.compositingFilter = .overlayBlendMode
        let root = box("root", Rect(0, 0, 100, 100), nil)
        var r = root; r.sublayers = [card, top]
        var s = Scene(canvas: canvas, root: r); s.assignIDs()
        let p = FramePlanner(canvas: canvas, images: [:]).plan(root: s.root)
        XCTAssertEqual(p.canvasItems.map(\.role), [.shadow, .background, .offscreen],
                       "the card's shadow and the card stay on the canvas")
        XCTAssertEqual(p.canvasItems.last?.blend, .replace)
    }

    /// A fade plans its two states into one list and weighs each by its place in it (previous
    /// 1 − p, next p: TransitionState). A blend-mode next state over the previous one must leave
    /// the previous state in that list, or the weights would fall on the wrong items.
    func testABlendModeNextStateOfAFadeLeavesThePreviousStateInTheMix() {
        var old = box("old", Rect(0, 0, 100, 100), Color(0, 0, 1))
        old.transitionState = TransitionState(role: .previous, dissolve: 0.25)
        var new = box("new", Rect(0, 0, 100, 100), Color(1, 0.5, 0))
        new.compositingFilter = .multiplyBlendMode
        new.transitionState = TransitionState(role: .next, dissolve: 0.25)
        var root = box("root", Rect(0, 0, 100, 100), nil)
        root.sublayers = [old, new]
        var s = Scene(canvas: canvas, root: root); s.assignIDs()
        let p = FramePlanner(canvas: canvas, images: [:]).plan(root: s.root)
        guard let mix = p.offscreenPasses.last(where: { $0.reasons == [.transition] }) else {
            return XCTFail("a fade mixes its states in a transition pass, planned last")
        }
        let weights = mix.items.map { item -> Float? in
            if case .offscreen(_, _, let opacity) = item.paint { return opacity }
            return nil
        }
        XCTAssertEqual(weights, [0.75, 0.25], "the previous state at 1 − p, the next (its blend's result) at p")
        XCTAssertEqual(mix.items.map(\.layer), [1, 2])
    }

    /// A group (opacity 0.5 over three draws: one offscreen target) whose last sublayer blends over
    /// the whole group: what lies beneath within the group's target is moved, never what lies
    /// outside it (the canvas's card stays on the canvas).
    func tree(group configure: (inout Layer) -> Void) -> Layer {
        let outside = box("outside", Rect(70, 70, 20, 20), Color(0, 1, 0))
        var group = box("group", Rect(10, 10, 50, 50), Color(0, 0, 1))
        configure(&group)
        var top = box("top", Rect(0, 0, 50, 50), Color(1, 0.5, 0))
        top.compositingFilter = .multiplyBlendMode
        group.sublayers = [box("card", Rect(5, 5, 20, 20), Color(1, 1, 0)), top]
        var root = box("root", Rect(0, 0, 100, 100), nil)
        root.sublayers = [outside, group]
        var s = Scene(canvas: canvas, root: root); s.assignIDs()
        return s.root
    }

    func testABlendInsideAGroupMovesOnlyWhatLiesBeneathInTheGroup() {
        let p = FramePlanner(canvas: canvas, images: [:]).plan(root: tree { $0.opacity = 0.5 })
        XCTAssertEqual(p.canvasItems.map(\.layer), [1, 2], "the outside card, then the group's composite")
        guard let group = p.offscreenPasses.last(where: { $0.reasons == [.groupOpacity] }) else {
            return XCTFail("opacity over several draws is a group")
        }
        XCTAssertEqual(group.items.map(\.blend), [.replace], "the group's own draws were moved into the blend's destination")
        // Logical: outside (1), group's background (2), card (3), top (4), in render order.
        XCTAssertEqual(p.items.map(\.layer), [1, 2, 3, 4])
        XCTAssertEqual(p.items[2].transform.m41, 15, "the card where it is on the canvas: 10 + 5")
        XCTAssertEqual(p.items[2].transform.m42, 15)
    }

    /// The same group rasterised: on the second frame the bitmap is a hit (its passes are not
    /// planned again), and the profiler still sees the moved items inside it, in place.
    func testABlendInsideARasterizedLayerKeepsItsMovedItemsOnAHit() {
        let root = tree { $0.shouldRasterize = true }
        let planner = FramePlanner(canvas: canvas, images: [:])
        var cache = RasterCache()
        _ = planner.plan(root: root, rasterCache: &cache, time: 0)
        let p = planner.plan(root: root, rasterCache: &cache, time: 1.0 / 60)
        XCTAssertEqual(p.rasterCache.map(\.miss), [nil], "a hit")
        XCTAssertTrue(p.offscreenPasses.isEmpty, "a hit draws the bitmap from the earlier frame")
        XCTAssertEqual(p.items.map(\.layer), [1, 2, 3, 4])
        XCTAssertEqual(p.items[2].transform.m41, 15, "the card where it is on the canvas: 10 + 5")
    }
}
