import XCTest
import Geometry
import LayerModel
import Plan
@testable import Profile

/// Builds presentation trees directly (no file, no GPU) and profiles them.
protocol ProfileTestSupport {}

extension ProfileTestSupport {
    func box(_ name: String, _ frame: Rect, _ color: Color? = Color(1, 0, 0)) -> Layer {
        var l = Layer(); l.name = name; l.setFrame(frame); l.backgroundColor = color; return l
    }

    /// An opaque white root filling the canvas, with `sublayers`.
    func root(_ canvas: Canvas, _ sublayers: [Layer]) -> Layer {
        var r = box("root", Rect(0, 0, canvas.width, canvas.height), .white)
        r.sublayers = sublayers
        return r
    }

    func tree(_ root: Layer) -> Layer {
        var s = Scene(canvas: Canvas(width: 1, height: 1), root: root); s.assignIDs(); return s.root
    }

    func plan(_ tree: Layer, _ canvas: Canvas, images: ImageTable = [:]) -> FramePlan {
        FramePlanner(canvas: canvas, images: images).plan(root: tree)
    }

    /// Profiles a sequence of presentation trees as frames 0, 1, 2, … and returns the findings.
    func profile(_ roots: [Layer], _ canvas: Canvas, images: ImageTable = [:]) -> [Finding] {
        var p = Profiler(canvas: canvas)
        var previous: FramePlan?
        var previousTree: Layer?
        for (i, r) in roots.enumerated() {
            let t = tree(r)
            let framePlan = plan(t, canvas, images: images)
            var a = p.analyze(framePlan, tree: t, index: i, time: Double(i) / 60)
            p.analyzer.addRasterCPU(to: &a, plan: framePlan, previous: previous, tree: t, previousTree: previousTree)
            previous = framePlan
            previousTree = t
            p.record(a, cost: FrameCost())
        }
        return p.findings()
    }

    func findings(_ root: Layer, _ canvas: Canvas, images: ImageTable = [:]) -> [Finding] {
        profile([root], canvas, images: images)
    }

    func ids(_ fs: [Finding], layer: String) -> [FindingID] {
        fs.filter { $0.layer.display == layer }.map(\.id).sorted()
    }

    static var imageLocation: SourceLocation { SourceLocation(file: "s.json", pointer: "/root/contents", line: 1, column: 1) }
    func image(_ path: String) -> ImageSource { ImageSource(origin: .file(path), location: Self.imageLocation) }
}
