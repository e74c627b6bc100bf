import XCTest
import Geometry
import LayerModel
@testable import Animation

/// CAEmitterLayer's particles (reference §2.5), hand-computed from birthRate, lifetime, beginTime
/// and the closed-form motion p = p₀ + v·d·a + ½·acc·a².
final class EmitterSimulationTests: XCTestCase {
    /// An emitter with one cell `spark` (contents spark.png) and the given cell/layer keys.
    func emitter(_ cell: String, layer: String = "") throws -> PresentationTimeline {
        let extra = layer.isEmpty ? "" : ", " + layer
        return try sceneTimeline(#"{"class": "CAEmitterLayer", "name": "e", "frame": [0, 0, 100, 100]"# + extra
            + #", "emitterCells": [{"name": "spark", "contents": "assets/spark.png", "# + cell + "}]}")
    }

    func particles(_ t: PresentationTimeline, at time: Double) throws -> [Particle] {
        try XCTUnwrap(find("e", t.presentation(at: time))).particles
    }

    func testCountsFollowBirthRateAndLifetime() throws {
        // One particle per 1/10 s slot: by t = 0.5, 5 are born (slot 5 starts at 0.5 exactly); at
        // steady state those born in the last 2 s are alive: 10 × 2 = 20.
        let t = try emitter(#""birthRate": 10, "lifetime": 2"#)
        XCTAssertEqual(try particles(t, at: 0).count, 0)
        XCTAssertEqual(try particles(t, at: 0.5).count, 5)
        XCTAssertEqual(try particles(t, at: 1).count, 10)
        XCTAssertEqual(try particles(t, at: 5).count, 20)
        XCTAssertEqual(try particles(t, at: 9).count, 20)
    }

    func testCountsWithALifetimeRange() throws {
        // lifetime 2 ± 1 (uniform in [1, 3]) at 10/s: at 0.5 s all 5 born are alive (none can die
        // before 1 s); at 10 s those born in the last 1 s (slots 90…99) are surely alive, none born
        // more than 3 s ago is, so 10…30 are alive, and the range shows: some outlive 2 s.
        let t = try emitter(#""birthRate": 10, "lifetime": 2, "lifetimeRange": 2"#)
        XCTAssertEqual(try particles(t, at: 0).count, 0)
        XCTAssertEqual(try particles(t, at: 0.5).count, 5)
        let ps = try particles(t, at: 10)
        XCTAssertTrue((10...30).contains(ps.count), "\(ps.count)")
        XCTAssertEqual(ps.filter { $0.age <= 1 }.count, 10)
        XCTAssertTrue(ps.allSatisfy { $0.age < 3 })
        XCTAssertTrue(ps.contains { $0.age > 2 }, "no particle outlives the mean lifetime: the range is ignored")
    }

    func testAnimatedBirthRateCountsFollowTheRateAtTheFrame() throws {
        // birthRate 10 → 30 linearly over 10 s, lifetime 1. Properties are read at the frame's time
        // (docs/scene-format.md), so at steady state rate(t) × lifetime are alive: at t = 2 the rate
        // is 14 (slots 14…27 fall in (1, 2]), at t = 5 it is 20 (slots 80…99 in (4, 5]); after the
        // animation the model's 10.
        let t = try sceneTimeline(#"""
        {"class": "CAEmitterLayer", "name": "e", "frame": [0, 0, 100, 100],
         "emitterCells": [{"name": "spark", "contents": "assets/spark.png", "birthRate": 10, "lifetime": 1}],
         "animations": [{"class": "CABasicAnimation", "keyPath": "emitterCells.spark.birthRate", "fromValue": 10, "toValue": 30,
                         "duration": 10, "timingFunction": "linear"}]}
        """#)
        XCTAssertEqual(try particles(t, at: 0).count, 0)
        XCTAssertEqual(try particles(t, at: 2).count, 14)
        XCTAssertEqual(try particles(t, at: 5).count, 20)
        XCTAssertEqual(try particles(t, at: 12).count, 10)
    }

    func testLayerMultipliersScaleBirthRateAndLifetime() throws {
        // birthRate 10 × 2 = 20 per second, lifetime 2 × 0.5 = 1 s: 10 at 0.5 s, 20 at steady state.
        let t = try emitter(#""birthRate": 10, "lifetime": 2"#, layer: #""birthRate": 2, "lifetime": 0.5"#)
        XCTAssertEqual(try particles(t, at: 0.5).count, 10)
        XCTAssertEqual(try particles(t, at: 4).count, 20)
    }

    func testCellBeginTimeAndDurationBoundTheEmission() throws {
        // Emits from 1 s for 1 s at 10/s, each particle living 3 s: none before 1 s, 5 at 1.5 s,
        // all 10 from 2 s until the first dies (born in [1, 1.1), dies in [4, 4.1)), none after 5 s.
        let t = try emitter(#""birthRate": 10, "lifetime": 3, "beginTime": 1, "duration": 1"#)
        XCTAssertEqual(try particles(t, at: 0.9).count, 0)
        XCTAssertEqual(try particles(t, at: 1.5).count, 5)
        XCTAssertEqual(try particles(t, at: 3.5).count, 10)
        XCTAssertEqual(try particles(t, at: 5.1).count, 0)
    }

    func testMotionOfAParticleWithZeroRangesIsClosedForm() throws {
        // v = 100 pt/s at longitude π/3 (y down: down and to the right), yAcceleration 20, from
        // emitterPosition (30, 40): x = 30 + 50·a, y = 40 + 86.6025·a + 10·a².
        let t = try emitter(#""birthRate": 4, "lifetime": 10, "velocity": 100, "emissionLongitude": 1.0471975511965976, "yAcceleration": 20"#,
                            layer: #""emitterPosition": [30, 40]"#)
        let ps = try particles(t, at: 1.25)
        XCTAssertEqual(ps.count, 5)
        for p in ps {
            let a = p.age
            XCTAssertEqual(a, 1.25 - p.birthTime, accuracy: 1e-12)
            XCTAssertEqual(p.position.x, 30 + 50 * a, accuracy: 1e-9)
            XCTAssertEqual(p.position.y, 40 + 100 * 3.0.squareRoot() / 2 * a + 10 * a * a, accuracy: 1e-9)
            XCTAssertEqual(p.z, 0)
        }
        // Particle i is born in its slot [i/4, (i+1)/4): the oldest is between 1.0 and 1.25 s old.
        let oldest = try XCTUnwrap(ps.map(\.age).max())
        XCTAssertGreaterThan(oldest, 1.0); XCTAssertLessThanOrEqual(oldest, 1.25)
    }

    func testSpinScaleAndColourSpeeds() throws {
        // angle = spin × layer.spin × a; scale = layer.scale × (scale + scaleSpeed·a);
        // alpha = 1 − 0.25·a; red = 0.5 + 0.1·a; green stays 0.2.
        let t = try emitter(#""birthRate": 2, "lifetime": 10, "spin": 1.5, "scale": 0.5, "scaleSpeed": 0.25, "color": [0.5, 0.2, 1, 1], "alphaSpeed": -0.25, "redSpeed": 0.1"#,
                            layer: #""spin": 2, "scale": 3"#)
        let ps = try particles(t, at: 3)
        XCTAssertEqual(ps.count, 6)
        for p in ps {
            XCTAssertEqual(p.angle, 3 * p.age, accuracy: 1e-12)
            XCTAssertEqual(p.scale, 3 * (0.5 + 0.25 * p.age), accuracy: 1e-12)
            XCTAssertEqual(p.color.alpha, 1 - 0.25 * p.age, accuracy: 1e-12)
            XCTAssertEqual(p.color.red, 0.5 + 0.1 * p.age, accuracy: 1e-12)
            XCTAssertEqual(p.color.green, 0.2, accuracy: 1e-12)
            XCTAssertEqual(p.color.blue, 1)
        }
    }

    func testRangesStayWithinMeanPlusOrMinusHalfTheRange() throws {
        let t = try emitter(#""birthRate": 50, "lifetime": 100, "velocity": 10, "velocityRange": 4, "scale": 1, "scaleRange": 0.5, "redRange": 0.2, "color": [0.5, 0.5, 0.5, 1]"#)
        let ps = try particles(t, at: 4)
        XCTAssertEqual(ps.count, 200)
        for p in ps {
            let speed = hypot(p.position.x, p.position.y) / p.age     // from (0, 0), no acceleration
            if p.age > 0.01 { XCTAssertTrue((8 - 1e-9)...(12 + 1e-9) ~= speed, "\(speed)") }
            XCTAssertTrue(0.75...1.25 ~= p.scale)
            XCTAssertTrue(0.4...0.6 ~= p.color.red)
        }
        // The draws differ between particles (a hash per particle, not one value for all).
        XCTAssertGreaterThan(Set(ps.map(\.scale)).count, 190)
    }

    func testStatelessInTimeAndSeeded() throws {
        let t = try emitter(#""birthRate": 30, "lifetime": 2, "velocity": 50, "velocityRange": 20, "emissionRange": 3.14"#)
        // Any order, any number of times: the same particles.
        let late = try particles(t, at: 3)
        _ = try particles(t, at: 1); _ = try particles(t, at: 7)
        XCTAssertEqual(try particles(t, at: 3), late)
        // Another seed draws other values.
        let other = try emitter(#""birthRate": 30, "lifetime": 2, "velocity": 50, "velocityRange": 20, "emissionRange": 3.14"#, layer: #""seed": 7"#)
        XCTAssertNotEqual(try particles(other, at: 3).map(\.position), late.map(\.position))
    }

    func testLayerBirthRateZeroStopsEmission() throws {
        let t = try emitter(#""birthRate": 10, "lifetime": 2"#, layer: #""birthRate": 0"#)
        XCTAssertEqual(try particles(t, at: 1).count, 0)
    }

    func testSubCellsAreEmittedByEachParticle() throws {
        // Two rockets (2/s for 1 s), moving right at 10 pt/s from (50, 50); each emits trails at
        // 4/s for 0.5 s (exactly 2: slots 0 and 1 of [τ, τ + 0.5)) that stay where they were born
        // (velocity 0) and live 100 s. At t = 2: 2 rockets + 4 trails. Trails carry contentsScale 2
        // to tell them apart; each is born on its rocket's path within 0.5 s of it: x in [50, 55].
        let t = try sceneTimeline(#"""
        {"class": "CAEmitterLayer", "name": "e", "frame": [0, 0, 100, 100], "emitterPosition": [50, 50],
         "emitterCells": [{"name": "rocket", "contents": "assets/spark.png", "birthRate": 2, "duration": 1, "lifetime": 10, "velocity": 10,
           "emitterCells": [{"name": "trail", "contents": "assets/spark.png", "contentsScale": 2, "birthRate": 4, "duration": 0.5, "lifetime": 100}]}]}
        """#)
        let ps = try particles(t, at: 2)
        let rockets = ps.filter { $0.contentsScale == 1 }, trails = ps.filter { $0.contentsScale == 2 }
        XCTAssertEqual(rockets.count, 2)
        XCTAssertEqual(trails.count, 4)
        for r in rockets { XCTAssertEqual(r.position.x, 50 + 10 * r.age, accuracy: 1e-9) }
        for s in trails {
            XCTAssertTrue((50 - 1e-9)...(55 + 1e-9) ~= s.position.x, "\(s.position)")
            XCTAssertEqual(s.position.y, 50, accuracy: 1e-9)
        }
        // Unordered: each cell's own particles (oldest first), then its sub-cells'.
        XCTAssertEqual(ps.prefix(2).map(\.contentsScale), [1, 1])
    }

    func testEstimatedParticles() {
        var e = EmitterProperties()
        var c = EmitterCell(); c.birthRate = 10; c.lifetime = 2; c.lifetimeRange = 1
        var sub = EmitterCell(); sub.birthRate = 4; sub.lifetime = 0.5; sub.duration = 1
        c.emitterCells = [sub]
        e.emitterCells = [c]
        // Parents: 10/s × 2.5 s = 25; sub: 10 parents/s × 1 s window × 4/s = 40 births/s × 0.5 s = 20.
        XCTAssertEqual(EmitterSimulation.estimatedParticles(e), 45, accuracy: 1e-9)
        e.birthRate = 2
        // Layer birthRate multiplies every cell's: 50 parents; sub: 20/s × 1 × 8 × 0.5 = 80.
        XCTAssertEqual(EmitterSimulation.estimatedParticles(e), 130, accuracy: 1e-9)
    }

    func testRenderModesOrderParticles() throws {
        let oldestLast = try emitter(#""birthRate": 10, "lifetime": 5, "zAcceleration": 1, "velocity": 3, "emissionRange": 6"#,
                                     layer: #""renderMode": "oldestLast""#)
        let a = try particles(oldestLast, at: 2).map(\.birthTime)
        XCTAssertEqual(a, a.sorted(by: >))
        let oldestFirst = try emitter(#""birthRate": 10, "lifetime": 5"#, layer: #""renderMode": "oldestFirst""#)
        let b = try particles(oldestFirst, at: 2).map(\.birthTime)
        XCTAssertEqual(b, b.sorted())
        let backToFront = try emitter(#""birthRate": 10, "lifetime": 5, "velocity": 30, "emissionRange": 6"#, layer: #""renderMode": "backToFront""#)
        let z = try particles(backToFront, at: 2).map(\.z)
        XCTAssertEqual(z, z.sorted())
    }

    func testCellKeyPathsAnimate() throws {
        // emitterCells.spark.birthRate held at 20 for 10 s: 10 born by 0.5 s instead of 5; a
        // sub-cell's velocity through emitterCells.spark.emitterCells.trail.velocity.
        let t = try sceneTimeline(#"""
        {"class": "CAEmitterLayer", "name": "e", "frame": [0, 0, 100, 100],
         "emitterCells": [{"name": "spark", "contents": "assets/spark.png", "birthRate": 10, "lifetime": 10,
           "emitterCells": [{"name": "trail", "birthRate": 1}]}],
         "animations": [
           {"class": "CABasicAnimation", "keyPath": "emitterCells.spark.birthRate", "fromValue": 20, "toValue": 20, "duration": 10},
           {"class": "CABasicAnimation", "keyPath": "emitterCells.spark.emitterCells.trail.velocity", "fromValue": 0, "toValue": 100, "duration": 1, "timingFunction": "linear"},
           {"class": "CABasicAnimation", "keyPath": "emitterCells.nobody.birthRate", "fromValue": 0, "toValue": 100, "duration": 1}]}
        """#)
        XCTAssertEqual(try particles(t, at: 0.5).count, 10)
        let e = try XCTUnwrap(find("e", t.presentation(at: 0.25)))
        XCTAssertEqual(e.emitter.emitterCells[0].birthRate, 20)
        XCTAssertEqual(e.emitter.emitterCells[0].emitterCells[0].velocity, 25, accuracy: 1e-9)
        // The model is untouched; after the animations, the model values.
        XCTAssertEqual(try particles(t, at: 10.5).count, 10 * 10)
        let resolved = try XCTUnwrap(KeyPathTable.resolve("emitterCells.spark.birthRate"))
        XCTAssertEqual(resolved.valueType, .number)
        XCTAssertEqual(resolved.layerProperty.layerClass, .emitter)
        XCTAssertNil(KeyPathTable.resolve("emitterCells.spark.bogus"))
        XCTAssertNil(KeyPathTable.resolve("emitterCells.spark"))
        XCTAssertNil(KeyPathTable.resolve("emitterCells..birthRate"))
    }

    /// Birth positions (velocity 0, so a particle stays where it was born) on each documented
    /// shape: centred on emitterPosition (100, 50), size [40, 20], depth 10.
    func positions(_ shape: String, _ mode: String) throws -> [(x: Double, y: Double, z: Double)] {
        let t = try emitter(#""birthRate": 200, "lifetime": 10"#,
                            layer: #""emitterPosition": [100, 50], "emitterSize": [40, 20], "emitterDepth": 10, "emitterZPosition": 0, "emitterShape": ""# + shape + #"", "emitterMode": ""# + mode + #"""#)
        let ps = try particles(t, at: 1)
        XCTAssertEqual(ps.count, 200)
        return ps.map { ($0.position.x - 100, $0.position.y - 50, $0.z) }
    }

    func testBirthPositionsFollowEmitterShapeAndMode() throws {
        let e = 1e-9
        XCTAssertTrue(try positions("point", "volume").allSatisfy { $0 == (0, 0, 0) })
        // A line spans emitterSize.width along x.
        let line = try positions("line", "outline")
        XCTAssertTrue(line.allSatisfy { abs($0.x) <= 20 + e && $0.y == 0 && $0.z == 0 })
        XCTAssertTrue(try positions("line", "points").allSatisfy { abs(abs($0.x) - 20) < e && $0.y == 0 })
        // Rectangle: corners, perimeter, area.
        XCTAssertTrue(try positions("rectangle", "points").allSatisfy { abs(abs($0.x) - 20) < e && abs(abs($0.y) - 10) < e })
        XCTAssertTrue(try positions("rectangle", "outline").allSatisfy { (abs(abs($0.x) - 20) < e && abs($0.y) <= 10 + e) || (abs(abs($0.y) - 10) < e && abs($0.x) <= 20 + e) })
        let area = try positions("rectangle", "surface")
        XCTAssertTrue(area.allSatisfy { abs($0.x) <= 20 && abs($0.y) <= 10 && $0.z == 0 })
        XCTAssertTrue(area.contains { abs($0.x) < 15 && abs($0.y) < 7 }, "inside, not only on the edges")
        // Cuboid (CAEmitterLayer.h: corners at position ∓ (w/2, h/2, depth/2)): inside the box,
        // and on its faces for surface.
        let box = try positions("cuboid", "volume")
        XCTAssertTrue(box.allSatisfy { abs($0.x) <= 20 && abs($0.y) <= 10 && abs($0.z) <= 5 })
        XCTAssertTrue(box.contains { abs($0.z) < 4 } && box.contains { abs($0.z) > 1 }, "spread through the depth")
        XCTAssertTrue(try positions("cuboid", "surface").allSatisfy { abs(abs($0.x) - 20) < e || abs(abs($0.y) - 10) < e || abs(abs($0.z) - 5) < e })
        XCTAssertTrue(try positions("cuboid", "points").allSatisfy { abs(abs($0.x) - 20) < e && abs(abs($0.y) - 10) < e && abs(abs($0.z) - 5) < e })
        // Circle of radius emitterSize.width (CAEmitterLayer.h), not width/2: its circumference, its disc.
        XCTAssertTrue(try positions("circle", "outline").allSatisfy { abs(hypot($0.x, $0.y) - 40) < 1e-9 && $0.z == 0 })
        let disc = try positions("circle", "surface")
        XCTAssertTrue(disc.allSatisfy { hypot($0.x, $0.y) <= 40 + e && $0.z == 0 })
        XCTAssertTrue(disc.contains { hypot($0.x, $0.y) < 30 }, "inside the disc, not only on its rim")
        // Sphere of radius emitterSize.width: its surface, its ball.
        XCTAssertTrue(try positions("sphere", "surface").allSatisfy { abs(($0.x * $0.x + $0.y * $0.y + $0.z * $0.z).squareRoot() - 40) < 1e-9 })
        XCTAssertTrue(try positions("sphere", "volume").allSatisfy { ($0.x * $0.x + $0.y * $0.y + $0.z * $0.z).squareRoot() <= 40 + e })
    }

    func testEmissionConeStaysWithinHalfTheRange() throws {
        // emissionRange 1 rad around longitude 0: every direction within 0.5 rad of +x, full speed.
        let t = try emitter(#""birthRate": 100, "lifetime": 10, "velocity": 10, "emissionRange": 1"#)
        for p in try particles(t, at: 2) where p.age > 0.01 {
            let v = (x: p.position.x / p.age, y: p.position.y / p.age, z: p.z / p.age)
            XCTAssertEqual((v.x * v.x + v.y * v.y + v.z * v.z).squareRoot(), 10, accuracy: 1e-9)
            XCTAssertLessThanOrEqual(acos(min(1, v.x / 10)), 0.5 + 1e-9)
        }
        // The cone is filled, not only its axis: some directions are more than 0.25 rad off +x.
        XCTAssertTrue(try particles(t, at: 2).contains { $0.age > 0.01 && acos(min(1, $0.position.x / $0.age / 10)) > 0.25 })
    }
}
