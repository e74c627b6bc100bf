import XCTest
import Geometry
import LayerModel
@testable import Plan

/// The plan's execution step (`CanvasExecution`): occlusion culling, blending off, coverage levels
/// and batches. Expected values are worked out by hand in each test; pixels are device pixels.
final class CanvasExecutionTests: XCTestCase {
    let opaqueRed = RGBA(1, 0, 0, 1), halfBlue = RGBA(0, 0, 0.5, 0.5)

    func solid(_ quad: Rect, _ c: RGBA, _ m: Transform3D = .identity, shape: RoundedShape? = nil, clips: [Clip] = []) -> DrawItem {
        DrawItem(layer: 1, role: .background, paint: .solid(c), transform: m, quad: quad, shape: shape, clips: clips)
    }
    func prepare(_ items: [DrawItem], images: [PlannedImage] = [], size: Int = 100) -> (items: [DrawItem], stats: CanvasExecutionStats) {
        CanvasExecution.prepare(items, images: images, width: size, height: size)
    }

    // MARK: coverage levels

    func testCoverageLevelFollowsTheCornersAsEncoded() {
        let r = Rect(0, 0, 40, 20)
        XCTAssertEqual(RoundedShape(rect: r).coverage, .straightEdges)
        XCTAssertEqual(RoundedShape(rect: r, radii: [0, 4, 0, 0]).coverage, .circularCorners)
        XCTAssertEqual(RoundedShape(rect: r, radii: [4, 4, 4, 4], curve: .continuous).coverage, .continuousCorners)
        // Continuous with r ≥ l (l = min(40, 20)/2 = 10): t = 1, the corner is the circle of radius l.
        XCTAssertEqual(RoundedShape(rect: r, radii: [10, 10, 10, 10], curve: .continuous).coverage, .circularCorners)
        // Between l/k and l it blends the curve in: still the table.
        XCTAssertEqual(RoundedShape(rect: r, radii: [8, 8, 8, 8], curve: .continuous).coverage, .continuousCorners)
    }

    func testItemCoverageIsTheMostItsShapesAndClipsNeed() {
        XCTAssertEqual(solid(Rect(0, 0, 10, 10), opaqueRed).requiredCoverage, .none)
        XCTAssertEqual(solid(Rect(0, 0, 10, 10), opaqueRed, shape: RoundedShape(rect: Rect(0, 0, 10, 10))).requiredCoverage, .straightEdges)
        let clip = Clip(transform: .identity, shape: RoundedShape(rect: Rect(0, 0, 10, 10), radii: [3, 3, 3, 3], curve: .continuous), layer: 2)
        XCTAssertEqual(solid(Rect(0, 0, 10, 10), opaqueRed, clips: [clip]).requiredCoverage, .continuousCorners)
        // An analytic shadow draws its own shape: only its clips count.
        let shadow = DrawItem(layer: 1, role: .shadow, paint: .blurredShape(halfBlue, sigma: 2), transform: .identity,
                              quad: Rect(0, 0, 10, 10), shape: RoundedShape(rect: Rect(0, 0, 10, 10), radii: [3, 3, 3, 3]))
        XCTAssertEqual(shadow.requiredCoverage, .none)
        var raised = solid(Rect(0, 0, 10, 10), opaqueRed, shape: RoundedShape(rect: Rect(0, 0, 10, 10), radii: [2, 2, 2, 2]))
        raised.coverageVariant = .straightEdges
        XCTAssertEqual(raised.executedCoverage, .circularCorners, "never below what the item needs")
    }

    // MARK: occlusion culling

    func testOpaqueFullScreenTopLayerCullsEverythingBeneath() {
        let items = [solid(Rect(0, 0, 100, 100), RGBA(1, 1, 1, 1)),          // 100×100 = 10000 px
                     solid(Rect(10, 10, 20, 20), halfBlue),                    // 400 px
                     solid(Rect(5.5, 5.5, 10, 10), opaqueRed, shape: RoundedShape(rect: Rect(5.5, 5.5, 10, 10))),
                     solid(Rect(0, 0, 100, 100), opaqueRed)]
        let (out, stats) = prepare(items)
        XCTAssertEqual(out, [items[3].with(opaque: true)])
        XCTAssertEqual(stats.culledItems, 3)
        // The shaped item's bounds: pixels 5…15 (11 × 11), grown by the antialiasing margin of
        // σmax/σmin + 1 = 2 pixels each way: 3…17, 15 × 15 = 225.
        XCTAssertEqual(stats.culledPixels, 10000 + 400 + 225)
        XCTAssertEqual(stats.opaqueItems, 1)
        XCTAssertEqual(stats.batches, 1)
    }

    func testOnlyWhatAnOpaqueItemCoversEntirelyIsCulled() {
        let under = solid(Rect(10, 10, 20, 20), halfBlue)
        // Translucent, clipped, rotated or too small above it: nothing is culled.
        let clip = Clip(transform: .identity, shape: RoundedShape(rect: Rect(0, 0, 100, 100)), layer: 3)
        let rotated = Transform3D.rotation(0.1, 0, 0, 1) * .translation(50, 50, 0)
        for top in [solid(Rect(0, 0, 100, 100), RGBA(0.5, 0, 0, 0.5)),
                    solid(Rect(0, 0, 100, 100), opaqueRed, clips: [clip]),
                    solid(Rect(-50, -50, 100, 100), opaqueRed, rotated),
                    solid(Rect(10, 10, 19.5, 20), opaqueRed)] {
            XCTAssertEqual(prepare([under, top]).stats.culledItems, 0, "\(top)")
        }
        // Exactly its pixels: culled (the rect 10…30 is inside the occluder's whole pixels 10…30).
        XCTAssertEqual(prepare([under, solid(Rect(10, 10, 20, 20), opaqueRed)]).stats.culledItems, 1)
        // An occluder below does not hide an item above it.
        XCTAssertEqual(prepare([solid(Rect(0, 0, 100, 100), opaqueRed), under]).items.count, 2)
    }

    /// Several opaque items together hide what none hides alone: the union counts in 8×8-pixel
    /// cells, each wholly inside one occluder; a one-pixel gap between them keeps the item.
    func testTheUnionOfOpaqueItemsAboveCulls() {
        let under = solid(Rect(20, 20, 30, 20), halfBlue)                 // pixels 20…50 × 20…40
        let left = solid(Rect(16, 16, 24, 32), opaqueRed)                 // 16…40: cells 2…4
        let right = solid(Rect(40, 16, 24, 32), opaqueRed)                // 40…64: cells 5…7
        XCTAssertEqual(prepare([under, left]).stats.culledItems, 0, "one of them alone does not cover it")
        let p = prepare([under, left, right])
        XCTAssertEqual(p.stats.culledItems, 1)
        XCTAssertEqual(p.items.count, 2)
        let gap = solid(Rect(41, 16, 23, 32), opaqueRed)                  // pixel column 40 uncovered
        XCTAssertEqual(prepare([under, left, gap]).stats.culledItems, 0)
        // A translucent one in the union does not count.
        XCTAssertEqual(prepare([under, left, solid(Rect(40, 16, 24, 32), RGBA(0.5, 0, 0, 0.5))]).stats.culledItems, 0)
    }

    /// A masksToBounds container around its content: a clip whose coverage is exactly 1 wherever
    /// the item can write is dropped (a pixel in from its edges, clear of its rounded corners);
    /// one the item reaches across, or into a corner of, is kept.
    func testClipsThatContainTheItemAreDropped() {
        let container = Clip(transform: .identity, shape: RoundedShape(rect: Rect(0, 10, 100, 80)), layer: 9)
        let inside = solid(Rect(10, 20, 50, 30), halfBlue, clips: [container])
        var p = prepare([inside])
        XCTAssertEqual(p.stats.droppedClips, 1)
        XCTAssertEqual(p.items.first?.clips.count, 0)
        // Touching the clip's edge row (coverage there is not guaranteed 1): kept.
        p = prepare([solid(Rect(10, 10, 50, 30), halfBlue, clips: [container])])
        XCTAssertEqual(p.stats.droppedClips, 0)
        XCTAssertEqual(p.items.first?.clips.count, 1)
        // A rounded container (radius 20): the middle is clear of the corners, a corner is not.
        let rounded = Clip(transform: .identity, shape: RoundedShape(rect: Rect(0, 10, 100, 80), radii: [20, 20, 20, 20]), layer: 9)
        XCTAssertEqual(prepare([solid(Rect(30, 40, 40, 20), halfBlue, clips: [rounded])]).stats.droppedClips, 1)
        XCTAssertEqual(prepare([solid(Rect(2, 12, 10, 10), halfBlue, clips: [rounded])]).stats.droppedClips, 0)
        // A rotated clip is never dropped.
        let turned = Clip(transform: .rotation(0.3, 0, 0, 1), shape: RoundedShape(rect: Rect(-500, -500, 1000, 1000)), layer: 9)
        XCTAssertEqual(prepare([solid(Rect(30, 40, 10, 10), halfBlue, clips: [turned])]).stats.droppedClips, 0)
    }

    func testARoundedOpaqueItemOccludesItsCrossAPixelIn() {
        // Shape 0…60 with circular radius 10 (inset 10): the cross is 10…50 × 0…60 and 0…60 × 10…50,
        // a pixel in from the antialiased edge: 11…49 × 1…59 and 1…59 × 11…49.
        let shape = RoundedShape(rect: Rect(0, 0, 60, 60), radii: [10, 10, 10, 10])
        let top = solid(Rect(-1, -1, 62, 62), opaqueRed, shape: shape)
        let centre = solid(Rect(20, 20, 20, 20), halfBlue)      // 20…40: inside
        let corner = solid(Rect(1, 1, 5, 5), halfBlue)          // in the rounded corner: kept
        let band = solid(Rect(12, 2, 30, 5), halfBlue)          // 12…42 × 2…7: in the vertical bar
        let (out, stats) = prepare([centre, corner, band, top])
        XCTAssertEqual(stats.culledItems, 2)
        XCTAssertEqual(out.count, 2)
        XCTAssertEqual(out.first?.quad, corner.quad)
    }

    func testOpaqueImagesOccludeOnlyWhenReadWithoutFiltering() {
        let images = [PlannedImage(key: 7, pixelWidth: 100, pixelHeight: 100, isOpaque: true),
                      PlannedImage(key: 8, pixelWidth: 100, pixelHeight: 100, isOpaque: false)]
        func image(_ i: Int, _ s: DrawItem.Sampling, _ o: Float = 1) -> DrawItem {
            DrawItem(layer: 2, role: .contents, paint: .image(index: i, sampling: s, opacity: o), transform: .identity,
                     quad: Rect(0, 0, 100, 100), uv: Rect(0, 0, 100, 100))
        }
        let under = solid(Rect(10, 10, 20, 20), halfBlue)
        XCTAssertEqual(prepare([under, image(0, .texelFetch)], images: images).stats.culledItems, 1)
        XCTAssertEqual(prepare([under, image(0, .nearest)], images: images).stats.culledItems, 1)
        XCTAssertEqual(prepare([under, image(0, .linear)], images: images).stats.culledItems, 0)
        XCTAssertEqual(prepare([under, image(0, .texelFetch, 0.99)], images: images).stats.culledItems, 0)
        XCTAssertEqual(prepare([under, image(1, .texelFetch)], images: images).stats.culledItems, 0)
        XCTAssertTrue(prepare([image(0, .texelFetch)], images: images).items[0].drawsOpaque)
        XCTAssertFalse(prepare([image(0, .linear)], images: images).items[0].drawsOpaque)
        // A tint (a particle's or replicator instance's colour) multiplies the texels: an opaque
        // image tinted with alpha 0.5 shows what is beneath; tinted with an opaque colour it does not.
        var faded = image(0, .texelFetch); faded.tint = RGBA(0.5, 0, 0, 0.5)
        XCTAssertEqual(prepare([under, faded], images: images).stats.culledItems, 0)
        XCTAssertFalse(prepare([faded], images: images).items[0].drawsOpaque)
        var red = image(0, .texelFetch); red.tint = RGBA(1, 0, 0, 1)
        XCTAssertEqual(prepare([under, red], images: images).stats.culledItems, 1)
    }

    // MARK: batching

    func testSmallNeighboursShareOneDrawAtTheHighestCoverageLevel() {
        let rounded = solid(Rect(0.5, 0.5, 20, 20), halfBlue, shape: RoundedShape(rect: Rect(0.5, 0.5, 20, 20), radii: [4, 4, 4, 4]))
        let square = solid(Rect(30.5, 0.5, 20, 20), halfBlue, shape: RoundedShape(rect: Rect(30.5, 0.5, 20, 20)))
        let rotated = solid(Rect(-5, -5, 10, 10), opaqueRed, .rotation(0.3, 0, 0, 1) * .translation(60, 60, 0))
        let (out, stats) = prepare([rounded, square, rotated, rounded])
        XCTAssertEqual(out.map(\.executedCoverage), [.circularCorners, .circularCorners, .circularCorners, .circularCorners])
        XCTAssertEqual(stats.promotedItems, 2)
        XCTAssertEqual(stats.batches, 1)
        XCTAssertFalse(out[2].drawsOpaque, "it blends with its batch (alpha 1 either way)")
        // The unshaped item's shape encloses its quad by 2/σmin + 1 = 3 units: coverage 1 everywhere.
        XCTAssertEqual(out[2].shape, RoundedShape(rect: Rect(-8, -8, 16, 16)))
        XCTAssertEqual(out[2].quad, rotated.quad)
        // Without promotion: rounded, square, rotated (blending off), rounded = 4 batches.
        // 200 × 200 turned 0.3 rad: bounds of 200·(cos 0.3 + sin 0.3) ≈ 250 px a side, > 128².
        let big = solid(Rect(-100, -100, 200, 200), opaqueRed, .rotation(0.3, 0, 0, 1) * .translation(200, 200, 0))
        let mixed = prepare([rounded, square, big, rounded], size: 400)
        XCTAssertEqual(mixed.stats.batches, 3, "rounded+square, the large rotated quad, rounded")
        XCTAssertNil(mixed.items[2].shape, "a large item keeps its own, cheaper variant")
        XCTAssertTrue(mixed.items[2].drawsOpaque)
    }

    // MARK: interiors

    func testALargeRoundedItemIsSplitIntoInteriorBandsAndCornerZones() {
        // 200 × 100 at identity, circular radius 10: σmin = 1, so m = 1 and e = 10 + 1 = 11; the
        // quad is 199.5 wide from x = 0.25 (a fractional edge), grown by the backend's 1 unit.
        let shape = RoundedShape(rect: Rect(0.25, 0, 200, 100), radii: [10, 10, 10, 10])
        let item = solid(Rect(-0.75, -1, 202, 102), halfBlue, shape: shape)
        let (out, stats) = prepare([item], size: 300)
        XCTAssertEqual(stats.splitItems, 1)
        XCTAssertEqual(out.count, 25)
        XCTAssertEqual(out.filter { $0.shape == nil }.count, 5, "the interior cross")
        let bands = out.filter { $0.shape == RoundedShape(rect: shape.rect) }
        XCTAssertEqual(bands.count, 4, "one-unit bands")
        XCTAssertEqual(out.filter { $0.shape == shape }.count, 16, "corner zones")
        XCTAssertTrue(out.allSatisfy(\.quadIsFinal))
        // The bands need straight edges only but are drawn at the corners' level, with them.
        XCTAssertEqual(bands.map(\.requiredCoverage), Array(repeating: .straightEdges, count: 4))
        XCTAssertEqual(bands.map(\.executedCoverage), Array(repeating: .circularCorners, count: 4))
        XCTAssertEqual(stats.batches, 2)
        // The grid lines: −1.75, 1.25, 11.25, 189.25, 199.25, 202.25 across; −2, 1, 11, 89, 99, 102 down.
        XCTAssertEqual(Set(out.map(\.quad.minX)), [-1.75, 1.25, 11.25, 189.25, 199.25])
        XCTAssertEqual(Set(out.map(\.quad.maxY)), [1, 11, 89, 99, 102])
        let area = out.reduce(0) { $0 + $1.quad.width * $1.quad.height }
        XCTAssertEqual(area, 204 * 104, accuracy: 1e-9, "the pieces tile the grown quad")
        // Interior pieces first, row by row: the top one (11.25…189.25 × 1…11), then the centre
        // row's three, the middle one 11.25…189.25 × 11…89.
        XCTAssertEqual(out[0].quad, Rect(11.25, 1, 178, 10))
        XCTAssertEqual(out[2].quad, Rect(11.25, 11, 178, 78))
        // Small or square-cornered items are not split.
        XCTAssertEqual(prepare([solid(Rect(0, 0, 40, 40), halfBlue, shape: RoundedShape(rect: Rect(0, 0, 40, 40), radii: [5, 5, 5, 5]))]).stats.splitItems, 0)
        XCTAssertEqual(prepare([solid(Rect(-1, -1, 202, 102), halfBlue, shape: RoundedShape(rect: Rect(0, 0, 200, 100)))], size: 300).stats.splitItems, 0)
    }

    func testSimilarityTransformsGetTheIsotropicCoverageVariant() {
        // Rotation, uniform scale and translation keep every direction's scale equal.
        let turned = Transform3D.rotation(0.7, 0, 0, 1) * .scale(3, 3, 1) * .translation(10.5, 4, 0)
        XCTAssertTrue(turned.isSimilarity)
        XCTAssertTrue(Transform3D.identity.isSimilarity)
        XCTAssertTrue(Transform3D.scale(-2, 2, 1).isSimilarity, "a mirror scales both axes by 2")
        XCTAssertFalse(Transform3D.scale(3, 2, 1).isSimilarity)
        XCTAssertFalse((Transform3D.rotation(0.7, 0, 0, 1) * .scale(1.001, 1, 1)).isSimilarity)
        var skew = Transform3D.identity; skew.m21 = 0.2
        XCTAssertFalse(skew.isSimilarity)
        var perspective = Transform3D.identity; perspective.m34 = -1.0 / 500; perspective.m14 = 0.001
        XCTAssertFalse(perspective.isSimilarity)
        XCTAssertFalse(Transform3D.scale(0, 0, 1).isSimilarity, "degenerate")
        // Only shaped items run the variant, and the general code stays available.
        let shape = RoundedShape(rect: Rect(0, 0, 40, 40), radii: [5, 5, 5, 5])
        var item = solid(Rect(0, 0, 40, 40), halfBlue, shape: shape)
        item.transform = turned
        XCTAssertTrue(item.hasIsotropicCoverage)
        item.derivativeCoverage = true
        XCTAssertFalse(item.hasIsotropicCoverage)
        XCTAssertFalse(solid(Rect(0, 0, 40, 40), halfBlue).hasIsotropicCoverage)
    }

    /// Screen-linear interpolation (the AFFINE shaders) is exact where w is constant over the
    /// layer's plane: w = m14·x + m24·y + m44 at z = 0, so only m14 and m24 rule it out.
    func testTransformsThatKeepWConstantInterpolateAffinelyAndBatchApart() {
        XCTAssertTrue(Transform3D.identity.keepsWConstant)
        var skewed = Transform3D.rotation(0.7, 0, 0, 1) * .scale(3, 1.5, 1) * .translation(10.5, 4, 0)
        skewed.m21 = 0.3
        XCTAssertTrue(skewed.keepsWConstant, "any 2D affine map")
        var depthOnly = Transform3D.identity; depthOnly.m34 = -1.0 / 500
        XCTAssertTrue(depthOnly.keepsWConstant, "perspective along z leaves w = 1 at z = 0")
        var halved = Transform3D.identity; halved.m44 = 2
        XCTAssertTrue(halved.keepsWConstant, "w = 2 everywhere")
        var tiltX = Transform3D.identity; tiltX.m14 = 0.001
        XCTAssertFalse(tiltX.keepsWConstant)
        var tiltY = Transform3D.identity; tiltY.m24 = -0.002
        XCTAssertFalse(tiltY.keepsWConstant)
        // A layer turned about y under a perspective (m14 = m13·m34 = sin 0.5 / 500 ≠ 0).
        var eye = Transform3D.identity; eye.m34 = -1.0 / 500
        let turned = Transform3D.rotation(0.5, 0, 1, 0) * eye * .translation(150, 150, 0)
        XCTAssertFalse(turned.keepsWConstant)
        // Two items alike but for that: two pipelines, so two batches, and a third like the first
        // after them a third batch (painter's order).
        let flat = solid(Rect(0, 0, 40, 40), halfBlue, .translation(10, 10, 0))
        let tilted = solid(Rect(0, 0, 40, 40), halfBlue, turned)
        XCTAssertTrue(flat.interpolatesAffinely)
        XCTAssertFalse(tilted.interpolatesAffinely)
        XCTAssertNotEqual(BatchClass(flat), BatchClass(tilted))
        XCTAssertEqual(prepare([flat, tilted], size: 300).stats.batches, 2)
        XCTAssertEqual(prepare([flat, flat], size: 300).stats.batches, 1)
    }

    func testRotatedIsotropicItemsAreDrawnWholeAndAnisotropicOnesSplit() {
        // The item of the test above, turned 20° about its centre: drawn whole with the isotropic
        // code (its slanted pieces cost lavapipe more than the coverage code they save).
        let shape = RoundedShape(rect: Rect(0, 0, 200, 100), radii: [10, 10, 10, 10])
        var item = solid(Rect(-1, -1, 202, 102), halfBlue, shape: shape)
        item.transform = .translation(-100, -50, 0) * .rotation(20 * .pi / 180, 0, 0, 1) * .translation(150, 150, 0)
        let whole = prepare([item], size: 300)
        XCTAssertEqual(whole.stats.splitItems, 0)
        XCTAssertEqual(whole.items.count, 1)
        // Stretched 10 % along x as well: the derivative code, split as before.
        var stretched = item
        stretched.transform = .scale(1.1, 1, 1) * item.transform
        XCTAssertEqual(prepare([stretched], size: 300).stats.splitItems, 1)
        // Axis-aligned isotropic items (cards) are still split.
        var aligned = item
        aligned.transform = .scale(1.2, 1.2, 1) * .translation(20, 30, 0)
        XCTAssertTrue(aligned.hasIsotropicCoverage)
        XCTAssertEqual(prepare([aligned], size: 300).stats.splitItems, 1)
        // An isotropic item and an anisotropic one are two variants, so two batches.
        var small = solid(Rect(0, 0, 40, 40), halfBlue, shape: RoundedShape(rect: Rect(0, 0, 40, 40), radii: [5, 5, 5, 5]))
        small.transform = .translation(5, 5, 0)
        var other = small
        other.transform = .scale(1.5, 1, 1) * .translation(100, 5, 0)
        XCTAssertEqual(prepare([small, other], size: 300).stats.batches, 2)
    }

    func testConsecutiveSplitItemsContinueEachOthersDraw() {
        // Two large rounded items, overlapping: the first's interior then its edges, the second's
        // edges (continuing the draw) then its interior. Every piece of the first still comes
        // before every piece of the second, so the overlap blends as before.
        let a = RoundedShape(rect: Rect(0, 0, 200, 100), radii: [10, 10, 10, 10])
        let b = RoundedShape(rect: Rect(50, 40, 200, 100), radii: [12, 12, 12, 12])
        let (out, stats) = prepare([solid(Rect(-1, -1, 202, 102), halfBlue, shape: a),
                                    solid(Rect(49, 39, 202, 102), halfBlue, shape: b)], size: 300)
        XCTAssertEqual(stats.splitItems, 2)
        XCTAssertEqual(out.count, 50)
        XCTAssertEqual(out[0..<25].filter { $0.shape?.rect == a.rect }.count, 20, "the first item's pieces first")
        XCTAssertEqual(out[0..<5].map(\.executedCoverage), Array(repeating: .none, count: 5), "its interior")
        XCTAssertEqual(out[25..<45].map(\.executedCoverage), Array(repeating: .circularCorners, count: 20), "then the second's edges")
        XCTAssertEqual(out[45..<50].map(\.executedCoverage), Array(repeating: .none, count: 5), "and its interior")
        XCTAssertEqual(stats.batches, 3, "interior, both items' edges, interior")
    }

    // MARK: through the planner

    func testLogicalItemsKeepWhatCoreAnimationDraws() {
        var root = Layer(); root.setFrame(Rect(0, 0, 50, 50)); root.backgroundColor = Color(0, 0, 1, 0.5)
        var top = Layer(); top.setFrame(Rect(0, 0, 50, 50)); top.backgroundColor = Color(1, 0, 0)
        root.sublayers = [top]
        var s = Scene(canvas: Canvas(width: 50, height: 50, scale: 2, backgroundColor: .white), root: root); s.assignIDs()
        let p = FramePlanner(canvas: s.canvas, images: [:]).plan(root: s.root)
        XCTAssertEqual(p.items.count, 2, "the profiler still sees the blended layer beneath")
        XCTAssertEqual(p.canvasItems.count, 1)
        XCTAssertTrue(p.canvasItems[0].drawsOpaque)
        XCTAssertEqual(p.execution.culledItems, 1)
        XCTAssertEqual(p.execution.culledPixels, 100 * 100)
        XCTAssertFalse(p.items.contains { $0.drawsOpaque || $0.coverageVariant != nil })
    }
}

private extension DrawItem {
    func with(opaque: Bool) -> DrawItem { var c = self; c.drawsOpaque = opaque; return c }
}
