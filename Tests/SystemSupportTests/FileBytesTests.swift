import XCTest
import Foundation
import SystemSupport

/// `FileBytes.read` reads a file with read(2) straight into an array: the whole file, a file
/// larger than its size said (it grew), and at most the limit.
final class FileBytesTests: XCTestCase {
    func testReadsWholeFilesAndStopsAtTheLimit() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("caprof-read-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        func read(limit: Int, expected: Int?) throws -> [UInt8] {
            try XCTUnwrap(FileBytes.read(path: path, upTo: limit, expected: expected))
        }
        XCTAssertEqual(try read(limit: 1 << 20, expected: bytes.count), bytes)
        XCTAssertEqual(try read(limit: 1 << 20, expected: 3), bytes, "a file that grew since its size was taken")
        XCTAssertEqual(try read(limit: 1 << 20, expected: 0), bytes)
        XCTAssertEqual(try read(limit: 1 << 20, expected: nil), bytes)
        XCTAssertEqual(try read(limit: 50_001, expected: bytes.count), Array(bytes[..<50_001]), "one byte over a limit of 50,000")
        XCTAssertEqual(try read(limit: 50_001, expected: 10), Array(bytes[..<50_001]))
        XCTAssertEqual(try read(limit: 100_000, expected: 100_000), bytes)
        XCTAssertEqual(try read(limit: 16, expected: 16), Array(bytes[..<16]))
        XCTAssertNil(FileBytes.read(path: path + ".missing", upTo: 10))
    }

    func testFileStatusTellsDirectoriesRegularFilesAndSizes() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("caprof-status-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/f", contents: Data(count: 1234)))
        XCTAssertTrue(try XCTUnwrap(FileStatus(path: dir)).isDirectory)
        let file = try XCTUnwrap(FileStatus(path: dir + "/f"))
        XCTAssertTrue(file.isRegularFile)
        XCTAssertFalse(file.isDirectory)
        XCTAssertEqual(file.size, 1234)
        XCTAssertNil(FileStatus(path: dir + "/none"))
        // A symbolic link is followed, as the file readers follow it.
        try FileManager.default.createSymbolicLink(atPath: dir + "/link", withDestinationPath: dir + "/f")
        XCTAssertEqual(FileStatus(path: dir + "/link")?.size, 1234)
        let null = try XCTUnwrap(FileStatus(path: "/dev/null"))
        XCTAssertFalse(null.isRegularFile || null.isDirectory, "a device is neither")
    }

    func testDirectoriesAreCreatedWithTheirParentsOrRefusedInTheSystemsWords() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("caprof-mkdir-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Directories.create(dir + "/a/b/c/")
        XCTAssertTrue(FileStatus.isDirectory(dir + "/a/b/c"))
        try Directories.create(dir + "/a/b")   // exists: nothing to do
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/file", contents: Data()))
        XCTAssertThrowsError(try Directories.create(dir + "/file/sub")) { e in
            XCTAssertEqual("\(e)", "Not a directory")
        }
    }
}
