import XCTest
import Report

/// Times in reports read at a glance: milliseconds with precision by size, microseconds for
/// stages too short to show in ms (a 5 µs evaluation must not print as "0.00 ms").
final class ReportUnitsTests: XCTestCase {
    func testMillisecondsAndMicroseconds() {
        XCTAssertEqual(ReportUnits.ms(UInt64(5_000)), "5.0 µs")
        XCTAssertEqual(ReportUnits.ms(UInt64(9_990)), "10.0 µs")
        XCTAssertEqual(ReportUnits.ms(UInt64(10_000)), "0.01 ms")
        XCTAssertEqual(ReportUnits.ms(UInt64(3_456_000)), "3.46 ms")
        XCTAssertEqual(ReportUnits.ms(UInt64(45_670_000)), "45.7 ms")
        XCTAssertEqual(ReportUnits.ms(UInt64(123_400_000)), "123 ms")
    }
}
