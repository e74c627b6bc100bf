import Geometry
import LayerModel
import SceneFormat
import SystemSupport

/// An animation's `assets`: precompositions (their `layers`, by `id`) and images (by `id`: the
/// bytes of a data URI, a file beside the animation, or an entry of its dotLottie package).
struct LottieAssets {
    struct Image {
        var size: Size
        var source: ImageSource
    }
    var precompositions: [String: JSONValue] = [:]
    var images: [String: Image] = [:]

    /// Where image files come from: beside a `.json` file, or inside a `.lottie` package.
    enum ImageStore {
        case directory(String)
        /// Image bytes by the name an asset gives (a dotLottie package's lookup).
        case package(file: String, lookup: (String) throws -> [UInt8]?)
        case none
    }

    static func read(_ list: JSONValue?, _ ctx: LottieContext, store: ImageStore) throws -> LottieAssets {
        var out = LottieAssets()
        guard let list else { return out }
        guard let items = list.array else { throw ctx.error(list, "'assets' must be an array, found \(list.typeDescription)", kind: .wrongType) }
        for a in items {
            guard a.members != nil else { throw ctx.error(a, "an asset must be an object, found \(a.typeDescription)", kind: .wrongType) }
            guard let id = a["id"]?.string ?? a["id"]?.number.map(LottieNumber.text) else {
                throw ctx.error(a, "an asset has no 'id'", kind: .missingKey)
            }
            if let layers = a["layers"] {
                out.precompositions[id] = layers
                continue
            }
            guard let p = a["p"]?.string else { continue }   // a font or data asset: not drawn
            let w = a["w"]?.number ?? 0, h = a["h"]?.number ?? 0
            guard w.isFinite, h.isFinite, w >= 0, h >= 0, w <= 1e6, h <= 1e6 else {
                throw ctx.error(a, "image asset '\(id)' has a size \(w)×\(h); expected finite sizes up to 1,000,000", kind: .outOfRange)
            }
            if let source = try image(a, id: id, path: p, ctx, store: store) {
                out.images[id] = Image(size: Size(w, h), source: source)
            }
        }
        return out
    }

    static func image(_ a: JSONValue, id: String, path p: String, _ ctx: LottieContext, store: ImageStore) throws -> ImageSource? {
        let here = ctx.place(a["p"] ?? a)
        if p.hasPrefix("data:") {
            guard p.utf8.count <= SceneLimits.maxDataURICharacters else {
                throw ctx.error(a["p"]!, "image asset '\(id)': a data URI of \(p.utf8.count) characters; the limit is \(SceneLimits.maxDataURICharacters)", kind: .limitExceeded)
            }
            guard let comma = p.firstIndex(of: ","), p[..<comma].hasSuffix(";base64"),
                  let data = Data(base64Encoded: String(p[p.index(after: comma)...]), options: .ignoreUnknownCharacters) else {
                throw ctx.error(a["p"]!, "image asset '\(id)': the data URI is not base64 data (expected data:image/png;base64,…)", kind: .invalidValue)
            }
            guard !data.isEmpty else {
                throw ctx.error(a["p"]!, "image asset '\(id)': the data URI holds no bytes", kind: .invalidValue)
            }
            return ImageSource(origin: ctx.images.intern(.data([UInt8](data))), location: here)
        }
        let folder = a["u"]?.string ?? ""
        let relative = folder.isEmpty ? p : (folder.hasSuffix("/") ? folder + p : folder + "/" + p)
        switch store {
        case .none:
            ctx.warn("image asset '\(id)' names a file '\(relative)', which cannot be found without the animation's folder; its layers draw nothing", at: a)
            return nil
        case .directory(let dir):
            switch PackagePath.resolve(relative, inside: dir) {
            case .inside(let path):
                return ImageSource(origin: .file(path), location: here)
            case .missing:
                throw ctx.error(a["p"]!, "image asset '\(id)': the file '\(relative)' was not found beside the animation (looked in \(dir))", kind: .missingFile)
            case .absolute, .climbsOut, .linksOut:
                // Beside a plain .json any path is the user's own; only an unreadable one is an error.
                let path = relative.hasPrefix("/") ? relative : dir.appendingPathComponent(relative)
                guard FileStatus.isRegularFile(path) else {
                    throw ctx.error(a["p"]!, "image asset '\(id)': the file '\(relative)' was not found", kind: .missingFile)
                }
                return ImageSource(origin: .file(path), location: here)
            }
        case .package(let file, let lookup):
            let found: [UInt8]?
            do { found = try lookup(relative) ?? lookup(p) } catch let e as SceneError {
                // The package's refusal (a name that leaves it), at the asset's place in the JSON.
                throw ctx.error(a["p"]!, "image asset '\(id)': \(e.message)", kind: e.kind)
            }
            guard let bytes = found else {
                throw ctx.error(a["p"]!, "image asset '\(id)': '\(relative)' is not in the package \(file)", kind: .missingFile)
            }
            return ImageSource(origin: ctx.images.intern(.data(bytes)), location: here)
        }
    }
}
