import XCTest
@testable import Animation

final class FrameTimesTests: XCTestCase {
    /// 2 s at 60 fps is 120 frames, t = 0 … 119/60 (the end is exclusive, as in a video of 2 s).
    func testTwoSecondsAtSixtyIsOneHundredTwentyFrames() {
        let f = PresentationTimeline.frameTimes(from: 0, to: 2, fps: 60)
        XCTAssertEqual(f.count, 120)
        XCTAssertEqual(f.first?.index, 0)
        XCTAssertEqual(f.last?.index, 119)
        XCTAssertEqual(f.last!.time, 119.0 / 60, accuracy: 1e-12)
    }
    /// A range keeps global frame numbers: 0.5 s … 1 s at 10 fps is frames 5 … 9.
    func testRangeKeepsGlobalIndices() {
        let f = PresentationTimeline.frameTimes(from: 0.5, to: 1, fps: 10)
        XCTAssertEqual(f.map(\.index), [5, 6, 7, 8, 9])
    }
    /// An empty span still gives the frame at its start (a static scene renders one frame).
    func testEmptySpanGivesOneFrame() {
        XCTAssertEqual(PresentationTimeline.frameTimes(from: 0, to: 0, fps: 60).map(\.index), [0])
    }
}
