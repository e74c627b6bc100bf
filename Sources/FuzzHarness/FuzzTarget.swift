import AssetImport
import SystemSupport
import Geometry
import LayerModel
import Animation
import SceneFormat
import Raster
import Plan
import Pipeline
import Profile

/// One fuzz target: what the harness does with one input, and the invariants it checks.
///
/// A target never traps on hostile input by design: expected refusals (`SceneError`,
/// `ValueGrammars.SyntaxError`, `PNGError`) are success. What it returns are *violations*: broken
/// invariants (a NaN in a plan, an item off the canvas, passes not nested). libFuzzer's entry points
/// (tools/fuzz) turn a violation into a crash; `HostileInputTests` replays every committed regression
/// input and asserts there are none. A crash (a trap, an overflow) is a crash in both.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// `JSONParser.parse`: strict JSON with positions.
    case json
    /// `SceneDecoder.decode`, then the presentation tree at a few times, its frame plan and (for
    /// canvases up to 256² pixels) the profiler's per-frame counters.
    case scene
    /// SVG path data (`ValueGrammars.svgPath`).
    case svgPath = "svg-path"
    /// Transform-function lists (`ValueGrammars.transformFunctions`).
    case transform
    /// PNG decoding through the libpng shim (`PNGCodec.decode`).
    case png
    /// Random layer trees built from the bytes, planned (`FramePlanner`), plan invariants checked.
    case plan
    /// The binary property-list reader of `.caar` archives (`BinaryPlistReader.parse`).
    case plist
    /// A whole `.caar` import (plist, keyed-archive resolution, Core Animation classes), then the
    /// imported scene evaluated and planned as `scene` does.
    case archive
    /// A bare `.caml` document (XML, CAML value grammars, states), then evaluated and planned.
    case caml
    /// JPEG decoding through the libjpeg-turbo shim (`JPEGCodec.decode`).
    case jpeg
    /// Random layer trees with effects (`LayerTreeGenerator(effects: true)`: shadows and shadowPaths,
    /// shouldRasterize, filters, blend modes, backdrops, shape strokes and dashes, gradients, text),
    /// planned with the plan invariants, analysed by the profiler (canvases up to 256² pixels), and
    /// every raster request of up to 512² texels rasterised on the CPU (cairo, Pango, the shadowPath
    /// blur, gradient ramps), each bitmap checked for its size and premultiplied alpha.
    case effects
    /// `BinaryPlistReader.parse` on valid binary plists built from the bytes (`PlistDAGGenerator`):
    /// shared objects, DAGs and chains that expand, long strings and data, UIDs; a value returned
    /// past the reader's budgets is a violation (`ExpansionCheck`).
    case plistDAG = "plist-dag"
    /// A whole `.caar` import of NSKeyedArchiver graphs built from the bytes
    /// (`ArchiveGraphGenerator`: layers shared by several parents, shared animations, values arrays
    /// and paths), the scene's expansion checked (`ExpansionCheck`), then (up to 512 layers, 1024
    /// once replicators are expanded, and 100 000 values) evaluated and planned as `archive` does
    /// (not profiled).
    case archiveDAG = "archive-dag"
    /// CAML documents built from the bytes (`CAMLDocumentGenerator`: DTDs, entity, attribute-list
    /// and notation declarations, entity and character references, layers, animations and states):
    /// the XML tree's and the scene's expansion checked (`ExpansionCheck`), then evaluated and
    /// planned as `caml` does (up to 512 layers, 1024 once replicators are expanded, and 100 000
    /// values; not profiled).
    case camlDTD = "caml-dtd"
    /// A dotLottie package (`.lottie`, a zip archive through libzip: `DotLottiePackage.open`), then
    /// every animation the manifest lists and every image the package holds read, and names that
    /// leave the package asked for; a read past the package's limits or a name let out is a violation.
    /// Then the package's first animation imported (`LottieImporter`, images from the package) and
    /// evaluated and planned as `lottie` does.
    case dotlottie
    /// A Lottie animation (`.json`, Bodymovin: `LottieImporter.decode`, image files looked for in a
    /// folder that does not exist), checked against the scene format's limits as `AssetLoader` does,
    /// its expansion checked (`ExpansionCheck`), then (up to 512 layers, 1024 once replicators are
    /// expanded, and 100 000 values) evaluated at the start, middle and end and planned, with the
    /// profiler's counters for canvases up to 256² pixels.
    case lottie

    /// Runs the target on one input; returns the invariants it broke (empty: fine).
    public func run(_ bytes: [UInt8]) -> [String] {
        switch self {
        case .json:
            _ = try? JSONParser.parse(bytes, file: "fuzz.json")
            return []
        case .scene:
            return Self.scene(bytes)
        case .svgPath:
            guard let path = try? ValueGrammars.svgPath(String(decoding: bytes, as: UTF8.self)) else { return [] }
            return PlanInvariants.finite(path)
        case .transform:
            guard let t = try? ValueGrammars.transformFunctions(String(decoding: bytes, as: UTF8.self)) else { return [] }
            return t.elements.allSatisfy(\.isFinite) ? [] : ["transform functions gave a non-finite matrix \(t)"]
        case .png:
            guard let bitmap = try? PNGCodec.decode(bytes) else { return [] }
            return bitmap.pixels.count == bitmap.width * bitmap.height * 4 ? []
                : ["decoded \(bitmap.width)×\(bitmap.height) with \(bitmap.pixels.count) bytes"]
        case .plan:
            var generator = LayerTreeGenerator(bytes)
            let (canvas, root, images) = generator.tree()
            let plan = FramePlanner(canvas: canvas, images: images).plan(root: root)
            return PlanInvariants.check(plan)
        case .plist:
            guard let value = try? BinaryPlistReader.parse(bytes) else { return [] }
            return ExpansionCheck.check(value, fileBytes: bytes.count)
        case .archive:
            return Self.archive(bytes, planAll: true)
        case .caml:
            return Self.caml(bytes, checkXML: false, planAll: true)
        case .plistDAG:
            let file = PlistDAGGenerator.generate(bytes).file
            guard let value = try? BinaryPlistReader.parse(file) else { return [] }
            return ExpansionCheck.check(value, fileBytes: file.count)
        case .archiveDAG:
            return Self.archive(ArchiveGraphGenerator.generate(bytes).file, planAll: false, limits: Self.generatedLimits)
        case .camlDTD:
            return Self.caml(CAMLDocumentGenerator.generate(bytes), checkXML: true, planAll: false, limits: Self.generatedLimits)
        case .jpeg:
            guard let bitmap = try? JPEGCodec.decode(bytes) else { return [] }
            return bitmap.pixels.count == bitmap.width * bitmap.height * 4 ? []
                : ["decoded \(bitmap.width)×\(bitmap.height) with \(bitmap.pixels.count) bytes"]
        case .effects:
            return Self.effects(bytes)
        case .dotlottie:
            return Self.dotLottie(bytes)
        case .lottie:
            return Self.lottie(bytes, file: "fuzz.json", images: .directory("/nonexistent"))
        }
    }

    /// Opens the bytes as a dotLottie package and reads all it lists; refusals are success.
    static func dotLottie(_ bytes: [UInt8]) -> [String] {
        let limits = DotLottiePackage.Limits.standard
        guard let package = try? DotLottiePackage.open(bytes: bytes, file: "fuzz.lottie", limits: limits) else { return [] }
        var violations: [String] = []
        if package.version != 1 && package.version != 2 { violations.append("version \(package.version)") }
        if package.animationIDs.isEmpty { violations.append("opened with no animations") }
        if package.entryNames.count > limits.maxEntries { violations.append("\(package.entryNames.count) entries") }
        var total = 0
        func count(_ what: String, _ n: Int) {
            if n > limits.maxEntryBytes { violations.append("\(what): \(n) bytes, past the entry limit") }
            total += n
        }
        for id in package.animationIDs {
            guard let a = try? package.animation(id) else { continue }
            if a.id != id { violations.append("animation '\(id)' came back as '\(a.id)'") }
            count("animation '\(id)'", a.bytes.count)
        }
        if let first = try? package.animation(nil), first.id != package.animationIDs.first {
            violations.append("the default animation is '\(first.id)', not the manifest's first")
        }
        for name in package.imageNames {
            do {
                if let image = try package.image(name) { count("image '\(name)'", image.count) } else { violations.append("listed image '\(name)' not found") }
            } catch {}   // a corrupt or lying entry: refused
        }
        if total > limits.maxTotalBytes { violations.append("read \(total) bytes in all, past the total limit") }
        // Names that leave the package must be refused whatever the archive holds.
        for name in ["../x.png", "images/../../x.png", "//etc/passwd", "C:\\x.png"] {
            if (try? { () throws -> Bool in _ = try package.image(name); return true }()) == true {
                violations.append("image name '\(name)' was not refused")
            }
        }
        // The first animation imported with the package's images, as `caprof` opens a .lottie.
        if let first = try? package.animation(nil) {
            violations += lottie(first.bytes, file: "fuzz.lottie/" + first.entry,
                                 images: .package(file: "fuzz.lottie", lookup: { try package.image($0) }))
        }
        return violations
    }

    /// A Lottie animation imported as `AssetLoader` does (the importer, then the scene format's
    /// limits), its expansion checked, then (up to `maxPlannedLayers` layers, `maxPlannedInstances`
    /// instances and `maxPlannedValues` values) evaluated and planned; refusals are success. At
    /// most 10 000 layers (`generatedLimits`): a precomposition used by many layers multiplies
    /// them, and a scene that large is only measured, never planned.
    static func lottie(_ bytes: [UInt8], file: String, images: LottieImporter.Images) -> [String] {
        let limits = generatedLimits
        guard let doc = try? LottieImporter.decode(data: bytes, file: file, images: images, limits: limits),
              (try? SceneLimitCheck.check(doc, limits: limits, rootPointer: "")) != nil else { return [] }
        let size = ExpansionCheck.measure(doc)
        let v = ExpansionCheck.violations(size, fileBytes: bytes.count)
        if !v.isEmpty { return v }
        guard size.layers <= maxPlannedLayers, size.instances <= maxPlannedInstances, size.values <= maxPlannedValues else { return [] }
        return planned(doc)
    }

    /// The largest imported scene the generated targets evaluate and plan (a shared layer or
    /// animation multiplies them; bigger ones are only measured, to keep each input quick).
    static let maxPlannedLayers = 512
    /// The generated targets import with at most 10 000 layers (`--limit layers`, which a user may
    /// raise): a layer DAG reaches any limit at once, and building 100 000 layers per input would
    /// cost the fuzzer most of its executions; the fixed limits and the expansion budgets stay.
    static let generatedLimits: DecodingLimits = { var l = DecodingLimits(); l.layers = 10_000; return l }()
    static let maxPlannedInstances = 1024
    static let maxPlannedValues = 100_000

    /// An archive imported, its expansion checked, then (all, or only small ones) planned.
    static func archive(_ file: [UInt8], planAll: Bool, limits: DecodingLimits = .standard) -> [String] {
        guard let doc = try? ArchiveImporter.decode(data: file, file: "fuzz.caar", limits: limits) else { return [] }
        return imported(doc, fileBytes: file.count, planAll: planAll)
    }

    /// A bare CAML document (with `checkXML`, its XML tree's expansion checked first) imported, its
    /// expansion checked, then (all, or only small ones) planned.
    static func caml(_ file: [UInt8], checkXML: Bool, planAll: Bool, limits: DecodingLimits = .standard) -> [String] {
        if checkXML, let root = try? XMLTree.parse(file) {
            let v = ExpansionCheck.check(root, fileBytes: file.count)
            if !v.isEmpty { return v }
        }
        guard let doc = try? CAMLImporter.decode(data: file, file: "fuzz.caml", bundle: "/nonexistent", index: nil,
                                                  states: StateSelection(), limits: limits) else { return [] }
        return imported(doc, fileBytes: file.count, planAll: planAll)
    }

    static func imported(_ doc: SceneDocument, fileBytes: Int, planAll: Bool) -> [String] {
        let size = ExpansionCheck.measure(doc)
        let v = ExpansionCheck.violations(size, fileBytes: fileBytes)
        if !v.isEmpty { return v }
        if planAll { return planned(doc) }
        guard size.layers <= maxPlannedLayers, size.instances <= maxPlannedInstances, size.values <= maxPlannedValues else { return [] }
        // Not profiled: the profiler's cost grows with layer names (which the generators make
        // long and shared), and `archive`, `caml`, `scene` and `effects` profile.
        return planned(doc, profile: false)
    }

    /// The texels of the largest raster request `effects` rasterises (bounds each input's time).
    static let maxRasterTexels = 512 * 512

    static func effects(_ bytes: [UInt8]) -> [String] {
        var generator = LayerTreeGenerator(bytes, effects: true)
        let (canvas, root, images) = generator.tree()
        let plan = FramePlanner(canvas: canvas, images: images).plan(root: root)
        var violations = PlanInvariants.check(plan)
        if plan.pixelWidth * plan.pixelHeight <= 256 * 256 {
            let a = FrameAnalyzer(canvasScale: canvas.scale).analyze(plan, tree: root, index: 0, time: 0)
            violations += PlanInvariants.check(a.counters)
        }
        for r in plan.rasterRequests where r.pixelWidth * r.pixelHeight <= maxRasterTexels {
            do {
                violations += PlanInvariants.check(try ContentRasterizer.rasterize(r), for: r)
            } catch {
                violations.append("raster request \(r.key) (\(r.pixelWidth)×\(r.pixelHeight)) threw \(error)")
            }
        }
        return violations
    }

    /// Decode, then evaluate at the start, middle and end of the timeline and plan each tree. Image
    /// pixels are never decoded: every image is planned as 7×5 texels (the plan needs only sizes).
    static func scene(_ bytes: [UInt8]) -> [String] {
        guard let doc = try? SceneDecoder.decode(data: bytes, file: "fuzz.json", baseDirectory: "/nonexistent") else { return [] }
        return planned(doc)
    }

    /// A decoded or imported document evaluated at the start, middle and end of its timeline and
    /// planned, with the plan's (and small canvases' profile counters') invariants.
    static func planned(_ doc: SceneDocument, profile: Bool = true) -> [String] {
        let timeline = PresentationTimeline(scene: doc.scene, animations: doc.animations, transactions: doc.transactions)
        let end = timeline.duration
        guard end.isFinite, end >= 0 else { return ["timeline duration \(end)"] }
        var violations: [String] = []
        for t in [0, end / 2, end] {
            let tree = timeline.presentation(at: t)
            var images: ImageTable = [:]
            tree.forEach { layer in
                if let c = layer.contents { images[c.origin] = ImageInfo(key: UInt64(images.count + 1), width: 7, height: 5) }
            }
            let plan = FramePlanner(canvas: doc.scene.canvas, images: images).plan(root: tree)
            violations += PlanInvariants.check(plan).map { "t = \(t): \($0)" }
            // The profiler rasterises coverage per pixel: only small canvases, to keep the target fast.
            if profile, plan.pixelWidth * plan.pixelHeight <= 256 * 256 {
                let a = FrameAnalyzer(canvasScale: doc.scene.canvas.scale).analyze(plan, tree: tree, index: 0, time: t)
                violations += PlanInvariants.check(a.counters).map { "t = \(t): \($0)" }
            }
        }
        return violations
    }
}
