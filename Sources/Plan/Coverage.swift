import Geometry

/// The per-fragment coverage code an item runs, cheapest first. The backend compiles one pipeline
/// variant per level (a specialisation constant), so an item pays only for the code that can change
/// one of its pixels: lavapipe runs every instruction of a fragment shader for every fragment, and
/// the continuous-corner lookup (an arctangent and a table) cost most of a rounded rectangle's time.
/// Each level draws exactly the pixels of the levels below it (a higher level only adds code for
/// corners the item does not have), so the plan may raise an item's level to batch it with its
/// neighbours (`CanvasExecution`).
public enum Coverage: Int, Sendable, Comparable, CaseIterable {
    /// No coverage: the quad's own edges decide which pixels are drawn, each in full.
    case none
    /// Antialiased straight edges (box-filtered per axis); no corner of any shape is rounded.
    case straightEdges
    /// Straight edges and circular corners: the corner's radial profile is its radius.
    case circularCorners
    /// Straight edges and continuous corners (cornerCurve = continuous): the profile ρ(θ) is read
    /// from the tabulated three-cubic curve.
    case continuousCorners

    public static func < (a: Coverage, b: Coverage) -> Bool { a.rawValue < b.rawValue }
}

extension RoundedShape {
    /// The coverage level this shape needs, from its corners exactly as the backend encodes them
    /// (`CornerProfile`): a corner clamped to a circle (continuous with r ≥ l) is circular.
    public var coverage: Coverage {
        let r = rect.standardized
        let limit = min(r.width, r.height) / 2
        var need = Coverage.straightEdges
        for i in 0..<min(radii.count, 4) {
            let corner = curve == .continuous ? CornerProfile.continuous(radius: radii[i], limit: limit)
                : CornerProfile.circular(radius: radii[i], limit: limit)
            // A zero inset is a square corner: the shader's corner block never runs for it.
            guard corner.inset > 0 else { continue }
            need = max(need, corner.profileScale == 0 ? .circularCorners : .continuousCorners)
        }
        return need
    }
}

extension DrawItem {
    /// The least coverage level that draws this item's pixels: what its shape, its border's inner
    /// edge and its clips need (an analytic shadow computes its own shape; only its clips count).
    public var requiredCoverage: Coverage {
        var need = Coverage.none
        if case .blurredShape = paint {} else {
            if let s = shape { need = max(need, s.coverage) }
            if let s = innerShape { need = max(need, s.coverage) }
        }
        for c in clips.prefix(DrawItem.maxClips) { need = max(need, c.shape.coverage) }
        return need
    }

    /// The level the backend runs: the plan's choice (`coverageVariant`), never below what the
    /// item needs.
    public var executedCoverage: Coverage { max(coverageVariant ?? .none, requiredCoverage) }

    /// Whether the item's shape coverage runs with one constant pixel size (the `ISOTROPIC`
    /// variant): it has a shape or an inner shape, and its transform is a similarity (rotation,
    /// uniform scale, translation), under which a device pixel spans the same local distance in
    /// every direction. The coverage code then needs no screen-space derivatives and no
    /// per-fragment lengths; clips keep their own (their transforms may be anything).
    public var hasIsotropicCoverage: Bool {
        if case .blurredShape = paint { return false }
        return (shape != nil || innerShape != nil) && !derivativeCoverage && transform.isSimilarity
    }
}

extension Transform3D {
    /// Affine in the plane (w = 1) with orthogonal, equally long axes: every direction is scaled
    /// by the same factor. The tolerance (relative 1e-6) admits the rounding of a composed
    /// rotation and scale; the coverage ramp's width then differs by far less than 1/255.
    public var isSimilarity: Bool {
        guard keepsWConstant, m44 == 1 else { return false }
        let a = m11 * m11 + m12 * m12, b = m21 * m21 + m22 * m22
        let dot = m11 * m21 + m12 * m22
        guard a > 0, a.isFinite, b.isFinite else { return false }
        return abs(a - b) <= 1e-6 * a && abs(dot) <= 1e-6 * a
    }
}
