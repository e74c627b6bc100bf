import XCTest
import Foundation
@testable import SceneFormat

/// `SceneDecoder.readBytes` reads a scene file with read(2) into the parser's array: the whole
/// file, a file larger than its size said (it grew), and at most the limit.
final class SceneFileReadTests: XCTestCase {
    func testReadsWholeFilesAndStopsAtTheLimit() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("caprof-read-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        func read(limit: Int, expected: Int) throws -> [UInt8] {
            let handle = try XCTUnwrap(FileHandle(forReadingAtPath: path))
            defer { try? handle.close() }
            return SceneDecoder.readBytes(handle, upTo: limit, expected: expected)
        }
        XCTAssertEqual(try read(limit: 1 << 20, expected: bytes.count), bytes)
        XCTAssertEqual(try read(limit: 1 << 20, expected: 3), bytes, "a file that grew since its size was taken")
        XCTAssertEqual(try read(limit: 1 << 20, expected: 0), bytes)
        XCTAssertEqual(try read(limit: 50_001, expected: bytes.count), Array(bytes[..<50_001]), "one byte over a limit of 50,000")
        XCTAssertEqual(try read(limit: 50_001, expected: 10), Array(bytes[..<50_001]))
        XCTAssertEqual(try read(limit: 100_000, expected: 100_000), bytes)
    }
}
