import XCTest
final class GeometryTestsPlaceholder: XCTestCase { func testBuilds() {} }
