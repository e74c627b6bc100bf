import XCTest

/// Canvas, opacity, visibility, order: scene vs hand-computed pixels or vs an equivalent scene.
final class CompositingReftests: ReftestCase {
    func testCanvasBackgroundAndTransparentOutput() throws {
        let opaque = try render(scene(8, 8, background: "\"#336699\"", ""))
        assertPixel(opaque, 3, 3, [0x33, 0x66, 0x99, 255], tolerance: 0)
        let clear = try render(scene(8, 8, background: "null", ""))
        assertPixel(clear, 3, 3, [0, 0, 0, 0], tolerance: 0)
    }

    func testOpacityBlendsInEncodedSpace() throws {
        // red at 0.5 over white: premultiplied (0.5,0,0,0.5) + white·0.5 = (1, 0.5, 0.5) → (255, 127.5, 127.5)
        let img = try render(scene(8, 8, ##"{"frame": [0, 0, 8, 8], "backgroundColor": "red", "opacity": 0.5}"##))
        assertPixel(img, 4, 4, [255, 128, 128, 255], tolerance: 1)
        // nested 0.5 · 0.5 = 0.25: (1, 0.75, 0.75) → (255, 191.25, 191.25)
        let nested = try render(scene(8, 8, ##"{"frame": [0, 0, 8, 8], "opacity": 0.5, "sublayers": [{"frame": [0, 0, 8, 8], "backgroundColor": "red", "opacity": 0.5}]}"##))
        assertPixel(nested, 4, 4, [255, 191, 191, 255], tolerance: 1)
        // a translucent colour: #FF000080 (α = 128/255) over white
        let alpha = try render(scene(8, 8, ##"{"frame": [0, 0, 8, 8], "backgroundColor": "#FF000080"}"##))
        assertPixel(alpha, 4, 4, [255, 127, 127, 255], tolerance: 1)
    }

    func testHiddenLayerDrawsNothing() throws {
        let hidden = try render(scene(16, 16, ##"{"frame": [2, 2, 8, 8], "backgroundColor": "red", "hidden": true, "sublayers": [{"frame": [0, 0, 4, 4], "backgroundColor": "blue"}]}"##))
        assertImagesMatch(hidden, try render(scene(16, 16, "")))
    }

    func testZPositionOrdersSiblings() throws {
        let a = ##"{"frame": [2, 2, 8, 8], "backgroundColor": "red", "zPosition": 1}"##
        let b = ##"{"frame": [6, 6, 8, 8], "backgroundColor": "blue"}"##
        let aNoZ = ##"{"frame": [2, 2, 8, 8], "backgroundColor": "red"}"##
        assertImagesMatch(try render(scene(16, 16, a + "," + b)), try render(scene(16, 16, b + "," + aNoZ)))
    }

    func testCanvasScaleMultipliesPixels() throws {
        let img = try render(scene(10, 10, scale: 2, ##"{"frame": [1, 1, 3, 3], "backgroundColor": "black"}"##))
        XCTAssertEqual(img.width, 20)
        assertPixel(img, 2, 2, [0, 0, 0, 255], tolerance: 0)
        assertPixel(img, 7, 7, [0, 0, 0, 255], tolerance: 0)
        assertPixel(img, 8, 8, [255, 255, 255, 255], tolerance: 0)
        assertPixel(img, 1, 1, [255, 255, 255, 255], tolerance: 0)
    }
}
