import SystemSupport
import LayerModel
import SceneFormat

/// What a scene path is, by its name and kind (Core Animation's `kCAPackageType…` forms).
public enum AssetKind: String, Sendable {
    /// A caprof scene file or a Lottie animation (JSON; the document says which).
    case sceneJSON
    /// `.lottie`: a dotLottie package (a zip of Lottie animations and their images).
    case dotLottie
    /// `.caar`: a Core Animation archive (`kCAPackageTypeArchive`).
    case archive
    /// `.ca`: a CAML bundle directory with `index.xml` and `main.caml` (`kCAPackageTypeCAMLBundle`).
    case package
    /// `.caml`: a bare CAML file (`kCAPackageTypeCAMLFile`).
    case caml

    public static func of(path: String) -> AssetKind {
        let lower = path.lowercased()
        if lower.hasSuffix(".caar") { return .archive }
        if lower.hasSuffix(".lottie") { return .dotLottie }
        if lower.hasSuffix(".caml") { return .caml }
        if lower.hasSuffix(".ca") || lower.hasSuffix(".ca/") { return .package }
        if FileStatus.isDirectory(path) && FileManager.default.fileExists(atPath: path + "/main.caml") { return .package }
        return .sceneJSON
    }

    /// True for the kinds a catalog directory scan picks up besides `*.json`.
    public static func isAsset(name: String) -> Bool {
        let l = name.lowercased()
        return l.hasSuffix(".caar") || l.hasSuffix(".caml") || l.hasSuffix(".ca") || l.hasSuffix(".lottie")
    }
}

/// How an asset with states is shown.
public struct StateSelection: Sendable, Equatable {
    /// `--state NAME`: the tree with that state's values applied.
    public var state: String?
    /// `--transition FROM:TO`: the tree in FROM, animating to TO as the state controller would.
    public var transition: (from: String, to: String)?
    public init(state: String? = nil, transition: (from: String, to: String)? = nil) {
        self.state = state; self.transition = transition
    }
    public static func == (a: StateSelection, b: StateSelection) -> Bool {
        a.state == b.state && a.transition?.from == b.transition?.from && a.transition?.to == b.transition?.to
    }
    public var isEmpty: Bool { state == nil && transition == nil }
}

/// One entry point for every scene source: picks the importer by file type and returns the same
/// `SceneDocument` the scene-file decoder returns.
public enum AssetLoader {
    /// `limits` apply to every kind alike: what an archive or a package imports to meets the
    /// scene format's limits (`SceneLimitCheck`), as a scene file does.
    public static func load(path: String, states: StateSelection = StateSelection(), animation: String? = nil,
                            limits: DecodingLimits = .standard) throws -> SceneDocument {
        let kind = AssetKind.of(path: path)
        if kind != .package && kind != .caml && !states.isEmpty {
            throw SceneError(.invalidValue, at: SourceLocation(file: path, pointer: "", line: 0, column: 0),
                             "--state and --transition apply to .ca packages and .caml files, which have states; this is \(kind == .archive ? "a .caar archive" : "a scene file")")
        }
        if animation != nil && kind != .dotLottie {
            throw SceneError(.invalidValue, at: SourceLocation(file: path, pointer: "", line: 0, column: 0),
                             "--animation picks one animation of a .lottie package; this is not one")
        }
        let document: SceneDocument
        switch kind {
        case .dotLottie:
            let package = try DotLottiePackage.open(path: path)
            let chosen = try package.animation(animation)
            // Messages name the animation inside the package: anim.lottie/animations/x.json:12:5.
            let file = path + "/" + chosen.entry
            document = try LottieImporter.decode(data: chosen.bytes, file: file,
                                                 images: .package(file: path, lookup: { try package.image($0) }), limits: limits)
        case .sceneJSON:
            // A caprof scene or a Lottie animation: the parsed document says which.
            let (data, base) = try SceneDecoder.read(path: path, limits: limits)
            let json = try JSONParser.parse(data, file: path)
            guard LottieImporter.isLottie(json) else {
                return try SceneDecoder.decode(json: json, file: path, baseDirectory: base, limits: limits)   // checked by the decoder
            }
            document = try LottieImporter.decode(json: json, file: path, images: .directory(base), limits: limits)
        case .archive:
            document = try ArchiveImporter.decode(data: try readFile(path), file: path, limits: limits)
        case .caml:
            let dir = path.deletingLastPathComponent
            document = try CAMLImporter.decode(data: try readFile(path), file: path, bundle: dir.isEmpty ? "." : dir,
                                               index: nil, states: states, limits: limits)
        case .package:
            document = try CAMLImporter.loadPackage(path: path, states: states, limits: limits)
        }
        try SceneLimitCheck.check(document, limits: limits, rootPointer: kind == .archive ? "/rootLayer" : kind == .sceneJSON || kind == .dotLottie ? "" : "/root")
        return document
    }

    /// Reads a whole file with the size limit of scene files; a clear error when missing.
    static func readFile(_ path: String) throws -> [UInt8] {
        let here = SourceLocation(file: path, pointer: "", line: 0, column: 0)
        guard let status = FileStatus(path: path) else {
            throw SceneError(.io, at: here, "cannot read the file: it does not exist or is not accessible")
        }
        if status.isDirectory { throw SceneError(.io, at: here, "cannot read the file: it is a directory") }
        if !status.isRegularFile {
            // Opening a FIFO blocks until a writer comes; a device may never end. Refused unopened.
            throw SceneError(.io, at: here, "cannot read the file: it is not a regular file (a FIFO, socket or device); save it to a file first")
        }
        let size = status.size
        if size > SceneLimits.maxFileBytes {
            throw SceneError(.limitExceeded, at: here, "the file is \(size) bytes; the limit is \(SceneLimits.maxFileBytes)")
        }
        guard let bytes = FileBytes.read(path: path, upTo: SceneLimits.maxFileBytes + 1, expected: size) else {
            throw SceneError(.io, at: here, "cannot read the file: permission denied")
        }
        return bytes
    }
}

extension AssetLoader {
    /// The states and state transitions a `.ca` package or `.caml` file declares (empty for other
    /// kinds), for a first look (`caprof convert --format tree`) and for choosing `--state`.
    public static func states(path: String) throws -> (states: [String], transitions: [String]) {
        let file: String
        switch AssetKind.of(path: path) {
        case .caml: file = path
        case .package:
            var index = PackageIndex()
            let indexPath = path.appendingPathComponent("index.xml")
            if FileManager.default.fileExists(atPath: indexPath), let p = try? XMLPlistReader.parse(try readFile(indexPath)),
               let i = try? PackageIndex(plist: p) { index = i }
            file = path.appendingPathComponent(index.rootDocument)
        default: return ([], [])
        }
        guard let root = try? XMLTree.parse(try readFile(file)) else { return ([], []) }
        var states: [String] = [], transitions: [String] = []
        func visit(_ n: XMLNode) {
            if n.name == "LKState", let s = n["name"] {
                states.append(n["basedOn"].map { "\(s) (based on \($0))" } ?? s)
            } else if n.name == "LKStateTransition" {
                let count = n.child("elements")?.children.count ?? 0
                transitions.append("\(n["fromState"] ?? "?")→\(n["toState"] ?? "?") (\(count) element\(count == 1 ? "" : "s"))")
            }
            n.children.forEach(visit)
        }
        visit(root)
        return (states, transitions)
    }
}
