import Geometry

/// The margin a shaped item's quad needs so its antialiased edge is drawn: the coverage ramp
/// extends half a device pixel outside the shape, so the rasterised quad is grown by about one
/// device pixel (fragments beyond the shape get coverage 0). The backend grows quads by it; the
/// plan uses the same number where it splits an item into pieces (`CanvasExecution`).
public enum EdgeRamp {
    /// Local units per device pixel in the direction the transform shrinks most (1 / the smallest
    /// singular value of the projected mapping's Jacobian, over the quad's corners in front of the
    /// eye), capped at the quad's size; 0 when the quad is degenerate on screen.
    public static func outset(_ t: Transform3D, _ q: Rect) -> Double {
        var smallestStretch = Double.infinity
        for c in q.corners {
            let x = c.x * t.m11 + c.y * t.m21 + t.m41, y = c.x * t.m12 + c.y * t.m22 + t.m42
            let w = c.x * t.m14 + c.y * t.m24 + t.m44
            guard w > 0 else { continue }
            // d(x/w)/d(local), d(y/w)/d(local)
            let a = (t.m11 * w - x * t.m14) / (w * w), b = (t.m21 * w - x * t.m24) / (w * w)
            let d = (t.m12 * w - y * t.m14) / (w * w), e = (t.m22 * w - y * t.m24) / (w * w)
            let s = a * a + b * b + d * d + e * e, det = a * e - b * d
            let sigma = (max(s - (max(s * s - 4 * det * det, 0)).squareRoot(), 0) / 2).squareRoot()
            smallestStretch = min(smallestStretch, sigma)
        }
        guard smallestStretch.isFinite, smallestStretch > 1e-6 else { return 0 }
        return min(1 / smallestStretch, max(q.width, q.height))
    }
}
