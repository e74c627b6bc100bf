import Geometry
import LayerModel
import Animation
import SceneFormat
import SystemSupport

/// Imports a Lottie animation (Bodymovin JSON 4.x–5.x) as the layer tree lottie-ios's Core
/// Animation rendering engine builds of it, so caprof renders and profiles what the device shows.
///
/// The canvas is the animation's `w`×`h` points on a transparent background; the timeline is
/// `ip`…`op` at `fr` frames per second: scene time t shows frame `ip + t · fr`. The root layer
/// is the animation view's layer; every Lottie layer inside it keeps its name (`nm`) and the
/// place of its object in the file, so findings name the animation's own layers.
public enum LottieImporter {
    /// Whether parsed JSON is a Lottie animation rather than a caprof scene: a top-level object
    /// with `layers`, a frame rate `fr` and an out point `op`, and no `caprof` version.
    public static func isLottie(_ top: JSONValue) -> Bool {
        top.members != nil && top["caprof"] == nil && top["layers"]?.array != nil && top["fr"] != nil && top["op"] != nil
    }

    /// Where the animation's image files come from.
    public enum Images {
        /// Files relative to this directory (a `.json` animation's folder).
        case directory(String)
        /// Entries of a dotLottie package, by name.
        case package(file: String, lookup: (String) throws -> [UInt8]?)
    }

    public static func decode(data: [UInt8], file: String, images: Images, limits: DecodingLimits = .standard) throws -> SceneDocument {
        if data.count > limits.fileBytes {
            throw SceneError(.limitExceeded, at: SourceLocation(file: file, pointer: "", line: 0, column: 0),
                             "the animation is \(data.count) bytes; the limit is \(limits.fileBytes) (raise it with --limit file-bytes=N)")
        }
        return try decode(json: try JSONParser.parse(data, file: file), file: file, images: images, limits: limits)
    }

    public static func decode(json top: JSONValue, file: String, images: Images, limits: DecodingLimits = .standard) throws -> SceneDocument {
        let here = SourceLocation(file: file, pointer: "", line: top.line, column: top.column)
        guard top.members != nil else { throw SceneError(.wrongType, at: here, "a Lottie animation is a JSON object, found \(top.typeDescription)") }
        func number(_ key: String, _ what: String, _ valid: (Double) -> Bool, default d: Double? = nil) throws -> Double {
            guard let v = top[key] else {
                if let d { return d }
                throw SceneError(.missingKey, at: here, "missing required key '\(key)' (\(what)) of a Lottie animation")
            }
            guard let x = v.number, x.isFinite, valid(x) else {
                throw SceneError(.outOfRange, at: SourceLocation(file: file, pointer: v.pointer, line: v.line, column: v.column),
                                 "'\(key)' (\(what)) must be \(key == "fr" ? "a frame rate in (0, 1000]" : key == "w" || key == "h" ? "a size in [0.5, \(Canvas.maxPixelSide)] points" : "a finite frame number"), found \(v.number.map(LottieNumber.text) ?? v.typeDescription)")
            }
            return x
        }
        let fr = try number("fr", "frames per second", { $0 > 0 && $0 <= 1000 })
        let ip = try number("ip", "in point", { abs($0) <= 1e7 }, default: 0)
        let op = try number("op", "out point", { abs($0) <= 1e7 })
        // At least half a point: a canvas needs a pixel (as for a scene file's canvas).
        let w = try number("w", "width", { $0 >= 0.5 && $0 <= Double(Canvas.maxPixelSide) })
        let h = try number("h", "height", { $0 >= 0.5 && $0 <= Double(Canvas.maxPixelSide) })
        guard op > ip else {
            throw SceneError(.outOfRange, at: here, "the out point 'op' (\(LottieNumber.text(op))) must come after the in point 'ip' (\(LottieNumber.text(ip)))")
        }
        let duration = (op - ip) / fr
        if duration * fr > Double(limits.framesPerRun) {
            throw SceneError(.limitExceeded, at: here, "\(LottieNumber.text(op - ip)) frames from ip to op is more than \(limits.framesPerRun) frames, the most one run evaluates (raise it with --limit frames=N)")
        }

        let ctx = LottieContext(file: file, frameRate: fr, limits: limits)
        for f in top["fonts"]?["list"]?.array ?? [] {
            if let name = f["fName"]?.string, let family = f["fFamily"]?.string { ctx.fontFamilies[name] = family }
        }
        let store: LottieAssets.ImageStore
        switch images {
        case .directory(let d): store = .directory(d)
        case .package(let f, let lookup): store = .package(file: f, lookup: lookup)
        }
        let assets = try LottieAssets.read(top["assets"], ctx, store: store)
        guard let layers = top["layers"] else { throw SceneError(.missingKey, at: here, "missing required key 'layers' of a Lottie animation") }
        if let x = top["ddd"]?.number, x == 1 { /* 3D layers are handled per layer */ }

        let size = Size(w, h)
        let clock = LottieClock.root(frameRate: fr, inPoint: ip)
        let builder = LottieCompositionBuilder(ctx: ctx, assets: assets, sceneEnd: duration)
        var root = try ctx.newLayer(at: top, depth: 1)
        root.name = top["nm"]?.string ?? "Lottie animation"
        root.bounds = Rect(0, 0, w, h)
        root.position = Point(w / 2, h / 2)
        root.sublayers = try builder.layers(layers, size: size, clock: clock, depth: 2, stack: [])

        // Final ids: preorder (masks first), as every scene is numbered.
        var provisional: [Int] = []
        root.forEach { provisional.append($0.id) }
        let animations = ProvisionalIDs.renumber(&root, pending: ctx.pendingAnimations)
        var finalID: [Int: Int] = [:]
        for (final, old) in provisional.enumerated() { finalID[old] = final }
        let warnings = ctx.warnings.map { w in
            Unsupported(feature: w.message, location: w.place.line > 0 ? w.place : nil, layer: w.layer.flatMap { finalID[$0] })
        }
        var scene = Scene(canvas: Canvas(width: w, height: h, scale: 1), root: root)
        scene.timeline = Timeline(duration: duration, fps: fr)
        scene.sourceFile = file
        var document = SceneDocument(scene: scene, animations: animations, transactions: [], warnings: warnings)
        document.markers = try markers(top["markers"], file: file, frameRate: fr, inPoint: ip)
        return document
    }

    /// The most markers an animation may declare (a hostile file never makes a long list).
    public static let maxMarkers = 10_000

    /// `markers`: `[{"tm": frame, "cm": name, "dr": frames}]` as scene-time segments (frame f is
    /// at (f − ip) / fr s, as `LottieClock.root` places it). `cm` is the name, or an old
    /// exporter's JSON string `"{\"name\":\"x\"}"` holding it; `dr` absent is 0. Times outside
    /// ip…op are kept as they are; a missing or non-finite `tm`, or a non-finite or negative `dr`,
    /// is an error at its place.
    static func markers(_ value: JSONValue?, file: String, frameRate fr: Double, inPoint ip: Double) throws -> [TimelineMarker] {
        guard let value, !value.isNull else { return [] }
        func place(_ v: JSONValue) -> SourceLocation { SourceLocation(file: file, pointer: v.pointer, line: v.line, column: v.column) }
        guard let list = value.array else {
            throw SceneError(.wrongType, at: place(value), "'markers' must be an array of {\"tm\": frame, \"cm\": name, \"dr\": frames}, found \(value.typeDescription)")
        }
        if list.count > maxMarkers {
            throw SceneError(.limitExceeded, at: place(value), "\(list.count) markers; the limit is \(maxMarkers)")
        }
        return try list.map { m in
            guard m.members != nil else {
                throw SceneError(.wrongType, at: place(m), "a marker is an object {\"tm\": frame, \"cm\": name, \"dr\": frames}, found \(m.typeDescription)")
            }
            guard let cm = m["cm"] else { throw SceneError(.missingKey, at: place(m), "missing required key 'cm' (the marker's name) of a marker") }
            guard let text = cm.string else {
                throw SceneError(.wrongType, at: place(cm), "'cm' (the marker's name) must be a string, found \(cm.typeDescription)")
            }
            guard let tm = m["tm"] else { throw SceneError(.missingKey, at: place(m), "missing required key 'tm' (the marker's frame) of marker \"\(text)\"") }
            guard let frame = tm.number, frame.isFinite, abs(frame) <= 1e7 else {
                throw SceneError(.outOfRange, at: place(tm), "'tm' (the marker's frame) must be a finite frame number, found \(tm.number.map(LottieNumber.text) ?? tm.typeDescription)")
            }
            var frames = 0.0
            if let dr = m["dr"], !dr.isNull {
                guard let d = dr.number, d.isFinite, d >= 0, d <= 1e7 else {
                    throw SceneError(.outOfRange, at: place(dr), "'dr' (the marker's duration in frames) must be a finite number ≥ 0, found \(dr.number.map(LottieNumber.text) ?? dr.typeDescription)")
                }
                frames = d
            }
            return TimelineMarker(name: markerName(text, file: file), start: (frame - ip) / fr, duration: frames / fr)
        }
    }

    /// `cm` as lottie-ios reads it: the plain name, or the `name` of an old exporter's JSON object
    /// string (`"{\"name\":\"intro\"}"`); a string that is not such an object is the name as is.
    static func markerName(_ cm: String, file: String) -> String {
        let trimmed = cm.trimmingWhitespace()
        guard trimmed.hasPrefix("{"), trimmed.hasSuffix("}"),
              let object = try? JSONParser.parse(Array(trimmed.utf8), file: file),
              let name = object["name"]?.string else { return cm }
        return name
    }
}
