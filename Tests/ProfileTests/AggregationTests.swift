import XCTest
import LayerModel
import Plan
@testable import Profile

/// Frames → findings: a pure function, checked on hand-made observations.
final class AggregationTests: XCTestCase {
    func entry(_ id: LayerID, _ name: String?) -> LayerDirectory.Entry {
        LayerDirectory.Entry(id: id, name: name, indexPath: [id - 1], location: SourceLocation(file: "s.json", pointer: "", line: 3 + id, column: 5),
                             backgroundAlpha: 1, borderAlpha: 1, contentsScale: 2, shouldRasterize: false, rasterizationScale: 2,
                             hasSublayers: false, subtree: [])
    }
    func obs(_ id: FindingID, _ layer: LayerID, _ px: Int) -> Observation {
        var e = Evidence(); e.deviceRect = [Double(px), 0, 1, 1]
        return Observation(id: id, layer: layer, pixels: px, evidence: e)
    }

    func testFrameRuns() {
        XCTAssertEqual(FrameRun.runs([9, 0, 1, 2, 5, 6, 2]).map(\.description), ["0–2", "5–6", "9"])
        XCTAssertEqual(FrameRun.describe(FrameRun.runs([12, 13, 14])), "frames 12–14")
        XCTAssertEqual(FrameRun.describe(FrameRun.runs([3])), "frame 3")
        XCTAssertEqual(FrameRun.runs([]), [])
    }

    func testAggregatesPixelsFramesWorstFrameAndPhase() {
        let frames = (0...9).map { i -> FrameObservations in
            var o: [Observation] = []
            if (2...5).contains(i) || i == 8 { o.append(obs(.misalignedSubpixel, 1, 100 * i)) }
            if i == 0 || i == 9 { o.append(obs(.blended, 2, 5000)) }
            return FrameObservations(index: i, observations: o, layers: [entry(1, "slider"), entry(2, nil)])
        }
        let fs = FindingAggregator.aggregate(frames.reversed(), canvasPixels: 10_000, canvasScale: 2, runFrames: 0...9)
        XCTAssertEqual(fs.count, 2)
        // blended: 50 % of the canvas → high, first.
        XCTAssertEqual(fs[0].id, .blended)
        XCTAssertEqual(fs[0].severity, .high)
        XCTAssertEqual(fs[0].layer.display, "1")         // unnamed: its index path
        XCTAssertEqual(fs[0].frames.map(\.description), ["0", "9"])
        XCTAssertEqual(fs[0].phase, .atRest)
        XCTAssertEqual(fs[0].totalPixels, 10_000)
        let s = fs[1]
        XCTAssertEqual(s.id, .misalignedSubpixel)
        XCTAssertEqual(s.layer.display, "slider")
        XCTAssertEqual(s.layer.location, FileLocation(file: "s.json", line: 4, column: 5))
        XCTAssertEqual(s.frames.map(\.description), ["2–5", "8"])
        XCTAssertEqual(s.frameCount, 5)
        XCTAssertEqual(s.maxPixels, 800)
        XCTAssertEqual(s.worstFrame, 8)
        XCTAssertEqual(s.evidence.deviceRect?.first, 800, "evidence from the worst frame")
        XCTAssertEqual(s.totalPixels, 100 * (2 + 3 + 4 + 5 + 8))
        XCTAssertEqual(s.phase, .midAnimation)
        // 8 % would be medium, but a misalignment seen only mid-animation is at most low.
        XCTAssertEqual(s.severity, .low)
        XCTAssertEqual(s.canvasShare, 0.08, accuracy: 1e-12)
    }

    func testSeverityThresholds() {
        XCTAssertEqual(Severity(canvasShare: 0.25), .high)
        XCTAssertEqual(Severity(canvasShare: 0.2499), .medium)
        XCTAssertEqual(Severity(canvasShare: 0.02), .medium)
        XCTAssertEqual(Severity(canvasShare: 0.0199), .low)
        XCTAssertEqual(Severity(canvasShare: 0), .low)
    }

    func testOrderIsSeverityThenPixelsThenIdThenLayer() {
        let o = [obs(.misalignedScaled, 3, 50), obs(.blended, 3, 50), obs(.blended, 2, 50), obs(.misalignedSubpixel, 4, 60)]
        let fs = FindingAggregator.aggregate([FrameObservations(index: 0, observations: o, layers: [])],
                                             canvasPixels: 10_000, canvasScale: 1, runFrames: 0...0)
        XCTAssertEqual(fs.map { "\($0.id.rawValue):\($0.layer.id)" },
                       ["misaligned.subpixel:4", "blended:2", "blended:3", "misaligned.scaled:3"])
    }

    func testNoFramesNoFindings() {
        XCTAssertEqual(FindingAggregator.aggregate([], canvasPixels: 100, canvasScale: 1, runFrames: 0...0), [])
        XCTAssertEqual(Profiler(canvas: Canvas(width: 10, height: 10)).findings(), [])
    }
}
