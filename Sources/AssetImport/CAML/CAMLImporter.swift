import SystemSupport
import Geometry
import LayerModel
import Animation
import SceneFormat

/// Reads CAML (a `.ca` package's `main.caml`, or a bare `.caml`) into a `SceneDocument`.
/// Element names are classes or property keys; scalar properties are attributes (asset-formats.md
/// §2.3). Warnings carry the XML line:column. States and transitions are applied on request.
public enum CAMLImporter {
    /// A `.ca` directory: `index.xml` (rootDocument, documentWidth/Height, geometryFlipped), then its CAML.
    public static func loadPackage(path: String, states: StateSelection, limits: DecodingLimits = .standard) throws -> SceneDocument {
        var index = PackageIndex()
        let indexPath = path.appendingPathComponent("index.xml")
        if FileManager.default.fileExists(atPath: indexPath) {
            let data = try AssetLoader.readFile(indexPath)
            do {
                index = try PackageIndex(plist: XMLPlistReader.parse(data))
            } catch let e as PlistError {
                throw SceneError(.invalidValue, at: SourceLocation(file: indexPath, pointer: "", line: 0, column: 0), "cannot read the package index: \(e.message)")
            }
        }
        let main = path.appendingPathComponent(index.rootDocument)
        // A package never reads outside itself: its root document may not be a symbolic link that
        // leads out of it (index.xml's `..` and absolute names were never taken).
        if case .linksOut = PackagePath.resolve(index.rootDocument, inside: path) {
            throw SceneError(.invalidValue, at: SourceLocation(file: main, pointer: "", line: 0, column: 0),
                             "the package's root document is a symbolic link that leads out of the package; a package is read from inside it only")
        }
        return try decode(data: try AssetLoader.readFile(main), file: main, bundle: path, index: index, states: states, limits: limits)
    }

    /// Decodes CAML bytes. `bundle` resolves image paths.
    public static func decode(data: [UInt8], file: String, bundle: String, index: PackageIndex?,
                              states: StateSelection = StateSelection(), limits: DecodingLimits = .standard) throws -> SceneDocument {
        let ctx = ImportContext(file: file, limits: limits)
        let root: XMLNode
        do {
            root = try XMLTree.parse(data)
        } catch let e as PlistError {
            let (line, col, msg) = splitPosition(e.message)
            throw SceneError(.invalidValue, at: ctx.place("", line: line, column: col), msg)
        }
        guard root.name == "caml" else {
            throw SceneError(.invalidValue, at: ctx.place("", line: root.line, column: root.column), "expected a <caml> root element, found <\(root.name)>")
        }
        guard let top = root.children.first else {
            throw SceneError(.invalidValue, at: ctx.place("", line: root.line, column: root.column), "<caml> has no root layer element")
        }
        let reader = CAMLTreeReader(ctx: ctx, nodes: CAMLNodes(ctx: ctx, bundle: bundle))
        var layer = try reader.layer(top, depth: 1)
        if index?.geometryFlipped == true { layer.geometryFlipped = true }
        var machine = StateMachine(ctx: ctx, reader: reader, states: reader.states, transitions: reader.transitions)
        try machine.apply(states, to: &layer)
        let size = index?.documentSize ?? layer.bounds.size
        guard size.width > 0, size.height > 0 else {
            throw SceneError(.invalidValue, at: layer.location ?? ctx.place(""), "the root layer has an empty size \(layer.bounds.size) and the package no documentWidth/documentHeight: nothing to draw")
        }
        return try SceneAssembly.document(root: layer, size: size, ctx: ctx)
    }

    /// "12:5: message" → (12, 5, "message").
    static func splitPosition(_ m: String) -> (Int, Int, String) {
        let parts = m.split(separator: ":", maxSplits: 2)
        if parts.count == 3, let l = Int(parts[0]), let c = Int(parts[1]) {
            return (l, c, parts[2].trimmingWhitespace())
        }
        return (0, 0, m)
    }
}

/// `index.xml` of a `.ca` package.
public struct PackageIndex: Sendable {
    public var rootDocument = "main.caml"
    public var documentSize: Size?
    public var geometryFlipped = false
    public init() {}
    init(plist: PlistValue) throws {
        guard case .dictionary = plist else { throw PlistError("index.xml is \(plist.kindDescription), not a dictionary") }
        if let r = plist["rootDocument"]?.string, !r.isEmpty, !r.contains("..") { rootDocument = r }
        if let w = plist["documentWidth"]?.number, let h = plist["documentHeight"]?.number, w > 0, h > 0 { documentSize = Size(w, h) }
        geometryFlipped = (plist["geometryFlipped"]?.number ?? 0) != 0
    }
}
