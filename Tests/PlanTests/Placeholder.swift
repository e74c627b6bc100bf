import XCTest
final class PlanTestsPlaceholder: XCTestCase { func testBuilds() {} }
