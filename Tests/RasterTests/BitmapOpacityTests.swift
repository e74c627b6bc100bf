import XCTest
@testable import Raster

final class BitmapOpacityTests: XCTestCase {
    func testOpaqueOnlyWhenEveryAlphaIs255() {
        XCTAssertTrue(Bitmap(width: 2, height: 1, pixels: [1, 2, 3, 255, 0, 0, 0, 255]).isOpaque)
        XCTAssertFalse(Bitmap(width: 2, height: 1, pixels: [1, 2, 3, 255, 0, 0, 0, 254]).isOpaque)
        XCTAssertFalse(Bitmap(width: 1, height: 1, pixels: [0, 0, 0, 0]).isOpaque)
    }
}
