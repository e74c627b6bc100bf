import SystemSupport
import Dispatch

extension Terminal {
    /// Whether the descriptor is a terminal (a progress bar redrawn with \r only makes sense there).
    var isTerminal: Bool { isatty(fd) != 0 }
}

/// A one-line progress bar on a terminal: `▕████████░░░░▏ 12/30 frames · 8.3 frames/s · ETA 2.1 s`,
/// redrawn in place with \r (at most every 50 ms, and always for the last frame) and erased by
/// `finish()`, so the summary line that follows stands alone. Draws nothing when disabled (not a
/// terminal, or `--quiet`).
final class ProgressBar {
    let total: Int
    let terminal: Terminal
    let enabled: Bool
    let start = DispatchTime.now().uptimeNanoseconds
    private var lastDraw: UInt64 = 0
    private var drawn = false
    static let barWidth = 24

    init(total: Int, terminal: Terminal, enabled: Bool) {
        self.total = total; self.terminal = terminal; self.enabled = enabled
    }

    /// `done` of `total` frames are finished.
    func update(done: Int) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        if done < total && drawn && now - lastDraw < 50_000_000 { return }
        lastDraw = now; drawn = true
        terminal.writeRaw("\r\u{1B}[K" + Self.line(done: done, total: total, elapsed: Double(now - start) / 1e9,
                                                    ascii: ProcessInfo.processInfo.environment["TERM"] == "dumb"))
    }

    /// Erases the bar.
    func finish() {
        guard enabled, drawn else { return }
        terminal.writeRaw("\r\u{1B}[K")
    }

    /// The text of the bar (no control characters), for `update` and tests.
    static func line(done: Int, total: Int, elapsed: Double, ascii: Bool = false) -> String {
        let fraction = total > 0 ? Double(done) / Double(total) : 1
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        let bar = ascii
            ? "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled) + "]"
            : "▕" + String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled) + "▏"
        var s = "\(bar) \(done)/\(total) frames"
        if done > 0 && elapsed > 0 {
            let rate = Double(done) / elapsed
            s += String(cFormat: " · %.1f frames/s", rate)
            if done < total { s += String(cFormat: " · ETA %.1f s", Double(total - done) / rate) }
        }
        return s
    }
}

extension Terminal {
    /// Writes `s` as is (no newline added).
    func writeRaw(_ s: String) { StandardStreams.write(s.utf8, to: fd) }
}
