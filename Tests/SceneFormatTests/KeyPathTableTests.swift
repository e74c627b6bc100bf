import XCTest
@testable import SceneFormat
import Geometry
import LayerModel
import Animation

final class KeyPathTableTests: XCTestCase {
    func testResolve() throws {
        XCTAssertEqual(KeyPathTable.resolve("opacity")?.valueType, .number)
        XCTAssertEqual(KeyPathTable.resolve("position")?.valueType, .point)
        XCTAssertEqual(KeyPathTable.resolve("position.x")?.field, .x)
        XCTAssertEqual(KeyPathTable.resolve("bounds.size")?.valueType, .size)
        XCTAssertEqual(KeyPathTable.resolve("bounds.size.width")?.field, .sizeWidth)
        XCTAssertEqual(KeyPathTable.resolve("transform.rotation.z")?.valueType, .number)
        XCTAssertEqual(KeyPathTable.resolve("transform.translation")?.valueType, .size)
        XCTAssertEqual(KeyPathTable.resolve("instanceTransform.scale.xy")?.field, .scaleXY)
        XCTAssertNil(KeyPathTable.resolve("position.width"))
        XCTAssertNil(KeyPathTable.resolve("opacity.x"))
        XCTAssertNil(KeyPathTable.resolve("frame"))
        XCTAssertTrue(KeyPathTable.allKeyPaths.contains("contentsRect.origin.x"))
        XCTAssertEqual(Set(KeyPathTable.properties.map(\.name)).count, KeyPathTable.properties.count, "names are unique")
    }

    /// Every property's getter and setter agree, and nullable ones take `.null` (the table's
    /// `nullable` flag must match the model's optionality).
    func testGettersAndSettersRoundTrip() {
        for p in KeyPathTable.properties {
            var layer = Layer(p.layerClass ?? .layer)
            let current = p.get(layer)
            XCTAssertTrue(p.set(&layer, current), p.name)
            XCTAssertEqual(p.get(layer), current, p.name)
            XCTAssertEqual(p.set(&layer, .null), p.nullable, "\(p.name): nullable flag")
            XCTAssertFalse(p.set(&layer, .string("wrong type")) && p.valueType != .string, p.name)
        }
        var l = Layer()
        XCTAssertTrue(KeyPathTable.property(named: "opacity")!.set(&l, .number(0.25)))
        XCTAssertEqual(l.opacity, 0.25)
        var r = Layer(.replicator)
        XCTAssertFalse(KeyPathTable.property(named: "instanceCount")!.set(&r, .number(2.5)), "whole numbers only")
    }

    func testAnimatabilityFollowsTheHeaders() {
        XCTAssertTrue(KeyPathTable.property(named: "position")!.animatable)
        XCTAssertFalse(KeyPathTable.property(named: "contentsGravity")!.animatable)
        XCTAssertEqual(KeyPathTable.property(named: "path")!.implicitAction, ImplicitAction.none)
        XCTAssertEqual(KeyPathTable.property(named: "contents")!.implicitAction, .fade)
        XCTAssertEqual(KeyPathTable.property(named: "opacity")!.implicitAction, .basic)
    }
}
