import Foundation
import XCTest
import FuzzHarness

/// Replays every input the fuzzers ever crashed on (or broke an invariant with), committed under
/// `Regressions/<target>/`, through the same `FuzzTarget.run` the fuzz entry points call. A crash
/// here is the bug coming back; a violation is an invariant broken again.
final class RegressionReplayTests: XCTestCase {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Regressions")

    func testEveryTargetHasARegressionDirectory() {
        for target in FuzzTarget.allCases {
            var isDirectory: ObjCBool = false
            XCTAssertTrue(FileManager.default.fileExists(atPath: Self.directory.appendingPathComponent(target.rawValue).path, isDirectory: &isDirectory) && isDirectory.boolValue,
                          "missing Regressions/\(target.rawValue)")
        }
    }

    func testCommittedRegressionInputsHoldTheirInvariants() throws {
        var replayed = 0
        for target in FuzzTarget.allCases {
            let dir = Self.directory.appendingPathComponent(target.rawValue)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") {
                let bytes = try [UInt8](Data(contentsOf: dir.appendingPathComponent(name)))
                let violations = target.run(bytes)
                XCTAssertEqual(violations, [], "\(target.rawValue)/\(name)")
                replayed += 1
            }
        }
        print("replayed \(replayed) regression inputs")
    }
}
