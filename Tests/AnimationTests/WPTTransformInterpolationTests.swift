import XCTest
@testable import Animation
import Geometry

/// `transform` interpolation checked against web-platform-tests (web-platform-tests/wpt,
/// css/css-transforms/animation/*.html): (from, to, progress, expected) tables transcribed by hand.
///
/// Core Animation interpolates whole matrices (reference §5.3), so only cases where CSS also
/// interpolates whole matrices are taken: `matrix()`/`matrix3d()` endpoints, mismatched function
/// lists (which CSS converts to matrices), and per-function cases whose result equals the matrix
/// decomposition (scales, translations, rotations of less than a half-turn apart, rotations about
/// different axes, which CSS slerps exactly as decomposition does). Left out, because CSS
/// interpolates the function's number while Core Animation's matrices take the shortest arc or
/// lerp a shear factor: `rotate(30deg) → rotate(330deg)`, multi-turn rotations (`rotateX(700deg)`,
/// `rotate3d(0,1,0,450deg)`), `rotate: 100deg → -100deg`, `skewX(10rad) → skewX(20rad)`,
/// `perspective(400px) → perspective(500px)`, half-turns from `none` (whose direction matrices
/// cannot tell), `scaleX(0) → scaleY(0)` (singular ends), and percentage/em lengths.
///
/// CSS's `matrix(a, b, c, d, e, f)` is our m11 = a, m12 = b, m21 = c, m22 = d, m41 = e, m42 = f,
/// and `matrix3d`'s 16 column-major arguments are m11 … m44 in order. A CSS list "f g" applies
/// g first, so its row-vector matrix is g · f. The CSS functions below follow CSS Transforms 1/2's
/// definitions; expected values are WPT's, converted with them.
final class WPTTransformInterpolationTests: XCTestCase {

    // MARK: CSS transform functions (definitions from CSS Transforms 1/2)

    enum CSS {
        static let none: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        static func matrix(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) -> [Double] {
            [a, b, 0, 0, c, d, 0, 0, 0, 0, 1, 0, e, f, 0, 1]
        }
        static func matrix3d(_ m: Double...) -> [Double] { precondition(m.count == 16); return m }
        static func translate3d(_ x: Double, _ y: Double, _ z: Double) -> [Double] {
            [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1]
        }
        static func translateX(_ x: Double) -> [Double] { translate3d(x, 0, 0) }
        static func scale3d(_ x: Double, _ y: Double, _ z: Double) -> [Double] {
            [x, 0, 0, 0, 0, y, 0, 0, 0, 0, z, 0, 0, 0, 0, 1]
        }
        static func scale(_ x: Double, _ y: Double) -> [Double] { scale3d(x, y, 1) }
        static func skewX(rad a: Double) -> [Double] { matrix(1, 0, tan(a), 1, 0, 0) }
        /// perspective(d): the column-vector matrix has −1/d at row 4, column 3, i.e. m34.
        static func perspective(_ d: Double) -> [Double] {
            [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1 / d, 0, 0, 0, 1]
        }
        /// rotate3d(x, y, z, α) per CSS Transforms 2 (axis normalised; sc = sin(α/2)cos(α/2),
        /// sq = sin²(α/2)), written column-major as matrix3d's arguments.
        static func rotate3d(_ x: Double, _ y: Double, _ z: Double, deg: Double) -> [Double] {
            let n = (x * x + y * y + z * z).squareRoot()
            let (x, y, z) = (x / n, y / n, z / n)
            let a = deg * .pi / 180
            let sc = sin(a / 2) * cos(a / 2), sq = sin(a / 2) * sin(a / 2)
            return [
                1 - 2 * (y * y + z * z) * sq, 2 * (x * y * sq + z * sc), 2 * (x * z * sq - y * sc), 0,
                2 * (x * y * sq - z * sc), 1 - 2 * (x * x + z * z) * sq, 2 * (y * z * sq + x * sc), 0,
                2 * (x * z * sq + y * sc), 2 * (y * z * sq - x * sc), 1 - 2 * (x * x + y * y) * sq, 0,
                0, 0, 0, 1,
            ]
        }
        static func rotate(deg: Double) -> [Double] { rotate3d(0, 0, 1, deg: deg) }
        /// A function list "f₁ f₂ … fₙ": fₙ applies first, so the row-vector product is fₙ · … · f₁.
        static func list(_ fs: [Double]...) -> [Double] {
            var m = Transform3D(none)
            for f in fs { m = Transform3D(f) * m }
            return m.elements
        }
    }

    struct Block {
        let source: String
        let from: [Double]
        let to: [Double]
        /// (progress, expected matrix, absolute tolerance scaled by max(1, |expected|)).
        let samples: [(at: Double, expect: [Double], tolerance: Double)]
    }

    static let cos30 = cos(Double.pi / 6), sin30 = sin(Double.pi / 6)
    static let cos45 = cos(Double.pi / 4), sin45 = sin(Double.pi / 4)
    static let cos60 = cos(Double.pi / 3), sin60 = sin(Double.pi / 3)
    static let exact = 1e-9
    /// WPT values printed with about six significant digits.
    static let sixDigits = 1e-4
    /// WPT values whose printed digits are themselves approximate in the fourth place.
    static let fourDigits = 1e-3
    /// WPT values printed with two decimals (axes such as 0.41, entries such as 0.31).
    static let twoDecimals = 0.03

    // MARK: transform-interpolation-005.html (matrix() and matrix3d() endpoints)

    static let wpt005: [Block] = {
        let f = "transform-interpolation-005.html"
        let a = CSS.matrix(1, 0, 0, 1, 0, -6), b = CSS.matrix(0, 7, -1, 0, 6, 0)
        let third = CSS.matrix(3 * cos30, 3 * sin30, -sin30, cos30, 2, -4)
        let half = CSS.matrix(4 * cos45, 4 * sin45, -sin45, cos45, 3, -3)
        let twoThirds = CSS.matrix(5 * cos60, 5 * sin60, -sin60, cos60, 4, -2)
        let r3d = CSS.matrix3d(1.0806046117362795, 0, -1.682941969615793, 0, 0, 3, 0, 0, 3.365883939231586, 0, 2.161209223472559, 0, 0, 0, 0, 1)
        let r3dAtMinus1 = CSS.matrix3d(0, 0, 0, 0, 0, -1, 0, 0, 1.682941969615793, 0, -1.0806046117362795, 0, 0, 0, 0, 1)
        let r3dAtQuarter = CSS.matrix3d(1.211140527138306, 0, -0.30925494906815365, 0, 0, 1.5, 0, 0, 0.43295692869541513, 0, 1.6955967379936283, 0, 0, 0, 0, 1)
        let r3dAtThreeQuarters = CSS.matrix3d(1.2804555205291865, 0, -1.1928678300408346, 0, 0, 2.5, 0, 0, 2.215325970075836, 0, 2.377988823839918, 0, 0, 0, 0, 1)
        let r3dAt2 = CSS.matrix3d(-1.2484405096414273, 0, -2.727892280477045, 0, 0, 5, 0, 0, 6.365081987779772, 0, -2.9130278558299967, 0, 0, 0, 0, 1)
        let s1 = CSS.matrix3d(2.3505561943, 0.0, 0.0, 0.0, 0.0, 2.6068943664, 0.0, 0.0, 0.0, 0.0, 2.6591082592, 0.0, 20.3339914256, 20.6709033765, 20.9147808456, 1.0)
        let s2 = CSS.matrix3d(2.7133590938, 0.0, 0.0, 0.0, 0.0, 2.4645137761, 0.0, 0.0, 0.0, 0.0, 2.801687476, 0.0, 20.4335882254, 20.2330661998, 20.4583968206, 1.0)
        let p1 = CSS.matrix3d(0, 0.6875, -0.625, 0.3125, -0.6666666666666665, -1, 0.8333333333333334, 0.125, -0.6666666666666665, 0, 0.5, 1.0625, -1.1875, -0.0625, 1.3125, 1)
        let p2 = CSS.matrix3d(0.571428571428571, -0.625, -0.8333333333333346, -0.66666666666669, 0.5, -0.1875, -0.8125, 0.3125, 0.34375, -1, 0.8333333333333327, 1.34375, -1.34375, 1, -0.9375, 1)
        return [
            Block(source: f + " translateY(-6px) → translateX(6px) rotate(90deg) scaleX(7)", from: a, to: b, samples: [
                (-1, CSS.matrix(0, 5, 1, 0, -6, -12), exact), (0, a, exact), (1.0 / 3, third, exact), (0.5, half, exact),
                (2.0 / 3, twoThirds, exact), (1, b, exact), (2, CSS.matrix(-13, 0, 0, -1, 12, 6), exact),
            ]),
            Block(source: f + " translateX(6px) rotate(90deg) scaleX(7) → translateY(-6px)", from: b, to: a, samples: [
                (-1, CSS.matrix(-13, 0, 0, -1, 12, 6), exact), (0, b, exact), (1.0 / 3, twoThirds, exact), (0.5, half, exact),
                (2.0 / 3, third, exact), (1, a, exact), (2, CSS.matrix(0, 5, 1, 0, -6, -12), exact),
            ]),
            Block(source: f + " scaleY(7) → skewX(45deg) scaleX(7)", from: CSS.matrix(1, 0, 0, 7, 0, 0), to: CSS.matrix(7, 0, 1, 1, 0, 0), samples: [
                (-1, CSS.matrix(-5, 0, -13, 13, 0, 0), exact), (0, CSS.matrix(1, 0, 0, 7, 0, 0), exact),
                (1.0 / 3, CSS.matrix(3, 0, 1.6667, 5, 0, 0), sixDigits), (0.5, CSS.matrix(4, 0, 2, 4, 0, 0), exact),
                (2.0 / 3, CSS.matrix(5, 0, 2, 3, 0, 0), exact), (1, CSS.matrix(7, 0, 1, 1, 0, 0), exact),
                (2, CSS.matrix(13, 0, -10, -5, 0, 0), exact),
            ]),
            Block(source: f + " none → translateX(6px) skewX(45deg) scaleX(7) scaleY(2)", from: CSS.none, to: CSS.matrix(7, 0, 2, 2, 6, 0), samples: [
                (-1, CSS.matrix(-5, 0, 0, 0, -6, 0), exact), (0, CSS.matrix(1, 0, 0, 1, 0, 0), exact),
                (0.25, CSS.matrix(2.5, 0, 0.31, 1.25, 1.5, 0), twoDecimals), (0.5, CSS.matrix(4, 0, 0.75, 1.5, 3, 0), exact),
                (0.75, CSS.matrix(5.5, 0, 1.31, 1.75, 4.5, 0), twoDecimals), (1, CSS.matrix(7, 0, 2, 2, 6, 0), exact),
                (2, CSS.matrix(13, 0, 6, 3, 12, 0), exact),
            ]),
            Block(source: f + " translateY(-6px) scale(3, 5) → none", from: CSS.matrix(3, 0, 0, 5, 0, -6), to: CSS.none, samples: [
                (-1, CSS.matrix(5, 0, 0, 9, 0, -12), exact), (0, CSS.matrix(3, 0, 0, 5, 0, -6), exact),
                (0.25, CSS.matrix(2.5, 0, 0, 4, 0, -4.5), exact), (0.5, CSS.matrix(2, 0, 0, 3, 0, -3), exact),
                (0.75, CSS.matrix(1.5, 0, 0, 2, 0, -1.5), exact), (1, CSS.matrix(1, 0, 0, 1, 0, 0), exact),
                (2, CSS.matrix(-1, 0, 0, -3, 0, 6), exact),
            ]),
            Block(source: f + " none → matrix3d(rotateY + scale)", from: CSS.none, to: r3d, samples: [
                (-1, r3dAtMinus1, exact), (0, CSS.none, exact), (0.25, r3dAtQuarter, exact),
                (0.75, r3dAtThreeQuarters, exact), (1, r3d, exact), (2, r3dAt2, exact),
            ]),
            Block(source: f + " matrix3d(rotateY + scale) → none", from: r3d, to: CSS.none, samples: [
                (-1, r3dAt2, exact), (0, r3d, exact), (0.25, r3dAtThreeQuarters, exact),
                (0.75, r3dAtQuarter, exact), (1, CSS.none, exact), (2, r3dAtMinus1, exact),
            ]),
            Block(source: f + " matrix3d(scale + translate) → matrix3d(scale + translate)", from: s1, to: s2, samples: [
                (-1, CSS.matrix3d(1.9877532948000005, 0.0, 0.0, 0.0, 0.0, 2.7492749567000003, 0.0, 0.0, 0.0, 0.0, 2.5165290423999997, 0.0, 20.2343946258, 21.1087405532, 21.371164870599998, 1.0), exact),
                (0, s1, exact),
                (0.25, CSS.matrix3d(2.441256919175, 0.0, 0.0, 0.0, 0.0, 2.571299218825, 0.0, 0.0, 0.0, 0.0, 2.6947530634, 0.0, 20.35889062555, 20.561444082325, 20.800684839349998, 1.0), exact),
                (0.75, CSS.matrix3d(2.622658368925, 0.0, 0.0, 0.0, 0.0, 2.500108923675, 0.0, 0.0, 0.0, 0.0, 2.7660426718, 0.0, 20.408689025450002, 20.342525493975, 20.572492826850002, 1.0), exact),
                (1, s2, exact),
                (2, CSS.matrix3d(3.0761619932999995, 0.0, 0.0, 0.0, 0.0, 2.3221331858, 0.0, 0.0, 0.0, 0.0, 2.9442666928000003, 0.0, 20.5331850252, 19.7952290231, 20.002012795600002, 1.0), exact),
            ]),
            Block(source: f + " none → matrix3d(with perspective)", from: CSS.none, to: p1, samples: [
                (-1, CSS.matrix3d(-0.0000000000000002377810622383943, -1.0671050586638147, -0.08972656766237302, 1.3740432449326199, 0.98484601036295, -2.653201092395309, 0.6753819540610847, 3.6127240080250744, -2.7988839807429846, -1.2090004194153336, -0.5183744226115445, -0.7936088631686278, 1.1875, 0.0625, -1.3125, 5.340768914473683), exact),
                (0, CSS.none, exact),
                (0.25, CSS.matrix3d(0.9041890962319094, 0.3522701519297133, -0.15240204298176957, -0.1428256720529315, -0.7579798772527586, 0.6803606288839232, -0.05133336076757235, 0.37904689530895724, -0.1957679784745485, 0.38554138029509327, 0.8226186974340638, 0.3370288143441876, -0.296875, -0.015625, 0.328125, 0.5930529142680923), exact),
                (0.75, CSS.matrix3d(0.35007413226026135, 0.7254385504141292, -0.4977009150941454, 0.09582061929004702, -1.1027525038949482, -0.5884810398827429, 0.4516829688651701, 0.5447944343861767, -0.68717798815684, 0.2657772247405681, 0.5465690479810023, 1.0836207863885503, -0.890625, -0.046875, 0.984375, 0.5930529142680927), exact),
                (1, p1, exact),
                (2, CSS.matrix3d(-0.5844534449366048, -0.42278005999296053, -0.4650580659922564, -0.6817595809063256, 0.9156938760088464, 0.3851647027225889, 0.9244443507516923, 0.7218225020358241, -0.0803568793574344, 0.1719974850210706, -0.49676609633513097, -0.25968177786904373, -2.375, -0.125, 2.625, 5.340768914473685), exact),
            ]),
            Block(source: f + " matrix3d(with perspective) → matrix3d(with perspective)", from: p1, to: p2, samples: [
                (-1, CSS.matrix3d(-0.6299594065765657, -0.10825090106268696, -0.20133311671001855, 5.485724217214554, 6.358051978686152, 0.16496896269344588, 1.5760051143537075, -54.21568355620423, 0.7106057459805782, -1.1596356050622005, -0.11495342545397585, -4.913752963990824, -1.03125, -1.125, 3.5625, -5.901513951904114), exact),
                (0, p1, exact),
                (0.25, CSS.matrix3d(0.33652832679595723, 0.55254445148386, -0.7544724447833296, 0.22700224951774267, -0.69720168363685, -0.036373245768780864, 0.28149188169180933, -0.2845156818045006, -0.24737156018941048, 0.31207160370190334, 0.4564821058052897, 0.9220853089096839, -1.2265625, 0.203125, 0.75, 1.647016932991011), exact),
                (0.75, CSS.matrix3d(0.6861191524977764, -0.18025672746204927, -0.8710297237546482, 0.6072134247444672, 0.2819931018922366, 0.27778974607679663, -0.6540128246146626, 0.5063632314069845, 0.5509562084361049, -0.3215202993119732, 0.5459062603735321, 2.8697154005492105, -1.3046875, 0.734375, -0.375, 1.6470169329910096), exact),
                (1, p2, exact),
                (2, CSS.matrix3d(-1.1789992641434441, -0.7109729379601547, -0.4455746537954199, -21.703089533128907, -0.11137581475421703, -0.08822983871000473, -0.05695380894007451, -2.22667264132605, -3.1443917136741506, 1.8952588096345078, 2.426615889772007, -21.697523130750138, -1.5, 2.0625, -3.1875, -5.901513951904121), exact),
            ]),
            Block(source: f + " matrix3d(with perspective) → none", from: p2, to: CSS.none, samples: [
                (-1, CSS.matrix3d(-0.6413028394192518, -1.0702420910513302, -0.5807595966791961, -18.02447171345163, 0.8211815704840004, 1.0980679097347057, 0.9399408862655454, 22.460730852026064, 0.28421009261178104, -0.5408346238741739, 0.5194791363698213, 3.075163035391172, -2.6875, 2, -1.875, -14.881239394516232), exact),
                (0, p2, exact),
                (0.25, CSS.matrix3d(0.7912976716694541, -0.4517927901159618, -0.6868745974719376, 1.2522201536338506, 0.7952183069582651, 0.06340410955800829, -0.7956629784232128, 2.2561737435012983, 0.345639443327071, -0.8934490945546473, 0.830131443385676, 1.2606901484983566, -1.0078125, 0.75, -0.703125, 2.4888661932358946), exact),
                (0.75, CSS.matrix3d(1.0093457700315165, -0.12746048375025829, -0.24746788943106088, 1.3202120308857304, 0.6128364656690982, 0.7600694601651116, -0.22233359857303325, 1.4081483224940277, 0.21669805381113447, -0.3786082265932788, 0.908354523914928, 0.6747509193960347, -0.3359375, 0.25, -0.234375, 2.4888661932358964), exact),
                (1, CSS.none, exact),
                (2, CSS.matrix3d(0.39048513570444376, 0.14780794797065988, 0.6963068100217401, -4.857907861239344, -2.967682789284791, 0.6004978769584385, -3.5472376016872444, 26.675324787979896, -2.5953724498995308, 1.6280843851961373, 0.8163834310586356, 9.001735256585825, 1.34375, -1, 0.9375, -14.881239394516227), exact),
            ]),
        ]
    }()

    // MARK: transform-interpolation-004.html (mismatched lists → matrices; translate3d → none)

    static let wpt004: [Block] = {
        let f = "transform-interpolation-004.html"
        let skew1 = CSS.skewX(rad: 1)
        let tSkew2 = CSS.list(CSS.translate3d(8, -4, 12), CSS.skewX(rad: 2))
        let fromB = CSS.list(CSS.translate3d(8, -4, 12), CSS.skewX(rad: 1), CSS.perspective(400))
        let toB = CSS.list(CSS.scale(1, 2), CSS.skewX(rad: 2), CSS.perspective(500))
        let t = CSS.translate3d(100, 200, 300)
        return [
            Block(source: f + " skewX(1rad) → translate3d(8px, -4px, 12px) skewX(2rad)", from: skew1, to: tSkew2, samples: [
                (-1, CSS.matrix3d(1, 0, 0, 0, 5.2998553125713235, 1, 0, 0, 0, 0, 1, 0, -8, 4, -12, 1), exact),
                (0, CSS.matrix(1, 0, 1.5574077246549023, 1, 0, 0), exact),
                (0.25, CSS.matrix3d(1, 0, 0, 0, 0.621795827675797, 1, 0, 0, 0, 0, 1, 0, 2, -1, 3, 1), exact),
                (0.75, CSS.matrix3d(1, 0, 0, 0, -1.2494279662824135, 1, 0, 0, 0, 0, 1, 0, 6, -3, 9, 1), exact),
                (1, CSS.matrix3d(1, 0, 0, 0, -2.185039863261519, 1, 0, 0, 0, 0, 1, 0, 8, -4, 12, 1), exact),
                (2, CSS.matrix3d(1, 0, 0, 0, -5.9274874511779405, 1, 0, 0, 0, 0, 1, 0, 16, -8, 24, 1), exact),
            ]),
            Block(source: f + " translate3d(8px, -4px, 12px) skewX(1rad) perspective(400px) → scaleY(2) skewX(2rad) perspective(500px)",
                  from: fromB, to: toB, samples: [
                (-1, CSS.matrix3d(1, 0, 0, 0, 0, 0, 0, 0, -0.03876288659793814, 0.01938144329896907, 0.94, -0.0029653608247422686, 16, -8, 24, 0.986144329896907), exact),
                (0, CSS.matrix3d(1, 0, 0, 0, 1.5574077246549023, 1, 0, 0, -0.02, 0.01, 0.97, -0.0025, 8, -4, 12, 1), exact),
                (0.25, CSS.matrix3d(1, 0, 0, 0, 1.1186572632293585, 1.25, 0, 0, -0.0151159793814433, 0.00755798969072165, 0.9775, -0.002378247422680413, 6, -3, 9, 1.0012989690721648), exact),
                (0.75, CSS.matrix3d(1, 0, 0, 0, -0.7525665307288518, 1.75, 0, 0, -0.005115979381443298, 0.002557989690721649, 0.9924999999999999, -0.002128247422680412, 2, -1, 3, 1.001298969072165), exact),
                (1, CSS.matrix3d(1, 0, 0, 0, -2.185039863261519, 2, 0, 0, 0, 0, 1, -0.002, 0, 0, 0, 1), exact),
                (2, CSS.matrix3d(1, 0, 0, 0, -11.227342763749263, 3, 0, 0, 0.021237113402061854, -0.010618556701030927, 1.03, -0.0014653608247422677, -8, 4, -12, 0.9861443298969074), exact),
            ]),
            Block(source: f + " translate3D(100px, 200px, 300px) → none", from: t, to: CSS.none, samples: [
                (-1, CSS.matrix3d(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 200, 400, 600, 1), exact),
                (0, CSS.matrix3d(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 100, 200, 300, 1), exact),
                (0.25, CSS.matrix3d(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 75, 150, 225, 1), exact),
                (0.75, CSS.matrix3d(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 25, 50, 75, 1), exact),
                (1, CSS.matrix(1, 0, 0, 1, 0, 0), exact),
                (2, CSS.matrix3d(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -100, -200, -300, 1), exact),
            ]),
            Block(source: f + " translateX(12px) → translateX(13px)", from: CSS.translateX(12), to: CSS.translateX(13), samples: [
                (-1, CSS.translateX(11), exact), (0, CSS.translateX(12), exact), (0.25, CSS.translateX(12.25), exact),
                (0.75, CSS.translateX(12.75), exact), (1, CSS.translateX(13), exact), (2, CSS.translateX(14), exact),
            ]),
        ]
    }()

    // MARK: transform-interpolation-002.html (scales)

    static let wpt002: [Block] = {
        let f = "transform-interpolation-002.html"
        func block(_ name: String, _ from: [Double], _ to: [Double], _ s: [(Double, [Double])]) -> Block {
            Block(source: f + " " + name, from: from, to: to, samples: s.map { ($0.0, $0.1, exact) })
        }
        return [
            block("scale(10, 5) → scale(20, 9)", CSS.scale(10, 5), CSS.scale(20, 9), [
                (-1, CSS.scale(0, 1)), (0, CSS.scale(10, 5)), (0.25, CSS.scale(12.5, 6)), (0.75, CSS.scale(17.5, 8)),
                (1, CSS.scale(20, 9)), (2, CSS.scale(30, 13)),
            ]),
            block("scaleY(5) → scaleY(9)", CSS.scale(1, 5), CSS.scale(1, 9), [
                (-1, CSS.scale(1, 1)), (0, CSS.scale(1, 5)), (0.25, CSS.scale(1, 6)), (0.75, CSS.scale(1, 8)),
                (1, CSS.scale(1, 9)), (2, CSS.scale(1, 13)),
            ]),
            block("scaleZ(1) → scaleZ(2)", CSS.scale3d(1, 1, 1), CSS.scale3d(1, 1, 2), [
                (-1, CSS.scale3d(1, 1, 0)), (0, CSS.scale3d(1, 1, 1)), (0.25, CSS.scale3d(1, 1, 1.25)),
                (0.75, CSS.scale3d(1, 1, 1.75)), (1, CSS.scale3d(1, 1, 2)), (2, CSS.scale3d(1, 1, 3)),
            ]),
            block("scale3d(10, 0.5, 1) → scale3d(20, 1, 2)", CSS.scale3d(10, 0.5, 1), CSS.scale3d(20, 1, 2), [
                (-1, CSS.scale3d(0, 0, 0)), (0, CSS.scale3d(10, 0.5, 1)), (0.25, CSS.scale3d(12.5, 0.625, 1.25)),
                (0.75, CSS.scale3d(17.5, 0.875, 1.75)), (1, CSS.scale3d(20, 1, 2)), (2, CSS.scale3d(30, 1.5, 3)),
            ]),
            block("none → scale3d(2, 3, 5)", CSS.none, CSS.scale3d(2, 3, 5), [
                (-1, CSS.scale3d(0, -1, -3)), (0, CSS.scale3d(1, 1, 1)), (0.25, CSS.scale3d(1.25, 1.5, 2)),
                (0.75, CSS.scale3d(1.75, 2.5, 4)), (1, CSS.scale3d(2, 3, 5)), (2, CSS.scale3d(3, 5, 9)),
            ]),
            block("scale3d(2, 3, 5) → none", CSS.scale3d(2, 3, 5), CSS.none, [
                (-1, CSS.scale3d(3, 5, 9)), (0, CSS.scale3d(2, 3, 5)), (0.25, CSS.scale3d(1.75, 2.5, 4)),
                (0.75, CSS.scale3d(1.25, 1.5, 2)), (1, CSS.scale3d(1, 1, 1)), (2, CSS.scale3d(0, -1, -3)),
            ]),
        ]
    }()

    // MARK: transform-interpolation-001.html (rotations)

    static let wpt001: [Block] = {
        let f = "transform-interpolation-001.html"
        func r(_ x: Double, _ y: Double, _ z: Double, _ d: Double) -> [Double] { CSS.rotate3d(x, y, z, deg: d) }
        return [
            Block(source: f + " none → rotate(90deg)", from: CSS.none, to: CSS.rotate(deg: 90), samples: [
                (-1, CSS.rotate(deg: -90), exact), (0, CSS.rotate(deg: 0), exact), (0.25, CSS.rotate(deg: 22.5), exact),
                (0.75, CSS.rotate(deg: 67.5), exact), (1, CSS.rotate(deg: 90), exact), (2, CSS.rotate(deg: 180), exact),
            ]),
            Block(source: f + " rotate(90deg) → none", from: CSS.rotate(deg: 90), to: CSS.none, samples: [
                (-1, CSS.rotate(deg: 180), exact), (0, CSS.rotate(deg: 90), exact), (0.25, CSS.rotate(deg: 67.5), exact),
                (0.75, CSS.rotate(deg: 22.5), exact), (1, CSS.rotate(deg: 0), exact), (2, CSS.rotate(deg: -90), exact),
            ]),
            // 100° → 260° about one axis: CSS lerps the angle; the matrices are 100° and −100°, and
            // the shortest arc between them is the same 160° through 180°, so the two agree.
            Block(source: f + " rotate3d(7, 8, 9, 100deg) → rotate3d(7, 8, 9, 260deg)", from: r(7, 8, 9, 100), to: r(7, 8, 9, 260), samples: [
                (-1, r(7, 8, 9, -60), exact), (0, r(7, 8, 9, 100), exact), (0.25, r(7, 8, 9, 140), exact),
                (0.75, r(7, 8, 9, 220), exact), (1, r(7, 8, 9, 260), exact), (2, r(7, 8, 9, 420), exact),
            ]),
            Block(source: f + " rotate3d(1, 1, 0, 90deg) → rotate3d(0, 1, 1, 180deg)", from: r(1, 1, 0, 90), to: r(0, 1, 1, 180), samples: [
                (-1, r(0.41, -0.41, -0.82, 120), twoDecimals), (0, r(1, 1, 0, 90), exact),
                (0.25, r(0.524083, 0.804261, 0.280178, 106.91), sixDigits),
                // WPT prints this one loosely (the exact slerp is axis (0.16336, 0.77449, 0.61113),
                // 153.983°); its harness compares with a tolerance, so do we.
                (0.75, r(0.163027, 0.774382, 0.611354, 153.99), fourDigits),
                (1, r(0, 1, 1, 180), exact), (2, r(0.71, 0, -0.71, 90), twoDecimals),
            ]),
        ]
    }()

    // MARK: rotate-interpolation-001.html (the `rotate` property: axis-angle, slerped when axes differ)

    static let wptRotate001: [Block] = {
        let f = "rotate-interpolation-001.html"
        func r(_ x: Double, _ y: Double, _ z: Double, _ d: Double) -> [Double] { CSS.rotate3d(x, y, z, deg: d) }
        return [
            Block(source: f + " 45deg → -1 1 0 60deg", from: r(0, 0, 1, 45), to: r(-1, 1, 0, 60), samples: [
                (-1, r(0.447214, -0.447214, 0.774597, 104.478), sixDigits), (0, r(0, 0, 1, 45), exact),
                (0.125, r(-0.136456, 0.136456, 0.981203, 40.6037), sixDigits),
                (0.875, r(-0.70246, 0.70246, 0.114452, 53.1994), sixDigits), (1, r(-1, 1, 0, 60), exact),
                (2, r(-0.637897, 0.637897, -0.431479, 124.975), sixDigits),
            ]),
            Block(source: f + " 1 1 0 90deg → 0 1 1 135deg", from: r(1, 1, 0, 90), to: r(0, 1, 1, 135), samples: [
                (-1, r(0.67, -0.06, -0.74, 124.97), twoDecimals), (0, r(1, 1, 0, 90), exact),
                (0.25, r(0.54, 0.8, 0.26, 94.83), twoDecimals), (0.75, r(0.17, 0.78, 0.61, 118.68), twoDecimals),
                (1, r(0, 1, 1, 135), exact), (2, r(0.52, -0.29, -0.81, 151.04), twoDecimals),
            ]),
            Block(source: f + " 100deg → 180deg", from: r(0, 0, 1, 100), to: r(0, 0, 1, 180), samples: [
                (-1, r(0, 0, 1, 20), exact), (0, r(0, 0, 1, 100), exact), (0.125, r(0, 0, 1, 110), exact),
                (0.875, r(0, 0, 1, 170), exact), (1, r(0, 0, 1, 180), exact), (2, r(0, 0, 1, 260), exact),
            ]),
            Block(source: f + " 1 0 0 0deg → 0 1 0 10deg", from: r(1, 0, 0, 0), to: r(0, 1, 0, 10), samples: [
                (-1, r(0, 1, 0, -10), exact), (0, r(1, 0, 0, 0), exact), (0.25, r(0, 1, 0, 2.5), exact),
                (0.75, r(0, 1, 0, 7.5), exact), (1, r(0, 1, 0, 10), exact), (2, r(0, 1, 0, 20), exact),
            ]),
        ]
    }()

    // MARK: running the tables

    private func check(_ blocks: [Block], file: StaticString = #filePath, line: UInt = #line) {
        for b in blocks {
            for s in b.samples {
                let v = ValueInterpolation.interpolate(.transform(Transform3D(b.from)), .transform(Transform3D(b.to)), s.at)
                guard case .transform(let m) = v else { XCTFail("\(b.source) at \(s.at): not a transform", file: file, line: line); continue }
                let got = m.elements
                for i in 0..<16 where abs(got[i] - s.expect[i]) > s.tolerance * max(1, abs(s.expect[i])) {
                    XCTFail("\(b.source) at \(s.at): m\(i / 4 + 1)\(i % 4 + 1) = \(got[i]), WPT expects \(s.expect[i])",
                            file: file, line: line)
                }
            }
        }
    }

    func testTableHasAtLeastTwentyCases() {
        let n = [Self.wpt005, Self.wpt004, Self.wpt002, Self.wpt001, Self.wptRotate001].joined().map(\.samples.count).reduce(0, +)
        XCTAssertGreaterThanOrEqual(n, 20)
    }
    func testMatrixEndpoints005() { check(Self.wpt005) }
    func testMismatchedListsAndTranslate004() { check(Self.wpt004) }
    func testScales002() { check(Self.wpt002) }
    func testRotations001() { check(Self.wpt001) }
    func testRotateProperty001() { check(Self.wptRotate001) }
}
