import XCTest
import Foundation
import Geometry
import LayerModel
import Plan
import Report
@testable import Profile

/// The figures of Profile's README ("Figures") computed three ways — the text summary, the JSON
/// report and the overlay's legend pixel counts — on scenes with stacked translucency, rounded
/// corners and a clipped image, against hand counts. None may exceed 100 % of the screen.
final class FigureConsistencyTests: XCTestCase, ProfileTestSupport {
    let canvas = Canvas(width: 100, height: 100, scale: 1)

    struct ThreeWays {
        var report: ProfileReport
        var json: [String: Any]
        var text: String
        var overlays: FrameOverlays
        var counters: [String: Any] { ((json["frames"] as! [[String: Any]])[0])["counters"] as! [String: Any] }
        var blendedLegend: [Int] { overlays[.blended]!.legendPixels }
        var overdrawLegend: [Int] { overlays[.overdraw]!.legendPixels }
    }

    func threeWays(_ root: Layer, images: ImageTable = [:]) throws -> ThreeWays {
        let t = tree(root)
        let p = plan(t, canvas, images: images)
        var profiler = Profiler(canvas: canvas)
        profiler.record(profiler.analyze(p, tree: t, index: 0, time: 0), cost: FrameCost())
        let scene = ProfileReport.SceneSummary(file: "s.json", canvas: .init(width: 100, height: 100, scale: 1, pixelWidth: 100, pixelHeight: 100),
                                               layers: 1, duration: 0, fps: 60)
        let report = profiler.report(tool: .init(version: "test"), scene: scene, gpu: false, device: nil, fps: 60, warnings: [])
        let json = try JSONSerialization.jsonObject(with: JSONReport.encode(report)) as! [String: Any]
        let overlays = OverlayPainter(canvasScale: 1).paint(p, tree: t, frame: 0, time: 0)
        return ThreeWays(report: report, json: json, text: TextReport(colors: false).render(report), overlays: overlays)
    }

    /// Root (opaque white) + three full-screen layers at alpha 0.5.
    /// Hand count: every pixel drawn 4 times: shaded 40 000, drawn 10 000, overdraw (40 000 −
    /// 10 000) / 10 000 = 3.00× (Android: drawn 4 times = "3×", pink); blended 10 000 = 100 %
    /// (three blended fragments above the opaque root: the "3+" red); no edges.
    func testStackedTranslucency() throws {
        let layers = (0..<3).map { i in box("glass\(i)", Rect(0, 0, 100, 100), Color(0, 0, 1, 0.5)) }
        let w = try threeWays(root(canvas, layers))
        XCTAssertEqual(w.counters["shadedPixels"] as? Int, 40_000)
        XCTAssertEqual(w.counters["drawnPixels"] as? Int, 10_000)
        XCTAssertEqual(w.counters["blendedPixels"] as? Int, 10_000)
        XCTAssertEqual(w.counters["edgeBlendedPixels"] as? Int, 0)
        XCTAssertEqual(w.counters["overdraw"] as? Double, 3.0)
        XCTAssertEqual(w.counters["maxOverdraw"] as? Int, 3)
        XCTAssertEqual(w.blendedLegend, [0, 0, 10_000, 0])
        XCTAssertEqual(w.overdrawLegend, [0, 0, 10_000, 0], "drawn 4 times is Android's 3× (pink)")
        XCTAssertTrue(w.text.contains("blended 10.0 kpx (100 % of the screen)"), w.text)
        XCTAssertTrue(w.text.contains("overdraw 3.00× (max 3×)"), w.text)
        XCTAssertTrue(w.text.contains("40.0 kpx shaded"), w.text)
        for f in w.report.findings where f.id == .blended {
            XCTAssertEqual(f.maxPixels, 10_000)
            XCTAssertLessThanOrEqual(f.canvasShare, 1)
        }
        XCTAssertFalse(w.text.range(of: #"\b([1-9]\d{2,}) %"#, options: .regularExpression).map { w.text[$0] != "100 %" } ?? false,
                       "no share above 100 %: \(w.text)")
    }

    /// Pixel centres (i + ½, j + ½) whose distance d to a circle's centre (cx, cy) gives the
    /// shader's partial coverage 0 < ½ + (r − d) < 1 at scale 1, i.e. |d − r| < ½, within the
    /// box [x0, x1) × [y0, y1) (the corner squares of a rounded rectangle).
    func rimPixels(cx: Double, cy: Double, r: Double, x0: Int, x1: Int, y0: Int, y1: Int) -> Int {
        var n = 0
        for j in y0..<y1 {
            for i in x0..<x1 {
                let dx = Double(i) + 0.5 - cx, dy = Double(j) + 0.5 - cy
                if abs((dx * dx + dy * dy).squareRoot() - r) < 0.5 { n += 1 }
            }
        }
        return n
    }

    /// An opaque 40×40 card at (10, 10) with cornerRadius 10 over the opaque root: only its four
    /// corner arcs blend (partial coverage), counted as edges; the straight edges are on the grid.
    func testRoundedCornersBlendOnlyTheirRims() throws {
        var card = box("card", Rect(10, 10, 40, 40), Color(0.2, 0.4, 0.8))
        card.cornerRadius = 10
        let w = try threeWays(root(canvas, [card]))
        // Corner squares: centres (20, 20), (40, 20), (40, 40), (20, 40); squares 10×10 at the corners.
        let rims = rimPixels(cx: 20, cy: 20, r: 10, x0: 10, x1: 20, y0: 10, y1: 20)
            + rimPixels(cx: 40, cy: 20, r: 10, x0: 40, x1: 50, y0: 10, y1: 20)
            + rimPixels(cx: 40, cy: 40, r: 10, x0: 40, x1: 50, y0: 40, y1: 50)
            + rimPixels(cx: 20, cy: 40, r: 10, x0: 10, x1: 20, y0: 40, y1: 50)
        XCTAssertGreaterThan(rims, 50)  // ≈ 2πr = 63: a sanity check on the hand count itself
        XCTAssertEqual(w.counters["blendedPixels"] as? Int, rims)
        XCTAssertEqual(w.counters["edgeBlendedPixels"] as? Int, rims)
        XCTAssertEqual(w.blendedLegend[1] + w.blendedLegend[2], 0, "no red: the card's paint is opaque")
        XCTAssertEqual(w.blendedLegend[3], rims, "orange rims")
        XCTAssertEqual(w.blendedLegend.reduce(0, +), 10_000, "every pixel is drawn (the root)")
        XCTAssertTrue(w.text.contains("blended \(rims) px (0.\(rims / 10) % of the screen, \(rims) px of it edges only)")
                      || w.text.contains("of it edges only"), w.text)
        XCTAssertFalse(w.report.findings.contains { $0.id == .blended }, "rounded corners raise no blended finding")
    }

    /// An avatar: an opaque 40×40 image in a layer at (30, 30) with masksToBounds and cornerRadius
    /// 20 (a circle, centre (50, 50)). The clip's rim blends (orange); the image's square corners
    /// outside the circle are not drawn at all, so the root's green shows there, never red.
    func testClippedImageIsADiscNotASquare() throws {
        var avatar = Layer(); avatar.name = "avatar"; avatar.setFrame(Rect(30, 30, 40, 40))
        avatar.masksToBounds = true; avatar.cornerRadius = 20
        avatar.contents = image("a.png")
        let table: ImageTable = [image("a.png").origin: ImageInfo(key: 1, width: 40, height: 40, isOpaque: true)]
        let w = try threeWays(root(canvas, [avatar]), images: table)
        let rim = rimPixels(cx: 50, cy: 50, r: 20, x0: 30, x1: 70, y0: 30, y1: 70)
        XCTAssertEqual(w.counters["blendedPixels"] as? Int, rim)
        XCTAssertEqual(w.counters["edgeBlendedPixels"] as? Int, rim)
        XCTAssertEqual(w.blendedLegend[3], rim)
        XCTAssertEqual(w.blendedLegend[1] + w.blendedLegend[2], 0, "the clipped corners are not red squares")
        // The avatar's bounding-box corner (30, 30) is outside the circle: only the root drew it.
        let corner = w.overlays[.blended]!.rgb(30, 30), centre = w.overlays[.blended]!.rgb(50, 50)
        XCTAssertEqual(corner.g > corner.r, true, "green (opaque root) at the clipped corner: \(corner)")
        XCTAssertEqual(centre.g > centre.r, true, "green (opaque image) inside the disc: \(centre)")
        // The overdraw map agrees: the corner pixel is drawn once (root), the centre twice.
        XCTAssertEqual(w.counters["drawnPixels"] as? Int, 10_000)
        let shaded = try XCTUnwrap(w.counters["shadedPixels"] as? Int)
        XCTAssertEqual(shaded - 10_000, w.overdrawLegend.reduce(0, +), "each pixel the avatar draws is drawn twice")
        // A disc of radius 20 has area 1257; the drawn pixels lie between the inner and outer rims.
        XCTAssertTrue((1200...1320).contains(shaded - 10_000), "\(shaded - 10_000)")
    }

    /// A shadow and a masked result blend wherever they cover (Color Blended Layers shows them
    /// red), though neither raises a `blended` finding: the shadow's cost is offscreen.shadow's
    /// (nothing with a shadowPath) and the mask's is offscreen.mask's.
    /// Hand count: the card (20, 20, 40, 20) has a shadowPath of its bounds, σ = shadowRadius = 2,
    /// no offset; its shadow's quad reaches 3σ + 2 px = 8 px past the path (Builder+Shadow):
    /// (12, 12, 56, 36) = 2016 px, of which the opaque card covers 800, so 1216 shadow pixels
    /// show. The masked layer (20, 60, 40, 20) under a 0.4-alpha mask: 800 px. 2016 in all, every
    /// one blended by paint (red, one deep), none edge-only.
    func testShadowsAndMaskedLayersBlendWhereTheyShow() throws {
        var card = box("card", Rect(20, 20, 40, 20), .white)
        card.shadowOpacity = 0.3; card.shadowRadius = 2; card.shadowOffset = Size(0, 0)
        card.shadowPath = .rect(Rect(0, 0, 40, 20))
        var masked = box("masked", Rect(20, 60, 40, 20), Color(0, 0, 1))
        masked.mask = box("m", Rect(0, 0, 40, 20), Color(0, 0, 0, 0.4))
        let w = try threeWays(root(canvas, [card, masked]))
        XCTAssertEqual(w.counters["blendedPixels"] as? Int, 2_016)
        XCTAssertEqual(w.counters["edgeBlendedPixels"] as? Int, 0)
        XCTAssertEqual(w.blendedLegend, [10_000 - 2_016, 2_016, 0, 0])
        XCTAssertTrue(w.text.contains("blended 2016 px (20 % of the screen)"), w.text)
        // Red in the shadow's rim above the card, and on the masked layer; green on the card.
        for (x, y) in [(40, 15), (40, 70)] {
            let c = w.overlays[.blended]!.rgb(x, y)
            XCTAssertTrue(c.r > c.g, "red at (\(x), \(y)): \(c)")
        }
        let card0 = w.overlays[.blended]!.rgb(40, 30)
        XCTAssertTrue(card0.g > card0.r, "green on the opaque card: \(card0)")
        XCTAssertFalse(w.report.findings.contains { $0.id == .blended }, "\(w.report.findings.map(\.id))")
        XCTAssertTrue(w.report.findings.contains { $0.id == .offscreenMask && $0.layer.display == "masked" })
    }

    /// Additive particles (renderMode additive: plus) blend whatever their alpha: an opaque 10×10
    /// particle at (45…55, 45…55) counts 100 blended pixels, with the reason `additive` and no
    /// `blended` finding (it is the look asked for). The same particle drawn source-over (unordered)
    /// is opaque: it replaces, 0 blended.
    func testAdditiveParticlesBlendWithoutAFinding() throws {
        func emitter(_ mode: EmitterRenderMode) -> Layer {
            var e = Layer(.emitter); e.name = "sparks"; e.setFrame(Rect(0, 0, 100, 100))
            e.emitter.renderMode = mode
            e.particles = [Particle(contents: image("p.png"), contentsRect: Rect(0, 0, 1, 1), contentsScale: 1,
                                    minificationFilter: .linear, magnificationFilter: .linear, position: Point(50, 50),
                                    z: 0, angle: 0, scale: 1, color: Color(1, 1, 1), age: 0, birthTime: 0)]
            return e
        }
        let table: ImageTable = [image("p.png").origin: ImageInfo(key: 1, width: 10, height: 10, isOpaque: true)]
        let additive = try threeWays(root(canvas, [emitter(.additive)]), images: table)
        XCTAssertEqual(additive.counters["blendedPixels"] as? Int, 100)
        XCTAssertEqual(additive.blendedLegend, [10_000 - 100, 100, 0, 0])
        XCTAssertFalse(additive.report.findings.contains { $0.id == .blended })
        let t = tree(root(canvas, [emitter(.additive)]))
        let p = plan(t, canvas, images: table)
        let particle = try XCTUnwrap(p.items.first { $0.blend == .plus })
        XCTAssertEqual(BlendAnalysis.reasons(particle, in: p, layer: LayerDirectory(root: t)[particle.layer]), [.additive])
        let sourceOver = try threeWays(root(canvas, [emitter(.unordered)]), images: table)
        XCTAssertEqual(sourceOver.counters["blendedPixels"] as? Int, 0)
    }

    /// A translucent navigation bar partly under an opaque button: the finding counts only where
    /// its blending shows, so it never exceeds the frame's blended pixels.
    func testBlendedFindingCountsWhereItsBlendingShows() throws {
        let bar = box("bar", Rect(0, 0, 100, 20), Color(1, 1, 1, 0.9))
        let button = box("button", Rect(10, 5, 20, 10), Color(0, 0, 1))
        let w = try threeWays(root(canvas, [bar, button]))
        // Bar 2000 px, of which the button covers 200 px: 1800 px of blending shows.
        XCTAssertEqual(w.counters["blendedPixels"] as? Int, 1_800)
        let f = try XCTUnwrap(w.report.findings.first { $0.id == .blended })
        XCTAssertEqual(f.maxPixels, 1_800)
        XCTAssertEqual(w.blendedLegend[1], 1_800)
    }

    /// An opaque 20×20 layer at (10.5, 10.5), square corners, scale 1: its edges cut pixel
    /// columns and rows 10 and 30 in half. Drawn: columns 10…30 × rows 10…30 = 21 × 21 = 441
    /// pixels, of which the ring of half (or quarter) covered ones is 4 × 21 − 4 = 80 (the edge
    /// blending), the 19 × 19 = 361 inside full. The pixels diagonally off a square corner, inside
    /// the quad's antialiasing margin but outside both edges, are not drawn.
    func testFractionalSquareLayerBlendsItsEdgeRingOnly() throws {
        let w = try threeWays(root(canvas, [box("tile", Rect(10.5, 10.5, 20, 20), Color(0, 0, 1))]))
        XCTAssertEqual(w.counters["shadedPixels"] as? Int, 10_000 + 441)
        XCTAssertEqual(w.counters["blendedPixels"] as? Int, 80)
        XCTAssertEqual(w.counters["edgeBlendedPixels"] as? Int, 80)
        XCTAssertEqual(w.blendedLegend, [10_000 - 80, 0, 0, 80])
        XCTAssertEqual(w.overdrawLegend, [441, 0, 0, 0])
    }
}
