import AssetImport
import Geometry
import LayerModel
import Animation
import SceneFormat

/// The expansion oracle of the fuzz targets that read shared or declared structure (issue #43: a
/// 4 KB binary plist of shared strings took 4.2 GB, CAML with nested entities 6.3 GB): a decode
/// that *succeeds* while what it returns is far larger than its input is a finding, as a crash is.
/// What comes back is measured by walking it — each shared object counted each time it is reached,
/// as whatever walks the result next pays for it — and the walk stops at the budget, so checking
/// costs at most a budget's worth of steps.
///
/// The budgets (a violation is anything past them that came back without an error):
/// - a property list (`BinaryPlistReader.parse`): more than `BinaryPlistReader.maxValues` (4M)
///   values, or more than `BinaryPlistReader.maxExpandedBytes` (256 MiB) of strings and data. The
///   reader's own budgets, measured no larger than the reader measures them (strings in UTF-16
///   units: at most the bytes the file spends on them), so the reader honouring them passes.
/// - an imported scene (`ArchiveImporter`, `CAMLImporter`): more than `maxSceneValues` (4M: layers,
///   animations, keyframes and other array entries, emitter cells, filters — `SceneLimits.maxJSONValues`,
///   what a JSON scene can hold), more than `SceneLimits.maxTotalPathElements` (2M) path elements
///   (layer paths and animation paths and path values), or more than 256 MiB of strings (names,
///   text, string values).
/// - an XML tree (`XMLTree.parse`): more than `xmlRatio` (16) times the document's bytes plus
///   `xmlSlack` (1 MiB) of element names, attribute names and values and text (plus one per
///   element). Without declared defaults or entities nothing in XML expands (character and
///   predefined entity references shrink; transcoding at most doubles), so this is the room a DTD's
///   default attribute values or entities would need to multiply.
public enum ExpansionCheck {
    public static let maxPlistValues = BinaryPlistReader.maxValues
    public static let maxPlistBytes = BinaryPlistReader.maxExpandedBytes
    public static let maxSceneValues = SceneLimits.maxJSONValues
    public static let maxScenePathElements = SceneLimits.maxTotalPathElements
    public static let maxSceneBytes = 256 << 20
    public static let xmlRatio = 16
    public static let xmlSlack = 1 << 20

    /// What a walk has counted, and whether it passed a budget (the walk stops there).
    public struct Size: Equatable, Sendable {
        public var values = 0
        public var bytes = 0
        public var pathElements = 0
        public var layers = 0
        /// Layers once replicators are expanded (each layer times the instance counts of the
        /// replicators above it, a replicator times its own; capped at `Int.max / 2`): what
        /// evaluating and planning cost.
        public var instances = 0
    }

    // MARK: property lists

    /// Counts `value` (each shared object each time it is reached) up to just past the budgets.
    public static func measure(_ value: PlistValue) -> Size {
        var s = Size()
        func walk(_ v: PlistValue) -> Bool {
            s.values += 1
            switch v {
            case .string(let x): s.bytes += x.utf16.count
            case .data(let d): s.bytes += d.count
            case .array(let items):
                for i in items where s.values <= maxPlistValues && s.bytes <= maxPlistBytes { _ = walk(i) }
            case .dictionary(let pairs):
                for (k, i) in pairs where s.values <= maxPlistValues && s.bytes <= maxPlistBytes {
                    s.values += 1
                    s.bytes += k.utf16.count
                    _ = walk(i)
                }
            default: break
            }
            return s.values <= maxPlistValues && s.bytes <= maxPlistBytes
        }
        _ = walk(value)
        return s
    }

    /// Violations: a property list of `fileBytes` bytes that came back past the reader's budgets.
    public static func check(_ value: PlistValue, fileBytes: Int) -> [String] {
        let s = measure(value)
        var v: [String] = []
        if s.values > maxPlistValues {
            v.append("a \(fileBytes)-byte binary property list was returned expanding to more than \(maxPlistValues) values (BinaryPlistReader.maxValues), not refused")
        }
        if s.bytes > maxPlistBytes {
            v.append("a \(fileBytes)-byte binary property list was returned expanding to more than \(maxPlistBytes >> 20) MiB of strings and data (BinaryPlistReader.maxExpandedBytes), not refused")
        }
        return v
    }

    // MARK: scenes

    /// Where `Size.instances` (and the copies a walk multiplies by) stop: twice it still fits an `Int`.
    static let maxInstances = Int.max / 2

    /// `a × b` for non-negative counts, capped at `maxInstances` (never wrapping).
    static func saturatedProduct(_ a: Int, _ b: Int) -> Int {
        let (p, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow || p > maxInstances ? maxInstances : p
    }

    /// Counts an imported document's layers (with masks), their arrays, paths and strings, and its
    /// animations with their keyframes, up to just past the budgets.
    public static func measure(_ doc: SceneDocument) -> Size {
        var s = Size()
        func over() -> Bool { s.values > maxSceneValues || s.pathElements > maxScenePathElements || s.bytes > maxSceneBytes }
        func path(_ p: Path?) { s.pathElements += p?.elements.count ?? 0 }
        func cells(_ c: [EmitterCell]) {
            for cell in c where !over() { s.values += 1; s.bytes += cell.name?.utf8.count ?? 0; cells(cell.emitterCells) }
        }
        func layer(_ l: Layer, copies: Int) {
            s.layers += 1
            // A replicator counts its instances even without sublayers (the planner walks them).
            // Saturating: nested replicators of the importers' largest counts (10 000⁶, not yet
            // refused by `SceneLimitCheck`, which the importers' callers run) pass `Int.max`, and a
            // wrapped product added to the count trapped (archive-dag's
            // `nested-replicators-past-int-max`). `copies` and the sum stay within `Int.max / 2`.
            let shown = l.layerClass == .replicator ? Self.saturatedProduct(copies, max(1, l.replicator.instanceCount)) : copies
            s.instances = min(s.instances + shown, maxInstances)
            let inner = shown
            s.values += 1 + l.filters.count + l.backgroundFilters.count + (l.gradient.colors?.count ?? 0)
                + (l.gradient.locations?.count ?? 0) + (l.shape.lineDashPattern?.count ?? 0)
            s.bytes += (l.name?.utf8.count ?? 0) + (l.text.string?.utf8.count ?? 0)
            path(l.shape.path)
            path(l.shadowPath)
            cells(l.emitter.emitterCells)
            if let m = l.mask, !over() { layer(m, copies: copies) }
            for c in l.sublayers where !over() { layer(c, copies: inner) }
        }
        func value(_ v: AnimationValue?) {
            s.values += 1
            switch v {
            case .path(let p)?: path(p)
            case .numberArray(let a)?: s.values += a.count
            case .colorArray(let a)?: s.values += a.count
            case .string(let x)?, .enumeration(let x)?: s.bytes += x.utf8.count
            default: break
            }
        }
        func animation(_ a: AnimationSpec) {
            s.values += 1
            s.bytes += a.key?.utf8.count ?? 0
            for v in [a.fromValue, a.toValue, a.byValue] where v != nil { value(v) }
            if let k = a.keyframes {
                for v in k.values ?? [] where !over() { value(v) }
                s.values += (k.keyTimes?.count ?? 0) + (k.timingFunctions?.count ?? 0) + (k.tensionValues?.count ?? 0)
                    + (k.continuityValues?.count ?? 0) + (k.biasValues?.count ?? 0)
                path(k.path)
            }
            for c in a.animations where !over() { animation(c) }
        }
        layer(doc.scene.root, copies: 1)
        for (_, list) in doc.animations where !over() {
            for a in list where !over() { animation(a) }
        }
        return s
    }

    /// Violations: an imported document of `fileBytes` bytes that came back past the scene budgets.
    public static func check(_ doc: SceneDocument, fileBytes: Int) -> [String] {
        violations(measure(doc), fileBytes: fileBytes)
    }

    /// Violations of an imported document measured as `s`.
    public static func violations(_ s: Size, fileBytes: Int) -> [String] {
        var v: [String] = []
        if s.values > maxSceneValues {
            v.append("a \(fileBytes)-byte file was imported as a scene of more than \(maxSceneValues) layers, animations, keyframes and array entries (SceneLimits.maxJSONValues), not refused")
        }
        if s.pathElements > maxScenePathElements {
            v.append("a \(fileBytes)-byte file was imported as a scene of more than \(maxScenePathElements) path elements (SceneLimits.maxTotalPathElements), not refused")
        }
        if s.bytes > maxSceneBytes {
            v.append("a \(fileBytes)-byte file was imported as a scene of more than \(maxSceneBytes >> 20) MiB of names, text and strings, not refused")
        }
        return v
    }

    // MARK: XML

    /// The budget of an XML tree read from `fileBytes` bytes.
    public static func xmlBudget(fileBytes: Int) -> Int { xmlRatio * fileBytes + xmlSlack }

    /// Counts element names, attribute names and values, text and one per element, up to just past
    /// `budget`.
    public static func measure(_ root: XMLNode, budget: Int) -> Int {
        var total = 0
        var stack = [root]
        while let n = stack.popLast(), total <= budget {
            total += 1 + n.name.utf8.count + n.text.utf8.count
            for (k, v) in n.attributes { total += k.utf8.count + v.utf8.count }
            stack += n.children
        }
        return total
    }

    /// Violations: an XML document of `fileBytes` bytes that came back as a tree past its budget.
    public static func check(_ root: XMLNode, fileBytes: Int) -> [String] {
        let budget = xmlBudget(fileBytes: fileBytes)
        let n = measure(root, budget: budget)
        guard n > budget else { return [] }
        return ["a \(fileBytes)-byte XML document was read as a tree of more than \(budget) bytes of names, attributes and text (\(xmlRatio)× its size + \(xmlSlack >> 20) MiB: declared defaults or entities expanding), not refused"]
    }
}
