import XCTest
import FuzzHarness
import Animation
import Geometry
import LayerModel
import Plan
import SceneFormat

/// Numbers at the edges: each is either refused with a located error or has a defined behaviour,
/// and no NaN or infinity ever reaches a plan (checked with `PlanInvariants` at the start, middle
/// and end of the timeline, through the same path as the `scene` fuzz target).
final class NumberTests: XCTestCase {
    func testNonFiniteLiteralsAreRefusedByTheParser() {
        // Not JSON at all (RFC 8259 has no NaN or Infinity): malformed.
        // The parser locates them by line:column (on the literal) within the enclosing object's pointer.
        for literal in ["NaN", "Infinity", "-Infinity"] {
            let json = scene(root: "{\"opacity\": \(literal)}")
            let e = sceneError(json)
            XCTAssertEqual(e?.kind, .malformedJSON, literal)
            XCTAssertEqual(e?.location.pointer, "/root", literal)
            XCTAssertEqual(e?.location.line, 1, literal)
        }
        // JSON, but beyond a Double (±1.8e308): out of range, not rounded to infinity.
        for literal in ["1e999", "-1e400"] {
            let json = scene(root: "{\"opacity\": \(literal)}")
            let e = sceneError(json)
            XCTAssertEqual(e?.kind, .outOfRange, literal)
            XCTAssertEqual(e?.location.pointer, "/root", literal)
            XCTAssertEqual(e?.location.line, 1, literal)
        }
    }

    func testExtremeTimingGivesFinitePlans() {
        let timings = [
            #""duration": 0"#, #""duration": 1e308"#, #""duration": 5e-324"#,
            #""speed": 0"#, #""speed": -1"#, #""speed": 1e308"#, #""speed": -1e308"#, #""speed": 5e-324"#,
            #""repeatCount": "infinity""#, #""repeatCount": 1e308"#, #""repeatCount": 5e-324"#,
            #""repeatDuration": 1e308"#, #""repeatDuration": "infinity", "autoreverses": true"#,
            #""beginTime": 1e308"#, #""beginTime": -1e308"#, #""timeOffset": 1e308"#, #""timeOffset": -1e308"#,
            #""speed": 1e308, "timeOffset": 1e308, "beginTime": -1e308"#,
        ]
        for t in timings {
            let json = scene(root: """
                {"bounds": [0, 0, 100, 50], "position": [50, 25], "sublayers": [{"frame": [10, 10, 20, 20], "backgroundColor": "#f00",
                  "animations": [{"class": "CABasicAnimation", "keyPath": "position.x", "fromValue": 0, "toValue": 90, \(t)},
                                 {"class": "CABasicAnimation", "keyPath": "transform.scale", "fromValue": 1e300, "toValue": -1e300, \(t)}]}]}
                """, extra: #", "timeline": {"duration": 1, "fps": 10}"#)
            XCTAssertEqual(FuzzTarget.scene.run(Array(json.utf8)), [], t)
        }
    }

    func testExtremeLayerTimingGivesFinitePlans() {
        for t in [#""speed": 0"#, #""speed": 1e308"#, #""beginTime": 1e308"#, #""timeOffset": -1e308"#, #""speed": -1e308, "timeOffset": 1e308"#] {
            let json = scene(root: """
                {"bounds": [0, 0, 100, 50], "position": [50, 25], \(t), "sublayers": [{"frame": [10, 10, 20, 20], "backgroundColor": "#f00",
                  "animations": [{"class": "CABasicAnimation", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 1}]}]}
                """)
            XCTAssertEqual(FuzzTarget.scene.run(Array(json.utf8)), [], t)
        }
    }

    func testHugeGeometryIsNotDrawnAndReported() throws {
        // 1e300 × 1e300 overflows: the layer cannot be placed, so it is not drawn and says why.
        let doc = try decode(scene(root: ##"{"bounds": [0, 0, 100, 50], "position": [50, 25], "sublayerTransform": "scale(1e300)", "sublayers": [{"frame": [0, 0, 10, 10], "backgroundColor": "#f00", "transform": "scale(1e300)"}]}"##))
        let plan = FramePlanner(canvas: doc.scene.canvas, images: [:]).plan(root: doc.scene.root)
        XCTAssertEqual(PlanInvariants.check(plan), [])
        XCTAssertEqual(plan.items.count, 0)
        XCTAssertEqual(plan.unsupported.count, 1)
        XCTAssertTrue(plan.unsupported[0].feature.contains("geometry overflows"), "\(plan.unsupported)")
    }

    func testSingularAndBehindTheEyeTransformsDrawNothing() throws {
        // scale(0, 1): the layer has no area on screen (singular matrix); perspective(100) with the
        // layer pushed 200 pt towards the viewer: every corner has w = 1 − 200/100 < 0, behind the eye.
        for transform in ["scale(0, 1)", "perspective(100) translateZ(200)", "rotateY(90deg)"] {
            let doc = try decode(scene(root: ##"{"bounds": [0, 0, 100, 50], "position": [50, 25], "backgroundColor": "#00f", "transform": "\##(transform)"}"##))
            let plan = FramePlanner(canvas: doc.scene.canvas, images: [:]).plan(root: doc.scene.root)
            XCTAssertEqual(plan.items.count, 0, transform)
            XCTAssertEqual(PlanInvariants.check(plan), [], transform)
        }
    }

    func testPartlyBehindTheEyeIsClippedFinite() throws {
        // Rotated 80° about y under perspective 60 (100 pt wide layer): its near edge passes the eye
        // plane (x·sin 80° > 60 for x > 61 pt from the anchor is behind), the rest is drawn.
        let doc = try decode(scene(root: ##"{"bounds": [0, 0, 100, 50], "position": [50, 25], "sublayerTransform": "perspective(60)", "sublayers": [{"frame": [-100, 0, 300, 50], "backgroundColor": "#0f0", "transform": "rotateY(80deg)"}]}"##))
        let plan = FramePlanner(canvas: doc.scene.canvas, images: [:]).plan(root: doc.scene.root)
        XCTAssertEqual(plan.items.count, 1)
        XCTAssertEqual(PlanInvariants.check(plan), [])
    }

    func testNonFiniteGrammarResultsAreRefused() {
        for path in ["M1e308 0 l1e308 0", "M0 0 c1e308 0 1e308 0 1e308 0 c1e308 0 0 0 0 0"] {
            XCTAssertThrowsError(try ValueGrammars.svgPath(path), path) { e in
                XCTAssertTrue("\(e)".contains("overflow"), "\(e)")
            }
        }
        for t in ["scale(1e200) scale(1e200)", "translate(1e308, 0) translate(1e308, 0)", "perspective(1e-320)"] {
            XCTAssertThrowsError(try ValueGrammars.transformFunctions(t), t) { e in
                XCTAssertTrue("\(e)".contains("non-finite"), "\(e)")
            }
        }
        let e = sceneError(scene(root: ##"{"transform": "scale(1e200) scale(1e200)"}"##))
        XCTAssertEqual(e?.kind, .invalidValue)
        XCTAssertEqual(e?.location.pointer, "/root/transform")
    }

    func testDegenerateTransformFunctionsAreDefined() throws {
        // CATransform3DMakeRotation normalises its axis; a zero axis gives the identity (Geometry's
        // documented choice), and perspective(0) (no eye distance) adds no perspective.
        XCTAssertEqual(try ValueGrammars.transformFunctions("rotate3d(0, 0, 0, 1rad)"), .identity)
        XCTAssertEqual(try ValueGrammars.transformFunctions("perspective(0)"), .identity)
    }
}

/// Negative sizes follow Core Animation's setters (reference §1 table "bounds": a negative size is
/// standardised; §9: setFrame (0, 0, −100, −50) gives bounds (0, 0, 100, 50), position (−50, −25)).
final class NegativeSizeTests: XCTestCase {
    func testNegativeFrameIsStandardised() throws {
        let root = try decode(scene(root: ##"{"frame": [0, 0, -100, -50]}"##)).scene.root
        XCTAssertEqual(root.bounds.size.width, 100)
        XCTAssertEqual(root.bounds.size.height, 50)
        XCTAssertEqual(root.position, Point(-50, -25))
    }

    func testNegativeBoundsSizeIsStandardised() throws {
        let root = try decode(scene(root: ##"{"bounds": [0, 0, -10, -20]}"##)).scene.root
        XCTAssertEqual(root.bounds, Rect(-10, -20, 10, 20))
    }
}

/// Timing at the edges, with the behaviour each has (reference §3; scene-format.md "duration").
final class TimingEdgeTests: XCTestCase {
    func opacity(_ animation: String, at times: [Double]) throws -> (values: [Double], duration: Double) {
        let doc = try decode(scene(root: """
            {"bounds": [0, 0, 10, 10], "animations": [{"class": "CABasicAnimation", "keyPath": "opacity", "fromValue": 0, "toValue": 1, \(animation)}]}
            """))
        let timeline = PresentationTimeline(scene: doc.scene, animations: doc.animations, transactions: doc.transactions)
        return (times.map { timeline.presentation(at: $0).opacity }, timeline.duration)
    }

    func testZeroDurationMeansTheQuarterSecondDefault() throws {
        // duration 0 = CATransaction's default 0.25 s; linear (no timing function): t = 0.125 is halfway.
        let r = try opacity(#""duration": 0"#, at: [0.125])
        XCTAssertEqual(r.values[0], 0.5, accuracy: 1e-9)
        XCTAssertEqual(r.duration, 0.25, accuracy: 1e-9)
    }

    func testSpeedZeroFreezesAtTheStart() throws {
        // speed 0 freezes the animation's local time at timeOffset (0): fromValue throughout; the
        // run then lasts the 10 s cap rather than forever.
        let r = try opacity(#""duration": 1, "speed": 0"#, at: [0, 0.5, 5])
        XCTAssertEqual(r.values, [0, 0, 0])
        XCTAssertEqual(r.duration, 10)
    }

    func testAHugeRepeatCountIsForever() throws {
        // 1e308 repeats of 1 s overflow nothing: the animation simply never ends within the run,
        // which is capped at 10 s (docs/decisions.md, "Animation decisions").
        let r = try opacity(#""duration": 1, "repeatCount": 1e308"#, at: [2.25, 9.5])
        XCTAssertEqual(r.values[0], 0.25, accuracy: 1e-9)
        XCTAssertEqual(r.values[1], 0.5, accuracy: 1e-9)
        XCTAssertEqual(r.duration, 10)
    }

    func testAHugeDurationIsFinite() throws {
        let r = try opacity(#""duration": 1e308"#, at: [0, 5])
        XCTAssertEqual(r.values[0], 0)
        XCTAssertEqual(r.values[1], 5e-308, accuracy: 1e-300)
        XCTAssertTrue(r.duration.isFinite)
    }
}

/// Borders at the edges: wider than half the layer, or huge.
final class BorderEdgeTests: XCTestCase {
    func testABorderWiderThanHalfTheLayerLeavesNoHole() throws {
        // 10×10 with borderWidth 8: the inset rectangle would be −6 × −6; Core Animation's border
        // then covers the whole layer (reference §1.8: the border is drawn inset by its width).
        for width in [8.0, 1e308] {
            let doc = try decode(scene(root: ##"{"bounds": [0, 0, 10, 10], "position": [5, 5], "borderWidth": \##(width), "borderColor": "#000"}"##))
            let plan = FramePlanner(canvas: doc.scene.canvas, images: [:]).plan(root: doc.scene.root)
            XCTAssertEqual(plan.items.count, 1, "\(width)")
            XCTAssertEqual(plan.items.first?.role, .border)
            XCTAssertNil(plan.items.first?.innerShape, "\(width)")
            XCTAssertEqual(PlanInvariants.check(plan), [], "\(width)")
        }
    }
}
