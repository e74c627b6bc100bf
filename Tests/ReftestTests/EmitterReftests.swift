import Foundation
import Pipeline
import Raster
import SceneFormat
import XCTest

/// CAEmitterLayer on lavapipe: the simulation is stateless in time (frame N alone = frame N of a
/// sequence, byte for byte), additive render mode sums colours, and the particles of one cell are
/// one instanced draw.
final class EmitterReftests: ReftestCase {
    func document(_ json: String) throws -> SceneDocument {
        try SceneDecoder.decode(data: Array(json.utf8), file: "emitter.json",
                                baseDirectory: Self.repoRoot.appendingPathComponent("Examples").path)
    }

    func image(_ f: SceneRenderer.Frame) -> Image { Image(width: f.width, height: f.height, pixels: f.pixels) }

    /// A w×h opaque white image as a data: URI.
    func whiteImage(_ w: Int, _ h: Int) throws -> String {
        let px = [UInt8](repeating: 255, count: w * h * 4)
        return "data:image/png;base64," + Data(try PNGCodec.encode(premultiplied: px, width: w, height: h)).base64EncodedString()
    }

    let sparks = #"""
    {"caprof": 1, "canvas": {"width": 80, "height": 80, "backgroundColor": "#101020"}, "timeline": {"duration": 4, "fps": 30},
     "root": {"frame": [0, 0, 80, 80], "sublayers": [
       {"class": "CAEmitterLayer", "frame": [0, 0, 80, 80], "emitterPosition": [40, 30], "renderMode": "additive",
        "emitterShape": "line", "emitterSize": [20, 0], "seed": 3,
        "emitterCells": [{"contents": "assets/spark.png", "birthRate": 60, "lifetime": 1.5, "lifetimeRange": 1,
          "velocity": 40, "velocityRange": 20, "emissionLongitude": -1.5708, "emissionRange": 1.2, "yAcceleration": 50,
          "color": [1, 0.6, 0.2, 1], "alphaSpeed": -0.5, "scale": 0.5, "scaleRange": 0.3, "spin": 2, "spinRange": 4}]}]}}
    """#

    func testFrameAloneEqualsTheSameFrameOfASequence() throws {
        let doc = try document(sparks)
        let sequence = AnimatedScene(doc)
        var frame90: Image?
        for i in 0...90 { frame90 = image(try Self.renderer.render(sequence, at: Double(i) / 30)) }
        let alone = image(try Self.renderer.render(doc, at: 3))
        XCTAssertEqual(alone, frame90, "frame 90 rendered alone differs from frame 90 of the sequence")
        // Out of order, and after other frames: still the same pixels.
        _ = try Self.renderer.render(doc, at: 3.7)
        XCTAssertEqual(image(try Self.renderer.render(doc, at: 3)), alone)
        // Something is drawn: the frame is not the plain background.
        XCTAssertTrue(stride(from: 0, to: alone.pixels.count, by: 4).contains { alone.pixels[$0] > 0x40 })
    }

    func testAdditiveRenderModeSumsParticleColours() throws {
        // Four motionless particles (birthRate 4, t = 1: slots 0…3) of a 10×10 white image tinted
        // (0.3, 0.2, 0.1), stacked at (45…55, 45…55) over black. Additive: 4 × (76.5, 51, 25.5)
        // = (306 → 255, 204, 102); source-over of opaque particles: the top one, (77, 51, 26).
        let uri = try whiteImage(10, 10)
        func scene(_ mode: String) -> String {
            """
            {"caprof": 1, "canvas": {"width": 100, "height": 100, "backgroundColor": "#000000"},
             "root": {"frame": [0, 0, 100, 100], "sublayers": [
               {"class": "CAEmitterLayer", "frame": [0, 0, 100, 100], "emitterPosition": [50, 50], "renderMode": "\(mode)",
                "emitterCells": [{"contents": "\(uri)", "birthRate": 4, "lifetime": 10, "color": [0.3, 0.2, 0.1, 1]}]}]}}
            """
        }
        let additiveFrame = try Self.renderer.render(try document(scene("additive")), at: 1)
        // The plan decides the blend: each of the 4 particles is drawn with plus, as one draw.
        XCTAssertEqual(additiveFrame.plan.items.map(\.blend), Array(repeating: .plus, count: 4))
        XCTAssertEqual(additiveFrame.stats.drawCalls, 1)
        let additive = image(additiveFrame)
        assertPixel(additive, 50, 50, [255, 204, 102, 255], tolerance: 2)
        assertPixel(additive, 45, 54, [255, 204, 102, 255], tolerance: 2)
        XCTAssertEqual(additive.pixel(44, 50), [0, 0, 0, 255])
        XCTAssertEqual(additive.pixel(55, 50), [0, 0, 0, 255])
        let unorderedFrame = try Self.renderer.render(try document(scene("unordered")), at: 1)
        XCTAssertEqual(unorderedFrame.plan.items.map(\.blend), Array(repeating: .sourceOver, count: 4))
        let unordered = image(unorderedFrame)
        assertPixel(unordered, 50, 50, [77, 51, 26, 255], tolerance: 1)
    }

    func testFiveThousandParticlesOfOneCellAreOneDrawCall() throws {
        // birthRate 5000 × lifetime 1: 5000 alive at t = 2, all within 30 + 8 pt of the centre.
        let doc = try document(#"""
        {"caprof": 1, "canvas": {"width": 100, "height": 100},
         "root": {"frame": [0, 0, 100, 100], "sublayers": [
           {"class": "CAEmitterLayer", "frame": [0, 0, 100, 100], "emitterPosition": [50, 50],
            "emitterCells": [{"contents": "assets/spark.png", "birthRate": 5000, "lifetime": 1, "velocity": 30,
                              "emissionRange": 6.283185307179586, "spin": 3, "alphaSpeed": -0.5}]}]}}
        """#)
        let f = try Self.renderer.render(doc, at: 2)
        XCTAssertEqual(f.plan.items.count, 5000)
        XCTAssertEqual(f.stats.drawCalls, 1)
    }

    func testTwoCellsWithDifferentImagesAreTwoDrawCalls() throws {
        // 2500 + 2500 live particles (birthRate 2500 × lifetime 1 each, at t = 2): one instanced
        // draw per cell, not one per particle and not one for all (the images differ).
        let doc = try document("""
        {"caprof": 1, "canvas": {"width": 100, "height": 100},
         "root": {"frame": [0, 0, 100, 100], "sublayers": [
           {"class": "CAEmitterLayer", "frame": [0, 0, 100, 100], "emitterPosition": [50, 50],
            "emitterCells": [{"contents": "assets/spark.png", "birthRate": 2500, "lifetime": 1, "velocity": 30, "emissionRange": 6.283185307179586},
                             {"contents": "\(try whiteImage(4, 4))", "birthRate": 2500, "lifetime": 1, "velocity": 30, "emissionRange": 6.283185307179586}]}]}}
        """)
        let f = try Self.renderer.render(doc, at: 2)
        XCTAssertEqual(f.plan.items.count, 5000)
        XCTAssertEqual(f.stats.drawCalls, 2)
    }
}
