import XCTest
@testable import AssetImport
import SceneFormat
import LayerModel

/// An archive the test builds (as NSKeyedArchiver + Core Animation would encode it: default-valued
/// keys left out, CA values in coding proxies) imports to the same model as the scene file written
/// here by hand from Core Animation's documentation. Compared through `SceneJSONWriter`, which
/// writes every non-default property and every animation field.
final class ArchiveEquivalenceTests: XCTestCase {
    func testArchiveMatchesHandWrittenScene() throws {
        var a = ArchiveBuilder()
        let proxy = ["LKNSValueCodingProxy", "CACodingProxy", "NSObject"]
        let rootBounds = a.object(proxy, [("kind", .int(2)), ("x", .real(0)), ("y", .real(0)), ("width", .real(100)), ("height", .real(80))])
        let zero = a.object(proxy, [("kind", .int(0)), ("x", .real(0)), ("y", .real(0))])
        let subBounds = a.object(proxy, [("kind", .int(2)), ("x", .real(0)), ("y", .real(0)), ("width", .real(20)), ("height", .real(10))])
        let subPosition = a.object(proxy, [("kind", .int(0)), ("x", .real(30)), ("y", .real(40))])
        // A kind-3 proxy with only m41/m42: a translation (the other fields keep the identity's).
        let translate = a.object(proxy, [("kind", .int(3)), ("m41", .real(5)), ("m42", .real(-2))])
        let red = a.object(["LKCGColorCodingProxy", "CACodingProxy", "NSObject"], [("r", .real(1)), ("g", .real(0)), ("b", .real(0)), ("a", .real(1))])
        let ease = a.object(["CAMediaTimingFunction", "NSObject"], [("c1x", .real(0.42)), ("c1y", .real(0)), ("c2x", .real(0.58)), ("c2y", .real(1))])
        let keyPath = a.plain(.string("opacity"))
        let anim = a.object(["CABasicAnimation", "CAPropertyAnimation", "CAAnimation", "NSObject"],
                            [("keyPath", .uid(keyPath)), ("fromValue", .real(0)), ("toValue", .int(1)), ("duration", .real(2)),
                             ("beginTime", .real(1e-6)), ("fillMode", .string("both")), ("removedOnCompletion", .bool(false)),
                             ("timingFunction", .uid(ease)), ("repeatCount", .real(.infinity)), ("autoreverses", .int(1))])
        let animKey = a.plain(.string("fade"))
        let animList = a.object(["NSMutableArray", "NSArray", "NSObject"], [("NS.objects", .array([a.b.add(.uid(anim))]))])
        let keyList = a.object(["NSArray", "NSObject"], [("NS.objects", .array([a.b.add(.uid(animKey))]))])
        let subName = a.plain(.string("badge"))
        let sub = a.object(["CALayer", "NSObject"], [("bounds", .uid(subBounds)), ("position", .uid(subPosition)), ("backgroundColor", .uid(red)),
                                                     ("cornerRadius", .real(5)), ("transform", .uid(translate)), ("name", .uid(subName)),
                                                     ("CALayerAnimations", .uid(animList)), ("CALayerAnimationKeys", .uid(keyList)),
                                                     ("contentsFormat", .string("RGBA8"))])
        let subs = a.object(["NSMutableArray", "NSArray", "NSObject"], [("NS.objects", .array([a.b.add(.uid(sub))]))])
        let subsProxy = a.object(["LKNSArrayCodingProxy", "CACodingProxy", "NSObject"], [("array", .uid(subs))])
        let root = a.object(["CALayer", "NSObject"], [("bounds", .uid(rootBounds)), ("anchorPoint", .uid(zero)), ("position", .uid(zero)),
                                                      ("geometryFlipped", .int(1)), ("sublayers", .uid(subsProxy))])
        // The root dictionary Kite writes: rootLayer, geometryFlipped, documentWidth/Height.
        let kRoot = a.plain(.string("rootLayer")), kFlip = a.plain(.string("geometryFlipped"))
        let kW = a.plain(.string("documentWidth")), kH = a.plain(.string("documentHeight"))
        let yes = a.plain(.bool(true)), w = a.plain(.real(100)), h = a.plain(.real(80))
        let dict = a.object(["NSDictionary", "NSObject"], [("NS.keys", .array([a.b.add(.uid(kRoot)), a.b.add(.uid(kFlip)), a.b.add(.uid(kW)), a.b.add(.uid(kH))])),
                                                          ("NS.objects", .array([a.b.add(.uid(root)), a.b.add(.uid(yes)), a.b.add(.uid(w)), a.b.add(.uid(h))]))])
        let imported = try ArchiveImporter.decode(data: a.build(root: dict), file: "built.caar")
        XCTAssertTrue(imported.warnings.isEmpty, "\(imported.warnings)")

        // By hand: anchorPoint (0, 0) at (0, 0) fills the 100×80 canvas; Kite's flipped root shown as
        // on iOS (geometryFlipped off); the sublayer with CA's defaults for everything left out.
        let json = """
        {"caprof": 1, "canvas": {"width": 100, "height": 80, "scale": 1},
         "root": {"bounds": [0, 0, 100, 80], "anchorPoint": [0, 0], "contentsScale": 1, "rasterizationScale": 1,
           "sublayers": [{"name": "badge", "bounds": [0, 0, 20, 10], "position": [30, 40], "backgroundColor": [1, 0, 0, 1],
             "cornerRadius": 5, "transform": "translate(5, -2)", "contentsScale": 1, "rasterizationScale": 1,
             "animations": [{"class": "CABasicAnimation", "key": "fade", "keyPath": "opacity", "fromValue": 0, "toValue": 1,
               "duration": 2, "beginTime": 1e-6, "fillMode": "both", "removedOnCompletion": false,
               "timingFunction": [0.42, 0, 0.58, 1], "repeatCount": "infinity", "autoreverses": true}]}]}}
        """
        let expected = try SceneDecoder.decode(data: Array(json.utf8), file: "hand.json", baseDirectory: "/")
        XCTAssertEqual(SceneJSONWriter.write(imported), SceneJSONWriter.write(expected))
    }
}
