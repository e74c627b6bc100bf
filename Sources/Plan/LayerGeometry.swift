import Geometry
import LayerModel

/// The matrices of reference/core-animation.md §1.3, for one layer (row-vector, CA order).
extension Layer {
    /// A_L: the anchor in the layer's own bounds coordinates (bounds.origin included).
    public var anchorInBounds: Point3 {
        Point3(bounds.origin.x + anchorPoint.x * bounds.width,
               bounds.origin.y + anchorPoint.y * bounds.height,
               anchorPointZ)
    }

    /// Tr(−A_L) · L.transform · Tr(P_L): the layer's bounds space into its superlayer's sublayer
    /// space (before the superlayer's sublayerTransform).
    public var toSuperlayerSublayerSpace: Transform3D {
        let a = anchorInBounds
        return Transform3D.translation(-a.x, -a.y, -a.z) * transform * Transform3D.translation(position.x, position.y, zPosition)
    }

    /// Whether this layer projects its sublayers onto its own plane (F = diag(1,1,0,1)).
    /// CATransformLayer and a replicator with preservesDepth keep them in 3D.
    public var flattensSublayers: Bool {
        switch layerClass {
        case .transform: return false
        case .replicator: return !replicator.preservesDepth
        default: return true
        }
    }

    /// Tr(−A_S) · S.sublayerTransform · Tr(A_S) · Flip_S · F_S: the layer's sublayer space into
    /// its own bounds space. The sublayerTransform pivots about the anchor (bounds origin and
    /// anchorPointZ included: reference §1.3, unconfirmed point 2, chosen as WebKit does).
    /// geometryFlipped reflects y about the bounds' mid-line (reference §1.6 implementation model).
    public var sublayerSpaceToBounds: Transform3D {
        let a = anchorInBounds
        var m = Transform3D.translation(-a.x, -a.y, -a.z) * sublayerTransform * Transform3D.translation(a.x, a.y, a.z)
        if geometryFlipped {
            let c = bounds.midY
            m = m * (Transform3D.translation(0, -c, 0) * Transform3D.scale(1, -1, 1) * Transform3D.translation(0, c, 0))
        }
        if flattensSublayers { m = m * Transform3D.flatten }
        return m
    }

    /// The four corner radii (minXMinY, maxXMinY, maxXMaxY, minXMaxY) after maskedCorners and
    /// clamping to half the shorter side (reference §1.8, unconfirmed point 9: min(W,H)/2).
    public var cornerRadii: [Double] {
        let r = max(0, min(cornerRadius, min(bounds.width, bounds.height) / 2))
        return [maskedCorners.contains(.minXMinY) ? r : 0, maskedCorners.contains(.maxXMinY) ? r : 0,
                maskedCorners.contains(.maxXMaxY) ? r : 0, maskedCorners.contains(.minXMaxY) ? r : 0]
    }
}
