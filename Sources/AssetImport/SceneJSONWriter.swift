import SystemSupport
import Geometry
import LayerModel
import Animation
import SceneFormat

/// Writes a `SceneDocument` as a caprof scene file (format 1) that decodes back to the same model:
/// every layer property that differs from the scene format's default for its class (contentsScale
/// and rasterizationScale default to canvas.scale there, not to 1), masks, sublayers and the
/// animations of each layer in order. Embedded images become `data:image/png;base64` URIs (JPEGs
/// `data:image/jpeg;base64`); image files are written relative to `directory` (the folder of the
/// scene file being written, from which the scene decoder resolves them), or by absolute path
/// without one. Transactions are not written (importers make none).
public enum SceneJSONWriter {
    /// The folder image paths are written relative to, for the duration of one `write`.
    @TaskLocal private static var imageDirectory: String?

    public static func write(_ doc: SceneDocument, imagesRelativeTo directory: String) -> String {
        $imageDirectory.withValue(directory) { write(doc) }
    }

    public static func write(_ doc: SceneDocument) -> String {
        var out = "{\n  \"caprof\": 1,\n"
        let c = doc.scene.canvas
        var canvas = "\"width\": \(num(c.width)), \"height\": \(num(c.height)), \"scale\": \(num(c.scale))"
        if let bg = c.backgroundColor { canvas += ", \"backgroundColor\": \(color(bg))" }
        out += "  \"canvas\": { \(canvas) },\n"
        let t = doc.scene.timeline
        var timeline: [String] = []
        if let d = t.duration { timeline.append("\"duration\": \(num(d))") }
        if t.fps != 60 { timeline.append("\"fps\": \(num(t.fps))") }
        if !timeline.isEmpty { out += "  \"timeline\": { \(timeline.joined(separator: ", ")) },\n" }
        out += "  \"root\": "
        layer(doc.scene.root, doc: doc, indent: "  ", into: &out)
        out += "\n}\n"
        return out
    }

    private static func layer(_ l: Layer, doc: SceneDocument, indent: String, into out: inout String) {
        var members: [String] = []
        if l.layerClass != .layer { members.append("\"class\": \(str(l.layerClass.rawValue))") }
        if let n = l.name { members.append("\"name\": \(str(n))") }
        var defaults = Layer(l.layerClass)
        defaults.contentsScale = doc.scene.canvas.scale
        defaults.rasterizationScale = doc.scene.canvas.scale
        for p in KeyPathTable.properties where p.layerClass == nil || p.layerClass == l.layerClass {
            let v = p.get(l)
            if v == p.get(defaults) { continue }
            if let text = value(v) { members.append("\(str(p.name)): \(text)") }
        }
        members += filterMembers(l)
        let inner = indent + "  "
        var text = "{\n" + members.map { inner + $0 }.joined(separator: ",\n")
        func section(_ key: String, _ body: String) {
            text += (text.hasSuffix("{\n") ? "" : ",\n") + inner + "\"\(key)\": " + body
        }
        if l.layerClass == .emitter, !l.emitter.emitterCells.isEmpty {
            section("emitterCells", emitterCells(l.emitter.emitterCells, indent: inner))
        }
        if let m = l.mask {
            var s = ""; layer(m, doc: doc, indent: inner, into: &s); section("mask", s)
        }
        if !l.sublayers.isEmpty {
            var s = "[\n"
            for (i, sub) in l.sublayers.enumerated() {
                s += inner + "  "
                layer(sub, doc: doc, indent: inner + "  ", into: &s)
                s += i + 1 < l.sublayers.count ? ",\n" : "\n"
            }
            s += inner + "]"
            section("sublayers", s)
        }
        if let anims = doc.animations[l.id], !anims.isEmpty {
            section("animations", "[\n" + anims.map { inner + "  " + animation($0) }.joined(separator: ",\n") + "\n" + inner + "]")
        }
        out += text + "\n" + indent + "}"
    }

    static func animation(_ a: AnimationSpec) -> String {
        var m: [String] = ["\"class\": \(str(a.animationClass.rawValue))"]
        if let k = a.key { m.append("\"key\": \(str(k))") }
        if let kp = a.keyPath { m.append("\"keyPath\": \(str(kp.keyPath))") }
        if a.beginTime != 0 { m.append("\"beginTime\": \(num(a.beginTime))") }
        switch a.duration {
        case .seconds(let d): if d != 0 { m.append("\"duration\": \(num(d))") }
        case .settlingDuration: m.append("\"duration\": \"settlingDuration\"")
        }
        if a.speed != 1 { m.append("\"speed\": \(num(a.speed))") }
        if a.timeOffset != 0 { m.append("\"timeOffset\": \(num(a.timeOffset))") }
        if a.repeatCount != 0 { m.append("\"repeatCount\": \(num(a.repeatCount))") }
        if a.repeatDuration != 0 { m.append("\"repeatDuration\": \(num(a.repeatDuration))") }
        if a.autoreverses { m.append("\"autoreverses\": true") }
        if a.fillMode != .removed { m.append("\"fillMode\": \(str(a.fillMode.rawValue))") }
        if !a.removedOnCompletion { m.append("\"removedOnCompletion\": false") }
        if let t = a.timingFunction { m.append("\"timingFunction\": \(timing(t))") }
        if a.additive { m.append("\"additive\": true") }
        if a.cumulative { m.append("\"cumulative\": true") }
        for (k, v) in [("fromValue", a.fromValue), ("toValue", a.toValue), ("byValue", a.byValue)] {
            if let v, let text = value(v) { m.append("\"\(k)\": \(text)") }
        }
        if let k = a.keyframes, a.animationClass == .keyframe {
            if let vs = k.values { m.append("\"values\": [\(vs.compactMap(value).joined(separator: ", "))]") }
            if let ts = k.keyTimes { m.append("\"keyTimes\": \(numbers(ts))") }
            if let fs = k.timingFunctions { m.append("\"timingFunctions\": [\(fs.map(timing).joined(separator: ", "))]") }
            if k.calculationMode != .linear { m.append("\"calculationMode\": \(str(k.calculationMode.rawValue))") }
            if let p = k.path { m.append("\"path\": \(str(svg(p)))") }
            if let r = k.rotationMode { m.append("\"rotationMode\": \(str(r.rawValue))") }
            if let v = k.tensionValues { m.append("\"tensionValues\": \(numbers(v))") }
            if let v = k.continuityValues { m.append("\"continuityValues\": \(numbers(v))") }
            if let v = k.biasValues { m.append("\"biasValues\": \(numbers(v))") }
        }
        if let s = a.spring, a.animationClass == .spring {
            switch s.parameters {
            case .physical(let mass, let stiffness, let damping, let over):
                m.append("\"mass\": \(num(mass))"); m.append("\"stiffness\": \(num(stiffness))"); m.append("\"damping\": \(num(damping))")
                if over { m.append("\"allowsOverdamping\": true") }
            case .perceptual(let d, let b):
                m.append("\"perceptualDuration\": \(num(d))"); m.append("\"bounce\": \(num(b))")
            case .dampingRatio(let r):
                m.append("\"dampingRatio\": \(num(r))")
            }
            if s.initialVelocity != 0 { m.append("\"initialVelocity\": \(num(s.initialVelocity))") }
        }
        if a.animationClass == .group, !a.animations.isEmpty {
            m.append("\"animations\": [\(a.animations.map(animation).joined(separator: ", "))]")
        }
        if let t = a.transition, a.animationClass == .transition {
            m.append("\"type\": \(str(t.type.rawValue))")
            if let s = t.subtype { m.append("\"subtype\": \(str(s.rawValue))") }
            if t.startProgress != 0 { m.append("\"startProgress\": \(num(t.startProgress))") }
            if t.endProgress != 1 { m.append("\"endProgress\": \(num(t.endProgress))") }
        }
        return "{ " + m.joined(separator: ", ") + " }"
    }

    /// `path` as seen from `directory` ("../assets/a.png"); both made absolute from the working
    /// directory first and compared by components.
    static func relativePath(_ path: String, from directory: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        func parts(_ p: String) -> [String] {
            let absolute = p.hasPrefix("/") ? p : cwd + "/" + p
            var out: [String] = []
            for c in absolute.split(separator: "/") where c != "." {
                if c == ".." { if !out.isEmpty { out.removeLast() } } else { out.append(String(c)) }
            }
            return out
        }
        let target = parts(path), base = parts(directory)
        var common = 0
        while common < min(target.count, base.count), target[common] == base[common] { common += 1 }
        let up = Array(repeating: "..", count: base.count - common)
        return (up + target[common...]).joined(separator: "/")
    }

    /// A value in the scene format's encoding; nil for a value with no encoding (not written).
    static func value(_ v: AnimationValue) -> String? {
        switch v {
        case .number(let n): return num(n)
        case .bool(let b): return b ? "true" : "false"
        case .point(let p): return "[\(num(p.x)), \(num(p.y))]"
        case .size(let s): return "[\(num(s.width)), \(num(s.height))]"
        case .rect(let r): return "[\(num(r.origin.x)), \(num(r.origin.y)), \(num(r.size.width)), \(num(r.size.height))]"
        case .color(let c): return color(c)
        case .transform(let t): return numbers(t.elements)
        case .path(let p): return str(svg(p))
        case .image(let i):
            switch i.origin {
            case .file(let path): return str(imageDirectory.map { relativePath(path, from: $0) } ?? path)
            case .data(let bytes):
                let media = ImageFormat(signatureOf: bytes) == .jpeg ? "jpeg" : "png"
                return str("data:image/\(media);base64," + Data(bytes).base64EncodedString())
            }
        case .numberArray(let a): return numbers(a)
        case .colorArray(let a): return "[" + a.map(color).joined(separator: ", ") + "]"
        case .string(let s): return str(s)
        case .cornerMask(let m): return "[" + CornerMask.names.filter { m.contains($0.1) }.map { str($0.0) }.joined(separator: ", ") + "]"
        case .enumeration(let e): return str(e)
        case .null: return "null"
        }
    }

    static func timing(_ t: TimingFunctionSpec) -> String {
        switch t {
        case .named(let n): return str(n.rawValue)
        case .controlPoints(let a, let b, let c, let d): return numbers([a, b, c, d])
        }
    }

    static func color(_ c: Color) -> String { numbers([c.red, c.green, c.blue, c.alpha]) }

    /// SVG path data with absolute commands (M L Q C Z), which the scene format reads.
    static func svg(_ p: Path) -> String {
        p.elements.map { e -> String in
            switch e {
            case .move(let a): return "M\(num(a.x)) \(num(a.y))"
            case .line(let a): return "L\(num(a.x)) \(num(a.y))"
            case .quad(let c, let a): return "Q\(num(c.x)) \(num(c.y)) \(num(a.x)) \(num(a.y))"
            case .cubic(let c1, let c2, let a): return "C\(num(c1.x)) \(num(c1.y)) \(num(c2.x)) \(num(c2.y)) \(num(a.x)) \(num(a.y))"
            case .close: return "Z"
            }
        }.joined(separator: " ")
    }

    static func numbers(_ a: [Double]) -> String { "[" + a.map(num).joined(separator: ", ") + "]" }

    /// Shortest round-trip spelling; infinity as the format's "infinity"; whole numbers without ".0".
    static func num(_ d: Double) -> String {
        if d.isInfinite { return d > 0 ? "\"infinity\"" : "-1e308" }
        if d.isNaN { return "0" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    static func str(_ s: String) -> String { JSONString.quoted(s) }
}
