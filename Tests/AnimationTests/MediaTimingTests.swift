import XCTest
import LayerModel
@testable import Animation

final class MediaTimingTests: XCTestCase {
    private func state(_ timing: MediaTiming, _ t: Double) -> TimingState { timing.state(parentTime: t) }

    // MARK: Active duration (§3.3)

    func testDurations() {
        XCTAssertEqual(MediaTiming(duration: 1).iterationDuration, 1)
        XCTAssertEqual(MediaTiming(duration: 1).activeDuration, 1)               // repeatCount 0 ⇒ one iteration (§3.4)
        XCTAssertEqual(MediaTiming(duration: 1, autoreverses: true).iterationDuration, 2)
        XCTAssertEqual(MediaTiming(duration: 2, repeatCount: 3.5).activeDuration, 7)
        XCTAssertEqual(MediaTiming(duration: 1, repeatCount: .infinity).activeDuration, .infinity)
        XCTAssertEqual(MediaTiming(duration: 1, repeatDuration: 2.5).activeDuration, 2.5)
        XCTAssertEqual(MediaTiming(duration: 1, repeatDuration: .infinity).activeDuration, .infinity)
        XCTAssertEqual(MediaTiming(duration: 1, repeatCount: -2).activeDuration, 1)   // negative counts as 0
        XCTAssertEqual(MediaTiming(duration: 1, repeatCount: 2, autoreverses: true).activeDuration, 4)
    }

    /// Decision (Apple: undefined; §10 item 13): with both set, repeatDuration wins, as §3.3's AD is written.
    func testRepeatDurationWinsOverRepeatCount() {
        let timing = MediaTiming(duration: 1, repeatCount: 10, repeatDuration: 2.5)
        XCTAssertEqual(timing.activeDuration, 2.5)
        XCTAssertEqual(state(timing, 2.5).phase, .after)
        XCTAssertEqual(state(timing, 2.5).progress, 0.5, accuracy: 1e-12)   // ends mid-iteration
        let shorter = MediaTiming(duration: 1, repeatCount: 2, repeatDuration: 5)
        XCTAssertEqual(shorter.activeDuration, 5)
    }

    /// A non-positive or non-finite duration falls back to 0.25 s (§3.4), so nothing divides by 0.
    func testInvalidDurationFallsBack() {
        XCTAssertEqual(MediaTiming(duration: 0).duration, 0.25)
        XCTAssertEqual(MediaTiming(duration: -1).duration, 0.25)
        XCTAssertEqual(MediaTiming(duration: .nan).duration, 0.25)
        XCTAssertEqual(MediaTiming(duration: .infinity).duration, 0.25)
    }

    func testInitFromSpecCopiesTiming() {
        var spec = AnimationSpec(animationClass: .basic, location: SourceLocation(file: "a", pointer: "", line: 1, column: 1))
        spec.beginTime = 2; spec.speed = 3; spec.timeOffset = 0.1; spec.repeatCount = 4
        spec.repeatDuration = 5; spec.autoreverses = true; spec.fillMode = .both
        let timing = MediaTiming(spec: spec, duration: 1.5)
        XCTAssertEqual(timing, MediaTiming(beginTime: 2, duration: 1.5, speed: 3, timeOffset: 0.1, repeatCount: 4,
                                           repeatDuration: 5, autoreverses: true, fillMode: .both))
    }

    // MARK: §9.4 time model rows

    /// §9.4 row "duration 1, beginTime = now": at 0.25, u = 0.25.
    func testRowBeginNow() {
        let s = state(MediaTiming(duration: 1), 0.25)
        XCTAssertEqual(s.phase, .active)
        XCTAssertTrue(s.contributes)
        XCTAssertEqual(s.progress, 0.25, accuracy: 1e-12)
        XCTAssertEqual(s.iteration, 0)
    }

    /// §9.4 row "duration 1, timeOffset 0.5": 0.25 / 0.75 / 1.0 (end) → 0.75 / 0.25 / 0.5 (then removed).
    func testRowTimeOffset() {
        let timing = MediaTiming(duration: 1, timeOffset: 0.5)
        XCTAssertEqual(state(timing, 0.25).progress, 0.75, accuracy: 1e-12)
        XCTAssertEqual(state(timing, 0.75).progress, 0.25, accuracy: 1e-12)
        let end = state(timing, 1.0)
        XCTAssertEqual(end.phase, .after)
        XCTAssertEqual(end.progress, 0.5, accuracy: 1e-12)
        XCTAssertFalse(end.contributes)                              // fill removed: gone
        XCTAssertEqual(timing.endTimeInParent, 1)
    }

    /// §9.4 row "duration 1, speed 2": at 0.25, u = 0.5; ends at 0.5 s.
    func testRowSpeedTwo() {
        let timing = MediaTiming(duration: 1, speed: 2)
        XCTAssertEqual(state(timing, 0.25).progress, 0.5, accuracy: 1e-12)
        XCTAssertEqual(timing.endTimeInParent, 0.5)
        XCTAssertEqual(state(timing, 0.4999).phase, .active)
        XCTAssertEqual(state(timing, 0.5).phase, .after)
    }

    /// §9.4 row "duration 1, autoreverses, repeatCount 1": 0.5 / 1.5 / 2.0 → 0.5 / 0.5 (reverse) / 0 (end).
    func testRowAutoreverses() {
        let timing = MediaTiming(duration: 1, repeatCount: 1, autoreverses: true)
        XCTAssertEqual(state(timing, 0.5).progress, 0.5, accuracy: 1e-12)
        let back = state(timing, 1.5)
        XCTAssertEqual(back.progress, 0.5, accuracy: 1e-12)
        XCTAssertEqual(back.phase, .active)
        XCTAssertEqual(state(timing, 1.75).progress, 0.25, accuracy: 1e-12)   // on the way back
        let end = state(timing, 2.0)
        XCTAssertEqual(end.phase, .after)
        XCTAssertEqual(end.progress, 0, accuracy: 1e-12)
        XCTAssertEqual(end.iteration, 0)
    }

    /// §9.4 row "duration 2, repeatCount 3.5": 7 s in total; final u = 0.5 (§3.3: ends mid-iteration).
    func testRowFractionalRepeatCount() {
        let timing = MediaTiming(duration: 2, repeatCount: 3.5)
        XCTAssertEqual(timing.activeDuration, 7)
        XCTAssertEqual(timing.endTimeInParent, 7)
        XCTAssertEqual(state(timing, 6.9).phase, .active)
        let end = state(timing, 7)
        XCTAssertEqual(end.phase, .after)
        XCTAssertEqual(end.progress, 0.5, accuracy: 1e-12)
        XCTAssertEqual(end.iteration, 3)
        XCTAssertEqual(end.localTime, 1, accuracy: 1e-12)
        XCTAssertEqual(state(timing, 100).progress, 0.5, accuracy: 1e-12)   // stays at the end value after
    }

    /// §9.4 row "duration 1, beginTime now+1, fill backwards": at 0.5, u = 0 (the from value shows).
    func testRowFillBackwards() {
        let s = state(MediaTiming(beginTime: 1, duration: 1, fillMode: .backwards), 0.5)
        XCTAssertEqual(s.phase, .before)
        XCTAssertTrue(s.contributes)
        XCTAssertEqual(s.progress, 0)
    }

    /// §9.4 row "duration 1, fill forwards, removedOnCompletion NO": at 5.0, u = 1.
    func testRowFillForwards() {
        let s = state(MediaTiming(duration: 1, fillMode: .forwards), 5)
        XCTAssertEqual(s.phase, .after)
        XCTAssertTrue(s.contributes)
        XCTAssertEqual(s.progress, 1)
        XCTAssertEqual(s.iteration, 0)
    }

    /// §9.4 row "layer speed 0, timeOffset 3 (paused)": layer time frozen at 3, at any parent time.
    func testRowPausedLayer() {
        for t in [-5.0, 0, 3, 1e9, .infinity] {
            XCTAssertEqual(MediaTiming.layerLocalTime(parentTime: t, beginTime: 7, speed: 0, timeOffset: 3), 3)
        }
    }

    // MARK: §3.3 prose examples

    /// §3.3 (Rönnqvist "A→B→C→D→E" vs "C→D→E→A→B"): duration 1, timeOffset 0.5 starts halfway,
    /// wraps to 0 and ends where it started. With A…E the fifths of the curve, the frames at
    /// 0, 0.2, …, 0.8 s show u = 0.5, 0.7, 0.9, 0.1, 0.3, i.e. C, D, E, A, B.
    func testTimeOffsetWrapsCDEAB() {
        let timing = MediaTiming(duration: 1, timeOffset: 0.5)
        let letters = [0.0, 0.2, 0.4, 0.6, 0.8].map { t -> Character in
            let u = state(timing, t).progress
            return Array("ABCDE")[min(Int(u * 5), 4)]
        }
        XCTAssertEqual(String(letters), "CDEAB")
        XCTAssertEqual(timing.activeDuration, 1)                      // still lasts AD
        XCTAssertEqual(state(timing, 0.5).iteration, 1)               // the wrapped part is iteration 1
    }

    /// §3.3 "speed 2 and timeOffset 0.5 on a 1 s animation ... still play a full 0.5 s". As the
    /// header's formula t = (t_parent − beginTime)·speed + timeOffset has it (timeOffset in local time,
    /// not scaled by speed), the animation starts at local 0.5 (halfway), wraps at parent 0.25 and ends
    /// at parent 0.5 back at u = 0.5. (Lockwood's prose "you start at the end" reads timeOffset as
    /// parent seconds; the header formula, which this module follows, puts it in local time.)
    func testSpeedTwoWithTimeOffset() {
        let timing = MediaTiming(duration: 1, speed: 2, timeOffset: 0.5)
        XCTAssertEqual(state(timing, 0).progress, 0.5, accuracy: 1e-12)
        XCTAssertEqual(state(timing, 0.125).progress, 0.75, accuracy: 1e-12)
        XCTAssertEqual(state(timing, 0.25).progress, 0, accuracy: 1e-12)       // wrapped
        XCTAssertEqual(state(timing, 0.375).progress, 0.25, accuracy: 1e-12)
        XCTAssertEqual(timing.endTimeInParent, 0.5)                            // a full 0.5 s
        XCTAssertEqual(state(timing, 0.4999).phase, .active)
        XCTAssertEqual(state(timing, 0.5).phase, .after)
        XCTAssertEqual(state(timing, 0.5).progress, 0.5, accuracy: 1e-12)
    }

    /// §3.3 "repeatCount = 1, autoreverses = YES, duration = 1 lasts 2 s".
    func testOneAutoreversingRepeatLastsTwoSeconds() {
        let timing = MediaTiming(duration: 1, repeatCount: 1, autoreverses: true)
        XCTAssertEqual(timing.activeDuration, 2)
        XCTAssertEqual(timing.endTimeInParent, 2)
        XCTAssertEqual(state(timing, 1.99).phase, .active)
        XCTAssertEqual(state(timing, 1.0).progress, 1, accuracy: 1e-12)        // the turning point
        XCTAssertEqual(state(timing, 2).phase, .after)
    }

    /// §3.3 Fill: before contributes only with backwards/both, after only with forwards/both.
    func testFillModesBeforeAndAfter() {
        let expectations: [(FillMode, before: Bool, after: Bool)] = [
            (.removed, false, false), (.forwards, false, true), (.backwards, true, false), (.both, true, true),
        ]
        for (fill, before, after) in expectations {
            let timing = MediaTiming(beginTime: 1, duration: 1, fillMode: fill)
            let b = state(timing, 0.5), a = state(timing, 3)
            XCTAssertEqual(b.phase, .before)
            XCTAssertEqual(b.contributes, before, "\(fill) before")
            XCTAssertEqual(b.progress, 0, "\(fill) before shows τ = 0")
            XCTAssertEqual(a.phase, .after)
            XCTAssertEqual(a.contributes, after, "\(fill) after")
            XCTAssertEqual(a.progress, 1, "\(fill) after shows τ = AD")
            XCTAssertTrue(state(timing, 1.5).contributes, "\(fill) active")
        }
    }

    /// §3.3: the backwards fill shows the value at τ = 0, i.e. at local time timeOffset.
    func testBackwardsFillShowsTimeOffsetValue() {
        let s = state(MediaTiming(beginTime: 2, duration: 1, timeOffset: 0.3, fillMode: .backwards), 0)
        XCTAssertEqual(s.phase, .before)
        XCTAssertEqual(s.progress, 0.3, accuracy: 1e-12)
    }

    // MARK: Boundaries, iterations, local time

    /// Ending exactly on an iteration boundary gives the end value, not the next iteration's start;
    /// inside the active interval a boundary starts the next iteration.
    func testIterationBoundaries() {
        let timing = MediaTiming(duration: 1, repeatCount: 3)
        XCTAssertEqual(state(timing, 1).iteration, 1)
        XCTAssertEqual(state(timing, 1).progress, 0)
        XCTAssertEqual(state(timing, 2.5).iteration, 2)
        XCTAssertEqual(state(timing, 2.5).progress, 0.5, accuracy: 1e-12)
        let end = state(timing, 3)
        XCTAssertEqual(end.iteration, 2)
        XCTAssertEqual(end.progress, 1)
        // A duration that is not a binary fraction: 3 × 0.1 must still end at u ≈ 1, not wrap to 0.
        let tenths = MediaTiming(duration: 0.1, repeatCount: 3)
        XCTAssertEqual(state(tenths, 0.3).progress, 1, accuracy: 1e-9)
        XCTAssertEqual(state(tenths, 10).progress, 1, accuracy: 1e-9)
        XCTAssertEqual(state(tenths, 10).iteration, 2)
    }

    /// localTime = u·duration: what springs (seconds, §4.5) and group children (§3.2) need.
    func testLocalTime() {
        let timing = MediaTiming(duration: 2, repeatCount: 2, autoreverses: true)
        let forward = state(timing, 0.5)
        XCTAssertEqual(forward.progress, 0.25, accuracy: 1e-12)
        XCTAssertEqual(forward.localTime, 0.5, accuracy: 1e-12)
        let back = state(timing, 3.5)                      // w = 3.5 > d: mirrored, 2·2 − 3.5 = 0.5
        XCTAssertEqual(back.localTime, 0.5, accuracy: 1e-12)
        let second = state(timing, 5)                      // iteration 1, w = 1
        XCTAssertEqual(second.iteration, 1)
        XCTAssertEqual(second.localTime, 1, accuracy: 1e-12)
    }

    /// Infinite repeat: never ends; the iteration index keeps counting.
    func testInfiniteRepeat() {
        let timing = MediaTiming(duration: 1, repeatCount: .infinity)
        XCTAssertEqual(timing.endTimeInParent, .infinity)
        let s = state(timing, 1000.25)
        XCTAssertEqual(s.phase, .active)
        XCTAssertEqual(s.iteration, 1000)
        XCTAssertEqual(s.progress, 0.25, accuracy: 1e-9)
    }

    /// beginTime shifts the start in parent time (and is scaled by nothing).
    func testBeginTime() {
        let timing = MediaTiming(beginTime: 10, duration: 2, speed: 2)
        XCTAssertEqual(state(timing, 9.99).phase, .before)
        XCTAssertEqual(state(timing, 10).phase, .active)
        XCTAssertEqual(state(timing, 10.5).progress, 0.5, accuracy: 1e-12)
        XCTAssertEqual(timing.endTimeInParent, 11)
    }

    // MARK: speed 0 and negative speed

    /// §3.3 "speed = 0 freezes the object at timeOffset": τ = 0 always, so active, at u = timeOffset/d.
    func testSpeedZeroFreezesAtTimeOffset() {
        let timing = MediaTiming(beginTime: 5, duration: 2, speed: 0, timeOffset: 0.5)
        for t in [-100.0, 0, 5, 6, 1e6] {
            let s = state(timing, t)
            XCTAssertEqual(s.phase, .active)
            XCTAssertTrue(s.contributes)
            XCTAssertEqual(s.progress, 0.25, accuracy: 1e-12)
        }
        XCTAssertEqual(timing.endTimeInParent, .infinity)
    }

    /// Decision (§3.3 "negative speed plays backwards", exact behaviour unconfirmed): the active
    /// interval still starts at beginTime and lasts AD/|speed|, played from its end to its start;
    /// the fills hold the first shown value (u = 1) before and the last (u = 0) after.
    func testNegativeSpeedPlaysBackwards() {
        let timing = MediaTiming(duration: 1, speed: -1, fillMode: .both)
        XCTAssertEqual(timing.endTimeInParent, 1)
        XCTAssertEqual(state(timing, 0).phase, .active)
        XCTAssertEqual(state(timing, 0).progress, 1)                           // starts at the end value
        XCTAssertEqual(state(timing, 0.25).progress, 0.75, accuracy: 1e-12)
        XCTAssertEqual(state(timing, 0.75).progress, 0.25, accuracy: 1e-12)
        let after = state(timing, 2)
        XCTAssertEqual(after.phase, .after)
        XCTAssertEqual(after.progress, 0)
        XCTAssertTrue(after.contributes)
        let before = state(timing, -1)
        XCTAssertEqual(before.phase, .before)
        XCTAssertEqual(before.progress, 1)
        let fast = MediaTiming(duration: 1, speed: -2)
        XCTAssertEqual(fast.endTimeInParent, 0.5)
        XCTAssertEqual(state(fast, 0.125).progress, 0.75, accuracy: 1e-12)
    }

    /// Negative speed with an infinite active duration: τ = (t − beginTime)·speed, wrapped, so the
    /// iterations run backwards for ever.
    func testNegativeSpeedInfiniteRepeat() {
        let timing = MediaTiming(duration: 1, speed: -1, repeatCount: .infinity)
        XCTAssertEqual(timing.endTimeInParent, .infinity)
        XCTAssertEqual(state(timing, 0.25).phase, .active)
        XCTAssertEqual(state(timing, 0.25).progress, 0.75, accuracy: 1e-12)
        XCTAssertEqual(state(timing, 0.25).iteration, -1)
        XCTAssertEqual(state(timing, -1).phase, .before)
    }

    // MARK: Layer time (§3.2)

    /// Speeds multiply down the hierarchy: a 10 s animation on a speed-2 layer under a speed-2
    /// superlayer takes 2.5 s (§3.2, Apple's timing guide).
    func testLayerSpeedsMultiply() {
        func animationState(at absolute: Double) -> TimingState {
            let parent = MediaTiming.layerLocalTime(parentTime: absolute, beginTime: 0, speed: 2, timeOffset: 0)
            let layer = MediaTiming.layerLocalTime(parentTime: parent, beginTime: 0, speed: 2, timeOffset: 0)
            return MediaTiming(duration: 10).state(parentTime: layer)
        }
        XCTAssertEqual(animationState(at: 2.4).phase, .active)
        XCTAssertEqual(animationState(at: 1.25).progress, 0.5, accuracy: 1e-12)
        XCTAssertEqual(animationState(at: 2.5).phase, .after)
    }

    /// §3.2's pause/resume idiom round-trips: paused at absolute 5, resumed at 8, the layer continues
    /// from local time 5.
    func testPauseResumeIdiom() {
        let paused = MediaTiming.layerLocalTime(parentTime: 5, beginTime: 0, speed: 1, timeOffset: 0)
        XCTAssertEqual(MediaTiming.layerLocalTime(parentTime: 7, beginTime: 0, speed: 0, timeOffset: paused), 5)
        // resume: speed 1, timeOffset 0, beginTime = convertTime(now) − paused, with beginTime 0 at convert time.
        let beginTime = MediaTiming.layerLocalTime(parentTime: 8, beginTime: 0, speed: 1, timeOffset: 0) - paused
        XCTAssertEqual(MediaTiming.layerLocalTime(parentTime: 8, beginTime: beginTime, speed: 1, timeOffset: 0), 5)
        XCTAssertEqual(MediaTiming.layerLocalTime(parentTime: 9, beginTime: beginTime, speed: 1, timeOffset: 0), 6)
    }

    /// The formula t = (t_parent − beginTime)·speed + timeOffset (§3.2), timeOffset unscaled.
    func testLayerLocalTimeFormula() {
        XCTAssertEqual(MediaTiming.layerLocalTime(parentTime: 4, beginTime: 1, speed: 2, timeOffset: 0.5), 6.5)
        XCTAssertEqual(MediaTiming.layerLocalTime(parentTime: 4, beginTime: 1, speed: -1, timeOffset: 0), -3)
    }

    /// Hostile values never trap (the iteration index saturates) and never give NaN progress.
    func testHostileValuesDoNotTrap() {
        let huge = MediaTiming(duration: 1e-300, repeatCount: .infinity, fillMode: .both)
        let s = state(huge, 1e300)
        XCTAssertTrue(s.progress >= 0 && s.progress <= 1)
        let nanTime = state(MediaTiming(duration: 1), .nan)
        XCTAssertFalse(nanTime.progress.isNaN)
    }
}
