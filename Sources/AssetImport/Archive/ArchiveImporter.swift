import Geometry
import LayerModel
import Animation
import SceneFormat

/// Reads a Core Animation archive (`.caar`: an NSKeyedArchiver binary plist whose root is a
/// dictionary with `rootLayer`) into a `SceneDocument`, so evaluation, planning and rendering
/// work on it unchanged. Warnings name the archive object path (`/rootLayer/sublayers/1`).
public enum ArchiveImporter {
    /// Decodes archive bytes; `file` names the source in messages.
    /// `limits`: the raisable limits (layers) the import stops at as it reads; the caller checks
    /// the whole result against the scene format's limits (`SceneLimitCheck`, `AssetLoader`).
    public static func decode(data: [UInt8], file: String, limits: DecodingLimits = .standard) throws -> SceneDocument {
        let ctx = ImportContext(file: file, limits: limits)
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(data: data)
        } catch let e as PlistError {
            throw SceneError(e.isLimit ? .limitExceeded : .invalidValue, at: ctx.place(""), "cannot read the Core Animation archive: \(e.message)")
        }
        do {
            return try ArchiveSceneBuilder(archive: archive, ctx: ctx).build()
        } catch let e as PlistError {
            throw SceneError(e.isLimit ? .limitExceeded : .invalidValue, at: ctx.place(""),
                             e.isLimit ? "the Core Animation archive is refused: \(e.message)" : "corrupt Core Animation archive: \(e.message)")
        }
    }
}

/// Builds the scene from a resolved archive: the root dictionary, then layers and animations.
struct ArchiveSceneBuilder {
    let archive: KeyedArchive
    let ctx: ImportContext
    let values: ArchiveValueDecoder

    init(archive: KeyedArchive, ctx: ImportContext) {
        self.archive = archive; self.ctx = ctx
        values = ArchiveValueDecoder(archive: archive, ctx: ctx)
    }

    func build() throws -> SceneDocument {
        let rootValue: ImportedValue
        switch try archive.rootObject() {
        case .object(let o): rootValue = try values.object(o, path: "")
        default: throw PlistError("the archive's root is not an object")
        }
        var rootLayerObject: ArchivedObject?
        var flipped = false
        var docSize: Size?
        switch rootValue {
        case .dictionary(let pairs):
            let d = Dictionary(pairs, uniquingKeysWith: { a, _ in a })
            if case .object(_, let ref)? = d["rootLayer"] { rootLayerObject = try archive.object(ref) }
            flipped = (d["geometryFlipped"]?.number ?? 0) != 0
            if let w = d["documentWidth"]?.number, let h = d["documentHeight"]?.number, w > 0, h > 0 { docSize = Size(w, h) }
            for (k, _) in pairs where !["rootLayer", "geometryFlipped", "documentWidth", "documentHeight", "publishedObjects"].contains(k) {
                ctx.warn("unknown key '\(k)' in the archive's root dictionary is ignored", at: ctx.place("/\(k)"))
            }
        case .object(_, let ref) where (try? archive.object(ref).isKind(of: "CALayer")) == true:
            // An archived bare layer (archivedDataWithRootObject:layer) is accepted too.
            rootLayerObject = try archive.object(ref)
        default:
            throw PlistError("the root object is \(rootValue.kindDescription), not a dictionary with rootLayer")
        }
        guard let rootObject = rootLayerObject else { throw PlistError("the root dictionary has no rootLayer") }

        var root = try layer(rootObject, path: "/rootLayer", depth: 1, ancestors: [])
        // Archives are made on macOS, whose hosts are y-up; the host applies the archive's
        // geometryFlipped to the root layer (as CAPackage does). caprof's canvas is y-down (iOS),
        // so the root's flip is inverted to keep the picture upright: Kite's flipped trees then
        // read as iOS loaders show them (rootLayer.isGeometryFlipped = false).
        root.geometryFlipped = !(root.geometryFlipped || flipped)
        let size = docSize ?? root.bounds.size
        guard size.width > 0, size.height > 0 else {
            throw SceneError(.invalidValue, at: ctx.place("/rootLayer/bounds"), "the root layer has an empty size \(root.bounds.size) and the archive no documentWidth/documentHeight: nothing to draw")
        }
        return try SceneAssembly.document(root: root, size: size, ctx: ctx)
    }

    // MARK: emitter cells

    /// A CAEmitterLayer's (or cell's) `emitterCells`: archived CAEmitterCell objects.
    func emitterCells(_ v: ImportedValue, path: String, depth: Int, _ builder: EmitterCellBuilder) throws -> [EmitterCell] {
        var out: [EmitterCell] = []
        for (i, item) in (v.array ?? []).enumerated() {
            let at = "\(path)/\(i)"
            guard case .object(_, let ref) = item, case let o = try archive.object(ref), o.isKind(of: "CAEmitterCell") else {
                ctx.warn("emitter cell \(i) is \(item.kindDescription), not a CAEmitterCell; it is skipped", at: ctx.place(at))
                continue
            }
            try builder.count(at: ctx.place(at), depth: depth)
            var cell = EmitterCell()
            var ignored: [String] = []
            for (key, raw) in o.fields {
                let value = try values.value(raw, path: "\(at)/\(key)")
                if key == "emitterCells" {
                    cell.emitterCells = try emitterCells(value, path: "\(at)/emitterCells", depth: depth + 1, builder)
                } else {
                    builder.apply(key, value, to: &cell, at: ctx.place("\(at)/\(key)"), ignored: &ignored)
                }
            }
            builder.finish(cell, ignored: ignored, at: ctx.place(at))
            out.append(cell)
        }
        return out
    }

    // MARK: layers

    func layer(_ o: ArchivedObject, path: String, depth: Int, ancestors: Set<Int>) throws -> Layer {
        let place = ctx.place(path)
        try ctx.countLayer(at: place, depth: depth)
        let (cls, exact) = LayerBuilder.layerClass(chain: o.classes)
        var layer = Layer(cls)
        layer.id = ctx.provisionalID()
        // No location: an archive has no lines, and reports place layers by line (≥ 1). Findings
        // name archive layers by name or index path instead.
        let builder = LayerBuilder(ctx: ctx)
        var ignoredKeys: [String] = []
        var animationKeys: [String] = []
        var animations: [ImportedValue] = []
        for (key, raw) in o.fields {
            let at = ctx.place("\(path)/\(key)")
            switch key {
            case "delegate", "__CACodingContents":
                continue
            case "sublayers", "mask", "CALayerAnimations", "CALayerAnimationKeys", "name":
                let v = try values.value(raw, path: "\(path)/\(key)")
                switch key {
                case "name": layer.name = v.string
                case "CALayerAnimationKeys": animationKeys = v.array?.compactMap(\.string) ?? []
                case "CALayerAnimations": animations = v.array ?? []
                case "mask":
                    if case .object(_, let ref) = v {
                        let m = try archive.object(ref)
                        if m.isKind(of: "CALayer"), !ancestors.contains(ref), ref != o.index {
                            layer.mask = try self.layer(m, path: at.pointer, depth: depth + 1, ancestors: ancestors.union([o.index]))
                        } else {
                            ctx.warn("mask is not a layer (or a layer already in the tree); it is ignored", at: at)
                        }
                    }
                default:
                    for (i, item) in (v.array ?? []).enumerated() {
                        guard case .object(_, let ref) = item else { continue }
                        let s = try archive.object(ref)
                        guard s.isKind(of: "CALayer"), !ancestors.contains(ref), ref != o.index else {
                            ctx.warn("sublayer \(i) is \(item.kindDescription), not a new layer; it is skipped", at: ctx.place("\(path)/sublayers/\(i)"))
                            continue
                        }
                        layer.sublayers.append(try self.layer(s, path: "\(path)/sublayers/\(i)", depth: depth + 1, ancestors: ancestors.union([o.index])))
                    }
                }
            case "emitterCells" where cls == .emitter:
                let cells = EmitterCellBuilder(ctx: ctx)
                layer.emitter.emitterCells = try emitterCells(try values.value(raw, path: at.pointer), path: at.pointer, depth: 1, cells)
                try cells.checkParticles(layer, at: at)
            default:
                if !exact, KeyPathTable.property(named: key) == nil, !LayerBuilder.noEffectKeys.contains(key) {
                    ignoredKeys.append(key)
                    continue
                }
                builder.apply(key, try values.value(raw, path: at.pointer), to: &layer, at: at)
            }
        }
        if !exact {
            let keys = ignoredKeys.isEmpty ? "" : "; its keys \(ignoredKeys.joined(separator: ", ")) are ignored"
            ctx.warn("\(o.className) is not drawn yet; drawn as a plain \(cls.rawValue)\(keys)", at: place)
        }
        var specs: [AnimationSpec] = []
        for (i, a) in animations.enumerated() {
            guard case .object(_, let ref) = a else { continue }
            let key = i < animationKeys.count ? animationKeys[i] : nil
            let apath = "\(path)/animations/\(key ?? String(i))"
            try ctx.countAnimation(at: ctx.place(apath))
            if let spec = try animation(try archive.object(ref), key: key, layerClass: cls, path: apath, depth: 0) {
                // add(_:forKey:) replaces an animation with the same key.
                if let k = spec.key { specs.removeAll { $0.key == k } }
                specs.append(spec)
            }
        }
        if !specs.isEmpty { ctx.pendingAnimations[layer.id] = specs }
        return layer
    }

    // MARK: animations

    func animation(_ o: ArchivedObject, key: String?, layerClass: LayerClass, path: String, depth: Int) throws -> AnimationSpec? {
        var fields: [(String, ImportedValue)] = []
        var children: [AnimationSpec] = []
        for (name, raw) in o.fields where name != "delegate" && name != "__CACodingContents" {
            let v = try values.value(raw, path: "\(path)/\(name)")
            if name == "animations", depth < 32 {
                for (i, item) in (v.array ?? []).enumerated() {
                    guard case .object(_, let ref) = item, ref != o.index else { continue }
                    if let c = try animation(try archive.object(ref), key: nil, layerClass: layerClass, path: "\(path)/animations/\(i)", depth: depth + 1) {
                        children.append(c)
                    }
                }
                continue
            }
            fields.append((name, v))
        }
        let cls = o.classes.first { AnimationClass(rawValue: $0) != nil && $0 == o.className } ?? o.className
        return AnimationBuilder(ctx: ctx, layerClass: layerClass)
            .build(className: cls, key: key, fields: fields, children: children, at: ctx.place(path))
    }
}

/// The last step shared by both importers: ids, animations under final ids, canvas and timeline.
enum SceneAssembly {
    static func document(root: Layer, size: Size, ctx: ImportContext) throws -> SceneDocument {
        var root = root
        // The host places the root layer as a view places its layer: its frame fills the canvas
        // (Kite and CAML roots are at arbitrary positions in their editors).
        if root.transform.isIdentity {
            root.position = Point(root.anchorPoint.x * root.bounds.width, root.anchorPoint.y * root.bounds.height)
        }
        let animations = ctx.takeAnimations(renumbering: &root)
        let canvas = Canvas(width: size.width, height: size.height, scale: 1)
        let pw = size.width, ph = size.height
        guard pw.isFinite, ph.isFinite, pw <= Double(Canvas.maxPixelSide), ph <= Double(Canvas.maxPixelSide) else {
            throw SceneError(.limitExceeded, at: ctx.place(""), "the document is \(size) points; each side must be ≤ \(Canvas.maxPixelSide)")
        }
        // As a scene file's canvas must: a side under half a point rounds to no pixel.
        guard canvas.pixelWidth >= 1, canvas.pixelHeight >= 1 else {
            throw SceneError(.invalidValue, at: ctx.place(""),
                             "the document is \(size) points, \(canvas.pixelWidth)×\(canvas.pixelHeight) device pixels: each side needs at least one pixel")
        }
        var scene = Scene(canvas: canvas, root: root)
        scene.sourceFile = ctx.file
        scene.assignIDs()
        return SceneDocument(scene: scene, animations: animations, transactions: [], warnings: ctx.warnings)
    }
}
