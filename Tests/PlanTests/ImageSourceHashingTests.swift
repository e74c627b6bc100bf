import XCTest
import LayerModel

/// Embedded images key the planner's image tables: their hash samples the bytes (it is taken on
/// every lookup), and equality still compares them whole.
final class ImageSourceHashingTests: XCTestCase {
    func testEqualBytesHashAlikeAndBytesDifferingAnywhereAreNotEqual() {
        let n = 100_000
        let bytes = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let a = ImageSource.Origin.data(bytes), b = ImageSource.Origin.data(Array(bytes))   // separate storage
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.hashValue, b.hashValue)
        // One byte changed where the hash does not look (between two samples): still a different
        // image, told apart by equality, so a dictionary keeps both.
        var changed = bytes
        changed[300 + 1] ^= 0xFF
        let c = ImageSource.Origin.data(changed)
        XCTAssertNotEqual(a, c)
        let table: [ImageSource.Origin: Int] = [a: 1, c: 2]
        XCTAssertEqual(table[b], 1)
        XCTAssertEqual(table[.data(changed)], 2)
        // Short data, every length around the sampled edges, and files.
        for k in [0, 1, 255, 256, 257, 511, 512, 513] {
            let s = Array(bytes.prefix(k))
            XCTAssertEqual(ImageSource.Origin.data(s).hashValue, ImageSource.Origin.data(Array(s)).hashValue, "\(k)")
        }
        XCTAssertNotEqual(ImageSource.Origin.file("a.png"), .file("b.png"))
        XCTAssertEqual(ImageSource.Origin.file("a.png").hashValue, ImageSource.Origin.file("a.png").hashValue)
    }
}
