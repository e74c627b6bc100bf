/// A CGPath: subpaths of move/line/quad/cubic/close elements in a layer's point space.
/// Arcs from SVG path data are converted to cubics when parsed.
public struct Path: Equatable, Hashable, Sendable {
    public enum Element: Equatable, Hashable, Sendable {
        case move(Point)
        case line(Point)
        case quad(Point, Point)
        case cubic(Point, Point, Point)
        case close
    }
    public var elements: [Element]
    public init(_ elements: [Element] = []) { self.elements = elements }

    public static func rect(_ r: Rect) -> Path {
        Path([.move(Point(r.minX, r.minY)), .line(Point(r.maxX, r.minY)), .line(Point(r.maxX, r.maxY)),
              .line(Point(r.minX, r.maxY)), .close])
    }
    /// CGPath(ellipseIn:): four cubic quarter arcs (kappa = 0.5522847498).
    public static func ellipse(in r: Rect) -> Path {
        let k = 0.5522847498307936
        let cx = r.midX, cy = r.midY, rx = r.width / 2, ry = r.height / 2
        return Path([
            .move(Point(cx + rx, cy)),
            .cubic(Point(cx + rx, cy + k * ry), Point(cx + k * rx, cy + ry), Point(cx, cy + ry)),
            .cubic(Point(cx - k * rx, cy + ry), Point(cx - rx, cy + k * ry), Point(cx - rx, cy)),
            .cubic(Point(cx - rx, cy - k * ry), Point(cx - k * rx, cy - ry), Point(cx, cy - ry)),
            .cubic(Point(cx + k * rx, cy - ry), Point(cx + rx, cy - k * ry), Point(cx + rx, cy)),
            .close,
        ])
    }
    /// CGPath(roundedRect:cornerWidth:cornerHeight:) with circular corners (radius clamped to half the side).
    public static func roundedRect(_ r: Rect, cornerRadius: Double) -> Path {
        let rad = max(0, min(cornerRadius, r.width / 2, r.height / 2))
        if rad == 0 { return rect(r) }
        let k = 0.5522847498307936 * rad
        let x0 = r.minX, y0 = r.minY, x1 = r.maxX, y1 = r.maxY
        return Path([
            .move(Point(x0 + rad, y0)), .line(Point(x1 - rad, y0)),
            .cubic(Point(x1 - rad + k, y0), Point(x1, y0 + rad - k), Point(x1, y0 + rad)),
            .line(Point(x1, y1 - rad)),
            .cubic(Point(x1, y1 - rad + k), Point(x1 - rad + k, y1), Point(x1 - rad, y1)),
            .line(Point(x0 + rad, y1)),
            .cubic(Point(x0 + rad - k, y1), Point(x0, y1 - rad + k), Point(x0, y1 - rad)),
            .line(Point(x0, y0 + rad)),
            .cubic(Point(x0, y0 + rad - k), Point(x0 + rad - k, y0), Point(x0 + rad, y0)),
            .close,
        ])
    }
}
