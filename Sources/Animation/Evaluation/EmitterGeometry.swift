import Geometry
import LayerModel

/// Where particles are born and which way they leave (`EmitterSimulation`), from Core Animation's
/// documented shapes (CAEmitterLayerEmitterShape): centred on (emitterPosition, emitterZPosition);
/// a line spans emitterSize.width along x; a rectangle is emitterSize; a cuboid adds emitterDepth
/// along z; a circle and a sphere have radius emitterSize.width.
///
/// emitterMode picks the part that emits, each uniform over its measure (caprof's reading where
/// Core Animation says only "vertices", "outline", "surface", "volume"):
/// - `points`: a vertex (line: its 2 ends; rectangle: 4 corners; cuboid: 8 corners), chosen by the
///   `positionPick` draw; a point, circle and sphere have no vertex and emit from their centre.
/// - `outline`: a line's length; a rectangle's perimeter; a cuboid's 12 edges; a circle's
///   circumference; a sphere's surface.
/// - `surface`: a rectangle's and a circle's area; a cuboid's 6 faces; a sphere's surface.
/// - `volume`: surface for flat shapes; a cuboid's and a sphere's inside.
enum EmitterGeometry {
    typealias P3 = (x: Double, y: Double, z: Double)

    static func birthPosition(_ e: EmitterProperties, particle p: UInt64) -> P3 {
        let c = (x: e.emitterPosition.x, y: e.emitterPosition.y, z: e.emitterZPosition)
        let u = ParticleRandom.unit(p, .positionU), v = ParticleRandom.unit(p, .positionV)
        let w = ParticleRandom.unit(p, .positionW), pick = ParticleRandom.unit(p, .positionPick)
        let sx = e.emitterSize.width, sy = e.emitterSize.height, sz = e.emitterDepth
        // Unit offsets in [−0.5, 0.5] scaled by the box's sides.
        func box(_ a: Double, _ b: Double, _ d: Double) -> P3 { (c.x + a * sx, c.y + b * sy, c.z + d * sz) }
        let corner = { (k: Int) -> Double in Double(k) - 0.5 }   // 0 → −0.5, 1 → +0.5
        switch (e.emitterShape, e.emitterMode) {
        case (.point, _):
            return c
        case (.line, .points):
            return box(corner(pick < 0.5 ? 0 : 1), 0, 0)
        case (.line, _):
            return box(u - 0.5, 0, 0)
        case (.rectangle, .points):
            let k = min(Int(pick * 4), 3)
            return box(corner(k & 1), corner(k >> 1), 0)
        case (.rectangle, .outline):
            // Along the perimeter by arc length: top, right, bottom, left.
            let perimeter = 2 * (abs(sx) + abs(sy))
            guard perimeter > 0 else { return c }
            var s = u * perimeter
            if s < abs(sx) { return box(s / max(abs(sx), 1e-300) - 0.5, -0.5, 0) }
            s -= abs(sx)
            if s < abs(sy) { return box(0.5, s / max(abs(sy), 1e-300) - 0.5, 0) }
            s -= abs(sy)
            if s < abs(sx) { return box(0.5 - s / max(abs(sx), 1e-300), 0.5, 0) }
            s -= abs(sx)
            return box(-0.5, 0.5 - s / max(abs(sy), 1e-300), 0)
        case (.rectangle, _):
            return box(u - 0.5, v - 0.5, 0)
        case (.cuboid, .points):
            let k = min(Int(pick * 8), 7)
            return box(corner(k & 1), corner((k >> 1) & 1), corner(k >> 2))
        case (.cuboid, .outline):
            // An edge along axis a (weighted by length: 4 edges per axis), at one of 4 corner pairs.
            let lengths = [abs(sx), abs(sy), abs(sz)]
            let total = lengths.reduce(0, +)
            guard total > 0 else { return c }
            var s = pick * total, axis = 0
            while axis < 2 && s >= lengths[axis] { s -= lengths[axis]; axis += 1 }
            let k = min(Int(v * 4), 3)
            let a = corner(k & 1), b = corner(k >> 1)
            switch axis {
            case 0: return box(u - 0.5, a, b)
            case 1: return box(a, u - 0.5, b)
            default: return box(a, b, u - 0.5)
            }
        case (.cuboid, .surface):
            // A face (weighted by area: 2 faces per normal axis).
            let areas = [abs(sy * sz), abs(sx * sz), abs(sx * sy)]
            let total = areas.reduce(0, +)
            guard total > 0 else { return box(u - 0.5, v - 0.5, w - 0.5) }
            var s = pick * total, axis = 0
            while axis < 2 && s >= areas[axis] { s -= areas[axis]; axis += 1 }
            let side = corner(w < 0.5 ? 0 : 1)
            switch axis {
            case 0: return box(side, u - 0.5, v - 0.5)
            case 1: return box(u - 0.5, side, v - 0.5)
            default: return box(u - 0.5, v - 0.5, side)
            }
        case (.cuboid, _):
            return box(u - 0.5, v - 0.5, w - 0.5)
        case (.circle, .points), (.sphere, .points):
            return c
        case (.circle, .outline):
            let a = 2 * Double.pi * u
            return (c.x + sx * cos(a), c.y + sx * sin(a), c.z)
        case (.circle, _):
            // Uniform over the disc: radius √v.
            let a = 2 * Double.pi * u, r = sx * v.squareRoot()
            return (c.x + r * cos(a), c.y + r * sin(a), c.z)
        case (.sphere, .volume):
            let d = sphereDirection(u, v), r = sx * cbrt(w)
            return (c.x + r * d.x, c.y + r * d.y, c.z + r * d.z)
        case (.sphere, _):
            let d = sphereDirection(u, v)
            return (c.x + sx * d.x, c.y + sx * d.y, c.z + sx * d.z)
        }
    }

    /// A uniform direction on the unit sphere (z = 2u − 1, azimuth 2πv).
    static func sphereDirection(_ u: Double, _ v: Double) -> P3 {
        let z = 2 * u - 1, r = max(0, 1 - z * z).squareRoot(), a = 2 * Double.pi * v
        return (r * cos(a), r * sin(a), z)
    }

    /// The emission direction: the axis at (longitude, latitude), perturbed uniformly within a cone
    /// of full angle `range` (capped at 2π: the whole sphere).
    static func direction(longitude: Double, latitude: Double, range: Double, particle p: UInt64) -> P3 {
        let axis = (x: cos(longitude) * cos(latitude), y: sin(longitude) * cos(latitude), z: sin(latitude))
        guard range != 0, range.isFinite else { return axis }
        let half = min(abs(range), 2 * Double.pi) / 2
        let cosT = 1 - ParticleRandom.unit(p, .coneCos) * (1 - cos(half))
        let sinT = max(0, 1 - cosT * cosT).squareRoot()
        let phi = 2 * Double.pi * ParticleRandom.unit(p, .coneAzimuth)
        // An orthonormal frame around the axis: e1 in the x-y plane (the longitude's normal),
        // e2 = axis × e1.
        let e1 = (x: -sin(longitude), y: cos(longitude), z: 0.0)
        let e2 = (x: axis.y * e1.z - axis.z * e1.y, y: axis.z * e1.x - axis.x * e1.z, z: axis.x * e1.y - axis.y * e1.x)
        let a = sinT * cos(phi), b = sinT * sin(phi)
        return (axis.x * cosT + e1.x * a + e2.x * b, axis.y * cosT + e1.y * a + e2.y * b, axis.z * cosT + e1.z * a + e2.z * b)
    }
}
