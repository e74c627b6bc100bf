import XCTest
import CPangoABICheck

/// The shim opens cairo, fontconfig and Pango itself (dlopen) and declares Pango's entry points
/// by hand. `CPangoABICheck` compiles those declarations against Pango's own headers; here, each
/// function pointer the loader resolved must be the very function this test binary links.
final class PangoABITests: XCTestCase {
    func testEveryLoadedSymbolIsTheLinkedFunction() {
        XCTAssertEqual(caprof_pango_abi_slot_count(), 65, "30 cairo, 5 fontconfig and 30 Pango functions")
        XCTAssertEqual(caprof_pango_abi_mismatches(), 0)
    }
}
