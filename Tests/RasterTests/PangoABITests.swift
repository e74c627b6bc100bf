import XCTest
import CPangoABICheck

/// The shim opens cairo, fontconfig and Pango itself (dlopen) and declares Pango's entry points
/// by hand. `CPangoABICheck` compiles those declarations against Pango's own headers; here, each
/// function pointer the loader resolved must be the very function this test binary links.
final class PangoABITests: XCTestCase {
    func testEveryLoadedSymbolIsTheLinkedFunction() {
        XCTAssertEqual(caprof_pango_abi_slot_count(), 65, "30 cairo, 5 fontconfig, 29 Pango functions and g_object_unref")
        XCTAssertEqual(caprof_pango_abi_mismatches(), 0)
    }
}
