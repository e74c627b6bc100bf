import XCTest
@testable import AssetImport
import SceneFormat
import LayerModel

/// The scene format's limits apply to what `.ca`/CAML and `.caar` imports produce, checked in one
/// place (`SceneLimitCheck`, through `AssetLoader.load`) with the scene file's messages and the
/// same `limitExceeded` kind (exit code 65), so `caprof convert` never writes a scene that
/// `caprof render` refuses.
final class ImportLimitTests: XCTestCase {
    func load(_ caml: String, limits: DecodingLimits = .standard, states: StateSelection = StateSelection()) throws -> SceneDocument {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("caprof-import-limits-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/t.caml"
        try caml.write(toFile: file, atomically: false, encoding: .utf8)
        return try AssetLoader.load(path: file, states: states, limits: limits)
    }

    func caml(_ body: String) -> String {
        "<?xml version=\"1.0\"?>\n<caml xmlns=\"http://www.apple.com/CoreAnimation/1.0\">\n<CALayer bounds=\"0 0 100 100\" position=\"50 50\">\n\(body)\n</CALayer>\n</caml>\n"
    }

    /// 10,001 keyframes were accepted from CAML while a scene file is refused at 10,000, so
    /// `caprof convert` wrote a scene `caprof render` refused. The same message now, at the
    /// animation's line.
    func testKeyframesPastTheSceneLimitAreRefusedAsInAScene() throws {
        func animation(_ n: Int) -> String {
            "<animations><animation type=\"CAKeyframeAnimation\" keyPath=\"opacity\" duration=\"1\">\n<values>"
                + String(repeating: "<real value=\"0.5\"/>", count: n) + "</values></animation></animations>"
        }
        XCTAssertThrowsError(try load(caml(animation(10_001)))) { e in
            guard let s = e as? SceneError else { return XCTFail("\(e)") }
            XCTAssertEqual(s.kind, .limitExceeded)
            XCTAssertEqual(s.location.line, 4)
            XCTAssertEqual(s.message, "values has 10001 keyframes; the limit is 10000")
        }
        XCTAssertEqual(try load(caml(animation(10_000))).animations.values.first?.first?.keyframes?.values?.count, 10_000)
    }

    func testNestedReplicatorsNameBothLayers() throws {
        let body = "<sublayers><CAReplicatorLayer name=\"grid\" instanceCount=\"4900\"><sublayers>\n<CAReplicatorLayer name=\"row\" instanceCount=\"100\"><sublayers><CALayer name=\"dot\" bounds=\"0 0 2 2\"/></sublayers></CAReplicatorLayer>\n</sublayers></CAReplicatorLayer></sublayers>"
        XCTAssertThrowsError(try load(caml(body))) { e in
            guard let s = e as? SceneError else { return XCTFail("\(e)") }
            XCTAssertEqual(s.kind, .limitExceeded)
            XCTAssertTrue(s.message.contains("once per instance of 'grid' (line 4) × 4900 inside 'row' (line 5) × 100"), s.message)
        }
    }

    func testTextLengthIsBounded() throws {
        func text(_ n: Int) -> String { "<sublayers><CATextLayer bounds=\"0 0 50 50\" string=\"\(String(repeating: "a", count: n))\"/></sublayers>" }
        XCTAssertThrowsError(try load(caml(text(100_001)))) { e in
            XCTAssertEqual((e as? SceneError)?.message, "the text is 100001 characters; the limit is 100000")
        }
        XCTAssertNoThrow(try load(caml(text(100_000))))
    }

    /// `--limit layers=N` applies to imports as to scene files, with the same words.
    func testTheLayerLimitIsTheScenesAndRaisable() throws {
        var limits = DecodingLimits.standard
        limits.layers = 3
        let body = "<sublayers>" + String(repeating: "<CALayer bounds=\"0 0 1 1\"/>", count: 3) + "</sublayers>"
        XCTAssertThrowsError(try load(caml(body), limits: limits)) { e in
            XCTAssertEqual((e as? SceneError)?.message, "more than 3 layers (raise it with --limit layers=N)")
        }
        limits.layers = 4
        XCTAssertEqual(try load(caml(body), limits: limits).scene.root.sublayers.count, 3)
    }

    /// `basedOn` chains are followed through a table (20,000 linked states took 7 s, 100,000 over
    /// 120 s, when each link was a linear search), and a chain longer than 256 is refused at the
    /// state where it passes the limit. Each state here sets the opacity a little lower: the
    /// deepest state shows the last one's value.
    func testStateChainsAreLinearAndBounded() throws {
        func chain(_ n: Int) -> String {
            let states = (1...n).map { i in
                "<LKState name=\"s\(i)\"\(i > 1 ? " basedOn=\"s\(i - 1)\"" : "")><elements><LKStateSetValue targetId=\"top\" keyPath=\"opacity\"><value type=\"real\" value=\"\(1 - Double(i) / 1000)\"/></LKStateSetValue></elements></LKState>"
            }.joined(separator: "\n")
            return "<?xml version=\"1.0\"?>\n<caml xmlns=\"http://www.apple.com/CoreAnimation/1.0\">\n<CALayer id=\"top\" bounds=\"0 0 100 100\" position=\"50 50\">\n<states>\n\(states)\n</states>\n</CALayer>\n</caml>\n"
        }
        let ok = try load(chain(256), states: StateSelection(state: "s256"))
        XCTAssertEqual(ok.scene.root.opacity, 1 - 256.0 / 1000, accuracy: 1e-9)
        XCTAssertThrowsError(try load(chain(2_000), states: StateSelection(state: "s2000"))) { e in
            guard let s = e as? SceneError else { return XCTFail("\(e)") }
            XCTAssertEqual(s.kind, .limitExceeded)
            XCTAssertEqual(s.message, "state 's2000' is based on a chain of more than 256 states (LKState basedOn); the limit is 256")
            XCTAssertEqual(s.location.line, 4 + 2_000 - 256, "the 257th state of the chain, counted from s2000")
        }
        // A state near the start of the same long list is fine.
        XCTAssertEqual(try load(chain(2_000), states: StateSelection(state: "s3")).scene.root.opacity, 0.997, accuracy: 1e-9)
    }
}
