import Geometry

/// Euler angles for the `transform.rotation.x/.y/.z` key paths (reference §5.5, §10 item 5).
///
/// Core Animation does not say how it reads one rotation axis out of a matrix. We use the
/// Tait–Bryan angles (α, β, γ) with the rotation N = Rx(α) · Ry(β) · Rz(γ) in row-vector form:
/// x acts first, then y, then z — CSS's `rotateZ(γ) rotateY(β) rotateX(α)`, the usual
/// yaw-pitch-roll order. Hence:
/// - a rotation about one axis reads back exactly on that axis, whatever the others are zero;
/// - `rotation.z` is the outermost turn (in the superlayer's plane), so adding θ to it turns the
///   whole transform by θ about z, and `rotation.x` is the innermost (about the layer's own x);
/// - reading prefers |β| ≤ π/2 (β = asin); at β = ±π/2 (gimbal lock) α is read as 0.
/// Angles outside (−π, π] can be written (a `transform.rotation.z` spin 0 → 2π recomposes each
/// frame's angle); what reads back is the equivalent angle in range.
extension DecomposedTransform {
    /// (α, β, γ) about x, y, z, in radians.
    public var eulerAngles: (x: Double, y: Double, z: Double) {
        get {
            let n = rotation.rotationRows
            let sinY = -n.a02
            if abs(sinY) >= 1 - 1e-12 {
                // Gimbal lock: only α ∓ γ is defined; read α = 0.
                return (0, sinY > 0 ? .pi / 2 : -.pi / 2, atan2(-n.a10, n.a11))
            }
            return (atan2(n.a12, n.a22), asin(sinY), atan2(n.a01, n.a00))
        }
        set {
            let (sx, cx) = (sin(newValue.x), cos(newValue.x))
            let (sy, cy) = (sin(newValue.y), cos(newValue.y))
            let (sz, cz) = (sin(newValue.z), cos(newValue.z))
            let rx = Rows3(1, 0, 0, 0, cx, sx, 0, -sx, cx)
            let ry = Rows3(cy, 0, -sy, 0, 1, 0, sy, 0, cy)
            let rz = Rows3(cz, sz, 0, -sz, cz, 0, 0, 0, 1)
            rotation = Quaternion(rotationRows: rx * ry * rz)
        }
    }
}
