import XCTest
import Geometry
import LayerModel
import Plan
@testable import Profile

/// Advice that fits the layer it is given to: what is the design is not called a fault, and a fix
/// already applied is not asked for again.
final class AdviceTests: XCTestCase, ProfileTestSupport {
    let canvas = Canvas(width: 100, height: 100, scale: 1, backgroundColor: .white)

    func finding(_ fs: [Finding], _ id: FindingID, _ layer: String) -> Finding? {
        fs.flatMap { $0.members ?? [$0] }.first { $0.id == id && $0.layer.display == layer }
    }

    func label(_ name: String, _ frame: Rect, background: Color?, string: String = "Hello") -> Layer {
        var t = Layer(.text); t.name = name; t.setFrame(frame); t.text.string = string; t.contentsScale = 1
        t.backgroundColor = background
        return t
    }

    /// A frosted bar: a CABackdropLayer with a translucent white, and a translucent tint inside it.
    /// The translucency is what makes it frosted: making it opaque would hide the backdrop.
    func testATranslucentTintOnOrInABackdropIsNotToldToBecomeOpaque() throws {
        var bar = Layer(.backdrop); bar.name = "bar"; bar.setFrame(Rect(0, 60, 100, 40)); bar.backgroundColor = Color(1, 1, 1, 0.5)
        bar.sublayers = [box("tint", Rect(0, 0, 100, 40), Color(1, 0, 0, 0.25))]
        let plain = box("plain", Rect(10, 10, 30, 30), Color(0, 0, 1, 0.5))
        let fs = findings(root(canvas, [plain, bar]), canvas)
        for name in ["bar", "tint"] {
            let f = try XCTUnwrap(finding(fs, .blended, name), name)
            XCTAssertEqual(f.evidence.blendReasons, [.translucentColor])
            XCTAssertFalse(f.fix.contains("make backgroundColor"), f.fix)
            XCTAssertTrue(f.fix.contains("frosted"), f.fix)
        }
        // The same colour outside a backdrop is still a fault.
        XCTAssertTrue(try XCTUnwrap(finding(fs, .blended, "plain")).fix.contains("make backgroundColor (and borderColor) opaque"))
    }

    func testATextLayerWithAnOpaqueBackgroundIsNotToldToGetOne() throws {
        let fs = findings(root(canvas, [label("opaque", Rect(10, 10, 60, 20), background: .white),
                                        label("clear", Rect(10, 50, 60, 20), background: nil)]), canvas)
        let opaque = try XCTUnwrap(finding(fs, .blended, "opaque"))
        XCTAssertEqual(opaque.evidence.rasterContent, "text")
        XCTAssertFalse(opaque.fix.contains("give the text layer an opaque backgroundColor"), opaque.fix)
        XCTAssertTrue(opaque.fix.contains("already has an opaque backgroundColor"), opaque.fix)
        // Without one, getting one is the fix.
        XCTAssertTrue(try XCTUnwrap(finding(fs, .blended, "clear")).fix.contains("give the text layer an opaque backgroundColor"))
    }

    /// A label that moves onto the canvas existed all along: "create the layer before it is shown"
    /// would change nothing. One added by a transaction mid-run did appear.
    func testContentThatComesIntoViewIsNotToldToBeCreatedEarlier() throws {
        let before = root(canvas, [label("scrolling", Rect(-200, 10, 60, 20), background: nil)])
        let after = root(canvas, [label("scrolling", Rect(10, 10, 60, 20), background: nil),
                                  label("added", Rect(10, 50, 60, 20), background: nil, string: "Added")])
        let fs = profile([before, after], canvas)
        let moved = try XCTUnwrap(finding(fs, .rasterCPU, "scrolling"))
        XCTAssertEqual(moved.evidence.rasterChange, "came into view")
        XCTAssertFalse(moved.fix.contains("create the layer before it is shown"), moved.fix)
        XCTAssertTrue(moved.fix.hasPrefix("nothing to fix"), moved.fix)
        let added = try XCTUnwrap(finding(fs, .rasterCPU, "added"))
        XCTAssertEqual(added.evidence.rasterChange, "appeared")
        XCTAssertTrue(added.fix.contains("create the layer before it is shown"), added.fix)
    }
}
