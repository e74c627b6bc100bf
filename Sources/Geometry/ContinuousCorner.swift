/// The geometry of rounded corners as the Vulkan backend evaluates them (reference/core-animation.md §1.8).
///
/// Every corner is described the same way, circular or continuous: a centre point inset `e` from the
/// corner along both edges, and a radial profile ρ(θ) around it. A fragment in the corner region is
/// inside when its distance from the centre is at most ρ(θ). A circular corner of radius r has
/// e = r and ρ ≡ r. A continuous corner (cornerCurve = continuous) starts 1.528665·r from the corner
/// (`+[CALayer cornerCurveExpansionFactor:]`) and follows the three reverse-engineered cubics of §1.8;
/// its ρ(θ) is tabulated in `radialTable`, which the fragment shader embeds verbatim
/// (Shaders/corners.glsl; a unit test parses the shader and compares, so the two cannot drift).
///
/// Coordinates here are corner-relative and in units of r: u is the distance from the corner along one
/// edge, v along the other; θ = 0 is the tangent point on the first edge, θ = π/2 the one on the second.
public enum ContinuousCorner {
    /// How far from the corner the continuous curve starts, in units of r.
    public static let expansionFactor = 1.528665

    /// The three cubics (start, c1, c2, end) from the first edge to the second, in (u, v) units of r.
    public static let cubics: [[Point]] = [
        [Point(1.528665, 0), Point(1.08849296, 0), Point(0.86840694, 0), Point(0.63149379, 0.07491139)],
        [Point(0.63149379, 0.07491139), Point(0.37282383, 0.16905956), Point(0.16905956, 0.37282383),
         Point(0.07491139, 0.63149379)],
        [Point(0.07491139, 0.63149379), Point(0, 0.86840694), Point(0, 1.08849296), Point(0, 1.528665)],
    ]

    /// The curve at parameter s ∈ [0, 3] (cubic ⌊s⌋ at t = s − ⌊s⌋).
    public static func point(at s: Double) -> Point {
        let i = min(Int(max(s, 0)), 2)
        let t = min(max(s - Double(i), 0), 1), mt = 1 - t
        let c = cubics[i]
        let a = mt * mt * mt, b = 3 * mt * mt * t, d = 3 * mt * t * t, e = t * t * t
        return Point(a * c[0].x + b * c[1].x + d * c[2].x + e * c[3].x,
                     a * c[0].y + b * c[1].y + d * c[2].y + e * c[3].y)
    }

    /// The polar angle of a corner-relative point about the centre (k, k), k = expansionFactor:
    /// 0 on the first edge's tangent point, π/2 on the second's.
    public static func angle(of p: Point) -> Double {
        atan2(expansionFactor - p.x, expansionFactor - p.y)
    }

    /// ρ(θ) in units of r: the distance from the centre (k, k) to the curve along the ray at angle θ.
    /// The curve is star-shaped about the centre (θ increases monotonically along it), so the crossing
    /// is found by bisection on the curve parameter.
    public static func radialProfile(at theta: Double) -> Double {
        let target = min(max(theta, 0), Double.pi / 2)
        var lo = 0.0, hi = 3.0
        for _ in 0..<80 {
            let mid = (lo + hi) / 2
            if angle(of: point(at: mid)) < target { lo = mid } else { hi = mid }
        }
        let p = point(at: (lo + hi) / 2)
        let k = expansionFactor
        return ((k - p.x) * (k - p.x) + (k - p.y) * (k - p.y)).squareRoot()
    }

    /// Number of samples of ρ over the quarter turn (θ_i = i · (π/2) / (tableSize − 1)).
    public static let tableSize = 33

    /// ρ(θ_i) in units of r; symmetric about the diagonal (entry i equals entry tableSize − 1 − i).
    /// The shader interpolates linearly between entries.
    public static let radialTable: [Double] = (0..<tableSize).map { i in
        radialProfile(at: Double(i) * (Double.pi / 2) / Double(tableSize - 1))
    }
}

/// One corner of a rounded rectangle in the form the backend evaluates: centre inset `inset` from the
/// corner along both edges, and ρ(θ) = `profileScale` · table(θ) + `circularRadius`.
/// A square corner has inset 0 (no corner region).
public struct CornerProfile: Equatable, Sendable {
    public var inset: Double
    public var profileScale: Double
    public var circularRadius: Double
    public init(inset: Double, profileScale: Double, circularRadius: Double) {
        self.inset = inset; self.profileScale = profileScale; self.circularRadius = circularRadius
    }
    public static let square = CornerProfile(inset: 0, profileScale: 0, circularRadius: 0)

    /// A quarter circle of radius r, clamped to `limit` = min(W, H) / 2 so that corners fit.
    public static func circular(radius r: Double, limit: Double) -> CornerProfile {
        let rr = min(max(r, 0), max(limit, 0))
        return CornerProfile(inset: rr, profileScale: 0, circularRadius: rr)
    }

    /// A continuous corner of radius r in a rect whose shorter half side is `limit` (l).
    ///
    /// While k·r ≤ l (k = 1.528665) the corner is the exact continuous curve. Beyond that the curve
    /// would overlap its neighbour, so (Core Animation's exact rule is unconfirmed; this is ours):
    /// the centre is pinned at e = l and the profile blends linearly from the continuous curve of
    /// radius l/k (the largest that fits) to a circle of radius l, with weight
    /// t = (r − l/k) / (l − l/k), reaching the circle when r = l; radii above l stay circular of radius l.
    /// ρ(0) = ρ(π/2) = e throughout, so the corner always meets its edges tangentially.
    public static func continuous(radius r: Double, limit: Double) -> CornerProfile {
        let k = ContinuousCorner.expansionFactor
        let l = max(limit, 0), r = max(r, 0)
        if r == 0 || l == 0 { return .square }
        if k * r <= l { return CornerProfile(inset: k * r, profileScale: r, circularRadius: 0) }
        let t = min((r - l / k) / (l - l / k), 1)
        return CornerProfile(inset: l, profileScale: (1 - t) * l / k, circularRadius: t * l)
    }

    /// ρ at angle θ (radians, 0…π/2), using the exact profile rather than the table.
    public func radius(at theta: Double) -> Double {
        profileScale * ContinuousCorner.radialProfile(at: theta) + circularRadius
    }
}
