import Geometry
import LayerModel

/// Where a contents image lands in a layer (reference §1.7): the gravity destination rect and,
/// with contentsCenter, the nine slices. Pure geometry in the layer's bounds space and texel space.
public struct ContentsLayout: Equatable, Sendable {
    /// One quad of the contents: `rect` in layer points, `texels` the image sub-rectangle it shows.
    public struct Slice: Equatable, Sendable {
        public var rect: Rect
        public var texels: Rect
    }
    /// The gravity destination rectangle R.
    public var destination: Rect
    public var slices: [Slice]

    /// - Parameters: image size in pixels; the layer's bounds, gravity, contentsRect,
    ///   contentsCenter and contentsScale.
    public static func layout(imageWidth: Int, imageHeight: Int, bounds: Rect, gravity: ContentsGravity,
                              contentsRect cr: Rect, contentsCenter cc: Rect, contentsScale: Double) -> ContentsLayout {
        let iw = Double(imageWidth), ih = Double(imageHeight)
        // The selected sub-rectangle in texels (contentsRect is in unit image coordinates).
        let sub = Rect(cr.origin.x * iw, cr.origin.y * ih, cr.size.width * iw, cr.size.height * ih)
        let scale = contentsScale > 0 ? contentsScale : 1
        // Logical size of the contents = pixel size / contentsScale.
        let cw = abs(sub.size.width) / scale, ch = abs(sub.size.height) / scale
        let W = bounds.width, H = bounds.height, x0 = bounds.minX, y0 = bounds.minY
        var R: Rect
        switch gravity {
        case .resize: R = Rect(x0, y0, W, H)
        case .resizeAspect, .resizeAspectFill:
            let kx = cw > 0 ? W / cw : 0, ky = ch > 0 ? H / ch : 0
            let k = gravity == .resizeAspect ? min(kx, ky) : max(kx, ky)
            let w = cw * k, h = ch * k
            R = Rect(x0 + (W - w) / 2, y0 + (H - h) / 2, w, h)
        default:
            // Non-scaling modes: natural size; "top" = max-Y, "bottom" = min-Y, literally in layer
            // coordinates (so on a y-down iOS layer `top` sits at the visual bottom, as UIKit's
            // contentMode .top maps to kCAGravityBottom). Fractional offsets are not rounded.
            let midX = x0 + (W - cw) / 2, midY = y0 + (H - ch) / 2
            let minX = x0, maxX = x0 + W - cw, minY = y0, maxY = y0 + H - ch
            let (x, y): (Double, Double)
            switch gravity {
            case .center: (x, y) = (midX, midY)
            case .top: (x, y) = (midX, maxY)
            case .bottom: (x, y) = (midX, minY)
            case .left: (x, y) = (minX, midY)
            case .right: (x, y) = (maxX, midY)
            case .topLeft: (x, y) = (minX, maxY)
            case .topRight: (x, y) = (maxX, maxY)
            case .bottomLeft: (x, y) = (minX, minY)
            case .bottomRight: (x, y) = (maxX, minY)
            default: (x, y) = (midX, midY)
            }
            R = Rect(x, y, cw, ch)
        }
        if !isNineSliced(gravity: gravity, contentsCenter: cc) {
            return ContentsLayout(destination: R, slices: [Slice(rect: R, texels: sub)])
        }
        return ContentsLayout(destination: R, slices: nineSlice(R: R, sub: sub, center: cc, scale: scale))
    }

    /// Whether contentsCenter cuts the image into nine slices: only the resizing gravities stretch
    /// contents, and the positioning ones ignore contentsCenter (reference §1.7, Core Animation
    /// Programming Guide). One rule for the plan and for the profiler's advice.
    public static func isNineSliced(gravity: ContentsGravity, contentsCenter cc: Rect) -> Bool {
        let resizing = gravity == .resize || gravity == .resizeAspect || gravity == .resizeAspectFill
        return resizing && cc != .unit
    }

    /// contentsCenter: cut the sub-image at u = cx, cx+cw and v = cy, cy+ch; corners keep their
    /// logical size, edges stretch in one direction, the centre in both. A zero-width centre is
    /// one source pixel wide (reference §1.7). When R is smaller than the fixed corners, the
    /// corners are scaled down proportionally (unconfirmed in CA; our choice).
    static func nineSlice(R: Rect, sub: Rect, center cc: Rect, scale: Double) -> [Slice] {
        func cuts(_ origin: Double, _ length: Double, _ c0: Double, _ cl: Double) -> [Double] {
            var a = origin + c0 * length, b = origin + (c0 + cl) * length
            if cl == 0 { a -= 0.5; b += 0.5 }   // one source pixel wide, centred
            return [origin, min(max(a, origin), origin + length), min(max(b, origin), origin + length), origin + length]
        }
        let tx = cuts(sub.minX, sub.width, cc.origin.x, cc.size.width)
        let ty = cuts(sub.minY, sub.height, cc.origin.y, cc.size.height)
        func dest(_ t: [Double], _ r0: Double, _ rl: Double) -> [Double] {
            var left = (t[1] - t[0]) / scale, right = (t[3] - t[2]) / scale
            if left + right > rl, left + right > 0 { let k = rl / (left + right); left *= k; right *= k }
            return [r0, r0 + left, r0 + rl - right, r0 + rl]
        }
        let dx = dest(tx, R.minX, R.width), dy = dest(ty, R.minY, R.height)
        var out: [Slice] = []
        for j in 0..<3 { for i in 0..<3 {
            let rect = Rect(dx[i], dy[j], dx[i + 1] - dx[i], dy[j + 1] - dy[j])
            let tex = Rect(tx[i], ty[j], tx[i + 1] - tx[i], ty[j + 1] - ty[j])
            if rect.width > 0, rect.height > 0, tex.width > 0, tex.height > 0 { out.append(Slice(rect: rect, texels: tex)) }
        } }
        return out
    }
}
