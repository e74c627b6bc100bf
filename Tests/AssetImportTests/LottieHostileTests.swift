import XCTest
@testable import AssetImport
import SceneFormat
import LayerModel
import Geometry

/// Hostile Lottie animations: each is refused with a `SceneError` of the right kind, words that
/// say what is wrong, and the place (JSON pointer, line and column) of what is wrong, never a
/// crash, a hang or a scene the device could not show.
final class LottieHostileTests: XCTestCase {
    /// A minimal animation around `layers` (and `assets`), with `top` members replacing its own.
    func animation(layers: String, assets: String = "[]", top: String = "\"fr\":30,\"ip\":0,\"op\":60,\"w\":100,\"h\":100") -> String {
        "{\"v\":\"5.7.4\",\(top),\n\"assets\":\(assets),\n\"layers\":\(layers)}"
    }

    func refusal(_ json: String, limits: DecodingLimits = .standard, file: StaticString = #filePath, line: UInt = #line) -> SceneError? {
        do {
            _ = try LottieImporter.decode(data: Array(json.utf8), file: "hostile.json", images: .directory("/nonexistent"), limits: limits)
            XCTFail("the animation was imported, not refused", file: file, line: line)
            return nil
        } catch let e as SceneError {
            return e
        } catch {
            XCTFail("not a SceneError: \(error)", file: file, line: line)
            return nil
        }
    }

    func assertRefused(_ json: String, _ kind: SceneError.Kind, _ words: [String], pointer: String, line l: Int? = nil, column: Int? = nil,
                       limits: DecodingLimits = .standard, file: StaticString = #filePath, line: UInt = #line) {
        guard let e = refusal(json, limits: limits, file: file, line: line) else { return }
        XCTAssertEqual(e.kind, kind, e.description, file: file, line: line)
        for w in words { XCTAssertTrue(e.message.contains(w), "'\(w)' not in: \(e.message)", file: file, line: line) }
        XCTAssertEqual(e.location.file, "hostile.json", file: file, line: line)
        XCTAssertEqual(e.location.pointer, pointer, e.description, file: file, line: line)
        if let l { XCTAssertEqual(e.location.line, l, e.description, file: file, line: line) }
        if let column { XCTAssertEqual(e.location.column, column, e.description, file: file, line: line) }
        XCTAssertGreaterThan(e.location.line, 0, "no line: \(e.description)", file: file, line: line)
    }

    let shape = "{\"ty\":4,\"nm\":\"s\",\"ks\":{},\"shapes\":[{\"ty\":\"rc\",\"s\":{\"a\":0,\"k\":[10,10]}},{\"ty\":\"fl\"}]}"

    // MARK: precompositions

    func testAPrecompositionThatContainsItselfDirectlyIsRefused() {
        let json = animation(layers: "[{\"ty\":0,\"nm\":\"outer\",\"refId\":\"loop\",\"ks\":{}}]",
                             assets: "[{\"id\":\"loop\",\"layers\":[\n{\"ty\":0,\"nm\":\"inner\",\"refId\":\"loop\",\"ks\":{}}]}]")
        assertRefused(json, .invalidValue, ["precomposition 'loop' contains itself", "(loop → loop)"],
                      pointer: "/assets/0/layers/0/refId", line: 3, column: 30)
    }

    func testAPrecompositionThatContainsItselfThroughAnotherIsRefused() {
        let json = animation(layers: "[{\"ty\":0,\"nm\":\"outer\",\"refId\":\"a\",\"ks\":{}}]",
                             assets: "[{\"id\":\"a\",\"layers\":[{\"ty\":0,\"nm\":\"to b\",\"refId\":\"b\",\"ks\":{}}]},\n{\"id\":\"b\",\"layers\":[{\"ty\":0,\"nm\":\"to a\",\"refId\":\"a\",\"ks\":{}}]}]")
        assertRefused(json, .invalidValue, ["precomposition 'a' contains itself", "(a → b → a)"],
                      pointer: "/assets/1/layers/0/refId", line: 3)
    }

    func testAPrecompositionLayerWithoutRefIdIsRefused() {
        let json = animation(layers: "[{\"ty\":0,\"nm\":\"orphan\",\"ks\":{}}]")
        assertRefused(json, .missingKey, ["precomposition layer 'orphan'", "no 'refId'"], pointer: "/layers/0", line: 3, column: 11)
    }

    /// A refId no asset has: lottie-ios skips the layer and draws the rest (Apple's frames of
    /// pr_2559 show it), so the layer is left out with a warning at its refId, not refused.
    func testARefIdNoAssetHasIsSkippedWithAWarningAtItsPlace() throws {
        for (layer, words) in [("[{\"ty\":0,\"nm\":\"lost\",\"refId\":\"nowhere\",\"ks\":{}}]", ["precomposition layer 'lost'", "'nowhere'", "not drawn"]),
                               ("[{\"ty\":2,\"nm\":\"picture\",\"refId\":\"nowhere\",\"ks\":{}}]", ["image layer 'picture'", "'nowhere'", "not drawn"])] {
            let doc = try LottieImporter.decode(data: Array(animation(layers: layer).utf8), file: "hostile.json", images: .directory("/nonexistent"))
            XCTAssertEqual(doc.scene.root.sublayers.count, 0, "the layer is not drawn")
            let warning = try XCTUnwrap(doc.warnings.first)
            for w in words { XCTAssertTrue(warning.feature.contains(w), "'\(w)' not in: \(warning.feature)") }
            XCTAssertEqual(warning.location?.pointer, "/layers/0/refId")
            XCTAssertEqual(warning.location?.line, 3)
        }
    }

    // MARK: parents

    func testAParentCycleIsRefused() {
        let json = animation(layers: "[{\"ty\":3,\"nm\":\"a\",\"ind\":1,\"parent\":2,\"ks\":{}},\n{\"ty\":3,\"nm\":\"b\",\"ind\":2,\"parent\":1,\"ks\":{}}]")
        assertRefused(json, .invalidValue, ["layer 'b'", "its parents form a cycle", "layer 2 is its own ancestor"], pointer: "/layers/1/parent", line: 4)
        let own = animation(layers: "[{\"ty\":3,\"nm\":\"self\",\"ind\":7,\"parent\":7,\"ks\":{}}]")
        assertRefused(own, .invalidValue, ["layer 'self'", "its parents form a cycle", "layer 7 is its own ancestor"], pointer: "/layers/0/parent", line: 3)
    }

    // MARK: the timeline

    func testAnOutPointNotAfterTheInPointIsRefused() {
        for (ip, op) in [("10", "10"), ("30", "5"), ("0", "-1")] {
            let json = animation(layers: "[]", top: "\"fr\":30,\"ip\":\(ip),\"op\":\(op),\"w\":100,\"h\":100")
            assertRefused(json, .outOfRange, ["the out point 'op' (\(op))", "must come after the in point 'ip' (\(ip))"], pointer: "", line: 1, column: 1)
        }
    }

    func testAbsurdFrameCountsAreOverTheFramesLimit() {
        let json = animation(layers: "[]", top: "\"fr\":60,\"ip\":0,\"op\":1e7,\"w\":100,\"h\":100")
        assertRefused(json, .limitExceeded, ["10000000 frames from ip to op", "more than \(SceneLimits.maxFrames) frames", "--limit frames=N"], pointer: "", line: 1, column: 1)
        // Past ±1e7 the out point itself is out of range, at its place.
        let past = animation(layers: "[]", top: "\"fr\":60,\"ip\":0,\"op\":1e12,\"w\":100,\"h\":100")
        assertRefused(past, .outOfRange, ["'op' (out point)", "a finite frame number", "found 1000000000000"], pointer: "/op", line: 1, column: 34)
        let rate = animation(layers: "[]", top: "\"fr\":0,\"ip\":0,\"op\":10,\"w\":100,\"h\":100")
        assertRefused(rate, .outOfRange, ["'fr' (frames per second)", "a frame rate in (0, 1000]", "found 0"], pointer: "/fr", line: 1, column: 19)
    }

    // MARK: the canvas

    func testCanvasSizesOutOfRangeAreRefusedAtTheirKey() {
        for w in ["0", "-5", "1e9", "0.3"] {
            let json = animation(layers: "[]", top: "\"fr\":30,\"ip\":0,\"op\":60,\"w\":\(w),\"h\":100")
            assertRefused(json, .outOfRange, ["'w' (width)", "a size in [0.5, \(Canvas.maxPixelSide)] points", "found \(w == "1e9" ? "1000000000" : w)"],
                          pointer: "/w", line: 1, column: 41)
        }
        let h = animation(layers: "[]", top: "\"fr\":30,\"ip\":0,\"op\":60,\"w\":100,\"h\":-1")
        assertRefused(h, .outOfRange, ["'h' (height)", "found -1"], pointer: "/h", line: 1, column: 49)
        // A string is a wrong type of size: named as such.
        let s = animation(layers: "[]", top: "\"fr\":30,\"ip\":0,\"op\":60,\"w\":\"100\",\"h\":100")
        assertRefused(s, .outOfRange, ["'w' (width)", "found a string"], pointer: "/w", line: 1, column: 41)
    }

    /// JSON has no NaN or infinity: 1e400 overflows a double, and the JSON parser refuses it (at the
    /// end of the number: line 1, column 46, just past `1e400`) before the importer sees it.
    func testAnInfiniteSizeIsRefusedByTheJSONParser() {
        let json = animation(layers: "[]", top: "\"fr\":30,\"ip\":0,\"op\":60,\"w\":1e400,\"h\":100")
        guard let e = refusal(json) else { return }
        XCTAssertEqual(e.kind, .outOfRange, e.description)
        XCTAssertTrue(e.message.contains("the number 1e400 is out of range of a double"), e.message)
        XCTAssertEqual(e.location.line, 1, e.description)
        XCTAssertEqual(e.location.column, 46, e.description)
        let nan = animation(layers: "[]", top: "\"fr\":30,\"ip\":0,\"op\":60,\"w\":NaN,\"h\":100")
        guard let n = refusal(nan) else { return }
        XCTAssertTrue(n.message.contains("JSON has no NaN or Infinity"), n.message)
        XCTAssertEqual(n.location.line, 1, n.description)
    }

    // MARK: keyframes

    func testKeyframesOutOfTimeOrderAreRefused() {
        let json = animation(layers: "[{\"ty\":3,\"nm\":\"n\",\"ks\":{\"o\":{\"a\":1,\"k\":[\n{\"t\":20,\"s\":[0]},\n{\"t\":10,\"s\":[100]}]}}}]")
        assertRefused(json, .outOfRange, ["layer 'n' transform opacity", "keyframe at frame 10 comes after one at frame 20", "in time order"],
                      pointer: "/layers/0/ks/o/k/1/t", line: 5, column: 6)
    }

    // MARK: images

    func testAHugeDataURIIsRefusedAtItsAsset() {
        let n = SceneLimits.maxDataURICharacters + 1
        let uri = "data:image/png;base64," + String(repeating: "A", count: n - 22)
        let json = animation(layers: "[]", assets: "[{\"id\":\"big\",\"w\":10,\"h\":10,\n\"p\":\"\(uri)\"}]")
        assertRefused(json, .limitExceeded, ["image asset 'big'", "a data URI of \(n) characters", "the limit is \(SceneLimits.maxDataURICharacters)"],
                      pointer: "/assets/0/p", line: 3, column: 5)
    }

    func testADataURIThatIsNotBase64IsRefused() {
        for p in ["data:image/png,not-base64", "data:image/png;base64,abc", "data:image/png;base64"] {
            let json = animation(layers: "[]", assets: "[{\"id\":\"pic\",\"w\":10,\"h\":10,\n\"p\":\"\(p)\"}]")
            assertRefused(json, .invalidValue, ["image asset 'pic'", "the data URI is not base64 data"], pointer: "/assets/0/p", line: 3, column: 5)
        }
    }

    // MARK: sizes of the tree

    func testMoreLayersThanTheLayerLimitAreRefused() {
        var limits = DecodingLimits.standard
        limits.layers = 5
        let layers = "[" + (0..<10).map { "{\"ty\":3,\"nm\":\"null \($0)\",\"ks\":{}}" }.joined(separator: ",\n") + "]"
        // The root is the first layer; Lottie lists the top layer first, so the bottom ones come first.
        assertRefused(animation(layers: layers), .limitExceeded, ["more than 5 layers", "--limit layers=N"],
                      pointer: "/layers/5", line: 8, limits: limits)
    }

    func testShapeGroupsNested100DeepAreRefused() {
        var group = "{\"ty\":\"rc\",\"s\":{\"a\":0,\"k\":[10,10]}},{\"ty\":\"fl\"}"
        for _ in 0..<100 { group = "{\"ty\":\"gr\",\"it\":[\(group)]}" }
        let json = animation(layers: "[{\"ty\":4,\"nm\":\"deep\",\"ks\":{},\"shapes\":[\(group)]}]")
        guard let e = refusal(json) else { return }
        XCTAssertEqual(e.kind, .limitExceeded, e.description)
        XCTAssertTrue(e.message.contains("shape groups nested more than 64 deep"), e.message)
        XCTAssertEqual(e.location.pointer, "/layers/0/shapes/0" + String(repeating: "/it/0", count: 64) + "/it", e.description)
        XCTAssertEqual(e.location.line, 3, e.description)
    }

    func testATextOf200000CharactersIsRefused() {
        let text = String(repeating: "x", count: 200_000)
        let json = animation(layers: "[{\"ty\":5,\"nm\":\"long\",\"ks\":{},\"t\":{\"d\":{\"k\":[{\"t\":0,\"s\":{\"s\":12,\"f\":\"Helvetica\",\n\"t\":\"\(text)\"}}]}}}]")
        assertRefused(json, .limitExceeded, ["a text of 200000 characters", "the limit is \(SceneLimits.maxTextLength)"],
                      pointer: "/layers/0/t/d/k/0/s/t", line: 4, column: 5)
    }

    func testAMaskWithoutAPathIsRefused() {
        let json = animation(layers: "[{\"ty\":3,\"nm\":\"masked\",\"ks\":{},\"masksProperties\":[\n{\"mode\":\"a\",\"inv\":false}]}]")
        assertRefused(json, .missingKey, ["a mask of layer 'masked'", "no path 'pt'"], pointer: "/layers/0/masksProperties/0", line: 4, column: 1)
    }
    /// A precomposition is read again for each layer that shows it: a large path in one shown
    /// through precompositions of precompositions (25 × 25 × 25 uses of a 2001-element star, a
    /// 2.5 KB file) was read and held once per use (10 000-vertex paths: minutes and gigabytes).
    /// The path elements read are counted against the scene format's total as they are read.
    func testAPrecompositionDAGSharingALargePathIsRefusedAtThePathElementTotal() {
        let star = "{\"ty\":\"sr\",\"sy\":1,\"pt\":{\"a\":0,\"k\":1000},\"or\":{\"a\":0,\"k\":40},\"ir\":{\"a\":0,\"k\":20}}"
        func fan(_ id: String) -> String { "[" + Array(repeating: "{\"ty\":0,\"refId\":\"\(id)\",\"ks\":{}}", count: 25).joined(separator: ",") + "]" }
        let json = animation(layers: fan("A"),
                             assets: "[{\"id\":\"A\",\"layers\":\(fan("B"))},{\"id\":\"B\",\"layers\":\(fan("C"))},\n{\"id\":\"C\",\"layers\":[{\"ty\":4,\"ks\":{},\"shapes\":[\(star),{\"ty\":\"fl\"}]}]}]")
        assertRefused(json, .limitExceeded, [SceneLimits.Message.totalPathElements], pointer: "/assets/2/layers/0/shapes/0", line: 3)
    }

    /// The gradient merge samples each channel's stops by binary search (a scan per offset was
    /// quadratic: 30 000 alpha stops took seconds, again for every use of a precomposition). The
    /// result is the scan's, stop for stop, also for stops out of order.
    func testTheGradientMergeIsTheLinearScansResult() {
        func scanSample(_ stops: [(Double, [Double])], _ x: Double) -> [Double] {
            if x <= stops[0].0 { return stops[0].1 }
            for k in 1..<stops.count where x <= stops[k].0 {
                let a = stops[k - 1], b = stops[k]
                return LottieLerp.vector(a.1, b.1, b.0 > a.0 ? (x - a.0) / (b.0 - a.0) : 1)
            }
            return stops[stops.count - 1].1
        }
        var rng = SystemRandomNumberGenerator()
        for round in 0..<200 {
            let n = Int.random(in: 1...6, using: &rng), m = Int.random(in: 0...9, using: &rng)
            var flat: [Double] = []
            func offset() -> Double { round % 3 == 0 ? Double(Int.random(in: 0...4, using: &rng)) / 4 : Double.random(in: -0.2...1.2, using: &rng) }
            func unit() -> Double { Double.random(in: 0...1, using: &rng) }
            for _ in 0..<n { flat.append(offset()); flat.append(unit()); flat.append(unit()); flat.append(unit()) }
            for _ in 0..<m { flat.append(offset()); flat.append(unit()) }
            let (colors, locations) = LottieGradients.merged(flat, count: n)
            var colorStops: [(Double, [Double])] = [], alphaStops: [(Double, [Double])] = []
            for i in 0..<n { colorStops.append((flat[4 * i], [flat[4 * i + 1], flat[4 * i + 2], flat[4 * i + 3]])) }
            for i in 0..<m { alphaStops.append((flat[4 * n + 2 * i], [flat[4 * n + 2 * i + 1]])) }
            XCTAssertEqual(colors.count, locations.count)
            for (c, x) in zip(colors, locations) {
                let rgb = scanSample(colorStops, x)
                let a = alphaStops.isEmpty ? 1 : scanSample(alphaStops, x)[0]
                func u(_ v: Double) -> Double { min(max(v, 0), 1) }
                XCTAssertEqual(c, Color(u(rgb[0]), u(rgb[1]), u(rgb[2]), u(a)), "round \(round): \(flat) at \(x)")
            }
        }
        // 1000 colour stops and 30 000 alpha stops: quick.
        var big: [Double] = []
        for i in 0..<1000 { big.append(Double(i) / 1000); big.append(1); big.append(0); big.append(0) }
        for i in 0..<30_000 { big.append(Double(i) / 30_000); big.append(0.5) }
        let start = Date()
        XCTAssertEqual(LottieGradients.merged(big, count: 1000).1.count, 30_000)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }

    /// A text in a precomposition is read (and held) again for every layer that shows it: the texts
    /// read come to at most the file size limit (what a scene file could hold). With that limit
    /// at 10 000 bytes, a 1000-character text shown 25 times is refused at its place.
    func testTextsReadAgainThroughPrecompositionsAreCountedAgainstTheFileSizeLimit() throws {
        func fan(_ id: String) -> String { "[" + Array(repeating: "{\"ty\":0,\"refId\":\"\(id)\",\"ks\":{}}", count: 5).joined(separator: ",") + "]" }
        let text = "{\"ty\":5,\"nm\":\"t\",\"ks\":{},\"t\":{\"d\":{\"k\":[{\"t\":0,\"s\":{\"s\":12,\n\"t\":\"\(String(repeating: "x", count: 1000))\"}}]}}}"
        let json = animation(layers: fan("A"), assets: "[{\"id\":\"A\",\"layers\":\(fan("B"))},{\"id\":\"B\",\"layers\":[\(text)]}]")
        var limits = DecodingLimits.standard
        limits.fileBytes = 10_000
        let parsed = try JSONParser.parse(Array(json.utf8), file: "hostile.json")
        XCTAssertThrowsError(try LottieImporter.decode(json: parsed, file: "hostile.json", images: .directory("/nonexistent"), limits: limits)) { e in
            guard let s = e as? SceneError else { return XCTFail("\(e)") }
            XCTAssertEqual(s.kind, .limitExceeded, s.description)
            XCTAssertTrue(s.message.contains("texts come to more than 10000 bytes in all"), s.message)
            XCTAssertTrue(s.message.contains("--limit file-bytes=N"), s.message)
            XCTAssertEqual(s.location.pointer, "/assets/1/layers/0/t/d/k/0/s/t", s.description)
            XCTAssertEqual(s.location.line, 3, s.description)
            XCTAssertEqual(s.location.column, 5, s.description)
        }
        // Shown 5 times (5000 bytes): imported.
        let once = animation(layers: fan("B"), assets: "[{\"id\":\"B\",\"layers\":[\(text)]}]")
        XCTAssertNoThrow(try LottieImporter.decode(json: try JSONParser.parse(Array(once.utf8), file: "hostile.json"), file: "hostile.json",
                                                   images: .directory("/nonexistent"), limits: limits))
    }

    // MARK: found by mutating the corpus (FuzzTarget.lottie); inputs in HostileInputTests/Regressions/lottie/

    func imported(_ json: String, file: StaticString = #filePath, line: UInt = #line) -> SceneDocument? {
        do {
            return try LottieImporter.decode(data: Array(json.utf8), file: "hostile.json", images: .directory("/nonexistent"))
        } catch {
            XCTFail("refused: \(error)", file: file, line: line)
            return nil
        }
    }

    /// `Int(bm)` trapped on a blend mode past Int's range (1e20, -1e300): now a mode not drawn, with a warning.
    func testABlendModePastIntsRangeIsAWarningNotATrap() {
        for bm in ["1e20", "-1e300", "1.5e19"] {
            let json = animation(layers: "[{\"ty\":1,\"nm\":\"solid\",\"sw\":10,\"sh\":10,\"sc\":\"#ff0000\",\"bm\":\(bm),\"ks\":{}}]")
            guard let doc = imported(json) else { continue }
            XCTAssertTrue(doc.warnings.contains { $0.feature.contains("layer 'solid': blend mode") && $0.feature.contains("is not drawn") },
                          "\(doc.warnings.map(\.feature))")
            var filters: [CompositingFilter?] = []
            doc.scene.root.forEach { filters.append($0.compositingFilter) }
            XCTAssertTrue(filters.allSatisfy { $0 == nil || $0 == .normalBlendMode }, "\(filters)")
        }
        // In range, as before: 1 is multiply.
        let multiply = animation(layers: "[{\"ty\":1,\"nm\":\"solid\",\"sw\":10,\"sh\":10,\"bm\":1,\"ks\":{}}]")
        var found = false
        imported(multiply)?.scene.root.forEach { if $0.compositingFilter == .multiplyBlendMode { found = true } }
        XCTAssertTrue(found)
    }

    /// `"sz": []` (a text box with no size) indexed an empty array: now no box (point text).
    func testAnEmptyTextBoxIsPointTextNotATrap() {
        let json = animation(layers: "[{\"ty\":5,\"nm\":\"t\",\"ks\":{},\"t\":{\"d\":{\"k\":[{\"t\":0,\"s\":{\"t\":\"boxed\",\"s\":12,\"sz\":[],\"ps\":[0,0]}}]}}}]")
        guard let doc = imported(json) else { return }
        var texts: [Layer] = []
        doc.scene.root.forEach { if $0.layerClass == .text { texts.append($0) } }
        XCTAssertEqual(texts.count, 1)
        XCTAssertEqual(texts.first?.text.string, "boxed")
        XCTAssertEqual(texts.first?.text.wrapped, false)
    }
}
