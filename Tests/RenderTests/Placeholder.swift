import XCTest
final class RenderTestsPlaceholder: XCTestCase { func testBuilds() {} }
