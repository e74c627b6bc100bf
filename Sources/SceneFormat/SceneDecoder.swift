import SystemSupport
import Geometry
import LayerModel
import Animation

/// Reads a caprof scene file (format 1, /work/shared/scene-format.md) into a `SceneDocument`, or
/// throws the first problem as a `SceneError` that names its place.
public enum SceneDecoder {
    /// The format version this build reads.
    public static let formatVersion = 1
    static let topLevelKeys = ["$schema", "caprof", "canvas", "timeline", "root", "transactions", "snapshots"]
    static let canvasKeys = ["width", "height", "scale", "backgroundColor"]
    static let timelineKeys = ["duration", "fps"]
    static let snapshotsKeys = ["times", "precision"]
    /// The most times a scene's `snapshots.times` lists (each one is a frame rendered and compared).
    public static let maxSnapshotTimes = 1000
    /// A snapshot time is at most this many seconds (as `caprof render --time`).
    public static let maxSnapshotTime = 1_000_000.0
    /// `snapshots.precision`: the share of pixels that must pass, in (0, 1].
    public static let snapshotPrecisionDomain = NumberDomain(minimum: 0, exclusive: true, maximum: 1)
    /// Canvas scale: device pixels per point, in (0, 16].
    public static let canvasScaleDomain = NumberDomain(minimum: 0, exclusive: true, maximum: 16)
    public static let fpsDomain = NumberDomain(minimum: 0, exclusive: true, maximum: 1000)

    /// Reads the file at `path` (its type and size are checked before it is opened: a FIFO or a
    /// device would block or never end); images resolve against its directory.
    public static func load(path: String, limits: DecodingLimits = .standard) throws -> SceneDocument {
        let (data, base) = try read(path: path, limits: limits)
        return try decode(data: data, file: path, baseDirectory: base, limits: limits)
    }

    /// The bytes of the scene file at `path` and the directory its images resolve against; the
    /// file's type and size are checked before it is opened.
    public static func read(path: String, limits: DecodingLimits = .standard) throws -> (bytes: [UInt8], baseDirectory: String) {
        let noPosition = SourceLocation(file: path, pointer: "", line: 0, column: 0)
        // stat follows symbolic links: a link to a scene file is a scene file.
        guard let status = FileStatus(path: path) else {
            throw SceneError(.io, at: noPosition, "cannot read the scene file: it does not exist or is not accessible")
        }
        if status.isDirectory { throw SceneError(.io, at: noPosition, "cannot read the scene file: it is a directory") }
        guard status.isRegularFile else {
            // Opening a FIFO blocks until a writer comes; a device may never end. Refused unopened.
            throw SceneError(.io, at: noPosition, "cannot read the scene file: it is not a regular file (a FIFO, socket or device); save the scene to a file first")
        }
        let size = status.size
        if size > limits.fileBytes {
            throw SceneError(.limitExceeded, at: noPosition, "the scene file is \(size) bytes; the limit is \(limits.fileBytes) (raise it with --limit file-bytes=N)")
        }
        // Read at most one byte over the limit, in case the file grew after the size check.
        guard let data = FileBytes.read(path: path, upTo: limits.fileBytes + 1, expected: size) else {
            throw SceneError(.io, at: noPosition, "cannot read the scene file: permission denied")
        }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL
        return (data, absolute.deletingLastPathComponent().path)
    }

    /// Decodes scene JSON. `file` names the source in messages; `baseDirectory` resolves image paths.
    public static func decode(data: [UInt8], file: String, baseDirectory: String, limits: DecodingLimits = .standard) throws -> SceneDocument {
        if data.count > limits.fileBytes {
            throw SceneError(.limitExceeded, at: SourceLocation(file: file, pointer: "", line: 0, column: 0),
                             "the scene is \(data.count) bytes; the limit is \(limits.fileBytes) (raise it with --limit file-bytes=N)")
        }
        return try decode(json: try JSONParser.parse(data, file: file), file: file, baseDirectory: baseDirectory, limits: limits)
    }

    /// Decodes parsed scene JSON (a caller that sniffed the document first parses it once).
    public static func decode(json: JSONValue, file: String, baseDirectory: String, limits: DecodingLimits = .standard) throws -> SceneDocument {
        let ctx = DecodingContext(file: file, baseDirectory: baseDirectory, limits: limits)
        let top = try ObjectReader(json, ctx, owner: "the scene", expected: "a scene object {\"caprof\": 1, \"canvas\", \"root\"}")

        // The version first: a newer file's new keys should read as "newer format", not "unknown key".
        let version = try top.required("caprof")
        guard let n = version.number else { throw ctx.typeMismatch(version, expected: "the format version 1") }
        guard n == Double(formatVersion) else {
            throw ctx.error(.unsupportedVersion, version, "scene format version \(display(n)) is not supported; this caprof reads version \(formatVersion)")
        }
        try top.rejectUnknownKeys(topLevelKeys)
        if let s = top["$schema"] { _ = try ctx.string(s) }

        let canvas = try decodeCanvas(try top.required("canvas"), ctx)
        ctx.canvasScale = canvas.scale
        let timeline = try top["timeline"].map { try decodeTimeline($0, ctx) } ?? Timeline()
        let snapshots = try top["snapshots"].map { try decodeSnapshots($0, ctx) }

        let root: Layer
        do {
            root = try LayerDecoder(ctx: ctx).decode(try top.required("root"), depth: 1, replication: 1)
        } catch {
            // A mistake in the root itself (its mask, its frame): reported with those read past.
            try ctx.readOn(after: error)
            try ctx.throwMistakes()
            throw error
        }
        // Every mistake of the tree at once; the transactions, which name its layers, are read
        // only from a tree without mistakes (a skipped layer would make their names fail too).
        try ctx.throwMistakes()
        assert(root.id == 0, "the scene's tree is read first, numbered from 0")
        let animations = ctx.takeSceneTreeAnimations()
        var transactionDecoder = TransactionDecoder(ctx: ctx)
        let transactions = try top["transactions"].map { try transactionDecoder.decode($0, root: root) } ?? []

        var scene = Scene(canvas: canvas, root: consume root)  // moved, not copied
        scene.timeline = timeline
        scene.sourceFile = file
        // No `scene.assignIDs()`: the tree was numbered in that order as it was read.
        var document = SceneDocument(scene: scene, animations: animations, transactions: transactions, warnings: ctx.warnings)
        document.snapshots = snapshots
        // What only the whole tree shows comes from replicators, emitters, text and animations:
        // a scene without them has been checked as it was read (the walk costs 0.14 µs a layer).
        if ctx.expands || !animations.isEmpty || !transactions.isEmpty {
            try SceneLimitCheck.check(document, limits: limits, scope: .expansion)
        }
        return document
    }

    private static func decodeCanvas(_ v: JSONValue, _ ctx: DecodingContext) throws -> Canvas {
        let r = try ObjectReader(v, ctx, owner: "canvas", expected: "a canvas {\"width\", \"height\"}")
        try r.rejectUnknownKeys(canvasKeys)
        let width = try ctx.number(try r.required("width"), domain: .positive, what: "width")
        let height = try ctx.number(try r.required("height"), domain: .positive, what: "height")
        let scale = try r["scale"].map { try ctx.number($0, domain: canvasScaleDomain, what: "scale") } ?? 1
        let background = try r["backgroundColor"].map { try ctx.color($0, nullable: true) } ?? nil
        // Checked in Double before any conversion to Int (a huge width must not trap).
        let pw = (width * scale).rounded(), ph = (height * scale).rounded()
        let limit = Double(Canvas.maxPixelSide)
        if pw > limit || ph > limit {
            throw ctx.limit(v, "canvas over the limit: \(display(width))×\(display(height)) points at scale \(display(scale)) is \(display(pw))×\(display(ph)) device pixels; each side must be ≤ \(Canvas.maxPixelSide)")
        }
        if pw < 1 || ph < 1 {
            throw ctx.error(.outOfRange, v, "canvas of \(display(pw))×\(display(ph)) device pixels: each side needs at least one pixel")
        }
        return Canvas(width: width, height: height, scale: scale, backgroundColor: background)
    }

    private static func decodeTimeline(_ v: JSONValue, _ ctx: DecodingContext) throws -> Timeline {
        let r = try ObjectReader(v, ctx, owner: "timeline", expected: "a timeline {\"duration\", \"fps\"}")
        try r.rejectUnknownKeys(timelineKeys)
        var t = Timeline()
        if let f = r["fps"] { t.fps = try ctx.number(f, domain: fpsDomain, what: "fps") }
        if let d = r["duration"] {
            let duration = try ctx.number(d, domain: .positive, what: "duration")
            if duration * t.fps > Double(ctx.limits.framesPerRun) {
                throw ctx.limit(d, "\(display(duration)) s at \(display(t.fps)) fps is more than \(ctx.limits.framesPerRun) frames, the most one run evaluates (raise it with --limit frames=N)")
            }
            t.duration = duration
        }
        return t
    }

    private static func decodeSnapshots(_ v: JSONValue, _ ctx: DecodingContext) throws -> SnapshotSettings {
        let r = try ObjectReader(v, ctx, owner: "snapshots", expected: "snapshot settings {\"times\": [seconds…], \"precision\"}")
        try r.rejectUnknownKeys(snapshotsKeys)
        var settings = SnapshotSettings()
        if let p = r["precision"] {
            settings.precision = try ctx.number(p, domain: snapshotPrecisionDomain, what: "snapshot precision (the share of pixels that must pass)")
        }
        if let t = r["times"] {
            guard let items = t.array else { throw ctx.typeMismatch(t, expected: "an array of scene times in seconds, such as [0, 0.5, 1.25]") }
            if items.isEmpty { throw ctx.error(.outOfRange, t, "an empty list of snapshot times: list at least one time, or leave \"times\" out for the default times") }
            if items.count > maxSnapshotTimes {
                throw ctx.limit(t, "\(items.count) snapshot times; the limit is \(maxSnapshotTimes) (each is a frame rendered and compared)")
            }
            settings.times = try items.map {
                try ctx.number($0, domain: NumberDomain(minimum: 0, maximum: maxSnapshotTime), what: "snapshot time (seconds)")
            }
        }
        return settings
    }
}
