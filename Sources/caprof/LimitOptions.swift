import AssetImport
import ArgumentParser
import Pipeline
import Raster
import SceneFormat

/// `--limit NAME=VALUE` (repeatable), the same in every command that reads scenes: raises (or
/// lowers) the resource limits a big but honest scene may need. The structural limits (depth,
/// path elements, keyframes, …) are fixed; docs/decisions.md's Limits table lists them all.
struct LimitOptions: ParsableArguments {
    @Option(name: .customLong("limit"),
            help: ArgumentHelp("Raise or lower a resource limit: file-bytes, layers, frames, image-bytes or image-total-bytes (=N, with an optional K, M or G suffix: KiB, MiB, GiB). Repeatable.",
                               valueName: "name=value"))
    var limit: [String] = []

    /// Each raisable limit: its name on the command line, its default and where it goes.
    static let names: [(name: String, standard: Int, apply: (inout ActiveLimits, Int) -> Void)] = [
        ("file-bytes", DecodingLimits.standard.fileBytes, { $0.decoding.fileBytes = $1 }),
        ("layers", DecodingLimits.standard.layers, { $0.decoding.layers = $1 }),
        ("frames", DecodingLimits.standard.framesPerRun, { $0.decoding.framesPerRun = $1 }),
        ("image-bytes", ImageLimits.standard.maxDecodedBytes, { $0.images.maxDecodedBytes = $1 }),
        ("image-total-bytes", ImageLimits.standard.maxTotalDecodedBytes, { $0.images.maxTotalDecodedBytes = $1 }),
    ]

    func validate() throws { _ = try resolved() }

    /// The limits with every `--limit` applied; a ValidationError (exit 64) names a bad one.
    func resolved() throws -> ActiveLimits {
        var limits = ActiveLimits()
        for item in limit {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            let known = Self.names.map(\.name).joined(separator: ", ")
            guard parts.count == 2, let entry = Self.names.first(where: { $0.name == parts[0] }) else {
                throw ValidationError("--limit '\(item)': expected NAME=VALUE with NAME one of \(known)")
            }
            guard let value = Self.parseCount(parts[1]), value >= 1 else {
                throw ValidationError("--limit \(entry.name): '\(parts[1])' is not a whole number ≥ 1 (K, M, G suffixes allowed)")
            }
            entry.apply(&limits, value)
        }
        return limits
    }

    /// "64M" → 67108864. Overflow is refused rather than wrapped.
    static func parseCount(_ s: String) -> Int? {
        let shifts: [Character: Int] = ["K": 10, "M": 20, "G": 30]
        var digits = Substring(s), shift = 0
        if let last = s.last, let k = shifts[Character(last.uppercased())] { digits = s.dropLast(); shift = k }
        guard let n = Int(digits), n >= 0, n <= Int.max >> shift else { return nil }
        return n << shift
    }
}

/// The resource limits of this run: the defaults, or as `--limit` set them.
struct ActiveLimits {
    var decoding = DecodingLimits.standard
    var images = ImageLimits.standard

    /// Loads a scene within these limits, ready to evaluate (images decode within them later),
    /// after checking that the host can hold a frame of its canvas (`drawn`: rendered on the GPU
    /// and read back, else planned only).
    /// `animation`: `--animation ID`, the animation of a .lottie package.
    func load(_ path: String, drawn: Bool, states: StateSelection = StateSelection(), animation: String? = nil) throws -> AnimatedScene {
        let doc = try AssetLoader.load(path: path, states: states, animation: animation, limits: decoding)
        try HostMemory.check(doc.scene, bytesPerPixel: drawn ? HostMemory.drawnBytesPerPixel : HostMemory.plannedBytesPerPixel)   // driver maybe up (catalogs): the larger reserve is the safe side
        return AnimatedScene(doc, imageLimits: images)
    }
}
