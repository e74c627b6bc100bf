import XCTest
@testable import SceneFormat

/// Hostile input must end in a SceneError: never a crash, a hang or an unbounded allocation.
final class RobustnessTests: XCTestCase {
    /// SplitMix64: seeded, so a failure reproduces (design.md "Determinism").
    private struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    private let valid = #"""
    {"caprof": 1, "canvas": {"width": 390, "height": 844, "scale": 3, "backgroundColor": "#FFF"},
     "timeline": {"duration": 1, "fps": 30},
     "root": {"name": "root", "bounds": [0, 0, 390, 844], "sublayers": [
       {"class": "CAShapeLayer", "name": "arrow", "path": "M0 0 C 1 2 3 4 5 6 a 5 5 0 1 0 10 10 Z", "strokeColor": [1, 0, 0],
        "transform": "translate(10, 20) rotate(45deg)", "animations": [
          {"class": "CAKeyframeAnimation", "keyPath": "position", "values": [[0, 0], [5, 5]], "keyTimes": [0, 1]},
          {"class": "CASpringAnimation", "keyPath": "transform.scale", "toValue": 2, "duration": "settlingDuration"}]},
       {"class": "CAGradientLayer", "name": "dot", "colors": ["red", "blue"], "mask": {"frame": [0, 0, 1, 1]}}]},
     "transactions": [{"time": 0.5, "set": [{"layer": "dot", "keyPath": "opacity", "value": 0.5}],
                       "add": [{"layer": "arrow", "animation": {"class": "CABasicAnimation", "keyPath": "strokeEnd", "toValue": 1}}]}]}
    """#

    private func decodeMustNotCrash(_ bytes: [UInt8]) -> Bool {
        do {
            _ = try SceneDecoder.decode(data: bytes, file: "fuzz.json", baseDirectory: "/nonexistent")
            return true
        } catch is SceneError {
            return false
        } catch {
            XCTFail("not a SceneError: \(error)")
            return false
        }
    }

    func testTheValidSceneDecodes() throws {
        XCTAssertTrue(decodeMustNotCrash(Array(valid.utf8)))
    }

    func testEveryTruncationIsAnError() {
        let bytes = Array(valid.utf8)
        for n in 0..<bytes.count {
            XCTAssertFalse(decodeMustNotCrash(Array(bytes[0..<n])), "a truncation to \(n) bytes decoded")
        }
    }

    func testRandomBytes() {
        var rng = SeededGenerator(state: 1)
        for _ in 0..<2000 {
            let n = Int.random(in: 0..<200, using: &rng)
            let bytes = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            _ = decodeMustNotCrash(bytes)
        }
    }

    func testMutationsOfAValidScene() {
        var rng = SeededGenerator(state: 42)
        let base = Array(valid.utf8)
        let interesting: [UInt8] = Array("{}[]\",:0123456789-.eE+ \n\\u#tfnaxyzLMCAZ".utf8) + [0x00, 0x80, 0xC3, 0xFF]
        for _ in 0..<3000 {
            var bytes = base
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let i = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[i] = interesting.randomElement(using: &rng)!
                case 1: bytes.remove(at: i)
                default: bytes.insert(interesting.randomElement(using: &rng)!, at: i)
                }
                if bytes.isEmpty { break }
            }
            _ = decodeMustNotCrash(bytes)
        }
    }

    func testPathologicalShapes() {
        // Very deep nesting, a long run of open strings, huge exponents, a long number.
        XCTAssertFalse(decodeMustNotCrash(Array(String(repeating: "[", count: 200_000).utf8)))
        XCTAssertFalse(decodeMustNotCrash(Array(String(repeating: "{\"a\":", count: 50_000).utf8)))
        XCTAssertFalse(decodeMustNotCrash(Array(("[" + String(repeating: "9", count: 100_000) + "]").utf8)))
        XCTAssertFalse(decodeMustNotCrash(Array(sceneJSON(root: #"{"opacity": 1e308}"#).utf8)))
        XCTAssertFalse(decodeMustNotCrash(Array(sceneJSON(root: #"{"class": "CAReplicatorLayer", "instanceCount": 1e300}"#).utf8)))
        XCTAssertFalse(decodeMustNotCrash(Array(sceneJSON(root: #"{"transform": "rotate(1e400deg)"}"#).utf8)))
        XCTAssertFalse(decodeMustNotCrash(Array(sceneJSON(root: #"{"transform": "scale(1e308) translate("# + String(repeating: "(", count: 10_000) + #"}"#).utf8)))
        XCTAssertFalse(decodeMustNotCrash(Array(sceneJSON(root: "{}", extra: #", "timeline": {"duration": 1e308}"#).utf8)))
    }
}
