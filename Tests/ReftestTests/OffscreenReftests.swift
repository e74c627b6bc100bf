import Foundation
import Pipeline
import SceneFormat
import XCTest

/// The render graph's effects on lavapipe (reference §1.8–§1.12): masks, shadows, group opacity,
/// rounded clips of composites and shouldRasterize, each against hand-computed pixels or an
/// equivalent scene.
final class OffscreenReftests: ReftestCase {
    func testAHalfTransparentMaskEqualsHalfOpacity() throws {
        let masked = try render(scene(40, 40, ##"""
            {"frame": [5, 5, 30, 30], "backgroundColor": "#FF3B30",
             "sublayers": [{"frame": [5, 5, 10, 10], "backgroundColor": "#007AFF"}],
             "mask": {"frame": [0, 0, 30, 30], "backgroundColor": [0, 0, 0, 0.5]}}
            """##))
        let faded = try render(scene(40, 40, ##"""
            {"frame": [5, 5, 30, 30], "backgroundColor": "#FF3B30", "opacity": 0.5,
             "sublayers": [{"frame": [5, 5, 10, 10], "backgroundColor": "#007AFF"}]}
            """##))
        assertImagesMatch(masked, faded, tolerance: 1)
    }

    func testTheMaskIsInTheLayersSpaceAndOnlyItsAlphaCounts() throws {
        // A white (colour ignored) mask over the left half of a layer at (10, 10).
        let img = try render(scene(40, 40, ##"""
            {"frame": [10, 10, 20, 20], "backgroundColor": "black",
             "mask": {"frame": [0, 0, 10, 20], "backgroundColor": "white"}}
            """##))
        assertPixel(img, 12, 20, [0, 0, 0, 255], tolerance: 0)       // inside the mask: the layer
        assertPixel(img, 25, 20, [255, 255, 255, 255], tolerance: 0) // outside: what is behind
        assertPixel(img, 5, 20, [255, 255, 255, 255], tolerance: 0)
    }

    func testAMovingMaskRevealsWhereItIs() throws {
        let doc = try SceneDecoder.decode(data: Array(scene(40, 20, ##"""
            {"frame": [0, 0, 40, 20], "backgroundColor": "black",
             "mask": {"frame": [0, 0, 10, 20], "backgroundColor": "white",
                      "animations": [{"class": "CABasicAnimation", "keyPath": "position.x", "fromValue": 5, "toValue": 35, "duration": 1}]}}
            """##).utf8), file: "mask.json", baseDirectory: "/")
        let at0 = try Self.renderer.render(doc, at: 0), atHalf = try Self.renderer.render(doc, at: 0.5)
        let a = Image(width: at0.width, height: at0.height, pixels: at0.pixels)
        let b = Image(width: atHalf.width, height: atHalf.height, pixels: atHalf.pixels)
        assertPixel(a, 4, 10, [0, 0, 0, 255], tolerance: 0)
        assertPixel(a, 20, 10, [255, 255, 255, 255], tolerance: 0)
        // At t = 0.5 the mask is centred at x = 20: it covers 15…25.
        assertPixel(b, 4, 10, [255, 255, 255, 255], tolerance: 0)
        assertPixel(b, 20, 10, [0, 0, 0, 255], tolerance: 0)
    }

    func testGroupOpacityOverOverlappingChildrenShowsNoSeam() throws {
        let img = try render(scene(40, 40, ##"""
            {"frame": [0, 0, 40, 40], "opacity": 0.5, "sublayers": [
              {"frame": [0, 0, 25, 25], "backgroundColor": "red"},
              {"frame": [15, 15, 25, 25], "backgroundColor": "blue"}]}
            """##))
        // The group is flattened first: the overlap is blue only, then faded once over white:
        // (0, 0, 1)·0.5 + white·0.5 = (0.5, 0.5, 1) → (128, 128, 255). Per-layer opacity would
        // give blue over half-red there: (0.25, 0.25, 0.75) + white·0.25 … = (0.5·0.5+0.25, …).
        assertPixel(img, 20, 20, [128, 128, 255, 255], tolerance: 1)
        assertPixel(img, 5, 5, [255, 128, 128, 255], tolerance: 1)
        assertPixel(img, 35, 35, [128, 128, 255, 255], tolerance: 1)
        // allowsGroupOpacity = false: each layer at half opacity; the red shows through the blue:
        // red over white = (1, .5, .5); blue at .5 over it = (.5, .25, .75) → (128, 64, 191).
        let perLayer = try render(scene(40, 40, ##"""
            {"frame": [0, 0, 40, 40], "opacity": 0.5, "allowsGroupOpacity": false, "sublayers": [
              {"frame": [0, 0, 25, 25], "backgroundColor": "red"},
              {"frame": [15, 15, 25, 25], "backgroundColor": "blue"}]}
            """##))
        assertPixel(perLayer, 20, 20, [128, 64, 191, 255], tolerance: 1)
    }

    /// The shadow of an opaque rectangle without shadowPath matches the Gaussian's error-function
    /// profile: at distance d outside an edge (far from the corners) the shadow's alpha is
    /// opacity · ½·erfc(d / (σ√2)).
    func testPathlessShadowFollowsTheErrorFunction() throws {
        let img = try render(scene(80, 80, ##"""
            {"frame": [20, 20, 40, 40], "backgroundColor": "white",
             "shadowOpacity": 1, "shadowRadius": 4, "shadowOffset": [0, 0], "shadowColor": "black"}
            """##))
        for x in [19, 17, 14, 10] {
            let d = 20 - (Double(x) + 0.5)
            // Across x the box is 40 wide (the far edge adds nothing measurable); along y the pixel
            // row 40 is 20 px from both edges (erf ≈ 1).
            let alpha = 0.5 * erfc(d / (4 * 2.0.squareRoot()))
            let v = Int((255 * (1 - alpha)).rounded())
            assertPixel(img, x, 40, [v, v, v, 255], tolerance: 2)
        }
        assertPixel(img, 1, 40, [255, 255, 255, 255], tolerance: 0)   // beyond 3σ: nothing
        assertPixel(img, 40, 40, [255, 255, 255, 255], tolerance: 0)  // the layer covers its shadow
    }

    /// Radii 3, 5 and 13 pt at scale 2 are σ = 6, 10 and 26 device pixels: blurred at full, half
    /// and quarter resolution (`ShadowBlur`).
    func testShadowPathShadowEqualsThePathlessShadowOfTheSameOpaqueShape() throws {
        for radius in [3, 5, 13] {
        for (shape, path) in [("\"cornerRadius\": 0", ##"{"rect": [0, 0, 40, 30]}"##),
                              ("\"cornerRadius\": 10", ##"{"roundedRect": [0, 0, 40, 30], "cornerRadius": 10}"##)] {
            let layer = { (extra: String) in
                ##"{"frame": [40, 40, 40, 30], "backgroundColor": "#34C759", \##(shape), "shadowOpacity": 0.8, "shadowRadius": \##(radius), "shadowOffset": [2, 4]\##(extra)}"##
            }
            let pathless = try render(scene(120, 110, scale: 2, layer("")))
            let withPath = try render(scene(120, 110, scale: 2, layer(", \"shadowPath\": " + path)))
            assertImagesMatch(withPath, pathless, tolerance: 1, "shadowPath \(shape) radius \(radius)")
            // Both cast a shadow: below the layer (its bottom edge at device y 140, the shadow 8 px lower).
            XCTAssertLessThan(withPath.pixel(120, 150)[0], 230, "a visible shadow under the layer")
        }
        }
    }

    /// Any other shadowPath (a five-pointed star) is filled and blurred on the CPU
    /// (`ShadowPathRasterizer`): its shadow equals the path-less shadow of the same star drawn as
    /// an opaque shape, whose alpha the GPU blurs, with the same kernel. σ = 6, 10 and 26 px are
    /// blurred at full, half and quarter resolution; the texture is rounded to 8 bits before the
    /// shadowOpacity applies, hence 2/255.
    func testAStarShadowPathCastsThePathlessShadowOfTheSameOpaqueStar() throws {
        let star = "M 40 0 L 49 28 L 78 28 L 55 46 L 63 74 L 40 56 L 17 74 L 25 46 L 2 28 L 31 28 Z"
        for radius in [3, 5, 13] {
            let layer = { (extra: String) in
                ##"{"class": "CAShapeLayer", "frame": [30, 20, 80, 80], "path": "\##(star)", "fillColor": "#34C759", "shadowOpacity": 0.8, "shadowRadius": \##(radius), "shadowOffset": [3, 5]\##(extra)}"##
            }
            let pathless = try render(scene(140, 130, scale: 2, layer("")))
            let withPath = try render(scene(140, 130, scale: 2, layer(", \"shadowPath\": \"\(star)\"")))
            assertImagesMatch(withPath, pathless, tolerance: 2, "star shadowPath radius \(radius)")
            // The star's right arm ends at x 30 + 78 pt; its shadow, 3 pt further, is visible past it.
            XCTAssertLessThan(withPath.pixel(2 * 110, 2 * 53)[0], 250, "a visible shadow beyond the right arm")
        }
    }

    /// A rectangle traced the other way round is not recognised as CGPath(rect:), so it is
    /// rasterised and blurred on the CPU; its shadow matches the analytic (error-function) shadow
    /// of the rectangle.
    func testARectangleShadowPathTracedAnyWayCastsTheAnalyticShadow() throws {
        for radius in [3, 13] {
            let layer = { (path: String) in
                ##"{"frame": [40, 40, 40, 30], "backgroundColor": "#34C759", "shadowOpacity": 0.8, "shadowRadius": \##(radius), "shadowOffset": [2, 4], "shadowPath": \##(path)}"##
            }
            let analytic = try render(scene(120, 110, scale: 2, layer(##"{"rect": [0, 0, 40, 30]}"##)))
            let traced = try render(scene(120, 110, scale: 2, layer(##""M 0 0 L 0 30 L 40 30 L 40 0 Z""##)))
            assertImagesMatch(traced, analytic, tolerance: 2, "counter-clockwise rectangle radius \(radius)")
        }
    }

    /// A shadowPath replaces the layer's alpha as the shadow's shape, so a layer that draws nothing
    /// casts it; and it is filled with the non-zero winding rule (reference §1.11): the pentagon
    /// inside a pentagram drawn in one stroke winds twice and is filled (even-odd would leave it
    /// empty). σ = 0: deep inside, the shadow is shadowOpacity 0.8 of black over white, 255 · 0.2 = 51.
    func testAClearLayersShadowPathIsFilledWithTheNonZeroRule() throws {
        let pentagram = "M 40 0 L 63 74 L 2 28 L 78 28 L 17 74 Z"
        let img = try render(scene(100, 100, ##"""
            {"frame": [10, 10, 80, 80], "shadowOpacity": 0.8, "shadowRadius": 0, "shadowOffset": [0, 0],
             "shadowPath": "\##(pentagram)"}
            """##))
        assertPixel(img, 10 + 40, 10 + 40, [51, 51, 51, 255], tolerance: 0)   // the inner pentagon (winding 2)
        assertPixel(img, 10 + 40, 10 + 10, [51, 51, 51, 255], tolerance: 0)   // the top arm (winding 1)
        assertPixel(img, 10 + 10, 10 + 60, [255, 255, 255, 255], tolerance: 0) // outside the star
        let rect = try render(scene(100, 100, ##"""
            {"frame": [10, 10, 80, 80], "shadowOpacity": 0.8, "shadowRadius": 0, "shadowOffset": [0, 0],
             "shadowPath": {"rect": [20, 20, 40, 40]}}
            """##))
        assertPixel(rect, 50, 50, [51, 51, 51, 255], tolerance: 0)             // the analytic shadow too
    }

    /// A layer that draws nothing but a shadowPath's shadow still has its mask and its
    /// shouldRasterize applied to that shadow: a mask over the left half keeps only that half; a
    /// cached shadow 6000 pt wide (past a texture's side, so the plan crops what it rasterises) is
    /// cropped in the layer's space, where the cache lives, not to the canvas's preimage.
    func testAShadowOnlyLayersMaskAndRasterCacheApplyToItsShadow() throws {
        for path in [##"{"rect": [0, 0, 80, 40]}"##, ##""M 0 0 L 0 40 L 80 40 L 80 0 Z""##] {
            let img = try render(scene(100, 60, ##"""
                {"frame": [10, 10, 80, 40], "shadowOpacity": 0.8, "shadowRadius": 0, "shadowOffset": [0, 0], "shadowPath": \##(path),
                 "mask": {"frame": [0, 0, 40, 40], "backgroundColor": "black"}}
                """##))
            assertPixel(img, 30, 30, [51, 51, 51, 255], tolerance: 0)      // under the mask: the shadow
            assertPixel(img, 70, 30, [255, 255, 255, 255], tolerance: 0)   // beyond it: nothing
        }
        for rasterize in [false, true] {
            let img = try render(scene(100, 60, ##"""
                {"frame": [-3000, 10, 6000, 40], "shouldRasterize": \##(rasterize), "rasterizationScale": 1,
                 "shadowOpacity": 0.8, "shadowRadius": 0, "shadowOffset": [0, 0], "shadowPath": "M 0 0 L 6000 0 L 3000 40 Z"}
                """##))
            // Canvas (50, 15) is the triangle's (3050, 5), well inside it.
            assertPixel(img, 50, 15, [51, 51, 51, 255], tolerance: 2)
            assertPixel(img, 50, 55, [255, 255, 255, 255], tolerance: 0)
        }
    }

    /// An ancestor's masksToBounds clips the shadow where the shadow falls (the offset included),
    /// for the analytic and the rasterised shadow alike: a 40 pt square at y 10…50 inside a clip
    /// 60 pt tall casts a hard shadow 30 pt lower, at y 40…80, of which y 50…60 shows.
    func testAnAncestorsClipCutsTheShadowWhereItFalls() throws {
        for path in [##"{"rect": [0, 0, 40, 40]}"##, ##""M 0 0 L 0 40 L 40 40 L 40 0 Z""##] {
            let img = try render(scene(100, 100, ##"""
                {"frame": [0, 0, 100, 60], "masksToBounds": true,
                 "sublayers": [{"frame": [20, 10, 40, 40], "backgroundColor": "#FF0000",
                                "shadowOpacity": 1, "shadowRadius": 0, "shadowOffset": [0, 30], "shadowPath": \##(path)}]}
                """##))
            assertPixel(img, 40, 30, [255, 0, 0, 255], tolerance: 0)      // the layer
            assertPixel(img, 40, 55, [0, 0, 0, 255], tolerance: 0)        // its shadow, inside the clip
            assertPixel(img, 40, 70, [255, 255, 255, 255], tolerance: 0)  // its shadow beyond the clip: cut
        }
    }

    func testMasksToBoundsHidesTheShadowOutsideTheBounds() throws {
        let img = try render(scene(60, 60, ##"""
            {"frame": [20, 20, 20, 20], "backgroundColor": "white", "masksToBounds": true,
             "shadowOpacity": 1, "shadowRadius": 2, "shadowOffset": [0, 5]}
            """##))
        assertImagesMatch(img, try render(scene(60, 60, ##"{"frame": [20, 20, 20, 20], "backgroundColor": "white"}"##)))
    }

    func testARoundedClipOfSeveralDrawsLeavesNoFringe() throws {
        // A red background entirely covered by a blue child, clipped to a circle: offscreen, the
        // composite is clipped once, so no red shows in the antialiased rim; the result is the
        // blue circle drawn directly.
        let clipped = try render(scene(40, 40, scale: 2, ##"""
            {"frame": [5, 5, 30, 30], "backgroundColor": "red", "cornerRadius": 15, "masksToBounds": true,
             "sublayers": [{"frame": [0, 0, 30, 30], "backgroundColor": "blue"}]}
            """##))
        let direct = try render(scene(40, 40, scale: 2, ##"{"frame": [5, 5, 30, 30], "backgroundColor": "blue", "cornerRadius": 15}"##))
        assertImagesMatch(clipped, direct, tolerance: 1)
    }

    func testShouldRasterizeAtTheScreenScaleDrawsTheSamePixelsAndHitsReuseThem() throws {
        let card = { (extra: String) in
            ##"""
            {"frame": [10, 10, 60, 40], "backgroundColor": "#5856D6", "cornerRadius": 8\##(extra),
             "sublayers": [{"frame": [10, 10, 20, 20], "backgroundColor": "#FFCC00", "opacity": 0.7}],
             "animations": [{"class": "CABasicAnimation", "keyPath": "position.x", "fromValue": 40, "toValue": 70, "duration": 1}]}
            """##
        }
        let plain = try SceneDecoder.decode(data: Array(scene(80, 60, scale: 2, card("")).utf8), file: "a.json", baseDirectory: "/")
        let cached = try SceneDecoder.decode(data: Array(scene(80, 60, scale: 2, card(##", "shouldRasterize": true, "rasterizationScale": 2"##)).utf8),
                                             file: "b.json", baseDirectory: "/")
        Self.renderer.resetRasterCache()
        let miss = try Self.renderer.render(cached, at: 0)
        XCTAssertEqual(miss.plan.rasterCache.map(\.isHit), [false])
        let reference = try Self.renderer.render(plain, at: 0)
        func image(_ f: SceneRenderer.Frame) -> Image { Image(width: f.width, height: f.height, pixels: f.pixels) }
        assertImagesMatch(image(miss), image(reference), tolerance: 1)
        // Two 60 fps frames later it has moved by 1 pt (2 device pixels): a hit, the same pixels as drawing it afresh.
        let animated = AnimatedScene(cached)
        Self.renderer.resetRasterCache()
        _ = try Self.renderer.render(animated, at: 0)
        let hit = try Self.renderer.render(animated, at: 1.0 / 30)
        XCTAssertEqual(hit.plan.rasterCache.map(\.isHit), [true])
        XCTAssertTrue(hit.plan.offscreenPasses.isEmpty)
        assertImagesMatch(image(hit), image(try Self.renderer.render(plain, at: 1.0 / 30)), tolerance: 1)
    }
}

/// CATransition states as snapshots (reference §4.7).
final class TransitionSnapshotReftests: ReftestCase {
    func frame(_ type: String, at t: Double) throws -> Image {
        let json = scene(40, 20, ##"""
            {"name": "card", "frame": [0, 0, 40, 20], "backgroundColor": "red"}
            """##)
        var text = json
        text.removeLast()   // the document's closing brace: the transactions follow the root
        text += ##"""
            , "transactions": [{"time": 1, "disableActions": true,
              "set": [{"layer": "card", "keyPath": "backgroundColor", "value": "blue"}],
              "add": [{"layer": "card", "animation": {"class": "CATransition", "type": "\##(type)", "duration": 1}}]}]}
            """##
        let doc = try SceneDecoder.decode(data: Array(text.utf8), file: "t.json", baseDirectory: "/")
        let f = try Self.renderer.render(doc, at: t)
        return Image(width: f.width, height: f.height, pixels: f.pixels)
    }

    func testFadeIsATrueCrossDissolve() throws {
        // Halfway (the default timing function is linear for a CATransition without one; 1.5 s is
        // p = 0.5): red · 0.5 + blue · 0.5 = (128, 0, 128), opaque; nothing of the white canvas.
        // Drawing blue at 0.5 over red at 0.5 would give (64, 0, 128) + white · 0.25 = (128, 64, 191).
        let img = try frame("fade", at: 1.5)
        assertPixel(img, 20, 10, [128, 0, 128, 255], tolerance: 1)
        assertPixel(try frame("fade", at: 0.5), 20, 10, [255, 0, 0, 255], tolerance: 0)
        assertPixel(try frame("fade", at: 2.5), 20, 10, [0, 0, 255, 255], tolerance: 0)
    }

    func testPushMovesBothSnapshots() throws {
        // push from the left, halfway: the new state covers x 0…20 (it comes in from −40 + 20),
        // the old state x 20…40.
        let img = try frame("push", at: 1.5)
        assertPixel(img, 10, 10, [0, 0, 255, 255], tolerance: 0)
        assertPixel(img, 30, 10, [255, 0, 0, 255], tolerance: 0)
    }
}
