import LayerModel

/// A 4×5 colour matrix on non-premultiplied colour: rows R G B A of [r g b a bias] (as
/// `colorMatrix.inputColorMatrix` and SVG's feColorMatrix write it). The colour filters are each
/// one such matrix; consecutive ones compose into one (`then`), so a chain of colour filters is one
/// pass. Intermediate values are not clamped between folded filters (Core Image computes filter
/// chains in extended-range float too); the pass clamps its result to 0…1.
public struct ColorMatrix: Sendable, Equatable {
    /// 20 numbers, row-major.
    public var m: [Double]

    public init(_ m: [Double]) { precondition(m.count == 20); self.m = m }
    public static let identity = ColorMatrix(Filter.identityMatrix)

    public var isIdentity: Bool { m == ColorMatrix.identity.m }

    /// This matrix followed by `next`: next · self (with the bias column carried).
    public func then(_ next: ColorMatrix) -> ColorMatrix {
        var r = [Double](repeating: 0, count: 20)
        for i in 0..<4 {
            for j in 0..<4 {
                var s = 0.0
                for k in 0..<4 { s += next.m[i * 5 + k] * m[k * 5 + j] }
                r[i * 5 + j] = s
            }
            var b = next.m[i * 5 + 4]
            for k in 0..<4 { b += next.m[i * 5 + k] * m[k * 5 + 4] }
            r[i * 5 + 4] = b
        }
        return ColorMatrix(r)
    }

    /// Applies the matrix to a non-premultiplied colour (no clamping).
    public func apply(_ c: (Double, Double, Double, Double)) -> (Double, Double, Double, Double) {
        let v = [c.0, c.1, c.2, c.3]
        func row(_ i: Int) -> Double { (0..<4).reduce(m[i * 5 + 4]) { $0 + m[i * 5 + $1] * v[$1] } }
        return (row(0), row(1), row(2), row(3))
    }

    /// Rec. 709 luma weights, as SVG's saturate / hueRotate matrices round them.
    static let lr = 0.213, lg = 0.715, lb = 0.072

    /// The matrix of a colour filter; nil for a blur.
    public init?(filter f: Filter) {
        switch f.type {
        case .gaussianBlur, .variableBlur: return nil
        case .colorMatrix: self.init(f.inputColorMatrix)
        case .colorSaturate:
            // SVG feColorMatrix type="saturate" (Filter Effects Level 1).
            let s = f.inputAmount, lr = Self.lr, lg = Self.lg, lb = Self.lb
            self.init([lr + (1 - lr) * s, lg - lg * s, lb - lb * s, 0, 0,
                       lr - lr * s, lg + (1 - lg) * s, lb - lb * s, 0, 0,
                       lr - lr * s, lg - lg * s, lb + (1 - lb) * s, 0, 0,
                       0, 0, 0, 1, 0])
        case .colorBrightness:
            // CIColorControls' brightness: added to each colour component.
            let b = f.inputAmount
            self.init([1, 0, 0, 0, b, 0, 1, 0, 0, b, 0, 0, 1, 0, b, 0, 0, 0, 1, 0])
        case .colorContrast:
            // About mid-grey: (c − ½)·k + ½.
            let k = f.inputAmount, o = 0.5 * (1 - k)
            self.init([k, 0, 0, 0, o, 0, k, 0, 0, o, 0, 0, k, 0, o, 0, 0, 0, 1, 0])
        case .colorHueRotate:
            // SVG feColorMatrix type="hueRotate".
            let c = cos(f.inputAngle), s = sin(f.inputAngle)
            self.init([0.213 + c * 0.787 - s * 0.213, 0.715 - c * 0.715 - s * 0.715, 0.072 - c * 0.072 + s * 0.928, 0, 0,
                       0.213 - c * 0.213 + s * 0.143, 0.715 + c * 0.285 + s * 0.140, 0.072 - c * 0.072 - s * 0.283, 0, 0,
                       0.213 - c * 0.213 - s * 0.787, 0.715 - c * 0.715 + s * 0.715, 0.072 + c * 0.928 + s * 0.072, 0, 0,
                       0, 0, 0, 1, 0])
        case .colorInvert:
            self.init([-1, 0, 0, 0, 1, 0, -1, 0, 0, 1, 0, 0, -1, 0, 1, 0, 0, 0, 1, 0])
        case .colorMonochrome:
            // CIColorMonochrome: the luma (Rec. 709) times the colour, mixed with the original by the intensity.
            let k = min(max(f.inputAmount, 0), 1), t = f.inputColor
            let w = [0.2126, 0.7152, 0.0722]
            var m = [Double](repeating: 0, count: 20)
            for (i, c) in [t.red, t.green, t.blue].enumerated() {
                for j in 0..<3 { m[i * 5 + j] = k * c * w[j] + (i == j ? 1 - k : 0) }
            }
            m[18] = 1
            self.init(m)
        case .luminanceToAlpha:
            // SVG feColorMatrix type="luminanceToAlpha": black with alpha = luminance.
            self.init([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.2125, 0.7154, 0.0721, 0, 0])
        case .multiplyColor:
            let c = f.inputColor
            self.init([c.red, 0, 0, 0, 0, 0, c.green, 0, 0, 0, 0, 0, c.blue, 0, 0, 0, 0, 0, c.alpha, 0])
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
