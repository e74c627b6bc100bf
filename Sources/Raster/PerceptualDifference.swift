#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The image comparison of lottie-ios's snapshot tests (swift-snapshot-testing's
/// `perceptualPrecision`), the rule lottie-ios's Core Animation snapshots are judged by:
///
/// - per pixel, the CIE ΔE 1994 colour difference, graphic-arts constants (kL = kC = kH = 1,
///   K1 = 0.045, K2 = 0.015), between the two images' pixels, each composited over white and over
///   black; the pixel's difference is the larger of the two;
/// - a pixel passes when its difference is at most `pixelThreshold` (3: perceptualPrecision 0.97
///   → (1 − 0.97) × 100);
/// - a frame passes when the share of passing pixels is at least `precision` (0.985 by default).
///
/// **Compositing.** From the 8-bit values, in floating point, on the encoded values (as a Core
/// Graphics sRGB context blends): over black a straight-alpha channel c at alpha a is c·a/255²,
/// over white c·a/255² + 1 − a/255. A premultiplied channel p (what `Bitmap` holds) is already
/// c·a/255, so `Bitmap`s are composited without un-premultiplying (no rounding added). A
/// transparent pixel is black over black and white over white whatever its colour bytes, so it
/// matches only another transparent pixel: against opaque black it differs by ΔE 100 over white.
///
/// **Transfer (`Transfer`).** The default, `.unmanaged`, is what swift-snapshot-testing computes:
/// it runs Core Image's `CILabDeltaE` in a `CIContext` whose working and output colour spaces are
/// `NSNull` (colour management off), so the 8-bit sRGB-encoded values reach the filter's
/// RGB → Lab conversion unconverted and are taken as linear light. That is what makes the rule's
/// known consequence true: one 8-bit step near black is L* = 903.3 · (1/255) = 3.54 > 3 and fails
/// (as does white at alpha 1/255 against transparent, over black), while one step in a mid grey is
/// about 0.24. `.sRGB` decodes the encoded values to linear light first (the 256-entry table for
/// opaque pixels, the sRGB curve otherwise): colorimetrically right, but there one step near black is
/// only 0.27 and passes, so it does *not* reproduce lottie-ios's verdicts; it is kept for
/// golden-frame checks that want a perceptual rather than a lottie-compatible tolerance.
///
/// **Lab.** Linear RGB → XYZ with the sRGB (ITU-R BT.709 primaries, D65) matrix as Bruce Lindbloom
/// tabulates it, then CIE 1976 L*a*b* (ε = 216/24389, κ = 24389/27) relative to the D65 white
/// Xn = 0.95047, Yn = 1, Zn = 1.08883, the matrix's row sums, so RGB (1, 1, 1) is exactly L* 100,
/// a* = b* = 0 and every grey has a* = b* = 0. D65 because it is sRGB's own white: no chromatic
/// adaptation is applied (an ICC-style D50 Lab would need a Bradford step; greys come out the same
/// either way, saturated colours shift a* and b* by a few units). Apple does not publish
/// `CILabDeltaE`'s white point; Core Image's working space is linear sRGB (D65).
///
/// **Reference.** ΔE 1994 is not symmetrical: the chroma weights use the first argument's chroma.
/// `compare(reference, candidate)` takes the reference (the truth PNG, the golden frame) first.
///
/// Speed: pixels whose bytes are equal cost no Lab math (16 bytes compared at a time); the Lab of
/// the last distinct pixel of each image is cached (runs of one colour along a differing edge).
public enum PerceptualComparison {
    /// lottie-ios's thresholds: ΔE ≤ 3 passes a pixel, 98.5 % passing pixels pass a frame.
    public static let defaultPixelThreshold: Double = 3
    public static let defaultPrecision: Double = 0.985

    /// A CIE L*a*b* colour (L* 0…100).
    public struct Lab: Equatable, Sendable {
        public var l: Double, a: Double, b: Double
        public init(l: Double, a: Double, b: Double) { self.l = l; self.a = a; self.b = b }
    }

    /// How the encoded 8-bit values become the linear RGB that enters XYZ (see the type's comment).
    public enum Transfer: Sendable {
        /// Encoded values taken as linear, as Core Image does with colour management off
        /// (swift-snapshot-testing's context): reproduces lottie-ios's verdicts.
        case unmanaged
        /// Encoded values decoded with the sRGB curve first (colorimetric).
        case sRGB
    }

    /// How an RGBA8 buffer stores colour: premultiplied (`Bitmap`) or straight (a PNG's bytes).
    public enum AlphaMode: Sendable { case premultiplied, straight }

    /// RGBA8 pixels, rows top to bottom, no padding, with their alpha convention.
    public struct Pixels: Sendable {
        public var width: Int, height: Int
        public var bytes: [UInt8]
        public var alpha: AlphaMode
        public init(width: Int, height: Int, bytes: [UInt8], alpha: AlphaMode) {
            precondition(width >= 0 && height >= 0 && bytes.count == width * height * 4,
                         "PerceptualComparison.Pixels: byte count does not match size")
            self.width = width; self.height = height; self.bytes = bytes; self.alpha = alpha
        }
        /// A `Bitmap`'s premultiplied pixels (shared, not copied).
        public init(_ bitmap: Bitmap) {
            self.init(width: bitmap.width, height: bitmap.height, bytes: bitmap.pixels, alpha: .premultiplied)
        }
    }

    /// A pixel rectangle (the bounding box of the failing pixels).
    public struct PixelRect: Equatable, Sendable {
        public var x: Int, y: Int, width: Int, height: Int
        public init(x: Int, y: Int, width: Int, height: Int) { self.x = x; self.y = y; self.width = width; self.height = height }
    }

    /// The outcome of one comparison.
    public struct Result: Equatable, Sendable {
        /// Sizes of reference and candidate when they differ (then nothing was compared and the
        /// frame fails); nil when they are equal.
        public var sizeMismatch: (reference: PixelSize, candidate: PixelSize)? {
            mismatch.map { ($0.0, $0.1) }
        }
        public struct PixelSize: Equatable, Sendable {
            public var width: Int, height: Int
            public init(width: Int, height: Int) { self.width = width; self.height = height }
        }
        var mismatch: (PixelSize, PixelSize)?
        public var width: Int
        public var height: Int
        public var totalPixels: Int { width * height }
        /// Pixels whose difference is over the threshold.
        public var failingPixels: Int
        /// Pixels whose ΔE was computed: those whose bytes differ (every pixel when one buffer is
        /// premultiplied and the other straight).
        public var differingPixels: Int
        /// The largest per-pixel difference (ΔE 1994, max over white and black).
        public var maxDeltaE: Double
        /// The smallest rectangle holding every failing pixel; nil when none fails.
        public var failingBounds: PixelRect?
        /// Per-pixel ΔE, row-major (only when asked for with `recordDeltaE`; otherwise empty).
        public var deltaE: [Float]
        /// The threshold the pixels were judged by.
        public var pixelThreshold: Double

        /// Share of pixels that pass (1 for an empty image; 0 when the sizes differ).
        public var passingShare: Double {
            if mismatch != nil { return 0 }
            let n = totalPixels
            return n == 0 ? 1 : Double(n - failingPixels) / Double(n)
        }
        /// The frame passes when sizes match and at least `precision` of its pixels pass.
        public func passes(precision: Double = PerceptualComparison.defaultPrecision) -> Bool {
            mismatch == nil && passingShare >= precision
        }

        public static func == (l: Result, r: Result) -> Bool {
            l.mismatch?.0 == r.mismatch?.0 && l.mismatch?.1 == r.mismatch?.1 && l.width == r.width && l.height == r.height
                && l.failingPixels == r.failingPixels && l.differingPixels == r.differingPixels
                && l.maxDeltaE == r.maxDeltaE && l.failingBounds == r.failingBounds && l.deltaE == r.deltaE
                && l.pixelThreshold == r.pixelThreshold
        }
    }

    // MARK: - Comparing images

    /// Compares two premultiplied `Bitmap`s. `reference` is the truth (ΔE 1994 weights its chroma).
    public static func compare(_ reference: Bitmap, _ candidate: Bitmap,
                               pixelThreshold: Double = defaultPixelThreshold,
                               transfer: Transfer = .unmanaged, recordDeltaE: Bool = false) -> Result {
        compare(Pixels(reference), Pixels(candidate), pixelThreshold: pixelThreshold,
                transfer: transfer, recordDeltaE: recordDeltaE)
    }

    /// Compares two RGBA8 buffers, each premultiplied or straight. Sizes that differ give a result
    /// with `sizeMismatch` set that does not pass.
    public static func compare(_ reference: Pixels, _ candidate: Pixels,
                               pixelThreshold: Double = defaultPixelThreshold,
                               transfer: Transfer = .unmanaged, recordDeltaE: Bool = false) -> Result {
        let w = reference.width, h = reference.height
        var result = Result(mismatch: nil, width: w, height: h, failingPixels: 0, differingPixels: 0,
                            maxDeltaE: 0, failingBounds: nil, deltaE: [], pixelThreshold: pixelThreshold)
        guard w == candidate.width, h == candidate.height else {
            result.mismatch = (.init(width: w, height: h), .init(width: candidate.width, height: candidate.height))
            result.width = 0; result.height = 0
            return result
        }
        // Equal bytes mean equal colours only when both buffers use one alpha convention.
        let sameConvention = reference.alpha == candidate.alpha
        var map = recordDeltaE ? [Float](repeating: 0, count: w * h) : []
        var failing = 0, differing = 0, maxE = 0.0
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        let refConv = Converter(alpha: reference.alpha, transfer: transfer)
        let candConv = Converter(alpha: candidate.alpha, transfer: transfer)
        reference.bytes.withUnsafeBytes { ra in
            candidate.bytes.withUnsafeBytes { ca in
                map.withUnsafeMutableBufferPointer { m in
                    var refCache = LabCache(), candCache = LabCache()
                    let rowBytes = w * 4
                    for y in 0..<h {
                        let row = y * rowBytes
                        var x = 0
                        while x < w {
                            let o = row + x * 4
                            if sameConvention {
                                // Four pixels at a time while their bytes are equal.
                                if x + 4 <= w,
                                   ra.loadUnaligned(fromByteOffset: o, as: UInt64.self) == ca.loadUnaligned(fromByteOffset: o, as: UInt64.self),
                                   ra.loadUnaligned(fromByteOffset: o + 8, as: UInt64.self) == ca.loadUnaligned(fromByteOffset: o + 8, as: UInt64.self) {
                                    x += 4; continue
                                }
                            }
                            let pr = UInt32(littleEndian: ra.loadUnaligned(fromByteOffset: o, as: UInt32.self))
                            let pc = UInt32(littleEndian: ca.loadUnaligned(fromByteOffset: o, as: UInt32.self))
                            if sameConvention && pr == pc { x += 1; continue }
                            differing += 1
                            let lr = refCache.lab(pr, refConv), lc = candCache.lab(pc, candConv)
                            var d = deltaE94(lab1: lr.white, lab2: lc.white)
                            if !(lr.opaque && lc.opaque) { d = max(d, deltaE94(lab1: lr.black, lab2: lc.black)) }
                            if recordDeltaE { m[y * w + x] = Float(d) }
                            if d > maxE { maxE = d }
                            if d > pixelThreshold {
                                failing += 1
                                if x < minX { minX = x }
                                if x > maxX { maxX = x }
                                if y < minY { minY = y }
                                maxY = y
                            }
                            x += 1
                        }
                    }
                }
            }
        }
        result.failingPixels = failing
        result.differingPixels = differing
        result.maxDeltaE = maxE
        if maxX >= 0 { result.failingBounds = PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1) }
        result.deltaE = map
        return result
    }

    /// The difference of one pair of RGBA8 pixels by the pass rule: ΔE 1994 of their composites over
    /// white and over black, the larger. `reference` is the first.
    public static func pixelDifference(_ reference: (UInt8, UInt8, UInt8, UInt8), _ candidate: (UInt8, UInt8, UInt8, UInt8),
                                       alpha: AlphaMode = .straight, transfer: Transfer = .unmanaged) -> Double {
        let conv = Converter(alpha: alpha, transfer: transfer)
        func pack(_ p: (UInt8, UInt8, UInt8, UInt8)) -> UInt32 {
            UInt32(p.0) | UInt32(p.1) << 8 | UInt32(p.2) << 16 | UInt32(p.3) << 24
        }
        let r = conv.labs(pack(reference)), c = conv.labs(pack(candidate))
        return max(deltaE94(lab1: r.white, lab2: c.white), deltaE94(lab1: r.black, lab2: c.black))
    }

    // MARK: - Colour science (exposed for tests)

    /// CIE ΔE 1994 with the graphic-arts constants (kL = kC = kH = 1, K1 = 0.045, K2 = 0.015);
    /// `lab1` is the reference (SC = 1 + K1·C*₁, SH = 1 + K2·C*₁).
    @inline(__always)
    public static func deltaE94(lab1: Lab, lab2: Lab) -> Double {
        let dL = lab1.l - lab2.l
        let c1 = (lab1.a * lab1.a + lab1.b * lab1.b).squareRoot()
        let c2 = (lab2.a * lab2.a + lab2.b * lab2.b).squareRoot()
        let dC = c1 - c2
        let da = lab1.a - lab2.a, db = lab1.b - lab2.b
        let dH2 = max(0, da * da + db * db - dC * dC)
        let sC = 1 + 0.045 * c1, sH = 1 + 0.015 * c1
        let tC = dC / sC
        return (dL * dL + tC * tC + dH2 / (sH * sH)).squareRoot()
    }

    /// The D65 white the Lab conversion is relative to (the sRGB matrix's row sums).
    public static let whiteD65 = (x: m00 + m01 + m02, y: m10 + m11 + m12, z: m20 + m21 + m22)

    /// An opaque sRGB8 colour in Lab (D65), through `transfer` (see the type's comment).
    public static func lab(r: UInt8, g: UInt8, b: UInt8, transfer: Transfer = .sRGB) -> Lab {
        switch transfer {
        case .sRGB: return lab(linearR: sRGBToLinear[Int(r)], g: sRGBToLinear[Int(g)], b: sRGBToLinear[Int(b)])
        case .unmanaged: return lab(linearR: Double(r) / 255, g: Double(g) / 255, b: Double(b) / 255)
        }
    }

    /// Linear sRGB (D65) → XYZ → Lab relative to `whiteD65`.
    @inline(__always)
    public static func lab(linearR r: Double, g: Double, b: Double) -> Lab {
        // The matrix rows divided by the white: X/Xn, Y/Yn, Z/Zn directly.
        let x = n00 * r + n01 * g + n02 * b
        let y = n10 * r + n11 * g + n12 * b
        let z = n20 * r + n21 * g + n22 * b
        let fx = f(x), fy = f(y), fz = f(z)
        return Lab(l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
    }

    /// CIE XYZ (Y of the white = 1) → Lab relative to `white`.
    public static func lab(x: Double, y: Double, z: Double,
                           white: (x: Double, y: Double, z: Double) = whiteD65) -> Lab {
        let fx = f(x / white.x), fy = f(y / white.y), fz = f(z / white.z)
        return Lab(l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
    }

    /// The sRGB decoding curve (IEC 61966-2-1) of an encoded value in 0…1.
    public static func sRGBDecode(_ v: Double) -> Double {
        v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    /// `sRGBDecode(i / 255)` for every 8-bit value.
    public static let sRGBToLinear: [Double] = (0..<256).map { sRGBDecode(Double($0) / 255) }

    // sRGB → XYZ (D65), Bruce Lindbloom, "RGB/XYZ Matrices" (brucelindbloom.com).
    static let m00 = 0.4124564, m01 = 0.3575761, m02 = 0.1804375
    static let m10 = 0.2126729, m11 = 0.7151522, m12 = 0.0721750
    static let m20 = 0.0193339, m21 = 0.1191920, m22 = 0.9503041
    static let n00 = m00 / whiteD65.x, n01 = m01 / whiteD65.x, n02 = m02 / whiteD65.x
    static let n10 = m10 / whiteD65.y, n11 = m11 / whiteD65.y, n12 = m12 / whiteD65.y
    static let n20 = m20 / whiteD65.z, n21 = m21 / whiteD65.z, n22 = m22 / whiteD65.z

    /// CIE 1976's f: t^(1/3) above ε = 216/24389, (κ·t + 16)/116 below (κ = 24389/27).
    @inline(__always)
    static func f(_ t: Double) -> Double {
        t > 216.0 / 24389.0 ? cubeRoot(t) : (24389.0 / 27.0 * t + 16) / 116
    }

    /// ∛x for positive finite x, without libm (whose cbrt was 60 % of a comparison's time): a first
    /// guess from the exponent bits (within 3.3 %), then two Halley steps (cubic convergence), within
    /// 1e-14 of `cbrt` relatively over 0.008…4 (the tests check it against `cbrt`).
    @inline(__always)
    static func cubeRoot(_ x: Double) -> Double {
        var y = Double(bitPattern: x.bitPattern / 3 &+ 0x2A9F_7893_782D_A1CE)
        var y3 = y * y * y
        y = y * (y3 + 2 * x) / (2 * y3 + x)
        y3 = y * y * y
        return y * (y3 + 2 * x) / (2 * y3 + x)
    }

    // MARK: - Per-pixel composites

    /// A pixel's composites over white and over black, in Lab.
    struct PixelLab {
        var white: Lab, black: Lab, opaque: Bool
    }

    /// Turns a packed RGBA8 pixel (r in the low byte) into its composites' Lab.
    struct Converter {
        let alpha: AlphaMode, transfer: Transfer

        @inline(__always)
        func labs(_ p: UInt32) -> PixelLab {
            let r = p & 0xff, g = (p >> 8) & 0xff, b = (p >> 16) & 0xff, a = p >> 24
            if a == 0 {
                return PixelLab(white: Lab(l: 100, a: 0, b: 0), black: Lab(l: 0, a: 0, b: 0), opaque: false)
            }
            if a == 255 {
                let lab = PerceptualComparison.lab(r: UInt8(r), g: UInt8(g), b: UInt8(b), transfer: transfer)
                return PixelLab(white: lab, black: lab, opaque: true)
            }
            // Over black: the premultiplied value, exactly (straight: c·a/255², no rounding).
            let kr: Double, kg: Double, kb: Double
            switch alpha {
            case .premultiplied:
                kr = Double(r) / 255; kg = Double(g) / 255; kb = Double(b) / 255
            case .straight:
                let s = Double(a) / (255 * 255)
                kr = Double(r) * s; kg = Double(g) * s; kb = Double(b) * s
            }
            let rest = 1 - Double(a) / 255
            let wr = kr + rest, wg = kg + rest, wb = kb + rest
            switch transfer {
            case .unmanaged:
                return PixelLab(white: lab(linearR: wr, g: wg, b: wb), black: lab(linearR: kr, g: kg, b: kb), opaque: false)
            case .sRGB:
                return PixelLab(white: lab(linearR: sRGBDecode(wr), g: sRGBDecode(wg), b: sRGBDecode(wb)),
                                black: lab(linearR: sRGBDecode(kr), g: sRGBDecode(kg), b: sRGBDecode(kb)), opaque: false)
            }
        }
    }

    /// The last pixel converted and its Lab (a differing edge is often one colour along a run).
    struct LabCache {
        var key: UInt32 = 0
        var value: PixelLab? = nil
        @inline(__always)
        mutating func lab(_ p: UInt32, _ conv: Converter) -> PixelLab {
            if let v = value, key == p { return v }
            let v = conv.labs(p)
            key = p; value = v
            return v
        }
    }

    // MARK: - Diff image

    /// A heat map of `result.deltaE` (recorded with `recordDeltaE: true`): opaque; equal pixels
    /// black, passing differences dark blue to light blue with ΔE up to the threshold, failing ones
    /// red to yellow with ΔE from the threshold to 10 × the threshold. Nil without a recorded map.
    public static func heatMap(_ result: Result) -> Bitmap? {
        let n = result.totalPixels
        guard result.mismatch == nil, n > 0, result.deltaE.count == n else { return nil }
        let t = Float(result.pixelThreshold)
        var px = [UInt8](repeating: 0, count: n * 4)
        for i in 0..<n {
            let d = result.deltaE[i]
            let o = i * 4
            px[o + 3] = 255
            if d <= 0 { continue }
            if d <= t {
                let s = t > 0 ? d / t : 1
                px[o] = 0; px[o + 1] = UInt8(min(255, 40 + 120 * s)); px[o + 2] = UInt8(min(255, 90 + 165 * s))
            } else {
                let s = min(1, (d - t) / max(9 * t, 1e-6))
                px[o] = 255; px[o + 1] = UInt8(min(255, 255 * s)); px[o + 2] = 0
            }
        }
        return Bitmap(width: result.width, height: result.height, pixels: px)
    }
}
