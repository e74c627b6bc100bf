import XCTest
import Geometry
import LayerModel
@testable import Plan

/// minificationFilter = trilinear: the plan asks for trilinear sampling only where the image is
/// minified (mip levels matter only when texels shrink), and no longer reports it as unsupported.
final class TrilinearSamplingTests: XCTestCase {
    let location = SourceLocation(file: "s", pointer: "", line: 1, column: 1)

    /// A 64×64 image in a layer of `side`×`side` points on a 1× canvas.
    func sampling(side: Double, minification: ContentsFilter = .trilinear, magnification: ContentsFilter = .linear,
                  offset: Double = 0) -> (DrawItem.Sampling?, FramePlan) {
        let img = ImageSource(origin: .file("/checker.png"), location: location)
        let table: ImageTable = [img.origin: ImageInfo(key: 5, width: 64, height: 64)]
        var root = Layer(); root.setFrame(Rect(0, 0, 200, 200))
        var l = Layer(); l.setFrame(Rect(10 + offset, 10, side, side)); l.contents = img; l.contentsScale = 1
        l.minificationFilter = minification; l.magnificationFilter = magnification
        root.sublayers = [l]
        var s = Scene(canvas: Canvas(width: 200, height: 200, scale: 1), root: root); s.assignIDs()
        let p = FramePlanner(canvas: s.canvas, images: table).plan(root: s.root)
        guard case .image(_, let sampling, _)? = p.items.last?.paint else { return (nil, p) }
        return (sampling, p)
    }

    func testTrilinearIsChosenOnlyWhenMinified() {
        XCTAssertEqual(sampling(side: 8).0, .trilinear, "64 texels into 8 px: minified 8×")
        XCTAssertEqual(sampling(side: 63.5).0, .trilinear, "slightly minified")
        XCTAssertEqual(sampling(side: 64).0, .texelFetch, "1:1 on the pixel grid: the exact fast path")
        XCTAssertEqual(sampling(side: 64, offset: 0.5).0, .linear, "1:1 off the grid: level 0 only, bilinear")
        XCTAssertEqual(sampling(side: 128).0, .linear, "magnified: the magnification filter (linear)")
        XCTAssertEqual(sampling(side: 128, magnification: .trilinear).0, .linear,
                       "magnified with magnificationFilter = trilinear reads level 0: bilinear")
        XCTAssertEqual(sampling(side: 8, minification: .linear).0, .linear, "minified, linear filter: no levels")
        XCTAssertEqual(sampling(side: 8, minification: .linear, magnification: .trilinear).0, .linear,
                       "minified: the magnification filter does not apply")
    }

    func testTrilinearIsNoLongerReportedAsUnsupported() {
        for side in [8.0, 128] {
            let (_, p) = sampling(side: side, magnification: .trilinear)
            XCTAssertEqual(p.unsupported.count, 0, "\(p.unsupported)")
        }
    }
}
