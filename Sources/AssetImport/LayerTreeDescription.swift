import Geometry
import SystemSupport
import LayerModel
import Animation
import SceneFormat

/// The layer tree as indented text, for a first look at an unknown file (`caprof convert
/// --format tree`): class, name, bounds size, position, and each animation's key path, class,
/// duration and timing.
public enum LayerTreeDescription {
    public static func describe(_ doc: SceneDocument) -> String {
        let c = doc.scene.canvas
        var out = "\(doc.scene.sourceFile): canvas \(SceneJSONWriter.num(c.width))×\(SceneJSONWriter.num(c.height)) pt, \(doc.scene.root.subtreeCount) layers, \(doc.animations.values.reduce(0) { $0 + $1.count }) animations, \(doc.warnings.count) warnings\n"
        visit(doc.scene.root, doc: doc, depth: 0, role: "", into: &out)
        return out
    }

    private static func visit(_ l: Layer, doc: SceneDocument, depth: Int, role: String, into out: inout String) {
        let pad = String(repeating: "  ", count: depth)
        var line = pad + role + l.layerClass.rawValue
        if let n = l.name { line += " \"\(n)\"" }
        line += " \(SceneJSONWriter.num(l.bounds.width))×\(SceneJSONWriter.num(l.bounds.height)) at (\(SceneJSONWriter.num(l.position.x)), \(SceneJSONWriter.num(l.position.y)))"
        var flags: [String] = []
        if l.hidden { flags.append("hidden") }
        if l.opacity != 1 { flags.append("opacity \(SceneJSONWriter.num(l.opacity))") }
        if !l.transform.isIdentity { flags.append("transformed") }
        if l.geometryFlipped { flags.append("geometryFlipped") }
        if l.masksToBounds { flags.append("masksToBounds") }
        if l.contents != nil { flags.append("contents") }
        if l.layerClass == .shape, let p = l.shape.path { flags.append("path \(p.elements.count) elements") }
        if !flags.isEmpty { line += " [" + flags.joined(separator: ", ") + "]" }
        out += line + "\n"
        for a in doc.animations[l.id] ?? [] { out += pad + "    ~ " + describe(a) + "\n" }
        if let m = l.mask { visit(m, doc: doc, depth: depth + 1, role: "mask: ", into: &out) }
        for s in l.sublayers { visit(s, doc: doc, depth: depth + 1, role: "", into: &out) }
    }

    static func describe(_ a: AnimationSpec) -> String {
        var s = a.animationClass.rawValue
        if let kp = a.keyPath { s += " \(kp.keyPath)" }
        if let k = a.key, k != a.keyPath?.keyPath { s += " (key \(k))" }
        switch a.duration {
        case .seconds(let d): s += " \(SceneJSONWriter.num(d)) s"
        case .settlingDuration: s += " settlingDuration"
        }
        if a.beginTime != 0 { s += ", begin \(a.beginTime)" }
        if a.repeatCount != 0 { s += ", repeat \(SceneJSONWriter.num(a.repeatCount).replacingEvery("\"", with: ""))" }
        if a.autoreverses { s += ", autoreverses" }
        if a.fillMode != .removed { s += ", fill \(a.fillMode.rawValue)" }
        if let t = a.timingFunction { s += ", timing \(SceneJSONWriter.timing(t))" }
        if let k = a.keyframes, let v = k.values { s += ", \(v.count) keyframes (\(k.calculationMode.rawValue))" }
        if !a.animations.isEmpty { s += ", \(a.animations.count) children" }
        return s
    }
}
