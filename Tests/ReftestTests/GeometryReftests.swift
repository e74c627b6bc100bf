import XCTest

/// Geometry (reference §1.3–1.6) rendered: each scene against an equivalent one written without
/// the feature, whose placement is computed by hand in the comment.
final class GeometryReftests: ReftestCase {
    let red = #""backgroundColor": "red""#

    func testAnchorPointAndPosition() throws {
        // bounds 20×20, anchor (0,0), position (10,6) → frame (10,6,20,20)
        assertImagesMatch(try render(scene(40, 40, #"{"bounds": [0,0,20,20], "anchorPoint": [0,0], "position": [10,6], \#(red)}"#)),
                          try render(scene(40, 40, #"{"frame": [10,6,20,20], \#(red)}"#)))
    }

    func testTransformTranslateAndRotateSquare() throws {
        assertImagesMatch(try render(scene(40, 40, #"{"frame": [4,4,20,20], "transform": "translate(5, 7)", \#(red)}"#)),
                          try render(scene(40, 40, #"{"frame": [9,11,20,20], \#(red)}"#)))
        // A square rotated 90° about its centre covers the same pixels (the rotation path, not the
        // axis-aligned fast path, draws it).
        assertImagesMatch(try render(scene(40, 40, #"{"frame": [4,4,20,20], "transform": "rotate(90deg)", \#(red)}"#)),
                          try render(scene(40, 40, #"{"frame": [4,4,20,20], \#(red)}"#)))
    }

    func testSublayerTransformScalesAboutTheAnchor() throws {
        // parent 64×64 (anchor at 32,32) with sublayerTransform scale(2): child (16,16,8,8) → (0,0,16,16)
        assertImagesMatch(try render(scene(64, 64, #"{"frame": [0,0,64,64], "sublayerTransform": "scale(2)", "sublayers": [{"frame": [16,16,8,8], \#(red)}]}"#)),
                          try render(scene(64, 64, #"{"frame": [0,0,16,16], \#(red)}"#)))
    }

    func testPerspectiveSublayerTransformAndZPosition() throws {
        // perspective(500), child at z = 250 → w = 0.5: offsets from the parent's centre double.
        // child (40,40,20,20) → (30,30,40,40)
        assertImagesMatch(try render(scene(100, 100, #"{"frame": [0,0,100,100], "sublayerTransform": "perspective(500)", "sublayers": [{"frame": [40,40,20,20], "zPosition": 250, \#(red)}]}"#)),
                          try render(scene(100, 100, #"{"frame": [30,30,40,40], \#(red)}"#)))
    }

    func testPerspectiveRotationMakesATrapezoid() throws {
        // rotateY(60°) under perspective(200): the right edge (x = +20 from the centre) goes to
        // z = −20·sin60 = −17.3, w = 1.087, x = 20·cos60/1.087 = 9.2 → the far edge is shorter:
        // its half-height is 20/1.087 = 18.4; the near (left) edge, at x = −9.2·(1/0.92) … is taller.
        let img = try render(scene(100, 100, #"{"frame": [0,0,100,100], "sublayerTransform": "perspective(200)", "sublayers": [{"frame": [30,30,40,40], "transform": "rotateY(60deg)", \#(red)}]}"#))
        // left edge: x = −20·cos60 = −10, z = +17.3, w = 0.913 → x = −10.95, half-height 21.9
        assertPixel(img, 50 - 10, 50 - 21, [255, 0, 0, 255], tolerance: 0)     // inside near edge
        assertPixel(img, 50 - 10, 50 - 23, [255, 255, 255, 255], tolerance: 0) // outside
        assertPixel(img, 50 + 8, 50 - 17, [255, 0, 0, 255], tolerance: 0)      // inside far edge
        assertPixel(img, 50 + 8, 50 - 20, [255, 255, 255, 255], tolerance: 0)  // outside: shorter
        assertPixel(img, 50 + 11, 50, [255, 255, 255, 255], tolerance: 0)      // beyond x = 9.2
    }

    func testGeometryFlippedPlacesFromTheBottomAndKeepsContentsUpright() throws {
        // flipped 64-tall parent: child (8,4,30,20) → y = 64 − 4 − 20 = 40
        let flipped = try render(scene(64, 64, #"{"frame": [0,0,64,64], "geometryFlipped": true, "sublayers": [{"frame": [8,4,30,20], "contents": "assets/landscape.png", "contentsScale": 10}]}"#))
        let plain = try render(scene(64, 64, #"{"frame": [8,40,30,20], "contents": "assets/landscape.png", "contentsScale": 10}"#))
        assertImagesMatch(flipped, plain, tolerance: 2)
    }

    func testBoundsOriginScrollsSublayers() throws {
        // bounds.origin (0, 10) moves sublayers up by 10
        assertImagesMatch(try render(scene(40, 40, #"{"frame": [0,0,40,40], "bounds": [0,10,40,40], "sublayers": [{"frame": [5,15,10,10], \#(red)}]}"#)),
                          try render(scene(40, 40, #"{"frame": [5,5,10,10], \#(red)}"#)))
    }

    func testDoubleSidedCullsBackFaces() throws {
        let back = #"{"frame": [4,4,20,20], "transform": "rotateY(180deg)", "doubleSided": false, \#(red)}"#
        assertImagesMatch(try render(scene(32, 32, back)), try render(scene(32, 32, "")))
        // doubleSided (the default) draws the mirrored back face.
        let shown = try render(scene(32, 32, #"{"frame": [4,4,20,20], "transform": "rotateY(180deg)", \#(red)}"#))
        assertPixel(shown, 14, 14, [255, 0, 0, 255], tolerance: 0)
    }

    func testMasksToBoundsClipsSublayers() throws {
        assertImagesMatch(try render(scene(40, 40, #"{"frame": [10,10,20,20], "masksToBounds": true, "sublayers": [{"frame": [-5,-5,40,40], \#(red)}]}"#)),
                          try render(scene(40, 40, #"{"frame": [10,10,20,20], \#(red)}"#)))
    }

    func testRotatedClip() throws {
        // A parent rotated 90° about its centre clips exactly as the unrotated square does.
        assertImagesMatch(try render(scene(40, 40, #"{"frame": [10,10,20,20], "transform": "rotate(90deg)", "masksToBounds": true, "sublayers": [{"frame": [-5,-5,40,40], \#(red)}]}"#)),
                          try render(scene(40, 40, #"{"frame": [10,10,20,20], \#(red)}"#)))
    }
}
