import XCTest
@testable import SceneFormat
import LayerModel

/// The decoding fast paths (pointers spelled on demand, numbers from their digits, strings straight
/// from the bytes, columns counted by words) give what the plain paths gave, deep in a big file too.
final class LargeSceneTests: XCTestCase {
    /// `count` groups of `count` layers on one line; layer (g, k) has a frame, an opacity and a
    /// non-ASCII name, so columns count scalars, not bytes.
    private func bigScene(groups: Int, layers: Int, last: String = "") -> String {
        var groupsJSON: [String] = []
        for g in 0..<groups {
            var ls: [String] = []
            for k in 0..<layers {
                ls.append(#"{"name": "é\#(g)-\#(k)", "frame": [\#(k), \#(g), 24.5, 1e1], "opacity": 0.\#(k % 10)}"#)
            }
            groupsJSON.append(#"{"sublayers": ["# + ls.joined(separator: ", ") + "]}")
        }
        return #"{"caprof": 1, "canvas": {"width": 100, "height": 50}, "root": {"sublayers": ["#
            + groupsJSON.joined(separator: ", ") + last + "]}}"
    }

    func testAnErrorDeepInABigFileNamesItsPointerLineAndColumn() throws {
        let json = bigScene(groups: 40, layers: 50, last: #", {"opacity": "half"}"#)
        // The column of the bad value, counted in Unicode scalars (each "é" is two bytes, one column).
        let prefix = json[..<json.range(of: #""half""#)!.lowerBound]
        assertSceneError(json, .wrongType, pointer: "/root/sublayers/40/opacity", line: 1,
                         column: prefix.unicodeScalars.count + 1, message: "expected a number, found a string")
    }

    func testLocationsOfLayersDeepInABigFileSpellTheirPointers() throws {
        let doc = try decodeScene(bigScene(groups: 30, layers: 40))
        let layer = doc.scene.root.sublayers[29].sublayers[39]
        XCTAssertEqual(layer.name, "é29-39")
        XCTAssertEqual(layer.frame.origin.x, 39)
        XCTAssertEqual(layer.opacity, 0.9)
        XCTAssertEqual(layer.location?.pointer, "/root/sublayers/29/sublayers/39")
        XCTAssertEqual(layer.location?.line, 1)
        // A copy of the location is equal to it, and to the same place spelled out.
        let spelled = SourceLocation(file: "scene.json", pointer: "/root/sublayers/29/sublayers/39",
                                     line: layer.location!.line, column: layer.location!.column)
        XCTAssertEqual(layer.location, spelled)
        XCTAssertEqual(layer.location.hashValue, Optional(spelled).hashValue)
        XCTAssertNotEqual(doc.scene.root.sublayers[29].sublayers[38].location, layer.location)
        // Ids in preorder, as `Scene.assignIDs` numbers them.
        var numbered = doc.scene
        numbered.assignIDs()
        var ids: [Int] = [], assigned: [Int] = []
        doc.scene.root.forEach { ids.append($0.id) }
        numbered.root.forEach { assigned.append($0.id) }
        XCTAssertEqual(ids, assigned)
    }

    func testNumbersReadFromTheirDigitsEqualDoubleOfTheirText() throws {
        var texts = ["0", "-0", "0.0", "-0.0", "1", "0.1", "0.9", "24", "24.5", "390", "1e1", "1E-3", "2.5e+2",
                     "123456789012345", "1234567890123456", "0.000001", "9007199254740993", "1e22", "1e23",
                     "1e-22", "1e-23", "0.30000000000000004", "4.35", "1.7976931348623157e308", "5e-324",
                     "123456.789012345", "0.1234567890123456789", "100000000000000000000000", "0e999"]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 { seed &+= 0x9E37_79B9_7F4A_7C15; var z = seed; z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9; return z ^ (z >> 27) }
        for _ in 0..<2000 {
            let whole = next() % 1_000_000, fraction = next() % 10_000_000_000
            texts.append("\(next() % 2 == 0 ? "-" : "")\(whole).\(fraction)e\(Int(next() % 50) - 25)")
        }
        for t in texts {
            let parsed = try JSONParser.parse(Array(t.utf8), file: "t.json").number
            XCTAssertEqual(parsed?.bitPattern, Double(t)?.bitPattern, t)
        }
    }
}
