import Geometry
import Animation

/// Paths: SVG path data, or `{"rect": r}`, `{"roundedRect": r, "cornerRadius": c}`, `{"ellipseIn": r}`
/// (the CGPath initialisers scene authors know).
extension DecodingContext {
    static let pathObjectKeys = ["rect", "roundedRect", "cornerRadius", "ellipseIn"]

    func path(_ v: JSONValue) throws -> Path {
        let path: Path
        switch v.kind {
        case .string(let s):
            do {
                path = try SVGPathParser.parse(s, maxElements: SceneLimits.maxPathElements)
            } catch let g as GrammarError {
                let kind: SceneError.Kind = g.message.contains("more than") ? .limitExceeded : .invalidValue
                throw error(kind, v, "invalid SVG path data at character \(g.offset + 1): \(g.message)")
            }
        case .object:
            let r = try ObjectReader(v, self, owner: "a path object", expected: ValueType.path.summary)
            try r.rejectUnknownKeys(Self.pathObjectKeys)
            let shapes = r.members.filter { $0.key != "cornerRadius" }
            guard shapes.count == 1 else {
                throw error(.invalidValue, v, "a path object needs exactly one of 'rect', 'roundedRect' or 'ellipseIn'")
            }
            let shape = shapes[0]
            if let c = r.member("cornerRadius"), shape.key != "roundedRect" {
                throw SceneError(.unknownKey, at: keyLocation(c), "'cornerRadius' belongs to 'roundedRect', not '\(shape.key)'")
            }
            let rect = try self.rect(shape.value)
            switch shape.key {
            case "rect": path = .rect(rect)
            case "ellipseIn": path = .ellipse(in: rect)
            default:
                let radius = try r["cornerRadius"].map { try number($0, domain: .nonNegative, what: "cornerRadius") } ?? 0
                path = .roundedRect(rect, cornerRadius: radius)
            }
        default:
            throw typeMismatch(v, expected: ValueType.path.summary)
        }
        pathElementCount += path.elements.count
        if pathElementCount > SceneLimits.maxTotalPathElements {
            throw limit(v, "the scene's paths have more than \(SceneLimits.maxTotalPathElements) elements in all")
        }
        return path
    }
}
