import Foundation
import XCTest

/// CAEmitterLayer through `caprof render`, as a user runs it: the particles of a frame depend on
/// the scene and that frame's time alone, so a frame rendered by itself (`--time`, or a one-frame
/// `--frames` range) is byte for byte the same PNG as that frame of a whole sequence.
final class EmitterCLITests: CLITestCase {
    func testFrameAloneIsByteIdenticalToTheSameFrameOfASequence() throws {
        let scene = Self.example("emitter.json")      // 30 fps: frame 60 is t = 2 s
        let seq = tmp.appendingPathComponent("seq")
        let r = try caprof(["render", scene, "--frames", "0:61f", "-o", seq.path])
        XCTAssertEqual(r.code, 0, r.stderr)
        let frame60 = try Data(contentsOf: seq.appendingPathComponent("frame-00060.png"))
        let frame59 = try Data(contentsOf: seq.appendingPathComponent("frame-00059.png"))
        // The particles move: neighbouring frames differ, so equality below is not vacuous.
        XCTAssertNotEqual(frame59, frame60)

        let alone = tmp.appendingPathComponent("alone.png").path
        let t = try caprof(["render", scene, "--time", "2", "-o", alone])
        XCTAssertEqual(t.code, 0, t.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: alone)), frame60, "--time 2 differs from frame 60 of 0:61f")

        let one = tmp.appendingPathComponent("one")
        let f = try caprof(["render", scene, "--frames", "60f:61f", "-o", one.path])
        XCTAssertEqual(f.code, 0, f.stderr)
        XCTAssertEqual(try Data(contentsOf: one.appendingPathComponent("frame-00060.png")), frame60,
                       "--frames 60f:61f differs from frame 60 of 0:61f")
    }
}
