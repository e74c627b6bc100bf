import Geometry
import LayerModel
import Animation
import SceneFormat

/// One composition's layers (the animation's `layers`, or a precomposition asset's) as the
/// CALayer tree lottie-ios's Core Animation engine builds: bottom layer first (Lottie lists the
/// top layer first); each layer inside one transform layer per ancestor (`parent`), outermost
/// first, so a child moves with its parents while keeping its own place in the z-order; hidden
/// outside its `ip`…`op`; a track matte as the mask of a container around the matted layer.
struct LottieCompositionBuilder {
    let ctx: LottieContext
    let assets: LottieAssets
    /// The scene time of the root composition's last frame: a layer that lasts until then is
    /// shown on it (the device shows the last frame of a finished animation).
    let sceneEnd: Double

    struct Entry {
        var json: JSONValue
        var index: Int
        var ind: Double?
        var parent: Double?
        var name: String
    }

    func layers(_ list: JSONValue, size: Size, clock: LottieClock, depth: Int, stack: [String]) throws -> [Layer] {
        guard let items = list.array else { throw ctx.error(list, "'layers' must be an array of layers, found \(list.typeDescription)", kind: .wrongType) }
        var entries: [Entry] = []
        for (i, l) in items.enumerated() {
            guard l.members != nil else { throw ctx.error(l, "a layer must be an object, found \(l.typeDescription)", kind: .wrongType) }
            entries.append(Entry(json: l, index: i, ind: l["ind"]?.number, parent: l["parent"]?.number,
                                 name: l["nm"]?.string ?? "layer \(i)"))
        }
        var byInd: [Double: Entry] = [:]
        for e in entries { if let ind = e.ind, byInd[ind] == nil { byInd[ind] = e } }

        var out: [Layer] = []
        for e in entries.reversed() {
            let l = e.json
            if l["td"]?.number == 1 { continue }            // a matte source: drawn only as a matte
            if l["hd"]?.bool == true { continue }           // hidden in After Effects
            guard var layer = try layer(e, byInd: byInd, size: size, clock: clock, depth: depth, stack: stack) else { continue }
            if let tt = l["tt"]?.number, tt >= 1 {
                var source: Entry?
                if let tp = l["tp"]?.number { source = byInd[tp] }
                else if e.index > 0, entries[e.index - 1].json["td"]?.number == 1 { source = entries[e.index - 1] }
                if let source, var matte = try self.layer(source, byInd: byInd, size: size, clock: clock, depth: depth + 2, stack: stack) {
                    if tt == 3 || tt == 4 {
                        ctx.warn("layer '\(e.name)' has \(tt == 3 ? "a luma matte" : "an inverted luma matte"): lottie-ios's Core Animation engine draws it by the matte's alpha, not its luminance, which is what the device shows", at: l, layer: layer.id)
                    }
                    if tt == 2 || tt == 4 {
                        // Inverted: an opaque layer over everything, the matte cut out of it.
                        var inverse = try ctx.newLayer(at: l, depth: depth + 1)
                        inverse.name = "\(e.name) (inverted matte)"
                        inverse.bounds = Rect(0, 0, size.width, size.height)
                        inverse.anchorPoint = Point(0, 0)
                        inverse.position = Point(0, 0)
                        var cover = try ctx.newLayer(at: l, depth: depth + 2)
                        cover.name = "matte cover"
                        cover.backgroundColor = .black
                        cover.bounds = Rect(0, 0, 5 * max(size.width, 1) + 4000, 5 * max(size.height, 1) + 4000)
                        cover.anchorPoint = Point(0, 0)
                        cover.position = Point(-2 * max(size.width, 1) - 2000, -2 * max(size.height, 1) - 2000)
                        matte.compositingFilter = .destinationOut
                        inverse.sublayers = [cover, matte]
                        matte = inverse
                    }
                    var container = try ctx.newLayer(at: l, depth: depth)
                    container.name = "\(e.name) (matte)"
                    container.bounds = Rect(0, 0, size.width, size.height)
                    container.anchorPoint = Point(0, 0)
                    container.position = Point(0, 0)
                    container.sublayers = [layer]
                    container.mask = matte
                    layer = container
                } else {
                    ctx.warn("layer '\(e.name)' has a track matte but no matte layer before it ('td': 1); it is drawn without one", at: l, layer: layer.id)
                }
            }
            out.append(layer)
        }
        return out
    }

    /// The layer with its parents' transform layers around it and its visibility; nil for a
    /// layer type that draws nothing and is nobody's parent here.
    func layer(_ e: Entry, byInd: [Double: Entry], size: Size, clock: LottieClock, depth: Int, stack: [String]) throws -> Layer? {
        // The chain of ancestors, innermost first.
        var chain: [Entry] = []
        var seen: Set<Double> = e.ind.map { [$0] } ?? []
        var next = e.parent
        while let p = next {
            guard let parent = byInd[p] else {
                ctx.warn("layer '\(e.name)' names a parent \(LottieNumber.text(p)) that no layer of its composition has; it is drawn without one", at: e.json["parent"] ?? e.json)
                break
            }
            guard seen.insert(p).inserted else {
                throw ctx.error(e.json["parent"] ?? e.json, "layer '\(e.name)': its parents form a cycle (layer \(LottieNumber.text(p)) is its own ancestor)", kind: .invalidValue)
            }
            chain.append(parent)
            if chain.count > 200 { throw ctx.error(e.json, "layer '\(e.name)' has more than 200 ancestors", kind: .limitExceeded) }
            next = parent.parent
        }
        let contentDepth = depth + chain.count
        guard var layer = try content(e, size: size, clock: clock, depth: contentDepth + 1, stack: stack) else { return nil }
        for (k, parent) in chain.enumerated() {
            var wrapper = try ctx.newLayer(at: parent.json, depth: contentDepth - k)
            wrapper.name = "\(parent.name) (parent of \(e.name))"
            let t = try LottieTransform.read(parent.json["ks"], ctx, what: "layer '\(parent.name)' transform")
            try t.apply(to: &wrapper, size: parentSize(parent.json, size), clock: clock, ctx: ctx, opacity: false, at: parent.json)
            wrapper.sublayers = [layer]
            layer = wrapper
        }
        try visibility(e.json, of: &layer, clock: clock)
        return layer
    }

    /// The bounds a layer's transform works in: a precomposition's or solid's own size, an
    /// image's, else its composition's.
    func parentSize(_ l: JSONValue, _ size: Size) -> Size {
        switch l["ty"]?.number {
        case 0: return Size(l["w"]?.number ?? size.width, l["h"]?.number ?? size.height)
        case 1: return Size(l["sw"]?.number ?? size.width, l["sh"]?.number ?? size.height)
        case 2:
            if let id = l["refId"]?.string, let a = assets.images[id] { return a.size }
            return size
        default: return size
        }
    }

    /// Hidden before `ip` and from `op` on, in scene time (a discrete `hidden` animation); a layer
    /// that lasts to the end of the root timeline is shown on its last frame.
    func visibility(_ l: JSONValue, of layer: inout Layer, clock: LottieClock) throws {
        if let remap = clock.remap { return try remappedVisibility(l, of: &layer, remap) }
        // Frames past ±10,000,000 mean "always" (exporters write huge out points); clamped so
        // that no time in the scene becomes infinite through a stretched precomposition.
        let ip = min(max(l["ip"]?.number ?? -1e7, -1e7), 1e7), op = min(max(l["op"]?.number ?? 1e7, -1e7), 1e7)
        var tIn = clock.time(ip), tOut = clock.time(op)
        guard tIn.isFinite, tOut.isFinite, abs(tIn) < 1e12, abs(tOut) < 1e12 else { return }
        if clock.secondsPerFrame < 0 { swap(&tIn, &tOut) }
        if tOut >= sceneEnd - 1e-9 { tOut = .infinity }
        if tIn <= 0 && tOut == .infinity { return }
        if tOut <= tIn || tOut <= 0 || tIn > sceneEnd {
            layer.hidden = true
            return
        }
        let begin = min(tIn, 0) - 1, end = max(tOut == .infinity ? sceneEnd : tOut, sceneEnd) + 1
        var spec = AnimationSpec(animationClass: .keyframe, location: ctx.place(l))
        spec.keyPath = KeyPathTable.resolve("hidden")
        spec.key = "hidden"
        spec.beginTime = begin
        spec.duration = .seconds(end - begin)
        spec.fillMode = .both
        spec.removedOnCompletion = false
        spec.keyframes?.calculationMode = .discrete
        var values: [AnimationValue] = [.bool(true), .bool(false)]
        var times = [0, (max(tIn, begin) - begin) / (end - begin)]
        if tOut != .infinity {
            values.append(.bool(true))
            times.append((tOut - begin) / (end - begin))
        }
        times.append(1)
        spec.keyframes?.values = values
        spec.keyframes?.keyTimes = times
        layer.hidden = !(tIn <= 0 && 0 < tOut)
        try ctx.add(spec, to: layer, at: l)
    }

    /// Visibility under time remapping: shown at the root frames where the composition's frame is
    /// within `ip`…`op` (a discrete `hidden` animation over the samples).
    func remappedVisibility(_ l: JSONValue, of layer: inout Layer, _ remap: LottieClock.Remap) throws {
        let ip = min(max(l["ip"]?.number ?? -1e7, -1e7), 1e7), op = min(max(l["op"]?.number ?? 1e7, -1e7), 1e7)
        let hidden = remap.frames.map { !($0 >= ip && $0 < op) }
        guard let first = hidden.first else { return }
        layer.hidden = first
        guard hidden.contains(!first), let end = remap.times.last, end > 0 else { return }
        var values: [AnimationValue] = [], times: [Double] = []
        for (i, h) in hidden.enumerated() where i == 0 || h != hidden[i - 1] {
            values.append(.bool(h)); times.append(remap.times[i] / end)
        }
        times.append(1)
        var spec = AnimationSpec(animationClass: .keyframe, location: ctx.place(l))
        spec.keyPath = KeyPathTable.resolve("hidden")
        spec.key = "hidden"
        spec.beginTime = 0
        spec.duration = .seconds(end)
        spec.fillMode = .both
        spec.removedOnCompletion = false
        spec.keyframes?.calculationMode = .discrete
        spec.keyframes?.values = values
        spec.keyframes?.keyTimes = times
        try ctx.add(spec, to: layer, at: l)
    }

    /// The layer itself, by type, with its own transform, opacity, blend mode, masks and effects.
    func content(_ e: Entry, size: Size, clock: LottieClock, depth: Int, stack: [String]) throws -> Layer? {
        let l = e.json
        let ty = l["ty"]?.number ?? -1
        var layer = try ctx.newLayer(at: l, depth: depth)
        layer.name = e.name
        var ownSize = size
        switch ty {
        case 0:
            ownSize = Size(max(l["w"]?.number ?? size.width, 0), max(l["h"]?.number ?? size.height, 0))
            guard ownSize.width <= 1e6, ownSize.height <= 1e6 else {
                throw ctx.error(l, "precomposition layer '\(e.name)' is \(ownSize.width)×\(ownSize.height) points; each side must be at most 1,000,000", kind: .outOfRange)
            }
            layer.masksToBounds = true
            guard let id = l["refId"]?.string else { throw ctx.error(l, "precomposition layer '\(e.name)' has no 'refId'", kind: .missingKey) }
            guard let asset = assets.precompositions[id] else {
                // lottie-ios skips such a layer (the device shows the rest): said, not silent.
                ctx.warn("precomposition layer '\(e.name)' refers to '\(id)', which no asset has; it is not drawn (as lottie-ios skips it)", at: l["refId"]!)
                return nil
            }
            if stack.contains(id) {
                throw ctx.error(l["refId"]!, "precomposition '\(id)' contains itself (\((stack + [id]).joined(separator: " → ")))", kind: .invalidValue)
            }
            if stack.count >= 64 { throw ctx.error(l, "precompositions nested more than 64 deep", kind: .limitExceeded) }
            let st = l["st"]?.number ?? 0, sr = l["sr"]?.number ?? 1
            guard st.isFinite, sr.isFinite, sr != 0, abs(sr) <= 1e6, abs(st) <= 1e7 else {
                throw ctx.error(l, "precomposition layer '\(e.name)': start time 'st' and stretch 'sr' must be finite numbers, 'sr' not 0", kind: .outOfRange)
            }
            var inner = clock.precomposition(startTime: st, stretch: sr)
            if let tmv = l["tm"] {
                // Time remapping: the precomposition's frame is tm (seconds) at the layer's frame.
                let tm = try LottieValues.scalar(tmv, ctx, what: "layer '\(e.name)' time remapping")
                let n = Int((sceneEnd * ctx.frameRate).rounded(.up))
                inner = clock.remapped(tm, frameRate: ctx.frameRate, times: (0...max(n, 1)).map { min(Double($0) / ctx.frameRate, sceneEnd) })
            }
            layer.sublayers = try layers(asset, size: ownSize, clock: inner, depth: depth + 1, stack: stack + [id])
        case 1:
            ownSize = Size(max(l["sw"]?.number ?? 0, 0), max(l["sh"]?.number ?? 0, 0))
            layer.backgroundColor = (l["sc"]?.string).flatMap(LottieValues.hexColor) ?? .black
        case 2:
            guard let id = l["refId"]?.string, let image = assets.images[id] else {
                ctx.warn("image layer '\(e.name)' refers to an image asset '\(l["refId"]?.string ?? "")' that does not exist; it is not drawn (as lottie-ios skips it)", at: l["refId"] ?? l)
                return nil
            }
            ownSize = image.size
            layer.contents = image.source
        case 3:
            break   // a null layer: nothing drawn, a parent to others
        case 4:
            let items = try LottieShapeReader.items(l["shapes"], ctx, depth: 0)
            let builder = LottieShapeBuilder(ctx: ctx, clock: clock, size: size)
            layer.bounds = Rect(0, 0, size.width, size.height)
            try builder.build(items, into: &layer, depth: depth, inherited: [], inheritedTrim: nil)
        case 5:
            try LottieText.apply(l, to: &layer, size: size, clock: clock, ctx: ctx, depth: depth)
        default:
            ctx.warn("layer '\(e.name)' is of type \(LottieNumber.text(ty)) (\(Self.typeName(ty))), which draws nothing on the device", at: l)
            if ty != 13 && ty != 6 { return nil }
            return nil
        }
        let t = try LottieTransform.read(l["ks"], ctx, what: "layer '\(e.name)' transform")
        try t.apply(to: &layer, size: ownSize, clock: clock, ctx: ctx, opacity: true, at: l)
        if l["ddd"]?.number == 1 && !(t.rotationX?.isAnimated ?? false) && !(t.rotationY?.isAnimated ?? false) && t.rotationX == nil && t.rotationY == nil {
            // A 3D layer without 3D rotation draws as a 2D one.
        }
        if let bm = l["bm"]?.number, bm != 0 {
            if bm >= 1, bm < 100, let f = Self.blendModes[Int(bm)] {   // Int(bm) traps past Int's range
                layer.compositingFilter = f
            } else {
                ctx.warn("layer '\(e.name)': blend mode \(LottieNumber.text(bm)) is not drawn", at: l["bm"]!, layer: layer.id)
            }
        }
        try LottieMasks.apply(l, to: &layer, size: ownSize, clock: clock, ctx: ctx, depth: depth)
        try LottieEffects.apply(l, to: &layer, clock: clock, ctx: ctx)
        return layer
    }

    static func typeName(_ ty: Double) -> String {
        switch ty {
        case 6: return "audio"
        case 7: return "video placeholder"
        case 8: return "image sequence"
        case 9: return "video"
        case 10: return "image placeholder"
        case 11: return "guide"
        case 12: return "adjustment"
        case 13: return "camera"
        case 14: return "light"
        case 15: return "data"
        default: return "unknown"
        }
    }

    /// Lottie's `bm` as Core Animation compositing filters (what lottie-ios sets).
    static let blendModes: [Int: CompositingFilter] = [
        1: .multiplyBlendMode, 2: .screenBlendMode, 3: .overlayBlendMode, 4: .darkenBlendMode, 5: .lightenBlendMode,
        6: .colorDodgeBlendMode, 7: .colorBurnBlendMode, 8: .hardLightBlendMode, 9: .softLightBlendMode,
        10: .differenceBlendMode, 11: .exclusionBlendMode, 12: .hueBlendMode, 13: .saturationBlendMode,
        14: .colorBlendMode, 15: .luminosityBlendMode, 16: .plusL,
    ]
}
