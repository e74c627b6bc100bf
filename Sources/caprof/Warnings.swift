import LayerModel
import Pipeline

/// The document's, the timeline's and the plans' warnings as `file:line:col: warning:` lines,
/// each once, in the order first met.
struct Warnings {
    let scene: String
    private var seen = Set<String>()
    private(set) var lines: [String] = []

    init(_ animated: AnimatedScene, scene: String) {
        self.scene = scene
        add(animated.document.warnings + animated.timeline.warnings)
    }

    mutating func add(_ list: [Unsupported]) {
        for u in list {
            let line: String
            if let l = u.location { line = "\(l.file):\(l.line):\(l.column): warning: \(u.feature)" }
            else { line = "\(scene): warning: \(u.feature)" }
            if seen.insert(line).inserted { lines.append(line) }
        }
    }
}
