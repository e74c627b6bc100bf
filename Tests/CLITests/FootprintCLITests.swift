import Foundation
import XCTest

/// What the caprof process loads. On Linux the full Foundation (with ICU and
/// FoundationInternationalization) is about 7 MiB of resident pages in every run, measured at the
/// peak of `caprof render` (README, Performance, Memory); caprof links FoundationEssentials only.
final class FootprintCLITests: CLITestCase {
    func testTheBinaryLinksFoundationEssentialsButNotTheFullFoundation() throws {
        // glibc's loader lists the libraries it would load and exits without running the program.
        let run = try caprof([], env: ["LD_TRACE_LOADED_OBJECTS": "1"])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("libFoundationEssentials.so"), run.stdout)
        for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so", "libFoundationXML.so"] {
            XCTAssertFalse(run.stdout.contains(library), "\(library) is loaded:\n\(run.stdout)")
        }
    }
}
