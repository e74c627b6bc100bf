import XCTest
import Geometry
import LayerModel
import Plan
@testable import Profile

/// For each finding id: a tree that must raise it and a near-identical one that must not.
final class FindingRuleTests: XCTestCase, ProfileTestSupport {
    let scale1 = Canvas(width: 100, height: 100, scale: 1)
    let scale3 = Canvas(width: 100, height: 100, scale: 3)

    // MARK: misaligned.subpixel

    func testPositionHalfAPixelOffAtScale1() {
        let on = findings(root(scale1, [box("card", Rect(10, 10, 40, 20))]), scale1)
        XCTAssertEqual(ids(on, layer: "card"), [])
        let off = findings(root(scale1, [box("card", Rect(10.5, 10, 40, 20))]), scale1)
        XCTAssertEqual(ids(off, layer: "card"), [.misalignedSubpixel])
        let f = off.first { $0.id == .misalignedSubpixel }!
        XCTAssertEqual(f.evidence.part, .bounds)
        XCTAssertEqual(f.evidence.deviceRect, [10.5, 10, 40, 20])
        // The off-grid rectangle's pixels: columns 10…49 (centres 10.5 … 49.5), rows 10…29.
        XCTAssertEqual(f.maxPixels, 40 * 20)
        XCTAssertTrue(f.explanation.contains("left at 10.5 px"), f.explanation)
        XCTAssertTrue(f.fix.contains("whole points"), f.fix)   // at 1× a device pixel is a point
        XCTAssertEqual(f.phase, .atRest)
        XCTAssertEqual(f.layer.path, [0])
    }

    func testPositionAtScale3() {
        // 10.1 pt · 3 = 30.3 px: off the grid.
        XCTAssertEqual(ids(findings(root(scale3, [box("card", Rect(10.1, 10, 40, 20))]), scale3), layer: "card"), [.misalignedSubpixel])
        // 10 pt · 3 = 30 px and (10 + 1/3) pt · 3 = 31 px: on the grid.
        XCTAssertEqual(ids(findings(root(scale3, [box("card", Rect(10, 10, 40, 20))]), scale3), layer: "card"), [])
        XCTAssertEqual(ids(findings(root(scale3, [box("card", Rect(10 + 1.0 / 3, 10, 40, 20))]), scale3), layer: "card"), [])
    }

    /// A shadow's edges are blurred and fall where its offset puts them: an aligned layer whose
    /// shadow is offset by a fraction of a pixel is not misaligned, with an analytic shadowPath, a
    /// rasterised one or none; the layer's own off-grid frame still is.
    func testAFractionalShadowOffsetDoesNotMisalignTheLayer() {
        for path: Path? in [nil, .rect(Rect(0, 0, 40, 20)), Path([.move(Point(0, 0)), .line(Point(40, 0)), .line(Point(0, 20)), .close])] {
            var l = box("card", Rect(10, 10, 40, 20))
            l.shadowOpacity = 0.5; l.shadowRadius = 2; l.shadowOffset = Size(0.5, 3.3); l.shadowPath = path
            XCTAssertEqual(ids(findings(root(scale1, [l]), scale1), layer: "card").filter { $0 == .misalignedSubpixel }, [], "\(String(describing: path))")
            l.setFrame(Rect(10.5, 10, 40, 20))
            XCTAssertTrue(ids(findings(root(scale1, [l]), scale1), layer: "card").contains(.misalignedSubpixel))
        }
    }

    func testFractionalSizeIsMisalignedToo() {
        XCTAssertEqual(ids(findings(root(scale1, [box("card", Rect(10, 10, 40.5, 20))]), scale1), layer: "card"), [.misalignedSubpixel])
    }

    func testRotatedLayersAreNotMisaligned() {
        var l = box("tilted", Rect(20.5, 20, 40, 20))
        l.transform = .rotation(0.3, 0, 0, 1)
        XCTAssertEqual(ids(findings(root(scale1, [l]), scale1), layer: "tilted"), [])
    }

    /// A stretchable image (contentsCenter) is resampled by design: the advice is not to supply
    /// it at the shown size, which would defeat contentsCenter.
    func testStretchableImageAdviceKeepsContentsCenter() throws {
        let img = image("/bubble.png")
        let table: ImageTable = [img.origin: ImageInfo(key: 1, width: 30, height: 30, isOpaque: true)]
        var l = box("bubble", Rect(10, 10, 80, 20), nil); l.contents = img; l.contentsScale = 3
        l.contentsCenter = Rect(0.4, 0.4, 0.2, 0.2)
        let f = try XCTUnwrap(findings(root(scale3, [l]), scale3, images: table).first { $0.id == .misalignedScaled })
        XCTAssertTrue(f.explanation.contains("stretched through contentsCenter"), f.explanation)
        XCTAssertFalse(f.fix.contains("supply the image at the pixel size it is shown"), f.fix)
        XCTAssertTrue(f.fix.contains("contentsScale = 3"), f.fix)
        l.contentsCenter = Rect(0, 0, 1, 1)
        let plain = try XCTUnwrap(findings(root(scale3, [l]), scale3, images: table).first { $0.id == .misalignedScaled })
        XCTAssertTrue(plain.fix.contains("supply the image at the pixel size it is shown"), plain.fix)
    }

    /// The positioning gravities ignore contentsCenter (Core Animation Programming Guide,
    /// "Positioning content within a layer"): a 30×30 px image at contentsScale 1 under `.center`
    /// is shown whole at 30×30 pt, 90×90 device pixels at scale 3, magnified 3× and not nine-sliced,
    /// so the advice is the plain one, whatever contentsCenter says.
    func testPositionedImageIgnoresContentsCenterInAdvice() throws {
        let img = image("/badge.png")
        let table: ImageTable = [img.origin: ImageInfo(key: 1, width: 30, height: 30, isOpaque: true)]
        var l = box("badge", Rect(10, 10, 80, 20), nil); l.contents = img; l.contentsScale = 1
        l.contentsGravity = .center
        l.contentsCenter = Rect(0.4, 0.4, 0.2, 0.2)
        let f = try XCTUnwrap(findings(root(scale3, [l]), scale3, images: table).first { $0.id == .misalignedScaled })
        XCTAssertFalse(f.explanation.contains("contentsCenter"), f.explanation)
        XCTAssertTrue(f.explanation.contains("resampled to 90×90 device pixels"), f.explanation)
        XCTAssertTrue(f.fix.contains("supply the image at the pixel size it is shown (90×90 px)"), f.fix)
    }

    /// A quarter turn maps texels onto pixels one to one. A 60×30 px image shown at its pixel size
    /// in a 60×30 pt layer at (10, 10), scale 1, turned 90° about its centre (40, 25): its device
    /// bounds are 30×60 at (25, −5)…(55, 55), whole pixels, so it is neither resampled nor
    /// misaligned. Moved half a point right, its edges fall at x = 25.5 and 55.5: misaligned.subpixel,
    /// not scaled. Turned 45°, it is resampled (misaligned.scaled).
    func testQuarterTurnsShowTexelsOneToOne() throws {
        let img = image("/a.png")
        let table: ImageTable = [img.origin: ImageInfo(key: 1, width: 60, height: 30, isOpaque: true)]
        var l = box("dial", Rect(10, 10, 60, 30), nil); l.contents = img; l.contentsScale = 1
        for angle in [Double.pi / 2, -Double.pi / 2, Double.pi] {
            l.transform = .rotation(angle, 0, 0, 1)
            XCTAssertEqual(ids(findings(root(scale1, [l]), scale1, images: table), layer: "dial"), [], "\(angle)")
        }
        l.transform = .rotation(Double.pi / 2, 0, 0, 1)
        l.setFrame(Rect(10.5, 10, 60, 30))
        let off = findings(root(scale1, [l]), scale1, images: table)
        XCTAssertEqual(ids(off, layer: "dial"), [.misalignedSubpixel])
        let rect = try XCTUnwrap(off.first { $0.layer.display == "dial" }?.evidence.deviceRect)
        for (got, want) in zip(rect, [25.5, -5, 30, 60]) { XCTAssertEqual(got, want, accuracy: 1e-9, "\(rect)") }
        l.setFrame(Rect(10, 10, 60, 30))
        l.transform = .rotation(Double.pi / 4, 0, 0, 1)
        XCTAssertEqual(ids(findings(root(scale1, [l]), scale1, images: table), layer: "dial"), [.misalignedScaled])
    }

    func testOffGridContentsOfAnAlignedLayer() {
        // 101 pt bounds, a 50 px image at its natural size centred: x = 25.5.
        let img = image("/a.png")
        let table: ImageTable = [img.origin: ImageInfo(key: 1, width: 50, height: 50, isOpaque: true)]
        var l = box("icon", Rect(0, 0, 101, 100), nil)
        l.contents = img; l.contentsGravity = .center; l.contentsScale = 1
        let fs = findings(root(scale1, [l]), scale1, images: table)
        XCTAssertEqual(ids(fs, layer: "icon"), [.misalignedSubpixel])
        XCTAssertEqual(fs.first { $0.layer.display == "icon" }?.evidence.part, .contents)
        // 100 pt: x = 25, on the grid.
        l.setFrame(Rect(0, 0, 100, 100))
        XCTAssertEqual(ids(findings(root(scale1, [l]), scale1, images: table), layer: "icon"), [])
    }

    // MARK: blended

    func testTranslucentBackgroundIsBlendedOpaqueIsNot() {
        XCTAssertEqual(ids(findings(root(scale1, [box("bar", Rect(0, 0, 100, 20), Color(1, 1, 1))]), scale1), layer: "bar"), [])
        let fs = findings(root(scale1, [box("bar", Rect(0, 0, 100, 20), Color(1, 1, 1, 0.9))]), scale1)
        XCTAssertEqual(ids(fs, layer: "bar"), [.blended])
        let f = fs.first!
        XCTAssertEqual(f.evidence.blendReasons, [.translucentColor])
        XCTAssertEqual(f.evidence.colorAlpha ?? 0, 0.9, accuracy: 1e-6)
        XCTAssertEqual(f.maxPixels, 2000)
        XCTAssertEqual(f.canvasShare, 0.2, accuracy: 1e-12)
        XCTAssertEqual(f.severity, .medium)
        XCTAssertTrue(f.fix.contains("opaque = true"), f.fix)
    }

    func testOpacityIsBlended() {
        var l = box("fading", Rect(0, 0, 100, 50)); l.opacity = 0.5
        let f = findings(root(scale1, [l]), scale1).first { $0.layer.display == "fading" }!
        XCTAssertEqual(f.id, .blended)
        XCTAssertEqual(f.evidence.blendReasons, [.opacity])
        XCTAssertEqual(f.evidence.opacity ?? 0, 0.5, accuracy: 1e-6)
        XCTAssertEqual(f.severity, .high, "half the screen")
    }

    func testImageAlphaIsBlended() {
        let img = image("/a.png")
        var l = box("photo", Rect(0, 0, 10, 10), nil); l.contents = img; l.contentsScale = 1
        let opaque: ImageTable = [img.origin: ImageInfo(key: 1, width: 10, height: 10, isOpaque: true)]
        let alpha: ImageTable = [img.origin: ImageInfo(key: 1, width: 10, height: 10, isOpaque: false)]
        XCTAssertEqual(ids(findings(root(scale1, [l]), scale1, images: opaque), layer: "photo"), [])
        let fs = findings(root(scale1, [l]), scale1, images: alpha)
        XCTAssertEqual(ids(fs, layer: "photo"), [.blended])
        XCTAssertEqual(fs.first { $0.layer.display == "photo" }?.evidence.blendReasons, [.imageAlpha])
    }

    func testRoundedCornersBlendEdgesButRaiseNoBlendedFinding() {
        var l = box("card", Rect(0, 0, 50, 50)); l.cornerRadius = 8
        let t = tree(root(scale1, [l]))
        let a = FrameAnalyzer(canvasScale: 1).analyze(plan(t, scale1), tree: t, index: 0, time: 0)
        XCTAssertGreaterThan(a.counters.blendedPixels, 0)
        XCTAssertFalse(a.observations.contains { $0.id == .blended })
        let item = plan(t, scale1).items.last!
        XCTAssertEqual(BlendAnalysis.reasons(item, in: plan(t, scale1), layer: LayerDirectory(root: t)[item.layer]), [.roundedCorners])
    }

    // MARK: misaligned.scaled

    func testImageAtItsPixelSizeVsScaled() {
        let img = image("/a.png")
        let table: ImageTable = [img.origin: ImageInfo(key: 1, width: 60, height: 30, isOpaque: true)]
        var l = box("photo", Rect(10, 10, 20, 10), nil); l.contents = img; l.contentsScale = 3
        XCTAssertEqual(ids(findings(root(scale3, [l]), scale3, images: table), layer: "photo"), [])
        l.setFrame(Rect(10, 10, 40, 20))   // 60×30 px shown over 120×60 device pixels
        let fs = findings(root(scale3, [l]), scale3, images: table)
        XCTAssertEqual(ids(fs, layer: "photo"), [.misalignedScaled])
        let f = fs.first { $0.layer.display == "photo" }!
        XCTAssertEqual(f.evidence.imagePixels, [60, 30])
        XCTAssertEqual(f.evidence.shownPixels, [120, 60])
        XCTAssertEqual(f.maxPixels, 120 * 60)
        XCTAssertTrue(f.fix.contains("120×60 px"), f.fix)
    }

    // MARK: contents.low-scale

    func testContentsScale1OnA3xCanvas() {
        // A 30×30 px image at its natural size (gravity center): contentsScale 3 → 10×10 pt = 30×30 px, 1:1.
        let img = image("/a.png")
        let table: ImageTable = [img.origin: ImageInfo(key: 1, width: 30, height: 30, isOpaque: true)]
        var l = box("icon", Rect(0, 0, 40, 40), nil); l.contents = img; l.contentsGravity = .center; l.contentsScale = 3
        XCTAssertEqual(ids(findings(root(scale3, [l]), scale3, images: table), layer: "icon"), [])
        // contentsScale 1 → 30×30 pt = 90×90 px: each image pixel covers 3×3 device pixels.
        l.contentsScale = 1
        let fs = findings(root(scale3, [l]), scale3, images: table)
        XCTAssertEqual(ids(fs, layer: "icon"), [.misalignedScaled, .contentsLowScale])
        let f = fs.first { $0.id == .contentsLowScale }!
        XCTAssertEqual(f.evidence.property, .contentsScale)
        XCTAssertEqual(f.evidence.value, 1)
        XCTAssertTrue(f.fix.contains("contentsScale = 3"), f.fix)
    }

    func testContentsScaleDoesNotMatterWithAResizingGravity() {
        let img = image("/a.png")
        let table: ImageTable = [img.origin: ImageInfo(key: 1, width: 120, height: 120, isOpaque: true)]
        var l = box("icon", Rect(0, 0, 40, 40), nil); l.contents = img; l.contentsScale = 1   // resize: 120 px over 120 px
        XCTAssertEqual(ids(findings(root(scale3, [l]), scale3, images: table), layer: "icon"), [])
    }

    func testRasterizationScaleBelowTheCanvasScale() {
        var l = box("cell", Rect(0, 0, 40, 40)); l.shouldRasterize = true; l.rasterizationScale = 3
        // At the screen scale: no blur, only the cache's first fill (one frame profiled).
        XCTAssertEqual(ids(findings(root(scale3, [l]), scale3), layer: "cell"), [.offscreenRasterize, .rasterCacheMiss])
        l.rasterizationScale = 1
        let f = findings(root(scale3, [l]), scale3).first { $0.layer.display == "cell" && $0.id == .contentsLowScale }
        XCTAssertEqual(f?.id, .contentsLowScale)
        XCTAssertEqual(f?.evidence.property, .rasterizationScale)
        XCTAssertEqual(f?.maxPixels, 120 * 120)
    }

    // MARK: offscreen.*

    func testRoundedClipWithASublayerVsWithout() {
        var clip = box("clip", Rect(10, 10, 40, 40)); clip.masksToBounds = true; clip.cornerRadius = 10
        XCTAssertEqual(ids(findings(root(scale1, [clip]), scale1), layer: "clip"), [], "background only: no pass")
        clip.sublayers = [box("child", Rect(0, 0, 20, 20), Color(0, 0, 1))]
        let fs = findings(root(scale1, [clip]), scale1)
        XCTAssertEqual(ids(fs, layer: "clip"), [.offscreenRoundedClip])
        let f = fs.first { $0.layer.display == "clip" }!
        XCTAssertEqual(f.evidence.passBounds, PixelRect(x: 10, y: 10, width: 40, height: 40))
        XCTAssertEqual(f.maxPixels, 1600)
        // Without a corner radius the clip is a plain scissor: no pass.
        clip.cornerRadius = 0
        XCTAssertEqual(ids(findings(root(scale1, [clip]), scale1), layer: "clip"), [])
    }

    func testMaskIsAnOffscreenPass() {
        var m = box("masked", Rect(0, 0, 50, 50)); m.mask = box("m", Rect(0, 0, 10, 10))
        XCTAssertEqual(ids(findings(root(scale1, [m]), scale1), layer: "masked"), [.offscreenMask])
        m.mask = nil
        XCTAssertEqual(ids(findings(root(scale1, [m]), scale1), layer: "masked"), [])
    }

    // MARK: at rest vs mid-animation

    func testAlignedAtRestButNotMidAnimation() {
        // A slide from x = 10 to x = 20 at scale 1: frames at 10, 12.5, 15.5, 20.
        let xs: [Double] = [10, 12.5, 15.5, 20]
        let trees = xs.map { root(scale1, [box("slider", Rect($0, 10, 40, 20))]) }
        let fs = profile(trees, scale1)
        XCTAssertEqual(ids(fs, layer: "slider"), [.misalignedSubpixel])
        let f = fs.first!
        XCTAssertEqual(f.phase, .midAnimation)
        XCTAssertEqual(f.frames, [FrameRun(first: 1, last: 2)])
        XCTAssertEqual(f.framesDescription, "frames 1–2")
        // Misaligned where it rests at the end: at rest.
        let ending = profile([10, 12.5, 15.5].map { root(scale1, [box("slider", Rect($0, 10, 40, 20))]) }, scale1)
        XCTAssertEqual(ending.first?.phase, .atRest)
    }

    func testFadeBlendsOnlyMidAnimation() {
        let trees = [1.0, 0.5, 1.0].map { o -> Layer in var l = box("fader", Rect(0, 0, 50, 50)); l.opacity = o; return root(scale1, [l]) }
        let f = profile(trees, scale1).first { $0.id == .blended }
        XCTAssertEqual(f?.phase, .midAnimation)
        XCTAssertEqual(f?.frames, [FrameRun(first: 1, last: 1)])
        XCTAssertEqual(f?.framesDescription, "frame 1")
    }
}
