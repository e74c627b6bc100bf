import XCTest
import Geometry
import LayerModel
import Plan
@testable import Profile

/// `raster.cpu`: content rasterised on the CPU again because what it draws changed since the
/// previous frame; never for content that only moves or fades, never for the first frame.
final class RasterCPUFindingTests: XCTestCase, ProfileTestSupport {
    let canvas = Canvas(width: 100, height: 100, scale: 3, backgroundColor: .white)

    func ring(strokeEnd: Double, x: Double = 20, opacity: Double = 1) -> Layer {
        var s = Layer(.shape); s.name = "ring"; s.setFrame(Rect(x, 20, 40, 40))
        s.shape.path = .ellipse(in: Rect(0, 0, 40, 40)); s.shape.fillColor = nil
        s.shape.strokeColor = Color(1, 0, 0); s.shape.lineWidth = 4; s.shape.strokeEnd = strokeEnd
        s.opacity = opacity
        return s
    }

    func rasterFindings(_ frames: [Layer]) -> [Finding] {
        profile(frames.map { root(canvas, [$0]) }, canvas).filter { $0.id == .rasterCPU }
    }

    func testStrokeEndAnimationIsRasterisedInEveryFrameItChanges() throws {
        let fs = rasterFindings([ring(strokeEnd: 0.2), ring(strokeEnd: 0.5), ring(strokeEnd: 0.8), ring(strokeEnd: 0.8)])
        XCTAssertEqual(fs.count, 1)
        let f = try XCTUnwrap(fs.first)
        XCTAssertEqual(f.layer.display, "ring")
        // Frame 0 is first use (start-up); frames 1 and 2 change strokeEnd; frame 3 repeats frame 2.
        XCTAssertEqual(f.frames, [FrameRun(first: 1, last: 2)])
        XCTAssertEqual(f.evidence.rasterContent, "shape")
        XCTAssertEqual(f.evidence.rasterChange, "strokeStart/strokeEnd")
        // The texture of the request the plan made for frame 2: texels and 4 bytes each.
        let t = tree(root(canvas, [ring(strokeEnd: 0.8)]))
        let request = try XCTUnwrap(plan(t, canvas).rasterRequests.first)
        XCTAssertEqual(f.maxPixels, request.pixelWidth * request.pixelHeight)
        XCTAssertEqual(f.evidence.uploadedBytes, request.pixelWidth * request.pixelHeight * 4)
        // A 40 pt ring with a 4 pt stroke at 3×: about (40 + 4) · 3 = 132 px a side.
        XCTAssertEqual(Double(request.pixelWidth), 132, accuracy: 4)
        XCTAssertTrue(f.explanation.contains("strokeStart/strokeEnd"), f.explanation)
        XCTAssertTrue(f.fix.contains("draw-on"), f.fix)
    }

    func testContentThatOnlyMovesOrFadesKeepsItsTexture() {
        XCTAssertEqual(rasterFindings([ring(strokeEnd: 0.5, x: 10), ring(strokeEnd: 0.5, x: 12.5, opacity: 0.5),
                                       ring(strokeEnd: 0.5, x: 30, opacity: 0.8)]), [])
    }

    func testTheFirstFrameIsStartUpNotAFinding() {
        XCTAssertEqual(rasterFindings([ring(strokeEnd: 0.5)]), [])
    }

    /// A shape whose path morphs under a static star shadowPath asks for two textures a frame: the
    /// change is named from the previous frame's request of the same kind ("path"); a shadowPath
    /// that morphs is named as the shadow's ("shadow", "shadowPath").
    func testAShapesChangeIsToldApartFromItsShadowPathsShadow() throws {
        let star = Path([.move(Point(20, 0)), .line(Point(26, 14)), .line(Point(40, 14)), .line(Point(29, 23)),
                         .line(Point(33, 38)), .line(Point(20, 29)), .line(Point(7, 38)), .line(Point(11, 23)),
                         .line(Point(0, 14)), .line(Point(14, 14)), .close])
        func shape(_ width: Double, shadowInset: Double = 0) -> Layer {
            var s = ring(strokeEnd: 1)
            s.shape.path = .rect(Rect(0, 0, width, 30))
            s.shadowOpacity = 0.5; s.shadowRadius = 2
            s.shadowPath = shadowInset == 0 ? star : Path([.move(Point(shadowInset, 0)), .line(Point(40, 0)), .line(Point(0, 30)), .close])
            return s
        }
        let morph = try XCTUnwrap(rasterFindings([shape(30), shape(35), shape(40)]).first)
        XCTAssertEqual(morph.evidence.rasterContent, "shape")
        XCTAssertEqual(morph.evidence.rasterChange, "path")
        let shadow = try XCTUnwrap(rasterFindings([shape(30, shadowInset: 1), shape(30, shadowInset: 2)]).first)
        XCTAssertEqual(shadow.evidence.rasterContent, "shadow")
        XCTAssertEqual(shadow.evidence.rasterChange, "shadowPath")
        XCTAssertTrue(shadow.fix.contains("shadowPath"), shadow.fix)
    }

    func testChangingTextIsNamed() throws {
        func label(_ s: String) -> Layer {
            var t = Layer(.text); t.name = "counter"; t.setFrame(Rect(10, 10, 60, 20)); t.text.string = s; t.contentsScale = 3
            return t
        }
        let f = try XCTUnwrap(rasterFindings([label("1"), label("2"), label("3")]).first)
        XCTAssertEqual(f.frames, [FrameRun(first: 1, last: 2)])
        XCTAssertEqual(f.evidence.rasterContent, "text")
        XCTAssertEqual(f.evidence.rasterChange, "string")
        XCTAssertTrue(f.fix.contains("each digit"), f.fix)
    }

    func testMeasuredCPUTimeJoinsTheFinding() throws {
        var p = Profiler(canvas: canvas)
        var previous: FramePlan?
        for (i, end) in [0.2, 0.6].enumerated() {
            let t = tree(root(canvas, [ring(strokeEnd: end)]))
            let framePlan = plan(t, canvas)
            var a = p.analyze(framePlan, tree: t, index: i, time: Double(i) / 60)
            p.analyzer.addRasterCPU(to: &a, plan: framePlan, previous: previous, tree: t)
            previous = framePlan
            let ring = try XCTUnwrap(framePlan.rasterRequests.first).layer
            p.record(a, cost: FrameCost(), rasterNanoseconds: [ring: 1_500_000])
        }
        let f = try XCTUnwrap(p.findings().first { $0.id == .rasterCPU })
        XCTAssertEqual(f.cpuNanoseconds, 1_500_000)
        XCTAssertEqual(f.maxCPUNanoseconds, 1_500_000)
    }

    func testShapeAndTextBlendingIsExplainedAsTheirContent() throws {
        var t = Layer(.text); t.name = "label"; t.setFrame(Rect(10, 10, 60, 20)); t.text.string = "Hi"; t.contentsScale = 3
        let fs = findings(root(canvas, [ring(strokeEnd: 1), t]), canvas)
        let ringBlend = try XCTUnwrap(fs.first { $0.id == .blended && ($0.members ?? [$0]).contains { $0.layer.display == "ring" } })
        let ringOwn = (ringBlend.members ?? [ringBlend]).first { $0.layer.display == "ring" }!
        XCTAssertEqual(ringOwn.evidence.blendReasons, [.rasterizedContent])
        XCTAssertEqual(ringOwn.evidence.rasterContent, "shape")
        XCTAssertFalse(ringOwn.fix.contains("supply an image"), ringOwn.fix)
        let labelOwn = try XCTUnwrap(fs.flatMap { $0.members ?? [$0] }.first { $0.id == .blended && $0.layer.display == "label" })
        XCTAssertEqual(labelOwn.evidence.rasterContent, "text")
        XCTAssertTrue(labelOwn.fix.contains("opaque backgroundColor"), labelOwn.fix)
    }
}
