import XCTest
import Geometry
import LayerModel
@testable import Animation

/// Large animated subtrees are walked on two threads (`ModelEpoch.concurrentWalkThreshold`); the
/// result must be exactly the sequential one: every layer evaluated, sublayer order kept, and a
/// CATransition's previous state spliced in before its layer.
final class ConcurrentWalkTests: XCTestCase {
    func testConcurrentWalkEvaluatesEveryLayerInOrder() {
        let here = SourceLocation(file: "test", pointer: "", line: 0, column: 0)
        var root = Layer()
        for c in 0..<3 {
            var container = Layer()
            container.name = "c\(c)"
            for i in 0..<1000 {
                var leaf = Layer()
                leaf.name = "c\(c)-\(i)"
                leaf.zPosition = Double(i)
                container.sublayers.append(leaf)
            }
            root.sublayers.append(container)
        }
        var scene = Scene(canvas: Canvas(width: 10, height: 10), root: root)
        scene.assignIDs()
        var animations: [LayerID: [AnimationSpec]] = [:]
        var transitioned: LayerID = -1
        scene.root.forEach { l in
            guard l.sublayers.isEmpty, l.id != 0 else { return }
            var a = AnimationSpec(animationClass: .basic, location: here)
            a.keyPath = KeyPathTable.resolve("opacity")
            a.fromValue = .number(0); a.toValue = .number(1); a.duration = .seconds(1)
            var list = [a]
            if l.name == "c2-500" {
                var t = AnimationSpec(animationClass: .transition, location: here)
                t.duration = .seconds(1)
                list.append(t)
                transitioned = l.id
            }
            animations[l.id] = list
        }
        XCTAssertGreaterThanOrEqual(3000, ModelEpoch.concurrentWalkThreshold, "the tree is large enough to split")
        let tl = PresentationTimeline(scene: scene, animations: animations)
        let p = tl.presentation(at: 0.25)
        XCTAssertEqual(p.sublayers.map(\.name), ["c0", "c1", "c2"])
        for c in 0..<3 {
            let leaves = p.sublayers[c].sublayers
            XCTAssertEqual(leaves.count, 1000, "a transition added in the file has no previous state to show")
            for (i, leaf) in leaves.enumerated() {
                XCTAssertEqual(leaf.name, "c\(c)-\(i)")
                XCTAssertEqual(leaf.opacity, c == 2 && i == 500 ? 0.25 * 0.25 : 0.25, accuracy: 1e-12, "fade at p = 0.25 multiplies")
            }
        }
        XCTAssertGreaterThan(transitioned, 0)
    }
}
