import XCTest
import LayerModel
@testable import AssetImport

/// compositingFilter in `.ca` packages: a CAFilter element whose type is the mode's name, or the
/// name itself as a string; nil and normalBlendMode are source-over; an unknown name is a warning.
final class CompositingFilterImportTests: XCTestCase {
    func decode(_ body: String) throws -> (Layer, [String]) {
        let caml = """
        <caml xmlns="http://www.apple.com/CoreAnimation/1.0">
          <CALayer bounds="0 0 100 50" position="50 25">
            <sublayers>
        \(body)
            </sublayers>
          </CALayer>
        </caml>
        """
        let doc = try CAMLImporter.decode(data: Array(caml.utf8), file: "t.caml", bundle: "/", index: nil)
        return (doc.scene.root, doc.warnings.map(\.feature))
    }

    func testAFilterElementOrANameSetsTheMode() throws {
        let (root, warnings) = try decode("""
              <CALayer bounds="0 0 10 10"><compositingFilter type="CAFilter" filter="screenBlendMode"/></CALayer>
              <CALayer bounds="0 0 10 10"><compositingFilter type="CAFilter" filter="lightenBlendMode"/></CALayer>
              <CALayer bounds="0 0 10 10" compositingFilter="plusD"/>
              <CALayer bounds="0 0 10 10"><compositingFilter type="CAFilter" filter="normalBlendMode"/></CALayer>
        """)
        XCTAssertEqual(root.sublayers.map(\.compositingFilter), [.screenBlendMode, .lightenBlendMode, .plusD, .normalBlendMode])
        XCTAssertFalse(warnings.contains { $0.contains("compositingFilter") }, "\(warnings)")
    }

    func testAnUnknownFilterIsAWarningAndSourceOver() throws {
        let (root, warnings) = try decode("""
              <CALayer bounds="0 0 10 10"><compositingFilter type="CAFilter" filter="vibrantDarkBlendMode"/></CALayer>
        """)
        XCTAssertEqual(root.sublayers.first?.compositingFilter, .normalBlendMode)
        XCTAssertTrue(warnings.contains { $0.contains("compositingFilter vibrantDarkBlendMode is not a compositing filter caprof knows (expected one of normalBlendMode, multiplyBlendMode") },
                      "\(warnings)")
    }
}
