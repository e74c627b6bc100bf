import XCTest
@testable import SceneFormat
import LayerModel
import Animation

/// `LayerDecoder.commonKeys` decodes a few properties without `KeyPathTable`: they must check
/// values exactly as the table's entries say.
final class CommonLayerKeyTests: XCTestCase {
    func testCommonKeysMatchTheTable() throws {
        for key in LayerDecoder.commonKeys {
            let p = try XCTUnwrap(KeyPathTable.property(named: key.name), key.name)
            XCTAssertEqual(key.valueType, p.valueType, key.name)
            XCTAssertEqual(key.nullable, p.nullable, key.name)
            XCTAssertEqual(key.domain, p.domain, key.name)
            XCTAssertNil(p.layerClass, "\(key.name) is on every layer class")
        }
    }

    /// Bad values of the common keys: the messages `DecodingContext.value` gives through the table.
    func testCommonKeysRefuseWhatTheTableRefuses() throws {
        let ctx = DecodingContext(file: "t.json", baseDirectory: "/nonexistent")
        let values = ["null", "\"x\"", "-1", "2", "0.5", "[1, 2]", "[1, 2, 3, 4]", "[1, \"a\", 3, 4]", "{}", "true", "\"#12\"", "\"\""]
        for key in LayerDecoder.commonKeys {
            let p = try XCTUnwrap(KeyPathTable.property(named: key.name))
            for text in values {
                let doc = try JSONParser.parse(Array("{\"\(key.name)\": \(text)}".utf8), file: "t.json")
                let m = doc.members![0]
                let viaTable = Result { try ctx.propertyValue(m.value, p) }
                var layer = Layer()
                let direct = Result { try LayerDecoder(ctx: ctx).setCommonKey(m, on: &layer) }
                switch (viaTable, direct) {
                case (.success(let v), .success(let handled)):
                    XCTAssertTrue(handled)
                    var expected = Layer()
                    XCTAssertTrue(p.set(&expected, v))
                    XCTAssertEqual(String(describing: p.get(layer)), String(describing: p.get(expected)), "\(key.name): \(text)")
                case (.failure(let a as SceneError), .failure(let b as SceneError)):
                    XCTAssertEqual(a.message, b.message, "\(key.name): \(text)")
                    XCTAssertEqual(a.kind, b.kind, "\(key.name): \(text)")
                    XCTAssertEqual(a.location, b.location, "\(key.name): \(text)")
                    XCTAssertEqual(a.expected, b.expected, "\(key.name): \(text)")
                default:
                    XCTFail("\(key.name): \(text): table \(viaTable), direct \(direct)")
                }
            }
        }
    }
}
