import SystemSupport
import Profile

/// What `caprof profile` writes for a catalog (a directory, several scenes, or `--shard I/N`):
/// each scene's report as it would be alone, then totals over them. Versioned (`caprofCatalog`),
/// described by `ReportSchema.catalogSchema`; a single scene keeps the plain `ProfileReport`.
///
///     {"caprofCatalog": 1, "scenes": [<report>, …], "totals": {…}, "tool": {…},
///      "shard": {"index": 1, "count": 2, "catalogScenes": 3, "positions": [0, 2]}}
public struct CatalogReport: Sendable, Equatable, Codable {
    public static let currentVersion = 1

    public var caprofCatalog: Int
    public var tool: ProfileReport.Tool
    /// One report per scene, in catalog order (the order the scenes were given; a directory's
    /// files sorted by name), whatever order they were profiled in.
    public var scenes: [ProfileReport]
    public var totals: CatalogTotals
    /// Present when the catalog is one shard of a larger one (`--shard I/N`).
    public var shard: ShardInfo?
    /// Scenes that could not be loaded or profiled (absent when none): error entries, while every
    /// other scene is still reported.
    public var errors: [SceneError]?

    /// A scene that failed, with the message a single run prints and its place.
    public struct SceneError: Sendable, Equatable, Codable {
        public var file: String
        public var message: String
        public var line: Int?
        public var column: Int?
        /// Its position in the catalog's order (scenes and errors together).
        public var position: Int
        public init(file: String, message: String, line: Int?, column: Int?, position: Int) {
            self.file = file; self.message = message; self.line = line; self.column = column; self.position = position
        }
    }

    public init(tool: ProfileReport.Tool, scenes: [ProfileReport], shard: ShardInfo? = nil, errors: [SceneError] = []) {
        caprofCatalog = Self.currentVersion
        self.tool = tool; self.scenes = scenes; self.shard = shard
        self.errors = errors.isEmpty ? nil : errors
        totals = CatalogTotals(scenes)
    }

    /// A scene's report or its error, for writing the catalog in its order.
    public enum Entry {
        case scene(ProfileReport)
        case error(SceneError)
    }

    /// Scenes and errors in catalog order (an error holds its position; scenes fill the rest).
    public var entries: [Entry] {
        var errors = (self.errors ?? []).sorted { $0.position < $1.position }
        var out: [Entry] = [], next = 0
        for position in 0..<(scenes.count + errors.count) {
            if let e = errors.first, e.position == position || next >= scenes.count {
                out.append(.error(e)); errors.removeFirst()
            } else {
                out.append(.scene(scenes[next])); next += 1
            }
        }
        return out
    }

    public static func encode(_ catalog: CatalogReport) throws -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var d = try e.encode(catalog)
        d.append(0x0A)
        return d
    }

    public static func decode(_ data: Data) throws -> CatalogReport {
        try JSONDecoder().decode(CatalogReport.self, from: data)
    }
}

/// Sums over a catalog's scenes (every field is the sum of the same number computed on each
/// scene's report alone, so a catalog's totals are the sum of its scenes' and of its shards').
public struct CatalogTotals: Sendable, Equatable, Codable {
    public var scenes: Int
    /// Frames profiled (each report's `totals.frames`).
    public var frames: Int
    /// Layers in the model trees (each report's `scene.layers`).
    public var layers: Int
    /// Findings (one per id and layer), by severity and by id.
    public var findings: Int
    public var findingsBySeverity: [String: Int]
    public var findingsById: [String: Int]
    /// Fragments shaded, and blended pixels (`FrameCounters`), summed over every frame of every scene.
    public var shadedPixels: Int
    public var blendedPixels: Int
    /// Offscreen passes and their target pixels over every frame (each report's totals).
    public var offscreenPasses: Int
    public var offscreenPixels: Int
    /// Warnings (things not drawn or evaluated yet).
    public var warnings: Int
    /// Scenes drawn on a GPU.
    public var gpuScenes: Int
    /// Of those, scenes drawn by software Vulkan on the CPU (lavapipe): their "GPU" time is CPU
    /// time. Optional: catalogs written before it was counted lack it.
    public var softwareScenes: Int?
    /// Per stage, nanoseconds over every frame (each report's `totals.stages[s].totalNanoseconds`).
    public var stageNanoseconds: [String: UInt64]
    /// Bytes uploaded to the GPU (scenes drawn only).
    public var uploadedBytes: Int?

    public init(_ reports: [ProfileReport]) {
        scenes = reports.count
        frames = 0; layers = 0; findings = 0; shadedPixels = 0; blendedPixels = 0
        offscreenPasses = 0; offscreenPixels = 0; warnings = 0; gpuScenes = 0; softwareScenes = nil
        findingsBySeverity = Dictionary(uniqueKeysWithValues: Severity.allCases.map { ($0.rawValue, 0) })
        findingsById = [:]; stageNanoseconds = [:]; uploadedBytes = nil
        for r in reports {
            frames += r.totals.frames
            layers += r.scene.layers
            findings += r.findings.count
            for f in r.findings {
                findingsBySeverity[f.severity.rawValue, default: 0] += 1
                findingsById[f.id.rawValue, default: 0] += 1
            }
            for f in r.frames { shadedPixels += f.counters.shadedPixels; blendedPixels += f.counters.blendedPixels }
            offscreenPasses += r.totals.offscreenPasses
            offscreenPixels += r.totals.offscreenPixels
            warnings += r.warnings.count
            if r.run.gpu { gpuScenes += 1 }
            if r.run.softwareDevice { softwareScenes = (softwareScenes ?? 0) + 1 }
            for (s, v) in r.totals.stages { stageNanoseconds[s, default: 0] += v.totalNanoseconds }
            if let u = r.totals.uploadedBytes { uploadedBytes = (uploadedBytes ?? 0) + u }
        }
    }

    /// What the device times are called: "GPU (software, on the CPU)" when every drawn scene was
    /// drawn by software Vulkan.
    public var gpuLabel: String { gpuScenes > 0 && softwareScenes == gpuScenes ? "GPU (software, on the CPU)" : "GPU" }

    /// CPU nanoseconds: `FrameCost.cpuStages` (evaluate + plan + raster, + upload and record when drawn).
    public var cpuNanoseconds: UInt64 {
        FrameCost.cpuStages.reduce(0) { $0 + (stageNanoseconds[$1] ?? 0) }
    }
}

/// Which share of a catalog a run took: shard `index` of `count` (1-based), and where its scenes
/// stand in the whole catalog, so that the shards' outputs merge back in catalog order.
public struct ShardInfo: Sendable, Equatable, Codable {
    public var index: Int
    public var count: Int
    /// Scenes in the whole catalog (every shard).
    public var catalogScenes: Int
    /// The 0-based catalog position of each scene of this shard, in the order they are listed.
    public var positions: [Int]

    public init(_ shard: CatalogShard, catalogScenes: Int, positions: [Int]) {
        index = shard.index; count = shard.count; self.catalogScenes = catalogScenes; self.positions = positions
    }

    public var shard: CatalogShard { CatalogShard(index: index, count: count) }
}

/// `--shard I/N`: a deterministic share of a catalog, so that a job runner (a CI matrix,
/// Kubernetes indexed jobs) spreads a large catalog over N machines.
///
/// The rule: the catalog's scene paths (normalised: `./` and doubled slashes dropped) are sorted
/// by their UTF-8 bytes (as `LC_ALL=C sort`), and shard I takes the scenes whose rank r in that
/// order has r mod N == I − 1. Round-robin on sorted paths: shards differ in size by at most one,
/// the union of shards 1…N is the catalog and no two share a scene, and the share depends only on
/// the set of paths (not on the order they were given in, nor on the machine).
public struct CatalogShard: Sendable, Equatable, Codable, CustomStringConvertible {
    /// 1-based.
    public var index: Int
    public var count: Int

    public init(index: Int, count: Int) { self.index = index; self.count = count }

    public var description: String { "\(index)/\(count)" }

    public struct ParseError: Error, CustomStringConvertible {
        public var description: String
    }

    /// "I/N" with whole numbers 1 ≤ I ≤ N.
    public static func parse(_ text: String) throws -> CatalogShard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let form = "expected I/N, whole numbers with 1 ≤ I ≤ N (shard I of N, e.g. --shard 1/4)"
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]),
              parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else {
            throw ParseError(description: form)
        }
        guard n >= 1 else { throw ParseError(description: "N must be at least 1; \(form)") }
        guard i >= 1 && i <= n else { throw ParseError(description: "I must be between 1 and \(n); \(form)") }
        return CatalogShard(index: i, count: n)
    }

    /// The positions (indices into `paths`, ascending) of the scenes this shard takes.
    public func select(_ paths: [String]) -> [Int] {
        let ranked = paths.indices.sorted { a, b in
            let x = Self.normalize(paths[a]), y = Self.normalize(paths[b])
            return x == y ? a < b : x.utf8.lexicographicallyPrecedes(y.utf8)
        }
        return ranked.enumerated().filter { $0.offset % count == index - 1 }.map(\.element).sorted()
    }

    /// "./a//b.json" → "a/b.json" (as the gate's scene keys).
    public static func normalize(_ path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        if parts.isEmpty { return path }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    /// Checks that `shards` (each shard's info) are all the shards of one catalog, each once, and
    /// that their scenes cover the catalog exactly once. The message says which shard is missing
    /// or repeated.
    public static func checkComplete(_ shards: [ShardInfo]) throws {
        guard let first = shards.first else { return }
        for s in shards where s.count != first.count || s.catalogScenes != first.catalogScenes {
            throw ParseError(description: "shard \(s.index)/\(s.count) of a catalog of \(s.catalogScenes) scenes does not belong with shard \(first.index)/\(first.count) of a catalog of \(first.catalogScenes): merge the shards of one run")
        }
        var seen = Set<Int>()
        for s in shards where !seen.insert(s.index).inserted {
            throw ParseError(description: "shard \(s.index)/\(s.count) is given twice")
        }
        let missing = (1...first.count).filter { !seen.contains($0) }
        if !missing.isEmpty {
            throw ParseError(description: "shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(first.count)" }.joined(separator: ", ")) missing: merge every shard's output (the catalog has \(first.catalogScenes) scenes)")
        }
        let positions = shards.flatMap(\.positions)
        guard Set(positions).count == positions.count, positions.count == first.catalogScenes,
              positions.allSatisfy({ $0 >= 0 && $0 < first.catalogScenes }) else {
            throw ParseError(description: "the shards' scenes do not add up to their catalog of \(first.catalogScenes) scenes (were they run on different catalogs?)")
        }
    }
}
