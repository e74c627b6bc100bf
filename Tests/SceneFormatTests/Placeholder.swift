import XCTest
final class SceneFormatTestsPlaceholder: XCTestCase { func testBuilds() {} }
